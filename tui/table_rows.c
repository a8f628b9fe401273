/*
 * table_rows.c - which snapshot rows the table shows, in what order, as
 * cheaply as a keystroke needs at 100,000 jobs and more: sort orders,
 * filter bits and the rows' text kept per snapshot (table_int.h), reused
 * by the next rebuild. UI thread only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/query/filter.h"
#include "core/query/order.h"
#include "core/base/util.h"
#include "core/base/sanitize.h"
#include "core/query/when.h"
#include "session/plan.h"
#include "tui/table.h"
#include "tui/table_int.h"
#include "tui/table_prep.h"
#include "tui/views.h"

static void text_drop(struct sq_table_cache *c);

void
sq_table_cache_reset(struct sq_table_cache *c)
{
	int i;

	for (i = 0; i < NORDERS; i++)
		c->ord[i].ok = 0;
	for (i = 0; i < NMATCHES; i++)
		c->mat[i].ok = 0;
	c->order = NULL;
	c->order_ok = 0;
	c->match = NULL;
	c->match_ok = 0;
	c->pre_ok = 0;
	c->cur_ok = 0;
	c->wncols = 0; /* no widths kept */
	text_drop(c);
	c->snap = NULL;
}

void
sq_table_cache_drop(struct sq_table_cache *c)
{
	int i;

	text_drop(c);
	sq_table_prep_free(c->prep);
	sq_order_ws_free(&c->ws);
	for (i = 0; i < NORDERS; i++)
		free(c->ord[i].v);
	for (i = 0; i < NMATCHES; i++)
		free(c->mat[i].bits);
	free(c->trow);
	free(c->tlen);
	free(c->pre);
	free(c->pre2);
	free(c->wkey);
	free(c->wval);
	memset(c, 0, sizeof(*c));
}

struct sq_table_cache *
sq_table_cache_get(struct sq_table *t)
{
	if (t->cache == NULL)
		t->cache = calloc(1, sizeof(*t->cache));
	if (t->cache != NULL && t->cache->snap != t->snap) {
		sq_table_cache_reset(t->cache);
		t->cache->snap = t->snap;
	}
	return t->cache;
}

void *
sq_table_grow(void *p, size_t *cap, size_t n)
{
	void *q;

	if (*cap >= n)
		return p;
	free(p);
	*cap = 0;
	q = malloc(n);
	if (q != NULL)
		*cap = n;
	return q;
}

int
sq_table_same_cols(const struct sq_table *t, const int *cols, int ncols)
{
	return ncols == t->ncols &&
	       memcmp(cols, t->cols, (size_t)ncols * sizeof(*cols)) == 0;
}

int
sq_table_same_set(const struct sq_table *t, const int *cols, int ncols)
{
	int i, j;

	if (ncols != t->ncols)
		return 0;
	for (i = 0; i < ncols; i++) {
		for (j = 0; j < ncols && t->cols[j] != cols[i]; j++)
			;
		if (j == ncols)
			return 0;
	}
	return 1;
}

/* Sort every snapshot row by the sort column into c->order: one of the
 * orders kept, or the least recently used one made again. */
static void
build_order(struct sq_table *t, struct sq_table_cache *c)
{
	size_t n = t->snap->nrows;
	int i, lru = 0;

	if (c->order_ok && c->sort == t->sort && c->desc == t->sort_desc)
		return;
	c->order = NULL;
	c->order_ok = 0;
	c->sort = t->sort;
	c->desc = t->sort_desc;
	if (t->sort < 0 || n < 2) {
		c->order_ok = 1;
		return;
	}
	if (n > UINT32_MAX)
		return;
	/* made on the sort thread: used where it is */
	if (!t->sort_desc && (c->order = (uint32_t *)sq_table_prep_asc(
				  c->prep, t->snap, t->sort)) != NULL) {
		c->order_ok = 1;
		return;
	}
	for (i = 0; i < NORDERS; i++) {
		if (c->ord[i].ok && c->ord[i].sort == t->sort &&
		    c->ord[i].desc == t->sort_desc) {
			c->ord[i].used = ++c->tick;
			c->order = c->ord[i].v;
			c->order_ok = 1;
			return;
		}
		if (!c->ord[i].ok ||
		    (c->ord[lru].ok && c->ord[i].used < c->ord[lru].used))
			lru = i;
	}
	c->ord[lru].ok = 0;
	c->ord[lru].v = sq_table_grow(c->ord[lru].v, &c->ord[lru].cap,
				      n * sizeof(*c->ord[lru].v));
	if (c->ord[lru].v == NULL ||
	    (!sq_table_prep_get(c->prep, t->snap, t->sort, t->sort_desc,
				c->ord[lru].v) &&
	     sq_order_rows_ws(t->snap, &t->def->cols[t->sort], t->sort_desc,
			      c->ord[lru].v, &c->ws) == -1))
		/* no memory: snapshot order this time, another try next
		 * time */
		return;
	c->ord[lru].ok = 1;
	c->ord[lru].sort = t->sort;
	c->ord[lru].desc = t->sort_desc;
	c->ord[lru].used = ++c->tick;
	c->order = c->ord[lru].v;
	c->order_ok = 1;
}

