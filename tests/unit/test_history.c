/*
 * test_history.c - the history data: the window (good and bad specs, the
 * sacct -S value), the field helpers, efficiency as seff computes it and
 * the summaries, sacct -D text recorded on the 22.05 testbed, slurmdb
 * JSON recorded on it (v0.0.38) and from 24.11 (v0.0.40 to v0.0.42), and
 * hostile job names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/analysis/history.h"
#include "core/model/view.h"
#include "tests/unit/test_util.h"

#define FIX "history/"

/* ---- the window ---- */

static void
test_window_good(void **state)
{
	static const struct {
		const char *in, *spec, *sacct;
		long long rel;
	} good[] = {
		{ "2h", "2h", "now-7200seconds", 7200 },
		{ "30m", "30m", "now-1800seconds", 1800 },
		{ "7d", "7d", "now-604800seconds", 604800 },
		{ "90s", "90s", "now-90seconds", 90 },
		{ "2w", "2w", "now-1209600seconds", 1209600 },
		{ "", "24h", "now-86400seconds", 86400 },
		{ "2026-11-01", "2026-11-01T00:00:00", "2026-11-01T00:00:00",
		  0 },
		{ "2026-11-01T08:00", "2026-11-01T08:00:00",
		  "2026-11-01T08:00:00", 0 },
		{ "2024-02-29T23:59:59", "2024-02-29T23:59:59",
		  "2024-02-29T23:59:59", 0 },
	};
	struct sq_hist_window w;
	struct sq_err err;
	char buf[80];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (sq_history_window_parse(good[i].in, &w, &err) != 0)
			fail_msg("'%s' refused: %s", good[i].in, err.msg);
		assert_string_equal(w.spec, good[i].spec);
		assert_int_equal(w.rel, good[i].rel);
		sq_history_window_sacct(&w, buf, sizeof(buf));
		assert_string_equal(buf, good[i].sacct);
	}
	assert_int_equal(sq_history_window_parse("2h", &w, &err), 0);
	assert_int_equal(sq_history_window_start(&w, 1000000), 1000000 - 7200);
	assert_int_equal(sq_history_window_parse("1970-01-02", &w, &err), 0);
	/* a local date: within a day of the epoch's second day */
	assert_true(sq_history_window_start(&w, 0) > 0 &&
		    sq_history_window_start(&w, 0) < 2 * 86400);
}

static void
test_window_bad(void **state)
{
	static const char *const bad[] = {
		"2",
		"h",
		"0h",
		"-2h",
		"2h;rm -rf /",
		"2 h",
		"$(id)",
		"`id`",
		"2hh",
		"1e3h",
		"2H",
		"99999999999d",
		"5000w",
		"2026-13-01",
		"2026-11-31",
		"2026-02-29",
		"2026-11-01 08:00",
		"2026-11-01T24:00",
		"2026-11-01T08:60",
		"2026-11-01T08:00:60",
		"2026-11-01T8:00",
		"2026-1-01",
		"1969-12-31",
		"2026-11-01T08:00:00Z",
		"now-2h",
		"2026-11-01T08",
		"x2026-11-01",
		"2026-11-01\n",
	};
	struct sq_hist_window w;
	struct sq_err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (sq_history_window_parse(bad[i], &w, &err) != -1)
			fail_msg("'%s' accepted as '%s'", bad[i], w.spec);
		assert_int_equal(err.code, SQ_ERR_USAGE);
		assert_string_equal(w.spec, "");
	}
}

/* ---- helpers ---- */

static void
test_fields(void **state)
{
	double d;
	int64_t a, b;

	(void)state;
	assert_int_equal(sq_history_cpu_time("00:03.563", &d), 0);
	assert_true(fabs(d - 3.563) < 1e-9);
	assert_int_equal(sq_history_cpu_time("01:02:03", &d), 0);
	assert_true(fabs(d - 3723) < 1e-9);
	assert_int_equal(sq_history_cpu_time("2-01:00:00", &d), 0);
	assert_true(fabs(d - 176400) < 1e-9);
	assert_int_equal(sq_history_cpu_time("12:34.5", &d), 0);
	assert_true(fabs(d - 754.5) < 1e-9);
	assert_int_equal(sq_history_cpu_time("", &d), 0);
	assert_true(isnan(d));
	assert_int_equal(sq_history_cpu_time("abc", &d), -1);
	assert_int_equal(sq_history_cpu_time("1:2:3:4", &d), -1);
	assert_int_equal(sq_history_cpu_time("5", &d), -1);
	assert_int_equal(sq_history_cpu_time("1:2.", &d), -1);

	assert_int_equal(sq_history_kb("3108K", &a), 0);
	assert_int_equal(a, 3108);
	assert_int_equal(sq_history_kb("1.5M", &a), 0);
	assert_int_equal(a, 1536);
	assert_int_equal(sq_history_kb("2G", &a), 0);
	assert_int_equal(a, 2097152);
	assert_int_equal(sq_history_kb("0", &a), 0);
	assert_int_equal(a, 0);
	assert_int_equal(sq_history_kb("", &a), 0);
	assert_int_equal(a, SQ_NONE);
	assert_int_equal(sq_history_kb("12X", &a), -1);
	assert_int_equal(sq_history_kb("-1K", &a), -1);

	assert_int_equal(sq_history_exit("3:0", &a, &b), 0);
	assert_int_equal(a, 3);
	assert_int_equal(b, 0);
	assert_int_equal(sq_history_exit("0:15", &a, &b), 0);
	assert_int_equal(a, 0);
	assert_int_equal(b, 15);
	assert_int_equal(sq_history_exit("", &a, &b), 0);
	assert_int_equal(a, SQ_NONE);
	assert_int_equal(sq_history_exit("x:1", &a, &b), -1);
	assert_int_equal(sq_history_exit("3:", &a, &b), -1);
	assert_int_equal(sq_history_exit("300:0", &a, &b), -1);

	/* typed and untyped counts of one GPU are the same GPUs */
	assert_int_equal(
	    sq_history_gpus("billing=2,cpu=2,gres/gpu:a100=2,gres/gpu=2"), 2);
	assert_int_equal(sq_history_gpus("gres/gpu:a100=1,gres/gpu:t4=2"), 3);
	assert_int_equal(sq_history_gpus("cpu=1,mem=500M,node=1"), 0);
	assert_int_equal(sq_history_gpus(""), 0);
	assert_int_equal(sq_history_tres_mem("cpu=1,mem=2000M,node=1"), 2000);
	assert_int_equal(sq_history_tres_mem("mem=2G"), 2048);
	assert_int_equal(sq_history_tres_mem("cpu=1"), SQ_NONE);

	assert_int_equal(sq_history_outcome("COMPLETED"), SQ_HIST_OK);
	assert_int_equal(sq_history_outcome("OUT_OF_MEMORY"), SQ_HIST_FAIL);
	assert_int_equal(sq_history_outcome("NODE_FAIL"), SQ_HIST_FAIL);
	assert_int_equal(sq_history_outcome("FAILED"), SQ_HIST_FAIL);
	assert_int_equal(sq_history_outcome("TIMEOUT"), SQ_HIST_WARN);
	assert_int_equal(sq_history_outcome("PREEMPTED"), SQ_HIST_WARN);
	assert_int_equal(sq_history_outcome("REQUEUED"), SQ_HIST_WARN);
	assert_int_equal(sq_history_outcome("CANCELLED"), SQ_HIST_WARN);
	assert_int_equal(sq_history_outcome("RUNNING"), SQ_HIST_ACTIVE);
	assert_int_equal(sq_history_outcome("bogus"), SQ_HIST_UNKNOWN);
}

