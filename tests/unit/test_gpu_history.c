/*
 * test_gpu_history.c - GPU use in the history views: the sizes and TRES
 * items of sacct's TRESUsageInMax, a run's GPU peaks (normalised by its
 * GPUs), GPU-hours and idle GPU-hours with their sums per user and
 * account, the notes that say why there is no figure, and the untyped
 * GPU jobs of the gpus views (issue 41, defect 8).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/analysis/gpus.h"
#include "core/analysis/history.h"
#include "core/base/parse.h"
#include "core/model/view.h"
#include "core/views/view_admin.h"
#include "tests/unit/test_util.h"

static struct sq_snapshot *
sacct(const char *text)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	char *t = strdup(text);
	struct sq_err err;

	assert_non_null(s);
	assert_non_null(t);
	sq_err_clear(&err);
	if (sq_parse_sacct_history(t, s, &err) != 0)
		fail_msg("sacct: %s", err.msg);
	free(t);
	return s;
}

static const struct sq_hist *
job(const struct sq_snapshot *s, uint32_t id)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(s, i);

		if (h->scope == SQ_HIST_RUN && h->job_id == id)
			return h;
	}
	fail_msg("no run of job %u", id);
	return NULL;
}

static const struct sq_hist *
summary(const struct sq_snapshot *s, enum sq_hist_scope scope, const char *key)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(s, i);

		if (h->scope == scope &&
		    strcmp(scope == SQ_HIST_USER ? h->user : h->account, key) ==
			0)
			return h;
	}
	fail_msg("no summary row %s", key);
	return NULL;
}

/* A column's text by id, from the view that shows it. */
static const char *
cell(const struct sq_view_def *v, const char *id, const void *row, char *buf,
     size_t n)
{
	size_t i;

	for (i = 0; i < v->ncols; i++)
		if (strcmp(v->cols[i].id, id) == 0) {
			const char *t = v->cols[i].text(row, buf, n);

			return t != NULL ? t : "";
		}
	fail_msg("no column %s in %s", id, v->name);
	return NULL;
}

