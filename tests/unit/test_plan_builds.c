/*
 * test_plan_builds.c - the plan's rows that build a kind on every
 * backend (session/plan.c): the what-if and the batch overview. A fake
 * backend that reads one kind a fetch, from recordings (the what-if's:
 * tests/fixtures/whatif/22.05; the queue and the nodes: slurmrestd
 * 24.11's, tests/fixtures/rest/v0.0.40; the metrics: slurmctld 26.05's,
 * tests/fixtures/metrics; see their READMEs), counts what it is asked:
 * a build gets only the kinds its row names, each read once, and the
 * rows are the pure build's (core/analysis/whatif_build.c,
 * overview_build.c) of the same kinds. The backend's own reason for a
 * what-if it cannot read comes through (no sprio -n in slurmrestd).
 * The spec and node sets are plan rows too (spec/spec_live.c builds
 * them). A node action's impact reads its kinds through the plan too
 * (session/impact.c), not asking for one the capabilities lack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/analysis/om_snapshot.h"
#include "core/analysis/overview.h"
#include "core/analysis/whatif.h"
#include "core/action/action.h"
#include "core/action/impact.h"
#include "session/impact.h"
#include "session/plan.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/fake_backend.h"
#include "tests/unit/test_util.h"

#define WI "whatif/22.05/"
#define REST "rest/v0.0.40/"

static int no_weights; /* sprio -w prints nothing */
static int metrics_on; /* the metrics op answers */

/* The what-if's kinds from the CLI recording; the overview's queue and
 * nodes from the REST one (the fake is either). */
static int
fake_answer(struct sq_backend *b, enum sq_kind kind, struct sq_snapshot **out,
	    struct sq_err *err)
{
	const struct sq_fake_count *fc = b->priv;

	if (kind == SQ_KIND_WHATIF && !(fc->caps & SQ_CAP_SPRIO))
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "no sprio -n in the fake");
	if (kind == SQ_KIND_WHATIF)
		*out = sq_test_cli_parse(kind, sq_parse_sprio_norm,
					 WI "sprio_n.txt", NULL, 0);
	else if (kind == SQ_KIND_PRIO_WEIGHTS && no_weights)
		*out = sq_snapshot_new(kind, 0);
	else if (kind == SQ_KIND_PRIO_WEIGHTS)
		*out = sq_test_cli_parse(kind, sq_parse_sprio_weights,
					 WI "sprio_w.txt", NULL, 0);
	else if (kind == SQ_KIND_JOBS && strcmp(b->cfg.name, "wi") == 0)
		*out = sq_test_cli_parse(kind, sq_parse_squeue, WI "squeue.txt",
					 NULL, 0);
	else if (kind == SQ_KIND_CONFIG)
		*out = sq_test_cli_parse(kind, sq_parse_config,
					 WI "scontrol_config.txt", NULL, 0);
	else if (kind == SQ_KIND_JOBS)
		*out = sq_test_sj_parse(kind, REST "slurm_jobs.json", NULL);
	else if (kind == SQ_KIND_NODES)
		*out = sq_test_sj_parse(kind, REST "slurm_nodes.json", NULL);
	else
		return sq_err_set(err, SQ_ERR_UNSUPPORTED, "fake reads no %s",
				  sq_kind_name(kind));
	return 0;
}

static struct sq_fake_count fc = { .answer = fake_answer };

/* slurmctld 26.05's /metrics/nodes, /partitions, /scheduler */
static int
fake_metrics(struct sq_backend *b, const char *path, struct sq_buf *out,
	     struct sq_err *err)
{
	char file[80];
	char *text;

	(void)b;
	if (!metrics_on)
		return sq_err_set(err, SQ_ERR_COMMAND, "refused by the fake");
	snprintf(file, sizeof(file), "metrics/%s-26.05.txt",
		 path + strlen("/metrics/"));
	text = sq_test_fixture(file, NULL);
	sq_buf_append(out, text, strlen(text));
	free(text);
	return 0;
}

static const struct sq_backend_ops fake_ops = {
	.name = "fake",
	.caps = sq_fake_count_caps,
	.fetch = sq_fake_count_fetch,
	.metrics = fake_metrics,
};

static void
reset(void)
{
	memset(fc.asked, 0, sizeof(fc.asked));
	fc.caps = SQ_CAP_SPRIO | SQ_CAP_JOBS | SQ_CAP_NODES | SQ_CAP_CONFIG |
		  SQ_CAP_DIAG;
	no_weights = metrics_on = 0;
	unsetenv("SQUALL_METRICS");
}

