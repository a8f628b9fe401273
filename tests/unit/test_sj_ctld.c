/*
 * test_sj_ctld.c - slurmctld's jobs, nodes and partitions from JSON
 * (backends/slurmjson/sj_ctld.c) on recorded answers: v0.0.38 from the
 * 22.05 testbed against the squeue/sinfo/scontrol output recorded at the
 * same moment (and 22.05's `squeue --json`, `sinfo --json`), v0.0.40-42
 * from a real 24.11 cluster against its CLI output, v0.0.39 written from
 * its field table (no release here serves it). 26.05's answers are
 * test_sj_ctld_2605.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/gres.h"
#include "core/base/parse.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

/* REST jobs against `squeue -h -a -o '%i|%T|%u|%P|%Q|%D|%C'` taken at
 * the same moment by record.sh. */
static void
test_v38_jobs_vs_squeue(void **state)
{
	struct sq_sj_info info;
	struct sq_snapshot *s = sq_test_sj_parse(
	    SQ_KIND_JOBS, "rest/v0.0.38/slurm_jobs.json", &info);
	char *txt = sq_test_fixture("rest/v0.0.38/cli_squeue.txt", NULL);
	char *pos = txt, *line, *f[7];
	size_t lines = 0;

	(void)state;
	assert_int_equal(info.api, 38);
	assert_string_equal(info.release, "22.05.8");
	while ((line = sq_next_line(&pos)) != NULL) {
		const struct sq_job *j;

		if (*line == '\0')
			continue;
		assert_int_equal(sq_split(line, '|', f, 7), 7);
		j = sq_test_sj_job(s, f[0]);
		if (j == NULL)
			fail_msg("job %s of squeue missing from REST", f[0]);
		assert_string_equal(j->state, f[1]);
		assert_string_equal(j->user, f[2]);
		assert_string_equal(j->partition, f[3]);
		assert_int_equal(j->priority, sq_test_sj_num(f[4]));
		assert_int_equal(j->nodes, sq_test_sj_num(f[5]));
		assert_int_equal(j->cpus, sq_test_sj_num(f[6]));
		assert_true(j->job_id > 0);
		assert_non_null(j->reason);
		assert_null(j->prio);
		lines++;
	}
	assert_true(lines > 5);
	/* finished jobs in the answer are hidden, as squeue hides them */
	assert_int_equal(s->nrows, lines);
	free(txt);
	sq_snapshot_unref(s);
}

/* REST nodes against `sinfo -h -N -o '%N|%T|%C|%m|%G'`. */
static void
test_v38_nodes_vs_sinfo(void **state)
{
	struct sq_snapshot *s = sq_test_sj_parse(
	    SQ_KIND_NODES, "rest/v0.0.38/slurm_nodes.json", NULL);
	char *txt = sq_test_fixture("rest/v0.0.38/cli_sinfo_nodes.txt", NULL);
	char *pos = txt, *line, *f[5];
	size_t lines = 0;

	(void)state;
	while ((line = sq_next_line(&pos)) != NULL) {
		const struct sq_node *n;
		long long a, i, o, t;

		if (*line == '\0')
			continue;
		assert_int_equal(sq_split(line, '|', f, 5), 5);
		n = sq_test_sj_node(s, f[0]);
		assert_non_null(n);
		assert_string_equal(n->state, f[1]);
		assert_int_equal(
		    sscanf(f[2], "%lld/%lld/%lld/%lld", &a, &i, &o, &t), 4);
		assert_int_equal(n->cpus_alloc, a);
		assert_int_equal(n->cpus_total, t);
		assert_int_equal(n->cpus_idle, i);
		assert_int_equal(n->mem_total, sq_test_sj_num(f[3]));
		assert_string_equal(n->gres, sq_is_none(f[4]) ? "" : f[4]);
		assert_int_equal(n->gpus_total, sq_gres_count(n->gres, "gpu"));
		lines++;
	}
	assert_int_equal(lines, 4);
	assert_int_equal(s->nrows, 4);
	/* n3 carries 4 a100 GPUs on the testbed */
	assert_int_equal(sq_test_sj_node(s, "n3")->gpus_total, 4);
	free(txt);
	sq_snapshot_unref(s);
}