static int
ascii(const char *p, size_t l)
{
	size_t i;

	for (i = 0; i < l; i++) {
		if ((unsigned char)p[i] >= 0x80)
			return 0;
	}
	return 1;
}

static void
text_drop(struct sq_table_cache *c)
{
	sq_arena_free(&c->text);
	sq_table_dict_free(c->dict);
	c->dict = NULL;
	free(c->trow);
	free(c->tlen);
	c->trow = NULL;
	c->tlen = NULL;
	c->tdone = 0;
	c->text_ok = 0;
}

/* The text of rec's def columns cols (sq_table_rowtext's for them) into
 * buf; its length, *flags the TEXT_* of it but TEXT_UTF8. Each cell into
 * dict too (as row row), when not NULL. */
static size_t
row_text(const struct sq_table *t, const int *cols, int ncols, const void *rec,
	 char *buf, size_t n, uint32_t *flags, struct sq_table_dict *dict,
	 size_t row)
{
	size_t o = 0;
	int i, full = 0;

	buf[0] = '\0';
	*flags = 0;
	for (i = 0; i < ncols; i++) {
		char raw[SQ_TABLE_CELL], cell[SQ_TABLE_CELL];
		const char *s = sq_when_cell(&t->def->cols[cols[i]], rec, 0,
					     raw, sizeof(raw));
		size_t l;

		sq_sanitize(s ? s : "", cell, sizeof(cell));
		l = strlen(cell);
		sq_table_dict_add(dict, i, row, cell, l);
		if (full)
			continue;
		if (l > 0 && (cell[l - 1] == ' ' || strstr(cell, "  ") != NULL))
			*flags |= TEXT_AMBIG;
		if (!sq_filter_text_add(buf, n, &o, cell, i == 0)) {
			if (dict == NULL)
				break;
			full = 1;
		}
	}
	/* sq_filter_text_add stops (or cuts a cell) only this near the end */
	if (o + 3 >= n) {
		*flags |= TEXT_CUT | TEXT_AMBIG;
		sq_table_dict_cut(dict, row);
	}
	return o;
}

/*
 * The shown text of every snapshot row (sq_table_rowtext), for a regex:
 * made up to max more rows at a time, so the console can make it in idle
 * slices (sq_table_warm) before the first letter of a filter arrives.
 * Made in the order of the columns when it began (c->tcols); other
 * columns make it again, the same in another order do not (text_view).
 * Returns 1 when complete.
 */
int
sq_table_build_text(struct sq_table *t, struct sq_table_cache *c, size_t max)
{
	size_t n = t->snap->nrows, end;
	char row[TEXT_ROW];

	if (c->trow != NULL && !sq_table_same_set(t, c->tcols, c->tncols))
		text_drop(c);
	if (c->text_ok)
		return 1;
	if (c->trow == NULL) {
		c->trow = malloc((n ? n : 1) * sizeof(*c->trow));
		c->tlen = malloc((n ? n : 1) * sizeof(*c->tlen));
		if (c->trow == NULL || c->tlen == NULL) {
			text_drop(c);
			return 0;
		}
		c->tncols = t->ncols;
		memcpy(c->tcols, t->cols, sizeof(c->tcols));
		/* without memory for it, filters go row by row */
		c->dict = sq_table_dict_new(c->tncols, n);
	}
	end = max < n - c->tdone ? c->tdone + max : n;
	for (; c->tdone < end; c->tdone++) {
		const void *rec = sq_snapshot_row(t->snap, c->tdone);
		uint32_t fl;
		size_t l = row_text(t, c->tcols, c->tncols, rec, row,
				    sizeof(row), &fl, c->dict, c->tdone);
		char *p = sq_arena_strndup(&c->text, row, l);

		if (p == NULL) {
			text_drop(c);
			return 0;
		}
		c->trow[c->tdone] = p;
		c->tlen[c->tdone] =
		    (uint32_t)l | fl | (ascii(p, l) ? 0 : TEXT_UTF8);
	}
	if (c->tdone < n)
		return 0;
	c->text_ok = 1;
	return 1;
}

