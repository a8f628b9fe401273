/*
 * test_gpu_demand.c - pending GPU demand (the gpus views' pend_gpus,
 * pend_jobs and longest_wait) and the overview's GPU lines: on the
 * 22.05 testbed's recording with pending jobs of every kind of request
 * (tests/fixtures/gpus/22.05/pending: an array, --gpus, --gpus-per-task
 * over two partitions, -N 2 --gres, a typed --gres), the counting rules
 * on hand-made requests, the REST path from JOBS records, an unknown
 * demand, and the overview's allocated, utilisation and pending lines
 * (figures with units, or why there is none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/analysis/gpus.h"
#include "core/analysis/gpuuse.h"
#include "core/model/model_admin.h"
#include "core/analysis/overview.h"
#include "core/base/parse.h"
#include "core/model/view.h"
#include "tests/unit/test_util.h"

#define REC "gpus/22.05/pending/"
/* the recording's SubmitTime of carol's jobs and of bob's oldest */
#define CAROL_SUBMIT 1796536226
#define BOB_SUBMIT 1796535965

static struct sq_snapshot *
recorded(int64_t now)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUS, 0);
	char *nodes = sq_test_fixture(REC "000002-scontrol.out", NULL);
	char *jobs = sq_test_fixture(REC "000003-squeue.out", NULL);
	char *pend = sq_test_fixture(REC "000004-squeue.out", NULL);
	struct sq_err err;

	assert_non_null(s);
	s->fetched = now;
	assert_int_equal(sq_parse_gpu_nodes(nodes, s, &err), 0);
	assert_int_equal(sq_parse_gpu_jobs(jobs, s, &err), 0);
	assert_int_equal(sq_parse_gpu_pending(pend, s, &err), 0);
	assert_int_equal(sq_gpus_finish(s, ""), 0);
	free(nodes);
	free(jobs);
	free(pend);
	return s;
}

static const struct sq_gpu *
find(const struct sq_snapshot *s, enum sq_gpu_scope scope, const char *key,
     const char *type)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_gpu *g = sq_snapshot_row(s, i);
		const char *k = scope == SQ_GPU_PARTITION ? g->partition
				: scope == SQ_GPU_USER    ? g->user
				: scope == SQ_GPU_ACCOUNT ? g->account
							  : g->node;

		if (g->scope == scope && strcmp(k, key) == 0 &&
		    strcmp(g->type, type) == 0)
			return g;
	}
	fail_msg("no row %d %s %s", (int)scope, key, type);
	return NULL;
}

/*
 * carol: --array=1-3 --gres=gpu:1 (3 tasks, 3 GPUs), --gpus=3
 * (tres-per-job), -n 2 --gpus-per-task=1 in high,gpu (2), -N 2
 * --gres=gpu:1 (2), all untyped: 10 GPUs, 6 jobs; --gres=gpu:a100:2: 2
 * a100s. bob: two a100:2 jobs in gpu, one t4:1 in low (the workload's).
 */
static void
test_recorded(void **state)
{
	int64_t now = CAROL_SUBMIT + 100;
	struct sq_snapshot *s = recorded(now);
	const struct sq_gpu *g;

	(void)state;
	g = find(s, SQ_GPU_USER, "carol", "");
	assert_int_equal(g->pend_gpus, 10);
	assert_int_equal(g->pend_jobs, 6);
	assert_int_equal(g->pend_since, CAROL_SUBMIT);
	assert_int_equal(g->pend_wait, 100);
	assert_int_equal(g->alloc, 0);
	g = find(s, SQ_GPU_USER, "carol", "a100");
	assert_int_equal(g->pend_gpus, 2);
	assert_int_equal(g->pend_jobs, 1);
	g = find(s, SQ_GPU_USER, "bob", "a100");
	assert_int_equal(g->pend_gpus, 4);
	assert_int_equal(g->pend_jobs, 2);
	assert_int_equal(g->pend_wait, now - BOB_SUBMIT);
	/* partitions: a job of two partitions counts in each */
	g = find(s, SQ_GPU_PARTITION, "gpu", "");
	assert_int_equal(g->pend_gpus, 10);
	assert_int_equal(g->pend_jobs, 6);
	g = find(s, SQ_GPU_PARTITION, "high", "");
	assert_int_equal(g->pend_gpus, 2);
	assert_int_equal(g->pend_jobs, 1);
	g = find(s, SQ_GPU_PARTITION, "gpu", "a100");
	assert_int_equal(g->pend_gpus, 6);
	assert_int_equal(g->pend_jobs, 3);
	assert_int_equal(g->total, 4);
	assert_int_equal(g->pend_wait, now - BOB_SUBMIT);
	g = find(s, SQ_GPU_PARTITION, "low", "t4");
	assert_int_equal(g->pend_gpus, 1);
	g = find(s, SQ_GPU_PARTITION, "gpu", "t4");
	assert_int_equal(g->pend_gpus, 0);
	assert_int_equal(g->pend_wait, SQ_NONE);
	g = find(s, SQ_GPU_ACCOUNT, "chemistry", "");
	assert_int_equal(g->pend_gpus, 10);
	sq_snapshot_unref(s);
}

