/*
 * test_gpuuse.c - live GPU use (core/analysis/gpuuse.c,
 * backends/cli/parse_gpuuse.c): the TRES items of sstat, the batched sstat of
 * the GPU jobs parsed and normalised to their GPUs, the idle judgement over
 * kept samples and Slurm's peak, the jobs and gpus joins, and the plan fetching
 * it only for the columns and views that show it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "backends/cli/live.h"
#include "core/analysis/gpuuse.h"
#include "core/analysis/gpus.h"
#include "core/base/parse.h"
#include "core/model/view.h"
#include "core/views/view_admin.h"
#include "session/plan.h"
#include "tests/unit/test_util.h"

extern const struct sq_view_def sq_view_jobs;

static int64_t
at(const char *iso)
{
	int64_t t = 0;

	assert_int_equal(sq_parse_time(iso, &t), 0);
	return t;
}

/* GPUUSE rows of a fixture folder (squeue.txt, sstat.txt), finished at
 * now with cfg and prev's samples. */
static struct sq_snapshot *
load(const char *dir, const struct sq_snapshot *prev, int64_t now,
     struct sq_gpuuse_cfg cfg)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	struct sq_err err;
	char path[256], *text;

	assert_non_null(s);
	snprintf(path, sizeof(path), "%s/squeue.txt", dir);
	text = sq_test_fixture(path, NULL);
	assert_int_equal(sq_parse_gpuuse_jobs(text, s, &err), 0);
	free(text);
	snprintf(path, sizeof(path), "%s/sstat.txt", dir);
	text = sq_test_fixture(path, NULL);
	assert_int_equal(sq_parse_gpuuse_sstat(text, s, &err), 0);
	free(text);
	sq_gpuuse_finish(s, prev, now, cfg, NULL);
	return s;
}

static void
test_tres_items(void **state)
{
	(void)state;
	assert_int_equal(sq_gpuuse_tres("cpu=00:00:00,gres/gpumem=4G,"
					"gres/gpuutil=80,mem=1.05M",
					"gres/gpuutil"),
			 80);
	assert_int_equal(
	    sq_gpuuse_tres("gres/gpumem=4G,gres/gpuutil=80", "gres/gpumem"),
	    4LL << 30);
	assert_int_equal(sq_gpuuse_tres("gres/gpumem=1953125K", "gres/gpumem"),
			 2000000000LL);
	assert_int_equal(sq_gpuuse_tres("mem=1.50M", "mem"), 1572864);
	/* absent is not 0 */
	assert_int_equal(sq_gpuuse_tres("cpu=00:00:00,mem=0", "gres/gpuutil"),
			 SQ_NONE);
	assert_int_equal(sq_gpuuse_tres("gres/gpuutil=x", "gres/gpuutil"),
			 SQ_NONE);
	assert_int_equal(sq_gpuuse_tres("gres/gpuutil=", "gres/gpuutil"),
			 SQ_NONE);
	assert_int_equal(sq_gpuuse_tres("", "gres/gpuutil"), SQ_NONE);
}

static void
test_sstat_parse(void **state)
{
	struct sq_gpuuse_cfg cfg = { 5, 30 };
	int64_t now = at("2026-12-06T02:40:00");
	struct sq_snapshot *s = load("cli/gpuuse", NULL, now, cfg);
	const struct sq_gpuuse *g;

	(void)state;
	assert_int_equal(s->nrows, 4); /* 45 holds no GPU */
	g = sq_gpuuse_find(s, "41");
	assert_non_null(g);
	assert_int_equal(g->gpus, 1);
	assert_string_equal(g->type, "mi300");
	assert_int_equal(g->util, 80);
	assert_int_equal(g->mem, 4LL << 30);
	assert_int_equal(g->util_max, 80);
	assert_int_equal(g->steps, 2); /* extern and batch */
	assert_int_equal(g->idle, 0);
	assert_int_equal(g->idle_min, SQ_NONE);
	/* 2 GPUs: Slurm's sum 0 is 0 % of them; idle since its start (the
	 * peak stayed 0), 80 minutes, 160 GPU-minutes */
	g = sq_gpuuse_find(s, "42");
	assert_int_equal(g->gpus, 2);
	assert_int_equal(g->util, 0);
	assert_int_equal(g->mem, 2LL << 30);
	assert_int_equal(g->idle_min, 80);
	assert_int_equal(g->wasted_mh, 160);
	assert_int_equal(g->idle, 1);
	assert_int_equal(g->run_s, 80 * 60);
	/* dropped: 0 now, 70 at its peak: idle for 0 minutes on the first
	 * sample, not listed after 30 */
	g = sq_gpuuse_find(s, "43");
	assert_int_equal(g->util, 0);
	assert_int_equal(g->util_max, 70);
	assert_int_equal(g->idle_min, 0);
	assert_int_equal(g->idle, 0);
	/* two steps summed: the batch step has no GPU process */
	g = sq_gpuuse_find(s, "44");
	assert_int_equal(g->util, 30);
	assert_int_equal(g->util_max, 55);
	assert_int_equal(g->mem, 2000000000LL);
	assert_string_equal(g->note, "");
	sq_snapshot_unref(s);
}