int
sq_table_cache_warm(struct sq_table *t, size_t rows)
{
	struct sq_table_cache *c;

	if (t->snap == NULL)
		return 0;
	c = sq_table_cache_get(t);
	if (c == NULL)
		return 0;
	if (sq_table_build_text(t, c, rows))
		return 0;
	/* no memory for it: nothing more to do in idle time */
	return c->trow != NULL;
}

void
sq_table_text_view(struct sq_table *t, struct sq_table_cache *c)
{
	int k, j;

	if (c->trow == NULL)
		return;
	c->tsame = sq_table_same_cols(t, c->tcols, c->tncols);
	for (k = 0; !c->tsame && k < t->ncols; k++) {
		for (j = 0; j < c->tncols && c->tcols[j] != t->cols[k]; j++)
			;
		c->tperm[k] = j;
	}
}

/* Is c->pre (n rows) every row in sort order? */
static int
all_rows(const struct sq_table_cache *c, size_t n)
{
	size_t i;

	if (c->order != NULL)
		return memcmp(c->pre, c->order, n * sizeof(*c->pre)) == 0;
	for (i = 0; i < n; i++) {
		if (c->pre[i] != i)
			return 0;
	}
	return 1;
}

/* The sorted rows that pass the filter into c->pre2, up to max more
 * places of the order at a time (c->pnext: the next, 0 to begin; c->pn:
 * the rows kept so far): 1 when complete (pre_swap makes them c->pre),
 * 0 while not, -1 without memory. */
static int
pre_step(struct sq_table *t, struct sq_table_cache *c, size_t max)
{
	size_t n = t->snap->nrows, i, end;
	uint32_t *pre;

	if (c->pnext == 0) {
		c->pn = 0;
		pre = sq_table_grow(c->pre2, &c->pcap2,
				    (n ? n : 1) * sizeof(*pre));
		c->pre2 = pre;
		if (pre == NULL)
			return -1;
	}
	pre = c->pre2;
	end = max < n - c->pnext ? c->pnext + max : n;
	if (c->match_ok) {
		/* the bits are there: every row written, the next one over
		 * it unless it passes (no branch to mispredict on a filter
		 * that keeps half the rows; pn <= i < n) */
		const unsigned char *m = c->match;
		size_t pn = c->pn;

		for (i = c->pnext; i < end; i++) {
			uint32_t rec =
			    c->order != NULL ? c->order[i] : (uint32_t)i;

			pre[pn] = rec;
			pn += (m[rec / 8] >> (rec % 8)) & 1;
		}
		c->pn = pn;
	} else {
		for (i = c->pnext; i < end; i++) {
			size_t rec = c->order != NULL ? c->order[i] : i;

			if (sq_table_row_passes(t, c, rec))
				pre[c->pn++] = (uint32_t)rec;
		}
	}
	c->pnext = end;
	if (end < n)
		return 0;
	c->pnext = 0;
	return 1;
}

/* c->pre2's rows (c->pn) become the shown ones, c->pre. */
static void
pre_swap(struct sq_table_cache *c)
{
	uint32_t *sw = c->pre;
	size_t swc = c->pcap;

	c->pre = c->pre2;
	c->pcap = c->pcap2;
	c->pre2 = sw;
	c->pcap2 = swc;
	c->npre = c->pn;
	c->pre_ok = 1;
	c->pre_all = 0;
}

/* The sorted rows that pass the filter into c->pre2 (then swapped into
 * c->pre); -1 without memory. 1 when filter_only and they are the rows
 * of the last rebuild (c->pre), in the same order. */
