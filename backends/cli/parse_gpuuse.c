/*
 * parse_gpuuse.c - the inputs of the GPUUSE kind: the running jobs that
 * hold GPUs from `squeue -h -a -t R -O <sq_cli_gpuuse_fmt>`, then their
 * steps' GPU use from one `sstat -a -n -P -j ID,ID,... -o
 * <sq_cli_gpuuse_sstat_fields>`. Rows go through core/analysis/gpuuse.c; the
 * caller runs sq_gpuuse_finish().
 */
#include <stdio.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/analysis/gpuuse.h"
#include "core/base/parse.h"

const char sq_cli_gpuuse_fmt[] = "JobID:|,UserName:|,Account:|,Partition:|,"
				 "StartTime:|,NodeList:|,tres-alloc:";
const char sq_cli_gpuuse_sstat_fields[] =
    "JobID,TRESUsageInAve,TRESUsageInMax,TRESUsageInTot";

enum { J_ID, J_USER, J_ACCOUNT, J_PART, J_START, J_NODES, J_TRES, J_COUNT };

int
sq_parse_gpuuse_jobs(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[J_COUNT];
	int lineno = 0, n;

	while ((line = sq_next_line(&pos)) != NULL) {
		int64_t start;

		lineno++;
		if (*line == '\0')
			continue;
		n = sq_split(line, '|', f, J_COUNT);
		if (n != J_COUNT)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "squeue line %d: %d fields, expected "
					  "%d (truncated output?)",
					  lineno, n, J_COUNT);
		if (sq_parse_time(f[J_START], &start) != 0)
			start = SQ_NONE;
		if (sq_gpuuse_add_job(s, f[J_ID], f[J_USER], f[J_ACCOUNT],
				      f[J_PART], start, f[J_NODES],
				      f[J_TRES]) == -1)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	sq_gpuuse_sort(s); /* each step's job by a binary search */
	return 0;
}

enum { S_ID, S_AVE, S_MAX, S_TOT, S_COUNT };

int
sq_parse_gpuuse_sstat(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[S_COUNT];
	int lineno = 0, n;

	while ((line = sq_next_line(&pos)) != NULL) {
		lineno++;
		if (line[strspn(line, " \r")] == '\0')
			continue;
		n = sq_split(line, '|', f, S_COUNT);
		if (n != S_COUNT)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sstat line %d: %d fields, expected "
					  "%d",
					  lineno, n, S_COUNT);
		f[S_TOT][strcspn(f[S_TOT], "\r")] = '\0';
		/* the job line (no '.') carries no step usage */
		if (strchr(f[S_ID], '.') == NULL)
			continue;
		(void)sq_gpuuse_add_step(s, f[S_ID], f[S_MAX], f[S_TOT]);
	}
	return 0;
}

int
sq_parse_gpuuse_sstat_err(const char *text, struct sq_snapshot *s,
			  const char *note)
{
	const char *p = text;
	int n = 0;

	while (p != NULL && *p != '\0') {
		const char *eol = strchr(p, '\n'), *id;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512], job[64];
		struct sq_gpuuse *g;
		size_t l;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p = eol ? eol + 1 : NULL;
		id = strstr(line, "StepId=");
		if (id == NULL || (strstr(line, "Invalid user id") == NULL &&
				   strstr(line, "ermission denied") == NULL))
			continue;
		id += 7;
		l = strcspn(id, ".: ");
		if (l == 0 || l >= sizeof(job))
			continue;
		memcpy(job, id, l);
		job[l] = '\0';
		g = sq_gpuuse_find(s, job);
		if (g == NULL || g->steps > 0 || g->note == note)
			continue;
		g->note = note;
		n++;
	}
	return n;
}