static int64_t
pend_of(const char *per_node, const char *per_job, const char *per_task,
	int64_t nodes, int64_t tasks, int64_t copies)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUS, 0);
	struct sq_gpu_pend p = { "u",     "a",      "p",     nodes,
				 tasks,   per_node, per_job, per_task,
				 SQ_NONE, 0,        copies };
	int64_t v = 0;
	size_t i;

	assert_int_equal(sq_gpus_add_pending(s, &p), 0);
	for (i = 0; i < s->nrows; i++)
		v += ((const struct sq_gpu *)sq_snapshot_row(s, i))->pend_gpus;
	sq_snapshot_unref(s);
	return v;
}

static void
test_rules(void **state)
{
	(void)state;
	assert_int_equal(pend_of("gres:gpu:2", "N/A", "N/A", 3, 1, 0), 6);
	assert_int_equal(pend_of("gres/gpu:a100:1", "", "", 2, 4, 3), 6);
	/* tres-per-job is the job's total, whatever per node says */
	assert_int_equal(pend_of("gres:gpu:1", "gres:gpu:4", "N/A", 8, 1, 0),
			 4);
	assert_int_equal(pend_of("N/A", "N/A", "gres:gpu:1", 1, 5, 0), 5);
	/* every accelerator GRES counts, other GRES do not */
	assert_int_equal(pend_of("gres:tpu:2", "N/A", "N/A", 1, 1, 0), 2);
	assert_int_equal(pend_of("gres:license:2", "N/A", "N/A", 1, 1, 0), 0);
	assert_int_equal(pend_of("N/A", "N/A", "N/A", 1, 1, 0), 0);
	assert_int_equal(pend_of("(null)", "", "", 1, 1, 0), 0);
}

/* The REST path: a pending array row of a JOBS snapshot counts each of
 * its tasks; running jobs count as allocated, not pending. */
static void
test_records(void **state)
{
	struct sq_snapshot *jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUS, 0);
	struct sq_job *j = sq_snapshot_add(jobs);
	const struct sq_gpu *g;

	(void)state;
	memset(j, 0, sizeof(*j));
	j->id = "40_[1-3,7]";
	j->job_id = 40;
	j->array_job_id = 40;
	j->array_task = "[1-3,7%2]";
	j->user = "u";
	j->account = "a";
	j->partition = "gpu";
	j->state = "PENDING";
	j->state_compact = "PD";
	j->nodes = 1;
	j->gres = "gres:gpu:2";
	j->submit_time = 1000;
	jobs->fetched = 1060;
	assert_int_equal(sq_gpus_add_records(s, NULL, jobs), 0);
	assert_int_equal(sq_gpus_finish(s, ""), 0);
	g = find(s, SQ_GPU_PARTITION, "gpu", "");
	assert_int_equal(g->pend_gpus, 8);
	assert_int_equal(g->pend_jobs, 4);
	assert_int_equal(g->pend_wait, 60);
	sq_snapshot_unref(s);
	sq_snapshot_unref(jobs);
}

/* Demand that could not be read: no 0, the reason in the cell. */
static void
test_unknown(void **state)
{
	struct sq_snapshot *s = recorded(CAROL_SUBMIT);
	const struct sq_view_def *v = sq_view_find("gpus-users");
	const struct sq_column *c = sq_view_column(v, "pend_gpus");
	const struct sq_gpu *g;
	char buf[64];

	(void)state;
	assert_non_null(c);
	g = find(s, SQ_GPU_USER, "carol", "");
	assert_string_equal(c->text(g, buf, sizeof(buf)), "10");
	sq_gpus_pending_unknown(s, "pending jobs not read: denied");
	assert_int_equal(g->pend_gpus, SQ_NONE);
	assert_string_equal(c->text(g, buf, sizeof(buf)),
			    "pending jobs not read: denied");
	assert_non_null(
	    sq_view_column(sq_view_find("gpus-partitions"), "longest_wait"));
	assert_non_null(sq_view_column(v, "pend_jobs"));
	sq_snapshot_unref(s);
}

static const struct sq_ov_row *
line(const struct sq_snapshot *ov, const char *id)
{
	size_t i;

	for (i = 0; i < ov->nrows; i++) {
		const struct sq_ov_row *r = sq_snapshot_row(ov, i);

		if (strcmp(r->id, id) == 0)
			return r;
	}
	fail_msg("no line %s", id);
	return NULL;
}

