/*
 * test_plan.c - the fetch plan (session/plan.h) is the one place that
 * decides what a view fetches and joins: for EVERY view, the console's
 * rows (a worker thread wanting what the console wants, the table widget
 * with the view's default columns) equal `squall --once` rows (batch
 * mode) on one recorded session (tests/fixtures/replay/22.05, see its
 * README). With arguments (`test_plan VIEW [BACKEND]`) it compares one
 * view on a live cluster instead and prints its rows, sorted, as tsv
 * (tests/integration/test_plan.sh). And the plan builds a kind a backend
 * does not read from the kinds it does (a fake backend that reads nodes
 * and jobs only, as slurmrestd serves no GPU lines), and completes the
 * accounts and users it reads without their associations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/slurmjson/slurmjson.h"
#include "batch/batch.h"
#include "core/analysis/gpus.h"
#include "core/base/sanitize.h"
#include "core/model/model_admin.h"
#include "session/plan.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/fake_backend.h"
#include "tests/unit/test_util.h"
#include "tui/table.h"
#include "tui/worker.h"

#define REPLAY "tests/fixtures/replay/22.05"
#define SPEC "tests/fixtures/spec/testbed.json"

/* live mode: print the rows when both ways agree */
static int show_rows;

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Sort the lines after the first (the header) so that two texts with the
 * same rows in another order compare equal; the tree views and arrays
 * of the console arrange rows where --once lists them sorted. */
static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *
sorted_rows(const char *text)
{
	char *copy = strdup(text), **lines = NULL, *p, *out;
	size_t n = 0, cap = 0, i, len = strlen(text) + 2;

	out = calloc(1, len);
	if (copy == NULL || out == NULL)
		abort();
	for (p = strtok(copy, "\n"); p != NULL; p = strtok(NULL, "\n")) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			lines = realloc(lines, cap * sizeof(*lines));
			if (lines == NULL)
				abort();
		}
		lines[n++] = p;
	}
	if (n > 1)
		qsort(lines + 1, n - 1, sizeof(*lines), cmp_line);
	for (i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	free(lines);
	free(copy);
	return out;
}

/* The console's rows of v: the table's shown columns over the snapshot
 * a worker published for what the console wants, as tsv. NULL with
 * *why set when the worker's fetch failed. */
static char *
console_rows(const struct sq_cluster_cfg *cfg, const struct sq_view_def *v,
	     char *why, size_t n)
{
	struct sq_table t;
	struct sq_worker *w;
	struct sq_worker_status st;
	struct sq_snapshot *snap;
	struct sq_err err;
	char *buf = NULL, cell[SQ_TABLE_CELL];
	size_t len = 0, i;
	FILE *fp;
	int c, tries;

	sq_table_init(&t, v);
	w = sq_worker_start(cfg, 10, 60, &err);
	if (w == NULL) {
		snprintf(why, n, "worker: %s", err.msg);
		return NULL;
	}
	sq_worker_want(
	    w, sq_plan_kinds(v->kind, sq_plan_want_cols(v, t.cols, t.ncols)),
	    0);
	why[0] = '\0';
	for (tries = 0; tries < 3000; tries++) {
		sq_worker_status(w, &st);
		if (st.state == SQ_WORKER_FAILED)
			snprintf(why, n, "open: %s", st.error);
		else if (st.kind[v->kind].fetched != 0)
			break;
		else if (st.kind[v->kind].failures > 0)
			snprintf(why, n, "%s", st.kind[v->kind].error);
		if (why[0] != '\0')
			break;
		sleep_ms(10);
	}
	snap = sq_worker_get(w, v->kind);
	sq_worker_stop(w, 2000);
	if (snap == NULL) {
		if (why[0] == '\0')
			snprintf(why, n, "no snapshot in 30 s");
		sq_table_free(&t);
		return NULL;
	}
	sq_table_set_snapshot(&t, snap);
	sq_snapshot_unref(snap);
	fp = open_memstream(&buf, &len);
	if (fp == NULL)
		abort();
	for (c = 0; c < t.ncols; c++)
		fprintf(fp, "%s%s", c ? "\t" : "", v->cols[t.cols[c]].id);
	fputc('\n', fp);
	for (i = 0; i < t.nrows; i++) {
		const void *rec = sq_snapshot_row(t.snap, t.rows[i].rec);

		for (c = 0; c < t.ncols; c++) {
			const char *s =
			    v->cols[t.cols[c]].text(rec, cell, sizeof(cell));

			if (c)
				fputc('\t', fp);
			sq_tsv_escape(fp, s ? s : "");
		}
		fputc('\n', fp);
	}
	fclose(fp);
	sq_table_free(&t);
	return buf;
}