/* REST partitions against the CLI parser on `scontrol -o show partition`. */
static void
test_v38_partitions_vs_scontrol(void **state)
{
	struct sq_snapshot *r = sq_test_sj_parse(
	    SQ_KIND_PARTITIONS, "rest/v0.0.38/slurm_partitions.json", NULL);
	struct sq_snapshot *c = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	char *txt =
	    sq_test_fixture("rest/v0.0.38/cli_scontrol_partitions.txt", NULL);
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_parse_scontrol_partitions(txt, c, &err), 0);
	sq_test_sj_same_partitions(r, c, 1, 1, 1);
	assert_int_equal(sq_test_sj_part(r, "low")->is_default, 1);
	assert_string_equal(sq_test_sj_part(r, "high")->preempt_mode, "OFF");
	free(txt);
	sq_snapshot_unref(r);
	sq_snapshot_unref(c);
}

/* 22.05's `squeue --json` and `sinfo --json` have the v0.0.38 shape. */
static void
test_v38_cli_json(void **state)
{
	struct sq_sj_info info;
	struct sq_snapshot *j = sq_test_sj_parse(
	    SQ_KIND_JOBS, "rest/v0.0.38/cli_squeue.json", &info);
	struct sq_snapshot *n = sq_test_sj_parse(
	    SQ_KIND_NODES, "rest/v0.0.38/cli_sinfo.json", NULL);

	(void)state;
	assert_int_equal(info.api, 38);
	assert_true(j->nrows > 5);
	assert_int_equal(n->nrows, 4);
	assert_non_null(sq_test_sj_node(n, "n4"));
	sq_snapshot_unref(j);
	sq_snapshot_unref(n);
}

/* The array record and a task, the requeued job, as squeue names them. */
static void
check_2411_jobs(const struct sq_snapshot *s)
{
	const struct sq_job *j;

	j = sq_test_sj_job(s, "14_[4-8%3]");
	assert_non_null(j);
	assert_int_equal(j->job_id, 14);
	assert_int_equal(j->array_job_id, 14);
	assert_string_equal(j->array_task, "4-8%3");
	assert_string_equal(j->state, "PENDING");
	assert_string_equal(j->nodelist, "");
	j = sq_test_sj_job(s, "14_1");
	assert_non_null(j);
	assert_int_equal(j->job_id, 19);
	assert_string_equal(j->array_task, "1");
	assert_string_equal(j->state_compact, "R");
	assert_int_equal(j->time_used, NOW_2411 - 1795986365);
	j = sq_test_sj_job(s, "6");
	assert_non_null(j);
	assert_int_equal(sq_job_restarts(j), 1);
	assert_string_equal(j->reason, "Priority");
	assert_int_equal(j->time_used, 0);
	j = sq_test_sj_job(s, "13");
	assert_non_null(j);
	assert_int_equal(j->time_limit, 180 * 60);
	/* "gres/gpu:a100:2" in the answer: one spelling for every release */
	assert_string_equal(j->gres, "gres:gpu:a100:2");
	assert_string_equal(j->nodelist, "gpu01");
	assert_int_equal(j->submit_time > 0, 1);
	j = sq_test_sj_job(s, "17");
	assert_non_null(j);
	assert_int_equal(j->priority, 0);
	assert_string_equal(j->reason, "JobHeldAdmin");
	assert_int_equal(j->start_time, SQ_NONE);
}

/* REST jobs of 24.11 against its `squeue -O JobArrayID|Partition|
 * UserName|Account|QOS|StateCompact|Reason|PriorityLong|TimeLimit|
 * tres-alloc|RestartCnt|Name`. v0.0.41/42 lost jobs 8, 20, 21 to the
 * recording's size cap, so those compare as a subset. */
