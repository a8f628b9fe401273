/*
 * test_scale.c - unit tests of what keeps squall fast on big queues:
 * string interning and exact-size rows in the parsers, the table
 * widget's caches (sort order by radix and ranks, filter bits, row text
 * made in idle slices, unchanged rows kept) checked against a plain
 * reference implementation, and the job array grouping.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/cli/cli.h"
#include "core/model/join.h"
#include "core/base/parse.h"
#include "core/model/snapshot.h"
#include "core/base/strtab.h"
#include "core/model/view.h"
#include "tests/unit/test_util.h"
#include "core/query/filter.h"
#include "core/query/order.h"
#include "tui/app.h"
#include "tui/table.h"
#include "tui/table_int.h"
#include "tui/table_prep.h"
#include "tui/text.h"

/*
 * Interning keeps a string's first eight bytes in its slot and compares
 * strings of eight or less there only (issue 44): strings of every
 * length from 1 to 24 that differ in one byte, at every place, are
 * told apart, and equal ones shared.
 */
static void
test_strtab_short(void **state)
{
	struct sq_arena a;
	struct sq_strtab t;
	const char *first[25];
	char buf[32];
	size_t n, at;

	(void)state;
	sq_arena_init(&a);
	sq_strtab_init(&t, &a, 0);
	for (n = 1; n <= 24; n++) {
		memset(buf, 'a', n);
		first[n] = sq_strtab_get(&t, buf, n);
		for (at = 0; at < n; at++) {
			const char *x;

			buf[at] = 'b';
			x = sq_strtab_get(&t, buf, n);
			assert_ptr_not_equal(x, first[n]);
			assert_memory_equal(x, buf, n);
			assert_ptr_equal(sq_strtab_get(&t, buf, n), x);
			buf[at] = 'a';
		}
		assert_ptr_equal(sq_strtab_get(&t, buf, n), first[n]);
		assert_int_equal(strlen(first[n]), n);
	}
	for (n = 1; n < 24; n++) /* a prefix is not the longer string */
		assert_ptr_not_equal(first[n], first[n + 1]);
	sq_strtab_free(&t);
	sq_arena_free(&a);
}

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

/* ------------------------------------------------------------ tables */

static unsigned long rnd_state = 12345;

static unsigned
rnd(unsigned n)
{
	rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rnd_state >> 33) % n);
}

/*
 * A queue of n jobs with what makes sorting hard: shared and unshared
 * copies of equal strings, digits with leading zeros, missing values,
 * UNLIMITED, and job arrays.
 */
static struct sq_snapshot *
make_jobs(size_t n)
{
	static const char *const users[] = { "alice", "bob",  "u10",
					     "u9",    "u010", "Carol" };
	static const char *const states[] = { "PENDING", "RUNNING", "PENDING",
					      "COMPLETING" };
	static const char *const names[] = { "sim",   "sim2",  "sim10",
					     "sim02", "a b",   "x_0001",
					     "x_1",   "train", "" };
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	uint32_t id = 1000, array = 0;
	size_t i, left = 0;
	char buf[64];

	for (i = 0; i < n; i++) {
		struct sq_job *j = sq_snapshot_add(s);

		j->job_id = id++;
		if (left == 0 && rnd(8) == 0) {
			array = j->job_id;
			left = 2 + rnd(12);
		}
		if (left > 0) {
			j->array_job_id = array;
			snprintf(buf, sizeof(buf), "%u", j->job_id - array + 1);
			j->array_task = sq_snapshot_str(s, buf);
			snprintf(buf, sizeof(buf), "%u_%u", array,
				 j->job_id - array + 1);
			left--;
		} else {
			j->array_task = "";
			snprintf(buf, sizeof(buf), "%u", j->job_id);
		}
		j->id = sq_snapshot_str(s, buf);
		/* half the rows share one copy, half have their own */
		j->user =
		    rnd(2) ? users[rnd(6)] : sq_snapshot_str(s, users[rnd(6)]);
		j->account = rnd(2) ? "acct1" : "acct10";
		j->partition = rnd(3) ? "batch" : "gpu";
		j->qos = "normal";
		j->state = states[rnd(4)];
		j->state_compact = j->state[0] == 'P' ? "PD" : "R";
		j->reason = rnd(2) ? "Priority" : "";
		j->name = sq_snapshot_str(s, names[rnd(9)]);
		j->gres = rnd(4) ? "" : "gres:gpu:2";
		j->nodelist =
		    rnd(2) ? "" : sq_snapshot_str(s, rnd(2) ? "n01" : "n1");
		j->priority = rnd(10) == 0 ? SQ_NONE : (int64_t)rnd(50);
		j->nodes = 1 + rnd(3);
		j->cpus = rnd(5) == 0 ? SQ_INFINITE : (int64_t)rnd(64);
		j->time_limit =
		    rnd(6) == 0 ? SQ_INFINITE : (int64_t)rnd(9) * 60;
		j->time_used = rnd(4) == 0 ? SQ_NONE : (int64_t)rnd(1000);
		j->submit_time = 1700000000 + rnd(100);
		j->start_time = rnd(3) == 0 ? SQ_NONE : 1700000000 + rnd(100);
	}
	return s;
}

/*
 * The natural order (digit runs compare as numbers, "n2" before "n10") by
 * a key, an oracle that shares no code with core/query/order_nat.c: each
 * digit run becomes '0' (no other byte sorts among the digits), the
 * run's length without its leading zeros in ten digits, and those
 * digits; two keys then compare as bytes.
 */