static struct sq_snapshot *
gpu_nodes(void)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_NODES, 0);
	struct sq_node *n = sq_snapshot_add(s);

	memset(n, 0, sizeof(*n));
	n->name = "n3";
	n->state = "MIXED";
	n->partitions = "gpu";
	n->gres = n->gres_used = n->reason = "";
	n->gpus_total = 8;
	n->gpus_alloc = 3;
	return s;
}

static void
use_job(struct sq_snapshot *u, const char *id, int64_t gpus, int64_t util)
{
	char tres[64];

	snprintf(tres, sizeof(tres), "cpu=1,gres/gpu=%lld", (long long)gpus);
	assert_int_equal(sq_gpuuse_add_job(u, id, "alice", "physics", "gpu",
					   1000, "n3", tres),
			 0);
	sq_gpuuse_find(u, id)->util = util;
}

static void
test_overview(void **state)
{
	int64_t now = CAROL_SUBMIT + 100;
	struct sq_snapshot *nodes = gpu_nodes(), *gpus = recorded(now);
	struct sq_snapshot *use = sq_snapshot_new(SQ_KIND_GPUUSE, 0), *ov;
	struct sq_ov_input in = { 0 };
	const struct sq_ov_row *r;

	(void)state;
	use_job(use, "11", 1, 80);
	use_job(use, "12", 2, 35);
	use_job(use, "13", 1, SQ_NONE);
	sq_gpuuse_sort(use);
	in.nodes = nodes;
	in.gpus = gpus;
	in.gpuuse = use;
	ov = sq_overview_build(&in, now);
	r = line(ov, "gpus/allocated");
	assert_string_equal(r->value, "3/8 GPUs");
	assert_int_equal(r->used, 3);
	assert_int_equal(r->total, 8);
	/* (80 + 2 x 35) / 3 measured GPUs; one job without a figure */
	r = line(ov, "gpus/utilisation");
	assert_int_equal(r->num, 50);
	assert_string_equal(r->value, "50% on 3 of 4 GPUs");
	assert_int_equal(r->src, SQ_KIND_GPUUSE);
	r = line(ov, "gpus/pending");
	/* 10 + 2 (carol) + 4 (bob's a100) + 1 (bob's t4) */
	assert_int_equal(r->num, 17);
	assert_string_equal(r->value, "17 GPUs 10 PD");
	r = line(ov, "gpus/longest wait");
	assert_int_equal(r->num, now - BOB_SUBMIT);
	assert_string_equal(r->value, "6m01s");
	sq_snapshot_unref(ov);

	/* no figure at all: the reason, no number for the sparkline */
	in.gpuuse = NULL;
	in.use_note = "not read: sstat: permission denied";
	ov = sq_overview_build(&in, now);
	r = line(ov, "gpus/utilisation");
	assert_true(r->num < 0);
	assert_string_equal(r->value, "none: not read");
	sq_snapshot_unref(ov);
	use->note = "not collected: Slurm before 23.02 measures no GPU use";
	sq_gpuuse_find(use, "11")->util = SQ_NONE;
	sq_gpuuse_find(use, "12")->util = SQ_NONE;
	in.gpuuse = use;
	ov = sq_overview_build(&in, now);
	r = line(ov, "gpus/utilisation");
	assert_true(r->num < 0);
	assert_string_equal(r->value, "none: Slurm < 23.02");
	sq_snapshot_unref(ov);
	/* no GPU job running on 22.05: still the release's reason (the
	 * 22.05 testbed's empty queue in CI) */
	{
		struct sq_snapshot *none = sq_snapshot_new(SQ_KIND_GPUUSE, 0);

		none->note = use->note;
		in.gpuuse = none;
		ov = sq_overview_build(&in, now);
		r = line(ov, "gpus/utilisation");
		assert_string_equal(r->value, "none: Slurm < 23.02");
		sq_snapshot_unref(ov);
		none->note = NULL;
		ov = sq_overview_build(&in, now);
		r = line(ov, "gpus/utilisation");
		assert_string_equal(r->value, "no GPU job running");
		sq_snapshot_unref(ov);
		sq_snapshot_unref(none);
		in.gpuuse = use;
	}
	/* a cluster without GPUs gets no GPU lines but the idle one */
	in.gpus = NULL;
	in.gpuuse = NULL;
	((struct sq_node *)sq_snapshot_row(nodes, 0))->gpus_total = 0;
	((struct sq_node *)sq_snapshot_row(nodes, 0))->gpus_alloc = 0;
	ov = sq_overview_build(&in, now);
	for (size_t i = 0; i < ov->nrows; i++)
		assert_string_not_equal(
		    ((const struct sq_ov_row *)sq_snapshot_row(ov, i))->id,
		    "gpus/utilisation");
	sq_snapshot_unref(ov);
	sq_snapshot_unref(use);
	sq_snapshot_unref(gpus);
	sq_snapshot_unref(nodes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded), cmocka_unit_test(test_rules),
		cmocka_unit_test(test_records),  cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_overview),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