static void
test_usage_items(void **state)
{
	int64_t v, u, m;

	(void)state;
	assert_int_equal(sq_history_bytes("2G", &v), 0);
	assert_int_equal(v, 2147483648LL);
	assert_int_equal(sq_history_bytes("1953125K", &v), 0);
	assert_int_equal(v, 2000000000LL);
	assert_int_equal(sq_history_bytes("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(sq_history_bytes("1.50M", &v), 0);
	assert_int_equal(v, 1572864);
	assert_int_equal(sq_history_bytes("2X", &v), -1);
	assert_int_equal(sq_history_bytes("G", &v), -1);
	assert_int_equal(sq_history_bytes("", &v), -1);
	/* sacct's TRESUsageInMax of a GPU step (FAKE-GPUS.md) */
	assert_int_equal(
	    sq_history_gpu_usage("cpu=00:00:01,energy=0,fs/disk=2332,"
				 "gres/gpumem=4G,gres/gpuutil=90,mem=1200K,"
				 "pages=0,vmem=4100K",
				 &u, &m),
	    0);
	assert_int_equal(u, 90);
	assert_int_equal(m, 4294967296LL);
	/* no GPU item: none (not 0); 0 % is a figure */
	assert_int_equal(sq_history_gpu_usage("cpu=00:00:01,mem=1200K", &u, &m),
			 0);
	assert_int_equal(u, SQ_NONE);
	assert_int_equal(m, SQ_NONE);
	assert_int_equal(sq_history_gpu_usage("", &u, &m), 0);
	assert_int_equal(u, SQ_NONE);
	assert_int_equal(sq_history_gpu_usage("gres/gpuutil=0", &u, &m), 0);
	assert_int_equal(u, 0);
	assert_int_equal(sq_history_gpu_usage("gres/gpuutil=", &u, &m), -1);
	assert_int_equal(sq_history_gpu_usage("gres/gpumem=lots", &u, &m), -1);
}

/*
 * The fields of squall's sacct format (sq_cli_sacct_history_fmt) in the
 * shape FAKE-GPUS.md gives: the job line without usage, its steps with
 * TRESUsageInMax. Job 20: two GPUs, gpuutil peak 160 (80 % each); 21:
 * one GPU at 0 %; 22: no GPU; 23: a GPU and no gpuutil item (nothing
 * measured); 24: still running.
 */
#define RUN(id, st, el, tres, name)                                            \
	id "|" id "|alice|physics|gpu|normal|" st                              \
	   "|0:0|1796500000|1796500000|"                                       \
	   "1796500000|" el "|1|500M|" tres "|1||n3|00:00.010|||" name "\n"
#define STEP(id, st, el, usage)                                                \
	id "|" id "||physics|||" st                                            \
	   "|0:0|1796500000|1796500000|1796500000|" el                         \
	   "|1||cpu=1,mem=500M|1|1|n3|00:00.010|3000K|" usage "|batch\n"
#define GPU2 "billing=1,cpu=1,gres/gpu=2,mem=500M,node=1"
#define GPU1 "billing=1,cpu=1,gres/gpu=1,mem=500M,node=1"

static const char sample[] = RUN("20", "COMPLETED", "3600", GPU2, "busy") STEP(
    "20.batch", "COMPLETED", "3600",
    "cpu=00:00:01,gres/gpumem=8G,gres/gpuutil=160,mem=3000K")
    STEP("20.extern", "COMPLETED", "3600", "cpu=00:00:00,mem=0") RUN(
	"21", "CANCELLED by 0", "1800", GPU1,
	"idle") STEP("21.batch", "CANCELLED", "1800",
		     "cpu=00:00:01,gres/gpumem=1G,gres/gpuutil=0,mem=3000K")
	RUN("22", "COMPLETED", "60", "billing=1,cpu=1,mem=500M,node=1",
	    "cpu") STEP("22.batch", "COMPLETED", "60", "cpu=00:00:01,mem=3000K")
	    RUN("23", "COMPLETED", "36", GPU1, "unmeasured")
		STEP("23.batch", "COMPLETED", "36", "cpu=00:00:01,mem=3000K")
		    RUN("24", "RUNNING", "360", GPU1, "running");

static void
test_run_peaks(void **state)
{
	struct sq_snapshot *s = sacct(sample);
	const struct sq_hist *h;
	char buf[64];

	(void)state;
	/* Slurm's 160 is summed over two GPUs: 80 % of them */
	h = job(s, 20);
	assert_int_equal(h->gpus, 2);
	assert_true(fabs(h->gpu_util_max - 0.80) < 1e-9);
	assert_int_equal(h->gpu_mem_max, 8LL << 30);
	assert_true(fabs(sq_history_gpu_hours(h) - 2.0) < 1e-9);
	assert_false(h->gpu_idle);
	assert_true(sq_history_gpu_idle_hours(h) == 0);
	assert_string_equal(
	    cell(&sq_view_history, "gpu_util_max", h, buf, sizeof(buf)),
	    "80.0");
	assert_string_equal(
	    cell(&sq_view_history, "gpu_mem_max", h, buf, sizeof(buf)), "8.0G");
	assert_string_equal(
	    cell(&sq_view_history, "gpu_hours", h, buf, sizeof(buf)), "2.0");
	/* a peak of 0 is idle for its whole run */
	h = job(s, 21);
	assert_true(h->gpu_util_max == 0);
	assert_int_equal(h->gpu_mem_max, 1LL << 30);
	assert_true(h->gpu_idle);
	assert_true(fabs(sq_history_gpu_idle_hours(h) - 0.5) < 1e-9);
	assert_string_equal(
	    cell(&sq_view_history, "gpu_util_max", h, buf, sizeof(buf)), "0.0");
	/* no GPU: empty cells, no hours */
	h = job(s, 22);
	assert_int_equal(h->gpus, 0);
	assert_true(isnan(h->gpu_util_max));
	assert_string_equal(
	    cell(&sq_view_history, "gpu_util_max", h, buf, sizeof(buf)), "");
	assert_string_equal(
	    cell(&sq_view_history, "gpu_mem_max", h, buf, sizeof(buf)), "");
	/* GPUs, nothing measured: the cell says so, never 0 */
	h = job(s, 23);
	assert_true(isnan(h->gpu_util_max));
	assert_int_equal(h->gpu_mem_max, SQ_NONE);
	assert_false(h->gpu_idle);
	assert_string_equal(
	    cell(&sq_view_history, "gpu_util_max", h, buf, sizeof(buf)),
	    "not measured");
	assert_string_equal(
	    cell(&sq_view_history, "gpu_mem_max", h, buf, sizeof(buf)),
	    "not measured");
	h = job(s, 24);
	assert_string_equal(
	    cell(&sq_view_history, "gpu_util_max", h, buf, sizeof(buf)),
	    "after the run");
	/* sums: 2 + 0.5 + 0.01 + 0.1 GPU-hours, 0.5 of them idle */
	h = summary(s, SQ_HIST_USER, "alice");
	assert_true(fabs(h->gpu_hours - 2.61) < 1e-9);
	assert_true(fabs(h->gpu_idle_hours - 0.5) < 1e-9);
	assert_string_equal(
	    cell(&sq_view_history_users, "gpu_idle_hours", h, buf, sizeof(buf)),
	    "0.5");
	h = summary(s, SQ_HIST_ACCOUNT, "physics");
	assert_true(fabs(h->gpu_idle_hours - 0.5) < 1e-9);
	assert_string_equal(
	    cell(&sq_view_history_accounts, "gpu_hours", h, buf, sizeof(buf)),
	    "2.6");
	/* 22.05: the backend says why */
	sq_history_gpu_none(s, SQ_HIST_GPU_OLD);
	assert_string_equal(job(s, 23)->gpu_note, "Slurm < 23.02");
	assert_string_equal(job(s, 24)->gpu_note, "Slurm < 23.02");
	assert_string_equal(job(s, 20)->gpu_note, "");
	assert_string_equal(job(s, 22)->gpu_note, "");
	sq_snapshot_unref(s);
}

/* gpu-idle-below decides which runs are idle; a merge keeps the notes. */
static void
test_idle_below(void **state)
{
	struct sq_snapshot *s, *m;

	(void)state;
	assert_int_equal(sq_history_idle_below(), 5);
	sq_history_idle_below_set(81);
	s = sacct(sample);
	assert_true(job(s, 20)->gpu_idle);
	assert_true(fabs(summary(s, SQ_HIST_USER, "alice")->gpu_idle_hours -
			 2.5) < 1e-9);
	sq_history_idle_below_set(0);
	sq_snapshot_unref(s);
	s = sacct(sample);
	assert_false(job(s, 21)->gpu_idle);
	sq_history_idle_below_set(5);
	sq_history_gpu_none(s, SQ_HIST_GPU_OLD);
	m = sq_history_union(s, s);
	assert_non_null(m);
	assert_true(fabs(job(m, 20)->gpu_util_max - 0.80) < 1e-9);
	assert_true(job(m, 21)->gpu_idle);
	assert_string_equal(job(m, 23)->gpu_note, "Slurm < 23.02");
	sq_snapshot_unref(m);
	sq_snapshot_unref(s);
}

/* The format before TRESUsageInMax still reads, with no GPU figure. */
static void
test_old_format(void **state)
{
	struct sq_snapshot *s = sacct(
	    "7|7|alice|physics|gpu|normal|COMPLETED|0:0|1|1|1|5|1|500M|" GPU1
	    "|1||n3|00:01.000||a|b\n"
	    "7.batch|7.batch||physics|||COMPLETED|0:0|1|1|1|5|1||cpu=1|1|1|n3|"
	    "00:01.000|1000K|batch\n");
	const struct sq_hist *h = job(s, 7);

	(void)state;
	assert_string_equal(h->name, "a|b");
	assert_int_equal(h->nsteps, 1);
	assert_int_equal(h->steps[0].max_rss, 1000);
	assert_true(isnan(h->gpu_util_max));
	assert_string_equal(h->gpu_note, "not measured");
	sq_snapshot_unref(s);
}

static const struct sq_gpu *gpu_row(const struct sq_snapshot *s,
				    enum sq_gpu_scope scope, const char *key,
				    const char *type);

/* A slurmdbd job record (GET /slurmdb/vX/job/<id>) as history rows. */
static struct sq_snapshot *
slurmdb(const char *file)
{
	size_t len;
	char *body = sq_test_fixture(file, &len);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_sj_info info;
	struct sq_err err;

	assert_non_null(s);
	sq_err_clear(&err);
	if (sq_slurmjson_parse(SQ_KIND_HISTORY, body, len, 0, s, &info, &err) !=
	    0)
		fail_msg("%s: %s", file, err.msg);
	free(body);
	return s;
}

/*
 * The recordings of the fake GPUs (tests/fixtures/history/R/gpu, made by
 * tests/testbed/record-gpu): busy (job 1, one GPU, 80 %, 4 GiB), idle
 * (job 2, two GPUs, 0 %, 2 GiB in all), drop (job 3, one GPU, 70 % then
 * 0 %: the peak stays 70). sacct's TRESUsageInMax of each step and
 * slurmdbd's REST record of each job give the same figures.
 */
static void
test_recorded(void **state)
{
	static const struct {
		const char *rel, *api;
	} rels[] = { { "24.11", "v0.0.42" }, { "26.05", "v0.0.45" } };
	static const struct {
		const char *kind;
		uint32_t id;
		int64_t gpus, util, mem;
		double peak;
		int idle;
	} want[] = {
		{ "busy", 1, 1, 80, 4LL << 30, 0.80, 0 },
		{ "idle", 2, 2, 0, 2LL << 30, 0.0, 1 },
		{ "drop", 3, 1, 70, 2LL << 30, 0.70, 0 },
	};
	size_t r, k;

	(void)state;
	for (r = 0; r < 2; r++) {
		char path[200], *text, *pos, *line;
		int seen = 0;

		/* sacct -o JobID,State,AllocTRES,TRESUsageInAve,TRESUsageInMax
		 */
		snprintf(path, sizeof(path), "history/%s/gpu/sacct.txt",
			 rels[r].rel);
		text = sq_test_fixture(path, NULL);
		pos = text;
		while ((line = sq_next_line(&pos)) != NULL) {
			char *f[5];
			int64_t u, m;
			unsigned long id = strtoul(line, NULL, 10);

			if (sq_split(line, '|', f, 5) != 5 ||
			    strstr(f[0], ".batch") == NULL)
				continue;
			assert_int_equal(sq_history_gpu_usage(f[4], &u, &m), 0);
			for (k = 0; k < 3; k++)
				if (want[k].id == id) {
					assert_int_equal(sq_history_gpus(f[2]),
							 want[k].gpus);
					assert_int_equal(u, want[k].util);
					assert_int_equal(m, want[k].mem);
					seen++;
				}
		}
		assert_int_equal(seen, 3);
		free(text);
		for (k = 0; k < 3; k++) {
			struct sq_snapshot *s;
			const struct sq_hist *h;

			snprintf(path, sizeof(path),
				 "history/%s/gpu/rest_%s_job_%s.json",
				 rels[r].rel, rels[r].api, want[k].kind);
			s = slurmdb(path);
			h = job(s, want[k].id);
			assert_int_equal(h->gpus, want[k].gpus);
			assert_true(fabs(h->gpu_util_max - want[k].peak) <
				    1e-9);
			assert_int_equal(h->gpu_mem_max, want[k].mem);
			assert_int_equal(h->gpu_idle, want[k].idle);
			assert_string_equal(h->gpu_note, "");
			sq_snapshot_unref(s);
		}
	}
}

/*
 * squall's own sacct query recorded on 24.11 and 26.05 (squall --record,
 * 3 h window): the same jobs 1-3 as above, the workload's GPU jobs (8 idle
 * on two GPUs, 18 still running).
 */
static void
test_squall_recorded(void **state)
{
	char *text = sq_test_fixture(
	    "history/24.11/gpu/squall-history/000002-sacct.out", NULL);
	struct sq_snapshot *s = sacct(text);
	const struct sq_hist *h;

	(void)state;
	h = job(s, 1);
	assert_int_equal(h->gpus, 1);
	assert_true(fabs(h->gpu_util_max - 0.80) < 1e-9);
	assert_int_equal(h->gpu_mem_max, 4LL << 30);
	h = job(s, 2);
	assert_int_equal(h->gpus, 2);
	assert_true(h->gpu_util_max == 0 && h->gpu_idle);
	assert_int_equal(h->gpu_mem_max, 2LL << 30);
	h = job(s, 3);
	assert_true(fabs(h->gpu_util_max - 0.70) < 1e-9);
	h = job(s, 8);
	assert_true(h->gpu_idle);
	assert_true(sq_history_gpu_idle_hours(h) > 0 &&
		    sq_history_gpu_idle_hours(h) == sq_history_gpu_hours(h));
	h = job(s, 18);
	assert_true(isnan(h->gpu_util_max));
	assert_string_equal(h->gpu_note, "after the run");
	assert_true(summary(s, SQ_HIST_USER, "bob")->gpu_idle_hours > 0);
	free(text);
	sq_snapshot_unref(s);
	/* 26.05: the same jobs (ids 1-3), the workload's 9 (two busy GPUs:
	 * 160 summed, 80 % each) and 10 (dropped to 0: the peak stays) */
	text = sq_test_fixture(
	    "history/26.05/gpu/squall-history/000002-sacct.out", NULL);
	s = sacct(text);
	assert_true(fabs(job(s, 1)->gpu_util_max - 0.80) < 1e-9);
	assert_true(job(s, 2)->gpu_idle);
	assert_true(fabs(job(s, 3)->gpu_util_max - 0.70) < 1e-9);
	h = job(s, 9);
	assert_int_equal(h->gpus, 2);
	assert_true(fabs(h->gpu_util_max - 0.80) < 1e-9);
	assert_int_equal(h->gpu_mem_max, 8LL << 30);
	assert_true(fabs(job(s, 10)->gpu_util_max - 0.70) < 1e-9);
	assert_string_equal(job(s, 21)->gpu_note, "after the run");
	free(text);
	sq_snapshot_unref(s);
}

/* The GPUS rows of one recorded scontrol -d show node + squeue pair. */
static struct sq_snapshot *
gpus_of(const char *dir)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUS, 0);
	char path[200], *nodes, *jobs;
	struct sq_err err;

	assert_non_null(s);
	snprintf(path, sizeof(path), "%s/000002-scontrol.out", dir);
	nodes = sq_test_fixture(path, NULL);
	snprintf(path, sizeof(path), "%s/000003-squeue.out", dir);
	jobs = sq_test_fixture(path, NULL);
	assert_int_equal(sq_parse_gpu_nodes(nodes, s, &err), 0);
	assert_int_equal(sq_parse_gpu_jobs(jobs, s, &err), 0);
	assert_int_equal(sq_gpus_finish(s, ""), 0);
	free(nodes);
	free(jobs);
	return s;
}

