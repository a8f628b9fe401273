/*
 * test_spec.c - unit tests of the cluster spec: host lists, value
 * normalisation, the JSON loader (a cluster spec like the issue's, the
 * slurmSpec object in camelCase, Slinky operator resource lists, and
 * malformed files with their JSON path), the comparison against the
 * testbed's recorded CLI output, and node set grouping.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/base/buf.h"
#include "core/conf/conf.h"
#include "core/base/hostlist.h"
#include "core/spec/nodeset.h"
#include "core/spec/spec.h"
#include "spec/spec_load.h"
#include "tests/unit/test_util.h"

/* --- host lists ---------------------------------------------------- */

static int
collect(void *arg, const char *name)
{
	struct sq_buf *b = arg;

	sq_buf_printf(b, "%s%s", b->len ? " " : "", name);
	return 0;
}

static void
expect_expand(const char *expr, const char *want)
{
	struct sq_buf b;

	sq_buf_init(&b, 0);
	assert_int_equal(sq_hostlist_expand(expr, collect, &b), 0);
	assert_string_equal(sq_buf_str(&b), want);
	sq_buf_free(&b);
}

static void
expect_fold(const char *expr, const char *want)
{
	struct sq_buf b;
	size_t n;
	char **v = sq_hostlist_names(expr, &n);

	assert_true(n != (size_t)-1);
	sq_buf_init(&b, 0);
	assert_int_equal(sq_hostlist_fold((const char *const *)v, n, &b), 0);
	assert_string_equal(sq_buf_str(&b), want);
	sq_buf_free(&b);
	sq_hostlist_free_names(v, n);
}

static void
test_hostlist(void **state)
{
	(void)state;
	expect_expand("n[1-4]", "n1 n2 n3 n4");
	expect_expand("gpu-[01-03,7],login1", "gpu-01 gpu-02 gpu-03 gpu-7 "
					      "login1");
	expect_expand("r[1-2]n[1-2]", "r1n1 r1n2 r2n1 r2n2");
	expect_expand("", "");
	expect_expand("(null)", "");
	assert_int_equal(sq_hostlist_count("a[8-11],b"), 5);
	assert_int_equal(sq_hostlist_count("n[1-"), -1);
	assert_int_equal(sq_hostlist_count("n[]"), -1);
	assert_int_equal(sq_hostlist_count("n[3-1]"), -1);
	assert_int_equal(sq_hostlist_count("a,,b"), -1);
	assert_int_equal(sq_hostlist_count("n[[1]]"), -1);
	assert_int_equal(sq_hostlist_count("bad name"), -1);
	/* a hostile range is refused, not expanded */
	assert_int_equal(sq_hostlist_count("n[0-999999999]"), -1);
	/* SQ_HOSTLIST_MAX names in all the terms, not in each; the last
	 * name of a list at the cap is still given */
	assert_int_equal(sq_hostlist_count("a[0-49999],b[0-49999]"),
			 SQ_HOSTLIST_MAX);
	assert_int_equal(sq_hostlist_count("a[0-49999],b[0-49999],c"), -1);
	assert_int_equal(sq_hostlist_count("r[0-9]n[0-9999]"), SQ_HOSTLIST_MAX);
	assert_int_equal(sq_hostlist_count("r[0-10]n[0-9999]"), -1);
	assert_true(sq_hostlist_contains("a[0-49999],b[0-49999]", "b49999"));
	assert_true(sq_hostlist_contains("n[1-4]", "n3"));
	assert_false(sq_hostlist_contains("n[1-4]", "n5"));
	assert_false(sq_hostlist_contains("n[1-4]", "n"));
	expect_fold("n4,n1,n2,n3,n3", "n[1-4]");
	expect_fold("n9,n10,n12", "n[9-10,12]");
	expect_fold("gpu-02,gpu-01,login,cpu7", "cpu7,gpu-[01-02],login");
	assert_int_equal(sq_hostlist_cmp("n[1-4]", "n1,n2,n[3-4]"), 0);
	assert_int_equal(sq_hostlist_cmp("n[1-4]", "n[1-3]"), 1);
	assert_int_equal(sq_hostlist_cmp("n[1-4]", "n["), -1);
}

/* --- values -------------------------------------------------------- */

