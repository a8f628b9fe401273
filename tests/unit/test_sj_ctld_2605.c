/*
 * test_sj_ctld_2605.c - slurmctld's jobs, nodes and partitions from JSON
 * (backends/slurmjson/sj_ctld.c) on the live 26.05 testbed's recording
 * (tests/fixtures/live/slurm-26.05): its REST v0.0.42-45 answers against
 * the CLI parsers on the squeue, sinfo and scontrol output recorded
 * minutes apart; and a job state with a flag, written from the v0.0.44
 * schema (no recording has a job caught completing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/slurmjson/slurmjson.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

/* A CLI output of the 26.05 recording through the CLI parser. */
static struct sq_snapshot *
cli_2605(enum sq_kind kind,
	 int (*parse)(char *, struct sq_snapshot *, struct sq_err *),
	 const char *rel)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	char path[200], *txt;
	struct sq_err err;

	snprintf(path, sizeof(path), LIVE_2605 "cli/%s", rel);
	txt = sq_test_fixture(path, NULL);
	sq_err_clear(&err);
	if (parse(txt, s, &err) != 0)
		fail_msg("%s: %s", path, err.msg);
	free(txt);
	return s;
}

static struct sq_snapshot *
rest_2605(enum sq_kind kind, int api, const char *file)
{
	char rel[200];
	struct sq_sj_info info;
	struct sq_snapshot *s;

	snprintf(rel, sizeof(rel), LIVE_2605 "rest/v0.0.%d/%s", api, file);
	s = sq_test_sj_parse(kind, rel, &info);
	assert_int_equal(info.api, api);
	assert_string_equal(info.release, "26.05.5");
	return s;
}

/* The queue of 26.05 through REST v0.0.api against the same cluster's
 * squeue (squall --record, minutes apart: priorities and run times
 * moved, nothing else). Finished jobs (33-51: a test's cancelled
 * and failed ones) are in the answer and hidden, as squeue hides them. */
static void
jobs_2605(int api)
{
	struct sq_snapshot *r = rest_2605(SQ_KIND_JOBS, api, "slurm_jobs.json");
	struct sq_snapshot *c =
	    cli_2605(SQ_KIND_JOBS, sq_parse_squeue, "jobs/000002-squeue.out");
	const struct sq_job *j;
	size_t i;

	assert_int_equal(c->nrows, 23);
	assert_int_equal(r->nrows, c->nrows);
	for (i = 0; i < c->nrows; i++) {
		const struct sq_job *a = sq_snapshot_row(c, i);

		j = sq_test_sj_job(r, a->id);
		if (j == NULL)
			fail_msg("v0.0.%d: job %s of squeue missing", api,
				 a->id);
		assert_int_equal(j->job_id, a->job_id);
		assert_int_equal(j->array_job_id, a->array_job_id);
		assert_string_equal(j->array_task, a->array_task);
		assert_string_equal(j->name, a->name);
		assert_string_equal(j->user, a->user);
		assert_string_equal(j->account, a->account);
		assert_string_equal(j->partition, a->partition);
		assert_string_equal(j->qos, a->qos);
		assert_string_equal(j->state, a->state);
		assert_string_equal(j->state_compact, a->state_compact);
		assert_string_equal(j->reason, a->reason);
		assert_int_equal(j->nodes, a->nodes);
		assert_int_equal(j->cpus, a->cpus);
		assert_string_equal(j->gres, a->gres);
		assert_int_equal(j->time_limit, a->time_limit);
		assert_int_equal(sq_job_restarts(j), sq_job_restarts(a));
		assert_int_equal(j->submit_time, a->submit_time);
		assert_int_equal(j->start_time, a->start_time);
		assert_string_equal(j->nodelist, a->nodelist);
		assert_true(j->priority >= 0);
	}
	/* the array record and a task, the requeued job, the typed GPU
	 * job, a held one */
	j = sq_test_sj_job(r, "9_[4-20]");
	assert_non_null(j);
	assert_int_equal(j->job_id, 9);
	assert_string_equal(j->array_task, "4-20");
	assert_string_equal(j->state, "PENDING");
	j = sq_test_sj_job(r, "9_1");
	assert_non_null(j);
	assert_int_equal(j->job_id, 10);
	assert_string_equal(j->nodelist, "n4");
	j = sq_test_sj_job(r, "1");
	assert_non_null(j);
	assert_int_equal(sq_job_restarts(j), 1);
	assert_string_equal(j->reason,
			    "ReqNodeNotAvail, May be reserved for other job");
	j = sq_test_sj_job(r, "3");
	assert_non_null(j);
	assert_string_equal(j->gres, "gres:gpu:a100:2");
	assert_string_equal(sq_job_tres_alloc(j),
			    "cpu=2,mem=1000M,node=1,billing=2,gres/gpu=2,"
			    "gres/gpu:a100=2");
	j = sq_test_sj_job(r, "21");
	assert_non_null(j);
	assert_int_equal(j->priority, 0);
	assert_string_equal(j->reason, "JobHeldUser");
	assert_null(sq_test_sj_job(r, "35")); /* FAILED */
	assert_null(sq_test_sj_job(r, "51")); /* CANCELLED */
	sq_snapshot_unref(r);
	sq_snapshot_unref(c);
}