/*
 * Defect 8 on a recording: the gpus views of 24.11 (squall --record) and
 * the same with the typed items taken out of the jobs' allocated TRES
 * (what a cluster with AccountingStorageTRES=gres/gpu prints) give the
 * same rows: one per partition and type, the jobs where their GPUs are,
 * users with the type allocated.
 */
static void
test_untyped_recorded(void **state)
{
	struct sq_snapshot *t = gpus_of("gpus/24.11/recorded");
	struct sq_snapshot *u = gpus_of("gpus/24.11/untyped");
	size_t i;

	(void)state;
	assert_int_equal(t->nrows, u->nrows);
	for (i = 0; i < t->nrows; i++) {
		const struct sq_gpu *a = sq_snapshot_row(t, i);
		const struct sq_gpu *b = sq_snapshot_row(u, i);

		assert_int_equal(a->scope, b->scope);
		assert_string_equal(a->node, b->node);
		assert_string_equal(a->partition, b->partition);
		assert_string_equal(a->user, b->user);
		assert_string_equal(a->type, b->type);
		assert_int_equal(a->total, b->total);
		assert_int_equal(a->alloc, b->alloc);
		assert_int_equal(a->jobs, b->jobs);
		assert_true(b->type[0] != '\0');
	}
	assert_int_equal(gpu_row(u, SQ_GPU_PARTITION, "gpu", "t4")->jobs, 1);
	assert_int_equal(gpu_row(u, SQ_GPU_USER, "alice", "a100")->alloc, 1);
	sq_snapshot_unref(t);
	sq_snapshot_unref(u);
}

