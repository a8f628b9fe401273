/*
 * test_cli.c - the CLI layer's text parsers on output recorded from the
 * Slurm 22.05 testbed (tests/fixtures/cli/22.05, see its README.md), and on
 * degenerate input: empty, truncated, (null) fields, a '|' in a job name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/model/join.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

#define FIX "cli/22.05/"

static const struct sq_job *
find_job(const struct sq_snapshot *s, const char *id)
{
	return sq_test_sj_must(s, id);
}

static void
test_squeue(void **state)
{
	struct sq_snapshot *s;
	const struct sq_job *j;
	char *text;
	size_t lines = 0, i;

	(void)state;
	text = sq_test_fixture(FIX "squeue.txt", NULL);
	for (i = 0; text[i] != '\0'; i++)
		lines += text[i] == '\n';
	free(text);
	s = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue, FIX "squeue.txt",
			      NULL, 0);
	assert_int_equal(s->nrows, lines);

	j = find_job(s, "66");
	assert_int_equal(j->job_id, 66);
	assert_string_equal(j->user, "bob");
	assert_string_equal(j->state, "PENDING");
	assert_string_equal(j->state_compact, "PD");
	assert_string_equal(j->reason, "AssocGrpGRES");
	assert_string_equal(j->gres, "gres:gpu:t4:2");
	assert_int_equal(j->time_limit, 86400);
	assert_int_equal(j->submit_time, 1795989962);
	assert_int_equal(j->start_time, SQ_NONE);
	assert_int_equal(j->array_job_id, 0);
	assert_true(sq_job_is_pending(j));

	/* a running job: reason None becomes empty, times parsed */
	j = find_job(s, "57");
	assert_string_equal(j->state, "RUNNING");
	assert_string_equal(j->reason, "");
	assert_string_equal(j->nodelist, "n3");
	assert_int_equal(j->time_used, 105);
	assert_int_equal(j->cpus, 2);

	/* the name with '|' is kept whole (the name is the last field) */
	j = find_job(s, "58");
	assert_string_equal(j->name, "pipe|name");
	j = find_job(s, "72");
	assert_string_equal(j->name, "spaces \"double\" 'single' name");
	assert_string_equal(j->reason, "ReqNodeNotAvail, UnavailableNodes:n2");

	/* arrays: the pending remainder and a running task */
	j = find_job(s, "61_[4-20]");
	assert_int_equal(j->job_id, 61);
	assert_int_equal(j->array_job_id, 61);
	assert_string_equal(j->array_task, "4-20");
	j = find_job(s, "61_2");
	assert_int_equal(j->job_id, 63);
	assert_int_equal(j->array_job_id, 61);

	/* the preempted job came back with one restart */
	j = find_job(s, "53");
	assert_int_equal(sq_job_restarts(j), 1);
	assert_string_equal(j->reason, "BeginTime");
	j = find_job(s, "75");
	assert_string_equal(j->partition, "high");
	assert_int_equal(j->time_limit, 4 * 3600);
	sq_snapshot_unref(s);
}

static void
test_squeue_degenerate(void **state)
{
	struct sq_snapshot *s;
	struct sq_err err;
	char *text;
	char line[] = "12|12|12|N/A|u|a|p|q|R|RUNNING|1|1|1|(null)|"
		      "UNLIMITED|0:01|1795989962|1795989962|n1|0|None|x|y|z\n";
	char bad[] = "12|12|12|N/A|u|a|p|q|R|RUNNING|high|1|1|(null)|"
		     "UNLIMITED|0:01|1795989962|1795989962|n1|0|None|x\n";
	/* 26.05 without accounting: "(null)" account and QOS */
	char noacct[] = "13|13|13|N/A|u|(null)|p|(null)|R|RUNNING|1|1|1|"
			"(null)|UNLIMITED|0:01|1795989962|1795989962|n1|0|"
			"None|x\n";
	char badid[] = "x|zz|12|N/A|u|a|p|q|R|RUNNING|1|1|1|(null)|"
		       "UNLIMITED|0:01|1795989962|1795989962|n1|0|None|x\n";
	const struct sq_job *j;

	(void)state;
	/* empty output: an empty queue, not an error */
	s = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue,
			      FIX "squeue_empty.txt", NULL, 0);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);

	/* truncated output: an error naming the line, never a crash */
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	text = sq_test_fixture(FIX "squeue_truncated.txt", NULL);
	assert_int_equal(sq_parse_squeue(text, s, &err), -1);
	assert_int_equal(err.code, SQ_ERR_PARSE);
	assert_non_null(strstr(err.msg, "line 13"));
	free(text);
	sq_snapshot_unref(s);

	/* (null) TRES, UNLIMITED limit, '|' inside the name */
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_parse_squeue(line, s, &err), 0);
	j = sq_snapshot_row(s, 0);
	assert_string_equal(j->gres, "");
	assert_int_equal(j->time_limit, SQ_INFINITE);
	assert_string_equal(j->name, "x|y|z");
	sq_snapshot_unref(s);
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_parse_squeue(noacct, s, &err), 0);
	j = sq_snapshot_row(s, 0);
	assert_string_equal(j->account, "");
	assert_string_equal(j->qos, "");
	assert_string_equal(j->user, "u");
	sq_snapshot_unref(s);

	/* a malformed number fails the parse */
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_parse_squeue(bad, s, &err), -1);
	assert_non_null(strstr(err.msg, "malformed"));
	sq_snapshot_unref(s);
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_parse_squeue(badid, s, &err), -1);
	sq_snapshot_unref(s);
}

