/*
 * rest_history.c - slurmdbd's job runs through slurmrestd (GET
 * /slurmdb/vN/jobs) into a HISTORY snapshot: the history views' window
 * (rest.c's fetch, with its incremental refresh) and the events view's
 * runs of the jobs preempted (rest_views.c).
 */
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/rest/rest.h"
#include "backends/slurmjson/slurmjson.h"

/* GET slurmdbd's job runs since start (sacct -S syntax: now-Nseconds or
 * a local date) into a HISTORY snapshot; v0.0.38 lists every run of a
 * requeued job, v0.0.40+ does with show_duplicates. */
int
sq_rest_fetch_runs(struct sq_backend *b, const char *start,
		   struct sq_snapshot **out, struct sq_err *err)
{
	char enc[120], query[160];
	size_t i, o = 0;

	/* only digits, letters, '-' and ':' here; ':' is encoded */
	for (i = 0; start[i] != '\0' && o + 4 < sizeof(enc); i++) {
		if (start[i] == ':') {
			memcpy(enc + o, "%3A", 3);
			o += 3;
		} else {
			enc[o++] = start[i];
		}
	}
	enc[o] = '\0';
	snprintf(query, sizeof(query), "start_time=%s&end_time=now", enc);
	return sq_rest_fetch_runs_query(b, query, out, err);
}

int
sq_rest_fetch_runs_query(struct sq_backend *b, const char *query,
			 struct sq_snapshot **out, struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	struct sq_sj_info info;
	char path[2048];
	long status;
	int n;

	*out = NULL;
	if (api->slurmdb == 0)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "slurmrestd offers no /slurmdb/ API this "
				  "mapping understands");
	n = snprintf(path, sizeof(path), "/slurmdb/v0.0.%d/jobs?%s%s",
		     api->slurmdb, query,
		     api->slurmdb >= 40 ? "&show_duplicates=true" : "");
	if (n < 0 || (size_t)n >= sizeof(path))
		return sq_err_set(err, SQ_ERR_USAGE,
				  "slurmdb jobs query too long (%d bytes)", n);
	if (sq_rest_get_parse(b, SQ_KIND_HISTORY, path, out, &info, &status,
			      err) == -1)
		return -1;
	if (info.unchanged) {
		sq_snapshot_unref(*out);
		*out = NULL;
		return sq_err_set(err, SQ_ERR_PARSE,
				  "GET %s: answer without jobs (%s)", path,
				  info.warning);
	}
	return 0;
}