static void
test_normalise_cap(void **state)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	struct sq_gpuuse_cfg cfg = { 5, 30 };
	char sstat[] = "7.0|x|gres/gpuutil=250|gres/gpuutil=170\n"
		       "8.batch|x|mem=0|mem=0\n";
	struct sq_err err;
	const struct sq_gpuuse *g;

	(void)state;
	assert_int_equal(sq_gpuuse_add_job(s, "7", "u", "a", "p", SQ_NONE, "n1",
					   "gres/gpu=2"),
			 0);
	assert_int_equal(sq_gpuuse_add_job(s, "8", "u", "a", "p", SQ_NONE, "n1",
					   "gres/gpu:t4=1"),
			 0);
	assert_int_equal(sq_parse_gpuuse_sstat(sstat, s, &err), 0);
	sq_gpuuse_finish(s, NULL, 1000, cfg, NULL);
	g = sq_gpuuse_find(s, "7");
	assert_int_equal(g->util, 85);      /* 170 / 2 */
	assert_int_equal(g->util_max, 100); /* 125 capped */
	g = sq_gpuuse_find(s, "8");
	assert_int_equal(g->gpus, 1);
	assert_int_equal(g->util, SQ_NONE); /* no process: not a 0 */
	assert_string_equal(g->note, "no process on its GPUs");
	/* a malformed line is an error, not a row */
	{
		char bad[] = "7.0|only two\n";

		assert_int_equal(sq_parse_gpuuse_sstat(bad, s, &err), -1);
	}
	sq_snapshot_unref(s);
}

/* The recordings of 24.11 and 26.05 (tests/fixtures/live/slurm-R/gpuuse):
 * busy 1 GPU at 80 %, idle 2 GPUs at 0 %, drop 70 % then 0 %, 44 s after
 * their start. */
static void
test_recorded(void **state)
{
	static const char *const rel[] = { "24.11", "26.05" };
	struct sq_gpuuse_cfg now0 = { 5, 0 }, after30 = { 5, 30 };
	int64_t t = 1796524832 + 44;
	size_t r;

	(void)state;
	for (r = 0; r < 2; r++) {
		char dir[64];
		struct sq_snapshot *s, *s30;
		const struct sq_gpuuse *g;

		snprintf(dir, sizeof(dir), "live/slurm-%s/gpuuse", rel[r]);
		s = load(dir, NULL, t, now0);
		assert_int_equal(s->nrows, 3);
		g = sq_gpuuse_find(s, "1");
		assert_int_equal(g->util, 80);
		assert_int_equal(g->mem, 4LL << 30);
		assert_int_equal(g->util_max, 80);
		assert_int_equal(g->idle, 0);
		g = sq_gpuuse_find(s, "2");
		assert_int_equal(g->gpus, 2);
		assert_string_equal(g->type, "a100");
		assert_int_equal(g->util, 0);
		assert_int_equal(g->mem, 2LL << 30);
		assert_int_equal(g->util_max, 0);
		assert_int_equal(g->idle, 1);
		g = sq_gpuuse_find(s, "3");
		assert_int_equal(g->util, 0);
		assert_int_equal(g->util_max, 70);
		assert_int_equal(g->mem, 2LL << 30);
		assert_int_equal(g->idle, 1);
		/* 44 s is not 30 minutes */
		s30 = load(dir, NULL, t, after30);
		assert_int_equal(sq_gpuuse_find(s30, "2")->idle, 0);
		assert_int_equal(sq_gpuuse_find(s30, "2")->idle_min, 0);
		sq_gpuuse_keep(s, sq_gpuuse_view_scope("gpus-idle"));
		assert_int_equal(s->nrows, 2);
		assert_null(sq_gpuuse_find(s, "1"));
		sq_snapshot_unref(s);
		sq_snapshot_unref(s30);
	}
}