static void
test_sinfo_nodes(void **state)
{
	struct sq_snapshot *s;
	const struct sq_node *n;
	struct sq_err err;
	char trunc[] = "n1|idle|low*|0/4/0/4|8000\n";
	char badcpu[] = "n1|idle|low*|four|8000|0|(null)|gpu:0|none\n";
	char who[] = "n2|drained|low*|0/0/4/4|8000|0|(null)|gpu:0|root|"
		     "1796518958|fan: broken | replaced\n"
		     "n2|drained|high|0/0/4/4|8000|0|(null)|gpu:0|root|"
		     "1796518958|fan: broken | replaced\n"
		     "n3|idle|low*|0/8/0/8|8000|0|(null)|gpu:0|Unknown|"
		     "Unknown|none\n";
	char apart[] = "n1|idle|low*|0/8/0/8|8000|0|(null)|gpu:0|Unknown|"
		       "Unknown|none\n"
		       "n2|idle|low*|0/8/0/8|8000|0|(null)|gpu:0|Unknown|"
		       "Unknown|none\n"
		       "n1|idle|high|0/8/0/8|8000|0|(null)|gpu:0|Unknown|"
		       "Unknown|none\n";

	(void)state;
	s = sq_test_cli_parse(SQ_KIND_NODES, sq_parse_sinfo_nodes,
			      FIX "sinfo_nodes.txt", NULL, 0);
	/* one row per node, partitions merged */
	assert_int_equal(s->nrows, 4);
	n = sq_snapshot_row(s, 0);
	assert_string_equal(n->name, "n1");
	assert_string_equal(n->partitions, "low*,high");
	assert_string_equal(n->gres, "");
	assert_int_equal(n->gpus_total, 0);
	assert_int_equal(n->mem_total, 8000);
	assert_string_equal(n->reason, "");
	n = sq_snapshot_row(s, 2);
	assert_string_equal(n->name, "n3");
	assert_string_equal(n->state, "mixed");
	assert_string_equal(n->partitions, "low*,gpu,high");
	n = sq_snapshot_row(s, 3);
	assert_string_equal(n->partitions, "low*,gpu,high");
	n = sq_snapshot_row(s, 2);
	assert_int_equal(n->cpus_alloc, 7);
	assert_int_equal(n->cpus_total, 8);
	assert_int_equal(n->gpus_total, 4);
	assert_int_equal(n->gpus_alloc, 4);
	n = sq_snapshot_row(s, 3);
	assert_string_equal(n->gres_used, "gpu:t4:1(IDX:0)");
	assert_int_equal(n->gpus_alloc, 1);
	/* recorded before squall asked who set a reason: nobody known */
	assert_string_equal(n->reason_by, "");
	assert_int_equal(n->reason_at, SQ_NONE);
	sq_snapshot_unref(s);

	/* who set a reason and when (User, TimeStamp before Reason; sinfo
	 * prints "Unknown" for neither): issue 41, defect 12 */
	s = sq_snapshot_new(SQ_KIND_NODES, 0);
	assert_int_equal(sq_parse_sinfo_nodes(who, s, &err), 0);
	assert_int_equal(s->nrows, 2);
	n = sq_snapshot_row(s, 0);
	assert_string_equal(n->reason, "fan: broken | replaced");
	assert_string_equal(n->reason_by, "root");
	assert_int_equal(n->reason_at, 1796518958);
	assert_string_equal(n->partitions, "low*,high");
	n = sq_snapshot_row(s, 1);
	assert_string_equal(n->reason, "");
	assert_string_equal(n->reason_by, "");
	assert_int_equal(n->reason_at, SQ_NONE);
	sq_snapshot_unref(s);

	/* a node's lines apart (not how sinfo -N sorts, but found by name
	 * all the same), and the states both nodes share stored once */
	s = sq_snapshot_new(SQ_KIND_NODES, 0);
	assert_int_equal(sq_parse_sinfo_nodes(apart, s, &err), 0);
	assert_int_equal(s->nrows, 2);
	n = sq_snapshot_row(s, 0);
	assert_string_equal(n->name, "n1");
	assert_string_equal(n->partitions, "low*,high");
	assert_ptr_equal(
	    n->state, ((const struct sq_node *)sq_snapshot_row(s, 1))->state);
	n = sq_snapshot_row(s, 1);
	assert_string_equal(n->name, "n2");
	assert_string_equal(n->partitions, "low*");
	sq_snapshot_unref(s);

	s = sq_snapshot_new(SQ_KIND_NODES, 0);
	assert_int_equal(sq_parse_sinfo_nodes(trunc, s, &err), -1);
	assert_int_equal(sq_parse_sinfo_nodes(badcpu, s, &err), -1);
	assert_non_null(strstr(err.msg, "CPU"));
	sq_snapshot_unref(s);
}