static void
test_values(void **state)
{
	(void)state;
	/* time strings: a bare number is minutes, as slurm.conf reads it */
	assert_true(sq_spec_value_equal("PriorityMaxAge", "10", "00:10:00"));
	assert_true(sq_spec_value_equal("PriorityMaxAge", "600s", "00:10:00"));
	assert_true(
	    sq_spec_value_equal("PriorityMaxAge", "600 sec", "00:10:00"));
	assert_false(sq_spec_value_equal("PriorityMaxAge", "600", "00:10:00"));
	assert_true(sq_spec_value_equal("PriorityMaxAge", "600", "10:00:00"));
	assert_true(
	    sq_spec_value_equal("PriorityDecayHalfLife", "1-0", "1-00:00:00"));
	assert_true(
	    sq_spec_value_equal("PreemptExemptTime", "0:10", "00:00:10"));
	assert_false(
	    sq_spec_value_equal("PreemptExemptTime", "00:00:20", "00:00:10"));
	/* "N sec" values: a bare number is in that unit */
	assert_true(sq_spec_value_equal("MessageTimeout", "10", "10 sec"));
	assert_true(sq_spec_value_equal("EpilogMsgTime", "2000", "2000 usec"));
	assert_true(sq_spec_value_equal("EpilogMsgTime", "2ms", "2000 usec"));
	assert_false(sq_spec_value_equal("MessageTimeout", "20", "10 sec"));
	/* case, yes/no, numbers, not set */
	assert_true(sq_spec_value_equal("PreemptMode", "requeue", "REQUEUE"));
	assert_true(sq_spec_value_equal("EnforcePartLimits", "no", "NO"));
	assert_true(sq_spec_value_equal("X", "true", "YES"));
	assert_false(sq_spec_value_equal("X", "yes", "NO"));
	assert_true(sq_spec_value_equal("PriorityWeightAge", "1000", "1000"));
	assert_true(sq_spec_value_equal("PriorityFavorSmall", "1.0", "1"));
	assert_true(sq_spec_value_equal("Prolog", "", "(null)"));
	assert_false(sq_spec_value_equal("Prolog", "", "/etc/prolog"));
	/* lists in any order; AccountingStorageEnforce implications */
	assert_true(sq_spec_value_equal("AccountingStorageEnforce",
					"qos,limits,associations",
					"associations,limits,qos"));
	assert_true(sq_spec_value_equal("AccountingStorageEnforce",
					"limits,qos",
					"associations,limits,qos"));
	assert_true(sq_spec_value_equal("AccountingStorageEnforce", "safe",
					"associations,limits,safe"));
	assert_false(sq_spec_value_equal("AccountingStorageEnforce",
					 "associations,limits",
					 "associations,limits,qos"));
	assert_true(sq_spec_value_equal("PriorityWeightTRES",
					"gres/gpu=500,CPU=100,Mem=10",
					"CPU=100,Mem=10,GRES/gpu=500"));
	/* memory */
	assert_true(sq_spec_value_equal("DefMemPerCPU", "1G", "1024"));
	assert_false(sq_spec_value_equal("DefMemPerCPU", "500", "1024"));
	assert_false(sq_spec_value_equal("PreemptType", "preempt/qos",
					 "preempt/partition_prio"));
}

/* --- loading ------------------------------------------------------- */

static void
load_fixture(const char *rel, struct sq_spec *spec, struct sq_err *err,
	     int want_rc)
{
	size_t len;
	char *text = sq_test_fixture(rel, &len);

	sq_spec_init(spec);
	sq_err_clear(err);
	assert_int_equal(sq_spec_parse(text, len, rel, spec, err), want_rc);
	free(text);
}

static const struct sq_spec_param *
param(const struct sq_spec *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nconfig; i++) {
		if (strcmp(s->config[i].key, key) == 0)
			return &s->config[i];
	}
	return NULL;
}

static void
test_load_issue_example(void **state)
{
	struct sq_spec s;
	struct sq_err err;

	(void)state;
	load_fixture("spec/cluster-spec.json", &s, &err, 0);
	assert_string_equal(s.format, "slurmSpec");
	assert_int_equal(s.nparts, 2);
	assert_string_equal(s.parts[0].id, "cpu");
	assert_string_equal(s.parts[0].path,
			    "orchestratorSpec.slurmSpec.partitions[0]");
	assert_int_equal(s.parts[1].npools, 2);
	assert_string_equal(s.parts[1].pools[1], "h100-pool");
	assert_string_equal(s.default_partition, "cpu");
	assert_string_equal(s.login_pool, "login-pool");
	assert_string_equal(s.home_storage, "filestore-home");
	assert_int_equal(s.nconfig, 7);
	assert_string_equal(param(&s, "PriorityWeightAge")->value, "1000");
	assert_string_equal(param(&s, "PreemptExemptTime")->value, "00:10:00");
	assert_string_equal(
	    param(&s, "PriorityWeightFairshare")->path,
	    "orchestratorSpec.slurmSpec.config.PriorityWeightFairshare");
	assert_true(s.has_prolog);
	assert_int_equal(s.nprolog, 2);
	assert_int_equal(s.nepilog, 1);
	/* pools: the partitions' in order, then the login pool */
	assert_int_equal(s.npools, 4);
	assert_string_equal(s.pools[0].id, "cpu-pool");
	assert_string_equal(s.pools[3].id, "login-pool");
	assert_string_equal(s.pools[0].nodes, "");
	sq_spec_free(&s);
}