/* The detail pane's GPU indices from the recorded scontrol -d show job. */
static void
test_job_gres(void **state)
{
	static const char *const rel[] = { "24.11", "26.05" };
	char path[128], out[256], *text;
	size_t r;

	(void)state;
	for (r = 0; r < 2; r++) {
		snprintf(path, sizeof(path),
			 "live/slurm-%s/gpuuse/scontrol-d-show-job-idle.txt",
			 rel[r]);
		text = sq_test_fixture(path, NULL);
		sq_cli_parse_job_gres(text, out, sizeof(out));
		assert_string_equal(out, "n3 gpu:a100:2(IDX:0-1)");
		free(text);
		snprintf(path, sizeof(path),
			 "live/slurm-%s/gpuuse/scontrol-d-show-job-busy.txt",
			 rel[r]);
		text = sq_test_fixture(path, NULL);
		sq_cli_parse_job_gres(text, out, sizeof(out));
		assert_non_null(strstr(out, "gpu:a100:1(IDX:"));
		free(text);
	}
	sq_cli_parse_job_gres("   Nodes=n1 CPU_IDs=0 Mem=0 GRES=\n"
			      "   Nodes=n[1-2] CPU_IDs=0-1 Mem=9 "
			      "GRES=gpu:t4:1(IDX:3)\n",
			      out, sizeof(out));
	assert_string_equal(out, "n[1-2] gpu:t4:1(IDX:3)");
	sq_cli_parse_job_gres("JobId=1 NumNodes=1\n", out, 8);
	assert_string_equal(out, "");
}

/* The samples carry over: 35 minutes at 0 after the drop make it idle. */
static void
test_idle_samples(void **state)
{
	struct sq_gpuuse_cfg cfg = { 5, 30 };
	int64_t t0 = at("2026-12-06T02:40:00");
	struct sq_snapshot *a = load("cli/gpuuse", NULL, t0, cfg);
	struct sq_snapshot *b = load("cli/gpuuse", a, t0 + 20 * 60, cfg);
	struct sq_snapshot *c = load("cli/gpuuse", b, t0 + 35 * 60, cfg);
	const struct sq_gpuuse *g = sq_gpuuse_find(c, "43");

	(void)state;
	assert_int_equal(g->nsamples, 3);
	assert_int_equal(g->idle_min, 35);
	assert_int_equal(g->idle, 1);
	assert_int_equal(g->wasted_mh, 35);
	/* 44 at 30 % is above 5 %: never idle */
	assert_int_equal(sq_gpuuse_find(c, "44")->idle, 0);
	/* gpus-idle's rows: 42 and 43, not the busy 41 */
	sq_gpuuse_keep(c, sq_gpuuse_view_scope("gpus-idle"));
	assert_int_equal(c->nrows, 2);
	assert_null(sq_gpuuse_find(c, "41"));
	sq_snapshot_unref(a);
	sq_snapshot_unref(b);
	sq_snapshot_unref(c);
}

