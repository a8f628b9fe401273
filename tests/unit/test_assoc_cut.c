/*
 * test_assoc_cut.c - a big association listing parsed in two parts at
 * once (backends/cli/parse_sacctmgr.c, sq_parse_sacctmgr_assoc_cut)
 * gives the very rows one parse gives, in order, and the same error at
 * the same line. Texts: the recorded 22.05 listing
 * (tests/fixtures/cli/22.05/admin_sacctmgr_assoc.txt, `sacctmgr -n -P
 * show assoc tree format=...` on the testbed), and that listing copied
 * hundreds of times with an empty line and a CRLF line in each part.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "tests/unit/test_util.h"

/* Every field of row a, as text. */
static void
put_row(FILE *f, const struct sq_assoc *a)
{
	fprintf(f,
		"%s|%s|%s|%s|%s|%lld|%d|%lld|%lld|%lld|%lld|%lld|%s|%s|%s|"
		"%lld|%lld|%lld|%lld|%s|%s|%s|%lld|%s|%s|%d\n",
		a->cluster, a->account, a->user, a->partition, a->parent,
		(long long)a->id, a->depth, (long long)a->shares,
		(long long)a->priority, (long long)a->grp_jobs,
		(long long)a->grp_jobs_accrue, (long long)a->grp_submit,
		a->grp_tres, a->grp_tres_mins, a->grp_tres_run_mins,
		(long long)a->grp_wall, (long long)a->max_jobs,
		(long long)a->max_jobs_accrue, (long long)a->max_submit,
		a->max_tres, a->max_tres_per_node, a->max_tres_mins,
		(long long)a->max_wall, a->qos, a->default_qos, a->is_default);
}

/* The parse of a copy of text with min (the parts it read into *parts),
 * as text of every row; NULL when it failed (its message in msg). */
static char *
parsed(const char *text, size_t min, int *parts, char *msg, size_t msgn)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_ASSOCS, 0);
	char *t = strdup(text), *out = NULL;
	size_t n = 0, i;
	struct sq_err err;
	FILE *f;

	assert_non_null(s);
	assert_non_null(t);
	sq_err_clear(&err);
	*parts = sq_parse_sacctmgr_assoc_cut(t, min, s, &err);
	free(t);
	snprintf(msg, msgn, "%s", err.msg);
	if (*parts < 0) {
		sq_snapshot_unref(s);
		return NULL;
	}
	f = open_memstream(&out, &n);
	assert_non_null(f);
	for (i = 0; i < s->nrows; i++)
		put_row(f, sq_snapshot_row(s, i));
	fclose(f);
	sq_snapshot_unref(s);
	return out;
}

/* text parsed once and in two parts: the same rows, lines rows. */
static void
both(const char *text, const char *what, size_t rows)
{
	char m1[sizeof(((struct sq_err *)0)->msg)], m2[sizeof(m1)];
	int p1, p2;
	char *one = parsed(text, SIZE_MAX, &p1, m1, sizeof(m1)),
	     *two = parsed(text, 0, &p2, m2, sizeof(m2));
	size_t n = 0, i;

	if (one == NULL || two == NULL)
		fail_msg("%s: %s / %s", what, m1, m2);
	assert_int_equal(p1, 1);
	assert_int_equal(p2, 2);
	if (strcmp(one, two) != 0) {
		for (i = 0; one[i] == two[i]; i++)
			n += one[i] == '\n';
		fail_msg("%s: rows differ at row %zu", what, n + 1);
	}
	for (i = 0; one[i] != '\0'; i++)
		n += one[i] == '\n';
	assert_int_equal(n, rows);
	free(one);
	free(two);
}

static size_t
lines_of(const char *t)
{
	size_t n = 0;

	for (; *t != '\0'; t++)
		n += *t == '\n';
	return n;
}

static void
test_recorded(void **state)
{
	char *t = sq_test_fixture("cli/22.05/admin_sacctmgr_assoc.txt", NULL);

	(void)state;
	both(t, "22.05 recording", lines_of(t));
	free(t);
}

/* The recording copied n times, each copy's cluster "c<k>" + the
 * recorded one; an empty line and a line ending in CRLF in copies 1 and
 * n - 2 (one in each part). *rows: the association lines. */
static char *
copies(int n, size_t *rows)
{
	char *rec = sq_test_fixture("cli/22.05/admin_sacctmgr_assoc.txt", NULL);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int k;

	assert_non_null(f);
	*rows = 0;
	for (k = 0; k < n; k++) {
		const char *p = rec, *nl;

		for (; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
			int odd = (k == 1 || k == n - 2) && p == rec;

			fprintf(f, "c%d%.*s%s\n", k, (int)(nl - p), p,
				odd ? "\r" : "");
			if (odd)
				fputc('\n', f);
			(*rows)++;
		}
	}
	fclose(f);
	free(rec);
	return out;
}

static void
test_copies(void **state)
{
	size_t rows;
	char *t = copies(400, &rows);

	(void)state;
	assert_true(rows > 2000);
	both(t, "400 copies", rows);
	free(t);
}

/* Line k's field made bad: both parses fail with the same message,
 * naming the same line. */
static void
bad_at(const char *t, const char *line, int field, const char *put,
       const char *want)
{
	char *u = strdup(t), *f;
	char m1[sizeof(((struct sq_err *)0)->msg)], m2[sizeof(m1)];
	int p1, p2, k;

	assert_non_null(u);
	f = u + (line - t);
	for (k = 0; k < field; k++)
		f = strchr(f, '|') + 1;
	memcpy(f, put, strlen(put));
	assert_null(parsed(u, SIZE_MAX, &p1, m1, sizeof(m1)));
	assert_null(parsed(u, 0, &p2, m2, sizeof(m2)));
	assert_int_equal(p1, -1);
	assert_int_equal(p2, -1);
	if (strstr(m1, want) == NULL)
		fail_msg("%s: not %s", m1, want);
	assert_string_equal(m1, m2);
	free(u);
}

static void
test_errors(void **state)
{
	size_t rows;
	char *t = copies(200, &rows), *mid = t + strlen(t) / 2;
	const char *where[2];
	int w;

	(void)state;
	/* a line of each part: after a tenth of the text, after the middle */
	where[0] = strchr(t + strlen(t) / 10, '\n') + 1;
	where[1] = strchr(strchr(mid, '\n') + 1, '\n') + 1;
	for (w = 0; w < 2; w++) {
		/* the ID (field 5) made a word; then a field too few: the
		 * '|' after the partition made a letter */
		bad_at(t, where[w], 5, "x", "bad number");
		bad_at(t, where[w], 3, "x", "23 fields, expected 24");
	}
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_copies),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