/* `squall --once --view v --columns <the console's> --format tsv`: its
 * stdout, and its exit status in *rc. */
static char *
once_rows(const struct sq_cluster_cfg *cfg, const struct sq_view_def *v,
	  int *rc)
{
	struct sq_table t;
	char cols[2048], *buf;
	FILE *tmp = tmpfile();
	int saved;
	long len;

	if (tmp == NULL)
		abort();
	sq_table_init(&t, v);
	sq_table_columns_text(&t, cols, sizeof(cols));
	sq_table_free(&t);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved == -1 || dup2(fileno(tmp), STDOUT_FILENO) == -1)
		abort();
	*rc = sq_batch_run(cfg, v->name, SQ_FMT_TSV, cols, NULL, NULL);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	len = ftell(tmp);
	buf = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
	if (buf == NULL)
		abort();
	rewind(tmp);
	if (len > 0 && fread(buf, 1, (size_t)len, tmp) != (size_t)len)
		abort();
	fclose(tmp);
	return buf;
}

/* Compare v's rows both ways; 0 when equal, else print both (prefix). */
static int
compare_view(const struct sq_cluster_cfg *cfg, const struct sq_view_def *v,
	     size_t *nrows)
{
	char why[600], *con, *once, *a, *b;
	int rc, same;

	con = console_rows(cfg, v, why, sizeof(why));
	once = once_rows(cfg, v, &rc);
	if (con == NULL) {
		/* the console could not fetch it: --once must fail too */
		printf("# %s: console: %s; --once exit %d\n", v->name, why, rc);
		free(once);
		return rc == 0 ? -1 : 0;
	}
	a = sorted_rows(con);
	b = sorted_rows(once);
	same = rc == 0 && strcmp(a, b) == 0;
	if (!same)
		printf("# %s differs (--once exit %d)\n# console:\n%s# "
		       "--once:\n%s",
		       v->name, rc, a, b);
	else if (show_rows)
		fputs(a, stdout);
	*nrows = 0;
	for (char *p = a; (p = strchr(p, '\n')) != NULL; p++)
		(*nrows)++;
	if (*nrows > 0)
		(*nrows)--; /* the header */
	free(a);
	free(b);
	free(con);
	free(once);
	return same ? 0 : -1;
}

static void
replay_cfg(struct sq_cluster_cfg *cfg)
{
	const char *root = getenv("SQ_FIXTURES");
	char dir[400];

	snprintf(dir, sizeof(dir), "%s/replay/22.05",
		 root != NULL ? root : "tests/fixtures");
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->name, sizeof(cfg->name), "replay");
	snprintf(cfg->backend, sizeof(cfg->backend), "replay");
	snprintf(cfg->replay_dir, sizeof(cfg->replay_dir), "%s", dir);
	snprintf(cfg->spec, sizeof(cfg->spec), "%s", SPEC);
}

