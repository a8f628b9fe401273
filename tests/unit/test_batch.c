/*
 * test_batch.c - unit tests of batch mode's output (--once): rows in the
 * view's default sort, as the console opens it, or the one --sort names,
 * or as fetched (--sort none); only the rows --filter matches; the jobs
 * of the recorded squeue fixture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "batch/batch.h"
#include "core/model/model.h"
#include "core/query/order.h"
#include "core/model/view.h"
#include "tests/unit/test_util.h"

/* The squeue fixture's jobs (22.05 testbed, tests/testbed/jobs). */
static struct sq_snapshot *
jobs(void)
{
	char *text = sq_test_fixture("cli/22.05/squeue.txt", NULL);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_err err;

	assert_non_null(s);
	assert_int_equal(sq_parse_squeue(text, s, &err), 0);
	assert_true(s->nrows > 10);
	free(text);
	return s;
}

/* Print s through the jobs view as tsv (columns cols, sort sort, filter
 * filter); the text, malloc'd; NULL when sq_batch_print fails. */
static char *
print_filtered(const struct sq_snapshot *s, const char *cols, const char *sort,
	       const char *filter)
{
	const struct sq_view_def *v = sq_view_find("jobs");
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int rc;

	assert_non_null(v);
	assert_non_null(fp);
	rc = sq_batch_print(fp, v, s, SQ_FMT_TSV, cols, sort, filter);
	fclose(fp);
	if (rc == -1) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char *
print(const struct sq_snapshot *s, const char *cols, const char *sort)
{
	return print_filtered(s, cols, sort, NULL);
}

/* The second tsv column of every row (after the header) as numbers; how
 * many, in out. */
static size_t
second_column(char *text, long long *out, size_t max)
{
	char *line, *save = NULL;
	size_t n = 0;

	line = strtok_r(text, "\n", &save); /* the header */
	while ((line = strtok_r(NULL, "\n", &save)) != NULL && n < max) {
		char *tab = strchr(line, '\t');

		assert_non_null(tab);
		out[n++] = strtoll(tab + 1, NULL, 10);
	}
	return n;
}

/* jobs: by priority, highest first (the view's default_sort) */
static void
test_batch_default_sort(void **state)
{
	struct sq_snapshot *s = jobs();
	char *out = print(s, "job_id,priority", NULL);
	long long v[256];
	size_t n, i, desc = 0;

	(void)state;
	assert_non_null(out);
	n = second_column(out, v, 256);
	assert_int_equal(n, s->nrows);
	for (i = 1; i < n; i++) {
		assert_true(v[i - 1] >= v[i]);
		desc += v[i - 1] > v[i];
	}
	/* the fixture's squeue order is not already that: a real sort */
	assert_true(desc > 0);
	free(out);
	sq_snapshot_unref(s);
}

/* --sort priority (ascending), --sort none (as squeue printed them) */
static void
test_batch_sort_option(void **state)
{
	struct sq_snapshot *s = jobs();
	char *out = print(s, "job_id,priority", "priority");
	long long v[256], w[256];
	size_t n, i, same = 1;

	(void)state;
	assert_non_null(out);
	n = second_column(out, v, 256);
	assert_int_equal(n, s->nrows);
	for (i = 1; i < n; i++)
		assert_true(v[i - 1] <= v[i]);
	free(out);

	out = print(s, "job_id,priority", "none");
	assert_non_null(out);
	n = second_column(out, w, 256);
	assert_int_equal(n, s->nrows);
	for (i = 0; i < n; i++) {
		const struct sq_job *j = sq_snapshot_row(s, i);

		assert_int_equal(w[i], j->priority);
		same &= w[i] == v[i];
	}
	assert_false(same); /* as fetched is not ascending */
	free(out);

	/* an unknown column: an error, nothing printed */
	assert_null(print(s, "job_id,priority", "bogus"));
	assert_null(print(s, "job_id,priority", "-"));
	sq_snapshot_unref(s);
}

/* How many lines (rows after the header) text has, and are they all
 * "NAME\t..." with the first field equal to (or, want 0, unlike) name? */
static size_t
rows_of(const char *text, const char *name, int want, int *all)
{
	const char *p = strchr(text, '\n');
	size_t n = 0, l = strlen(name);

	*all = 1;
	while (p != NULL && p[1] != '\0') {
		p++;
		n++;
		if ((strncmp(p, name, l) == 0 && p[l] == '\t') != want)
			*all = 0;
		p = strchr(p, '\n');
	}
	return n;
}

/* --filter: field terms, a regex over the printed cells, '!', with a
 * sort; a bad pattern is an error */
static void
test_batch_filter(void **state)
{
	struct sq_snapshot *s = jobs();
	size_t i, alice = 0, n;
	long long v[256];
	int all;
	char *out;

	(void)state;
	for (i = 0; i < s->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(s, i);

		alice += strcmp(j->user, "alice") == 0;
	}
	assert_true(alice > 0 && alice < s->nrows);

	out = print_filtered(s, "user,priority", "none", "@user=alice");
	assert_non_null(out);
	assert_int_equal(rows_of(out, "alice", 1, &all), alice);
	assert_true(all);
	free(out);

	out = print_filtered(s, "user,priority", "none", "!@user=alice");
	assert_non_null(out);
	assert_int_equal(rows_of(out, "alice", 0, &all), s->nrows - alice);
	assert_true(all);
	free(out);

	/* a regex over the printed cells (caseless: no capital) */
	out = print_filtered(s, "user,job_id", NULL, "^ALICE");
	assert_non_null(out);
	assert_int_equal(rows_of(out, "alice", 1, &all), 0);
	free(out);
	out = print_filtered(s, "user,job_id", NULL, "^alice ");
	assert_non_null(out);
	assert_int_equal(rows_of(out, "alice", 1, &all), alice);
	assert_true(all);
	free(out);
	/* a column not printed is not matched by a regex */
	out = print_filtered(s, "job_id", NULL, "alice");
	assert_non_null(out);
	assert_int_equal(rows_of(out, "", 1, &all), 0);
	free(out);

	/* filtered, then sorted by priority ascending */
	out = print_filtered(s, "user,priority", "priority", "@user=alice");
	assert_non_null(out);
	n = second_column(out, v, 256);
	assert_int_equal(n, alice);
	for (i = 1; i < n; i++)
		assert_true(v[i - 1] <= v[i]);
	free(out);

	assert_null(print_filtered(s, "user", NULL, "(alice"));
	assert_null(print_filtered(s, "user", NULL, "@nosuchcolumn=1"));
	assert_null(print_filtered(s, "user", NULL, "!"));
	sq_snapshot_unref(s);
}

/* --columns help: every column of every view once, by id, with its
 * header; the default sort named */
static void
test_batch_columns_help(void **state)
{
	size_t k, i, m;

	(void)state;
	for (k = 0; sq_views[k] != NULL; k++) {
		const struct sq_view_def *v = sq_views[k];
		char *buf = NULL, *line, *save = NULL;
		size_t len = 0, nlines = 0;
		FILE *fp = open_memstream(&buf, &len);
		int sort_line = 0;

		assert_non_null(fp);
		sq_batch_columns(fp, v);
		fclose(fp);
		line = strtok_r(buf, "\n", &save); /* view NAME: help */
		assert_non_null(line);
		assert_true(strncmp(line, "view ", 5) == 0);
		line = strtok_r(NULL, "\n", &save); /* the header */
		assert_non_null(line);
		assert_true(strncmp(line, "ID ", 3) == 0);
		/* the meanings start in one column, after the widest header
		 * (COORDINATORS was one cell into them) */
		assert_non_null(strstr(line, "MEANING"));
		m = (size_t)(strstr(line, "MEANING") - line);
		i = 0;
		while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
			char id[64], title[64];

			if (strncmp(line, "default sort: ", 14) == 0) {
				assert_string_equal(line + 14, v->default_sort);
				sort_line = 1;
				continue;
			}
			assert_true(i < v->ncols);
			assert_int_equal(sscanf(line, "%63s %63s", id, title),
					 2);
			assert_string_equal(id, v->cols[i].id);
			assert_string_equal(title, v->cols[i].title);
			assert_true(strlen(line) > m && line[m - 1] == ' ' &&
				    (line[m] == '*' || line[m] == ' '));
			assert_true(strstr(line + strlen(id), title) +
					strlen(title) <
				    line + m);
			i++;
			nlines++;
		}
		assert_int_equal(nlines, v->ncols);
		assert_int_equal(sort_line, v->default_sort != NULL);
		free(buf);
	}
}