/* ---- efficiency and summaries on built rows ---- */

static struct sq_hist *
run(struct sq_hist_build *b, uint32_t id, const char *user, const char *st,
    int64_t elapsed, int64_t cpus, int64_t mem)
{
	struct sq_hist *h = sq_history_add_run(b);

	assert_non_null(h);
	h->job_id = id;
	h->user = user;
	h->account = "acct";
	h->state = st;
	h->elapsed = elapsed;
	h->alloc_cpus = cpus;
	h->alloc_mem = mem;
	h->nodelist = "n[1-2]";
	h->end = 1000 + id;
	return h;
}

static void
step(struct sq_hist_build *b, size_t r, double cpu, int64_t rss)
{
	struct sq_hist_step *st = sq_history_add_step(b, r);

	assert_non_null(st);
	st->total_cpu = cpu;
	st->max_rss = rss;
}

static const struct sq_hist *
find(const struct sq_snapshot *s, enum sq_hist_scope scope, const char *key)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(s, i);
		const char *k = scope == SQ_HIST_USER      ? h->user
				: scope == SQ_HIST_ACCOUNT ? h->account
							   : h->node;

		if (h->scope == scope && strcmp(k, key) == 0)
			return h;
	}
	return NULL;
}

/* Is run q (row j) before run r (row i) of the same job: submitted
 * earlier, or started earlier, or the earlier row? */
static int
run_before(const struct sq_hist *q, size_t j, const struct sq_hist *r, size_t i)
{
	if (q->submit != r->submit)
		return q->submit < r->submit;
	if (q->start != r->start)
		return q->start < r->start;
	return j < i;
}

/*
 * Runs numbered by hashing job ids (issue 44: the sort of a million was
 * a tenth of the summaries) as the sort numbered them: 3,000 runs of 400
 * jobs in no order, requeued and restarted up to thirty times, ties of
 * submit and start (the row order decides), job id 0 (always run 1),
 * some pending (start unknown); and the median of an even number of
 * efficiencies, the mean of the two middle ones.
 */
static void
check_run_numbers(uint32_t spread)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_hist_build b;
	int32_t *want;
	uint32_t seed = 12345;
	size_t i, j, n = 3000, multi = 0;

	assert_non_null(s);
	sq_history_init(&b, s);
	for (i = 0; i < n; i++) {
		struct sq_hist *h;

		seed = seed * 1103515245u + 12345u;
		h = run(&b, (seed >> 8) % 400 * spread + 1, "ann", "COMPLETED",
			10, 1, 100);
		h->job_id = i % 97 == 0 ? 0 : h->job_id;
		h->submit = 1000 + (seed >> 4) % 5;
		h->start =
		    (seed >> 12) % 7 == 0 ? SQ_NONE : 2000 + (seed >> 16) % 3;
	}
	/* the numbering by counting, an oracle that sorts nothing: 1 + the
	 * runs of the same job (not 0) before it, on the rows as they are */
	want = malloc(n * sizeof(*want));
	assert_non_null(want);
	for (i = 0; i < n; i++) {
		const struct sq_hist *r = sq_snapshot_row(s, i);

		want[i] = 1;
		for (j = 0; r->job_id != 0 && j < n; j++) {
			const struct sq_hist *q = sq_snapshot_row(s, j);

			want[i] +=
			    q->job_id == r->job_id && run_before(q, j, r, i);
		}
		multi += want[i] > 1;
	}
	assert_int_equal(sq_history_finish(&b), 0);
	sq_history_free(&b);
	assert_true(multi > 2000); /* most runs are a job's second or later */
	for (i = 0; i < n; i++)
		assert_int_equal(
		    ((const struct sq_hist *)sq_snapshot_row(s, i))->run,
		    want[i]);
	free(want);
	sq_snapshot_unref(s);
}

static void
test_run_numbers(void **state)
{
	struct sq_snapshot *s;
	struct sq_hist_build b;
	size_t i;

	(void)state;
	/* ids close together (a slot per id) and four billion apart (the
	 * hash) */
	check_run_numbers(1);
	check_run_numbers(10000007);

	/* medians: four runs of ann's at 0.1 0.4 0.2 0.3 CPU: 0.25 */
	s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	assert_non_null(s);
	sq_history_init(&b, s);
	for (i = 0; i < 4; i++) {
		static const double cpu[] = { 10, 40, 20, 30 };

		run(&b, (uint32_t)(50 + i), "ann", "COMPLETED", 100, 1, 100);
		step(&b, i, cpu[i], 1024 * (i + 1) * 10);
	}
	assert_int_equal(sq_history_finish(&b), 0);
	sq_history_free(&b);
	assert_true(fabs(find(s, SQ_HIST_USER, "ann")->cpu_eff - 0.25) < 1e-12);
	assert_true(fabs(find(s, SQ_HIST_ACCOUNT, "acct")->mem_eff - 0.25) <
		    1e-12);
	assert_true(fabs(find(s, SQ_HIST_NODE, "n2")->cpu_eff - 0.25) < 1e-12);
	sq_snapshot_unref(s);
}

/* The counter of a summary row a run's state adds to (the reference of
 * test_summary_counts, as the summaries' doc says). */
static int32_t *
ref_counter(struct sq_hist *g, const char *st)
{
	static const char *const names[] = {
		"COMPLETED", "FAILED",    "TIMEOUT",   "OUT_OF_MEMORY",
		"CANCELLED", "PREEMPTED", "NODE_FAIL", "REQUEUED",
	};
	int32_t *ctr[] = { &g->completed, &g->failed,    &g->timeout,
			   &g->oom,       &g->cancelled, &g->preempted,
			   &g->node_fail, &g->requeued };
	size_t i;

	if (strcmp(st, "BOOT_FAIL") == 0)
		return &g->failed;
	for (i = 0; i < 8; i++)
		if (strcmp(st, names[i]) == 0)
			return ctr[i];
	return sq_history_outcome(st) == SQ_HIST_ACTIVE ? &g->active
							: &g->other;
}