/* Kinds asked but those of mask. */
static unsigned
asked_but(unsigned mask)
{
	unsigned k, n = 0;

	for (k = 0; k < SQ_KIND_COUNT; k++)
		if (!(mask & SQ_KIND_BIT(k)))
			n += fc.asked[k];
	return n;
}

#define BIT(k) SQ_KIND_BIT(SQ_KIND_##k)

/* --------------------------------------------------------- what-if */

static struct sq_backend
wi_backend(const char *weights)
{
	struct sq_backend b = { .ops = &fake_ops, .priv = &fc };

	snprintf(b.cfg.name, sizeof(b.cfg.name), "wi");
	snprintf(b.cfg.weights, sizeof(b.cfg.weights), "%s", weights);
	return b;
}

/* The what-if of the recording with the weights of text, as the pure
 * build makes it of the same four kinds. */
static struct sq_snapshot *
wi_expected(const char *text)
{
	struct sq_snapshot *f = sq_test_cli_parse(
	    SQ_KIND_WHATIF, sq_parse_sprio_norm, WI "sprio_n.txt", NULL, 0);
	struct sq_snapshot *w =
	    sq_test_cli_parse(SQ_KIND_PRIO_WEIGHTS, sq_parse_sprio_weights,
			      WI "sprio_w.txt", NULL, 0);
	struct sq_snapshot *q = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue,
						  WI "squeue.txt", NULL, 0);
	struct sq_snapshot *c = sq_test_cli_parse(
	    SQ_KIND_CONFIG, sq_parse_config, WI "scontrol_config.txt", NULL, 0);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_WHATIF, 0);
	struct sq_whatif_weights given;
	struct sq_err err;

	sq_err_clear(&err);
	assert_int_equal(sq_whatif_parse(text, &given, &err), 0);
	if (sq_whatif_build(s, f, w, q, c, &given, text, 10, &err) != 0)
		fail_msg("build: %s", err.msg);
	sq_snapshot_unref(f);
	sq_snapshot_unref(w);
	sq_snapshot_unref(q);
	sq_snapshot_unref(c);
	return s;
}

static void
assert_same_whatif(const struct sq_snapshot *a, const struct sq_snapshot *b)
{
	size_t i;

	assert_true(b->nrows > 0);
	assert_int_equal(a->nrows, b->nrows);
	for (i = 0; i < a->nrows; i++) {
		const struct sq_whatif *x = sq_snapshot_row(a, i);
		const struct sq_whatif *y = sq_snapshot_row(b, i);

		assert_int_equal(x->job_id, y->job_id);
		assert_string_equal(x->partition, y->partition);
		assert_string_equal(x->account, y->account);
		assert_int_equal(x->priority_new, y->priority_new);
		assert_int_equal(x->rank_new, y->rank_new);
		assert_true(x->age_bound == y->age_bound);
	}
	assert_string_equal(sq_whatif_info(a)->summary,
			    sq_whatif_info(b)->summary);
	assert_int_equal(sq_whatif_info(a)->old_max_age,
			 sq_whatif_info(b)->old_max_age);
}

/*
 * The what-if on a backend that reads each kind alone: sprio -n, sprio
 * -w, the queue and the config, each read once and nothing else; the
 * rows are the pure build's, with the accounts (copied: the queue is
 * gone, ASan would see a row pointing into it) and PriorityMaxAge.
 */
static struct sq_snapshot *held; /* the console's snapshot of any kind */

static struct sq_snapshot *
held_get(void *arg, enum sq_kind kind)
{
	(void)arg;
	(void)kind;
	return held != NULL ? sq_snapshot_ref(held) : NULL;
}

