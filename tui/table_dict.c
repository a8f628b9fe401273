/*
 * table_dict.c - the rows' cells by column as distinct values, so that a
 * filter whose every match lies within one cell (a word without a space,
 * or a regex beginning with one) is worked out once per distinct value
 * instead of once per row: a million runs have two thousand users, two
 * hundred accounts, ten states. Made with the rows' text (table_rows.c,
 * in idle slices); read by the filter's bits (table_match.c). UI thread
 * only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/query/filter.h"
#include "tui/table.h"
#include "tui/table_int.h"

/* The distinct texts of one column: back to back, NUL-terminated
 * (sq_filter_lit_marks' layout), found again through an open-addressed
 * hash of entry + 1; the entries with bytes beyond ASCII apart (a
 * caseless regex folds more than ASCII there). */
struct dict_col {
	char *buf;
	size_t len, cap;
	uint32_t *start; /* n + 1: start[n] == len */
	size_t n, scap;
	uint32_t *slot;
	size_t nslot;
	uint32_t *wide;
	size_t nwide, wcap;
	/* row i's entry; NULL when each row is its own entry (entry i is
	 * row i): a column of job ids has as many values as rows */
	uint16_t *code;
};

/* A column with more values than half its first DICT_PROBE rows, or
 * than codes hold, keeps each row's cell instead (no hash). */
#define DICT_PROBE 4096
#define DICT_MAX 65535

struct sq_table_dict {
	struct dict_col col[SQ_TABLE_MAX_COLS];
	int ncols, ok;
	size_t nrows;
	uint32_t *cut; /* rows whose text was cut (not all cells in it) */
	size_t ncut, ccap;
	unsigned char *mark; /* scratch: one byte per entry */
	size_t mcap;
	unsigned char *bits; /* the rows with a cell that has the literal */
	size_t bcap;
};

static void
col_free(struct dict_col *d)
{
	free(d->buf);
	free(d->start);
	free(d->slot);
	free(d->wide);
	free(d->code);
	memset(d, 0, sizeof(*d));
}

void
sq_table_dict_free(struct sq_table_dict *d)
{
	int k;

	if (d == NULL)
		return;
	for (k = 0; k < SQ_TABLE_MAX_COLS; k++)
		col_free(&d->col[k]);
	free(d->cut);
	free(d->mark);
	free(d->bits);
	free(d);
}

struct sq_table_dict *
sq_table_dict_new(int ncols, size_t nrows)
{
	struct sq_table_dict *d = calloc(1, sizeof(*d));
	int k;

	if (d == NULL)
		return NULL;
	d->ncols = ncols;
	d->nrows = nrows;
	d->ok = nrows < UINT32_MAX;
	for (k = 0; k < ncols && d->ok; k++) {
		d->col[k].code =
		    malloc((nrows ? nrows : 1) * sizeof(*d->col[k].code));
		d->ok = d->col[k].code != NULL;
	}
	if (!d->ok) {
		sq_table_dict_free(d);
		return NULL;
	}
	return d;
}

/* FNV-1a over 8 bytes at a time (then the rest) */
static uint32_t
hash(const char *s, size_t l)
{
	uint64_t h = 1469598103934665603ull, w;
	size_t i = 0;

	for (; i + 8 <= l; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 1099511628211ull;
	}
	for (; i < l; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return (uint32_t)(h ^ h >> 32);
}

/* The hash twice as big (or its first size): 0, -1 without memory. */
static int
rehash(struct dict_col *d)
{
	size_t ns = d->nslot ? d->nslot * 2 : 1024, e;
	uint32_t *slot = calloc(ns, sizeof(*slot));

	if (slot == NULL)
		return -1;
	for (e = 0; e < d->n; e++) {
		size_t l = d->start[e + 1] - d->start[e] - 1,
		       h = hash(d->buf + d->start[e], l) & (ns - 1);

		while (slot[h] != 0)
			h = (h + 1) & (ns - 1);
		slot[h] = (uint32_t)e + 1;
	}
	free(d->slot);
	d->slot = slot;
	d->nslot = ns;
	return 0;
}

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t nc = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return p;
	while (nc < need)
		nc *= 2;
	q = realloc(p, nc * size);
	if (q != NULL)
		*cap = nc;
	return q;
}

