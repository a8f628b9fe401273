/*
 * test_whatif.c - the priority what-if (core/analysis/whatif.c) on factors and
 * weights recorded from the testbed (tests/fixtures/whatif/22.05, see
 * its README.md): today's weights give sprio's priorities back, a zero
 * weight removes exactly that factor, ranks per partition, PriorityMaxAge,
 * the KEY=VALUE parser and the weights of a spec's config map.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"
#include "core/analysis/whatif.h"
#include "session/whatif_weights.h"
#include "tests/unit/test_util.h"

#define FIX "whatif/22.05/"

/* The recorded factors joined with the recorded queue, computed with
 * the weights of text (NULL: today's). */
static struct sq_snapshot *
load(const char *sfx, const char *text, int64_t max_age)
{
	char f1[64], f2[64], f3[64];
	struct sq_snapshot *s, *w, *q;
	struct sq_whatif_weights old, given;
	struct sq_err err;

	snprintf(f1, sizeof(f1), FIX "sprio_n%s.txt", sfx);
	snprintf(f2, sizeof(f2), FIX "sprio_w%s.txt", sfx);
	snprintf(f3, sizeof(f3), FIX "squeue%s.txt", sfx);
	s = sq_test_cli_parse(SQ_KIND_WHATIF, sq_parse_sprio_norm, f1, NULL, 0);
	w = sq_test_cli_parse(SQ_KIND_PRIO_WEIGHTS, sq_parse_sprio_weights, f2,
			      NULL, 0);
	q = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue, f3, NULL, 0);
	assert_int_equal(w->nrows, 1);
	sq_whatif_weights_from_sprio(sq_snapshot_row(w, 0), &old);
	sq_err_clear(&err);
	assert_int_equal(sq_whatif_parse(text ? text : "", &given, &err), 0);
	sq_whatif_join_jobs(s, q);
	assert_int_equal(
	    sq_whatif_apply(s, &old, &given, text, max_age, "", 10), 0);
	s->dep = q;
	sq_snapshot_unref(w);
	return s;
}

static const struct sq_whatif *
row(const struct sq_snapshot *s, uint32_t id, const char *part)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_whatif *r = sq_snapshot_row(s, i);

		if (r->job_id == id && strcmp(r->partition, part) == 0)
			return r;
	}
	fail_msg("job %u in %s not found", id, part);
	return NULL;
}

static void
test_parse_sprio_n(void **state)
{
	struct sq_snapshot *s = load("", NULL, 600);
	const struct sq_whatif *r;

	(void)state;
	assert_int_equal(s->nrows, 8);
	/* a job pending in two partitions has a row for each */
	r = row(s, 12, "high");
	assert_int_equal(r->priority, 7646);
	assert_true(fabs(r->norm[SQ_WF_PARTITION] - 1.0) < 1e-9);
	r = row(s, 12, "low");
	assert_int_equal(r->priority, 2651);
	assert_string_equal(r->account, "physics");
	assert_string_equal(r->tres_n, "cpu=0.50,mem=0.12");
	r = row(s, 15, "low");
	assert_int_equal(r->nice, 50);
	assert_true(fabs(r->norm[SQ_WF_FAIRSHARE] - 0.1666667) < 1e-9);
	assert_string_equal(row(s, 11, "low")->account, "astro");
	assert_string_equal(row(s, 13, "gpu")->tres_w,
			    "cpu=12,mem=0,gres/gpu=500");
	sq_snapshot_unref(s);
}

/* With today's weights nothing moves, and the model alone (factors x
 * weights, no sprio priority) is within 1 of sprio's (the TRES factors
 * come with two decimals). */
static void
test_today(void **state)
{
	const char *const sfx[] = { "", "_sat" };
	size_t k, i;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct sq_snapshot *s = load(sfx[k], NULL, 600);
		const struct sq_whatif_info *in = sq_whatif_info(s);

		for (i = 0; i < s->nrows; i++) {
			const struct sq_whatif *r = sq_snapshot_row(s, i);

			assert_int_equal(r->priority_new, r->priority);
			assert_int_equal(r->rank_new, r->rank);
			assert_true(llabs(r->priority_model - r->priority) <=
				    1);
		}
		assert_int_equal(in->moved, 0);
		assert_true(in->model_maxdev <= 1);
		assert_string_equal(in->notes, "");
		sq_snapshot_unref(s);
	}
}

/* Fairshare weight 0: each priority loses its weighted fairshare factor
 * (sprio's, rounded: within 1), nothing else. */