/* Summary row g's counts made again from every run with key k, in run
 * order (the sums then are the very doubles). */
static void
ref_summary(const struct sq_snapshot *s, size_t nruns, const struct sq_hist *g,
	    struct sq_hist *want)
{
	size_t i;

	memset(want, 0, sizeof(*want));
	want->last_failure = SQ_NONE;
	for (i = 0; i < nruns; i++) {
		const struct sq_hist *r = sq_snapshot_row(s, i);
		int in = g->scope == SQ_HIST_USER
			     ? strcmp(r->user, g->user) == 0
			 : g->scope == SQ_HIST_ACCOUNT
			     ? strcmp(r->account, g->account) == 0
			     : strstr(r->nodelist, g->node) != NULL;

		if (!in)
			continue;
		want->runs++;
		(*ref_counter(want, r->state))++;
		if (r->elapsed > 0 && r->alloc_cpus > 0)
			want->cpu_hours +=
			    (double)r->elapsed * r->alloc_cpus / 3600;
		want->gpu_hours += sq_history_gpu_hours(r);
		want->gpu_idle_hours += sq_history_gpu_idle_hours(r);
		if ((sq_history_outcome(r->state) == SQ_HIST_FAIL ||
		     strcmp(r->state, "TIMEOUT") == 0) &&
		    r->end != SQ_NONE && r->end > want->last_failure)
			want->last_failure = r->end;
	}
}

/* Every summary row's counters, hours and last failure equal the ones
 * made again from its runs: 3,000 runs of every state, with and without
 * CPUs, GPUs, idle GPUs and an end, on lists of one to three nodes
 * ("n1".."n6" spelt out: a node is on a list when its name is in the
 * list's text). */
static void
test_summary_counts(void **state)
{
	static const char *const st[] = {
		"COMPLETED", "FAILED",    "TIMEOUT",   "OUT_OF_MEMORY",
		"CANCELLED", "PREEMPTED", "NODE_FAIL", "REQUEUED",
		"BOOT_FAIL", "RUNNING",   "PENDING",   "DEADLINE",
		"SUSPENDED", "REVOKED",
	};
	static const char *const users[] = { "ann", "bob", "cy", "dee" };
	static const char *const accts[] = { "a1", "a2", "a3" };
	static const char *const lists[] = { "n1", "n2,n3", "n4,n6", "n1,n2,n5",
					     "" };
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_hist_build b;
	uint32_t seed = 777;
	size_t i, n = 3000, rows = 0;

	(void)state;
	assert_non_null(s);
	sq_history_init(&b, s);
	for (i = 0; i < n; i++) {
		struct sq_hist *h;

		seed = seed * 1103515245u + 12345u;
		h = run(&b, (uint32_t)i + 1, users[(seed >> 4) % 4],
			st[(seed >> 8) % 14], (seed >> 12) % 5 == 0 ? 0 : 977,
			(seed >> 14) % 7 == 0 ? SQ_NONE : 3, 100);
		h->account = accts[(seed >> 16) % 3];
		h->nodelist = lists[(seed >> 18) % 5];
		h->gpus = (seed >> 20) % 3;
		h->gpu_idle = (seed >> 22) % 2;
		h->end = (seed >> 23) % 9 == 0 ? SQ_NONE : 5000 + (seed >> 24);
	}
	assert_int_equal(sq_history_finish(&b), 0);
	sq_history_free(&b);
	for (i = n; i < s->nrows; i++) {
		const struct sq_hist *g = sq_snapshot_row(s, i);
		struct sq_hist want;

		ref_summary(s, n, g, &want);
		assert_int_equal(g->runs, want.runs);
		assert_int_equal(g->completed, want.completed);
		assert_int_equal(g->failed, want.failed);
		assert_int_equal(g->timeout, want.timeout);
		assert_int_equal(g->oom, want.oom);
		assert_int_equal(g->cancelled, want.cancelled);
		assert_int_equal(g->preempted, want.preempted);
		assert_int_equal(g->node_fail, want.node_fail);
		assert_int_equal(g->requeued, want.requeued);
		assert_int_equal(g->active, want.active);
		assert_int_equal(g->other, want.other);
		assert_true(g->cpu_hours == want.cpu_hours);
		assert_true(g->gpu_hours == want.gpu_hours);
		assert_true(g->gpu_idle_hours == want.gpu_idle_hours);
		assert_int_equal(g->last_failure, want.last_failure);
		rows++;
	}
	assert_int_equal(rows, 4 + 3 + 6);
	sq_snapshot_unref(s);
}

/*
 * Per-node summaries at the host-list cap: a run on 100,000 nodes gives
 * a row for each, a run on a list past the cap counts as one name (the
 * list as written), and a node two runs touched counts both. The fuzz
 * harnesses skip inputs this large (tests/fuzz/RESULTS.md, session 9).
 */
static void
test_nodes_at_scale(void **state)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_hist_build b;
	const struct sq_hist *h;
	size_t i, nodes = 0;

	(void)state;
	assert_non_null(s);
	sq_history_init(&b, s);
	run(&b, 20, "ann", "COMPLETED", 100, 4, 1000)->nodelist = "n[0-99999]";
	run(&b, 21, "bob", "FAILED", 10, 1, 100)->nodelist = "n[0-9]";
	run(&b, 22, "bob", "COMPLETED", 10, 1, 100)->nodelist = "n[0-100000]";
	assert_int_equal(sq_history_finish(&b), 0);
	sq_history_free(&b);
	for (i = 0; i < s->nrows; i++) {
		h = sq_snapshot_row(s, i);
		nodes += h->scope == SQ_HIST_NODE;
	}
	assert_int_equal(nodes, 100000 + 1);
	h = find(s, SQ_HIST_NODE, "n5");
	assert_non_null(h);
	assert_int_equal(h->runs, 2);
	assert_int_equal(h->completed, 1);
	assert_int_equal(h->failed, 1);
	h = find(s, SQ_HIST_NODE, "n99999");
	assert_non_null(h);
	assert_int_equal(h->runs, 1);
	h = find(s, SQ_HIST_NODE, "n[0-100000]");
	assert_non_null(h);
	assert_int_equal(h->runs, 1);
	sq_snapshot_unref(s);
}

/*
 * Every run is in exactly one outcome column (issue 41: history-nodes
 * showed RUNS 20, OK 3 + CANCEL 15 and the other two nowhere): in each
 * summary view the outcome columns, read through the view, add up to
 * RUNS on every row, and the console shows them all by default.
 */
static const char *const outcome_cols[] = {
	"completed", "failed",    "timeout",  "oom",    "cancelled",
	"preempted", "node_fail", "requeued", "active", "other",
};