static void
test_whatif_built(void **state)
{
	const struct sq_plan_src src = { held_get, NULL };
	const char *text = "PriorityWeightFairshare=0";
	struct sq_backend b = wi_backend(text);
	struct sq_snapshot *s = NULL, *want;
	struct sq_err err;

	(void)state;
	reset();
	sq_err_clear(&err);
	if (sq_plan_fetch(&b, SQ_KIND_WHATIF, NULL, &s, &err) != 0)
		fail_msg("whatif: %s", err.msg);
	assert_int_equal(fc.asked[SQ_KIND_WHATIF], 1);
	assert_int_equal(fc.asked[SQ_KIND_PRIO_WEIGHTS], 1);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], 1);
	assert_int_equal(fc.asked[SQ_KIND_CONFIG], 1);
	assert_int_equal(asked_but(BIT(WHATIF) | BIT(PRIO_WEIGHTS) | BIT(JOBS) |
				   BIT(CONFIG)),
			 0);
	want = wi_expected(text);
	assert_same_whatif(s, want);
	assert_int_equal(sq_whatif_info(s)->old_max_age, 600);
	assert_true(sq_whatif_info(s)->moved > 0);
	sq_snapshot_unref(s);

	/* the console's queue is not taken: the backend's own readings */
	reset();
	held = sq_test_sj_parse(SQ_KIND_JOBS, REST "slurm_jobs.json", NULL);
	if (sq_plan_fetch(&b, SQ_KIND_WHATIF, &src, &s, &err) != 0)
		fail_msg("whatif: %s", err.msg);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], 1);
	assert_same_whatif(s, want);
	sq_snapshot_unref(held);
	held = NULL;
	sq_snapshot_unref(want);
	sq_snapshot_unref(s);
}

/* Where the backend lacks sprio: its own reason, one fetch asked (the
 * what-if's own), the weights never; weights that cannot be read: that,
 * before anything is fetched; sprio -w without weights: that. */
static void
test_whatif_refused(void **state)
{
	struct sq_backend b = wi_backend("");
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	reset();
	fc.caps &= ~SQ_CAP_SPRIO;
	sq_err_clear(&err);
	assert_int_equal(sq_plan_fetch(&b, SQ_KIND_WHATIF, NULL, &s, &err), -1);
	assert_null(s);
	assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
	assert_string_equal(err.msg, "no sprio -n in the fake");
	assert_int_equal(fc.asked[SQ_KIND_WHATIF], 1);
	assert_int_equal(asked_but(BIT(WHATIF)), 0);

	reset();
	b = wi_backend("spec");
	sq_err_clear(&err);
	assert_int_equal(sq_plan_fetch(&b, SQ_KIND_WHATIF, NULL, &s, &err), -1);
	assert_int_equal(err.code, SQ_ERR_USAGE);
	assert_non_null(strstr(err.msg, "--spec"));
	assert_int_equal(asked_but(0), 0);

	reset();
	no_weights = 1;
	b = wi_backend("");
	sq_err_clear(&err);
	assert_int_equal(sq_plan_fetch(&b, SQ_KIND_WHATIF, NULL, &s, &err), -1);
	assert_null(s);
	assert_string_equal(err.msg, "sprio -w printed no weights");
}

/* The queue and the config are optional: without them no account and
 * PriorityMaxAge unknown, the rows still there. */
static void
test_whatif_optional(void **state)
{
	struct sq_backend b = wi_backend("");
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	size_t i;

	(void)state;
	reset();
	fc.caps &= ~(SQ_CAP_JOBS | SQ_CAP_CONFIG);
	sq_err_clear(&err);
	if (sq_plan_fetch(&b, SQ_KIND_WHATIF, NULL, &s, &err) != 0)
		fail_msg("whatif: %s", err.msg);
	assert_true(s->nrows > 0);
	for (i = 0; i < s->nrows; i++)
		assert_string_equal(
		    ((const struct sq_whatif *)sq_snapshot_row(s, i))->account,
		    "");
	assert_int_equal(sq_whatif_info(s)->old_max_age, SQ_NONE);
	/* not asked: the capability check said no */
	assert_int_equal(fc.asked[SQ_KIND_JOBS] + fc.asked[SQ_KIND_CONFIG], 0);
	sq_snapshot_unref(s);
}

/* -------------------------------------------------------- overview */

/* The rows as text, one line each. */
static char *
ov_text(const struct sq_snapshot *s)
{
	size_t i, n = 0, cap = 1;
	char *out = calloc(1, 1), line[512];

	for (i = 0; out != NULL && i < s->nrows; i++) {
		const struct sq_ov_row *r = sq_snapshot_row(s, i);
		size_t l = (size_t)snprintf(
		    line, sizeof(line), "%s|%s|%s|%lld|%lld|%lld|%s|%s\n",
		    r->section, r->key, r->value, (long long)r->num,
		    (long long)r->used, (long long)r->total, r->view,
		    r->filter);

		out = realloc(out, cap += l);
		memcpy(out + n, line, l + 1);
		n += l;
	}
	assert_non_null(out);
	return out;
}

