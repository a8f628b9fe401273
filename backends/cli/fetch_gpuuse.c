/*
 * fetch_gpuuse.c - the GPUUSE kind through the local and ssh backends:
 * the running jobs holding GPUs (one squeue), then one sstat for all of
 * them (not one per job), and the idle judgement over the samples kept
 * from the last result (cli->gpuuse_prev). Slurm before 23.02 collects no
 * GPU use: the rows then say so and no sstat runs.
 */
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/cli/cli_admin.h"
#include "core/base/buf.h"
#include "core/analysis/gpuuse.h"
#include "core/base/util.h"

/* sstat -a -n -P -j <ids> -o <fields> into s. sstat fails for the
 * jobs it may not read (another user's, through ssh as a user) yet prints
 * the others: its lines are read anyway and its message goes to *why
 * for the rows it left without a step. */
static int
run_sstat(struct sq_cli *cli, struct sq_snapshot *s, const char **why,
	  struct sq_buf *ebuf, struct sq_err *err)
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

		sq_buf_init(&out, sq_cli_out_limit(cli));
		sq_err_clear(&e);
		if (sq_cli_run_err(cli, argv, &out, ebuf, &e) == -1)
			*why = sq_snapshot_str(s, e.msg);
		if (out.data != NULL && !out.truncated)
			rc = sq_parse_gpuuse_sstat(out.data, s, err);
	}
	sq_buf_free(&out);
	sq_buf_free(&ids);
	return rc;
}

/* What the rows of the jobs sstat refused say: Slurm answers a user
 * sstat only for their own jobs (slurmd: "Invalid user id"), so over
 * ssh as alice, or locally as alice, bob's jobs have no figure. */
static const char *
refused_note(struct sq_cli *cli, struct sq_snapshot *s)
{
	const struct sq_cluster_cfg *cfg = cli->b ? &cli->b->cfg : NULL;
	int ssh = cfg != NULL && strcmp(cfg->backend, "ssh") == 0;
	const char *who = ssh && cfg->user[0] ? cfg->user : NULL;
	struct passwd *pw;
	char note[300];

	if (who == NULL) {
		pw = getpwuid(geteuid());
		who = pw != NULL ? pw->pw_name : "this user";
	}
	snprintf(note, sizeof(note),
		 "sstat refused (Invalid user id): %s %s, Slurm answers "
		 "only for %s's own jobs",
		 ssh ? "over ssh as" : "run as", who, who);
	return sq_snapshot_str(s, note);
}

int
sq_cli_fetch_gpuuse(struct sq_cli *cli, struct sq_snapshot **out,
		    struct sq_err *err)
{
	const char *const jargv[] = {
		"squeue", "-h", "-a", "-t", "R", "-O", sq_cli_gpuuse_fmt, NULL
	};
	struct sq_snapshot *s;
	struct sq_buf buf, ebuf;
	const char *why = NULL, *note_all = NULL;
	double t0 = sq_util_now_ms();
	size_t i;
	int rc;

	s = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s->source = "squeue tres-alloc + sstat TRESUsageIn (gres/gpuutil)";
	sq_buf_init(&buf, sq_cli_out_limit(cli));
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
	sq_buf_init(&ebuf, SQ_CLI_ERR_LIMIT);
	if (note_all == NULL && s->nrows > 0 &&
	    run_sstat(cli, s, &why, &ebuf, err) == -1) {
		sq_buf_free(&ebuf);
		goto fail;
	}
	sq_gpuuse_finish(s, cli->gpuuse_prev, (int64_t)time(NULL),
			 sq_gpuuse_cfg_get(), note_all);
	if (note_all != NULL)
		s->note = note_all;
	for (i = 0; why != NULL && i < s->nrows; i++) {
		struct sq_gpuuse *g = sq_snapshot_row(s, i);

		if (g->steps == 0)
			g->note = why;
	}
	/* after why: the jobs sstat refused by name say so */
	if (ebuf.len > 0 && strstr(sq_buf_str(&ebuf), "StepId=") != NULL)
		sq_parse_gpuuse_sstat_err(sq_buf_str(&ebuf), s,
					  refused_note(cli, s));
	sq_buf_free(&ebuf);
	sq_snapshot_unref(cli->gpuuse_prev);
	cli->gpuuse_prev = sq_snapshot_ref(s);
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	return 0;
fail:
	sq_snapshot_unref(s);
	return -1;
}