/* Every view: the console's rows are --once rows, on one recording. */
static void
test_plan_every_view(void **state)
{
	struct sq_cluster_cfg cfg;
	size_t i, n, views = 0, rows = 0;
	int bad = 0;

	(void)state;
	replay_cfg(&cfg);
	for (i = 0; sq_views[i] != NULL; i++) {
		/* every configured cluster at once: not one backend's data,
		 * fetched by session/clusters.c for both front ends alike
		 * (test_overview.c) */
		if (sq_views[i]->kind == SQ_KIND_CLUSTERS)
			continue;
		if (compare_view(&cfg, sq_views[i], &n) == -1)
			bad++;
		views++;
		rows += n;
		printf("# %-16s %zu rows, console = --once\n",
		       sq_views[i]->name, n);
	}
	assert_int_equal(bad, 0);
	/* the recording is not empty: the comparison compared something */
	assert_true(views >= 20);
	assert_true(rows > 100);
}

/* The events view joins the queue in both: restarts and preemptor's
 * user come from the jobs (the drift this plan removed). */
static void
test_plan_table(void **state)
{
	(void)state;
	assert_int_not_equal(sq_plan_kinds(SQ_KIND_EVENTS, SQ_PLAN_EAGER) &
				 SQ_KIND_BIT(SQ_KIND_JOBS),
			     0);
	assert_int_equal(sq_plan_kinds(SQ_KIND_JOBS, SQ_PLAN_EAGER),
			 SQ_KIND_BIT(SQ_KIND_JOBS));
	assert_int_equal(sq_plan_kinds(SQ_KIND_JOBS, SQ_PLAN_PRIO),
			 SQ_KIND_BIT(SQ_KIND_JOBS) | SQ_KIND_BIT(SQ_KIND_PRIO));
	/* sstat's GPU use only for the columns that show it */
	assert_int_equal(sq_plan_kinds(SQ_KIND_JOBS, SQ_PLAN_GPU),
			 SQ_KIND_BIT(SQ_KIND_JOBS) |
			     SQ_KIND_BIT(SQ_KIND_GPUUSE));
	assert_int_equal(sq_plan_kinds(SQ_KIND_JOBS, SQ_PLAN_ALL),
			 SQ_KIND_BIT(SQ_KIND_JOBS) | SQ_KIND_BIT(SQ_KIND_PRIO) |
			     SQ_KIND_BIT(SQ_KIND_GPUUSE));
	assert_int_equal(sq_plan_kinds(SQ_KIND_PARTITIONS, SQ_PLAN_EAGER),
			 SQ_KIND_BIT(SQ_KIND_PARTITIONS) |
			     SQ_KIND_BIT(SQ_KIND_NODES));
	/* sacctmgr's node events only for the nodes' events column */
	assert_int_equal(sq_plan_kinds(SQ_KIND_NODES, SQ_PLAN_EAGER),
			 SQ_KIND_BIT(SQ_KIND_NODES));
	assert_int_equal(sq_plan_kinds(SQ_KIND_NODES, SQ_PLAN_NODE_EVENTS),
			 SQ_KIND_BIT(SQ_KIND_NODES) |
			     SQ_KIND_BIT(SQ_KIND_NODE_EVENTS));
	{
		const struct sq_view_def *nv = sq_view_find("nodes");
		int shown[2] = { 0, 0 };

		shown[1] = (int)(sq_view_column(nv, "events") - nv->cols);
		assert_int_equal(sq_plan_want_cols(nv, shown, 1),
				 SQ_PLAN_EAGER);
		assert_int_equal(sq_plan_want_cols(nv, shown, 2),
				 SQ_PLAN_NODE_EVENTS);
	}
	/* partners are fetched first */
	assert_true(sq_plan_rank(SQ_KIND_PRIO) < sq_plan_rank(SQ_KIND_JOBS));
	assert_true(sq_plan_rank(SQ_KIND_JOBS) < sq_plan_rank(SQ_KIND_EVENTS));
	assert_true(sq_plan_rank(SQ_KIND_NODES) <
		    sq_plan_rank(SQ_KIND_PARTITIONS));
	assert_int_equal(sq_plan_interval(SQ_KIND_JOBS, 10, 60), 10);
	assert_int_equal(sq_plan_interval(SQ_KIND_EVENTS, 10, 60), 60);
	/* a partner only: with its joiner, never faster than its own */
	assert_int_equal(sq_plan_interval_joined(SQ_KIND_JOBS,
						 SQ_KIND_BIT(SQ_KIND_EVENTS) |
						     SQ_KIND_BIT(SQ_KIND_JOBS),
						 10, 60),
			 60);
	assert_int_equal(sq_plan_interval_joined(SQ_KIND_PRIO,
						 SQ_KIND_BIT(SQ_KIND_JOBS) |
						     SQ_KIND_BIT(SQ_KIND_PRIO),
						 10, 60),
			 60);
	assert_int_equal(sq_plan_interval_joined(
			     SQ_KIND_JOBS, SQ_KIND_BIT(SQ_KIND_JOBS), 10, 60),
			 10);
}

