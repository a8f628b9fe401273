/*
 * test_overview.c - the at-a-glance data: the overview's aggregation on
 * hand-made snapshots (exact figures) and on sinfo/squeue/sdiag recorded
 * on the 22.05 testbed (figures checked against the parsed rows), the
 * history rings (one sample per step, the hour window, wrap-around,
 * eviction), sparkline rendering, the clusters view's counts, and its
 * parallel fetch with clusters that fail (no Slurm commands, a missing
 * recording, an sinfo that hangs): a row each, in order, each with its
 * own error, within the time budget; and that each cluster's nodes and
 * jobs are read through the fetch plan (a fake backend counting what it
 * is asked: a kind its capabilities lack, or one the plan builds for it,
 * is never asked of fetch(), and the row says so in the plan's words).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/analysis/completing.h"
#include "core/analysis/clusters.h"
#include "core/model/model_admin.h"
#include "core/conf/conf.h"
#include "core/analysis/overview.h"
#include "core/base/util.h"
#include "session/glance.h"
#include "session/plan.h"
#include "tests/unit/fake_backend.h"
#include "tests/unit/test_util.h"

#define FIX "cli/22.05/"

static void
add_node(struct sq_snapshot *s, const char *name, const char *state,
	 const char *parts, int cpus, int calloc_, int mem, int malloc_,
	 int gpus, int galloc)
{
	struct sq_node *n = sq_snapshot_add(s);

	n->name = name;
	n->state = state;
	n->partitions = parts;
	n->cpus_total = cpus;
	n->cpus_alloc = calloc_;
	n->mem_total = mem;
	n->mem_alloc = malloc_;
	n->gpus_total = gpus;
	n->gpus_alloc = galloc;
	n->gres = n->gres_used = n->reason = "";
}

static void
add_job(struct sq_snapshot *s, const char *user, const char *account,
	const char *part, const char *state, const char *reason, int cpus)
{
	struct sq_job *j = sq_snapshot_add(s);

	memset(j, 0, sizeof(*j));
	j->id = j->name = j->qos = j->gres = j->nodelist = j->array_task = "";
	j->user = user;
	j->account = account;
	j->partition = part;
	j->state = state;
	j->state_compact = strcmp(state, "PENDING") == 0 ? "PD" : "R";
	j->reason = reason;
	j->cpus = cpus;
}

static void
add_kv(struct sq_snapshot *s, const char *sect, const char *key,
       const char *value)
{
	struct sq_kv *kv = sq_snapshot_add(s);

	kv->section = sect;
	kv->key = key;
	kv->value = value;
}

static void
test_build_exact(void **state)
{
	struct sq_snapshot *nodes = sq_snapshot_new(SQ_KIND_NODES, 0);
	struct sq_snapshot *jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_snapshot *diag = sq_snapshot_new(SQ_KIND_DIAG, 0);
	struct sq_ov_input in = { 0 };
	struct sq_snapshot *ov;
	const struct sq_ov_row *r;

	(void)state;
	add_node(nodes, "a1", "mixed", "cpu*,all", 8, 6, 1000, 500, 0, 0);
	add_node(nodes, "a2", "idle", "cpu*,all", 8, 0, 1000, 0, 0, 0);
	add_node(nodes, "g1", "allocated", "gpu,all", 16, 16, 4000, 3000, 4, 3);
	add_node(nodes, "g2", "drained", "gpu", 16, 0, 4000, 0, 4, 0);
	add_job(jobs, "alice", "phys", "cpu", "RUNNING", "None", 6);
	add_job(jobs, "bob", "chem", "gpu", "RUNNING", "None", 16);
	add_job(jobs, "bob", "chem", "gpu", "PENDING", "Resources", 4);
	add_job(jobs, "carol", "chem", "cpu,all", "PENDING",
		"ReqNodeNotAvail, UnavailableNodes:g2", 1);
	add_job(jobs, "carol", "chem", "cpu", "PENDING", "Priority", 1);
	add_job(jobs, "carol", "chem", "cpu", "PENDING", "Priority", 1);
	add_job(jobs, "dave", "phys", "cpu", "COMPLETING", "None", 2);
	add_kv(diag, "general", "Server thread count", "7");
	add_kv(diag, "general", "Agent queue size", "12");
	add_kv(diag, "main", "Last cycle", "1500");
	add_kv(diag, "backfill", "Last cycle", "90000");
	add_kv(diag, "backfill", "Mean cycle", "garbage");

	in.nodes = nodes;
	in.jobs = jobs;
	in.diag = diag;
	in.top = 2;
	ov = sq_overview_build(&in, 1000);
	assert_non_null(ov);
	assert_int_equal(ov->kind, SQ_KIND_OVERVIEW);

	/* nodes by state, with bars over the total */
	r = sq_test_ov_row(ov, "nodes/total");
	assert_non_null(r);
	assert_int_equal(r->num, 4);
	r = sq_test_ov_row(ov, "nodes/drained");
	assert_non_null(r);
	assert_int_equal(r->num, 1);
	assert_int_equal(r->total, 4);
	assert_string_equal(r->value, "1 of 4");
	assert_string_equal(sq_test_ov_row(ov, "nodes/total")->value,
			    "4 nodes");
	assert_string_equal(r->view, "nodes");
	assert_string_equal(r->filter, "@state=drained");

	/* partitions from the nodes: cpu* counts for "cpu", not "all" */
	r = sq_test_ov_row(ov, "partition/cpu cpu");
	assert_non_null(r);
	assert_int_equal(r->used, 6);
	assert_int_equal(r->total, 16);
	assert_string_equal(r->value, "6/16 CPUs");
	assert_string_equal(r->filter, "@partition=cpu");
	r = sq_test_ov_row(ov, "partition/all cpu");
	assert_int_equal(r->used, 22);
	assert_int_equal(r->total, 32);
	r = sq_test_ov_row(ov, "partition/gpu mem");
	assert_int_equal(r->used, 3000);
	assert_int_equal(r->total, 8000);
	/* every figure has its unit (issue 41, defect 9) */
	assert_string_equal(r->value, "3000/8000 MB");
	r = sq_test_ov_row(ov, "partition/gpu gpu");
	assert_non_null(r);
	assert_int_equal(r->used, 3);
	assert_int_equal(r->total, 8);
	assert_string_equal(r->value, "3/8 GPUs");
	assert_null(
	    sq_test_ov_row(ov, "partition/cpu gpu")); /* no GPUs: no line */
	/* jobs per partition: the first of a list; COMPLETING is neither */
	r = sq_test_ov_row(ov, "partition/cpu jobs");
	assert_string_equal(r->value, "1 R 3 PD");
	assert_int_equal(r->num, 3);
	/* running and pending are not parts of a capacity: no bar */
	assert_int_equal(r->total, 0);
	assert_int_equal(sq_test_ov_row(ov, "partition/gpu jobs")->num, 1);

	/* reasons: up to the comma, ranked, top 2 */
	r = sq_test_ov_row(ov, "reason/Priority");
	assert_non_null(r);
	assert_int_equal(r->num, 2);
	assert_non_null(sq_test_ov_row(ov, "reason/ReqNodeNotAvail"));
	assert_string_equal(
	    sq_test_ov_row(ov, "reason/ReqNodeNotAvail")->filter,
	    "@reason=ReqNodeNotAvail");
	assert_null(
	    sq_test_ov_row(ov, "reason/Resources")); /* third: cut by top */

	/* users and accounts by running CPUs */
	r = sq_test_ov_row(ov, "user/bob");
	assert_non_null(r);
	assert_int_equal(r->num, 16);
	assert_string_equal(r->value, "16 cpu 1 PD");
	assert_non_null(sq_test_ov_row(ov, "user/alice"));
	assert_null(sq_test_ov_row(ov, "user/carol"));
	assert_int_equal(sq_test_ov_row(ov, "account/chem")->num, 16);
	assert_int_equal(sq_test_ov_row(ov, "account/phys")->num, 6);

	/* idle GPUs, controller health; a bad number is left out */
	r = sq_test_ov_row(ov, "gpus/idle");
	assert_int_equal(r->num, 5);
	assert_int_equal(r->total, 8);
	/* the bar shows what the line says: the idle share */
	assert_int_equal(r->used, 5);
	assert_string_equal(r->value, "5 of 8 GPUs");
	assert_int_equal(sq_test_ov_row(ov, "ctld/server threads")->num, 7);
	assert_int_equal(sq_test_ov_row(ov, "ctld/agent queue")->num, 12);
	assert_int_equal(sq_test_ov_row(ov, "ctld/sched cycle")->num, 1500);
	assert_int_equal(sq_test_ov_row(ov, "ctld/backfill cycle")->num, 90000);
	assert_string_equal(sq_test_ov_row(ov, "ctld/backfill cycle")->filter,
			    "@section=backfill");
	assert_int_equal(sq_test_ov_row(ov, "ctld/server threads")->src,
			 SQ_KIND_DIAG);
	assert_null(sq_test_ov_row(ov, "ctld/sched cycle mean"));
	sq_snapshot_unref(ov);

	/* without nodes and sdiag: queue lines only */
	in.nodes = NULL;
	in.diag = NULL;
	ov = sq_overview_build(&in, 1000);
	assert_null(sq_test_ov_row(ov, "nodes/total"));
	assert_null(sq_test_ov_row(ov, "gpus/idle"));
	assert_non_null(sq_test_ov_row(ov, "user/bob"));
	sq_snapshot_unref(ov);
	/* nothing at all: no rows, no crash */
	memset(&in, 0, sizeof(in));
	ov = sq_overview_build(&in, 1000);
	assert_int_equal(ov->nrows, 0);
	sq_snapshot_unref(ov);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(diag);
}