static void
test_fairshare_zero(void **state)
{
	struct sq_snapshot *s = load("", "PriorityWeightFairshare=0", 600);
	const struct sq_whatif_info *in = sq_whatif_info(s);
	size_t i;

	(void)state;
	for (i = 0; i < s->nrows; i++) {
		const struct sq_whatif *r = sq_snapshot_row(s, i);
		int64_t want = r->priority - r->weighted[SQ_WF_FAIRSHARE];

		assert_true(llabs(r->priority_new - want) <= 1);
	}
	/* low: 14 10 16 11 12 15 today; 14 12 11 {10 16} 15 without
	 * fairshare */
	assert_int_equal(row(s, 14, "low")->rank, 1);
	assert_int_equal(row(s, 10, "low")->rank, 2);
	assert_int_equal(row(s, 16, "low")->rank, 3);
	assert_int_equal(row(s, 12, "low")->rank, 5);
	assert_int_equal(row(s, 14, "low")->rank_new, 1);
	assert_int_equal(row(s, 12, "low")->rank_new, 2);
	assert_int_equal(row(s, 11, "low")->rank_new, 3);
	assert_int_equal(row(s, 15, "low")->rank_new, 6);
	assert_int_equal(row(s, 12, "low")->move, 3);
	assert_int_equal(row(s, 12, "high")->rank_new, 1);
	assert_int_equal(in->moved, 4);
	assert_int_equal(in->gain_job, 12);
	assert_int_equal(in->gain, 3);
	assert_int_equal(in->loss, -2);
	assert_non_null(strstr(in->summary, "largest gain job 12 +3"));
	sq_snapshot_unref(s);
}

/* Deriving from a computed snapshot gives what a direct apply gives. */
static void
test_derive(void **state)
{
	struct sq_snapshot *base = load("", NULL, 600);
	struct sq_snapshot *direct = load("",
					  "priorityweightage=5000 "
					  "PriorityWeightFairshare=2000",
					  600);
	struct sq_whatif_weights given;
	struct sq_snapshot *d;
	struct sq_err err;
	size_t i;
	char line[200];

	(void)state;
	assert_int_equal(sq_whatif_parse("PriorityWeightAge=5000,"
					 "PriorityWeightFairshare=2000",
					 &given, &err),
			 0);
	d = sq_whatif_derive(base, &given, "x", 10);
	assert_non_null(d);
	assert_int_equal(d->nrows, direct->nrows);
	for (i = 0; i < d->nrows; i++) {
		const struct sq_whatif *a = sq_snapshot_row(d, i);
		const struct sq_whatif *b = sq_snapshot_row(direct, i);

		assert_int_equal(a->priority_new, b->priority_new);
		assert_int_equal(a->rank_new, b->rank_new);
	}
	/* the base is unchanged: still today's */
	assert_int_equal(row(base, 14, "low")->priority_new, 9422);
	assert_int_equal(sq_whatif_factor_line(row(d, 14, "low"),
					       SQ_WF_FAIRSHARE, line,
					       sizeof(line)),
			 0);
	assert_non_null(strstr(line, "fairshare"));
	assert_non_null(strstr(line, "10000 ="));
	assert_non_null(strstr(line, "2000 ="));
	/* TRES lines follow the six factors: cpu, mem; then the end */
	assert_int_equal(sq_whatif_factor_line(row(d, 14, "low"), SQ_WF_COUNT,
					       line, sizeof(line)),
			 0);
	assert_non_null(strstr(line, "cpu"));
	assert_int_equal(sq_whatif_factor_line(row(d, 14, "low"),
					       SQ_WF_COUNT + 2, line,
					       sizeof(line)),
			 -1);
	sq_snapshot_unref(d);
	sq_snapshot_unref(direct);
	sq_snapshot_unref(base);
}

/* PriorityMaxAge: an unsaturated age factor scales; a saturated one
 * (age 1 in the _sat recording) gives a lower bound. */
static void
test_max_age(void **state)
{
	struct sq_snapshot *s = load("", "PriorityMaxAge=20", 600);
	struct sq_snapshot *t = load("_sat", "PriorityMaxAge=1-00:00:00", 600);
	struct sq_snapshot *u = load("", "PriorityMaxAge=5", SQ_NONE);
	const struct sq_whatif *r = row(s, 10, "low");
	size_t i, bound = 0;

	(void)state;
	/* 0.5333333 of 10 minutes is 0.2666667 of 20 */
	assert_true(fabs(r->age_new - 0.5333333 / 2) < 1e-6);
	assert_true(llabs(r->delta + 267) <= 1);
	assert_int_equal(sq_whatif_info(s)->age_bound, 0);
	for (i = 0; i < t->nrows; i++) {
		r = sq_snapshot_row(t, i);
		if (r->norm[SQ_WF_AGE] >= 1) {
			assert_true(r->age_bound);
			assert_true(fabs(r->age_new - 600.0 / 86400) < 1e-9);
			bound++;
		}
	}
	assert_int_equal(sq_whatif_info(t)->age_bound, bound);
	assert_true(bound > 0);
	/* the old maximum unknown: named, not modelled */
	assert_non_null(strstr(sq_whatif_info(u)->notes, "PriorityMaxAge"));
	assert_int_equal(row(u, 10, "low")->delta, 0);
	sq_snapshot_unref(s);
	sq_snapshot_unref(t);
	sq_snapshot_unref(u);
}

