/*
 * test_runaway.c - `sacctmgr show runawayjobs` on outputs recorded from
 * the 22.05, 24.11 and 26.05 testbeds (tests/fixtures/runaway, see its README):
 * the listing answered N, the one fixed with -i, none at all; the
 * degenerate inputs; the fix-runaway action's targets (job ids only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/action/action.h"
#include "core/model/model_admin.h"
#include "tests/unit/test_util.h"

static const char *const releases[] = { "22.05", "24.11", "26.05" };

static struct sq_snapshot *
parse(const char *name, const char *literal, int expect_rc, char **textp)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_RUNAWAY, 0);
	struct sq_err err;
	char *text, *copy;
	int rc;

	assert_non_null(s);
	text = name ? sq_test_fixture(name, NULL) : strdup(literal);
	assert_non_null(text);
	copy = strdup(text);
	assert_non_null(copy);
	sq_err_clear(&err);
	rc = sq_parse_runaway(text, s, &err);
	if (rc != expect_rc)
		fail_msg("parse rc %d, expected %d (%s)", rc, expect_rc,
			 err.msg);
	if (rc == -1)
		assert_true(strlen(err.msg) > 0);
	free(text);
	if (textp != NULL)
		*textp = copy;
	else
		free(copy);
	return s;
}

static void
test_list(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		char path[128], *text;
		struct sq_snapshot *s;
		const struct sq_runaway *r;

		snprintf(path, sizeof(path), "runaway/%s/list.txt",
			 releases[i]);
		s = parse(path, NULL, 0, &text);
		assert_int_equal(s->nrows, 1);
		r = sq_snapshot_row(s, 0);
		assert_true(r->id >= 67100000);
		assert_string_equal(r->name, "sq-fixture");
		assert_string_equal(r->partition, "low");
		assert_string_equal(r->cluster, "testbed");
		assert_string_equal(r->state, "RUNNING");
		assert_true(r->submit > 1700000000);
		assert_int_equal(r->start, r->submit + 60);
		assert_int_equal(r->end, SQ_NONE);
		/* answered N: the fix was rolled back */
		assert_true(sq_runaway_discarded(text));
		assert_false(sq_runaway_none(text));
		free(text);
		sq_snapshot_unref(s);
	}
}

static void
test_fix_none_after(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		char path[128], *text;
		struct sq_snapshot *s;

		/* -i: the same row, no question, nothing discarded */
		snprintf(path, sizeof(path), "runaway/%s/fix.txt", releases[i]);
		s = parse(path, NULL, 0, &text);
		assert_int_equal(s->nrows, 1);
		assert_false(sq_runaway_discarded(text));
		free(text);
		sq_snapshot_unref(s);
		snprintf(path, sizeof(path), "runaway/%s/none.txt",
			 releases[i]);
		s = parse(path, NULL, 0, &text);
		assert_int_equal(s->nrows, 0);
		assert_true(sq_runaway_none(text));
		free(text);
		sq_snapshot_unref(s);
		snprintf(path, sizeof(path), "runaway/%s/after.txt",
			 releases[i]);
		s = parse(path, NULL, 0, NULL);
		assert_int_equal(s->nrows, 0);
		sq_snapshot_unref(s);
	}
}

static void
test_degenerate(void **state)
{
	struct sq_snapshot *s;
	const struct sq_runaway *r;

	(void)state;
	s = parse(NULL, "", 0, NULL);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
	/* a '|' in the name (the last field) stays in the name */
	s = parse(NULL, "12|c|low|RUNNING|100|160|Unknown|a|b\n", 0, NULL);
	assert_int_equal(s->nrows, 1);
	r = sq_snapshot_row(s, 0);
	assert_string_equal(r->name, "a|b");
	assert_int_equal(r->start, 160);
	sq_snapshot_unref(s);
	/* empty times, a pending one (no start) */
	s = parse(NULL, "13|c|low|PENDING|100|0|0|x\n", 0, NULL);
	r = sq_snapshot_row(s, 0);
	assert_int_equal(r->start, SQ_NONE);
	sq_snapshot_unref(s);
	/* a row cut short, a zero id, a bad time, a huge id */
	sq_snapshot_unref(parse(NULL, "12|c|low|RUNNING\n", -1, NULL));
	sq_snapshot_unref(parse(NULL, "0|c|l|R|1|2|3|n\n", -1, NULL));
	sq_snapshot_unref(parse(NULL, "5|c|l|R|x|2|3|n\n", -1, NULL));
	sq_snapshot_unref(parse(NULL, "99999999999|c|l|R|1|2|3|n\n", -1, NULL));
	/* sacctmgr's words are skipped, a line of digits alone too */
	s = parse(NULL, "NOTE: x|y\n(N/y): \n2026\nChanges Discarded\n", 0,
		  NULL);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
}

static void
test_action_targets(void **state)
{
	struct sq_action a;
	struct sq_err err;
	char line[256];

	(void)state;
	assert_int_equal(
	    sq_action_parse("fix-runaway 67100001 12", -1, NULL, 0, &a, &err),
	    0);
	assert_int_equal(a.type, SQ_ACTION_RUNAWAY_FIX);
	assert_int_equal(a.ntargets, 2);
	assert_int_equal(sq_action_format(&a, line, sizeof(line)), 0);
	assert_string_equal(line, "fix-runaway 67100001 12");
	assert_int_equal(a.def->inverse, SQ_ACTION_NONE);
	assert_int_equal(a.def->key, 'F');
	sq_action_free(&a);
	assert_int_equal(
	    sq_action_parse("fix-runaway 12_3", -1, NULL, 0, &a, &err), -1);
	assert_int_equal(
	    sq_action_parse("fix-runaway '1;rm'", -1, NULL, 0, &a, &err), -1);
	assert_int_equal(sq_action_parse("fix-runaway", -1, NULL, 0, &a, &err),
			 -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_fix_none_after),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_action_targets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