static struct sq_backend
ov_backend(void)
{
	struct sq_backend b = { .ops = &fake_ops, .priv = &fc };

	snprintf(b.cfg.name, sizeof(b.cfg.name), "ov");
	return b;
}

static struct sq_snapshot *
ov_fetch(void)
{
	struct sq_backend b = ov_backend();
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_plan_fetch(&b, SQ_KIND_OVERVIEW, NULL, &s, &err) != 0)
		fail_msg("overview: %s", err.msg);
	return s;
}

/*
 * Without the metrics (refused, or SQUALL_METRICS=off): the nodes, the
 * queue, sdiag (the fake has none: no controller lines), and as the
 * nodes have GPUs the GPUs' demand and use (none here: the use's line
 * says why), each asked once, nothing else; the rows are the pure
 * build's. With the metrics: neither the nodes nor sdiag is asked.
 */
static void
test_overview_built(void **state)
{
	struct sq_snapshot *s, *want, *metrics, *nodes, *jobs;
	char *a, *b;

	(void)state;
	reset();
	s = ov_fetch();
	assert_int_equal(fc.asked[SQ_KIND_NODES], 1);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], 1);
	assert_int_equal(fc.asked[SQ_KIND_DIAG], 1);
	assert_int_equal(fc.asked[SQ_KIND_GPUS], 1);
	assert_int_equal(fc.asked[SQ_KIND_GPUUSE], 1);
	assert_int_equal(asked_but(BIT(NODES) | BIT(JOBS) | BIT(DIAG) |
				   BIT(GPUS) | BIT(GPUUSE)),
			 0);
	metrics = sq_om_snapshot_new(NULL, "refused by the fake", 0);
	nodes = sq_test_sj_parse(SQ_KIND_NODES, REST "slurm_nodes.json", NULL);
	jobs = sq_test_sj_parse(SQ_KIND_JOBS, REST "slurm_jobs.json", NULL);
	want = sq_snapshot_new(SQ_KIND_OVERVIEW, 0);
	assert_int_equal(sq_overview_build_from(want, metrics, nodes, jobs,
						NULL, NULL, NULL,
						"fake reads no gpuuse"),
			 0);
	a = ov_text(s);
	b = ov_text(want);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "refused by the fake"));
	assert_non_null(strstr(a, "gpus|utilisation|none: not read|"));
	free(a);
	free(b);
	sq_snapshot_unref(s);
	sq_snapshot_unref(want);
	sq_snapshot_unref(metrics);

	/* asked for the commands: the metrics not read */
	reset();
	metrics_on = 1;
	setenv("SQUALL_METRICS", "off", 1);
	s = ov_fetch();
	unsetenv("SQUALL_METRICS");
	assert_int_equal(fc.asked[SQ_KIND_NODES], 1);
	assert_int_equal(fc.asked[SQ_KIND_DIAG], 1);
	a = ov_text(s);
	assert_non_null(strstr(a, "SQUALL_METRICS=off"));
	free(a);
	sq_snapshot_unref(s);

	/* served: they stand for the nodes and sdiag */
	reset();
	metrics_on = 1;
	s = ov_fetch();
	assert_int_equal(fc.asked[SQ_KIND_NODES], 0);
	assert_int_equal(fc.asked[SQ_KIND_DIAG], 0);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], 1);
	/* the metrics count GPUs (n3's 4) */
	assert_int_equal(fc.asked[SQ_KIND_GPUS], 1);
	assert_int_equal(fc.asked[SQ_KIND_GPUUSE], 1);
	a = ov_text(s);
	assert_null(strstr(a, "not used"));
	assert_non_null(strstr(a, "nodes|total|"));
	free(a);
	sq_snapshot_unref(s);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(jobs);

	/* the queue is needed: without it, no overview and why */
	reset();
	fc.caps &= ~SQ_CAP_JOBS;
	{
		struct sq_backend bk = ov_backend();
		struct sq_err err;

		s = NULL;
		sq_err_clear(&err);
		assert_int_equal(
		    sq_plan_fetch(&bk, SQ_KIND_OVERVIEW, NULL, &s, &err), -1);
		assert_null(s);
		assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
	}
}

/* ------------------------------------------------------------ spec */

/*
 * The spec rows: a spec view without a spec says so before anything is
 * fetched; the node sets are built from the nodes alone, asked once; the
 * spec view needs the partitions (the fake lacks the capability: the
 * check says so without asking, and the optional config is not asked
 * after).
 */