/* On recorded output: the lines agree with the parsed rows. */
/* COMPLETING longer than `completing-stuck` minutes: counted, named */
static void
test_stuck_completing(void **state)
{
	struct sq_snapshot *jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_ov_input in = { 0 };
	struct sq_snapshot *ov;
	const struct sq_ov_row *r;
	struct sq_job *j;

	(void)state;
	add_job(jobs, "dave", "phys", "cpu", "COMPLETING", "None", 2);
	j = sq_snapshot_row(jobs, 0);
	j->id = "41";
	j->state_compact = "CG";
	j->start_time = 100; /* ended at 300: 700 s before 1000 */
	j->time_used = 200;
	add_job(jobs, "dave", "phys", "cpu", "COMPLETING", "None", 2);
	j = sq_snapshot_row(jobs, 1);
	j->id = "42";
	j->start_time = 900; /* ended at 950: 50 s */
	j->time_used = 50;
	add_job(jobs, "erin", "phys", "cpu", "RUNNING", "None", 2);
	j = sq_snapshot_row(jobs, 2);
	j->start_time = 100;
	j->time_used = 200;
	assert_int_equal(sq_job_completing_for(sq_snapshot_row(jobs, 0), 1000),
			 700);
	assert_int_equal(sq_job_completing_for(sq_snapshot_row(jobs, 2), 1000),
			 SQ_NONE);
	in.jobs = jobs;
	in.top = 2;
	sq_completing_stuck_set(10);
	ov = sq_overview_build(&in, 1000);
	r = sq_test_ov_row(ov, "stuck/completing > 10 min");
	assert_non_null(r);
	assert_int_equal(r->num, 1);
	assert_string_equal(r->value, "1 stuck: 41");
	assert_string_equal(r->filter, "@state=COMPLETING");
	sq_snapshot_unref(ov);
	/* the nodes view: the stuck job's nodes count it, no other */
	{
		struct sq_snapshot *nodes = sq_snapshot_new(SQ_KIND_NODES, 0);
		const struct sq_node *n;

		((struct sq_job *)sq_snapshot_row(jobs, 0))->nodelist =
		    "n[1-2]";
		((struct sq_job *)sq_snapshot_row(jobs, 1))->nodelist = "n3";
		((struct sq_job *)sq_snapshot_row(jobs, 2))->nodelist = "n3";
		add_node(nodes, "n1", "mixed", "low", 4, 1, 10, 1, 0, 0);
		add_node(nodes, "n2", "mixed", "low", 4, 1, 10, 1, 0, 0);
		add_node(nodes, "n3", "mixed", "low", 4, 1, 10, 1, 0, 0);
		sq_nodes_join_stuck(nodes, jobs, 1000);
		n = sq_snapshot_row(nodes, 0);
		assert_int_equal(n->stuck_cg, 1);
		n = sq_snapshot_row(nodes, 1);
		assert_int_equal(n->stuck_cg, 1);
		n = sq_snapshot_row(nodes, 2);
		assert_int_equal(n->stuck_cg, 0);
		sq_snapshot_unref(nodes);
	}
	/* 0: never flagged */
	sq_completing_stuck_set(0);
	ov = sq_overview_build(&in, 1000);
	assert_null(sq_test_ov_row(ov, "stuck/completing > 0 min"));
	assert_int_equal(
	    sq_job_stuck_completing(sq_snapshot_row(jobs, 0), 1000), 0);
	sq_snapshot_unref(ov);
	sq_completing_stuck_set(SQ_COMPLETING_STUCK_DEFAULT);
	sq_snapshot_unref(jobs);
}