static long long
col_num(const struct sq_view_def *v, const char *id, const void *rec)
{
	const struct sq_column *c = sq_view_column(v, id);
	long long n = 0;

	if (c == NULL)
		fail_msg("view %s has no column %s", v->name, id);
	assert_non_null(c->num);
	assert_int_equal(c->num(rec, &n), 0);
	return n;
}

static void
check_outcomes_add_up(const struct sq_snapshot *s)
{
	static const char *const views[] = { "history-users",
					     "history-accounts",
					     "history-nodes" };
	size_t i, k, rows = 0;

	for (k = 0; k < 3; k++) {
		const struct sq_view_def *v = sq_view_find(views[k]);
		size_t c;

		assert_non_null(v);
		for (c = 0; c < sizeof(outcome_cols) / sizeof(*outcome_cols);
		     c++) {
			const struct sq_column *col =
			    sq_view_column(v, outcome_cols[c]);

			if (col == NULL || (col->flags & SQ_COL_HIDDEN))
				fail_msg("%s: %s is not shown", views[k],
					 outcome_cols[c]);
		}
	}
	for (i = 0; i < s->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(s, i);
		const struct sq_view_def *v;
		long long sum = 0;
		size_t c;

		if (h->scope == SQ_HIST_RUN)
			continue;
		v = sq_view_find(views[h->scope - SQ_HIST_USER]);
		for (c = 0; c < sizeof(outcome_cols) / sizeof(*outcome_cols);
		     c++)
			sum += col_num(v, outcome_cols[c], h);
		if (sum != col_num(v, "runs", h))
			fail_msg(
			    "%s row %zu: outcomes add up to %lld, RUNS %lld",
			    v->name, i, sum, col_num(v, "runs", h));
		rows++;
	}
	assert_true(rows > 0);
}

/* One run of each state sacct and slurmdbd write, and one this build
 * does not know: each counted once, the unknown ones under OTHER. */
static void
test_outcomes(void **state)
{
	static const char *const states[] = {
		"COMPLETED", "FAILED",        "BOOT_FAIL",     "TIMEOUT",
		"CANCELLED", "OUT_OF_MEMORY", "PREEMPTED",     "NODE_FAIL",
		"REQUEUED",  "RUNNING",       "PENDING",       "SUSPENDED",
		"DEADLINE",  "REVOKED",       "SOMETHING_NEW",
	};
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	const struct sq_view_def *v = sq_view_find("history-nodes");
	struct sq_hist_build b;
	const struct sq_hist *n;
	size_t i;

	(void)state;
	assert_non_null(s);
	sq_history_init(&b, s);
	for (i = 0; i < sizeof(states) / sizeof(*states); i++)
		run(&b, (uint32_t)(30 + i), i % 2 ? "ann" : "bob", states[i],
		    10, 1, 100);
	assert_int_equal(sq_history_finish(&b), 0);
	sq_history_free(&b);
	check_outcomes_add_up(s);
	n = find(s, SQ_HIST_NODE, "n1");
	assert_non_null(n);
	assert_int_equal(col_num(v, "runs", n), 15);
	assert_int_equal(col_num(v, "completed", n), 1);
	assert_int_equal(col_num(v, "failed", n), 2);
	assert_int_equal(col_num(v, "node_fail", n), 1);
	assert_int_equal(col_num(v, "requeued", n), 1);
	assert_int_equal(col_num(v, "active", n), 3);
	assert_int_equal(col_num(v, "other", n), 3);
	sq_snapshot_unref(s);
}

static void
test_efficiency(void **state)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_hist_build b;
	const struct sq_hist *h, *u;

	(void)state;
	assert_non_null(s);
	sq_history_init(&b, s);
	/* 4 CPUs for 100 s = 400 CPU-s; the steps used 200 */
	run(&b, 10, "ann", "COMPLETED", 100, 4, 1000);
	step(&b, 0, 150.0, 256000);
	step(&b, 0, 50.0, 512000); /* 512000 KB of 1000 MB */
	run(&b, 11, "ann", "RUNNING", 50, 1, 100);
	step(&b, 1, 10.0, 1000);
	run(&b, 12, "ann", "CANCELLED", 0, 2, 100); /* never started */
	run(&b, 13, "bob", "FAILED", 10, 1, 100);
	step(&b, 3, 10.0, 204800); /* 200 MB of 100: over */
	run(&b, 13, "bob", "OUT_OF_MEMORY", 10, 1, 100); /* second run */
	step(&b, 4, 2.5, 51200);
	assert_int_equal(sq_history_finish(&b), 0);
	sq_history_free(&b);

	h = sq_snapshot_row(s, 0);
	assert_int_equal(h->nsteps, 2);
	assert_true(fabs(h->total_cpu - 200.0) < 1e-9);
	assert_int_equal(h->max_rss, 512000);
	assert_true(fabs(h->cpu_eff - 0.5) < 1e-9);
	assert_true(fabs(h->mem_eff - 0.5) < 1e-9);
	h = sq_snapshot_row(s, 1);
	assert_true(isnan(h->cpu_eff) && isnan(h->mem_eff)); /* running */
	h = sq_snapshot_row(s, 2);
	assert_true(isnan(h->cpu_eff) && isnan(h->mem_eff)); /* no steps */
	h = sq_snapshot_row(s, 3);
	assert_true(fabs(h->cpu_eff - 1.0) < 1e-9);
	assert_true(fabs(h->mem_eff - 2.0) < 1e-9);
	assert_int_equal(h->run, 1);
	assert_int_equal(((const struct sq_hist *)sq_snapshot_row(s, 4))->run,
			 2);

	u = find(s, SQ_HIST_USER, "ann");
	assert_non_null(u);
	assert_int_equal(u->runs, 3);
	assert_int_equal(u->completed, 1);
	assert_int_equal(u->cancelled, 1);
	assert_int_equal(u->active, 1);
	/* 400 + 50 CPU-s */
	assert_true(fabs(u->cpu_hours - 450.0 / 3600) < 1e-9);
	assert_true(fabs(u->cpu_eff - 0.5) < 1e-9); /* median of one */
	u = find(s, SQ_HIST_USER, "bob");
	assert_non_null(u);
	assert_int_equal(u->failed, 1);
	assert_int_equal(u->oom, 1);
	assert_true(fabs(u->cpu_eff - (1.0 + 0.25) / 2) < 1e-9);
	assert_true(fabs(u->mem_eff - (2.0 + 0.5) / 2) < 1e-9);
	u = find(s, SQ_HIST_ACCOUNT, "acct");
	assert_non_null(u);
	assert_int_equal(u->runs, 5);
	/* every run on n1 and n2; the last failure is bob's second run */
	u = find(s, SQ_HIST_NODE, "n2");
	assert_non_null(u);
	assert_int_equal(u->runs, 5);
	assert_int_equal(u->failed, 1);
	assert_int_equal(u->oom, 1);
	assert_int_equal(u->last_failure, 1013);

	check_outcomes_add_up(s);
	sq_history_keep(s, SQ_HIST_NODE);
	assert_int_equal(s->nrows, 2);
	assert_int_equal(sq_history_view_scope("history-nodes"), SQ_HIST_NODE);
	assert_int_equal(sq_history_view_scope("history"), SQ_HIST_RUN);
	assert_int_equal(sq_history_view_scope("jobs"), -1);
	sq_snapshot_unref(s);
}

