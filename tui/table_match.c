/*
 * table_match.c - which snapshot rows pass the table's filter: one bit per
 * row, kept for the last few filter texts (a letter typed or erased in a
 * plain word starts from the bits before it), made in idle slices on a
 * big table. Split from table_rows.c (sort orders and the rows' text).
 * UI thread only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/query/filter.h"
#include "tui/table.h"
#include "tui/table_int.h"

/* Text s (l bytes, not TEXT_AMBIG, in the order of c->tcols) with its
 * cells in the shown order into buf: its length. */
static size_t
reorder(const struct sq_table *t, const struct sq_table_cache *c, const char *s,
	size_t l, char *buf)
{
	const char *at[SQ_TABLE_MAX_COLS], *end = s + l, *p = s;
	size_t len[SQ_TABLE_MAX_COLS], o = 0;
	int k;

	/* no cell has two spaces in a row or ends with a space: the first
	 * two spaces end the cell */
	for (k = 0; k < c->tncols; k++) {
		const char *q = p;

		while (q + 1 < end && !(q[0] == ' ' && q[1] == ' '))
			q++;
		if (q + 1 >= end)
			q = end;
		at[k] = p;
		len[k] = (size_t)(q - p);
		p = q + 2 < end ? q + 2 : end;
	}
	for (k = 0; k < t->ncols; k++) {
		int j = c->tperm[k];

		if (k > 0) {
			buf[o++] = ' ';
			buf[o++] = ' ';
		}
		memcpy(buf + o, at[j], len[j]);
		o += len[j];
	}
	buf[o] = '\0';
	return o;
}

int
sq_table_row_passes(struct sq_table *t, const struct sq_table_cache *c,
		    size_t i)
{
	const void *rec = sq_snapshot_row(t->snap, i);
	char text[TEXT_ROW];

	if (t->filter.re == NULL)
		return sq_filter_row(&t->filter, rec, "");
	if (c != NULL && c->text_ok) {
		uint32_t fl = c->tlen[i];
		size_t l = fl & TEXT_LEN;
		int asc = !(fl & TEXT_UTF8);

		if (c->tsame || (t->filter.ofree && !(fl & TEXT_CUT)))
			return sq_filter_row_text(&t->filter, rec, c->trow[i],
						  l, asc);
		if (!(fl & TEXT_AMBIG)) {
			if (!sq_filter_may_match(&t->filter, c->trow[i], l,
						 asc))
				return t->filter.invert;
			l = reorder(t, c, c->trow[i], l, text);
			return sq_filter_row_text(&t->filter, rec, text, l,
						  asc);
		}
	}
	sq_table_rowtext(t, rec, text, sizeof(text));
	return sq_filter_row(&t->filter, rec, text);
}

/* A filter that is a plain word: no regex syntax, no '!' or '@'. Adding
 * a letter to one can only drop rows; taking one away can only add. */
static int
literal(const char *f)
{
	if (*f == '\0' || *f == '!' || *f == '@')
		return 0;
	return strpbrk(f, "\\^$.|?*+()[]{}") == NULL;
}

/* The bits of filter text cur from the kept ones: 1 when found. */
static int
match_kept(struct sq_table_cache *c, const char *cur, int *lru)
{
	int k;

	*lru = -1;
	for (k = 0; k < NMATCHES; k++) {
		if (c->mat[k].ok && strcmp(c->mat[k].text, cur) == 0) {
			c->mat[k].used = ++c->tick;
			c->match = c->mat[k].bits;
			c->mcur = k;
			c->match_ok = 1;
			snprintf(c->mtext, sizeof(c->mtext), "%s", cur);
			return 1;
		}
		if (k != c->mcur || !c->match_ok) {
			if (*lru < 0 || !c->mat[k].ok ||
			    (c->mat[*lru].ok &&
			     c->mat[k].used < c->mat[*lru].used))
				*lru = k;
		}
	}
	return 0;
}

/* For a regex with a literal start (acct03 of acct03.*batch): the kept
 * bits of that plain word, a superset of the rows the regex matches
 * (before inversion), or NULL. Not those of slot lru (being replaced). */
