/*
 * test_live_cli.c - the CLI parsers and views on the live 24.11 and 26.05
 * testbeds' recordings (tests/fixtures/live/slurm-R/cli/VIEW, written by
 * `squall --record DIR --once --view VIEW`): each recorded view replayed
 * through the replay backend and the fetch plan, as `squall --replay DIR
 * --once --view VIEW` shows it (and the views of the same kind of data,
 * on the same recording), with its row count, known values of the
 * testbed's workload, and no cell of any column showing Slurm's "(null)".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "core/model/view.h"
#include "session/plan.h"
#include "tests/unit/test_util.h"

/* A value a view must show: the row whose key column reads key has want
 * in column col. */
struct known {
	const char *key_col, *key, *col, *want;
};

/* One recorded view and what each release's recording shows. */
static const struct {
	const char *view;
	size_t rows_2411, rows_2605;
	struct known both, k2411, k2605;
} recs[] = {
	{ "jobs",
	  26,
	  23,
	  { "name", "hi-preempt", "partition", "high" },
	  { "job_id", "55", "restarts", "1" },
	  { "job_id", "9_[4-20]", "reason", "Resources" } },
	{ "nodes",
	  4,
	  4,
	  { "node", "n3", "gres", "gpu:a100:4" },
	  { "node", "n4", "gpus_alloc", "1" },
	  { "node", "n4", "gres_used", "gpu:t4:1(IDX:0)" } },
	{ "partitions",
	  3,
	  3,
	  { "partition", "low", "preempt_mode", "REQUEUE" },
	  { "partition", "low", "default", "yes" },
	  { "partition", "high", "priority_tier", "10" } },
	{ "gpus",
	  2,
	  2,
	  { "node", "n3", "alloc", "4" },
	  { "node", "n4", "type", "t4" },
	  { "node", "n4", "idle", "3" } },
	{ "priority",
	  10,
	  10,
	  { "prio_nice", "100", "user", "bob" },
	  { "job_id", "68", "partition", "gpu" },
	  { "job_id", "14", "partition", "gpu" } },
	{ "limits",
	  7,
	  6,
	  { "tres", "gres/gpu", "used", "5" },
	  { "qos", "sqa_itq_8771", "limit", "MaxWallPJ" },
	  { "limit", "MaxTRESPU", "qos", "low" } },
	{ "qos",
	  4,
	  3,
	  { "name", "low", "priority", "10" },
	  { "name", "sqa_itq_8771", "id", "4" },
	  { "name", "high", "priority", "1000" } },
	{ "users",
	  5,
	  5,
	  { "user", "opsadmin", "admin_level", "Administrator" },
	  { "user", "alice", "accounts", "physics,astro" },
	  { "user", "bob", "qos", "low,normal" } },
	{ "accounts",
	  4,
	  4,
	  { "account", "chemistry", "users", "bob,carol" },
	  { "account", "astro", "parent", "physics" },
	  { "account", "physics", "shares", "60" } },
	{ "assocs",
	  10,
	  10,
	  { "id", "5", "grp_tres", "gres/gpu=6" },
	  { "id", "9", "max_jobs", "2" },
	  { "id", "8", "max_submit", "20000" } },
	{ "fairshare",
	  10,
	  10,
	  { "raw_shares", "60", "account", "physics" },
	  { "raw_shares", "40", "norm_shares", "0.396040" },
	  { "raw_shares", "10", "parent", "physics" } },
	{ "reservations", 0, 0, { NULL }, { NULL }, { NULL } },
	{ "history",
	  76,
	  30,
	  { "state", "FAILED", "signal", "53" },
	  { "job_id", "55", "state", "PREEMPTED" },
	  { "job_id", "1", "state", "PREEMPTED" } },
	/* with the two "End of job queue:N" exit rows (issue 41), after
	 * the 8 rows of what changed (issue 46), and the controllers' row
	 * saying they are not known (recorded without scontrol ping), and
	 * slurmdbd's row saying the same (without sacctmgr show stats) */
	{ "diag",
	  88,
	  89,
	  { "key", "Server thread count", "value", "1" },
	  { "key", "Jobs submitted", "value", "137" },
	  { "key", "Jobs submitted", "value", "68" } },
	{ "config",
	  219,
	  218,
	  { "key", "PreemptType", "value", "preempt/partition_prio" },
	  { "key", "SLURM_VERSION", "value", "24.11.5" },
	  { "key", "SLURM_VERSION", "value", "26.05.5" } },
};
#define NRECS (sizeof(recs) / sizeof(recs[0]))