/* ---- sacct -D text ---- */

static struct sq_snapshot *
sacct(const char *text, int expect)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	char *t = strdup(text);
	struct sq_err err;
	int rc;

	assert_non_null(s);
	assert_non_null(t);
	sq_err_clear(&err);
	rc = sq_parse_sacct_history(t, s, &err);
	free(t);
	if (rc != expect)
		fail_msg("rc %d, expected %d: %s", rc, expect, err.msg);
	if (rc == -1) {
		assert_true(strlen(err.msg) > 0);
		sq_snapshot_unref(s);
		return NULL;
	}
	return s;
}

static const struct sq_hist *
by_name(const struct sq_snapshot *s, const char *suffix, int64_t runno)
{
	size_t i, l = strlen(suffix);

	for (i = 0; i < s->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(s, i);
		size_t n = strlen(h->name);

		if (h->scope == SQ_HIST_RUN && n >= l &&
		    strcmp(h->name + n - l, suffix) == 0 && h->run == runno)
			return h;
	}
	fail_msg("no run %lld of a job named *%s", (long long)runno, suffix);
	return NULL;
}

static size_t
runs(const struct sq_snapshot *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nrows; i++)
		if (((const struct sq_hist *)sq_snapshot_row(s, i))->scope ==
		    SQ_HIST_RUN)
			n++;
	return n;
}

/* The recorded scenario, whichever backend read it. */
static void
check_scenario(const struct sq_snapshot *s, int rest)
{
	const struct sq_hist *h;

	assert_int_equal(runs(s), 7);
	h = by_name(s, "-ok", 1);
	assert_string_equal(h->state, "COMPLETED");
	assert_int_equal(h->exit_code, 0);
	assert_string_equal(h->user, "alice");
	assert_string_equal(h->account, "astro");
	assert_string_equal(h->partition, "high");
	assert_true(h->nsteps >= 1);
	assert_false(isnan(h->cpu_eff));
	assert_false(isnan(h->mem_eff));
	h = by_name(s, "-fail", 1);
	assert_string_equal(h->state, "FAILED");
	/* slurmrestd 22.05 (v0.0.38) answers SUCCESS/0 for it */
	assert_int_equal(h->exit_code, rest ? 0 : 3);
	assert_int_equal(h->signal, 0);
	h = by_name(s, "-timeout", 1);
	assert_string_equal(h->state, "TIMEOUT");
	assert_true(h->elapsed >= 60);
	/* over --mem: killed by the accounting poll (no cgroups) */
	h = by_name(s, "-oom", 1);
	assert_string_equal(h->state, "FAILED");
	assert_int_equal(h->signal, 9);
	assert_true(h->mem_eff > 1.0);
	h = by_name(s, "-cancel", 1);
	assert_string_equal(h->state, "CANCELLED"); /* "by 0" cut */
	/* two runs of one job id */
	h = by_name(s, "-requeue", 1);
	assert_string_equal(h->state, "REQUEUED");
	assert_int_equal(h->nsteps, 1);
	assert_string_equal(h->steps[0].step, "batch");
	assert_int_equal(by_name(s, "-requeue", 2)->job_id, h->job_id);
	assert_string_equal(by_name(s, "-requeue", 2)->state, "CANCELLED");
	assert_int_equal(by_name(s, "-requeue", 2)->nsteps, 0);
	h = find(s, SQ_HIST_USER, "alice");
	assert_non_null(h);
	assert_int_equal(h->runs, 7);
	assert_int_equal(h->completed, 1);
	assert_int_equal(h->failed, 2);
	assert_int_equal(h->timeout, 1);
	assert_int_equal(h->cancelled, 2);
	assert_int_equal(h->requeued, 1);
	assert_non_null(find(s, SQ_HIST_ACCOUNT, "astro"));
	check_outcomes_add_up(s);
}

static void
test_sacct_recorded(void **state)
{
	char *text = sq_test_fixture(FIX "22.05/sacct_history.txt", NULL);
	struct sq_snapshot *s = sacct(text, 0);
	const struct sq_hist *h;
	double cpu = 0;
	size_t i;

	(void)state;
	check_scenario(s, 0);
	/* efficiency from the run's own fields, as seff */
	h = by_name(s, "-ok", 1);
	for (i = 0; i < h->nsteps; i++)
		cpu += h->steps[i].total_cpu;
	assert_true(fabs(h->cpu_eff - cpu / ((double)h->elapsed *
					     (double)h->alloc_cpus)) < 1e-9);
	assert_int_equal(h->alloc_mem, 200);
	assert_true(fabs(h->mem_eff - (double)h->max_rss / (200.0 * 1024)) <
		    1e-9);
	free(text);
	sq_snapshot_unref(s);
}

static struct sq_snapshot *
slurmdb(const char *file, int expect)
{
	size_t len;
	char *body = sq_test_fixture(file, &len);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_sj_info info;
	struct sq_err err;
	int rc;

	assert_non_null(s);
	sq_err_clear(&err);
	rc = sq_slurmjson_parse(SQ_KIND_HISTORY, body, len, 0, s, &info, &err);
	free(body);
	if (rc != expect)
		fail_msg("%s: rc %d: %s", file, rc, err.msg);
	return s;
}

static void
test_slurmdb_v38(void **state)
{
	struct sq_snapshot *s =
	    slurmdb(FIX "22.05/slurmdb_v0.0.38_jobs.json", 0);
	char *text = sq_test_fixture(FIX "22.05/sacct_history.txt", NULL);
	struct sq_snapshot *c = sacct(text, 0);
	const char *names[] = { "-ok",  "-fail",   "-timeout",
				"-oom", "-cancel", "-requeue" };
	size_t i;

	(void)state;
	check_scenario(s, 1);
	/* the same runs as sacct: states, elapsed, CPUs, steps, CPU time */
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct sq_hist *a = by_name(s, names[i], 1);
		const struct sq_hist *b = by_name(c, names[i], 1);

		assert_int_equal(a->job_id, b->job_id);
		assert_string_equal(a->id, b->id);
		assert_string_equal(a->state, b->state);
		assert_int_equal(a->elapsed, b->elapsed);
		assert_int_equal(a->alloc_cpus, b->alloc_cpus);
		assert_int_equal(a->alloc_mem, b->alloc_mem);
		assert_string_equal(a->nodelist, b->nodelist);
		assert_int_equal(a->nsteps, b->nsteps);
		if (!isnan(b->cpu_eff))
			assert_true(fabs(a->cpu_eff - b->cpu_eff) < 1e-3);
		/* MaxRSS: bytes in JSON, KB (rounded) in sacct */
		if (b->max_rss != SQ_NONE)
			assert_true(
			    llabs((long long)(a->max_rss - b->max_rss)) <= 1);
	}
	free(text);
	sq_snapshot_unref(c);
	sq_snapshot_unref(s);
}