static void
test_build_fixtures(void **state)
{
	struct sq_snapshot *nodes =
	    sq_test_cli_parse(SQ_KIND_NODES, sq_parse_sinfo_nodes,
			      FIX "sinfo_nodes.txt", NULL, 0);
	struct sq_snapshot *jobs = sq_test_cli_parse(
	    SQ_KIND_JOBS, sq_parse_squeue, FIX "squeue.txt", NULL, 0);
	struct sq_snapshot *diag = sq_test_cli_parse(
	    SQ_KIND_DIAG, sq_parse_sdiag, FIX "sdiag.txt", NULL, 0);
	struct sq_ov_input in = { 0 };
	struct sq_snapshot *ov;
	int64_t states = 0, pending = 0, cpus = 0, per_part = 0;
	size_t i;

	(void)state;
	in.nodes = nodes;
	in.jobs = jobs;
	in.diag = diag;
	in.top = 100;
	ov = sq_overview_build(&in, 1000);
	for (i = 0; i < ov->nrows; i++) {
		const struct sq_ov_row *r = sq_snapshot_row(ov, i);

		if (strcmp(r->section, "nodes") == 0 &&
		    strcmp(r->key, "total") != 0)
			states += r->num;
		if (strcmp(r->section, "reason") == 0)
			pending += r->num;
		if (strcmp(r->section, "partition") == 0 &&
		    strstr(r->key, " jobs") != NULL)
			per_part += r->num;
	}
	for (i = 0; i < nodes->nrows; i++) {
		const struct sq_node *n = sq_snapshot_row(nodes, i);

		if (strstr(n->partitions, "low") != NULL)
			cpus += n->cpus_total;
	}
	assert_true(nodes->nrows > 0);
	assert_int_equal(sq_test_ov_row(ov, "nodes/total")->num,
			 (int64_t)nodes->nrows);
	assert_int_equal(states, (int64_t)nodes->nrows);
	assert_int_equal(sq_test_ov_row(ov, "partition/low cpu")->total, cpus);
	/* every pending job has a reason line and a partition line */
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (sq_job_is_pending(j) && j->reason[0] != '\0')
			pending--;
	}
	assert_int_equal(pending, 0);
	assert_true(per_part > 0);
	/* sdiag recorded with "Server thread count:  3" */
	assert_int_equal(sq_test_ov_row(ov, "ctld/server threads")->num, 3);
	sq_snapshot_unref(ov);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(diag);
}