/* Nodes against sinfo -N of the same recording. */
static void
nodes_2605(int api)
{
	struct sq_snapshot *r =
	    rest_2605(SQ_KIND_NODES, api, "slurm_nodes.json");
	struct sq_snapshot *c = cli_2605(SQ_KIND_NODES, sq_parse_sinfo_nodes,
					 "nodes/000002-sinfo.out");
	size_t i;

	assert_int_equal(c->nrows, 4);
	assert_int_equal(r->nrows, c->nrows);
	for (i = 0; i < c->nrows; i++) {
		const struct sq_node *a = sq_snapshot_row(c, i);
		const struct sq_node *n = sq_test_sj_node(r, a->name);
		char parts[64], *p, *save = NULL;

		assert_non_null(n);
		assert_int_equal(n->cpus_alloc, a->cpus_alloc);
		assert_int_equal(n->cpus_idle, a->cpus_idle);
		assert_int_equal(n->cpus_total, a->cpus_total);
		assert_int_equal(n->mem_total, a->mem_total);
		assert_int_equal(n->mem_alloc, a->mem_alloc);
		assert_string_equal(n->gres, a->gres);
		assert_string_equal(n->gres_used, a->gres_used);
		assert_int_equal(n->gpus_total, a->gpus_total);
		assert_int_equal(n->gpus_alloc, a->gpus_alloc);
		assert_string_equal(n->reason, a->reason);
		snprintf(parts, sizeof(parts), "%s", a->partitions);
		for (p = strtok_r(parts, ",*", &save); p != NULL;
		     p = strtok_r(NULL, ",*", &save))
			assert_non_null(strstr(n->partitions, p));
	}
	/* MIXED+PLANNED: sinfo's long state is "mixed-", the REST mapping
	 * keeps the base state (PLANNED adds nothing, as for 24.11) */
	assert_string_equal(sq_test_sj_node(c, "n3")->state, "mixed-");
	assert_string_equal(sq_test_sj_node(r, "n3")->state, "mixed");
	assert_string_equal(sq_test_sj_node(r, "n1")->state, "allocated");
	assert_int_equal(sq_test_sj_node(r, "n3")->gpus_alloc, 4);
	assert_int_equal(sq_test_sj_node(r, "n4")->gpus_alloc, 1);
	sq_snapshot_unref(r);
	sq_snapshot_unref(c);
}

/* Partitions against scontrol -o show partition of the same recording:
 * v0.0.42-44 skip the flags and PreemptMode, v0.0.45 has them. */
static void
partitions_2605(int api)
{
	struct sq_snapshot *r =
	    rest_2605(SQ_KIND_PARTITIONS, api, "slurm_partitions.json");
	struct sq_snapshot *c =
	    cli_2605(SQ_KIND_PARTITIONS, sq_parse_scontrol_partitions,
		     "partitions/000002-scontrol.out");

	assert_int_equal(c->nrows, 3);
	sq_test_sj_same_partitions(r, c, api >= 45, api >= 45, 1);
	assert_int_equal(sq_test_sj_part(r, "low")->is_default,
			 api >= 45 ? 1 : -1);
	assert_string_equal(sq_test_sj_part(r, "low")->preempt_mode,
			    api >= 45 ? "REQUEUE" : "");
	assert_string_equal(sq_test_sj_part(r, "gpu")->nodelist, "n[3-4]");
	assert_int_equal(sq_test_sj_part(r, "high")->priority_tier, 10);
	sq_snapshot_unref(r);
	sq_snapshot_unref(c);
}

static void
test_2605(void **state)
{
	int api;

	(void)state;
	for (api = 42; api <= 45; api++) {
		jobs_2605(api);
		nodes_2605(api);
		partitions_2605(api);
	}
}

/* A state with a flag, written from the v0.0.44 schema (JOB_STATE is a
 * flag array; no recording has a job caught completing): the flag wins,
 * and the job is still on the queue. */
static void
test_state_flags(void **state)
{
	static const char body[] =
	    "{\"meta\": {\"plugin\": {\"data_parser\": "
	    "\"data_parser/v0.0.44\"}}, \"jobs\": [{\"job_id\": 7, "
	    "\"job_state\": [\"COMPLETED\", \"COMPLETING\"], \"partition\": "
	    "\"low\", \"user_name\": \"carol\", \"state_reason\": \"None\"}, "
	    "{\"job_id\": 8, \"job_state\": [\"COMPLETED\"], \"partition\": "
	    "\"low\", \"user_name\": \"carol\", \"state_reason\": \"None\"}]}";
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_sj_info info;
	struct sq_err err;
	const struct sq_job *j;

	(void)state;
	sq_err_clear(&err);
	if (sq_slurmjson_parse(SQ_KIND_JOBS, body, sizeof(body) - 1, NOW_2411,
			       s, &info, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(info.api, 44);
	assert_int_equal(s->nrows, 1);
	j = sq_test_sj_job(s, "7");
	assert_non_null(j);
	assert_string_equal(j->state, "COMPLETING");
	assert_string_equal(j->state_compact, "CG");
	assert_null(sq_test_sj_job(s, "8"));
	sq_snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_2605),
		cmocka_unit_test(test_state_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
