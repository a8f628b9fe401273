/*
 * test_live.c - the JSON mapping on answers recorded from the live Slurm
 * 24.11 and 26.05 testbeds (tests/fixtures/live/, tests/testbed/record):
 * every REST version each release serves must give the same cluster (three
 * partitions, four nodes with eight GPUs, the workload's typed GPU job in
 * one spelling, the QOS and the association tree), and no "(null)".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/slurmjson.h"
#include "core/model/model_admin.h"
#include "tests/unit/test_util.h"

static const struct {
	const char *release;
	int ver;
} live[] = {
	{ "24.11", 40 }, { "24.11", 41 }, { "24.11", 42 }, { "26.05", 42 },
	{ "26.05", 43 }, { "26.05", 44 }, { "26.05", 45 },
};

static struct sq_snapshot *
parse(enum sq_kind kind, size_t i, const char *file)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	char rel[256];
	struct sq_err err;
	size_t len;
	char *body;

	snprintf(rel, sizeof(rel), "live/slurm-%s/rest/v0.0.%d/%s",
		 live[i].release, live[i].ver, file);
	body = sq_test_fixture(rel, &len);
	assert_non_null(s);
	sq_err_clear(&err);
	if (sq_slurmjson_parse(kind, body, len, 0, s, NULL, &err) != 0)
		fail_msg("%s: %s", rel, err.msg);
	free(body);
	return s;
}

static void
no_null(const char *what, size_t i, const char *v)
{
	if (v != NULL && strstr(v, "(null)") != NULL)
		fail_msg("%s v0.0.%d: %s shows \"%s\"", live[i].release,
			 live[i].ver, what, v);
}

static void
test_partitions(void **state)
{
	size_t i, r;

	(void)state;
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		struct sq_snapshot *s =
		    parse(SQ_KIND_PARTITIONS, i, "slurm_partitions.json");

		assert_int_equal(s->nrows, 3);
		for (r = 0; r < s->nrows; r++) {
			const struct sq_partition *p = sq_snapshot_row(s, r);

			no_null("partition state", i, p->state);
			no_null("partition qos", i, p->qos);
			if (strcmp(p->name, "high") == 0) {
				assert_int_equal(p->priority_tier, 10);
				assert_int_equal(p->priority_job_factor, 1000);
				assert_true(p->is_default <= 0);
			} else if (strcmp(p->name, "gpu") == 0) {
				assert_string_equal(p->nodelist, "n[3-4]");
			} else {
				assert_string_equal(p->name, "low");
				/* v0.0.40-v0.0.44 carry no flags: unknown */
				assert_int_equal(p->is_default,
						 live[i].ver >= 45 ? 1 : -1);
				assert_string_equal(
				    p->preempt_mode,
				    live[i].ver >= 45 ? "REQUEUE" : "");
			}
		}
		sq_snapshot_unref(s);
	}
}

static void
test_nodes_jobs(void **state)
{
	size_t i, r;

	(void)state;
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		struct sq_snapshot *s =
		    parse(SQ_KIND_NODES, i, "slurm_nodes.json");
		int64_t gpus = 0;
		int typed = 0;

		assert_int_equal(s->nrows, 4);
		for (r = 0; r < s->nrows; r++) {
			const struct sq_node *n = sq_snapshot_row(s, r);

			gpus += n->gpus_total;
			no_null("node state", i, n->state);
			no_null("node reason", i, n->reason);
		}
		assert_int_equal(gpus, 8);
		sq_snapshot_unref(s);
		s = parse(SQ_KIND_JOBS, i, "slurm_jobs.json");
		assert_true(s->nrows >= 15);
		for (r = 0; r < s->nrows; r++) {
			const struct sq_job *j = sq_snapshot_row(s, r);

			no_null("job account", i, j->account);
			no_null("job qos", i, j->qos);
			no_null("job reason", i, j->reason);
			if (strcmp(j->name, "gpu-a100") == 0)
				typed = strcmp(j->gres, "gres:gpu:a100:2") == 0;
		}
		assert_true(typed);
		sq_snapshot_unref(s);
	}
}

static void
test_accounting(void **state)
{
	size_t i, r;

	(void)state;
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		struct sq_snapshot *q =
		    parse(SQ_KIND_QOS, i, "slurmdb_qos.json");
		struct sq_snapshot *a =
		    parse(SQ_KIND_ASSOCS, i, "slurmdb_associations.json");
		int alice_default = 0, seeded = 0;

		/* normal, high and low (24.11's has a test's leftover too) */
		for (r = 0; r < q->nrows; r++) {
			const struct sq_qos *x = sq_snapshot_row(q, r);

			if (strcmp(x->name, "high") == 0)
				assert_int_equal(x->priority, 1000);
			if (strcmp(x->name, "low") == 0)
				assert_int_equal(x->priority, 10);
			seeded += strcmp(x->name, "normal") == 0 ||
				  strcmp(x->name, "high") == 0 ||
				  strcmp(x->name, "low") == 0;
		}
		assert_int_equal(seeded, 3);
		for (r = 0; r < a->nrows; r++) {
			const struct sq_assoc *x = sq_snapshot_row(a, r);

			if (strcmp(x->user, "alice") == 0 && x->is_default > 0)
				alice_default =
				    strcmp(x->account, "physics") == 0;
		}
		assert_true(alice_default);
		sq_snapshot_unref(q);
		sq_snapshot_unref(a);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partitions),
		cmocka_unit_test(test_nodes_jobs),
		cmocka_unit_test(test_accounting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