static void
test_hist(void **state)
{
	struct sq_ov_hist *h = sq_ov_hist_new();
	const struct sq_spark *s;
	double v[SQ_SPARK_SLOTS];
	size_t n;
	int i;

	(void)state;
	assert_non_null(h);
	assert_null(sq_ov_hist_find(h, "a"));
	/* one sample per step: the later value of a step wins */
	sq_ov_hist_add(h, "a", 1, 1000);
	sq_ov_hist_add(h, "a", 2, 1005);
	sq_ov_hist_add(h, "a", 3, 1010);
	sq_ov_hist_add(h, "a", 9, 900); /* older: ignored */
	s = sq_ov_hist_find(h, "a");
	assert_non_null(s);
	assert_int_equal(s->n, 2);
	n = sq_spark_values(s, 1010, v, 10);
	assert_int_equal(n, 2);
	assert_true(v[0] == 2 && v[1] == 3);
	/* the hour window: an hour later, nothing */
	assert_int_equal(sq_spark_values(s, 1010 + SQ_SPARK_SPAN, v, 10), 0);
	/* wrap-around: the ring keeps the newest SLOTS samples */
	for (i = 0; i < SQ_SPARK_SLOTS + 50; i++)
		sq_ov_hist_add(h, "b", i, 100000 + (time_t)i * SQ_SPARK_STEP);
	s = sq_ov_hist_find(h, "b");
	assert_int_equal(s->n, SQ_SPARK_SLOTS);
	n = sq_spark_values(
	    s, 100000 + (time_t)(SQ_SPARK_SLOTS + 49) * SQ_SPARK_STEP, v,
	    SQ_SPARK_SLOTS);
	assert_int_equal(n, SQ_SPARK_SLOTS);
	assert_true(v[0] == 50 && v[n - 1] == SQ_SPARK_SLOTS + 49);
	/* fewer cells than samples: groups keep their largest value and
	 * the newest sample ends the last group */
	n = sq_spark_values(
	    s, 100000 + (time_t)(SQ_SPARK_SLOTS + 49) * SQ_SPARK_STEP, v, 7);
	assert_true(n <= 7 && n >= 6);
	assert_true(v[n - 1] == SQ_SPARK_SLOTS + 49);
	for (i = 1; i < (int)n; i++)
		assert_true(v[i] > v[i - 1]);
	/* a full table: the series updated longest ago goes */
	for (i = 0; i < SQ_OV_SERIES; i++) {
		char key[16];

		snprintf(key, sizeof(key), "k%d", i);
		sq_ov_hist_add(h, key, i, 200000 + i);
	}
	assert_null(sq_ov_hist_find(h, "a"));
	assert_null(sq_ov_hist_find(h, "b"));
	assert_non_null(sq_ov_hist_find(h, "k0"));
	assert_non_null(sq_ov_hist_find(h, "k127"));
	free(h);
}