static const unsigned char *
lit_bits(const struct sq_table_cache *c, const struct sq_filter *f, int lru)
{
	int k;

	if (f->re == NULL || f->litall || f->litlen == 0)
		return NULL;
	for (k = 0; k < NMATCHES; k++) {
		if (k != lru && c->mat[k].ok &&
		    strlen(c->mat[k].text) == f->litlen &&
		    memcmp(c->mat[k].text, f->lit, f->litlen) == 0 &&
		    literal(c->mat[k].text))
			return c->mat[k].bits;
	}
	return NULL;
}

/* The bits of slot c->mslot are made: they are the current ones. */
static void
match_done(struct sq_table *t, struct sq_table_cache *c)
{
	int k = c->mslot;

	c->mbusy = 0;
	c->mat[k].ok = 1;
	c->mat[k].ofree = t->filter.ofree;
	c->mat[k].used = ++c->tick;
	snprintf(c->mat[k].text, sizeof(c->mat[k].text), "%s", t->filter.text);
	c->match = c->mat[k].bits;
	c->mcur = k;
	c->match_ok = 1;
	snprintf(c->mtext, sizeof(c->mtext), "%s", t->filter.text);
}

/* A plain word's bits from the rows with a cell that has it (dict, nb
 * bytes): those (or the others, inverted), but the rows whose text was
 * cut, which are tested on what the text holds. */
static void
by_cells(struct sq_table *t, struct sq_table_cache *c,
	 const unsigned char *dict, unsigned char *bits, size_t nb)
{
	const uint32_t *cut;
	size_t ncut = sq_table_dict_cuts(c, &cut), b, i;

	for (b = 0; b < nb; b++)
		bits[b] = t->filter.invert ? (unsigned char)~dict[b] : dict[b];
	for (i = 0; i < ncut; i++) {
		unsigned char bit = (unsigned char)(1u << (cut[i] % 8));

		if (sq_table_row_passes(t, c, cut[i]))
			bits[cut[i] / 8] |= bit;
		else
			bits[cut[i] / 8] &= (unsigned char)~bit;
	}
}

/*
 * One bit per snapshot row: does it pass the filter? Made in steps
 * (match_begin, then match_step until it returns 1) so that a big
 * table makes them in idle slices; sq_table_match_build does all at once.
 * match_begin: 1 when the bits are there already (c->match), 0 when
 * begun (c->mbusy), -1 without memory.
 */
int
sq_table_match_begin(struct sq_table *t, struct sq_table_cache *c)
{
	size_t n = t->snap->nrows, nb = n / 8 + 1;
	const char *cur = t->filter.text;
	unsigned char *bits;
	int k, lru;

	c->mbusy = 0;
	if (!sq_table_same_cols(t, c->mcols, c->mncols)) {
		/* the text a regex ran over changed: the same columns in
		 * another order keep the answers that do not depend on it */
		int perm = sq_table_same_set(t, c->mcols, c->mncols);

		for (k = 0; k < NMATCHES; k++) {
			if (!perm || !c->mat[k].ofree)
				c->mat[k].ok = 0;
		}
		if (c->match_ok && !c->mat[c->mcur].ok)
			c->match_ok = 0;
		c->mncols = t->ncols;
		memcpy(c->mcols, t->cols, sizeof(c->mcols));
	}
	if (c->match_ok && strcmp(c->mtext, cur) == 0)
		return 1;
	if (match_kept(c, cur, &lru))
		return 1;
	/* one letter typed or erased in a plain word: the rows that matched
	 * before are all the candidates (typed), or all match still (erased) */
	c->mgrow = c->mshrink = 0;
	if (c->match_ok && literal(c->mtext) && literal(cur)) {
		size_t lo = strlen(c->mtext), ln = strlen(cur);

		c->mgrow = ln > lo && strncmp(cur, c->mtext, lo) == 0;
		c->mshrink = ln < lo && strncmp(cur, c->mtext, ln) == 0;
	}
	c->mat[lru].ok = 0;
	bits = sq_table_grow(c->mat[lru].bits, &c->mat[lru].cap, nb);
	c->mat[lru].bits = bits;
	if (bits == NULL) {
		c->match_ok = 0;
		return -1;
	}
	c->match_ok = 0;
	c->mslot = lru;
	c->mnext = 0;
	if (c->mgrow || c->mshrink)
		memcpy(bits, c->match, nb);
	else
		memset(bits, 0, nb);
	c->mcand = c->mgrow || c->mshrink ? NULL : lit_bits(c, &t->filter, lru);
	/* worked out per distinct cell at the first step (the first rows
	 * of a big table are found row by row before it) */
	c->mdict = sq_table_dict_ready(t, c);
	c->mbusy = 1;
	return 0;
}