static void
nat_key(const char *s, char *k, size_t n)
{
	size_t o = 0, l;

	while (*s != '\0') {
		assert_true(o + 12 < n);
		if (*s < '0' || *s > '9') {
			k[o++] = *s++;
			continue;
		}
		while (*s == '0')
			s++;
		l = strspn(s, "0123456789");
		assert_true(o + 11 + l < n);
		o +=
		    (size_t)snprintf(k + o, n - o, "0%010zu%.*s", l, (int)l, s);
		s += l;
	}
	k[o] = '\0';
}

static int
ref_natcmp(const char *a, const char *b)
{
	char ka[8192], kb[8192];
	int c;

	nat_key(a, ka, sizeof(ka));
	nat_key(b, kb, sizeof(kb));
	c = strcmp(ka, kb);
	return c < 0 ? -1 : c > 0;
}

/* sq_order_natcmp (both its paths) against the key oracle, on strings of
 * digits with leading zeros, letters and bytes on either side of the
 * digits; a generator of its own, the tables' sequence unchanged. */
static void
test_natcmp_oracle(void **state)
{
	static const char alpha[] = "00019a-z:/\xc3";
	unsigned long st = 42;
	char a[12], b[12];
	int i, j, r, o;

	(void)state;
	for (i = 0; i < 200000; i++) {
		for (j = 0; j < 11; j++) {
			st = st * 6364136223846793005UL + 1442695040888963407UL;
			a[j] = alpha[(st >> 33) % (sizeof(alpha) - 1)];
			b[j] = alpha[(st >> 45) % (sizeof(alpha) - 1)];
		}
		/* a shared prefix, then lengths of their own */
		memcpy(b, a, (st >> 20) % 8);
		a[(st >> 24) % 12] = '\0';
		b[(st >> 28) % 12] = '\0';
		a[11] = b[11] = '\0';
		r = sq_order_natcmp(a, b);
		o = ref_natcmp(a, b);
		if ((r > 0) - (r < 0) != o)
			fail_msg("natcmp(\"%s\", \"%s\") = %d, the oracle %d",
				 a, b, r, o);
	}
}

struct ref_key {
	size_t rec;
	int missing;
	long long num;
	char txt[512];
	int has_txt;
};

static int ref_desc;

static int
ref_cmp(const void *pa, const void *pb)
{
	const struct ref_key *a = pa, *b = pb;
	int c = 0;

	if (a->missing != b->missing)
		return a->missing ? 1 : -1;
	if (!a->missing) {
		if (!a->has_txt)
			c = a->num < b->num ? -1 : a->num > b->num;
		else
			c = ref_natcmp(a->txt, b->txt);
		if (ref_desc)
			c = -c;
	}
	if (c == 0)
		c = a->rec < b->rec ? -1 : a->rec > b->rec;
	return c;
}

/* Rows of snapshot s sorted by column col as the widget always did,
 * keeping those that pass the filter f (NULL: all) on the text of the
 * shown columns of t. */
static size_t
reference(struct sq_table *t, int col, int desc, struct sq_filter *f,
	  size_t *out)
{
	const struct sq_column *c = col >= 0 ? &t->def->cols[col] : NULL;
	size_t n = t->snap->nrows, i, m = 0;
	struct ref_key *k = calloc(n, sizeof(*k));

	assert_non_null(k);
	for (i = 0; i < n; i++) {
		const void *rec = sq_snapshot_row(t->snap, i);
		char buf[512], text[4096];
		const char *s;
		long long v;

		if (f != NULL) {
			sq_table_rowtext(t, rec, text, sizeof(text));
			if (!sq_filter_row(f, rec, text))
				continue;
		}
		k[m].rec = i;
		if (c != NULL) {
			s = c->text(rec, buf, sizeof(buf));
			k[m].missing = s == NULL;
			if (c->num != NULL && c->num(rec, &v) == 0) {
				k[m].num = v == SQ_INFINITE ? LLONG_MAX : v;
				if (v == SQ_NONE)
					k[m].missing = 1;
			} else if (s != NULL) {
				snprintf(k[m].txt, sizeof(k[m].txt), "%s", s);
				k[m].has_txt = 1;
			}
		}
		m++;
	}
	ref_desc = desc;
	if (c != NULL)
		qsort(k, m, sizeof(*k), ref_cmp);
	for (i = 0; i < m; i++)
		out[i] = k[i].rec;
	free(k);
	return m;
}

static void
assert_rows(const struct sq_table *t, const size_t *ref, size_t n)
{
	size_t i;

	assert_int_equal(t->nrows, n);
	for (i = 0; i < n; i++) {
		if (t->rows[i].rec != ref[i])
			fail_msg("row %zu: rec %zu, expected %zu", i,
				 t->rows[i].rec, ref[i]);
	}
}

/* The ascending order with its ties turns into the descending one
 * (sq_order_flip) exactly as sorting descending does, for every column
 * of the jobs view (numbers, texts in natural order, missing values,
 * UNLIMITED, equal values); and the ascending order is sq_order_rows'. */
