/*
 * runaway.c - the fix-runaway action through the CLI backends (local,
 * ssh). `sacctmgr -i show runawayjobs` fixes every runaway job of the
 * cluster at once: slurmdbd sets each one's end time to the latest of
 * its start, eligible and submit times and its state to COMPLETED (in
 * one UPDATE of the job table, src/plugins/accounting_storage/mysql/
 * as_mysql_fix_runaway_jobs.c), then moves the rollup back to the end of
 * the month before the earliest submit and deletes the usage rows from
 * there, so the next rollup counts usage again. Nothing undoes it.
 * Because the fix cannot name jobs, the action is refused when the list
 * holds jobs that are not its targets; after it, each target must be gone
 * from the list (answered N) to count as done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/act.h"
#include "backends/cli/actions.h"
#include "backends/cli/cli_admin.h"
#include "core/base/util.h"

/* The runaway list now (answered N); NULL with err set. */
static struct sq_snapshot *
read_list(struct sq_cli *cli, struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_RUNAWAY, 0);

	if (s == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	if (sq_cli_runaway_list(cli, s, err) == -1) {
		sq_snapshot_unref(s);
		return NULL;
	}
	return s;
}

static const struct sq_runaway *
find(const struct sq_snapshot *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_runaway *r = sq_snapshot_row(s, i);
		char buf[16];

		snprintf(buf, sizeof(buf), "%u", (unsigned)r->id);
		if (strcmp(buf, id) == 0)
			return r;
	}
	return NULL;
}

static int
is_target(const struct sq_action *a, uint32_t id)
{
	char buf[16];
	size_t i;

	snprintf(buf, sizeof(buf), "%u", (unsigned)id);
	for (i = 0; i < a->ntargets; i++)
		if (strcmp(a->targets[i], buf) == 0)
			return 1;
	return 0;
}

/* The listed jobs that are not targets, "12,13" into buf; their count. */
static size_t
others(const struct sq_action *a, const struct sq_snapshot *s, char *buf,
       size_t n)
{
	size_t i, k = 0, off = 0;

	buf[0] = '\0';
	for (i = 0; i < s->nrows; i++) {
		const struct sq_runaway *r = sq_snapshot_row(s, i);

		if (is_target(a, r->id))
			continue;
		if (off < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%u",
						k ? "," : "", (unsigned)r->id);
		k++;
	}
	return k;
}

static void
fmt_time(int64_t t, char *buf, size_t n)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t <= 0 || localtime_r(&tt, &tm) == NULL)
		snprintf(buf, n, "unknown");
	else
		strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
}

int
sq_cli_runaway_read_targets(struct sq_backend *b, const struct sq_action *a,
			    struct sq_target_state *out, struct sq_err *err)
{
	struct sq_snapshot *s = read_list(b->priv, err);
	size_t i;

	if (s == NULL)
		return -1;
	for (i = 0; i < a->ntargets; i++) {
		const struct sq_runaway *r = find(s, a->targets[i]);

		out[i].found = r != NULL;
		sq_util_copy(out[i].state, sizeof(out[i].state),
			     r ? r->state : "");
	}
	sq_snapshot_unref(s);
	return 0;
}

/* The preview: the command, each job and what the fix sets on it. */
int
sq_cli_runaway_describe(struct sq_backend *b, const struct sq_action *a,
			char *buf, size_t len)
{
	struct sq_snapshot *s;
	struct sq_cli_cmds cmds;
	struct sq_err err;
	char more[256], t[32];
	size_t i, off, k;

	if (sq_cli_action_cmds(a, NULL, NULL, &cmds, &err) == -1) {
		snprintf(buf, len, "(%s)", err.msg);
		return -1;
	}
	off = sq_cli_describe_where(b, buf, len);
	sq_cli_cmds_format(&cmds, buf + off, len - off);
	sq_cli_cmds_free(&cmds);
	off = strlen(buf);
	s = b->priv != NULL ? read_list(b->priv, &err) : NULL;
	for (i = 0; s != NULL && i < a->ntargets && off < len; i++) {
		const struct sq_runaway *r = find(s, a->targets[i]);

		if (r == NULL)
			continue;
		fmt_time(r->start, t, sizeof(t));
		off += (size_t)snprintf(
		    buf + off, len - off,
		    "\njob %u %.40s (%.20s, %.16s since %s): end time := the "
		    "latest of its start, eligible and submit times, state "
		    ":= COMPLETED",
		    (unsigned)r->id, r->name, r->partition, r->state, t);
	}
	k = s != NULL ? others(a, s, more, sizeof(more)) : 0;
	if (off < len)
		off += (size_t)snprintf(
		    buf + off, len - off,
		    "\nslurmdbd then recounts usage from the end of the month "
		    "before the earliest submit; sacctmgr fixes every runaway "
		    "job of the cluster at once%s%s%s; cannot be undone",
		    k ? " (refused: also listed now: " : "", k ? more : "",
		    k ? ")" : "");
	if (s != NULL)
		sq_snapshot_unref(s);
	return 0;
}