/* gpu-idle-after 0: every job under the threshold now. */
static void
test_idle_after_zero(void **state)
{
	struct sq_gpuuse_cfg cfg = { 5, 0 };
	struct sq_snapshot *s =
	    load("cli/gpuuse", NULL, at("2026-12-06T02:40:00"), cfg);

	(void)state;
	assert_int_equal(sq_gpuuse_find(s, "41")->idle, 0);
	assert_int_equal(sq_gpuuse_find(s, "42")->idle, 1);
	assert_int_equal(sq_gpuuse_find(s, "43")->idle, 1);
	assert_int_equal(sq_gpuuse_find(s, "44")->idle, 0);
	sq_snapshot_unref(s);
	/* 22.05: every row says why, no figure */
	s = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	assert_int_equal(
	    sq_gpuuse_add_job(s, "9", "u", "a", "p", 0, "n1", "gres/gpu=1"), 0);
	sq_gpuuse_finish(s, NULL, 100, cfg, "not collected: old");
	assert_int_equal(sq_gpuuse_find(s, "9")->util, SQ_NONE);
	assert_int_equal(sq_gpuuse_find(s, "9")->idle, 0);
	assert_string_equal(sq_gpuuse_find(s, "9")->note, "not collected: old");
	sq_snapshot_unref(s);
}

static const char *
cell(const struct sq_view_def *v, const char *col, const void *rec, char *buf,
     size_t n)
{
	const struct sq_column *c = sq_view_column(v, col);
	const char *t;

	assert_non_null(c);
	t = c->text(rec, buf, n);
	return t != NULL ? t : "";
}

static void
test_join_jobs(void **state)
{
	struct sq_gpuuse_cfg cfg = { 5, 30 };
	struct sq_snapshot *use =
	    load("cli/gpuuse", NULL, at("2026-12-06T02:40:00"), cfg);
	struct sq_snapshot *jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_snapshot *rest = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	const char *ids[] = { "41", "44", "45", "50" };
	struct sq_job *j;
	char buf[128];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		j = sq_snapshot_add(jobs);
		j->id = ids[i];
		j->job_id = (uint32_t)atoi(ids[i]);
		j->state = "RUNNING";
		/* a running job in use holds GPUs (45 has none) */
		j->gres = i == 2 ? "" : "gres/gpu:1";
		j->user = j->account = j->partition = "";
	}
	sq_jobs_join_gpuuse(jobs, use);
	j = sq_snapshot_row(jobs, 0);
	assert_string_equal(cell(&sq_view_jobs, "gpu_util", j, buf, 128),
			    "80%");
	assert_string_equal(cell(&sq_view_jobs, "gpu_mem", j, buf, 128),
			    "4.0G");
	j = sq_snapshot_row(jobs, 1);
	assert_string_equal(cell(&sq_view_jobs, "gpu_util_max", j, buf, 128),
			    "55%");
	/* no GPU: nothing to say */
	j = sq_snapshot_row(jobs, 2);
	assert_string_equal(cell(&sq_view_jobs, "gpu_util", j, buf, 128), "");
	/* a GPU job sstat did not report on */
	j = sq_snapshot_row(jobs, 3);
	assert_non_null(
	    strstr(cell(&sq_view_jobs, "gpu_util", j, buf, 128), "sstat"));
	/* through slurmrestd: the reason, never a 0 */
	rest->note = SQ_GPUUSE_REST_NOTE;
	sq_jobs_join_gpuuse(jobs, rest);
	assert_string_equal(cell(&sq_view_jobs, "gpu_util", j, buf, 128),
			    SQ_GPUUSE_REST_NOTE);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(use);
	sq_snapshot_unref(rest);
}

static void
test_join_gpus(void **state)
{
	struct sq_gpuuse_cfg cfg = { 5, 30 };
	struct sq_snapshot *use =
	    load("cli/gpuuse", NULL, at("2026-12-06T02:40:00"), cfg);
	struct sq_snapshot *g = sq_snapshot_new(SQ_KIND_GPUS, 0);
	size_t i;
	int seen = 0;

	(void)state;
	assert_int_equal(sq_gpus_add_node(g, "n3", "gpu", "gpu:mi300:4",
					  "gpu:mi300:3(IDX:0-2)"),
			 0);
	assert_int_equal(sq_gpus_add_job(g, "alice", "physics", "gpu",
					 "gres/gpu=1,gres/gpu:mi300=1"),
			 0);
	assert_int_equal(sq_gpus_add_job(g, "alice", "physics", "gpu",
					 "gres/gpu=2,gres/gpu:mi300=2"),
			 0);
	assert_int_equal(sq_gpus_finish(g, "none"), 0);
	sq_gpus_join_use(g, use);
	for (i = 0; i < g->nrows; i++) {
		const struct sq_gpu *r = sq_snapshot_row(g, i);

		if (r->scope == SQ_GPU_NODE) {
			/* 41 (1 GPU, 80 %) and 42 (2 GPUs, 0 %) on n3 */
			assert_int_equal(r->util, 27);
			seen++;
		} else if (r->scope == SQ_GPU_USER) {
			assert_int_equal(r->util, 27);
			assert_int_equal(r->idle, 2); /* 42 is idle */
			seen++;
		} else if (r->scope == SQ_GPU_ACCOUNT) {
			assert_int_equal(r->idle, 2);
			seen++;
		}
	}
	assert_int_equal(seen, 3);
	sq_snapshot_unref(g);
	sq_snapshot_unref(use);
}