static void
test_hist_feed(void **state)
{
	struct sq_snapshot *jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_ov_input in = { 0 };
	struct sq_ov_hist *h = sq_ov_hist_new();
	struct sq_snapshot *ov;

	(void)state;
	add_job(jobs, "bob", "chem", "gpu", "PENDING", "Resources", 4);
	in.jobs = jobs;
	in.top = 3;
	ov = sq_overview_build(&in, 5000);
	/* the diag kind did not change: no line is recorded */
	sq_ov_hist_feed(h, ov, 1u << SQ_KIND_DIAG);
	assert_null(sq_ov_hist_find(h, "reason/Resources"));
	sq_ov_hist_feed(h, ov, 1u << SQ_KIND_JOBS);
	assert_non_null(sq_ov_hist_find(h, "reason/Resources"));
	assert_non_null(sq_ov_hist_find(h, "partition/gpu jobs"));
	sq_snapshot_unref(ov);
	sq_snapshot_unref(jobs);
	free(h);
}

static void
test_render(void **state)
{
	double v[] = { 0, 1, 2, 3, 4, 5, 6, 7 }, flat[] = { 5, 5, 5 };
	double zero[] = { 0, 0 };
	char buf[64];

	(void)state;
	assert_int_equal(sq_spark_render(v, 8, 1, buf, sizeof(buf)), 8);
	assert_string_equal(buf, "_.-~=+*#");
	sq_spark_render(v, 8, 0, buf, sizeof(buf));
	assert_string_equal(buf, "▁▂▃▄▅▆▇█");
	sq_spark_render(flat, 3, 1, buf, sizeof(buf));
	assert_string_equal(buf, "~~~");
	sq_spark_render(zero, 2, 1, buf, sizeof(buf));
	assert_string_equal(buf, "__");
	/* cut to the buffer, never past it */
	assert_int_equal(sq_spark_render(v, 8, 0, buf, 7), 2);
	assert_int_equal(strlen(buf), 6);
	assert_int_equal(sq_spark_render(v, 8, 1, buf, 4), 3);
	assert_string_equal(buf, "_.-");
	assert_int_equal(sq_spark_render(v, 0, 1, buf, 4), 0);
	assert_string_equal(buf, "");
}