static int
build_pre(struct sq_table *t, struct sq_table_cache *c, int filt,
	  int filter_only)
{
	size_t n = t->snap->nrows;

	if (!filt) {
		/* every row in order: were they all shown already? */
		int same = filter_only && c->pre_ok &&
			   (c->pre_all || (c->npre == n && all_rows(c, n)));

		c->pre_ok = c->pre_all = 1;
		c->npre = n;
		return same;
	}
	if (n > UINT32_MAX)
		return -1;
	c->pnext = 0;
	if (pre_step(t, c, SIZE_MAX) == -1)
		return -1;
	if (filter_only && c->pre_ok && !c->pre_all && c->pn == c->npre &&
	    memcmp(c->pre2, c->pre, c->pn * sizeof(*c->pre)) == 0)
		return 1;
	pre_swap(c);
	return 0;
}

/* A big snapshot: its orders by every column on the sort thread, the
 * sort column's first (the rebuild after this one takes it), then the
 * shown ones. */
static void
prep(struct sq_table *t, struct sq_table_cache *c)
{
	int cols[SQ_TABLE_MAX_COLS], n = 0, i;

	if (t->snap->nrows < SQ_TABLE_PREP_MIN) {
		if (c->prep != NULL)
			sq_table_prep_start(c->prep, NULL, t->def, cols, 0);
		return;
	}
	if (c->prep == NULL && (c->prep = sq_table_prep_new()) == NULL)
		return;
	/* the sort column, the chosen ones, then the others (:sort) */
	if (t->sort >= 0)
		cols[n++] = t->sort;
	for (i = 0; i < t->nbase && n < SQ_TABLE_MAX_COLS; i++) {
		if (t->base[i] != t->sort)
			cols[n++] = t->base[i];
	}
	for (i = 0; i < (int)t->def->ncols && n < SQ_TABLE_MAX_COLS; i++) {
		int k;

		for (k = 0; k < n && cols[k] != i; k++)
			;
		if (k == n)
			cols[n++] = i;
	}
	/* an order of the thread's may be in use: it makes them anew */
	c->order = NULL;
	c->order_ok = 0;
	sq_table_prep_start(c->prep, t->snap, t->def, cols, n);
}

double
sq_table_sorts_wait(struct sq_table *t)
{
	return t->cache != NULL ? sq_table_prep_wait(t->cache->prep) : 0;
}

void
sq_table_cache_reserve(struct sq_table *t)
{
	struct sq_table_cache *c;
	size_t n;
	int i;

	if (t->snap == NULL || t->snap->nrows < 2) {
		/* nothing to sort: the thread lets its last snapshot go */
		if (t->cache != NULL && t->cache->prep != NULL)
			sq_table_prep_start(t->cache->prep, NULL, t->def, NULL,
					    0);
		return;
	}
	c = sq_table_cache_get(t);
	n = t->snap->nrows;
	if (c == NULL)
		return;
	prep(t, c);
	if (sq_order_ws_reserve(&c->ws, n) == -1)
		return;
	/* the kept sort orders' pages too: a sort column's first order
	 * would fault them in (a millisecond a megabyte on some machines) */
	for (i = 0; i < NORDERS; i++) {
		if (c->ord[i].cap >= n * sizeof(*c->ord[i].v))
			continue;
		c->ord[i].ok = 0;
		c->ord[i].v = sq_table_grow(c->ord[i].v, &c->ord[i].cap,
					    n * sizeof(*c->ord[i].v));
		if (c->ord[i].v != NULL)
			memset(c->ord[i].v, 0, n * sizeof(*c->ord[i].v));
	}
	if (c->pcap2 < n * sizeof(*c->pre2)) {
		c->pre2 =
		    sq_table_grow(c->pre2, &c->pcap2, n * sizeof(*c->pre2));
		if (c->pre2 != NULL)
			memset(c->pre2, 0, n * sizeof(*c->pre2));
	}
}

int
sq_table_cache_rows(struct sq_table *t, struct sq_table_cache *c, int filt,
		    int filter_only)
{
	build_order(t, c);
	sq_table_text_view(t, c);
	if (filt)
		sq_table_match_build(t, c);
	return build_pre(t, c, filt, filter_only);
}

/* ------------------------------------------------------------ big */

/* Does snapshot row rec pass the filter, with what the bits being made
 * (or made) already say? (after match_begin) */