static void
test_order_flip(void **state)
{
	size_t sizes[] = { 0, 1, 2, 3000 }, z;

	(void)state;
	for (z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		struct sq_snapshot *s = make_jobs(sizes[z]);
		size_t n = s->nrows, i, c, npres, nt = 0;
		uint32_t *asc = calloc(n + 1, sizeof(*asc)),
			 *ref = calloc(n + 1, sizeof(*ref)),
			 *desc = calloc(n + 1, sizeof(*desc));
		unsigned char *ties = calloc(n / 8 + 1, 1);
		struct sq_order_ws w;

		memset(&w, 0, sizeof(w));
		assert_non_null(asc);
		assert_non_null(ref);
		assert_non_null(desc);
		assert_non_null(ties);
		for (c = 0; c < sq_view_jobs.ncols; c++) {
			const struct sq_column *col = &sq_view_jobs.cols[c];

			assert_int_equal(
			    sq_order_rows_ties(s, col, asc, ties, &npres, &w),
			    0);
			assert_true(npres <= n);
			assert_int_equal(sq_order_rows(s, col, 0, ref), 0);
			for (i = 0; i < n; i++) {
				if (asc[i] != ref[i])
					fail_msg("%s asc place %zu: %u, "
						 "expected %u",
						 col->id, i, asc[i], ref[i]);
				nt += (ties[i / 8] >> (i % 8)) & 1;
			}
			sq_order_flip(asc, ties, npres, n, desc);
			assert_int_equal(sq_order_rows(s, col, 1, ref), 0);
			for (i = 0; i < n; i++) {
				if (desc[i] != ref[i])
					fail_msg("%s desc place %zu: %u, "
						 "expected %u",
						 col->id, i, desc[i], ref[i]);
			}
		}
		/* the data has equal values: ties were found */
		if (n > 100)
			assert_true(nt > 0);
		sq_order_ws_free(&w);
		free(asc);
		free(ref);
		free(desc);
		free(ties);
		sq_snapshot_unref(s);
	}
}

/* Every column, both ways, with and without filters: the same rows in
 * the same order as the plain implementation. */
