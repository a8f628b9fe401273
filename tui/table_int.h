/*
 * table_int.h - what tui/table.c and tui/table_rows.c share: the cache of
 * the work a rebuild did (sort orders, filter bits, the rows' text) that
 * the next keystroke reuses while the snapshot stays. UI thread only.
 */
#ifndef SQ_TABLE_INT_H
#define SQ_TABLE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/arena.h"
#include "core/query/order.h"
#include "tui/table_row.h"

struct sq_snapshot;
struct sq_table;
struct sq_table_dict;

/*
 * At 100,000 jobs, making each row's text or sort key costs much more
 * than matching or comparing it, and a keystroke changes one input of a
 * rebuild only (one more letter of the filter, another sort column). So
 * while the snapshot stays, the table keeps: every snapshot row in sort
 * order for the last few sort columns, one bit per row for the last few
 * filters (over the columns mcols: erasing a letter finds the bits of the
 * shorter pattern again), and the rows' shown text that a regex runs over
 * (for the columns tcols; made only when a regex filter needs it). A new
 * snapshot invalidates them all but keeps their memory: fresh pages cost
 * more than the work at 100,000 rows on some machines, so nothing is
 * allocated per keystroke once the buffers have grown. Without memory for
 * one, rebuild works row by row as if it were not there.
 */
#define NORDERS 4   /* sort orders kept */
#define NMATCHES 16 /* filters' bits kept */

/* c->tlen's flags: the text has bytes beyond ASCII; it was cut at the
 * row buffer's size (it lacks cells or parts); its cells cannot be told
 * apart by the two spaces between them (a cell has two spaces in a row
 * or ends with one) */
#define TEXT_UTF8 0x80000000u
#define TEXT_CUT 0x40000000u
#define TEXT_AMBIG 0x20000000u
#define TEXT_LEN 0x0fffffffu
#define TEXT_ROW 4096 /* bytes of a row's text, as sq_table_search's */
#define WSLOTS 8192   /* rows whose cell widths are kept (half of them) */

struct sq_table_cache {
	const struct sq_snapshot *snap; /* built for (t->snap holds a ref) */
	unsigned long tick;             /* for least recently used */

	struct sq_order_ws ws; /* sq_order_rows' scratch */
	struct {
		uint32_t *v;
		size_t cap;
		int ok, sort, desc;
		unsigned long used;
	} ord[NORDERS];
	uint32_t *order; /* the current one in ord[], NULL: snapshot order */
	int order_ok, sort, desc;

	struct {
		unsigned char *bits; /* bit i: snapshot row i passes */
		size_t cap;
		int ok;
		int ofree; /* its filter's sq_filter.ofree: the bits hold
			    * whatever the order of the columns */
		unsigned long used;
		char text[256]; /* as struct sq_filter's text */
	} mat[NMATCHES];
	unsigned char *match; /* the current one in mat[] */
	int match_ok, mcur;
	char mtext[256];
	int mcols[SQ_TABLE_MAX_COLS], mncols;
	/* bits being made in steps (a big table's idle slices): into slot
	 * mslot, from byte mnext, the kind of step and its candidates */
	int mbusy, mslot, mgrow, mshrink;
	int mdict; /* the first step works them out by cells (table_dict.c) */
	size_t mnext;
	const unsigned char *mcand;

	struct sq_arena text; /* the rows' texts (no realloc: no copies) */
	const char **trow;    /* row i's text */
	uint32_t *tlen;       /* and its length (| TEXT_* flags) */
	size_t tdone; /* rows made so far (sq_table_warm works in slices) */
	int text_ok;
	/* the columns of the texts, in their order; when the shown columns
	 * are the same ones in another order (the width fit moved one), the
	 * texts stay: a filter whose answer does not depend on the order
	 * runs on them as they are, others on each text's cells put in the
	 * shown order (tperm[k]: the cell of shown column k), tsame when
	 * the order is the same (text_view) */
	int tcols[SQ_TABLE_MAX_COLS], tncols;
	int tperm[SQ_TABLE_MAX_COLS], tsame;
	/* the same cells as distinct values per column (table_dict.c),
	 * made with the texts; NULL without memory */
	struct sq_table_dict *dict;

	uint32_t *pre, *pre2; /* the last rebuild's rows before the */
	size_t pcap, pcap2;   /* arrangement, and the scratch of the next */
	size_t npre;
	int pre_ok, pre_all; /* pre_all: all rows, no filter (pre unset) */
	size_t pnext, pn;    /* pre2 being made in steps: next place, rows */

	/* the cells' display widths (at most 255) of the rows
	 * compute_widths measured, for the columns wcols (t->base then)
	 * but time columns (their text moves with the clock): row rec + 1
	 * in wkey[slot] (open addressing, WSLOTS), its widths at
	 * wval[slot * wncols]; all forgotten when it fills up */
	uint32_t *wkey;
	unsigned char *wval;
	size_t wused;
	int wcols[SQ_TABLE_MAX_COLS], wncols;

	/* the sort thread (table_prep.c): the orders by the shown columns
	 * of a big snapshot, made while the UI goes on */
	struct sq_table_prep *prep;

	size_t cur_rec; /* the snapshot row of cur_id, when cur_ok */
	int cur_ok;
	char cur_id[256]; /* t->cur_id when cur_rec was noted */
};

/* The cache for t->snap, reset when it was made for another; NULL on
 * ENOMEM. */
struct sq_table_cache *sq_table_cache_get(struct sq_table *t);
/* Forget what was worked out (a new snapshot); the memory stays. */
void sq_table_cache_reset(struct sq_table_cache *c);
/* Free everything c holds (not c). */
void sq_table_cache_drop(struct sq_table_cache *c);