static void
test_clusters_count(void **state)
{
	struct sq_snapshot *nodes = sq_snapshot_new(SQ_KIND_NODES, 0);
	struct sq_snapshot *jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_cluster_row r;

	(void)state;
	assert_int_equal(sq_node_state_class("idle"), 'u');
	assert_int_equal(sq_node_state_class("mixed"), 'u');
	assert_int_equal(sq_node_state_class("draining"), 'd');
	assert_int_equal(sq_node_state_class("drained*"), 'd');
	assert_int_equal(sq_node_state_class("down*"), 'x');
	assert_int_equal(sq_node_state_class("idle*"), 'x');
	assert_int_equal(sq_node_state_class("fail"), 'x');
	assert_int_equal(sq_node_state_class(""), 'u');
	add_node(nodes, "a", "idle", "p", 4, 0, 1, 0, 4, 1);
	add_node(nodes, "b", "down*", "p", 4, 0, 1, 0, 4, 0);
	add_node(nodes, "c", "drained", "p", 4, 0, 1, 0, 0, 0);
	add_job(jobs, "u", "a", "p", "RUNNING", "None", 1);
	add_job(jobs, "u", "a", "p", "PENDING", "Priority", 1);
	add_job(jobs, "u", "a", "p", "PENDING", "Priority", 1);
	sq_cluster_row_count(&r, nodes, jobs);
	assert_int_equal(r.nodes_up, 1);
	assert_int_equal(r.nodes_down, 1);
	assert_int_equal(r.nodes_drained, 1);
	assert_int_equal(r.jobs_running, 1);
	assert_int_equal(r.jobs_pending, 2);
	assert_int_equal(r.gpus_idle, 3); /* the down node's do not count */
	sq_cluster_row_count(&r, NULL, NULL);
	assert_int_equal(r.nodes_up, SQ_NONE);
	assert_int_equal(r.jobs_pending, SQ_NONE);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(jobs);
}

static struct sq_conf conf; /* large: not on the stack */

static void
test_clusters_fetch(void **state)
{
	char dir[] = "/tmp/sq-test-clusters.XXXXXX", path[128], line[512];
	const char *names[] = { "hangs", "nocmds", "norec" };
	struct sq_clusters_run *r;
	struct sq_snapshot *s;
	struct sq_cluster_cfg cur;
	struct sq_err err;
	double t0;
	FILE *fp;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sinfo", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("#!/bin/sh\nexec sleep 8\n", fp);
	fclose(fp);
	chmod(path, 0755);
	sq_conf_init(&conf);
	snprintf(line, sizeof(line),
		 "cluster hangs backend=local slurm-bindir=%s timeout=5", dir);
	assert_int_equal(sq_conf_exec(&conf, line, "t", 1, &err), 0);
	assert_int_equal(sq_conf_exec(&conf,
				      "cluster nocmds backend=local "
				      "slurm-bindir=/nonexistent/bin",
				      "t", 2, &err),
			 0);
	assert_int_equal(sq_conf_exec(&conf,
				      "cluster norec backend=replay "
				      "replay=/nonexistent/rec",
				      "t", 3, &err),
			 0);
	sq_cluster_defaults(&cur);
	sq_clusters_configure(&conf, &cur);
	assert_int_equal(sq_clusters_count(), 3);

	t0 = sq_util_now_ms();
	r = sq_clusters_start(2);
	assert_non_null(r);
	s = sq_clusters_result(r, 1);
	sq_clusters_release(r);
	assert_non_null(s);
	/* the hanging sinfo does not hold the others up for its 8 s */
	assert_true(sq_util_now_ms() - t0 < 4000);
	assert_int_equal(s->kind, SQ_KIND_CLUSTERS);
	assert_int_equal(s->nrows, 3);
	for (i = 0; i < 3; i++) {
		const struct sq_cluster_row *row = sq_snapshot_row(s, i);

		assert_string_equal(row->cluster, names[i]);
		assert_true(row->error[0] != '\0');
		assert_int_equal(row->nodes_up, SQ_NONE);
		assert_int_equal(row->jobs_pending, SQ_NONE);
	}
	assert_string_equal(
	    ((const struct sq_cluster_row *)sq_snapshot_row(s, 2))->backend,
	    "replay");
	sq_snapshot_unref(s);
	/* no cluster lines: the current cluster alone */
	sq_conf_init(&conf);
	snprintf(cur.name, sizeof(cur.name), "here");
	sq_clusters_configure(&conf, &cur);
	assert_int_equal(sq_clusters_count(), 1);
	assert_int_equal(sq_clusters_get(0, &cur), 0);
	assert_string_equal(cur.name, "here");
	assert_int_equal(sq_clusters_get(1, &cur), -1);
	unlink(path);
	rmdir(dir);
}

/* A backend that counts what fetch() is asked, serving fc.caps;
 * fake_built_jobs: its ops say the plan builds jobs for it (fetch()
 * refuses them; the plan's jobs row has no build). */