static void
test_table_vs_reference(void **state)
{
	static const char *const filters[] = {
		"bob",         "u0?10",  "^1",       "!PENDING",
		"@user=alice", "sim0*2", "Carol",    "x_0*1\\b",
		"sim10",       "carOL",  "!pend",    "acct1.*gpu",
		"!acct1.*gpu", "al+i",   "Priority", "gres:G",
	};
	struct sq_snapshot *s = make_jobs(3000);
	size_t *ref = malloc(3000 * sizeof(*ref)), n, i, k;
	struct sq_table t;
	char err[300];

	(void)state;
	assert_non_null(ref);
	sq_table_init(&t, &sq_view_jobs);
	t.ops = NULL; /* arrays are tested on their own below */
	sq_table_set_snapshot(&t, s);
	for (i = 0; i < sq_view_jobs.ncols; i++) {
		int desc;

		for (desc = 0; desc < 2; desc++) {
			sq_table_sort(&t, (int)i, desc);
			n = reference(&t, (int)i, desc, NULL, ref);
			assert_rows(&t, ref, n);
		}
	}
	sq_table_sort(&t, -1, 0);
	n = reference(&t, -1, 0, NULL, ref);
	assert_rows(&t, ref, n);
	/* filters, typed letter by letter over a sorted table; half of the
	 * row text made ahead in idle slices */
	sq_table_sort(&t, 1, 1);
	sq_table_warm(&t, 1500);
	for (k = 0; k < sizeof(filters) / sizeof(filters[0]); k++) {
		size_t l, len = strlen(filters[k]);

		/* typed, then erased again */
		for (l = 1; l < 2 * len; l++) {
			char pat[64];
			struct sq_filter f;

			snprintf(pat, sizeof(pat), "%.*s",
				 (int)(l <= len ? l : 2 * len - l), filters[k]);
			sq_filter_init(&f);
			if (sq_filter_set(&f, pat, t.def, err, sizeof(err)) ==
			    -1) {
				assert_int_equal(
				    sq_table_filter(&t, pat, err, sizeof(err)),
				    -1);
				continue;
			}
			assert_int_equal(
			    sq_table_filter(&t, pat, err, sizeof(err)), 0);
			n = reference(&t, 1, 1, &f, ref);
			assert_rows(&t, ref, n);
			sq_filter_free(&f);
		}
	}
	/* the filter's text follows the shown columns: without the user
	 * column, "Carol" matches nothing */
	assert_int_equal(sq_table_filter(&t, "Carol", err, sizeof(err)), 0);
	assert_true(t.nrows > 0);
	assert_int_equal(
	    sq_table_set_columns(&t, "job_id,state,name", err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 0);
	sq_table_free(&t);
	sq_snapshot_unref(s);
	free(ref);
}

/* The width fit moves columns between keystrokes (a column that no longer
 * fits goes after the others): the rows' text made in one order answers
 * every filter as the text in the new order would, also for rows whose
 * cells hold two spaces in a row or end with one. */
static void
test_filter_reordered(void **state)
{
	static const char *const filters[] = {
		"bob",      "u0?10",    "^1",  "sim0*2",    "Carol",
		"x_0*1\\b", "!PENDING", "a b", "acct1.*gp", "!acct1.*gp",
		"1  acct1", "n01$",     "b  ",
	};
	static const char *const odd[] = { "a  b", "x ", " y", "  ", "z  " };
	struct sq_snapshot *s = make_jobs(3000);
	size_t *ref = malloc(3000 * sizeof(*ref)), n, i, k;
	struct sq_table t;
	char err[300];
	int round = 0;

	(void)state;
	assert_non_null(ref);
	for (i = 0; i < 3000; i += 7) {
		struct sq_job *j = sq_snapshot_row(s, i);

		j->name = odd[(i / 7) % 5];
	}
	sq_table_init(&t, &sq_view_jobs);
	t.ops = NULL;
	sq_table_set_snapshot(&t, s);
	sq_table_sort(&t, 1, 0);
	sq_table_warm(&t, 3000);
	for (k = 0; k < sizeof(filters) / sizeof(filters[0]); k++) {
		size_t l, len = strlen(filters[k]);

		for (l = 1; l < 2 * len; l++) {
			char pat[64];
			struct sq_filter f;
			int a = round % t.ncols, b = (round * 7 + 3) % t.ncols;
			int tmp = t.cols[a];

			/* what the fit does between two keystrokes */
			t.cols[a] = t.cols[b];
			t.cols[b] = tmp;
			round++;
			snprintf(pat, sizeof(pat), "%.*s",
				 (int)(l <= len ? l : 2 * len - l), filters[k]);
			sq_filter_init(&f);
			if (sq_filter_set(&f, pat, t.def, err, sizeof(err)) ==
			    -1)
				continue;
			assert_int_equal(
			    sq_table_filter(&t, pat, err, sizeof(err)), 0);
			n = reference(&t, 1, 0, &f, ref);
			assert_rows(&t, ref, n);
			sq_filter_free(&f);
		}
	}
	sq_table_free(&t);
	sq_snapshot_unref(s);
	free(ref);
}

/* What compute_widths measures, the plain way: the title (and the sort
 * mark), the widest cell of the first 1000 rows, at most 40. */
static void
assert_widths(const struct sq_table *t)
{
	size_t i, n = t->nrows < 1000 ? t->nrows : 1000;
	int c;

	for (c = 0; c < t->ncols; c++) {
		int w = sq_width(t->def->cols[t->cols[c]].title);

		if (t->cols[c] == t->sort)
			w++;
		if (w < 1)
			w = 1;
		for (i = 0; i < n; i++) {
			char buf[SQ_TABLE_CELL];
			int cw = sq_width(sq_table_cell(
			    t, c, sq_snapshot_row(t->snap, t->rows[i].rec), buf,
			    sizeof(buf)));

			if (c == 0)
				cw += 2 * t->rows[i].depth + 2;
			if (cw > 40)
				cw = 40;
			if (cw > w)
				w = cw;
		}
		assert_int_equal(t->widths[c], w);
	}
}

/* The column widths of a table that keeps its rows' cell widths, through
 * sorts, filters and a column moved, are those measured afresh. */
static void
test_widths_kept(void **state)
{
	struct sq_snapshot *s = make_jobs(3000);
	struct sq_table a;
	char err[300];
	int tmp;

	(void)state;
	sq_table_init(&a, &sq_view_jobs);
	sq_table_set_snapshot(&a, s);
	assert_widths(&a);
	sq_table_sort(&a, 1, 0);
	assert_widths(&a);
	assert_int_equal(sq_table_filter(&a, "bob", err, sizeof(err)), 0);
	assert_widths(&a);
	sq_table_sort(&a, 5, 1);
	assert_int_equal(sq_table_filter(&a, "", err, sizeof(err)), 0);
	assert_widths(&a);
	tmp = a.cols[0];
	a.cols[0] = a.cols[2];
	a.cols[2] = tmp;
	sq_table_sort(&a, 7, 0);
	assert_widths(&a);
	assert_int_equal(sq_table_filter(&a, "al", err, sizeof(err)), 0);
	assert_widths(&a);
	sq_table_free(&a);
	sq_snapshot_unref(s);
}

/* The substring search a plain word (or a regex's literal start) takes on
 * ASCII text answers as the regex does, for every pattern and text. */
static void
test_filter_literal(void **state)
{
	static const char *const pats[] = {
		"u",     "U",    "user1", "USER1",   "uSer", "!user", "ab?c",
		"ab*c",  "ab+c", "ab{2}", "a.c",     "^ab",  "ab$",   "a|zz",
		"(ab)c", "x1",   "1x",    "k",       "!K",   "s10",   "[a]b",
		"a\\.b", "zz",   "  ",    "ab(?i)C", "abc(",
	};
	static const char *const texts[] = {
		"",        "u",         "user12  acct", "USER12", "xuSeR1",
		"abc",     "ac",        "abbc",         "aXc",    "zabc",
		"ab",      "a.b",       "11x x1",       "a  b",   "AbC",
		"s10 S10", "xx user 1", "ABBBC",        "abC",
	};
	static const char *const words[] = {
		"user1", "USER1", "u", "U", "1", "x@", "`x", "us.r", "0",
	};
	static const char *const fill[] = {
		"0123456789abcdefghijklmnopqrstuvwxyz0123456789",
		"uuuuuuuuuuuuuuuuUUUUUUUUUUUUUUUUuseruseuSEUs1",
		"@@@@@@@@``````````PPPPPPPPP  0000000000 user 1",
	};
	/* the Kelvin sign matches k caselessly: such rows take the regex */
	static const char kelvin[] = "\xe2\x84\xaa";
	size_t i, j;
	char err[200];

	(void)state;
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		struct sq_filter f;

		sq_filter_init(&f);
		if (sq_filter_set(&f, pats[i], &sq_view_jobs, err,
				  sizeof(err)) == -1)
			continue;
		for (j = 0; j < sizeof(texts) / sizeof(texts[0]); j++) {
			const char *x = texts[j];
			int want = sq_filter_row(&f, NULL, x);

			if (sq_filter_row_text(&f, NULL, x, strlen(x), 1) !=
			    want)
				fail_msg("/%s/ on '%s': %d", pats[i], x, want);
		}
		assert_int_equal(
		    sq_filter_row_text(&f, NULL, kelvin, strlen(kelvin), 0),
		    sq_filter_row(&f, NULL, kelvin));
		sq_filter_free(&f);
	}
	/* longer texts, searched sixteen bytes at a time: each word at
	 * every place of each filler, cut at every length */
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct sq_filter f;
		size_t at, cut, fl;

		sq_filter_init(&f);
		assert_int_equal(sq_filter_set(&f, words[i], &sq_view_jobs, err,
					       sizeof(err)),
				 0);
		for (fl = 0; fl < sizeof(fill) / sizeof(fill[0]); fl++) {
			for (at = 0; at < 40; at++) {
				char x[64];

				snprintf(x, sizeof(x), "%.*s%s%s", (int)at,
					 fill[fl], words[(i + fl) % 4],
					 fill[fl] + at);
				for (cut = 0; cut <= strlen(x); cut++) {
					char y[64];
					int want;

					snprintf(y, sizeof(y), "%.*s", (int)cut,
						 x);
					want = sq_filter_row(&f, NULL, y);
					if (sq_filter_row_text(&f, NULL, y, cut,
							       1) != want)
						fail_msg("/%s/ on '%s': %d",
							 words[i], y, want);
				}
			}
		}
		sq_filter_free(&f);
	}
}