static const char *const releases[] = { "24.11", "26.05" };

static struct sq_backend *
open_replay(const char *release, const char *view)
{
	const char *root = getenv("SQ_FIXTURES");
	struct sq_cluster_cfg cfg;
	struct sq_backend *b;
	struct sq_err err;

	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "live-%s", release);
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	snprintf(cfg.replay_dir, sizeof(cfg.replay_dir),
		 "%s/live/slurm-%s/cli/%s",
		 root != NULL ? root : "tests/fixtures", release, view);
	sq_err_clear(&err);
	b = sq_backend_open(&cfg, &err);
	if (b == NULL)
		fail_msg("%s %s: %s", release, view, err.msg);
	return b;
}

/* The rows of v as --once fetches them from b (every column checked). */
static struct sq_snapshot *
fetch(struct sq_backend *b, const char *release, const struct sq_view_def *v)
{
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	char cell[512];
	size_t i, c;

	sq_err_clear(&err);
	if (sq_plan_fetch(b, v->kind, NULL, &s, &err) != 0)
		fail_msg("%s %s: %s", release, v->name, err.msg);
	sq_plan_keep(v, s);
	for (i = 0; i < s->nrows; i++) {
		const void *rec = sq_snapshot_row(s, i);

		for (c = 0; c < v->ncols; c++) {
			const char *t =
			    v->cols[c].text(rec, cell, sizeof(cell));

			if (t != NULL && strstr(t, "(null)") != NULL)
				fail_msg("%s %s: row %zu %s shows \"%s\"",
					 release, v->name, i, v->cols[c].id, t);
		}
	}
	return s;
}

/* The text of column id in the row whose key column reads key; NULL
 * when no row does. */
static const char *
cell_of(const struct sq_view_def *v, const struct sq_snapshot *s,
	const char *key_col, const char *key, const char *id, char *buf,
	size_t n)
{
	const struct sq_column *kc = sq_view_column(v, key_col);
	const struct sq_column *col = sq_view_column(v, id);
	char kbuf[512];
	size_t i;

	if (kc == NULL || col == NULL)
		fail_msg("%s: no column %s or %s", v->name, key_col, id);
	for (i = 0; i < s->nrows; i++) {
		const void *rec = sq_snapshot_row(s, i);
		const char *k = kc->text(rec, kbuf, sizeof(kbuf));

		if (k != NULL && strcmp(k, key) == 0) {
			const char *t = col->text(rec, buf, n);

			return t != NULL ? t : "";
		}
	}
	return NULL;
}

static void
check_known(const char *release, const struct sq_view_def *v,
	    const struct sq_snapshot *s, const struct known *k, const char *key)
{
	char buf[512];
	const char *t;

	if (k->key_col == NULL)
		return;
	t = cell_of(v, s, k->key_col, key, k->col, buf, sizeof(buf));
	if (t == NULL)
		fail_msg("%s %s: no row with %s=%s", release, v->name,
			 k->key_col, key);
	if (strcmp(t, k->want) != 0)
		fail_msg("%s %s: %s=%s has %s \"%s\", not \"%s\"", release,
			 v->name, k->key_col, key, k->col, t, k->want);
}

/* Every recorded view of both releases: its rows and known values. */
static void
test_recorded_views(void **state)
{
	size_t r, i;

	(void)state;
	for (r = 0; r < 2; r++) {
		for (i = 0; i < NRECS; i++) {
			const struct sq_view_def *v =
			    sq_view_find(recs[i].view);
			struct sq_backend *b;
			struct sq_snapshot *s;
			size_t want =
			    r == 0 ? recs[i].rows_2411 : recs[i].rows_2605;

			assert_non_null(v);
			b = open_replay(releases[r], recs[i].view);
			s = fetch(b, releases[r], v);
			if (s->nrows != want)
				fail_msg("%s %s: %zu rows, not %zu",
					 releases[r], v->name, s->nrows, want);
			check_known(releases[r], v, s, &recs[i].both,
				    recs[i].both.key);
			if (r == 0)
				check_known(releases[r], v, s, &recs[i].k2411,
					    recs[i].k2411.key);
			else
				check_known(releases[r], v, s, &recs[i].k2605,
					    recs[i].k2605.key);
			sq_snapshot_unref(s);
			sq_backend_close(b);
		}
	}
}