static int
fake_answer(struct sq_backend *b, enum sq_kind kind, struct sq_snapshot **out,
	    struct sq_err *err)
{
	(void)b;
	*out = sq_snapshot_new(kind, 0);
	if (kind == SQ_KIND_NODES)
		add_node(*out, "a", "idle", "p", 4, 0, 1, 0, 4, 1);
	else if (kind == SQ_KIND_JOBS)
		add_job(*out, "u", "a", "p", "RUNNING", "None", 1);
	else {
		sq_snapshot_unref(*out);
		*out = NULL;
		return sq_err_set(err, SQ_ERR_UNSUPPORTED, "fake reads no %s",
				  sq_kind_name(kind));
	}
	(*out)->fetched = 1234;
	return 0;
}

static struct sq_fake_count fc = { .answer = fake_answer };

static const struct sq_backend_built fake_built_jobs[SQ_KIND_COUNT] = {
	[SQ_KIND_JOBS] = { .source = "built by the plan" },
};

static const struct sq_backend_ops fake_ops = {
	.name = "fake",
	.caps = sq_fake_count_caps,
	.fetch = sq_fake_count_fetch,
};

static const struct sq_backend_ops fake_ops_built = {
	.name = "fake",
	.built = fake_built_jobs,
	.caps = sq_fake_count_caps,
	.fetch = sq_fake_count_fetch,
};

/* The plan's own words for kind on b (what every other view says). */
static void
plan_says(struct sq_backend *b, enum sq_kind kind, char *buf, size_t len)
{
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	sq_err_clear(&err);
	assert_int_equal(sq_plan_fetch_served(b, kind, &s, &err), -1);
	assert_null(s);
	snprintf(buf, len, "%.290s", err.msg); /* as a row keeps it */
}

/* sq_clusters_read on b serving caps: fetch() asked for nodes and jobs as
 * many times as said, the row's error the plan's words for refused */
static void
read_refused(struct sq_backend *b, unsigned caps, enum sq_kind refused,
	     unsigned nodes, unsigned jobs, struct sq_cluster_row *row)
{
	char error[300], want[300];

	fc.caps = caps;
	plan_says(b, refused, want, sizeof(want));
	memset(fc.asked, 0, sizeof(fc.asked));
	sq_clusters_read(b, row, error, sizeof(error));
	assert_int_equal(fc.asked[SQ_KIND_NODES], nodes);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], jobs);
	assert_string_equal(error, want);
}

static void
test_clusters_read_plan(void **state)
{
	struct sq_backend b = { .ops = &fake_ops, .priv = &fc };
	struct sq_cluster_row row;
	char error[300];

	(void)state;
	/* both served: one read each, counted, no error */
	memset(fc.asked, 0, sizeof(fc.asked));
	fc.caps = SQ_CAP_NODES | SQ_CAP_JOBS;
	sq_clusters_read(&b, &row, error, sizeof(error));
	assert_int_equal(fc.asked[SQ_KIND_NODES], 1);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], 1);
	assert_string_equal(error, "");
	assert_int_equal(row.nodes_up, 1);
	assert_int_equal(row.jobs_running, 1);
	assert_int_equal(row.fetched, 1234);

	/* no jobs capability: jobs never asked, the plan's words */
	read_refused(&b, SQ_CAP_NODES, SQ_KIND_JOBS, 1, 0, &row);
	assert_int_equal(row.nodes_up, 1);
	assert_int_equal(row.jobs_running, SQ_NONE);

	/* no nodes capability: neither asked (jobs come after nodes) */
	read_refused(&b, SQ_CAP_JOBS, SQ_KIND_NODES, 0, 0, &row);
	assert_int_equal(row.nodes_up, SQ_NONE);
	assert_int_equal(row.fetched, SQ_NONE);

	/* jobs served but the plan's row decides how (here: its ops say
	 * the plan builds them, and it has no build): fetch() is not asked,
	 * as a direct backend read would */
	b.ops = &fake_ops_built;
	read_refused(&b, SQ_CAP_NODES | SQ_CAP_JOBS, SQ_KIND_JOBS, 1, 0, &row);
	assert_int_equal(row.jobs_running, SQ_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_exact),
		cmocka_unit_test(test_stuck_completing),
		cmocka_unit_test(test_build_fixtures),
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_hist_feed),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_clusters_count),
		cmocka_unit_test(test_clusters_fetch),
		cmocka_unit_test(test_clusters_read_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