/* Cell (l bytes) as a new entry of d, at the end: 0, -1 without
 * memory. */
static int
append(struct dict_col *d, const char *cell, size_t l)
{
	size_t i;
	void *p;

	if (d->len + l + 1 > UINT32_MAX)
		return -1;
	if ((p = grow(d->buf, &d->cap, d->len + l + 1, 1)) == NULL)
		return -1;
	d->buf = p;
	if ((p = grow(d->start, &d->scap, d->n + 2, sizeof(*d->start))) == NULL)
		return -1;
	d->start = p;
	memcpy(d->buf + d->len, cell, l);
	d->buf[d->len + l] = '\0';
	d->start[d->n] = (uint32_t)d->len;
	d->len += l + 1;
	d->start[d->n + 1] = (uint32_t)d->len;
	for (i = 0; i < l && (unsigned char)cell[i] < 0x80; i++)
		;
	if (i < l) {
		if ((p = grow(d->wide, &d->wcap, d->nwide + 1,
			      sizeof(*d->wide))) == NULL)
			return -1;
		d->wide = p;
		d->wide[d->nwide++] = (uint32_t)d->n;
	}
	d->n++;
	return 0;
}

/* Cell (l bytes) as an entry of d: its number, or -1 without memory. */
static long
intern(struct dict_col *d, const char *cell, size_t l)
{
	size_t h;

	if ((d->n + 1) * 2 > d->nslot && rehash(d) == -1)
		return -1;
	h = hash(cell, l) & (d->nslot - 1);
	for (; d->slot[h] != 0; h = (h + 1) & (d->nslot - 1)) {
		uint32_t e = d->slot[h] - 1;

		if (d->start[e + 1] - d->start[e] - 1 == l &&
		    memcmp(d->buf + d->start[e], cell, l) == 0)
			return (long)e;
	}
	if (append(d, cell, l) == -1)
		return -1;
	d->slot[h] = (uint32_t)d->n;
	return (long)d->n - 1;
}

/* Column d (rows rows so far, of nrows) as one entry per row from now
 * on: its entries put in row order, room made for all rows (no copy of
 * megabytes in a later slice). 0, -1 without memory. */
static int
per_row(struct dict_col *d, size_t rows, size_t nrows)
{
	struct dict_col o = *d;
	size_t i, guess = 0;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < rows; i++)
		guess += o.start[o.code[i] + 1] - o.start[o.code[i]];
	guess = guess / (rows ? rows : 1) * nrows / 4 * 5 + 64;
	d->start = grow(NULL, &d->scap, nrows + 2, sizeof(*d->start));
	d->buf = grow(NULL, &d->cap, guess < UINT32_MAX ? guess : 1, 1);
	if (d->start == NULL || d->buf == NULL) {
		col_free(&o);
		return -1;
	}
	for (i = 0; i < rows; i++) {
		uint32_t e = o.code[i];

		if (append(d, o.buf + o.start[e],
			   o.start[e + 1] - o.start[e] - 1) == -1) {
			col_free(&o);
			return -1;
		}
	}
	col_free(&o);
	return 0;
}

void
sq_table_dict_add(struct sq_table_dict *d, int k, size_t row, const char *cell,
		  size_t l)
{
	struct dict_col *c;
	long e;

	if (d == NULL || !d->ok || k >= d->ncols || row >= d->nrows)
		return;
	c = &d->col[k];
	if (c->code != NULL &&
	    (c->n >= DICT_MAX || (row == DICT_PROBE && c->n * 2 > row)) &&
	    per_row(c, row, d->nrows) == -1) {
		d->ok = 0;
		return;
	}
	if (c->code == NULL) {
		if (append(c, cell, l) == -1)
			d->ok = 0;
		return;
	}
	e = intern(c, cell, l);
	if (e < 0)
		d->ok = 0;
	else
		c->code[row] = (uint16_t)e;
}