/* Wait until the worker has fetched kind; its status then. */
static void
wait_fetched(struct sq_worker *w, enum sq_kind kind,
	     struct sq_worker_status *st)
{
	int tries;

	for (tries = 0; tries < 3000; tries++) {
		sq_worker_status(w, st);
		if (st->kind[kind].fetched != 0)
			return;
		sleep_ms(10);
	}
	fail_msg("kind %d never fetched", (int)kind);
}

/*
 * A partner refreshes with the kind that joins it: the events view's
 * queue is due with the events (60 s), the jobs view's every 10 s; the
 * same queue snapshot switches between the two when the view does.
 */
static void
test_plan_partner_interval(void **state)
{
	struct sq_cluster_cfg cfg;
	struct sq_worker_status st;
	struct sq_worker *w;
	struct sq_err err;
	unsigned ev = sq_plan_kinds(SQ_KIND_EVENTS, SQ_PLAN_EAGER);
	unsigned jobs = SQ_KIND_BIT(SQ_KIND_JOBS);

	(void)state;
	replay_cfg(&cfg);
	w = sq_worker_start(&cfg, 10, 60, &err);
	assert_non_null(w);
	/* the events view: the queue only joined */
	sq_worker_want(w, ev, ev & ~SQ_KIND_BIT(SQ_KIND_EVENTS));
	wait_fetched(w, SQ_KIND_EVENTS, &st);
	assert_int_not_equal(st.kind[SQ_KIND_JOBS].fetched, 0);
	assert_true(st.kind[SQ_KIND_JOBS].next_in > 30);
	assert_true(st.kind[SQ_KIND_EVENTS].next_in > 30);
	/* the jobs view: the same queue is shown, due within 10 s */
	sq_worker_want(w, jobs, 0);
	sq_worker_status(w, &st);
	assert_true(st.kind[SQ_KIND_JOBS].next_in <= 10);
	/* and back: a minute again */
	sq_worker_want(w, ev, ev & ~SQ_KIND_BIT(SQ_KIND_EVENTS));
	sq_worker_status(w, &st);
	assert_true(st.kind[SQ_KIND_JOBS].next_in > 30);
	/* shown by both (a want hook, a detail pane): its own 10 s */
	sq_worker_want(w, ev, 0);
	sq_worker_status(w, &st);
	assert_true(st.kind[SQ_KIND_JOBS].next_in <= 10);
	sq_worker_stop(w, 2000);
}

/* --- a backend that reads the nodes and the queue only (issue 42) ---- */

/* the 24.11 recording (parsed at NOW_2411) */
#define FAKE_DIR "rest/v0.0.40/"

static int
fake_answer(struct sq_backend *b, enum sq_kind kind, struct sq_snapshot **out,
	    struct sq_err *err)
{
	(void)b;
	if (kind == SQ_KIND_NODES)
		*out =
		    sq_test_sj_parse(kind, FAKE_DIR "slurm_nodes.json", NULL);
	else if (kind == SQ_KIND_JOBS)
		*out = sq_test_sj_parse(kind, FAKE_DIR "slurm_jobs.json", NULL);
	else if (kind == SQ_KIND_ACCOUNTS)
		*out = sq_test_sj_parse(
		    kind, FAKE_DIR "slurmdb_accounts_with_assocs.json", NULL);
	else if (kind == SQ_KIND_USERS)
		*out = sq_test_sj_parse(
		    kind, FAKE_DIR "slurmdb_users_with_assocs.json", NULL);
	else if (kind == SQ_KIND_ASSOCS)
		*out = sq_test_sj_parse(
		    kind, FAKE_DIR "slurmdb_associations.json", NULL);
	else
		return sq_err_set(err, SQ_ERR_UNSUPPORTED, "fake reads no %s",
				  sq_kind_name(kind));
	return 0;
}