static int
row_test(struct sq_table *t, struct sq_table_cache *c, uint32_t rec)
{
	const unsigned char *bits;
	int bit;

	if (c->match_ok && !c->mbusy)
		return (c->match[rec / 8] >> (rec % 8)) & 1;
	if (!c->mbusy)
		return sq_table_row_passes(t, c, rec);
	bits = c->mat[c->mslot].bits;
	bit = (bits[rec / 8] >> (rec % 8)) & 1;
	if (rec / 8 < c->mnext)
		return bit; /* its byte is made */
	if (c->mgrow && !bit)
		return 0; /* it did not match the shorter word */
	if (c->mshrink && bit)
		return 1; /* it matched the longer one */
	if (c->mcand != NULL && !((c->mcand[rec / 8] >> (rec % 8)) & 1))
		return t->filter.invert;
	return sq_table_row_passes(t, c, rec);
}

/* sq_table_cache_first with the filter's bits made: the rows that pass
 * in order, a block at a time (no branch per row), until the first want
 * are found; the rest goes on from there. */
static int
first_from_bits(struct sq_table *t, struct sq_table_cache *c, size_t want,
		double ms, double t0, uint32_t *out, size_t *nout)
{
	size_t m;
	int r;

	c->pnext = 0;
	do {
		r = pre_step(t, c, 65536);
	} while (r == 0 && c->pn < want && sq_util_now_ms() - t0 <= ms);
	if (r == -1)
		return -1;
	m = c->pn < want ? c->pn : want;
	memcpy(out, c->pre2, m * sizeof(*out));
	if (r == 1)
		pre_swap(c);
	*nout = m;
	return 0;
}

int
sq_table_cache_first(struct sq_table *t, struct sq_table_cache *c, int filt,
		     size_t want, double ms, uint32_t *out, size_t *nout)
{
	size_t n = t->snap->nrows, i, m = 0;
	double t0 = sq_util_now_ms();

	build_order(t, c);
	sq_table_text_view(t, c);
	c->pre_ok = 0;
	c->pnext = 0;
	if (filt && sq_table_match_begin(t, c) == -1)
		return -1;
	if (filt && c->match_ok && !c->mbusy)
		return first_from_bits(t, c, want, ms, t0, out, nout);
	for (i = 0; i < n && m < want; i++) {
		uint32_t rec = c->order != NULL ? c->order[i] : (uint32_t)i;

		if (!filt || row_test(t, c, rec))
			out[m++] = rec;
		/* a rare match: what was found by then, the rest (the bits,
		 * by distinct cells where they can be: soon, so a quarter
		 * of the time looking) in idle slices */
		if ((i & 1023) == 1023 &&
		    sq_util_now_ms() - t0 > (c->mdict ? ms / 4 : ms))
			break;
	}
	*nout = m;
	return 0;
}

int
sq_table_cache_step(struct sq_table *t, struct sq_table_cache *c, int filt,
		    double ms)
{
	double t0 = sq_util_now_ms();
	int notext = 0;

	do {
		if (filt && t->filter.re != NULL && !c->text_ok && !notext) {
			/* the rows' text a regex runs over, first */
			sq_table_build_text(t, c, 4096);
			notext = c->trow == NULL; /* no memory: without */
			continue;
		}
		if (filt && c->mbusy) {
			sq_table_match_step(t, c, 1024);
			continue;
		}
		if (filt) {
			int r = pre_step(t, c, 65536);

			if (r == 1)
				pre_swap(c);
			if (r != 0)
				return r;
			continue;
		}
		if (build_pre(t, c, filt, 0) == -1)
			return -1;
		return 1;
	} while (sq_util_now_ms() - t0 < ms);
	return 0;
}

/* The rows of a scoped view's scope in s as a snapshot of their own (a
 * new reference) when they are one run of s, as the history snapshot
 * appends them; NULL otherwise (the arrangement keeps them row by row). */
struct sq_snapshot *
sq_table_scope_slice(const struct sq_table *t, struct sq_snapshot *s)
{
	size_t first, n;

	if (t->ops == NULL || !t->ops->scoped ||
	    sq_plan_scope_rows(t->def, s, &first, &n) == -1)
		return NULL;
	return sq_snapshot_slice(s, first, n);
}