static const struct sq_gpu *
gpu_row(const struct sq_snapshot *s, enum sq_gpu_scope scope, const char *key,
	const char *type)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_gpu *g = sq_snapshot_row(s, i);
		const char *k = scope == SQ_GPU_PARTITION ? g->partition
				: scope == SQ_GPU_USER    ? g->user
							  : g->node;

		if (g->scope == scope && strcmp(k, key) == 0 &&
		    strcmp(g->type, type) == 0)
			return g;
	}
	return NULL;
}

/*
 * Issue 41 defect 8, the logic: jobs that asked for gpu:N without a
 * type, on a cluster whose AccountingStorageTRES is gres/gpu alone, are
 * allocated "gres/gpu=N"; they count on their nodes' type (their nodes
 * when known, else their partition's single type), not as "(any)".
 */
static void
test_untyped_jobs(void **state)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUS, 0);
	struct sq_err err;
	char nodes[] =
	    "NodeName=n3 Gres=gpu:a100:4 GresUsed=gpu:a100:3(IDX:0-2) "
	    "Partitions=debug,gpu\n"
	    "NodeName=n4 Gres=gpu:t4:4 GresUsed=gpu:t4:1(IDX:0) "
	    "Partitions=gpu\n";
	char jobs[] = "41|alice|physics|debug|n3|cpu=1,gres/gpu=1,node=1\n"
		      "42|alice|physics|debug||cpu=1,gres/gpu=2,node=1\n"
		      "43|bob|chemistry|gpu|n4|cpu=1,gres/gpu=1,node=1\n";
	const struct sq_gpu *g;

	(void)state;
	assert_non_null(s);
	assert_int_equal(sq_parse_gpu_nodes(nodes, s, &err), 0);
	assert_int_equal(sq_parse_gpu_jobs(jobs, s, &err), 0);
	assert_int_equal(sq_gpus_finish(s, ""), 0);
	/* one row for debug: a100, 4 3 1, its three GPUs' two jobs */
	assert_null(gpu_row(s, SQ_GPU_PARTITION, "debug", ""));
	g = gpu_row(s, SQ_GPU_PARTITION, "debug", "a100");
	assert_non_null(g);
	assert_int_equal(g->total, 4);
	assert_int_equal(g->alloc, 3);
	assert_int_equal(g->idle, 1);
	assert_int_equal(g->jobs, 2);
	/* gpu (a100 and t4): job 43's nodes say t4 */
	assert_null(gpu_row(s, SQ_GPU_PARTITION, "gpu", ""));
	g = gpu_row(s, SQ_GPU_PARTITION, "gpu", "t4");
	assert_non_null(g);
	assert_int_equal(g->jobs, 1);
	g = gpu_row(s, SQ_GPU_USER, "alice", "a100");
	assert_non_null(g);
	assert_int_equal(g->alloc, 3);
	assert_null(gpu_row(s, SQ_GPU_USER, "alice", ""));
	assert_non_null(gpu_row(s, SQ_GPU_USER, "bob", "t4"));
	sq_snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage_items),
		cmocka_unit_test(test_run_peaks),
		cmocka_unit_test(test_idle_below),
		cmocka_unit_test(test_old_format),
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_squall_recorded),
		cmocka_unit_test(test_untyped_recorded),
		cmocka_unit_test(test_untyped_jobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