/* Grow the scratch memory for the rows of t->snap now (a new snapshot),
 * so that keystrokes after it find their pages made; a big one's orders
 * by the shown columns go to the sort thread. */
void sq_table_cache_reserve(struct sq_table *t);
/* The rows of a scoped view's scope in s as a snapshot of their own (a
 * new reference) when they are one run of s; NULL otherwise. */
struct sq_snapshot *sq_table_scope_slice(const struct sq_table *t,
					 struct sq_snapshot *s);

/*
 * Sort order, filter bits and the sorted rows that pass (c->pre, or every
 * row in c->order when c->pre_all; c->npre of them): 0, -1 without memory
 * (then rebuild goes row by row), 1 when filter_only and those are the
 * rows of the last rebuild in the same order.
 */
int sq_table_cache_rows(struct sq_table *t, struct sq_table_cache *c, int filt,
			int filter_only);
/*
 * A big table's rows in steps (table.c): sq_table_cache_first puts the
 * first want sorted rows that pass the filter into out (*nout of them;
 * fewer when ms went by first) and begins what the rest needs;
 * sq_table_cache_step goes on for about ms and returns 1 when c->pre
 * (c->npre rows, or every row in order when c->pre_all) is complete, 0
 * while not; both -1 without memory (then the table rebuilds at once).
 */
int sq_table_cache_first(struct sq_table *t, struct sq_table_cache *c, int filt,
			 size_t want, double ms, uint32_t *out, size_t *nout);
int sq_table_cache_step(struct sq_table *t, struct sq_table_cache *c, int filt,
			double ms);
/* sq_table_warm's text part: up to rows more rows' text. */
int sq_table_cache_warm(struct sq_table *t, size_t rows);
/* Does snapshot row i pass t's filter? (c may be NULL; when not, after
 * sq_table_cache_rows or sq_table_text_view for the current columns) */
void sq_table_text_view(struct sq_table *t, struct sq_table_cache *c);
int sq_table_row_passes(struct sq_table *t, const struct sq_table_cache *c,
			size_t i);

/* Frees the tags and folds (table_marks.c). */
void sq_table_marks_free(struct sq_table *t);

/* table_id.c: the id columns of t's view into t->idcols; is rec the row
 * with this id (as comparing sq_table_id(), without printing it where it
 * can); does t's id name one row only (a job id, a node name: then the
 * cursor's row is found again by its snapshot row while the snapshot
 * stays, without the text of every row before it)? */
void sq_table_pick_idcols(struct sq_table *t);
int sq_table_row_has_id(const struct sq_table *t, const void *rec,
			const char *id);
int sq_table_id_unique(const struct sq_table *t);

/* Shared by table_rows.c and table_match.c. A grow-only buffer *p of
 * *cap bytes made n bytes (contents lost; NULL without memory). */
void *sq_table_grow(void *p, size_t *cap, size_t n);
/* t shows cols (ncols) in that order / the same ones in any order. */
int sq_table_same_cols(const struct sq_table *t, const int *cols, int ncols);
int sq_table_same_set(const struct sq_table *t, const int *cols, int ncols);
/* The rows' text, up to max more rows: 1 when complete (table_rows.c). */
int sq_table_build_text(struct sq_table *t, struct sq_table_cache *c,
			size_t max);
/*
 * The filter's bits (table_match.c): one bit per snapshot row, does it
 * pass. sq_table_match_begin: 1 when there already (c->match), 0 when
 * begun (c->mbusy), -1 without memory; sq_table_match_step: up to max
 * more bytes (eight rows each), 1 when complete; sq_table_match_build:
 * all at once.
 */
int sq_table_match_begin(struct sq_table *t, struct sq_table_cache *c);
int sq_table_match_step(struct sq_table *t, struct sq_table_cache *c,
			size_t max);
void sq_table_match_build(struct sq_table *t, struct sq_table_cache *c);
/* Do the current filter's bits (made) say snapshot row rec does not
 * pass? */
int sq_table_match_out(const struct sq_table *t, const struct sq_table_cache *c,
		       size_t rec);

/*
 * The cells by column as distinct values (table_dict.c), made with the
 * rows' text: sq_table_dict_new for ncols columns of nrows rows (NULL
 * without memory), then each row's cell of column k (its k-th in the
 * text, sanitized) with sq_table_dict_add, and the rows whose text was
 * cut with sq_table_dict_cut.
 */
struct sq_table_dict *sq_table_dict_new(int ncols, size_t nrows);
void sq_table_dict_free(struct sq_table_dict *d);
void sq_table_dict_add(struct sq_table_dict *d, int k, size_t row,
		       const char *cell, size_t l);
void sq_table_dict_cut(struct sq_table_dict *d, size_t row);
/*
 * For a filter that sq_filter_lit_cells: one bit per snapshot row, set
 * when a cell of the row contains the literal (before inversion; with a
 * cell beyond ASCII, when the cell matches the pattern that is the
 * literal, or may hold a match of a longer one). Rows whose text was cut
 * (sq_table_dict_cuts) are to be tested alone. NULL when the cells of
 * the current columns are not all there, or the filter is not of that
 * kind.
 */
const unsigned char *sq_table_dict_match(struct sq_table *t,
					 struct sq_table_cache *c);
/* Would sq_table_dict_match answer (without working it out)? */
int sq_table_dict_ready(const struct sq_table *t,
			const struct sq_table_cache *c);
size_t sq_table_dict_cuts(const struct sq_table_cache *c,
			  const uint32_t **rows);

#endif