static struct sq_fake_count fc = { .answer = fake_answer };

static const struct sq_backend_built fake_built[SQ_KIND_COUNT] = {
	[SQ_KIND_GPUS] = { .source = "fake nodes + jobs",
			   .unserved = "the fake serves no use" },
	/* read without the associations' columns, as slurmrestd's */
	[SQ_KIND_ACCOUNTS] = { .reads = 1 },
	[SQ_KIND_USERS] = { .reads = 1 },
};

static const struct sq_backend_ops fake_ops = {
	.name = "fake",
	.built = fake_built,
	.caps = sq_fake_count_caps,
	.fetch = sq_fake_count_fetch,
};

/* The console's snapshots of the nodes and the queue. */
static struct sq_snapshot *fake_held[SQ_KIND_COUNT];

static struct sq_snapshot *
fake_src_get(void *arg, enum sq_kind kind)
{
	(void)arg;
	return fake_held[kind] != NULL ? sq_snapshot_ref(fake_held[kind])
				       : NULL;
}

/* s has the rows sq_gpus_build makes of the recording's nodes and jobs */
static void
assert_gpus_built(const struct sq_snapshot *s)
{
	struct sq_snapshot *want = sq_snapshot_new(SQ_KIND_GPUS, 0);
	struct sq_snapshot *nodes =
	    sq_test_sj_parse(SQ_KIND_NODES, FAKE_DIR "slurm_nodes.json", NULL);
	struct sq_snapshot *jobs =
	    sq_test_sj_parse(SQ_KIND_JOBS, FAKE_DIR "slurm_jobs.json", NULL);
	size_t i;

	assert_int_equal(
	    sq_gpus_build(want, nodes, jobs, "the fake serves no use"), 0);
	assert_true(want->nrows > 0);
	assert_int_equal(s->nrows, want->nrows);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_gpu *a = sq_snapshot_row(s, i);
		const struct sq_gpu *b = sq_snapshot_row(want, i);

		assert_int_equal(a->scope, b->scope);
		assert_int_equal(a->total, b->total);
		assert_int_equal(a->alloc, b->alloc);
		assert_string_equal(a->node ? a->node : "",
				    b->node ? b->node : "");
		assert_string_equal(a->user ? a->user : "",
				    b->user ? b->user : "");
		assert_string_equal(a->util_note ? a->util_note : "",
				    "the fake serves no use");
	}
	assert_string_equal(s->source, "fake nodes + jobs");
	sq_snapshot_unref(want);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(jobs);
}

/*
 * GPUS for a backend that reads only NODES and JOBS: the plan builds it
 * (batch mode: fetching both once; the console: from the snapshots it
 * holds, fetching neither) and never asks the backend for GPUS; a
 * partner the backend's capabilities lack fails the build.
 */