static void
test_slurmdb_2411(void **state)
{
	static const char *const files[] = {
		FIX "24.11/slurmdb_v0.0.40_jobs_show_duplicates.json",
		FIX "24.11/slurmdb_v0.0.41_jobs_show_duplicates.json",
		FIX "24.11/slurmdb_v0.0.42_jobs_show_duplicates.json",
	};
	size_t f, i;

	(void)state;
	for (f = 0; f < 3; f++) {
		struct sq_snapshot *s = slurmdb(files[f], 0);
		const struct sq_hist *j1 = NULL, *j2 = NULL, *j3 = NULL;
		const struct sq_hist *j4 = NULL, *j6a = NULL, *j6b = NULL;
		const struct sq_hist *j19 = NULL, *u;

		assert_int_equal(runs(s), 22);
		for (i = 0; i < s->nrows; i++) {
			const struct sq_hist *h = sq_snapshot_row(s, i);

			if (h->scope != SQ_HIST_RUN)
				continue;
			if (h->job_id == 1)
				j1 = h;
			if (h->job_id == 2)
				j2 = h;
			if (h->job_id == 3)
				j3 = h;
			if (h->job_id == 4)
				j4 = h;
			if (h->job_id == 6 && h->run == 1)
				j6a = h;
			if (h->job_id == 6 && h->run == 2)
				j6b = h;
			if (h->job_id == 19)
				j19 = h;
		}
		assert_non_null(j1);
		assert_non_null(j2);
		assert_non_null(j3);
		assert_non_null(j4);
		assert_non_null(j6a);
		assert_non_null(j6b);
		assert_non_null(j19);
		assert_string_equal(j1->state, "COMPLETED");
		assert_int_equal(j1->nsteps, 3);
		assert_string_equal(j1->steps[0].step, "batch"); /* "1.batch" */
		assert_string_equal(j1->steps[1].step, "0");
		/* 0.019684 + 0.001983 + 0.001866 CPU-s over 3 s x 1 CPU */
		assert_true(fabs(j1->total_cpu - 0.023533) < 1e-9);
		assert_true(fabs(j1->cpu_eff - 0.023533 / 3) < 1e-9);
		assert_string_equal(j2->state, "FAILED");
		assert_int_equal(j2->exit_code, 3);
		assert_int_equal(j3->gpus, 1); /* gpu=1 and gpu:a100=1 */
		assert_string_equal(j4->state, "TIMEOUT");
		/* a preempted run and the run after it: one job id */
		assert_string_equal(j6a->state, "PREEMPTED");
		assert_string_equal(j6b->state, "PENDING");
		assert_string_equal(j6b->nodelist, "");
		assert_string_equal(j19->id, "14_1");
		/* slurmdbd answers a pending run start = end = the query's
		 * time (1795986582), elapsed 0, exit 0, a running one end =
		 * that time: a run not ended has no end and no exit code */
		assert_int_equal(j6b->start, SQ_NONE);
		assert_int_equal(j6b->end, SQ_NONE);
		assert_int_equal(j6b->elapsed, SQ_NONE);
		assert_int_equal(j6b->exit_code, SQ_NONE);
		assert_int_equal(j6b->submit, 1795986441);
		assert_string_equal(j19->state, "RUNNING");
		assert_int_equal(j19->start, 1795986365);
		assert_int_equal(j19->end, SQ_NONE);
		assert_true(j19->elapsed > 200); /* up to the query */
		assert_int_equal(j19->exit_code, SQ_NONE);
		assert_int_equal(j19->signal, SQ_NONE);
		u = find(s, SQ_HIST_USER, "uma");
		assert_non_null(u);
		assert_int_equal(u->preempted, 1);
		assert_int_equal(u->timeout, 1);
		check_outcomes_add_up(s);
		sq_snapshot_unref(s);
	}
}

/* The stream (REST bodies as they arrive) in small pieces gives what the
 * whole body gives: runs, steps, efficiency and summaries. */
static void
test_slurmdb_stream(void **state)
{
	const char *file =
	    FIX "24.11/slurmdb_v0.0.41_jobs_show_duplicates.json";
	size_t len, off, i;
	char *body = sq_test_fixture(file, &len);
	struct sq_snapshot *whole = slurmdb(file, 0);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_sj_info info;
	struct sq_err err;
	struct sq_sj_stream *st;

	(void)state;
	assert_non_null(s);
	st = sq_slurmjson_stream_new(SQ_KIND_HISTORY, 0, s, &info, &err);
	assert_non_null(st);
	for (off = 0; off < len; off += 7)
		assert_int_equal(
		    sq_slurmjson_stream_feed(
			st, body + off, len - off < 7 ? len - off : 7, &err),
		    0);
	assert_int_equal(sq_slurmjson_stream_end(st, &err), 0);
	sq_slurmjson_stream_free(st);
	assert_int_equal(s->nrows, whole->nrows);
	assert_int_equal(runs(s), 22);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_hist *a = sq_snapshot_row(s, i);
		const struct sq_hist *b = sq_snapshot_row(whole, i);

		assert_int_equal(a->scope, b->scope);
		assert_int_equal(a->job_id, b->job_id);
		assert_int_equal(a->run, b->run);
		assert_string_equal(a->state, b->state);
		assert_int_equal(a->nsteps, b->nsteps);
		assert_int_equal(a->runs, b->runs);
		assert_true((isnan(a->cpu_eff) && isnan(b->cpu_eff)) ||
			    a->cpu_eff == b->cpu_eff);
	}
	free(body);
	sq_snapshot_unref(s);
	sq_snapshot_unref(whole);
}

/* ---- incremental refresh ---- */

#define H(id, state, start, end, name)                                         \
	id "|" id "|alice|physics|low|normal|" state "|0:0|" start "|" start   \
	   "|" end "|5|1|500M|billing=1,cpu=1,mem=500M,node=1|1|1|n1|"         \
	   "00:01.000|1000K|" name "\n" id ".batch|" id                        \
	   ".batch||physics|||" state "|0:0|" start "|" start "|" end          \
	   "|5|1||cpu=1,mem=500M|1|1|"                                         \
	   "n1|00:04.000|2048K|batch\n"

/* The recorded scenario merged with itself: nothing twice, the same
 * summaries; and a console's refresh: runs that ended before the window
 * go, active runs are replaced by what the newer fetch says, a requeued
 * job's runs are numbered across both. */