static void
test_load_camel(void **state)
{
	struct sq_spec s;
	struct sq_err err;
	struct sq_nodeset_def *defs;
	size_t ndefs;

	(void)state;
	load_fixture("spec/slurmspec-camel.json", &s, &err, 0);
	assert_int_equal(s.nparts, 2);
	assert_string_equal(s.parts[1].pools[1], "pool-b");
	/* no default_partition_id: the first partition is the default */
	assert_string_equal(s.default_partition, "");
	assert_string_equal(s.login_pool, "login");
	assert_string_equal(param(&s, "JobRequeue")->value, "yes");
	assert_string_equal(param(&s, "MaxArraySize")->value, "20001");
	assert_string_equal(param(&s, "SchedulerParameters")->value,
			    "bf_interval=5,sched_interval=5");
	assert_true(s.has_prolog);
	assert_int_equal(s.nprolog, 0);
	assert_false(s.has_epilog);
	assert_string_equal(sq_spec_pool(&s, "pool-a")->nodes, "a[001-004]");
	assert_string_equal(sq_spec_pool(&s, "pool-b")->nodes, "b1,b2");
	assert_string_equal(sq_spec_pool(&s, "pool-b")->path,
			    "nodePools.pool-b");
	/* node set definitions: the pools except the login pool */
	assert_int_equal(sq_spec_nodeset_defs(&s, NULL, 0, &defs, &ndefs), 0);
	assert_int_equal(ndefs, 2);
	assert_string_equal(defs[0].name, "pool-a");
	assert_int_equal(defs[0].declared, 4);
	free(defs);
	sq_spec_free(&s);
}

static void
test_load_operator(void **state)
{
	struct sq_spec s;
	struct sq_err err;
	size_t i;

	(void)state;
	load_fixture("spec/slinky/list.json", &s, &err, 0);
	assert_string_equal(s.format, "operator");
	assert_int_equal(s.nnodesets, 2);
	/* the Slurm name is the pod template's hostname without the '-' */
	assert_string_equal(s.nodesets[0].name, "a100");
	assert_string_equal(s.nodesets[0].feature, "a100");
	assert_int_equal(s.nodesets[0].declared, 2);
	assert_string_equal(s.nodeset_paths[0], "items[1]");
	assert_string_equal(s.nodesets[1].name, "cpu");
	assert_int_equal(s.nodesets[1].declared, SQ_NONE); /* DaemonSet */
	/* partition.enabled gives PartitionName=<nodeset> Nodes=<nodeset> */
	assert_int_equal(s.nparts, 1);
	assert_string_equal(s.parts[0].id, "a100");
	assert_string_equal(s.parts[0].pools[0], "a100");
	/* Controller: clusterName and the parameters of extraConf */
	assert_string_equal(param(&s, "ClusterName")->value, "slurm");
	assert_string_equal(param(&s, "PreemptMode")->value, "REQUEUE");
	assert_string_equal(param(&s, "PriorityWeightAge")->value, "1000");
	assert_string_equal(param(&s, "PriorityWeightAge")->path,
			    "items[0].spec.extraConf (line 3)");
	assert_null(param(&s, "NodeSet"));
	assert_true(s.has_prolog);
	assert_int_equal(s.nprolog, 1);
	assert_true(s.has_epilog);
	assert_int_equal(s.nepilog, 0);
	/* LoginSet, RestApi, Accounting; the Pod is not ours */
	assert_int_equal(s.ncomps, 3);
	for (i = 0; i < s.ncomps; i++)
		assert_string_not_equal(s.comps[i].kind, "Pod");
	assert_string_equal(s.comps[0].kind, "LoginSet");
	assert_int_equal(s.comps[0].replicas, 2);
	assert_string_equal(s.comps[1].kind, "RestApi");
	assert_int_equal(s.comps[1].replicas, 1);
	assert_string_equal(s.comps[2].kind, "Accounting");
	sq_spec_free(&s);
}