static void
test_sprio(void **state)
{
	struct sq_snapshot *s, *w, *jobs;
	const struct sq_prio *p;
	const struct sq_prio_weights *pw;
	const struct sq_job *j;
	size_t i;
	struct sq_err err;
	char bad[] = "61|bob|low|2171|0|x|1667|167|5|200|0|0|cpu=8\n";

	(void)state;
	s = sq_test_cli_parse(SQ_KIND_PRIO, sq_parse_sprio, FIX "sprio.txt",
			      NULL, 0);
	assert_int_equal(s->nrows, 9);
	sq_prio_rank(s);
	for (i = 0; i < s->nrows; i++) {
		p = sq_snapshot_row(s, i);
		if (p->job_id == 71) {
			assert_string_equal(p->user, "bob");
			assert_int_equal(p->priority, 2071);
			assert_int_equal(p->fairshare, 1667);
			assert_int_equal(p->jobsize, 167);
			assert_int_equal(p->qos, 200);
			assert_int_equal(p->nice, 100);
			assert_string_equal(p->tres, "cpu=8,mem=0");
			/* lowest of the 8 pending jobs of partition low */
			assert_int_equal(p->rank, 8);
		}
		if (p->job_id == 69)
			assert_int_equal(p->rank, 1);
		if (p->job_id == 66) {
			assert_string_equal(p->partition, "gpu");
			assert_int_equal(p->rank, 1);
			assert_string_equal(p->tres,
					    "cpu=6,mem=0,gres/gpu=125");
		}
	}
	/* join with the queue: pending jobs get their row, others none */
	jobs = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue,
				 FIX "squeue.txt", NULL, 0);
	sq_jobs_join_prio(jobs, s);
	j = find_job(jobs, "71");
	assert_non_null(j->prio);
	assert_int_equal(j->prio->age, 125);
	j = find_job(jobs, "61_[4-20]");
	assert_non_null(j->prio);
	assert_int_equal(j->prio->priority, 2171);
	j = find_job(jobs, "57");
	assert_null(j->prio);
	j = find_job(jobs, "74"); /* held: sprio does not list it */
	assert_null(j->prio);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(s);

	w = sq_test_cli_parse(SQ_KIND_PRIO_WEIGHTS, sq_parse_sprio_weights,
			      FIX "sprio_w.txt", NULL, 0);
	assert_int_equal(w->nrows, 1);
	pw = sq_snapshot_row(w, 0);
	assert_int_equal(pw->age, 1000);
	assert_int_equal(pw->fairshare, 10000);
	assert_int_equal(pw->jobsize, 1000);
	assert_int_equal(pw->partition, 5000);
	assert_int_equal(pw->qos, 2000);
	assert_string_equal(pw->tres, "CPU=100,Mem=10,GRES/gpu=500");
	sq_snapshot_unref(w);

	s = sq_snapshot_new(SQ_KIND_PRIO, 0);
	assert_int_equal(sq_parse_sprio(bad, s, &err), -1);
	sq_snapshot_unref(s);
}

static void
test_partitions(void **state)
{
	struct sq_snapshot *s, *nodes;
	const struct sq_partition *p;
	struct sq_err err;
	char bad[] = "NodeName=n1 State=IDLE\n";

	(void)state;
	s = sq_test_cli_parse(SQ_KIND_PARTITIONS, sq_parse_scontrol_partitions,
			      FIX "scontrol_partition.txt", NULL, 0);
	assert_int_equal(s->nrows, 3);
	p = sq_snapshot_row(s, 0);
	assert_string_equal(p->name, "low");
	assert_true(p->is_default);
	assert_int_equal(p->priority_tier, 1);
	assert_string_equal(p->preempt_mode, "REQUEUE");
	assert_int_equal(p->max_time, 24 * 60);
	assert_int_equal(p->cpus_total, 24);
	p = sq_snapshot_row(s, 1);
	assert_string_equal(p->name, "high");
	assert_false(p->is_default);
	assert_int_equal(p->priority_tier, 10);
	assert_int_equal(p->priority_job_factor, 1000);
	assert_string_equal(p->preempt_mode, "OFF");

	nodes = sq_test_cli_parse(SQ_KIND_NODES, sq_parse_sinfo_nodes,
				  FIX "sinfo_nodes.txt", NULL, 0);
	sq_partitions_count(s, nodes);
	p = sq_snapshot_row(s, 2);
	assert_string_equal(p->name, "gpu");
	assert_int_equal(p->nodes_total, 2);
	assert_int_equal(p->gpus_total, 8);
	assert_int_equal(p->gpus_alloc, 5);
	assert_int_equal(p->cpus_alloc, 14);
	p = sq_snapshot_row(s, 0);
	assert_int_equal(p->nodes_idle, 0);
	assert_int_equal(p->cpus_alloc, 22);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(s);

	s = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	assert_int_equal(sq_parse_scontrol_partitions(bad, s, &err), -1);
	sq_snapshot_unref(s);
}