static void
test_merge(void **state)
{
	char *text = sq_test_fixture(FIX "22.05/sacct_history.txt", NULL);
	struct sq_snapshot *s = sacct(text, 0), *m, *prev, *incr;
	const struct sq_hist *h;

	(void)state;
	m = sq_history_merge(s, s, SQ_NONE);
	assert_non_null(m);
	check_scenario(m, 0);
	assert_int_equal(m->nrows, s->nrows);
	sq_snapshot_unref(m);
	/* an empty refresh keeps every finished run */
	incr = sacct("", 0);
	m = sq_history_merge(incr, s, SQ_NONE);
	assert_non_null(m);
	check_scenario(m, 0);
	sq_snapshot_unref(m);
	sq_snapshot_unref(incr);
	sq_snapshot_unref(s);
	free(text);

	prev = sacct(H("101", "COMPLETED", "900", "1000", "a")
			 H("102", "COMPLETED", "50", "100", "b-old")
			     H("103", "RUNNING", "900", "Unknown", "c")
				 H("104", "COMPLETED", "1500", "2000", "d")
				     H("109", "REQUEUED", "500", "600", "r"),
		     0);
	incr = sacct(H("103", "COMPLETED", "900", "3000", "c")
			 H("104", "COMPLETED", "1500", "2000", "d")
			     H("105", "FAILED", "2900", "3100", "e")
				 H("109", "RUNNING", "700", "Unknown", "r"),
		     0);
	m = sq_history_merge(incr, prev, 500);
	assert_non_null(m);
	assert_int_equal(runs(m), 6);
	assert_string_equal(by_name(m, "a", 1)->state, "COMPLETED");
	assert_int_equal(by_name(m, "a", 1)->nsteps, 1);
	assert_string_equal(by_name(m, "a", 1)->steps[0].step, "batch");
	assert_string_equal(by_name(m, "c", 1)->state, "COMPLETED");
	assert_int_equal(by_name(m, "c", 1)->end, 3000);
	assert_string_equal(by_name(m, "d", 1)->state, "COMPLETED");
	assert_string_equal(by_name(m, "e", 1)->state, "FAILED");
	assert_string_equal(by_name(m, "r", 1)->state, "REQUEUED");
	assert_string_equal(by_name(m, "r", 2)->state, "RUNNING");
	h = find(m, SQ_HIST_USER, "alice");
	assert_non_null(h);
	assert_int_equal(h->runs, 6);
	assert_int_equal(h->completed, 3);
	assert_int_equal(h->failed, 1);
	assert_int_equal(h->requeued, 1);
	assert_int_equal(h->active, 1);
	/* efficiency from the copied steps, as from the parsed ones */
	assert_true(fabs(by_name(m, "a", 1)->cpu_eff -
			 by_name(prev, "a", 1)->cpu_eff) < 1e-12);
	for (size_t i = 0; i < m->nrows; i++) {
		h = sq_snapshot_row(m, i);
		if (h->scope == SQ_HIST_RUN)
			assert_string_not_equal(h->name, "b-old");
	}
	sq_snapshot_unref(m);
	/* no window limit: the old run stays */
	m = sq_history_merge(incr, prev, SQ_NONE);
	assert_non_null(m);
	assert_int_equal(runs(m), 7);
	sq_snapshot_unref(m);
	sq_snapshot_unref(prev);
	sq_snapshot_unref(incr);
}

/* Two answers to different questions (the rest events' runs by state
 * and around each preemption): every run of both once, active ones too
 * (a merge drops the older answer's), in the order given. */
static void
test_union(void **state)
{
	struct sq_snapshot *a, *b, *m;

	(void)state;
	a = sacct(H("201", "PREEMPTED", "900", "1000", "victim"), 0);
	b = sacct(H("201", "PREEMPTED", "900", "1000", "victim")
		      H("202", "RUNNING", "1000", "Unknown", "preemptor")
			  H("203", "COMPLETED", "800", "1010", "other"),
		  0);
	m = sq_history_union(a, b);
	assert_non_null(m);
	assert_int_equal(runs(m), 3);
	assert_string_equal(by_name(m, "victim", 1)->state, "PREEMPTED");
	assert_string_equal(by_name(m, "preemptor", 1)->state, "RUNNING");
	assert_non_null(by_name(m, "other", 1));
	sq_snapshot_unref(m);
	m = sq_history_merge(a, b, SQ_NONE);
	assert_non_null(m);
	assert_int_equal(runs(m), 2); /* the running preemptor is dropped */
	sq_snapshot_unref(m);
	m = sq_history_union(b, a);
	assert_non_null(m);
	assert_int_equal(runs(m), 3);
	sq_snapshot_unref(m);
	sq_snapshot_unref(a);
	sq_snapshot_unref(b);
}

/* When a refresh reads the whole window and when only since the last */
static void
test_incr(void **state)
{
	struct sq_hist_incr h;
	struct sq_hist_window w, w2;
	struct sq_snapshot *s;
	struct sq_err err;
	char start[80];
	int64_t t = 1796000000;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.enabled = 1;
	unsetenv("SQUALL_HISTORY_OVERLAP");
	assert_int_equal(sq_history_window_parse("1h", &w, &err), 0);
	assert_int_equal(sq_history_window_parse("2h", &w2, &err), 0);
	assert_int_equal(sq_history_incr_start(&h, &w, t, start, sizeof(start)),
			 0);
	assert_string_equal(start, "now-3600seconds");
	s = sacct(H("101", "COMPLETED", "900", "1000", "a"), 0);
	assert_int_equal(sq_history_incr_done(&h, &w, t, 0, &s), 0);
	/* 10 s later: the 10 s and the overlap */
	assert_int_equal(
	    sq_history_incr_start(&h, &w, t + 10, start, sizeof(start)), 1);
	assert_string_equal(start, "now-310seconds");
	setenv("SQUALL_HISTORY_OVERLAP", "5", 1);
	assert_int_equal(
	    sq_history_incr_start(&h, &w, t + 10, start, sizeof(start)), 1);
	assert_string_equal(start, "now-15seconds");
	setenv("SQUALL_HISTORY_OVERLAP", "-3", 1); /* ignored */
	assert_int_equal(
	    sq_history_incr_start(&h, &w, t + 10, start, sizeof(start)), 1);
	assert_string_equal(start, "now-310seconds");
	unsetenv("SQUALL_HISTORY_OVERLAP");
	/* another window, the clock going back, 15 minutes on: whole */
	assert_int_equal(
	    sq_history_incr_start(&h, &w2, t + 10, start, sizeof(start)), 0);
	assert_string_equal(start, "now-7200seconds");
	assert_int_equal(
	    sq_history_incr_start(&h, &w, t - 10, start, sizeof(start)), 0);
	assert_int_equal(sq_history_incr_start(&h, &w, t + SQ_HIST_FULL, start,
					       sizeof(start)),
			 0);
	/* a part merged in keeps the last whole fetch's time */
	assert_int_equal(sq_history_incr_done(&h, &w, t + 10, 1, &s), 0);
	assert_int_equal(runs(s), 1);
	assert_int_equal(h.full, t);
	assert_int_equal(h.at, t + 10);
	/* batch mode trimmed the last result: whole */
	sq_history_keep(s, SQ_HIST_USER);
	assert_int_equal(
	    sq_history_incr_start(&h, &w, t + 20, start, sizeof(start)), 0);
	sq_snapshot_unref(s);
	sq_history_incr_free(&h);
	/* off (a replay): always whole, nothing kept */
	assert_int_equal(
	    sq_history_incr_start(&h, &w, t + 20, start, sizeof(start)), 0);
	s = sacct("", 0);
	assert_int_equal(sq_history_incr_done(&h, &w, t + 20, 0, &s), 0);
	assert_null(h.prev);
	sq_snapshot_unref(s);
}