static void
expect_error(const char *text, const char *want)
{
	struct sq_spec s;
	struct sq_err err;

	sq_spec_init(&s);
	sq_err_clear(&err);
	assert_int_equal(
	    sq_spec_parse(text, strlen(text), "spec.json", &s, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("error '%s' does not contain '%s'", err.msg, want);
	sq_spec_free(&s);
}

static void
test_malformed(void **state)
{
	(void)state;
	expect_error("{\"orchestratorSpec\": {\"slurmSpec\": {\"partitions\": "
		     "[{\"id\": \"a\", \"node_pool_ids\": []}, {\"id\": \"b\", "
		     "\"node_pool_ids\": \"p\"}]}}}",
		     "spec.json: orchestratorSpec.slurmSpec.partitions[1]."
		     "node_pool_ids: expected an array, not a string");
	expect_error("{\"slurmSpec\": {\"partitions\": [{\"nodePoolIds\": "
		     "[]}]}}",
		     "spec.json: slurmSpec.partitions[0].id: missing");
	expect_error("{\"partitions\": [{\"id\": \"a\"}, {\"id\": \"a\"}]}",
		     "partitions[1].id: partition 'a' twice");
	expect_error("{\"partitions\": [{\"id\": 7}]}",
		     "partitions[0].id: expected a string, not a number");
	expect_error("{\"config\": {\"PriorityWeightAge\": {\"x\": 1}}}",
		     "config.PriorityWeightAge: expected a string, number, "
		     "boolean or array, not an object");
	expect_error("{\"config\": {\"Bad Key\": 1}}",
		     "config.Bad Key: not a slurm.conf parameter name");
	expect_error("{\"prolog_bash_scripts\": [\"ok\", 3]}",
		     "prolog_bash_scripts[1]: expected a string");
	expect_error("{\"node_pools\": {\"gpu\": \"n[1-\"}}",
		     "node_pools.gpu: not a host list");
	expect_error("{\"orchestratorSpec\": {}}",
		     "orchestratorSpec.slurmSpec: missing");
	expect_error("{\"orchestratorSpec\": {\"slurmSpec\": []}}",
		     "orchestratorSpec.slurmSpec: expected an object");
	expect_error("[]", "spec.json: (top level): expected an object");
	expect_error("{\"name\": \"x\"}", "neither a cluster spec");
	expect_error("{\"partitions\": [\n{\"id\": \"a\",,}]}",
		     "spec.json: line 2:");
	expect_error("{\"partitions\": [", "the JSON ends too early");
	expect_error("{} {}", "spec.json: line 1: ");
	expect_error("{\"kind\": \"List\"}", "items: missing");
	expect_error("{\"kind\": \"List\", \"items\": [{\"apiVersion\": "
		     "\"slinky.slurm.net/v1beta1\", \"kind\": \"NodeSet\", "
		     "\"metadata\": {}}]}",
		     "items[0].metadata.name: missing");
	expect_error(
	    "{\"kind\": \"List\", \"items\": [{\"apiVersion\": "
	    "\"slinky.slurm.net/v1beta1\", \"kind\": \"NodeSet\", "
	    "\"metadata\": {\"name\": \"x\"}, \"spec\": {\"replicas\": "
	    "\"two\"}}]}",
	    "items[0].spec.replicas: expected a count, not a string");
	expect_error("{\"kind\": \"Deployment\"}", "kind: 'Deployment'");
	expect_error("\"\\u0000\"", "expected an object");
}

/* --- comparison against the testbed (recorded CLI output) ----------- */

struct live {
	struct sq_snapshot *parts, *nodes, *config;
	struct sq_spec_live l;
};

static struct sq_snapshot *
parsed(const char *rel, enum sq_kind kind,
       int (*parse)(char *, struct sq_snapshot *, struct sq_err *))
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	struct sq_err err;
	size_t len;
	char *text = sq_test_fixture(rel, &len);

	assert_non_null(s);
	assert_int_equal(parse(text, s, &err), 0);
	free(text);
	return s;
}

static void
live_init(struct live *lv)
{
	memset(lv, 0, sizeof(*lv));
	lv->parts = parsed("cli/22.05/scontrol_partition.txt",
			   SQ_KIND_PARTITIONS, sq_parse_scontrol_partitions);
	lv->nodes = parsed("cli/22.05/sinfo_nodes.txt", SQ_KIND_NODES,
			   sq_parse_sinfo_nodes);
	lv->config = parsed("cli/22.05/scontrol_config.txt", SQ_KIND_CONFIG,
			    sq_parse_config);
	lv->l.partitions = lv->parts;
	lv->l.nodes = lv->nodes;
	lv->l.config = lv->config;
}

static void
live_free(struct live *lv)
{
	sq_snapshot_unref(lv->parts);
	sq_snapshot_unref(lv->nodes);
	sq_snapshot_unref(lv->config);
}

static struct sq_snapshot *
compare(const struct sq_spec *s, const struct live *lv)
{
	struct sq_snapshot *out = sq_snapshot_new(SQ_KIND_SPEC, 0);

	assert_non_null(out);
	assert_int_equal(sq_spec_compare(s, &lv->l, out), 0);
	return out;
}

static const struct sq_spec_row *
find_row(const struct sq_snapshot *out, const char *item)
{
	size_t i;

	for (i = 0; i < out->nrows; i++) {
		const struct sq_spec_row *r = sq_snapshot_row(out, i);

		if (strcmp(r->item, item) == 0)
			return r;
	}
	fail_msg("no row '%s'", item);
	return NULL;
}

static size_t
not_ok(const struct sq_snapshot *out)
{
	size_t i, n = 0;

	for (i = 0; i < out->nrows; i++) {
		const struct sq_spec_row *r = sq_snapshot_row(out, i);

		if (strcmp(r->status, "ok") != 0)
			n++;
	}
	return n;
}

static void
test_compare_testbed(void **state)
{
	struct sq_spec s;
	struct sq_err err;
	struct live lv;
	struct sq_snapshot *out;
	const struct sq_spec_row *r;
	size_t i;

	(void)state;
	live_init(&lv);
	load_fixture("spec/testbed.json", &s, &err, 0);
	out = compare(&s, &lv);
	/* 3 partitions, default, 6 config keys, prolog, epilog, 2 pools */
	assert_int_equal(out->nrows, 14);
	for (i = 0; i < out->nrows; i++) {
		r = sq_snapshot_row(out, i);
		if (strcmp(r->status, "ok") != 0)
			fail_msg("%s: %s (declared '%s', live '%s', %s)",
				 r->item, r->status, r->declared, r->live,
				 r->note);
	}
	r = find_row(out, "partition low");
	assert_string_equal(r->declared, "cpu+gpu: n[1-4]");
	assert_string_equal(r->live, "n[1-4]");
	r = find_row(out, "config PriorityWeightFairshare");
	assert_string_equal(r->live, "10000"); /* FairShare, any case */
	r = find_row(out, "prolog");
	assert_string_equal(r->declared, "1 script");
	assert_string_equal(r->live, "/tmp/slurmtb/etc/prolog.sh");
	sq_snapshot_unref(out);
	sq_spec_free(&s);

	/* one partition, PriorityWeightAge and the default changed */
	{
		static const char changed[] =
		    "{\"orchestratorSpec\": {\"slurmSpec\": {"
		    "\"partitions\": [{\"id\": \"low\", \"node_pool_ids\": "
		    "[\"cpu\", \"gpu\"]}, {\"id\": \"high\", "
		    "\"node_pool_ids\": [\"cpu\", \"gpu\"]}, {\"id\": \"gpu\", "
		    "\"node_pool_ids\": [\"cpu\"]}],"
		    "\"default_partition_id\": \"high\","
		    "\"node_pools\": {\"cpu\": \"n[1-2]\", \"gpu\": "
		    "\"n[3-4]\"},"
		    "\"config\": {\"PriorityWeightAge\": 2000, "
		    "\"PreemptMode\": \"requeue\"}}}}";

		sq_spec_init(&s);
		assert_int_equal(sq_spec_parse(changed, strlen(changed),
					       "changed.json", &s, &err),
				 0);
		out = compare(&s, &lv);
		assert_int_equal(not_ok(out), 3);
		assert_string_equal(find_row(out, "partition gpu")->status,
				    "differs");
		assert_string_equal(find_row(out, "default_partition")->status,
				    "differs");
		assert_string_equal(find_row(out, "default_partition")->live,
				    "low");
		assert_string_equal(
		    find_row(out, "config PriorityWeightAge")->status,
		    "differs");
		sq_snapshot_unref(out);
		sq_spec_free(&s);
	}
	/* a partition the cluster lacks, one it has beyond the spec, an
	 * unknown key, no Epilog declared, a pool with a host not there */
	{
		static const char other[] =
		    "{\"partitions\": [{\"id\": \"low\", \"node_pool_ids\": "
		    "[\"p\"]}, {\"id\": \"high\", \"node_pool_ids\": [\"p\"]}, "
		    "{\"id\": \"debug\", \"node_pool_ids\": [\"p\"]}], "
		    "\"node_pools\": {\"p\": \"n[1-5]\"}, "
		    "\"config\": {\"NoSuchKey\": 1}, "
		    "\"epilog_bash_scripts\": []}";

		sq_spec_init(&s);
		assert_int_equal(
		    sq_spec_parse(other, strlen(other), "o.json", &s, &err), 0);
		out = compare(&s, &lv);
		assert_string_equal(find_row(out, "partition debug")->status,
				    "missing");
		assert_string_equal(find_row(out, "partition gpu")->status,
				    "extra");
		assert_string_equal(find_row(out, "partition low")->status,
				    "differs");
		assert_string_equal(find_row(out, "default_partition")->status,
				    "ok");
		assert_string_equal(find_row(out, "config NoSuchKey")->status,
				    "missing");
		assert_string_equal(find_row(out, "epilog")->status, "extra");
		r = find_row(out, "pool p");
		assert_string_equal(r->status, "differs");
		assert_non_null(strstr(r->note, "n5"));
		sq_snapshot_unref(out);
		sq_spec_free(&s);
	}
	live_free(&lv);
}

static void
test_compare_operator(void **state)
{
	struct sq_spec s;
	struct sq_err err;
	struct live lv;
	struct sq_snapshot *out;
	size_t i;

	(void)state;
	live_init(&lv);
	load_fixture("spec/slinky/testbed-nodesets.json", &s, &err, 0);
	out = compare(&s, &lv);
	for (i = 0; i < out->nrows; i++) {
		const struct sq_spec_row *r = sq_snapshot_row(out, i);

		if (strcmp(r->status, "ok") != 0)
			fail_msg("%s: %s (%s)", r->item, r->status, r->note);
	}
	assert_string_equal(find_row(out, "nodeset n")->live, "n[1-4]");
	assert_string_equal(find_row(out, "nodeset n")->declared, "4 nodes");
	assert_string_equal(find_row(out, "config ClusterName")->live,
			    "testbed");
	assert_string_equal(find_row(out, "prolog")->declared, "1 ConfigMap");
	sq_snapshot_unref(out);
	sq_spec_free(&s);

	/* the issue-like operator list: nothing of it is on the testbed */
	load_fixture("spec/slinky/list.json", &s, &err, 0);
	lv.l.config = NULL;
	lv.l.config_error = "scontrol show config failed";
	out = compare(&s, &lv);
	assert_string_equal(find_row(out, "nodeset a100")->status, "missing");
	assert_string_equal(find_row(out, "partition a100")->status, "missing");
	assert_string_equal(find_row(out, "partition low")->status, "extra");
	assert_string_equal(find_row(out, "nodes undeclared")->live, "n[1-4]");
	assert_string_equal(find_row(out, "config ClusterName")->status,
			    "unknown");
	assert_string_equal(find_row(out, "config ClusterName")->note,
			    "scontrol show config failed");
	assert_string_equal(find_row(out, "loginset slurm-login")->status,
			    "unknown");
	assert_string_equal(find_row(out, "restapi slurm")->declared,
			    "1 replica");
	sq_snapshot_unref(out);
	sq_spec_free(&s);
	live_free(&lv);
}

/* --- node sets ----------------------------------------------------- */

static const struct sq_nodeset *
set_row(const struct sq_snapshot *sets, const char *name)
{
	size_t i;

	for (i = 0; i < sets->nrows; i++) {
		const struct sq_nodeset *r = sq_snapshot_row(sets, i);

		if (strcmp(r->name, name) == 0)
			return r;
	}
	fail_msg("no set '%s'", name);
	return NULL;
}

/* The NodeSet definitions and node -> features table of a slurm.conf
 * text, with the arena that holds their strings. */
struct conf_table {
	struct sq_arena arena;
	struct sq_nodeset_def *defs;
	struct sq_kv *feats;
	size_t ndefs, nfeats;
};

static void
conf_read(struct conf_table *ct, const char *literal)
{
	char *text = strdup(literal);

	assert_non_null(text);
	sq_arena_init(&ct->arena);
	assert_int_equal(sq_nodeset_parse_conf(text, &ct->arena, &ct->defs,
					       &ct->ndefs, &ct->feats,
					       &ct->nfeats),
			 0);
	free(text);
}

static void
conf_done(struct conf_table *ct)
{
	free(ct->defs);
	free(ct->feats);
	sq_arena_free(&ct->arena);
}

/*
 * A NodeName line of 100,000 hosts (the host-list cap) and a later line
 * that gives some of them other features. The spec_slurmconf harness
 * timed out on 45,325 hosts: each host's earlier entry was looked for by
 * a linear scan.
 */
static void
test_nodesets_many_hosts(void **state)
{
	struct conf_table ct;
	const struct sq_kv *feats;
	size_t nfeats;

	(void)state;
	conf_read(&ct, "NodeName=DEFAULT Features=cpu,x86\n"
		       "NodeName=r[0-99]n[000-999] CPUs=4\n"
		       "NodeName=r7n[010-019],r99n999 Features=gpu\n");
	feats = ct.feats;
	nfeats = ct.nfeats;
	assert_int_equal(nfeats, 100000);
	assert_string_equal(sq_nodeset_features(feats, nfeats, "r0n000"),
			    "cpu,x86");
	assert_string_equal(sq_nodeset_features(feats, nfeats, "r7n015"),
			    "gpu");
	assert_string_equal(sq_nodeset_features(feats, nfeats, "r99n999"),
			    "gpu");
	assert_string_equal(sq_nodeset_features(feats, nfeats, "r7n020"),
			    "cpu,x86");
	assert_null(sq_nodeset_features(feats, nfeats, "r100n000"));
	conf_done(&ct);
}

/*
 * Bounds on the NodeName lines of a slurm.conf: at most SQ_HOSTLIST_MAX
 * hosts get a row (60,000 a, then 40,000 of b), and the lines are read up
 * to 400,000 host names in all, repeats counted. The spec_slurmconf
 * harness slowed to two executions a second on 8 KB inputs that gave a
 * few hundred lines of 100,000 hosts each.
 */
static void
test_nodesets_hosts_bound(void **state)
{
	struct conf_table ct;

	(void)state;
	conf_read(&ct, "NodeName=a[0-59999] Features=x\n"
		       "NodeName=b[0-59999] Features=y\n"
		       "NodeName=c1 Features=z\n"
		       "NodeName=a[0-59999] Features=w\n");
	assert_int_equal(ct.nfeats, SQ_HOSTLIST_MAX);
	/* a host that has a row still takes a later line's features */
	assert_string_equal(sq_nodeset_features(ct.feats, ct.nfeats, "a59999"),
			    "w");
	assert_string_equal(sq_nodeset_features(ct.feats, ct.nfeats, "b39999"),
			    "y");
	assert_null(sq_nodeset_features(ct.feats, ct.nfeats, "b40000"));
	assert_null(sq_nodeset_features(ct.feats, ct.nfeats, "c1"));
	conf_done(&ct);

	/* four lines of 100,000 are read, the fifth is not */
	conf_read(&ct, "NodeName=a[0-99999] Features=f1\n"
		       "NodeName=a[0-99999] Features=f2\n"
		       "NodeName=a[0-99999] Features=f3\n"
		       "NodeName=a[0-99999] Features=f4\n"
		       "NodeName=a[0-99999] Features=f5\n");
	assert_int_equal(ct.nfeats, SQ_HOSTLIST_MAX);
	assert_string_equal(sq_nodeset_features(ct.feats, ct.nfeats, "a0"),
			    "f4");
	assert_string_equal(sq_nodeset_features(ct.feats, ct.nfeats, "a99999"),
			    "f4");
	conf_done(&ct);
}

/*
 * The node -> features table comes back sorted by host name, whatever the
 * order of the NodeName lines, so sq_nodeset_features is a binary search
 * (the spec view looks up every live node): every key is above the one
 * before it and each host still finds its own line's features.
 */
static void
test_nodesets_features_sorted(void **state)
{
	struct conf_table ct;
	const struct sq_kv *feats;
	size_t nfeats, i;

	(void)state;
	conf_read(&ct, "NodeName=zeta[1-10] Features=z\n"
		       "NodeName=gpu[1-3],a9 Features=g\n"
		       "NodeName=a1,a10,a2 Features=a\n"
		       "NodeName=gpu2 Features=g2\n");
	feats = ct.feats;
	nfeats = ct.nfeats;
	assert_int_equal(nfeats, 10 + 3 + 1 + 3);
	for (i = 1; i < nfeats; i++)
		assert_true(strcmp(feats[i - 1].key, feats[i].key) < 0);
	assert_string_equal(sq_nodeset_features(feats, nfeats, "zeta7"), "z");
	assert_string_equal(sq_nodeset_features(feats, nfeats, "zeta10"), "z");
	assert_string_equal(sq_nodeset_features(feats, nfeats, "gpu1"), "g");
	assert_string_equal(sq_nodeset_features(feats, nfeats, "gpu2"), "g2");
	assert_string_equal(sq_nodeset_features(feats, nfeats, "a9"), "g");
	assert_string_equal(sq_nodeset_features(feats, nfeats, "a10"), "a");
	assert_null(sq_nodeset_features(feats, nfeats, "a3"));
	assert_null(sq_nodeset_features(feats, nfeats, "zeta11"));
	assert_null(sq_nodeset_features(feats, 0, "a1"));
	conf_done(&ct);
}

static void
test_nodesets(void **state)
{
	struct live lv;
	struct sq_arena arena;
	struct sq_nodeset_def *defs;
	struct sq_kv *feats;
	size_t ndefs, nfeats, len;
	char *text;
	struct sq_snapshot *sets;
	const struct sq_nodeset *r;

	(void)state;
	live_init(&lv);
	sq_arena_init(&arena);
	text = sq_test_fixture("spec/nodesets-slurm.conf", &len);
	assert_int_equal(
	    sq_nodeset_parse_conf(text, &arena, &defs, &ndefs, &feats, &nfeats),
	    0);
	free(text);
	assert_int_equal(ndefs, 3);
	assert_string_equal(defs[0].name, "cpuset");
	assert_string_equal(defs[0].feature, "cpu");
	assert_string_equal(defs[1].name, "gpuset"); /* "nodeset=" works */
	assert_string_equal(defs[1].nodes, "n[3-4]");
	assert_int_equal(nfeats, 4);
	assert_string_equal(sq_nodeset_features(feats, nfeats, "n2"),
			    "cpu,x86");
	sets = sq_snapshot_new(SQ_KIND_NODESETS, 0);
	assert_int_equal(
	    sq_nodeset_group(defs, ndefs, feats, nfeats, lv.nodes, sets), 0);
	assert_int_equal(sets->nrows, 3); /* every node is in a set */
	r = set_row(sets, "cpuset");
	assert_string_equal(r->source, "slurm.conf");
	assert_string_equal(r->nodelist, "n[1-2]");
	assert_int_equal(r->nodes, 2);
	assert_int_equal(r->alloc, 2);
	assert_int_equal(r->cpus_total, 8);
	assert_int_equal(r->gpus_total, 0);
	r = set_row(sets, "gpuset");
	assert_int_equal(r->mixed, 2);
	assert_int_equal(r->cpus_alloc, 14);
	assert_int_equal(r->cpus_total, 16);
	assert_int_equal(r->gpus_total, 8);
	assert_int_equal(r->gpus_alloc, 5);
	r = set_row(sets, "empty");
	assert_int_equal(r->nodes, 0);
	assert_string_equal(r->nodelist, "");
	{
		struct sq_nodeset_map m;
		long gi = -1;
		size_t k;

		for (k = 0; k < sets->nrows; k++) {
			r = sq_snapshot_row(sets, k);
			if (strcmp(r->name, "gpuset") == 0)
				gi = (long)k;
		}
		assert_int_equal(sq_nodeset_map_build(sets, &m), 0);
		assert_int_equal(m.n, 4);
		assert_int_equal(sq_nodeset_map_find(&m, "n4"), gi);
		/* n4 is in gpuset; n9 in no set, "(none)" */
		assert_string_equal(
		    ((const struct sq_nodeset *)sq_snapshot_row(
			 sets, (size_t)sq_nodeset_map_find(&m, "n4")))
			->name,
		    "gpuset");
		assert_int_equal(sq_nodeset_map_find(&m, "n9"), -1);
		assert_int_equal(sq_nodeset_map_find(&m, "n1"), 0);
		assert_int_equal(sq_nodeset_map_find(&m, "n9"), -1);
		sq_nodeset_map_free(&m);
		sq_nodeset_map_free(&m); /* safe twice */
	}
	sq_snapshot_unref(sets);

	/* no definitions: by feature; n1..n4 all have one */
	sets = sq_snapshot_new(SQ_KIND_NODESETS, 0);
	assert_int_equal(
	    sq_nodeset_group(NULL, 0, feats, nfeats, lv.nodes, sets), 0);
	assert_int_equal(sets->nrows, 3); /* cpu, x86, gpu */
	assert_string_equal(set_row(sets, "x86")->source, "features");
	assert_int_equal(set_row(sets, "gpu")->nodes, 2);
	sq_snapshot_unref(sets);

	/* nothing known: one (none) row with everything */
	sets = sq_snapshot_new(SQ_KIND_NODESETS, 0);
	assert_int_equal(sq_nodeset_group(NULL, 0, NULL, 0, lv.nodes, sets), 0);
	assert_int_equal(sets->nrows, 1);
	r = set_row(sets, "(none)");
	assert_int_equal(r->nodes, 4);
	assert_int_equal(r->cpus_total, 24);
	sq_snapshot_unref(sets);
	free(defs);
	free(feats);
	sq_arena_free(&arena);

	/* the testbed's own slurm.conf has no NodeSet and no features */
	sq_arena_init(&arena);
	text = sq_test_fixture("spec/testbed-slurm.conf", &len);
	assert_int_equal(
	    sq_nodeset_parse_conf(text, &arena, &defs, &ndefs, &feats, &nfeats),
	    0);
	assert_int_equal(ndefs, 0);
	assert_int_equal(nfeats, 0);
	free(text);
	free(defs);
	free(feats);
	sq_arena_free(&arena);

	assert_string_equal(sq_nodeset_state_class("drained*"), "drain");
	assert_string_equal(sq_nodeset_state_class("down~"), "down");
	assert_string_equal(sq_nodeset_state_class("completing"), "other");
	live_free(&lv);
}

static void
test_pool_rule(void **state)
{
	struct sq_spec s;
	struct sq_err err;
	struct sq_nodeset_def conf = { "gpu", "n[3-4]",        NULL,
				       NULL,  SQ_NS_SLURMCONF, SQ_NONE };
	struct sq_nodeset_def d;
	static const char text[] =
	    "{\"partitions\": [{\"id\": \"p\", \"node_pool_ids\": [\"gpu\", "
	    "\"n\", \"mapped\"]}], \"node_pools\": {\"mapped\": \"x1\"}}";

	(void)state;
	sq_spec_init(&s);
	assert_int_equal(sq_spec_parse(text, strlen(text), "t", &s, &err), 0);
	/* node_pools first */
	sq_spec_pool_def(&s, "mapped", &conf, 1, &d);
	assert_string_equal(d.nodes, "x1");
	/* then a slurm.conf NodeSet of that name */
	sq_spec_pool_def(&s, "gpu", &conf, 1, &d);
	assert_string_equal(d.nodes, "n[3-4]");
	/* else a feature or the name */
	sq_spec_pool_def(&s, "n", &conf, 1, &d);
	assert_null(d.nodes);
	assert_true(sq_nodeset_match(&d, "n7", NULL));
	assert_true(sq_nodeset_match(&d, "n-7", NULL));
	assert_false(sq_nodeset_match(&d, "nx", NULL));
	assert_true(sq_nodeset_match(&d, "zz", "a,n"));
	sq_spec_free(&s);
}

/* A pool of 100,000 declared hosts (the host-list cap) is compared in
 * full; one past the cap is refused by the loader. The fuzz harness
 * (spec_json) skips inputs past 256 names, so the scale is tested here. */
static void
test_pool_at_scale(void **state)
{
	struct sq_spec s;
	struct sq_err err;
	struct live lv;
	struct sq_snapshot *out;
	const struct sq_spec_row *r;
	static const char text[] =
	    "{\"partitions\": [{\"id\": \"gpu\", \"node_pool_ids\": "
	    "[\"big\"]}], \"node_pools\": {\"big\": \"big[0-99999]\"}}";
	static const char over[] =
	    "{\"partitions\": [{\"id\": \"gpu\", \"node_pool_ids\": "
	    "[\"big\"]}], \"node_pools\": {\"big\": \"big[0-100000]\"}}";

	(void)state;
	live_init(&lv);
	sq_spec_init(&s);
	assert_int_equal(sq_spec_parse(text, strlen(text), "t", &s, &err), 0);
	out = compare(&s, &lv);
	r = find_row(out, "partition gpu");
	assert_string_equal(r->status, "differs");
	assert_string_equal(r->declared, "big: big[0-99999]");
	sq_snapshot_unref(out);
	sq_spec_free(&s);
	sq_spec_init(&s);
	sq_err_clear(&err);
	assert_int_equal(sq_spec_parse(over, strlen(over), "t", &s, &err), -1);
	assert_non_null(strstr(err.msg, "big"));
	sq_spec_free(&s);
	live_free(&lv);
}

/* spec=FILE on a cluster line reaches the cluster's settings */
static void
test_conf_spec_key(void **state)
{
	struct sq_conf c;
	const struct sq_cluster_cfg *cfg;
	struct sq_err err;

	(void)state;
	sq_conf_init(&c);
	assert_int_equal(sq_conf_exec(&c,
				      "cluster tb backend=local "
				      "spec=/etc/squall/tb.json",
				      "test", 1, &err),
			 0);
	cfg = sq_conf_cluster(&c, "tb");
	assert_non_null(cfg);
	assert_string_equal(cfg->spec, "/etc/squall/tb.json");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostlist),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_load_issue_example),
		cmocka_unit_test(test_load_camel),
		cmocka_unit_test(test_load_operator),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_compare_testbed),
		cmocka_unit_test(test_compare_operator),
		cmocka_unit_test(test_nodesets),
		cmocka_unit_test(test_nodesets_many_hosts),
		cmocka_unit_test(test_nodesets_hosts_bound),
		cmocka_unit_test(test_nodesets_features_sorted),
		cmocka_unit_test(test_pool_rule),
		cmocka_unit_test(test_pool_at_scale),
		cmocka_unit_test(test_conf_spec_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