/* The jobs sacctmgr -i listed (and so fixed) that were not targets: a job
 * that ran away between the check and the fix; "" when none. */
static void
also_fixed(const struct sq_action *a, struct sq_buf *out, char *buf, size_t n)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_RUNAWAY, 0);
	struct sq_err e;

	buf[0] = '\0';
	if (s == NULL)
		return;
	if (out->data != NULL && sq_parse_runaway(out->data, s, &e) == 0)
		others(a, s, buf, n);
	sq_snapshot_unref(s);
}

/* Each target: gone from the list after the fix, or not. */
static void
judge(const struct sq_action *a, const struct sq_snapshot *after,
      struct sq_result *res)
{
	size_t i;

	for (i = 0; i < a->ntargets; i++) {
		struct sq_target_result *t = &res->targets[i];
		int gone = find(after, a->targets[i]) == NULL;

		t->ok = gone;
		t->verified = gone ? SQ_VERIFY_OK : SQ_VERIFY_FAILED;
		snprintf(t->message, sizeof(t->message), "%s",
			 gone ? "fixed: no longer a runaway job (COMPLETED "
				"in accounting; no undo)"
			      : "still listed as a runaway job");
		if (!gone)
			res->nfailed++;
	}
}

int
sq_cli_runaway_act(struct sq_backend *b, const struct sq_action *a,
		   struct sq_result *res, struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	struct sq_snapshot *before = NULL, *after = NULL;
	struct sq_cli_cmds cmds = { NULL, 0 };
	struct sq_buf out;
	char more[256], why[512] = "";
	double t0 = sq_util_now_ms();
	int rc = -1;

	if (sq_act_begin(res, a, err) == -1)
		return -1;
	sq_buf_init(&out, sq_cli_out_limit(cli));
	before = read_list(cli, err);
	if (before == NULL)
		goto out;
	if (others(a, before, more, sizeof(more)) > 0) {
		sq_err_set(err, SQ_ERR_DENIED,
			   "not run: sacctmgr fixes every runaway job at once "
			   "and these are listed too: %.200s (`:fix-runaway *` "
			   "takes every row)",
			   more);
		goto out;
	}
	if (sq_cli_action_cmds(a, NULL, NULL, &cmds, err) == -1 || cmds.n != 1)
		goto out;
	if (sq_cli_run(cli, (const char *const *)cmds.v[0].argv, &out, err) ==
	    -1) {
		res->status = 1;
		sq_util_copy(why, sizeof(why), err->msg);
	}
	after = read_list(cli, err);
	if (after == NULL) {
		res->nfailed = a->ntargets;
		snprintf(res->message, sizeof(res->message),
			 "%s: sacctmgr -i ran (status %d) but the list after "
			 "could not be read, so nothing is verified: %.300s",
			 a->def->name, res->status, err->msg);
		goto out;
	}
	judge(a, after, res);
	also_fixed(a, &out, more, sizeof(more));
	rc = sq_act_summary(res, a, why, err);
	if (rc == -1 && res->status == 0)
		res->status = 1;
	if (more[0] != '\0') {
		size_t l = strlen(res->message);

		snprintf(res->message + l, sizeof(res->message) - l,
			 "; sacctmgr also fixed %.200s (runaway since the "
			 "check)",
			 more);
	}
out:
	if (rc == -1 && res->message[0] == '\0')
		snprintf(res->message, sizeof(res->message), "%s: %s",
			 a->def->name, err->msg);
	sq_buf_free(&out);
	sq_cli_cmds_free(&cmds);
	if (before != NULL)
		sq_snapshot_unref(before);
	if (after != NULL)
		sq_snapshot_unref(after);
	return sq_act_end(res, rc, err, t0);
}
