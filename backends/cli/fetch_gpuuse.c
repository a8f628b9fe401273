/*
 * fetch_gpuuse.c - the GPUUSE kind through the local and ssh backends:
 * the running jobs holding GPUs (one squeue), then one sstat for all of
 * them (not one per job), and the idle judgement over the samples kept
 * from the last result (cli->gpuuse_prev). Slurm before 23.02 collects no
 * GPU use: the rows then say so and no sstat runs.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli_admin.h"
#include "core/buf.h"
#include "core/gpuuse.h"
#include "core/util.h"

/* sstat -a -n -P -j <ids> -o <fields> into s. sstat fails for the
 * jobs it may not read (another user's, through ssh as a user) yet prints
 * the others: its lines are read anyway and its message goes to *why
 * for the rows it left without a step. */
static int
run_sstat(struct sq_cli *cli, struct sq_snapshot *s, const char **why,
	  struct sq_err *err)
{
	struct sq_buf ids, out;
	struct sq_err e;
	size_t i;
	int rc = 0;

	sq_buf_init(&ids, 0);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_gpuuse *g = sq_snapshot_row(s, i);

		if (i > 0)
			sq_buf_append(&ids, ",", 1);
		sq_buf_append(&ids, g->id, strlen(g->id));
	}
	if (ids.data == NULL || ids.truncated) {
		sq_buf_free(&ids);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	{
		const char *const argv[] = {
			"sstat", "-a",     "-n", "-P",
			"-j",    ids.data, "-o", sq_cli_gpuuse_sstat_fields,
			NULL
		};

		sq_buf_init(&out, SQ_CLI_OUT_LIMIT);
		sq_err_clear(&e);
		if (sq_cli_run(cli, argv, &out, &e) == -1)
			*why = sq_snapshot_str(s, e.msg);
		if (out.data != NULL && !out.truncated)
			rc = sq_parse_gpuuse_sstat(out.data, s, err);
	}
	sq_buf_free(&out);
	sq_buf_free(&ids);
	return rc;
}

int
sq_cli_fetch_gpuuse(struct sq_cli *cli, struct sq_snapshot **out,
		    struct sq_err *err)
{
	const char *const jargv[] = {
		"squeue", "-h", "-a", "-t", "R", "-O", sq_cli_gpuuse_fmt, NULL
	};
	struct sq_snapshot *s;
	struct sq_buf buf;
	const char *why = NULL, *note_all = NULL;
	double t0 = sq_util_now_ms();
	size_t i;
	int rc;

	s = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s->source = "squeue tres-alloc + sstat TRESUsageIn (gres/gpuutil)";
	sq_buf_init(&buf, SQ_CLI_OUT_LIMIT);
	rc = sq_cli_run(cli, jargv, &buf, err);
	if (rc == 0) {
		if (buf.data == NULL)
			sq_buf_append(&buf, "", 0);
		rc = sq_parse_gpuuse_jobs(buf.data, s, err);
	}
	sq_buf_free(&buf);
	if (rc == -1)
		goto fail;
	/* gres/gpuutil exists from 23.02 (gpu_p_usage_read) */
	if (cli->major > 0 &&
	    (cli->major < 23 || (cli->major == 23 && cli->minor < 2)))
		note_all = "not collected: Slurm before 23.02 measures no GPU "
			   "use (no gres/gpuutil)";
	else if (s->nrows > 0 && run_sstat(cli, s, &why, err) == -1)
		goto fail;
	sq_gpuuse_finish(s, cli->gpuuse_prev, (int64_t)time(NULL),
			 sq_gpuuse_cfg_get(), note_all);
	if (note_all != NULL)
		s->note = note_all;
	for (i = 0; why != NULL && i < s->nrows; i++) {
		struct sq_gpuuse *g = sq_snapshot_row(s, i);

		if (g->steps == 0)
			g->note = why;
	}
	sq_snapshot_unref(cli->gpuuse_prev);
	cli->gpuuse_prev = sq_snapshot_ref(s);
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	return 0;
fail:
	sq_snapshot_unref(s);
	return -1;
}