static void
jobs_vs_squeue_O(const char *rel, size_t expect_rows)
{
	struct sq_sj_info info;
	struct sq_snapshot *s = sq_test_sj_parse(SQ_KIND_JOBS, rel, &info);
	char *txt = sq_test_fixture("rest/v0.0.40/squeue_O.txt", NULL);
	char *pos = txt, *line, *f[12];
	size_t found = 0;

	assert_true(info.api >= 40);
	assert_string_equal(info.release, "24.11.7");
	assert_true(info.last_update > 0);
	while ((line = sq_next_line(&pos)) != NULL) {
		const struct sq_job *j;
		int64_t tl;

		if (*line == '\0')
			continue;
		assert_int_equal(sq_split(line, '|', f, 12), 12);
		j = sq_test_sj_job(s, f[0]);
		if (j == NULL)
			continue; /* cut from the v0.0.41/42 files */
		found++;
		assert_string_equal(j->partition, f[1]);
		assert_string_equal(j->user, f[2]);
		assert_string_equal(j->account, f[3]);
		assert_string_equal(j->qos, f[4]);
		assert_string_equal(j->state_compact, f[5]);
		assert_string_equal(j->reason, sq_is_none(f[6]) ? "" : f[6]);
		assert_int_equal(j->priority, sq_test_sj_num(f[7]));
		assert_int_equal(sq_parse_duration(f[8], &tl), 0);
		assert_int_equal(j->time_limit, tl);
		assert_int_equal(sq_job_restarts(j), sq_test_sj_num(f[10]));
		assert_string_equal(j->name, f[11]);
	}
	assert_int_equal(found, expect_rows);
	assert_int_equal(s->nrows, expect_rows);
	check_2411_jobs(s);
	free(txt);
	sq_snapshot_unref(s);
}

static void
test_v40_jobs(void **state)
{
	(void)state;
	jobs_vs_squeue_O("rest/v0.0.40/slurm_jobs.json", 19);
}

static void
test_v41_v42_jobs(void **state)
{
	(void)state;
	jobs_vs_squeue_O("rest/v0.0.41/slurm_jobs.json", 16);
	jobs_vs_squeue_O("rest/v0.0.42/slurm_jobs.json", 16);
}

/* Nodes of every version of the 24.11 cluster against its sinfo -N. */
static void
nodes_2411(const char *rel)
{
	struct sq_snapshot *s = sq_test_sj_parse(SQ_KIND_NODES, rel, NULL);
	char *txt = sq_test_fixture("rest/v0.0.40/sinfo_N_O.txt", NULL);
	char *pos = txt, *line, *f[10];
	const struct sq_node *n;

	assert_int_equal(s->nrows, 4);
	/* sinfo: NodeList|Partition|StateComplete|CPUsState|Memory|AllocMem|
	 * Gres|GresUsed|Reason| */
	while ((line = sq_next_line(&pos)) != NULL) {
		long long a, i, o, t;
		char part[64];

		if (*line == '\0')
			continue;
		assert_true(sq_split(line, '|', f, 10) >= 9);
		n = sq_test_sj_node(s, f[0]);
		assert_non_null(n);
		assert_int_equal(
		    sscanf(f[3], "%lld/%lld/%lld/%lld", &a, &i, &o, &t), 4);
		assert_int_equal(n->cpus_alloc, a);
		assert_int_equal(n->cpus_idle, i);
		assert_int_equal(n->cpus_total, t);
		assert_int_equal(n->mem_total, sq_test_sj_num(f[4]));
		assert_int_equal(n->mem_alloc, sq_test_sj_num(f[5]));
		assert_string_equal(n->gres, sq_is_none(f[6]) ? "" : f[6]);
		assert_string_equal(n->gres_used, sq_is_none(f[7]) ? "" : f[7]);
		assert_string_equal(n->reason,
				    strcmp(f[8], "none") == 0 ? "" : f[8]);
		snprintf(part, sizeof(part), "%s", f[1]);
		if (part[strlen(part) - 1] == '*')
			part[strlen(part) - 1] = '\0';
		assert_non_null(strstr(n->partitions, part));
	}
	/* sinfo's long state: MIXED+DRAIN is "draining", PLANNED on a
	 * mixed node adds nothing */
	assert_string_equal(sq_test_sj_node(s, "cpu02")->state, "draining");
	assert_string_equal(sq_test_sj_node(s, "gpu02")->state, "mixed");
	assert_string_equal(sq_test_sj_node(s, "cpu01")->state, "allocated");
	n = sq_test_sj_node(s, "gpu02");
	assert_int_equal(n->gpus_total, 4);
	assert_int_equal(n->gpus_alloc, 2);
	/* who set a reason and when (issue 41, defect 12): root drained
	 * cpu02; no reason, nobody */
	n = sq_test_sj_node(s, "cpu02");
	assert_string_equal(n->reason, "disk check");
	assert_string_equal(n->reason_by, "root");
	assert_int_equal(n->reason_at, 1795986449);
	assert_string_equal(sq_test_sj_node(s, "cpu01")->reason_by, "");
	assert_int_equal(sq_test_sj_node(s, "cpu01")->reason_at, SQ_NONE);
	free(txt);
	sq_snapshot_unref(s);
}