/* sq_filter_lit_marks over strings back to back: each marked when it
 * contains the literal, as a search of that string alone says; strings
 * of every length around the sixteen-byte blocks, hits near each other
 * and far apart. */
static void
test_filter_lit_marks(void **state)
{
	static const char *const pats[] = { "user1", "USER1", "u",  "1",
					    "s.r",   "ab?c",  "x@", "!u1" };
	static char buf[600 * 72];
	char err[200];
	uint32_t start[600];
	unsigned char mark[600];
	size_t n = 0, len = 0, i, k;

	(void)state;
	while (n < 590) {
		size_t l = rnd(70), j;

		start[n] = (uint32_t)len;
		for (j = 0; j < l; j++)
			buf[len + j] = "uUser1x@ .s"[rnd(11)];
		if (rnd(5) == 0 && l >= 5)
			memcpy(buf + len + rnd(l - 4),
			       rnd(2) ? "user1" : "USER1", 5);
		buf[len + l] = '\0';
		len += l + 1;
		n++;
	}
	start[n] = (uint32_t)len;
	for (k = 0; k < sizeof(pats) / sizeof(pats[0]); k++) {
		struct sq_filter f;
		size_t hits, want = 0;

		sq_filter_init(&f);
		assert_int_equal(
		    sq_filter_set(&f, pats[k], &sq_view_jobs, err, sizeof(err)),
		    0);
		assert_true(sq_filter_lit_cells(&f));
		hits = sq_filter_lit_marks(&f, buf, start, n, mark);
		for (i = 0; i < n; i++) {
			const char *x = buf + start[i];
			int has = 0;
			size_t at;

			for (at = 0; at + f.litlen <= strlen(x) && !has; at++)
				has =
				    (f.litfold
					 ? strncasecmp(x + at, f.lit, f.litlen)
					 : strncmp(x + at, f.lit, f.litlen)) ==
				    0;
			if (mark[i] != has)
				fail_msg("/%s/ on '%s': %d", pats[k], x, has);
			want += (size_t)has;
		}
		assert_int_equal(hits, want);
		sq_filter_free(&f);
	}
}

/* A filter worked out per distinct cell (the table's dictionary of each
 * column's values) keeps the rows the plain per-row filter keeps, in the
 * same order: words in either case, inverted, regexes that begin with a
 * word, those that do not (row by row), field terms, a cell beyond ASCII
 * (the Kelvin sign is a caseless k), a row whose text is cut at 4 KB (a
 * word past the cut is not in it), columns with a value per row (job
 * ids: kept row by row past the first 4096). Both all at once and in
 * steps. */