/* Slurm before 23.02: no util, no idle count, the reason in the cell. */
static void
test_join_gpus_none(void **state)
{
	struct sq_snapshot *use = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	struct sq_snapshot *g = sq_snapshot_new(SQ_KIND_GPUS, 0);
	struct sq_gpuuse_cfg cfg = { 5, 0 };
	size_t i;

	(void)state;
	assert_int_equal(sq_gpuuse_add_job(use, "9", "alice", "physics", "gpu",
					   0, "n3", "gres/gpu=1"),
			 0);
	sq_gpuuse_finish(use, NULL, 100, cfg, "not collected: old");
	use->note = "not collected: old";
	assert_int_equal(
	    sq_gpus_add_job(g, "alice", "physics", "gpu", "gres/gpu=1"), 0);
	assert_int_equal(sq_gpus_finish(g, "none"), 0);
	sq_gpus_join_use(g, use);
	for (i = 0; i < g->nrows; i++) {
		const struct sq_gpu *r = sq_snapshot_row(g, i);

		assert_int_equal(r->util, SQ_NONE);
		assert_string_equal(r->util_note, "not collected: old");
		if (r->scope == SQ_GPU_USER)
			assert_int_equal(r->idle, SQ_NONE);
	}
	sq_snapshot_unref(g);
	sq_snapshot_unref(use);
}

/* sstat runs only for the views and columns that show its figures. */
static void
test_plan_wants(void **state)
{
	const struct sq_view_def *jv = &sq_view_jobs;
	int cols[2];
	unsigned k;

	(void)state;
	cols[0] = 0; /* job_id */
	k = sq_plan_kinds(SQ_KIND_JOBS, sq_plan_want_cols(jv, cols, 1));
	assert_false(k & SQ_KIND_BIT(SQ_KIND_GPUUSE));
	assert_false(k & SQ_KIND_BIT(SQ_KIND_PRIO));
	for (cols[1] = 0; cols[1] < (int)jv->ncols; cols[1]++)
		if (strcmp(jv->cols[cols[1]].id, "gpu_util") == 0)
			break;
	assert_true(cols[1] < (int)jv->ncols);
	k = sq_plan_kinds(SQ_KIND_JOBS, sq_plan_want_cols(jv, cols, 2));
	assert_true(k & SQ_KIND_BIT(SQ_KIND_GPUUSE));
	assert_false(k & SQ_KIND_BIT(SQ_KIND_PRIO));
	assert_true(sq_plan_kinds(SQ_KIND_GPUS, SQ_PLAN_EAGER) &
		    SQ_KIND_BIT(SQ_KIND_GPUUSE));
	assert_int_equal(sq_plan_interval(SQ_KIND_GPUUSE, 10, 60), 60);
	assert_int_equal(
	    sq_plan_interval_joined(SQ_KIND_GPUUSE,
				    SQ_KIND_BIT(SQ_KIND_JOBS) |
					SQ_KIND_BIT(SQ_KIND_GPUUSE),
				    10, 60),
	    60);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tres_items),
		cmocka_unit_test(test_sstat_parse),
		cmocka_unit_test(test_normalise_cap),
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_job_gres),
		cmocka_unit_test(test_idle_samples),
		cmocka_unit_test(test_idle_after_zero),
		cmocka_unit_test(test_join_jobs),
		cmocka_unit_test(test_join_gpus),
		cmocka_unit_test(test_join_gpus_none),
		cmocka_unit_test(test_plan_wants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