/* Natural order of text: "n2" before "n10"; ties keep snapshot order */
static void
test_order_natural(void **state)
{
	(void)state;
	assert_true(sq_order_natcmp("n2", "n10") < 0);
	assert_true(sq_order_natcmp("n10", "n2") > 0);
	assert_true(sq_order_natcmp("n002", "n2") == 0);
	assert_true(sq_order_natcmp("a", "b") < 0);
	assert_true(sq_order_natcmp("gpu1", "gpu1a") < 0);
}

/* --job 61_5 names a pending task of the array row 61_[4-20] (squeue
 * -j 61_5 lists it); a running task has its own row; a task outside
 * the list or of another array names nothing. */
static void
test_job_task(void **state)
{
	struct sq_snapshot *s = jobs();
	const struct sq_job *arr = NULL, *t1 = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < s->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(s, i);

		if (strcmp(j->id, "61_[4-20]") == 0)
			arr = j;
		if (strcmp(j->id, "61_1") == 0)
			t1 = j;
	}
	assert_non_null(arr);
	assert_non_null(t1);
	assert_true(sq_job_has_task(arr, "61_4"));
	assert_true(sq_job_has_task(arr, "61_12"));
	assert_true(sq_job_has_task(arr, "61_20"));
	assert_false(sq_job_has_task(arr, "61_3"));
	assert_false(sq_job_has_task(arr, "61_21"));
	assert_false(sq_job_has_task(arr, "62_5"));
	assert_false(sq_job_has_task(arr, "61_5x"));
	assert_false(sq_job_has_task(arr, "61"));
	assert_true(sq_job_has_task(t1, "61_1"));
	assert_false(sq_job_has_task(t1, "61_5"));
	/* REST's task list with its throttle, and several ranges */
	((struct sq_job *)arr)->array_task = "1-3,7,9-12%2";
	assert_true(sq_job_has_task(arr, "61_7"));
	assert_true(sq_job_has_task(arr, "61_10"));
	assert_false(sq_job_has_task(arr, "61_20"));
	assert_false(sq_job_has_task(arr, "61_8"));
	sq_snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_default_sort),
		cmocka_unit_test(test_batch_sort_option),
		cmocka_unit_test(test_batch_filter),
		cmocka_unit_test(test_batch_columns_help),
		cmocka_unit_test(test_order_natural),
		cmocka_unit_test(test_job_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