void
sq_table_dict_cut(struct sq_table_dict *d, size_t row)
{
	void *p;

	if (d == NULL || !d->ok)
		return;
	p = grow(d->cut, &d->ccap, d->ncut + 1, sizeof(*d->cut));
	if (p == NULL) {
		d->ok = 0;
		return;
	}
	d->cut = p;
	d->cut[d->ncut++] = (uint32_t)row;
}

/* mark[e] for the entries of column d: does entry e have f's literal
 * (litall) / may it hold a match (a regex that begins with it)? The
 * count marked. */
static size_t
col_marks(struct sq_filter *f, struct dict_col *d, unsigned char *mark)
{
	size_t hits = sq_filter_lit_marks(f, d->buf, d->start, d->n, mark), i;

	/* beyond ASCII a caseless regex folds more (the Kelvin sign is a
	 * k): the literal as a regex on the cell, or a candidate */
	for (i = 0; i < d->nwide; i++) {
		uint32_t e = d->wide[i];
		size_t so, eo;
		int m = !f->litall ||
			sq_filter_find(f, d->buf + d->start[e], &so, &eo);

		hits += (size_t)m - mark[e];
		mark[e] = (unsigned char)m;
	}
	return hits;
}

/* Set the bits of the rows whose column-k entry is marked. */
static void
col_rows(const struct sq_table_dict *d, int k, const unsigned char *mark,
	 unsigned char *bits)
{
	const uint16_t *code = d->col[k].code;
	size_t n = d->nrows, b, nb = n / 8 + 1;

	for (b = 0; b < nb; b++) {
		size_t i = b * 8, j, e = i + 8 < n ? i + 8 : n;
		unsigned char v = bits[b];

		if (v == 0xff)
			continue;
		if (code == NULL) {
			for (j = i; j < e; j++)
				v |= (unsigned char)(mark[j] << (j - i));
		} else {
			for (j = i; j < e; j++)
				v |= (unsigned char)(mark[code[j]] << (j - i));
		}
		bits[b] = v;
	}
}

int
sq_table_dict_ready(const struct sq_table *t, const struct sq_table_cache *c)
{
	const struct sq_table_dict *d = c->dict;

	return d != NULL && d->ok && c->text_ok && d->nrows == t->snap->nrows &&
	       d->ncols == c->tncols &&
	       sq_table_same_set(t, c->tcols, c->tncols) &&
	       sq_filter_lit_cells(&t->filter);
}

const unsigned char *
sq_table_dict_match(struct sq_table *t, struct sq_table_cache *c)
{
	struct sq_table_dict *d = c->dict;
	size_t n = t->snap->nrows, nb = n / 8 + 1, most = 1;
	void *p;
	int k;

	if (!sq_table_dict_ready(t, c))
		return NULL;
	for (k = 0; k < d->ncols; k++) {
		if (d->col[k].n > most)
			most = d->col[k].n;
	}
	if ((p = grow(d->mark, &d->mcap, most, 1)) == NULL)
		return NULL;
	d->mark = p;
	if ((p = grow(d->bits, &d->bcap, nb, 1)) == NULL)
		return NULL;
	d->bits = p;
	memset(d->bits, 0, nb);
	for (k = 0; k < d->ncols; k++) {
		size_t hits = col_marks(&t->filter, &d->col[k], d->mark);

		if (hits == 0)
			continue;
		if (hits == d->col[k].n) {
			/* every value has it: every row */
			memset(d->bits, 0xff, nb);
			break;
		}
		col_rows(d, k, d->mark, d->bits);
	}
	if (n % 8 != 0)
		d->bits[nb - 1] &= (unsigned char)((1u << (n % 8)) - 1);
	else
		d->bits[nb - 1] = 0;
	return d->bits;
}

size_t
sq_table_dict_cuts(const struct sq_table_cache *c, const uint32_t **rows)
{
	*rows = c->dict != NULL ? c->dict->cut : NULL;
	return c->dict != NULL ? c->dict->ncut : 0;
}