/* The other views of a recorded kind (gpus-users, history-nodes ...)
 * on the same recording: rows, and no "(null)" either. */
static void
test_same_kind_views(void **state)
{
	size_t r, i, k, n = 0;

	(void)state;
	for (r = 0; r < 2; r++) {
		for (i = 0; i < NRECS; i++) {
			const struct sq_view_def *rv =
			    sq_view_find(recs[i].view);

			for (k = 0; sq_views[k] != NULL; k++) {
				const struct sq_view_def *v = sq_views[k];
				struct sq_backend *b;
				struct sq_snapshot *s;

				if (v == rv || v->kind != rv->kind)
					continue;
				b = open_replay(releases[r], recs[i].view);
				s = fetch(b, releases[r], v);
				if (s->nrows == 0)
					fail_msg("%s %s: no rows", releases[r],
						 v->name);
				sq_snapshot_unref(s);
				sq_backend_close(b);
				n++;
			}
		}
	}
	/* gpus-partitions, gpus-users, gpus-accounts, history-users,
	 * history-accounts, history-nodes at least, twice */
	assert_true(n >= 12);
}

/* The raw outputs keep Slurm's "(null)" (the views must not show it):
 * the recordings still test what they were recorded for. */
static void
test_raw_has_null(void **state)
{
	size_t r;

	(void)state;
	for (r = 0; r < 2; r++) {
		char rel[200], *t;

		snprintf(rel, sizeof(rel),
			 "live/slurm-%s/cli/nodes/000002-sinfo.out",
			 releases[r]);
		t = sq_test_fixture(rel, NULL);
		assert_non_null(strstr(t, "(null)"));
		free(t);
		snprintf(rel, sizeof(rel),
			 "live/slurm-%s/cli/config/000002-scontrol.out",
			 releases[r]);
		t = sq_test_fixture(rel, NULL);
		assert_non_null(strstr(t, "(null)"));
		free(t);
	}
}

/* A view the recording has no output of: the message names the command
 * and what the recording holds, each command once (issue 45, item 6: it
 * said only "no output of 'scontrol'", with scontrol's outputs there) */
static void
test_replay_says_what_it_has(void **state)
{
	const char *root = getenv("SQ_FIXTURES");
	struct sq_cluster_cfg cfg;
	struct sq_backend *b;
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	const char *m, *first;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "replay");
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	snprintf(cfg.replay_dir, sizeof(cfg.replay_dir), "%s/replay/22.05",
		 root != NULL ? root : "tests/fixtures");
	sq_err_clear(&err);
	b = sq_backend_open(&cfg, &err);
	assert_non_null(b);
	assert_int_not_equal(sq_plan_fetch(b, SQ_KIND_LICENSES, NULL, &s, &err),
			     0);
	assert_null(s);
	m = err.msg;
	assert_non_null(strstr(m, "no output of 'scontrol show licenses'"));
	assert_non_null(strstr(m, "it holds: "));
	first = strstr(m, "scontrol show assoc_mgr");
	assert_non_null(first);
	assert_null(strstr(first + 1, "scontrol show assoc_mgr"));
	/* five squeue and sacct outputs each, named once */
	first = strstr(m, " squeue,");
	assert_non_null(first);
	assert_null(strstr(first + 1, " squeue,"));
	assert_non_null(strstr(m, "sacctmgr show qos"));
	sq_backend_close(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_has_null),
		cmocka_unit_test(test_recorded_views),
		cmocka_unit_test(test_same_kind_views),
		cmocka_unit_test(test_replay_says_what_it_has),
	};

	setenv("SQUALL_CONFIG", "/dev/null", 1);
	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
