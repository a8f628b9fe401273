/*
 * table.h - the one generic table widget: any struct sq_view_def over a
 * snapshot of its kind. It filters, sorts, tags, keeps the cursor on the
 * same row id across refreshes, chooses columns, and lets a view file
 * re-arrange rows (trees, job arrays) through struct sq_tui_view hooks.
 * The logic is here; drawing is in table_draw.c. UI thread only.
 */
#ifndef SQ_TABLE_H
#define SQ_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/model/snapshot.h"
#include "core/model/view.h"
#include "core/query/filter.h"
#include "tui/table_row.h"

struct sq_tui_view;
struct sq_table_cache;

/* From this many rows on, a keystroke makes the first rows only (the
 * top SQ_TABLE_FIRST_ROWS, in at most SQ_TABLE_SLICE_MS when matches are
 * rare), and the rest comes in idle slices of about as long
 * (sq_table_warm); the cursor goes to its row (or its place) then. */
#define SQ_TABLE_PARTIAL_MIN 50000
#define SQ_TABLE_FIRST_ROWS 256
#define SQ_TABLE_SLICE_MS 5.0

struct sq_table {
	const struct sq_view_def *def;
	const struct sq_tui_view *ops; /* the view's special hooks or NULL */
	struct sq_snapshot *snap;      /* our reference, or NULL */
	/* what sq_table_set_snapshot was given (a reference): snap, or the
	 * snapshot of which snap holds the rows of the view's scope
	 * (sliced: the view is scoped, views.h) */
	struct sq_snapshot *given;
	int sliced;

	int cols[SQ_TABLE_MAX_COLS]; /* shown columns: indices in def->cols */
	int ncols;
	/* the chosen columns in their order with their fit priorities;
	 * cols[] is them arranged for the width (table_fit.c): the first
	 * nfit fit the terminal, the last of those restw cells wide */
	int base[SQ_TABLE_MAX_COLS], bprio[SQ_TABLE_MAX_COLS];
	int nbase, nfit, restw;
	char vname[33]; /* the saved view (of=) shown in this table, or "" */
	int curcol;     /* selected column: index in cols[] */
	int sort;       /* sorted by def->cols[sort], -1 for snapshot order */
	int sort_desc;

	struct sq_filter filter;
	char search[256]; /* last pattern, for n/N after the filter is off */

	struct sq_table_row *rows; /* what is shown, in order */
	size_t nrows, cap;
	size_t cur, top;
	char cur_id[256]; /* id of the cursor row, kept across refreshes */

	char **tags; /* sorted ids */
	size_t ntags, tcap;
	char **folds; /* ids whose fold state differs from the default */
	size_t nfolds, fcap;
	int fold_default; /* 1: groups start folded */

	int idcols[6]; /* def columns that make the row id */
	int nidcols;
	int widths[SQ_TABLE_MAX_COLS]; /* per shown column */
	int mode;                      /* a view's display mode (node map) */
	void *vstate; /* the view's own state (its hooks make it; freed by
		       * ops->free_state with the table) */

	/* a big table (partial_min rows or more, SQ_TABLE_PARTIAL_MIN)
	 * shows its first rows while the rest is made: pending, and the
	 * cursor's place before (the cursor goes back there, or to its
	 * row, once they are all there) */
	size_t partial_min;
	int pending;
	size_t pend_cur;

	/* what a rebuild worked out and the next may reuse while the
	 * snapshot stays (table.c): the sort order of every row, the rows
	 * the filter keeps, the rows' text a regex runs over */
	struct sq_table_cache *cache;
};

/* Columns without SQ_COL_HIDDEN, sorted by default_sort. */
void sq_table_init(struct sq_table *t, const struct sq_view_def *def);
void sq_table_free(struct sq_table *t);

/* Take a reference to snap (NULL clears) and rebuild the rows. */
void sq_table_set_snapshot(struct sq_table *t, struct sq_snapshot *snap);
/* Re-apply filter, sort, arrangement; keep the cursor on its row id. */
void sq_table_rebuild(struct sq_table *t);
/* Idle work: the rest of a big table's rows (t->pending, for about
 * SQ_TABLE_SLICE_MS), else before a filter is typed the rows' text a
 * regex runs over, up to rows more rows. 1 while there is more to do. */
int sq_table_warm(struct sq_table *t, size_t rows);
/* Wait for the sort thread (a big snapshot's orders by every column,
 * table_prep.c): the milliseconds it took (make bench). */
double sq_table_sorts_wait(struct sq_table *t);
/* All of a big table's rows now (what reads more than the first rows
 * calls it; the console before any key but the filter's). */
void sq_table_finish(struct sq_table *t);

/* Filter text without the '/': -1 with err when the pattern is bad (the
 * old filter stays). "" clears. */
int sq_table_filter(struct sq_table *t, const char *text, char *err, size_t n);
/* Sort by def column index col (-1: snapshot order). */
void sq_table_sort(struct sq_table *t, int col, int desc);
/* Columns from a comma-separated id list; -1 with err on an unknown id. */
int sq_table_set_columns(struct sq_table *t, const char *list, char *err,
			 size_t n);
/* Choose these columns (def indices) in this order, the first the most
 * important when they do not all fit. */
void sq_table_set_base(struct sq_table *t, const int *cols, int n);
/* Back to the view's own columns (its layout). */
void sq_table_default_columns(struct sq_table *t);
/* Arrange the columns for w cells: the most important that fit first
 * (in their chosen order), the last of them takes the rest of the
 * width, then the others (reached by scrolling). table_fit.c. */
void sq_table_fit(struct sq_table *t, int w);
/* The drawn width of shown column c when the table starts at column
 * first. */
int sq_table_colw(const struct sq_table *t, int c, int first);

/* The chosen columns as a comma-separated id list. */
void sq_table_columns_text(const struct sq_table *t, char *buf, size_t n);

/* Cursor movement (clamped); sets cur_id. */
void sq_table_move(struct sq_table *t, long delta);
void sq_table_goto(struct sq_table *t, size_t row);
/* Next row (dir 1 or -1, wrapping) whose text matches the last search
 * pattern; 0 when none. */
int sq_table_search(struct sq_table *t, int dir);

/* The record under the cursor, or NULL. */
const void *sq_table_cur(const struct sq_table *t);
/* Row id of a record: the job id, node name, or key columns. */
const char *sq_table_id(const struct sq_table *t, const void *rec, char *buf,
			size_t n);
/* Text of shown column i of rec, sanitized (never NULL). */
const char *sq_table_cell(const struct sq_table *t, int i, const void *rec,
			  char *buf, size_t n);
/* All shown columns of rec joined by two spaces, sanitized. */
const char *sq_table_rowtext(const struct sq_table *t, const void *rec,
			     char *buf, size_t n);

/* Tags (by row id) */
int sq_table_tagged(const struct sq_table *t, const char *id);
void sq_table_tag(struct sq_table *t, const char *id, int on);
void sq_table_untag_all(struct sq_table *t);

/* Fold state (by row id) for the arrangement hooks */
int sq_table_folded(const struct sq_table *t, const char *id);
void sq_table_set_folded(struct sq_table *t, const char *id, int folded);

/* Append a shown row (for arrangement hooks rebuilding t->rows). */
int sq_table_push(struct sq_table *t, const struct sq_table_row *r);

#endif