static void
test_filter_by_cells(void **state)
{
	static const char *const filters[] = {
		"alice", "ALICE",      "Carol",       "carol",      "u1",
		"u0?10", "!PENDING",   "!pend",       "sim0",       "sim.*2",
		"a b",   "acct1.*gpu", "@user=alice", "!@user=bob", "k",
		"K",     "8s",         "zzcut",       "x_0",        "^10",
		"1|2",   "\\d+_\\d",   "gres:g",      "RUN",        "run",
		"!sim",  "PRI",        "1000",        "b  ",        "ob  a",
	};
	static const char kelvin[] = "\xe2\x84\xaa"
				     "8s";
	struct sq_snapshot *s = make_jobs(12000);
	size_t *ref = malloc(12000 * sizeof(*ref)), n, k;
	char err[300], longer[512], last[512];
	struct sq_table t;
	int steps;

	(void)state;
	assert_non_null(ref);
	/* a name beyond ASCII; a row of long cells, cut, "zzcut" last */
	((struct sq_job *)sq_snapshot_row(s, 17))->name = kelvin;
	memset(longer, 'q', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	snprintf(last, sizeof(last), "%.*szzcut", 505, longer);
	{
		struct sq_job *j = sq_snapshot_row(s, 40);

		j->name = j->user = j->account = j->partition = j->qos =
		    j->state = j->gres = sq_snapshot_str(s, longer);
		j->nodelist = j->reason = sq_snapshot_str(s, last);
	}
	for (steps = 0; steps < 2; steps++) {
		sq_table_init(&t, &sq_view_jobs);
		t.ops = NULL;
		t.partial_min = steps ? 1 : SIZE_MAX;
		sq_table_set_snapshot(&t, s);
		sq_table_finish(&t);
		sq_table_sort(&t, 2, steps);
		sq_table_finish(&t);
		/* the rows' text (and the cells) made before the first key */
		while (sq_table_warm(&t, 512))
			;
		for (k = 0; k < sizeof(filters) / sizeof(filters[0]); k++) {
			struct sq_filter f;

			sq_filter_init(&f);
			assert_int_equal(sq_filter_set(&f, filters[k], t.def,
						       err, sizeof(err)),
					 0);
			assert_int_equal(
			    sq_table_filter(&t, filters[k], err, sizeof(err)),
			    0);
			sq_table_finish(&t);
			/* the cells answered where they can */
			assert_int_equal(sq_table_dict_match(&t, t.cache) !=
					     NULL,
					 sq_filter_lit_cells(&f));
			n = reference(&t, 2, steps, &f, ref);
			assert_rows(&t, ref, n);
			/* past the cut of row 40's text: in no row */
			if (strcmp(filters[k], "zzcut") == 0)
				assert_int_equal(n, 0);
			sq_filter_free(&f);
		}
		sq_table_free(&t);
	}
	sq_snapshot_unref(s);
	free(ref);
}

/* What the table keeps is for one snapshot and one column set: a new
 * snapshot, other columns or another filter never show the old rows. */
static void
test_cache_invalidation(void **state)
{
	struct sq_snapshot *a = make_jobs(2000), *b = make_jobs(2000);
	size_t *ref = malloc(2000 * sizeof(*ref)), n;
	struct sq_table t;
	struct sq_filter f;
	char err[300];

	(void)state;
	assert_non_null(ref);
	sq_table_init(&t, &sq_view_jobs);
	t.ops = NULL;
	sq_table_set_snapshot(&t, a);
	/* orders and bits made for a */
	sq_table_sort(&t, 1, 0);
	sq_table_sort(&t, 7, 1);
	assert_int_equal(sq_table_filter(&t, "bo", err, sizeof(err)), 0);
	assert_int_equal(sq_table_filter(&t, "bob", err, sizeof(err)), 0);
	assert_int_equal(sq_table_filter(&t, "", err, sizeof(err)), 0);
	/* a new snapshot: the same sorts and filters are made again */
	sq_table_set_snapshot(&t, b);
	sq_table_sort(&t, 1, 0);
	n = reference(&t, 1, 0, NULL, ref);
	assert_rows(&t, ref, n);
	sq_filter_init(&f);
	assert_int_equal(sq_filter_set(&f, "bo", t.def, err, sizeof(err)), 0);
	assert_int_equal(sq_table_filter(&t, "bo", err, sizeof(err)), 0);
	n = reference(&t, 1, 0, &f, ref);
	assert_rows(&t, ref, n);
	sq_filter_free(&f);
	/* another filter, then back: the kept bits of b, not of a */
	assert_int_equal(sq_filter_set(&f, "bob", t.def, err, sizeof(err)), 0);
	assert_int_equal(sq_table_filter(&t, "bob", err, sizeof(err)), 0);
	assert_int_equal(sq_table_filter(&t, "alice", err, sizeof(err)), 0);
	assert_int_equal(sq_table_filter(&t, "bob", err, sizeof(err)), 0);
	sq_table_sort(&t, 7, 1);
	n = reference(&t, 7, 1, &f, ref);
	assert_rows(&t, ref, n);
	/* other columns: the kept bits of "bob" were over the user column */
	assert_int_equal(
	    sq_table_set_columns(&t, "job_id,state,name", err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 0);
	assert_int_equal(
	    sq_table_set_columns(&t, "job_id,user", err, sizeof(err)), 0);
	sq_filter_free(&f);
	assert_int_equal(sq_filter_set(&f, "bob", t.def, err, sizeof(err)), 0);
	n = reference(&t, 7, 1, &f, ref);
	assert_true(n > 0);
	assert_rows(&t, ref, n);
	sq_filter_free(&f);
	/* back to a: its orders were forgotten, not reused */
	sq_table_set_snapshot(&t, a);
	assert_int_equal(sq_table_filter(&t, "", err, sizeof(err)), 0);
	n = reference(&t, 7, 1, NULL, ref);
	assert_rows(&t, ref, n);
	sq_table_free(&t);
	sq_snapshot_unref(a);
	sq_snapshot_unref(b);
	free(ref);
}

/* The cursor stays on its job through sorts, filters and a new snapshot
 * (found by its snapshot row while the snapshot stays, by its id after). */
static void
test_cursor_follows(void **state)
{
	unsigned long seed = rnd_state;
	struct sq_snapshot *a = make_jobs(1500), *b;
	struct sq_table t;
	char id[256], err[300];
	size_t k;

	(void)state;
	/* b: the same jobs, another snapshot */
	rnd_state = seed;
	b = make_jobs(1500);
	sq_table_init(&t, &sq_view_jobs);
	t.ops = NULL;
	sq_table_set_snapshot(&t, a);
	sq_table_goto(&t, 700);
	snprintf(id, sizeof(id), "%s", t.cur_id);
	for (k = 1; k < 9; k++) {
		char now[256];

		sq_table_sort(&t, (int)k, (int)(k % 2));
		sq_table_id(&t, sq_table_cur(&t), now, sizeof(now));
		assert_string_equal(now, id);
	}
	/* filtered out: the cursor stays in range; back: on its job again */
	assert_int_equal(sq_table_filter(&t, "@job_id=1", err, sizeof(err)), 0);
	assert_true(t.cur < t.nrows || t.nrows == 0);
	assert_int_equal(sq_table_filter(&t, "", err, sizeof(err)), 0);
	/* the id was kept while the filter hid the row */
	assert_string_equal(t.cur_id, id);
	sq_table_id(&t, sq_table_cur(&t), err, sizeof(err));
	assert_string_equal(err, id);
	/* a new snapshot: the same job id found again */
	sq_table_set_snapshot(&t, b);
	sq_table_id(&t, sq_table_cur(&t), err, sizeof(err));
	assert_string_equal(err, id);
	/* the cursor moved by hand, then a sort: it follows the new row */
	sq_table_goto(&t, 3);
	snprintf(id, sizeof(id), "%s", t.cur_id);
	sq_table_sort(&t, 2, 0);
	sq_table_id(&t, sq_table_cur(&t), err, sizeof(err));
	assert_string_equal(err, id);
	sq_table_free(&t);
	sq_snapshot_unref(a);
	sq_snapshot_unref(b);
}

/* Job arrays: every member right under its group's first row, folded
 * groups hide their members, and filters that keep the same rows leave
 * the arrangement alone but folding still applies. */
static void
test_arrays_grouped(void **state)
{
	struct sq_snapshot *s = make_jobs(2000);
	struct sq_table t;
	char err[300], id[32];
	size_t i, seen = 0;
	unsigned char *mark = calloc(2000, 1);

	(void)state;
	assert_non_null(mark);
	sq_table_init(&t, &sq_view_jobs);
	sq_table_set_snapshot(&t, s);
	assert_int_equal(t.nrows, 2000);
	for (i = 0; i < t.nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(s, t.rows[i].rec);

		assert_false(mark[t.rows[i].rec]);
		mark[t.rows[i].rec] = 1;
		seen++;
		if (t.rows[i].depth == 1) {
			const struct sq_job *lead;
			size_t k = i;

			while (t.rows[k].depth == 1)
				k--;
			lead = sq_snapshot_row(s, t.rows[k].rec);
			assert_true(t.rows[k].flags & SQ_ROW_HASKIDS);
			assert_int_equal(lead->array_job_id, j->array_job_id);
		}
	}
	assert_int_equal(seen, 2000);
	/* "a" then "ac": every row has an account, nothing moves */
	assert_int_equal(sq_table_filter(&t, "a", err, sizeof(err)), 0);
	assert_int_equal(sq_table_filter(&t, "ac", err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 2000);
	/* fold the first array: its members go, the others stay */
	for (i = 0; i < t.nrows && !(t.rows[i].flags & SQ_ROW_HASKIDS); i++)
		;
	assert_true(i < t.nrows);
	snprintf(id, sizeof(id), "array:%u",
		 ((const struct sq_job *)sq_snapshot_row(s, t.rows[i].rec))
		     ->array_job_id);
	sq_table_set_folded(&t, id, 1);
	sq_table_rebuild(&t);
	assert_true(t.rows[i].flags & SQ_ROW_FOLDED);
	assert_int_equal(t.nrows, 2000 - t.rows[i].hidden);
	/* the same filter again: the fold stays */
	assert_int_equal(sq_table_filter(&t, "acc", err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 2000 - t.rows[i].hidden);
	assert_true(t.rows[i].flags & SQ_ROW_FOLDED);
	sq_table_free(&t);
	sq_snapshot_unref(s);
	free(mark);
}

/* A big table makes its rows in steps: after each keystroke the rows
 * shown are the first of the whole (the same rows, the same order), and
 * once all are made (in idle slices, or at once when something needs
 * them) they are the plain implementation's. Every rebuild goes in steps
 * here (partial_min 1). */
static void
test_partial_vs_reference(void **state)
{
	static const char *const filters[] = {
		"bob",    "u0?10",      "!PENDING", "@user=alice",
		"sim0*2", "acct1.*gpu", "al+i",     "gres:G",
	};
	struct sq_snapshot *s = make_jobs(3000);
	size_t *ref = malloc(3000 * sizeof(*ref)), n, i, k, steps = 0;
	struct sq_table t;
	char err[300];

	(void)state;
	assert_non_null(ref);
	sq_table_init(&t, &sq_view_jobs);
	t.ops = NULL;
	t.partial_min = 1;
	sq_table_set_snapshot(&t, s);
	for (i = 0; i < sq_view_jobs.ncols; i += 3) {
		int desc;

		for (desc = 0; desc < 2; desc++) {
			sq_table_sort(&t, (int)i, desc);
			n = reference(&t, (int)i, desc, NULL, ref);
			assert_true(t.pending);
			assert_true(t.nrows <= n);
			for (k = 0; k < t.nrows; k++)
				assert_int_equal(t.rows[k].rec, ref[k]);
			/* idle slices, or all at once */
			if (desc)
				sq_table_finish(&t);
			while (t.pending) {
				sq_table_warm(&t, 4096);
				steps++;
			}
			assert_rows(&t, ref, n);
		}
	}
	assert_true(steps > 0);
	sq_table_sort(&t, 1, 1);
	for (k = 0; k < sizeof(filters) / sizeof(filters[0]); k++) {
		size_t l, len = strlen(filters[k]);

		/* typed over the rows still being made, then erased */
		for (l = 1; l < 2 * len; l++) {
			char pat[64];
			struct sq_filter f;
			size_t j;

			snprintf(pat, sizeof(pat), "%.*s",
				 (int)(l <= len ? l : 2 * len - l), filters[k]);
			sq_filter_init(&f);
			if (sq_filter_set(&f, pat, t.def, err, sizeof(err)) ==
			    -1)
				continue;
			assert_int_equal(
			    sq_table_filter(&t, pat, err, sizeof(err)), 0);
			n = reference(&t, 1, 1, &f, ref);
			assert_true(t.nrows <= n);
			for (j = 0; j < t.nrows; j++)
				assert_int_equal(t.rows[j].rec, ref[j]);
			if (l % 3 == 0 || l == 2 * len - 1) {
				sq_table_finish(&t);
				assert_false(t.pending);
				assert_rows(&t, ref, n);
			}
			sq_filter_free(&f);
		}
	}
	sq_table_free(&t);
	sq_snapshot_unref(s);
	free(ref);
}

/* Job arrays arranged in steps end as arranged at once; the cursor
 * follows its job through sorts made in steps. */
static void
test_partial_arrays_cursor(void **state)
{
	struct sq_snapshot *s = make_jobs(2500);
	struct sq_table a, b;
	char err[300], id[256], now[256], notme[260];
	size_t i;
	int k;

	(void)state;
	sq_table_init(&a, &sq_view_jobs);
	sq_table_init(&b, &sq_view_jobs);
	b.partial_min = 1;
	sq_table_set_snapshot(&a, s);
	sq_table_set_snapshot(&b, s);
	sq_table_goto(&a, 900);
	sq_table_goto(&b, 900);
	snprintf(id, sizeof(id), "%s", b.cur_id);
	assert_string_equal(a.cur_id, id);
	/* a filter that hides the cursor's job (and few others): the
	 * cursor stays at its place */
	snprintf(notme, sizeof(notme), "!^%s ", id);
	for (k = 0; k < 10; k++) {
		const char *pat = k % 3 == 0   ? "acct1"
				  : k % 3 == 1 ? ""
					       : notme;

		size_t before;

		/* both from the same place: no filter, the cursor on the job */
		assert_int_equal(sq_table_filter(&a, "", err, sizeof(err)), 0);
		assert_int_equal(sq_table_filter(&b, "", err, sizeof(err)), 0);
		sq_table_finish(&b);
		for (i = 0; i < a.nrows; i++) {
			sq_table_id(&a, sq_snapshot_row(s, a.rows[i].rec), now,
				    sizeof(now));
			if (strcmp(now, id) == 0)
				break;
		}
		assert_true(i < a.nrows);
		sq_table_goto(&a, i);
		sq_table_goto(&b, i);
		before = b.cur;
		sq_table_sort(&a, k, k % 2);
		sq_table_sort(&b, k, k % 2);
		assert_int_equal(sq_table_filter(&a, pat, err, sizeof(err)), 0);
		assert_int_equal(sq_table_filter(&b, pat, err, sizeof(err)), 0);
		assert_true(b.pending);
		sq_table_finish(&b);
		assert_int_equal(a.nrows, b.nrows);
		if (pat == notme) {
			/* its job hidden: the cursor stays where it was
			 * before the keys that were made in one go (the sort
			 * did not move it first) */
			assert_true(before > SQ_TABLE_FIRST_ROWS);
			assert_int_equal(b.cur, before < b.nrows ? before
								 : b.nrows - 1);
		} else {
			assert_int_equal(a.cur, b.cur);
			sq_table_id(&b, sq_table_cur(&b), now, sizeof(now));
			assert_string_equal(now, id);
		}
		for (i = 0; i < a.nrows; i++) {
			assert_int_equal(a.rows[i].rec, b.rows[i].rec);
			assert_int_equal(a.rows[i].depth, b.rows[i].depth);
			assert_int_equal(a.rows[i].flags, b.rows[i].flags);
			assert_int_equal(a.rows[i].hidden, b.rows[i].hidden);
		}
	}
	sq_table_free(&a);
	sq_table_free(&b);
	sq_snapshot_unref(s);
}

/* A big snapshot's orders come from the sort thread: the same as sorting
 * on the spot, both ways, asked for while the thread is still at work
 * and after it is done. */
static void
test_sort_thread(void **state)
{
	size_t n = SQ_TABLE_PREP_MIN + 3000, i, m;
	struct sq_snapshot *s = make_jobs(n);
	size_t *ref = malloc(n * sizeof(*ref));
	struct sq_table t;
	int pass;

	(void)state;
	assert_non_null(ref);
	sq_table_init(&t, &sq_view_jobs);
	t.ops = NULL;
	t.partial_min = SIZE_MAX;
	sq_table_set_snapshot(&t, s);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < sq_view_jobs.ncols; i += 4) {
			sq_table_sort(&t, (int)i, pass);
			m = reference(&t, (int)i, pass, NULL, ref);
			assert_rows(&t, ref, m);
		}
		assert_true(sq_table_sorts_wait(&t) >= 0);
	}
	/* a new snapshot while the thread works on the old one */
	sq_table_set_snapshot(&t, s);
	sq_snapshot_unref(s);
	s = make_jobs(n);
	sq_table_set_snapshot(&t, s);
	sq_table_sort(&t, 1, 1);
	m = reference(&t, 1, 1, NULL, ref);
	assert_rows(&t, ref, m);
	sq_table_free(&t);
	sq_snapshot_unref(s);
	free(ref);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strtab),
		cmocka_unit_test(test_strtab_short),
		cmocka_unit_test(test_count_lines),
		cmocka_unit_test(test_col_int),
		cmocka_unit_test(test_parsers_share),
		cmocka_unit_test(test_order_flip),
		cmocka_unit_test(test_table_vs_reference),
		cmocka_unit_test(test_filter_reordered),
		cmocka_unit_test(test_widths_kept),
		cmocka_unit_test(test_filter_literal),
		cmocka_unit_test(test_filter_lit_marks),
		cmocka_unit_test(test_filter_by_cells),
		cmocka_unit_test(test_cache_invalidation),
		cmocka_unit_test(test_cursor_follows),
		cmocka_unit_test(test_arrays_grouped),
		cmocka_unit_test(test_partial_vs_reference),
		cmocka_unit_test(test_partial_arrays_cursor),
		cmocka_unit_test(test_sort_thread),
		cmocka_unit_test(test_natcmp_oracle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