/* ---- hostile text ---- */

#define L(id, jid, name, state)                                                \
	id "|" jid "|alice|physics|low|normal|" state                          \
	   "|0:0|1795989695|1795989695|1795989700|5|1|500M|"                   \
	   "billing=1,cpu=1,mem=500M,node=1|1|1|n1|00:01.000|1000K|" name "\n"

static void
test_hostile(void **state)
{
	struct sq_snapshot *s;
	const struct sq_hist *h;

	(void)state;
	/* '|' in a name is kept (JobName last); a line break in a name
	 * leaves a tail line that is not a run; the steps still attach */
	s = sacct(L("7", "7", "a|b|c", "COMPLETED") "tail of the name|x\n" L(
		      "7.batch", "7.batch", "batch", "COMPLETED")
		      L("8", "8", "$(rm -rf /);`id` '\"\\", "CANCELLED by 0"),
		  0);
	assert_int_equal(runs(s), 2);
	h = sq_snapshot_row(s, 0);
	assert_string_equal(h->name, "a|b|c");
	assert_int_equal(h->nsteps, 1);
	assert_true(fabs(h->cpu_eff - 0.2) < 1e-9);
	h = sq_snapshot_row(s, 1);
	assert_string_equal(h->name, "$(rm -rf /);`id` '\"\\");
	assert_string_equal(h->state, "CANCELLED");
	sq_snapshot_unref(s);
	/* a last line cut short is truncated output */
	assert_null(sacct(L("7", "7", "x", "COMPLETED") "8|8|alice|phys", -1));
	/* not a job id */
	assert_null(sacct(L("x7", "7", "x", "COMPLETED"), -1));
	assert_null(sacct(L("0", "0", "x", "COMPLETED"), -1));
	assert_null(sacct(L("99999999999", "1", "x", "COMPLETED"), -1));
	/* bad numbers */
	assert_null(sacct("7|7|a|b|c|d|COMPLETED|x:y|1|1|1|5|1|500M||1|1|n1|"
			  "00:01.000|1000K|n\n",
			  -1));
	/* a step without its run is dropped, not attached elsewhere */
	s = sacct(L("9", "9", "x", "COMPLETED")
		      L("10.batch", "10.batch", "batch", "COMPLETED"),
		  0);
	assert_int_equal(runs(s), 1);
	assert_int_equal(
	    ((const struct sq_hist *)sq_snapshot_row(s, 0))->nsteps, 0);
	sq_snapshot_unref(s);
	/* empty output: no rows, no error */
	s = sacct("", 0);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
}

static void
test_slurmdb_hostile(void **state)
{
	static const char *const bad[] = {
		"{\"jobs\": [ {\"name\": \"x\"} ]}",
		"{\"jobs\": [ 7 ]}",
		"{\"jobs\": {}}",
		"{\"jobs\": [ {\"job_id\": -4} ]}",
	};
	struct sq_snapshot *s;
	struct sq_sj_info info;
	struct sq_err err;
	const char *ok =
	    "{\"jobs\": [ {\"job_id\": 5, \"name\": \"a\\nb|c\", "
	    "\"state\": {\"current\": [\"FAILED\"]}, \"exit_code\": "
	    "{\"status\": \"FAILED\", \"return_code\": 3}, "
	    "\"steps\": [ 1, {\"step\": {\"id\": \"5.0\"}} ], "
	    "\"tres\": {\"allocated\": [ {\"type\": \"mem,x\", "
	    "\"count\": 5}, {\"type\": \"gres\", \"name\": "
	    "\"gpu\", \"count\": 2} ]} } ]}";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
		assert_int_equal(sq_slurmjson_parse(SQ_KIND_HISTORY, bad[i],
						    strlen(bad[i]), 0, s, &info,
						    &err),
				 -1);
		sq_snapshot_unref(s);
	}
	s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_HISTORY, ok, strlen(ok), 0,
					    s, &info, &err),
			 0);
	assert_int_equal(runs(s), 1);
	{
		const struct sq_hist *h = sq_snapshot_row(s, 0);

		assert_string_equal(h->name, "a\nb|c");
		assert_string_equal(h->state, "FAILED");
		assert_int_equal(h->exit_code, 3);
		assert_string_equal(h->tres,
				    "gres/gpu=2"); /* "mem,x" dropped */
		assert_int_equal(h->gpus, 2);
		assert_int_equal(h->nsteps, 2);
		assert_string_equal(h->steps[1].step, "0");
	}
	sq_snapshot_unref(s);
}

static void
test_views(void **state)
{
	static const char *const names[] = { "history", "history-users",
					     "history-accounts",
					     "history-nodes" };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		const struct sq_view_def *v = sq_view_find(names[i]);

		assert_non_null(v);
		assert_int_equal(v->kind, SQ_KIND_HISTORY);
		assert_int_equal(sq_history_view_scope(names[i]), (int)i);
	}
	assert_non_null(sq_view_column(sq_view_find("history"), "job_id"));
	assert_non_null(
	    sq_view_column(sq_view_find("history"), "cpu_efficiency"));
	assert_non_null(
	    sq_view_column(sq_view_find("history-nodes"), "last_failure"));
	assert_string_equal(sq_view_find("history")->default_sort, "-end");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_good),
		cmocka_unit_test(test_window_bad),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_efficiency),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_nodes_at_scale),
		cmocka_unit_test(test_run_numbers),
		cmocka_unit_test(test_summary_counts),
		cmocka_unit_test(test_sacct_recorded),
		cmocka_unit_test(test_slurmdb_v38),
		cmocka_unit_test(test_slurmdb_2411),
		cmocka_unit_test(test_slurmdb_stream),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_slurmdb_hostile),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_incr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