static void
test_version(void **state)
{
	char v[32], *text;
	int major, minor;

	(void)state;
	text = sq_test_fixture(FIX "sinfo_V.txt", NULL);
	assert_int_equal(sq_parse_version(text, v, sizeof(v), &major, &minor),
			 0);
	assert_string_equal(v, "22.05.8");
	assert_int_equal(major, 22);
	assert_int_equal(minor, 5);
	free(text);
	assert_int_equal(
	    sq_parse_version("slurm 24.11.1\n", v, sizeof(v), &major, &minor),
	    0);
	assert_string_equal(v, "24.11.1");
	assert_int_equal(
	    sq_parse_version("garbage", v, sizeof(v), &major, &minor), -1);
}

/* record.sh must record with exactly the formats the backend runs */
static void
test_formats_match_recorder(void **state)
{
	char *rec = sq_test_fixture(FIX "record.sh", NULL);
	char want[1024];

	(void)state;
	snprintf(want, sizeof(want), "SQUEUE_FIELDS='%s'", sq_cli_squeue_fmt);
	assert_non_null(strstr(rec, want));
	snprintf(want, sizeof(want), "SINFO_FIELDS='%s'", sq_cli_sinfo_fmt);
	assert_non_null(strstr(rec, want));
	snprintf(want, sizeof(want), "SPRIO_FORMAT_STR='%s'", sq_cli_sprio_fmt);
	assert_non_null(strstr(rec, want));
	free(rec);
}

/*
 * sq_cli_split_len (the sacct history parse's split, sixteen bytes at a
 * time) gives the fields sq_cli_split_delim gives, with their lengths:
 * random lines of nonce separators, pieces of one ("|sqn01|", a '|'
 * alone, a nonce cut at the line's end) and fields of 0 to 40 bytes,
 * so separators fall at every place of a 16-byte block; the '|' text
 * of older recordings too; at most max fields, the last the rest.
 */
static void
test_split_len(void **state)
{
	static const char nonce[] = "|sqn0123456789abcdef|";
	static const char *const delims[] = { nonce, "|", "" };
	uint32_t seed = 7;
	int round, d;

	(void)state;
	for (d = 0; d < 3; d++) {
		for (round = 0; round < 3000; round++) {
			char a[600], b[600], *fa[24], *fb[24];
			size_t fl[24], len = 0;
			int na, nb, i, max = 1 + round % 24;

			while (len < 400) {
				size_t k;

				seed = seed * 1103515245u + 12345u;
				k = (seed >> 8) % 41;
				if ((seed >> 20) % 5 == 0) { /* a piece */
					k = (seed >> 12) % sizeof(nonce);
					memcpy(a + len, nonce, k);
					len += k;
					continue;
				}
				memset(a + len, 'x' + (int)(seed >> 28) % 3, k);
				len += k;
				k = strlen(delims[d]);
				memcpy(a + len, k ? delims[d] : "|", k ? k : 1);
				len += k ? k : 1;
			}
			if (round % 2) /* a nonce cut at the end */
				memcpy(a + len - 10, nonce, 10);
			a[len] = '\0';
			memcpy(b, a, len + 1);
			na = sq_cli_split_delim(a, delims[d], fa, max);
			nb = sq_cli_split_len(b, len, delims[d], fb, fl, max);
			assert_int_equal(na, nb);
			for (i = 0; i < na; i++) {
				assert_int_equal(fa[i] - a, fb[i] - b);
				assert_string_equal(fa[i], fb[i]);
				assert_int_equal(strlen(fb[i]), fl[i]);
			}
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_squeue),
		cmocka_unit_test(test_squeue_degenerate),
		cmocka_unit_test(test_sinfo_nodes),
		cmocka_unit_test(test_split_len),
		cmocka_unit_test(test_sprio),
		cmocka_unit_test(test_partitions),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_formats_match_recorder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