static void
test_plan_builds(void **state)
{
	struct sq_backend b = { .ops = &fake_ops, .priv = &fc };
	const struct sq_plan_src src = { fake_src_get, NULL };
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	memset(fc.asked, 0, sizeof(fc.asked));
	fc.caps = SQ_CAP_NODES | SQ_CAP_JOBS;
	sq_err_clear(&err);
	if (sq_plan_fetch(&b, SQ_KIND_GPUS, NULL, &s, &err) != 0)
		fail_msg("batch: %s", err.msg);
	assert_gpus_built(s);
	sq_snapshot_unref(s);
	assert_int_equal(fc.asked[SQ_KIND_GPUS], 0);
	assert_int_equal(fc.asked[SQ_KIND_NODES], 1);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], 1);
	/* the optional join (live GPU use) asked once, left out */
	assert_int_equal(fc.asked[SQ_KIND_GPUUSE], 1);

	/* the console holds the nodes and the queue: no fetch of them */
	memset(fc.asked, 0, sizeof(fc.asked));
	fake_held[SQ_KIND_NODES] =
	    sq_test_sj_parse(SQ_KIND_NODES, FAKE_DIR "slurm_nodes.json", NULL);
	fake_held[SQ_KIND_JOBS] =
	    sq_test_sj_parse(SQ_KIND_JOBS, FAKE_DIR "slurm_jobs.json", NULL);
	if (sq_plan_fetch(&b, SQ_KIND_GPUS, &src, &s, &err) != 0)
		fail_msg("console: %s", err.msg);
	assert_gpus_built(s);
	sq_snapshot_unref(s);
	assert_int_equal(fc.asked[SQ_KIND_GPUS], 0);
	assert_int_equal(fc.asked[SQ_KIND_NODES], 0);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], 0);
	sq_snapshot_unref(fake_held[SQ_KIND_NODES]);
	sq_snapshot_unref(fake_held[SQ_KIND_JOBS]);
	fake_held[SQ_KIND_NODES] = fake_held[SQ_KIND_JOBS] = NULL;

	/* the queue not served: no GPUs, and the reason */
	memset(fc.asked, 0, sizeof(fc.asked));
	fc.caps = SQ_CAP_NODES;
	assert_int_equal(sq_plan_fetch(&b, SQ_KIND_GPUS, NULL, &s, &err), -1);
	assert_null(s);
	assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
	assert_int_equal(fc.asked[SQ_KIND_GPUS], 0);
}

/* s: the recording's accounts (users) completed from its associations
 * by the core join, as the backend read them (their source kept) */
static void
assert_completed(const struct sq_snapshot *s, enum sq_kind kind)
{
	struct sq_snapshot *want =
	    sq_test_sj_parse(kind,
			     kind == SQ_KIND_ACCOUNTS
				 ? FAKE_DIR "slurmdb_accounts_with_assocs.json"
				 : FAKE_DIR "slurmdb_users_with_assocs.json",
			     NULL);
	struct sq_snapshot *assocs = sq_test_sj_parse(
	    SQ_KIND_ASSOCS, FAKE_DIR "slurmdb_associations.json", NULL);
	size_t i;

	assert_int_equal(kind == SQ_KIND_ACCOUNTS
			     ? sq_accounts_join_assocs(want, assocs)
			     : sq_users_join_assocs(want, assocs),
			 0);
	assert_true(want->nrows > 0);
	assert_int_equal(s->kind, kind);
	assert_int_equal(s->nrows, want->nrows);
	for (i = 0; i < s->nrows; i++) {
		if (kind == SQ_KIND_ACCOUNTS) {
			const struct sq_account *a = sq_snapshot_row(s, i);
			const struct sq_account *b = sq_snapshot_row(want, i);

			assert_string_equal(a->name, b->name);
			assert_string_equal(a->parent, b->parent);
			assert_string_equal(a->users, b->users);
			assert_int_equal(a->shares, b->shares);
		} else {
			const struct sq_user *a = sq_snapshot_row(s, i);
			const struct sq_user *b = sq_snapshot_row(want, i);

			assert_string_equal(a->name, b->name);
			assert_string_equal(a->accounts, b->accounts);
			assert_string_equal(a->qos, b->qos);
			assert_string_equal(a->default_qos, b->default_qos);
			assert_string_equal(a->default_account,
					    b->default_account);
		}
	}
	/* a parent that only the associations give: the join ran */
	if (kind == SQ_KIND_ACCOUNTS) {
		int parents = 0;

		for (i = 0; i < s->nrows; i++)
			parents +=
			    ((const struct sq_account *)sq_snapshot_row(s, i))
				->parent[0] != '\0';
		assert_true(parents > 0);
	}
	/* the read's source line, not a built one */
	assert_string_equal(s->source ? s->source : "(none)",
			    want->source ? want->source : "(none)");
	sq_snapshot_unref(want);
	sq_snapshot_unref(assocs);
}