static void
test_v4x_nodes(void **state)
{
	(void)state;
	nodes_2411("rest/v0.0.40/slurm_nodes.json");
	nodes_2411("rest/v0.0.41/slurm_nodes.json");
	nodes_2411("rest/v0.0.42/slurm_nodes.json");
}

/* Partitions of 24.11 against its scontrol -o show partition. The
 * data_parser family has no default flag and no PreemptMode (the
 * v0.0.40-44 field tables skip both), so those two are not compared. */
static void
partitions_2411(const char *rel, int has_state)
{
	struct sq_snapshot *r = sq_test_sj_parse(SQ_KIND_PARTITIONS, rel, NULL);
	struct sq_snapshot *c = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	char *txt =
	    sq_test_fixture("rest/v0.0.40/scontrol_o_show_partition.txt", NULL);
	struct sq_err err;

	assert_int_equal(sq_parse_scontrol_partitions(txt, c, &err), 0);
	sq_test_sj_same_partitions(r, c, 0, 0, has_state);
	assert_int_equal(sq_test_sj_part(r, "low")->is_default,
			 -1); /* unknown */
	assert_string_equal(sq_test_sj_part(r, "low")->preempt_mode, "");
	if (!has_state)
		assert_string_equal(sq_test_sj_part(r, "low")->state, "");
	free(txt);
	sq_snapshot_unref(r);
	sq_snapshot_unref(c);
}

static void
test_v4x_partitions(void **state)
{
	(void)state;
	partitions_2411("rest/v0.0.40/slurm_partitions.json", 1);
	partitions_2411("rest/v0.0.41/slurm_partitions.json", 1);
	partitions_2411("rest/v0.0.42/slurm_partitions.json", 1);
}

/* v0.0.39 (written from its field table: no release here serves it) */
static void
test_v39(void **state)
{
	struct sq_sj_info info;
	struct sq_snapshot *s;

	(void)state;
	s = sq_test_sj_parse(SQ_KIND_JOBS, "rest/v0.0.39/slurm_jobs.json",
			     &info);
	assert_int_equal(info.api, 39);
	assert_int_equal(s->nrows, 6); /* job 1 has ended: not on the queue */
	check_2411_jobs(s);
	assert_null(sq_test_sj_job(s, "1"));
	sq_snapshot_unref(s);
	nodes_2411("rest/v0.0.39/slurm_nodes.json");
	partitions_2411("rest/v0.0.39/slurm_partitions.json", 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v38_jobs_vs_squeue),
		cmocka_unit_test(test_v38_nodes_vs_sinfo),
		cmocka_unit_test(test_v38_partitions_vs_scontrol),
		cmocka_unit_test(test_v38_cli_json),
		cmocka_unit_test(test_v40_jobs),
		cmocka_unit_test(test_v41_v42_jobs),
		cmocka_unit_test(test_v4x_nodes),
		cmocka_unit_test(test_v4x_partitions),
		cmocka_unit_test(test_v39),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
