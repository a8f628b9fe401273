/*
 * test_scnode.c - the NODES kind from scontrol show node and show
 * partition (backends/cli/parse_scnode.c) against sinfo -N of the same
 * moment (parse_sinfo.c): every field of every node the same, on 22.05,
 * 24.11 and 26.05 (with a draining and a down node,
 * tests/fixtures/cli/nodes/record.sh); and the shared state mapping
 * (core/model/node_state.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/model/model.h"
#include "core/model/node_state.h"
#include "core/model/snapshot.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

/* scontrol's nodes from text with the partitions of parts_text. */
static struct sq_snapshot *
scnodes(char *text, char *parts_text, int planned_mark)
{
	struct sq_snapshot *p = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_NODES, 0);
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_parse_scontrol_partitions(parts_text, p, &err) != 0)
		fail_msg("partitions: %s", err.msg);
	if (sq_parse_scontrol_nodes(text, p, planned_mark, s, &err) != 0)
		fail_msg("nodes: %s", err.msg);
	sq_snapshot_unref(p);
	return s;
}

static struct sq_snapshot *
scnodes_files(const char *nodes, const char *parts, int planned_mark)
{
	char *n = sq_test_fixture(nodes, NULL),
	     *p = sq_test_fixture(parts, NULL);
	struct sq_snapshot *s = scnodes(n, p, planned_mark);

	free(n);
	free(p);
	return s;
}

/* Every node of a (sinfo) in b (scontrol), field for field, and no more. */
static void
same_nodes(const struct sq_snapshot *a, const struct sq_snapshot *b)
{
	size_t i, j;

	assert_true(a->nrows > 0);
	assert_int_equal(a->nrows, b->nrows);
	for (i = 0; i < a->nrows; i++) {
		const struct sq_node *x = sq_snapshot_row(a, i), *y = NULL;

		for (j = 0; j < b->nrows && y == NULL; j++) {
			const struct sq_node *c = sq_snapshot_row(b, j);

			if (strcmp(c->name, x->name) == 0)
				y = c;
		}
		if (y == NULL)
			fail_msg("%s: not in scontrol's nodes", x->name);
		assert_string_equal(y->state, x->state);
		assert_string_equal(y->partitions, x->partitions);
		assert_int_equal(y->cpus_alloc, x->cpus_alloc);
		assert_int_equal(y->cpus_idle, x->cpus_idle);
		assert_int_equal(y->cpus_total, x->cpus_total);
		assert_int_equal(y->mem_total, x->mem_total);
		assert_int_equal(y->mem_alloc, x->mem_alloc);
		assert_string_equal(y->gres, x->gres);
		assert_string_equal(y->gres_used, x->gres_used);
		assert_int_equal(y->gpus_total, x->gpus_total);
		assert_int_equal(y->gpus_alloc, x->gpus_alloc);
		assert_string_equal(y->reason, x->reason);
		assert_string_equal(y->reason_by, x->reason_by);
		assert_int_equal(y->reason_at, x->reason_at);
	}
}

static const struct sq_node *
node(const struct sq_snapshot *s, const char *name)
{
	return sq_test_sj_must(s, name);
}

/* Each release, recorded at one moment with n1 draining and n2 down
 * (tests/fixtures/cli/nodes/record.sh). */
static void
test_drain_down(void **state)
{
	static const char *const rel[] = { "22.05", "24.11", "26.05" };
	char f[3][80];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct sq_snapshot *a, *b;

		snprintf(f[0], sizeof(f[0]), "cli/nodes/%s/sinfo_nodes.txt",
			 rel[i]);
		snprintf(f[1], sizeof(f[1]), "cli/nodes/%s/scontrol_node.txt",
			 rel[i]);
		snprintf(f[2], sizeof(f[2]),
			 "cli/nodes/%s/scontrol_partition.txt", rel[i]);
		a = sq_test_cli_parse(SQ_KIND_NODES, sq_parse_sinfo_nodes, f[0],
				      NULL, 0);
		b = scnodes_files(f[1], f[2], 1);
		same_nodes(a, b);
		assert_string_equal(node(b, "n1")->state, "draining");
		assert_string_equal(node(b, "n2")->state, "down");
		/* a down node's free CPUs are sinfo's "other", not idle */
		assert_int_equal(node(b, "n2")->cpus_idle, 0);
		assert_int_equal(node(b, "n2")->cpus_total, 4);
		assert_string_equal(node(b, "n2")->reason,
				    "squall fixture: down n2");
		assert_string_equal(node(b, "n2")->reason_by, "root");
		assert_true(node(b, "n2")->reason_at > 0);
		assert_string_equal(node(b, "n3")->partitions, "low*,gpu,high");
		sq_snapshot_unref(a);
		sq_snapshot_unref(b);
	}
}