/* The first step of bits that sq_table_dict_ready: the rows with a cell
 * that has the literal, worked out per distinct cell, are the answer of
 * a plain word (1: done) and the candidates of a regex that begins with
 * one (0: the regex then runs on those). */
static int
by_dict(struct sq_table *t, struct sq_table_cache *c, unsigned char *bits,
	size_t nb)
{
	const unsigned char *dict = sq_table_dict_match(t, c);

	c->mdict = 0;
	if (dict == NULL)
		return 0; /* as begun */
	if (t->filter.litall) {
		by_cells(t, c, dict, bits, nb);
		match_done(t, c);
		return 1;
	}
	c->mgrow = c->mshrink = 0;
	memset(bits, 0, nb);
	c->mcand = dict;
	return 0;
}

/* Up to max more bytes (eight rows each) of the bits begun: 1 when
 * they are complete. */
int
sq_table_match_step(struct sq_table *t, struct sq_table_cache *c, size_t max)
{
	size_t n = t->snap->nrows, nb = n / 8 + 1, i, b, end;
	unsigned char *bits = c->mat[c->mslot].bits;
	const unsigned char *cand = c->mcand;

	if (t->filter.re != NULL)
		sq_table_build_text(t, c, SIZE_MAX);
	sq_table_text_view(t, c);
	if (c->mdict && c->mnext == 0 && by_dict(t, c, bits, nb))
		return 1;
	cand = c->mcand;
	end = max < nb - c->mnext ? c->mnext + max : nb;
	/* eight rows at a time: a byte of rows with nothing to find out
	 * (no candidate) costs one test */
	for (b = c->mnext; b < end; b++) {
		unsigned char todo = c->mgrow     ? bits[b]
				     : c->mshrink ? (unsigned char)~bits[b]
						  : 0xff;
		int j;

		if (cand != NULL) {
			/* not even the literal: no match, so the inverse */
			unsigned char no = todo & (unsigned char)~cand[b];

			if (t->filter.invert)
				bits[b] |= no;
			else
				bits[b] &= (unsigned char)~no;
			todo &= cand[b];
		}
		for (j = 0; todo != 0; j++, todo >>= 1) {
			unsigned char bit = (unsigned char)(1u << j);

			i = b * 8 + (size_t)j;
			if (!(todo & 1) || i >= n)
				continue;
			if (sq_table_row_passes(t, c, i))
				bits[b] |= bit;
			else
				bits[b] &= (unsigned char)~bit;
		}
	}
	c->mnext = end;
	if (end < nb)
		return 0;
	match_done(t, c);
	return 1;
}

void
sq_table_match_build(struct sq_table *t, struct sq_table_cache *c)
{
	if (sq_table_match_begin(t, c) == 0)
		sq_table_match_step(t, c, SIZE_MAX);
}

int
sq_table_match_out(const struct sq_table *t, const struct sq_table_cache *c,
		   size_t rec)
{
	return sq_filter_active(&t->filter) && c->match_ok && !c->mbusy &&
	       c->snap == t->snap && rec < t->snap->nrows &&
	       strcmp(c->mtext, t->filter.text) == 0 &&
	       !((c->match[rec / 8] >> (rec % 8)) & 1);
}