static void
test_parse_weights(void **state)
{
	struct sq_whatif_weights w;
	struct sq_err err;

	(void)state;
	assert_int_equal(
	    sq_whatif_parse("PriorityWeightTRES=CPU=1,Mem=2.5,GRES/gpu=3,"
			    "priorityweightqos=7 PriorityWeightAssoc=9 "
			    "PriorityFlags=SMALL_RELATIVE_TO_TIME",
			    &w, &err),
	    0);
	assert_int_equal(w.ntres, 3);
	assert_string_equal(w.tres[2].name, "gres/gpu");
	assert_true(w.tres[1].v == 2.5);
	assert_true(w.w[SQ_WF_QOS] == 7 && w.w[SQ_WF_ASSOC] == 9);
	assert_int_equal(w.set, (1u << SQ_WF_QOS) | (1u << SQ_WF_ASSOC));
	assert_string_equal(w.ignored, "PriorityFlags");
	assert_int_equal(sq_whatif_parse("PriorityMaxAge=1-00:00:00", &w, &err),
			 0);
	assert_int_equal(w.max_age, 86400);
	assert_int_equal(sq_whatif_parse("", &w, &err), 0);
	assert_int_equal(w.set, 0);
	/* refused */
	assert_int_equal(sq_whatif_parse("Mem=3", &w, &err), -1);
	assert_int_equal(sq_whatif_parse("PriorityWeightAge=-1", &w, &err), -1);
	assert_int_equal(sq_whatif_parse("PriorityWeightAge=1.5", &w, &err),
			 -1);
	assert_int_equal(sq_whatif_parse("PriorityWeightAge", &w, &err), -1);
	assert_int_equal(sq_whatif_parse("PriorityWeightAge=", &w, &err), -1);
	assert_int_equal(
	    sq_whatif_parse("PriorityWeightAge=5000000000", &w, &err), -1);
	assert_int_equal(sq_whatif_parse("PriorityWeightTRES=CPU", &w, &err),
			 -1);
	assert_int_equal(sq_whatif_parse("PriorityMaxAge=soon", &w, &err), -1);
	assert_int_equal(sq_whatif_parse("Weight=3", &w, &err), -1);
	assert_non_null(strstr(err.msg, "unknown key"));
}

/* A weight that is 0 today has no factor in sprio -n: named, not
 * guessed; the TRES list replaces today's as slurm.conf would. */
static void
test_unmodelled(void **state)
{
	struct sq_snapshot *s =
	    load("",
		 "PriorityWeightAssoc=1000 PriorityWeightTRES=CPU=100,"
		 "Mem=10,billing=5",
		 600);
	const struct sq_whatif_info *in = sq_whatif_info(s);
	size_t i;

	(void)state;
	assert_non_null(strstr(in->notes, "PriorityWeightAssoc"));
	assert_non_null(strstr(in->notes, "billing"));
	/* assoc adds nothing; GRES/gpu lost its weight: only job 13 (the
	 * gpu job) changes, by its 500 */
	for (i = 0; i < s->nrows; i++) {
		const struct sq_whatif *r = sq_snapshot_row(s, i);

		if (r->job_id == 13)
			assert_true(llabs(r->delta + 500) <= 1);
		else
			assert_int_equal(r->delta, 0);
	}
	sq_snapshot_unref(s);
}

/* `--weights spec`: the Priority* keys of a spec's config map. */
static void
test_spec_weights(void **state)
{
	struct sq_whatif_weights w;
	struct sq_err err;
	char shown[512], path[512];
	const char *root = getenv("SQ_FIXTURES");

	(void)state;
	snprintf(path, sizeof(path), "%s/spec/testbed.json",
		 root ? root : "tests/fixtures");
	assert_int_equal(sq_whatif_weights_read("spec", path, &w, shown,
						sizeof(shown), &err),
			 0);
	assert_true(w.w[SQ_WF_FAIRSHARE] == 10000);
	assert_true(w.set & (1u << SQ_WF_AGE));
	assert_non_null(strstr(shown, "PriorityWeightAge=1000"));
	assert_int_equal(
	    sq_whatif_weights_read("spec", "", &w, shown, sizeof(shown), &err),
	    -1);
	assert_non_null(strstr(err.msg, "--spec"));
}

static void
test_bad_input(void **state)
{
	char bad1[] = "12|alice|low|100|0|0|0|0|0|0|0|0|x|0|0|0|0|0||\n";
	char bad2[] = "12|alice|low\n";
	char ok[] = "\n";
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_WHATIF, 0);
	struct sq_whatif_weights w;
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_parse_sprio_norm(bad1, s, &err), -1);
	assert_int_equal(sq_parse_sprio_norm(bad2, s, &err), -1);
	sq_snapshot_unref(s);
	s = sq_snapshot_new(SQ_KIND_WHATIF, 0);
	assert_int_equal(sq_parse_sprio_norm(ok, s, &err), 0);
	sq_whatif_weights_init(&w);
	assert_int_equal(sq_whatif_apply(s, &w, &w, "", SQ_NONE, "", 10), 0);
	assert_null(sq_whatif_info(s));
	sq_snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_sprio_n),
		cmocka_unit_test(test_today),
		cmocka_unit_test(test_fairshare_zero),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_max_age),
		cmocka_unit_test(test_parse_weights),
		cmocka_unit_test(test_unmodelled),
		cmocka_unit_test(test_spec_weights),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