/* 22.05's CLI fixtures (record.sh): sinfo -N without User/TimeStamp. */
static void
test_2205_fixtures(void **state)
{
	struct sq_snapshot *a, *b;

	(void)state;
	a = sq_test_cli_parse(SQ_KIND_NODES, sq_parse_sinfo_nodes,
			      "cli/22.05/sinfo_nodes.txt", NULL, 0);
	b = scnodes_files("cli/22.05/scontrol_node.txt",
			  "cli/22.05/scontrol_partition.txt", 0);
	same_nodes(a, b);
	sq_snapshot_unref(a);
	sq_snapshot_unref(b);
}

/* 24.11 and 26.05: one recording session of the views (live/README.md),
 * sinfo -N of the nodes view against scontrol of the gpus view and the
 * partitions of the partitions view. MIXED+PLANNED: sinfo prints
 * "mixed-" on both. */
static void
test_2411_2605(void **state)
{
	static const struct {
		const char *rel;
		int mark;
		const char *n3;
	} r[] = { { "24.11", 1, "mixed-" }, { "26.05", 1, "mixed-" } };
	char f[3][160];
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct sq_snapshot *a, *b;

		snprintf(f[0], sizeof(f[0]),
			 "live/slurm-%s/cli/nodes/000002-sinfo.out", r[i].rel);
		snprintf(f[1], sizeof(f[1]),
			 "live/slurm-%s/cli/gpus/000002-scontrol.out",
			 r[i].rel);
		snprintf(f[2], sizeof(f[2]),
			 "live/slurm-%s/cli/partitions/000002-scontrol.out",
			 r[i].rel);
		a = sq_test_cli_parse(SQ_KIND_NODES, sq_parse_sinfo_nodes, f[0],
				      NULL, 0);
		b = scnodes_files(f[1], f[2], r[i].mark);
		same_nodes(a, b);
		assert_string_equal(node(b, "n3")->state, r[i].n3);
		sq_snapshot_unref(a);
		sq_snapshot_unref(b);
	}
}

/* What sinfo -N leaves out: hidden partitions (scontrol show partition
 * without -a does not list them) and nodes in no shown partition. A
 * reason holding '=' and brackets; an unknown state word kept. */
static void
test_edges(void **state)
{
	char parts[] = "PartitionName=b Default=NO State=UP\n"
		       "PartitionName=a Default=YES State=UP\n";
	char text[] =
	    "NodeName=x1 CPUAlloc=0 CPUTot=8 RealMemory=100 AllocMem=0 "
	    "State=IDLE+DRAIN+NOT_RESPONDING Partitions=b,hid,a  "
	    "Reason=disk=bad [sda] x [alice@1700000000] Comment=c\n"
	    "NodeName=x2 CPUAlloc=0 CPUTot=8 RealMemory=100 AllocMem=0 "
	    "State=IDLE Partitions=hid\n"
	    "NodeName=x3 CPUAlloc=2 CPUTot=8 RealMemory=100 AllocMem=10 "
	    "State=MIXED+PLANNED Partitions=b Reason=plain [Unknown@None]\n"
	    "NodeName=x4 CPUAlloc=0 CPUTot=4 RealMemory=1 AllocMem=0 "
	    "State=IDLE+CLOUD+POWERED_DOWN Partitions=a\n"
	    "NodeName=x5 CPUAlloc=0 CPUTot=4 RealMemory=1 AllocMem=0 "
	    "State=FROBBED+DRAIN Partitions=a\n";
	char bad[] = "Partitions=a\n";
	struct sq_snapshot *s = scnodes(text, parts, 0), *p;
	const struct sq_node *n;
	struct sq_err err;

	(void)state;
	assert_int_equal(s->nrows, 4);
	n = node(s, "x1");
	assert_string_equal(n->partitions, "a*,b");
	assert_string_equal(n->state, "drained*");
	assert_int_equal(n->cpus_idle, 0);
	assert_string_equal(n->reason, "disk=bad [sda] x");
	assert_string_equal(n->reason_by, "alice");
	assert_int_equal(n->reason_at, 1700000000);
	n = node(s, "x3");
	assert_string_equal(n->state, "mixed");
	assert_int_equal(n->cpus_idle, 6);
	assert_string_equal(n->reason, "plain");
	assert_string_equal(n->reason_by, "");
	assert_int_equal(n->reason_at, SQ_NONE);
	assert_string_equal(node(s, "x4")->state, "idle~");
	assert_string_equal(node(s, "x5")->state, "drained");
	sq_snapshot_unref(s);
	p = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	s = sq_snapshot_new(SQ_KIND_NODES, 0);
	sq_err_clear(&err);
	assert_int_equal(sq_parse_scontrol_nodes(bad, p, 0, s, &err), -1);
	sq_snapshot_unref(p);
	sq_snapshot_unref(s);
}