/*
 * Accounts and users a backend reads without their associations'
 * columns (slurmrestd's GET /accounts, /users): its fetch() reads the
 * kind alone, once a fetch, the plan completes it from the associations
 * (batch: fetched once; the console: its held associations, none
 * fetched, and never its held, completed accounts: read anew).
 */
static void
test_plan_completes(void **state)
{
	static const enum sq_kind kinds[] = { SQ_KIND_ACCOUNTS, SQ_KIND_USERS };
	struct sq_backend b = { .ops = &fake_ops, .priv = &fc };
	const struct sq_plan_src src = { fake_src_get, NULL };
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	size_t i;

	(void)state;
	fc.caps = SQ_CAP_ACCOUNTING;
	for (i = 0; i < 2; i++) {
		enum sq_kind k = kinds[i];

		memset(fc.asked, 0, sizeof(fc.asked));
		sq_err_clear(&err);
		if (sq_plan_fetch(&b, k, NULL, &s, &err) != 0)
			fail_msg("batch: %s", err.msg);
		assert_completed(s, k);
		sq_snapshot_unref(s);
		assert_int_equal(fc.asked[k], 1);
		assert_int_equal(fc.asked[SQ_KIND_ASSOCS], 1);

		/* the console holds the associations and its last rows */
		memset(fc.asked, 0, sizeof(fc.asked));
		fake_held[SQ_KIND_ASSOCS] = sq_test_sj_parse(
		    SQ_KIND_ASSOCS, FAKE_DIR "slurmdb_associations.json", NULL);
		fake_held[k] = sq_snapshot_new(k, 0);
		if (sq_plan_fetch(&b, k, &src, &s, &err) != 0)
			fail_msg("console: %s", err.msg);
		assert_completed(s, k);
		sq_snapshot_unref(s);
		assert_int_equal(fc.asked[k], 1);
		assert_int_equal(fc.asked[SQ_KIND_ASSOCS], 0);
		sq_snapshot_unref(fake_held[SQ_KIND_ASSOCS]);
		sq_snapshot_unref(fake_held[k]);
		fake_held[SQ_KIND_ASSOCS] = fake_held[k] = NULL;

		/* no accounting: no rows, and the reason */
		fc.caps = 0;
		assert_int_equal(sq_plan_fetch(&b, k, NULL, &s, &err), -1);
		assert_null(s);
		assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
		fc.caps = SQ_CAP_ACCOUNTING;
	}
}

/* test_plan VIEW [BACKEND]: one view on a live cluster (local unless
 * named), retried while the cluster moves between the two reads. */
static int
live(const char *view, const char *backend)
{
	const struct sq_view_def *v = sq_view_find(view);
	struct sq_cluster_cfg cfg;
	size_t n = 0;
	int i;

	if (v == NULL) {
		fprintf(stderr, "test_plan: no view %s\n", view);
		return 2;
	}
	show_rows = 1;
	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "live");
	snprintf(cfg.backend, sizeof(cfg.backend), "%s", backend);
	for (i = 0; i < 5; i++) {
		if (compare_view(&cfg, v, &n) == 0) {
			printf("# %s: %zu rows, console = --once\n", view, n);
			return 0;
		}
		sleep_ms(2000);
	}
	return 1;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_table),
		cmocka_unit_test(test_plan_builds),
		cmocka_unit_test(test_plan_completes),
		cmocka_unit_test(test_plan_partner_interval),
		cmocka_unit_test(test_plan_every_view),
	};

	setenv("SQUALL_CONFIG", "/dev/null", 1);
	if (argc > 1)
		return live(argv[1], argc > 2 ? argv[2] : "local");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