static void
test_spec_built(void **state)
{
	struct sq_backend b = ov_backend();
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	reset();
	sq_err_clear(&err);
	assert_int_equal(sq_plan_fetch(&b, SQ_KIND_SPEC, NULL, &s, &err), -1);
	assert_int_equal(err.code, SQ_ERR_USAGE);
	assert_non_null(strstr(err.msg, "--spec"));
	assert_int_equal(asked_but(0), 0);

	reset();
	if (sq_plan_fetch(&b, SQ_KIND_NODESETS, NULL, &s, &err) != 0)
		fail_msg("nodesets: %s", err.msg);
	assert_true(s->nrows > 0);
	assert_string_equal(s->source, "sinfo");
	assert_int_equal(fc.asked[SQ_KIND_NODES], 1);
	assert_int_equal(asked_but(BIT(NODES)), 0);
	sq_snapshot_unref(s);

	reset();
	snprintf(b.cfg.spec, sizeof(b.cfg.spec), "%s/spec/testbed.json",
		 getenv("SQ_FIXTURES") ? getenv("SQ_FIXTURES")
				       : "tests/fixtures");
	s = NULL;
	assert_int_equal(sq_plan_fetch(&b, SQ_KIND_SPEC, NULL, &s, &err), -1);
	assert_null(s);
	assert_string_equal(err.msg, "the fake backend cannot read partitions");
	assert_int_equal(fc.asked[SQ_KIND_NODES], 1);
	assert_int_equal(asked_but(BIT(NODES)), 0);
}

/* ---------------------------------------------------------- impact */

/*
 * A node drain's impact through the plan: the queue and the
 * reservations, each asked once, nothing else; where the capability is
 * missing the backend is not asked (the part of the impact is left out,
 * said so); the count of running jobs on the target as the pure format
 * gives it.
 */
static void
test_impact_plan(void **state)
{
	struct sq_backend b = ov_backend();
	struct sq_snapshot *jobs;
	struct sq_action a;
	struct sq_err err;
	struct sq_buf text;
	char sum[256], want_sum[256];
	const struct sq_job *j = NULL;
	size_t i;
	int n, want;

	(void)state;
	reset();
	fc.caps |= SQ_CAP_RESERVATIONS;
	jobs = sq_test_sj_parse(SQ_KIND_JOBS, REST "slurm_jobs.json", NULL);
	for (i = 0; i < jobs->nrows && j == NULL; i++) {
		j = sq_snapshot_row(jobs, i);
		if (j->nodelist == NULL || j->nodelist[0] == '\0' ||
		    strcmp(j->state, "RUNNING") != 0)
			j = NULL;
	}
	assert_non_null(j);
	sq_action_init(&a, SQ_ACTION_NODE_DRAIN);
	sq_err_clear(&err);
	assert_int_equal(sq_action_add_target(&a, j->nodelist, &err), 0);
	sq_buf_init(&text, 0);
	want = sq_impact_format(&a, jobs, NULL, time(NULL), &text, want_sum,
				sizeof(want_sum));
	sq_buf_free(&text);
	assert_true(want > 0);

	sq_buf_init(&text, 0);
	n = sq_impact_fetch(&b, &a, &text, sum, sizeof(sum));
	assert_int_equal(n, want);
	assert_string_equal(sum, want_sum);
	assert_int_equal(fc.asked[SQ_KIND_JOBS], 1);
	/* the fake reads none: asked, left out */
	assert_int_equal(fc.asked[SQ_KIND_RESERVATIONS], 1);
	assert_int_equal(asked_but(BIT(JOBS) | BIT(RESERVATIONS)), 0);
	sq_buf_free(&text);

	reset();
	sq_buf_init(&text, 0);
	assert_int_equal(sq_impact_fetch(&b, &a, &text, sum, sizeof(sum)),
			 want);
	assert_int_equal(fc.asked[SQ_KIND_RESERVATIONS], 0);
	sq_buf_free(&text);
	sq_action_free(&a);
	sq_snapshot_unref(jobs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whatif_built),
		cmocka_unit_test(test_whatif_refused),
		cmocka_unit_test(test_whatif_optional),
		cmocka_unit_test(test_overview_built),
		cmocka_unit_test(test_spec_built),
		cmocka_unit_test(test_impact_plan),
	};

	setenv("SQUALL_CONFIG", "/dev/null", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