static const char *
long_of(const char *scontrol, int mark)
{
	static char buf[64];
	struct sq_node_state st;

	sq_node_state_init(&st);
	st.planned_mark = mark;
	sq_node_state_parse(&st, scontrol);
	sq_node_state_long(&st, buf, sizeof(buf));
	return buf;
}

/* Slurm's flags to sinfo's names, node_state_string()'s order. */
static void
test_state_names(void **state)
{
	static const struct {
		const char *in, *out;
	} t[] = {
		{ "IDLE", "idle" },
		{ "IDLE+CLOUD+POWERED_DOWN", "idle~" },
		{ "IDLE+CLOUD+DRAIN+POWERED_DOWN", "drained~" },
		{ "IDLE+DRAIN+NOT_RESPONDING", "drained*" },
		{ "ALLOCATED+DRAIN", "draining" },
		{ "MIXED+DRAIN", "draining" },
		{ "IDLE+COMPLETING+DRAIN", "draining" },
		{ "DOWN+NOT_RESPONDING", "down*" },
		{ "DOWN", "down" },
		{ "ALLOCATED", "allocated" },
		{ "ALLOCATED+COMPLETING", "allocated+" },
		{ "IDLE+COMPLETING", "completing" },
		{ "MIXED+NOT_RESPONDING", "mixed*" },
		{ "IDLE+POWERING_UP", "idle#" },
		{ "IDLE+POWERING_DOWN", "idle%" },
		{ "IDLE+POWER_DOWN", "idle!" },
		{ "IDLE+MAINTENANCE", "maint" },
		{ "IDLE+MAINTENANCE+NOT_RESPONDING", "maint*" },
		{ "ALLOCATED+MAINTENANCE", "allocated$" },
		{ "IDLE+DRAIN+MAINTENANCE", "drained$" },
		{ "IDLE+REBOOT_REQUESTED", "reboot" },
		{ "IDLE+DRAIN+REBOOT_ISSUED", "reboot^" },
		{ "MIXED+REBOOT_REQUESTED", "mixed@" },
		{ "IDLE+FAIL", "fail" },
		{ "ALLOCATED+FAIL", "failing" },
		{ "IDLE+PLANNED", "planned" },
		{ "IDLE+RESERVED", "reserved" },
		{ "FUTURE", "future" },
		{ "UNKNOWN+NOT_RESPONDING", "unknown*" },
		{ "IDLE+INVALID_REG", "inval" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(long_of(t[i].in, 0), t[i].out) != 0)
			fail_msg("%s: %s, not %s", t[i].in, long_of(t[i].in, 0),
				 t[i].out);
	assert_string_equal(long_of("MIXED+PLANNED", 0), "mixed");
	assert_string_equal(long_of("MIXED+PLANNED", 1), "mixed-");
	assert_string_equal(long_of("idle", 0), "idle");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drain_down),
		cmocka_unit_test(test_2205_fixtures),
		cmocka_unit_test(test_2411_2605),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_state_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
