/*
 * test_scale.c - unit tests of what keeps squall fast on big queues:
 * string interning and exact-size rows in the parsers, and the number
 * formatting the table widget does for every row.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/join.h"
#include "core/parse.h"
#include "core/snapshot.h"
#include "core/strtab.h"
#include "core/view.h"
#include "tests/unit/test_util.h"

static void
test_strtab(void **state)
{
	struct sq_arena a;
	struct sq_strtab t;
	const char *x, *y, *z;
	char buf[] = "alice|bob";

	(void)state;
	sq_arena_init(&a);
	sq_strtab_init(&t, &a, 2);
	x = sq_strtab_get(&t, buf, 5);
	y = sq_strtab_str(&t, "alice");
	assert_string_equal(x, "alice");
	assert_ptr_equal(x, y);
	assert_ptr_not_equal(x, buf);
	z = sq_strtab_get(&t, buf + 6, 3);
	assert_string_equal(z, "bob");
	assert_ptr_not_equal(z, x);
	assert_string_equal(sq_strtab_get(&t, buf, 0), "");
	assert_string_equal(sq_strtab_str(&t, NULL), "");
	/* a third distinct string is over the limit: a plain copy */
	x = sq_strtab_str(&t, "carol");
	y = sq_strtab_str(&t, "carol");
	assert_string_equal(x, "carol");
	assert_ptr_not_equal(x, y);
	/* the first two are still shared */
	assert_ptr_equal(sq_strtab_str(&t, "bob"), z);
	sq_strtab_free(&t);
	/* the strings belong to the arena, not the table */
	assert_string_equal(z, "bob");
	sq_arena_free(&a);
}

static void
test_count_lines(void **state)
{
	(void)state;
	assert_int_equal(sq_count_lines(""), 0);
	assert_int_equal(sq_count_lines("a"), 1);
	assert_int_equal(sq_count_lines("a\n"), 1);
	assert_int_equal(sq_count_lines("a\nb"), 2);
	assert_int_equal(sq_count_lines("\n\n"), 2);
}

static void
test_col_int(void **state)
{
	static const long long v[] = { 0,         7,       10,
				       99,        4100001, 1234567890123LL,
				       LLONG_MAX, -5 };
	char buf[32], ref[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(ref, sizeof(ref), "%lld", v[i]);
		assert_string_equal(sq_col_int(v[i], buf, sizeof(buf)), ref);
	}
	assert_null(sq_col_int(SQ_NONE, buf, sizeof(buf)));
	assert_string_equal(sq_col_int(SQ_INFINITE, buf, sizeof(buf)),
			    "UNLIMITED");
	/* a small buffer still truncates like snprintf */
	assert_string_equal(sq_col_int(123456, buf, 4), "123");
}

/* The real 22.05 queue: rows sized exactly, equal fields shared. */
static void
test_parsers_share(void **state)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_snapshot *p = sq_snapshot_new(SQ_KIND_PRIO, 0);
	char *text = sq_test_fixture("cli/22.05/squeue.txt", NULL);
	char *ptext = sq_test_fixture("cli/22.05/sprio.txt", NULL);
	const char *bob = NULL, *low = NULL;
	struct sq_err err;
	size_t i, nbob = 0;

	(void)state;
	assert_int_equal(sq_parse_squeue(text, s, &err), 0);
	assert_int_equal(s->nrows, 23);
	assert_int_equal(s->cap, s->nrows);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(s, i);

		if (strcmp(j->user, "bob") == 0) {
			if (bob == NULL)
				bob = j->user;
			assert_ptr_equal(j->user, bob);
			nbob++;
		}
		if (strcmp(j->partition, "low") == 0) {
			if (low == NULL)
				low = j->partition;
			assert_ptr_equal(j->partition, low);
		}
	}
	assert_true(nbob > 3);
	assert_int_equal(sq_parse_sprio(ptext, p, &err), 0);
	assert_int_equal(p->nrows, 9);
	assert_int_equal(p->cap, p->nrows);
	/* the factors as sprio printed them, with the digit fast path */
	assert_int_equal(((const struct sq_prio *)sq_snapshot_row(p, 0))->age,
			 125);
	assert_int_equal(
	    ((const struct sq_prio *)sq_snapshot_row(p, 0))->fairshare, 1667);
	free(text);
	free(ptext);
	sq_snapshot_unref(s);
	sq_snapshot_unref(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strtab),
		cmocka_unit_test(test_count_lines),
		cmocka_unit_test(test_col_int),
		cmocka_unit_test(test_parsers_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
