/*
 * table.c - the table widget's logic: which rows are shown and in what
 * order (filter, sort, a view's arrangement), the cursor that follows its
 * row id across refreshes and the column set (tags and folds:
 * table_marks.c). No drawing and no curses here (table_draw.c draws); UI
 * thread only.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/query/order.h"
#include "core/base/sanitize.h"
#include "core/query/when.h"
#include "tui/table.h"
#include "tui/table_int.h"
#include "tui/text.h"
#include "tui/views.h"

static int
col_index(const struct sq_view_def *d, const char *id)
{
	size_t i;

	for (i = 0; i < d->ncols; i++) {
		if (strcmp(d->cols[i].id, id) == 0)
			return (int)i;
	}
	return -1;
}

void
sq_table_init(struct sq_table *t, const struct sq_view_def *def)
{
	memset(t, 0, sizeof(*t));
	t->def = def;
	t->ops = sq_tui_view_for(def);
	sq_filter_init(&t->filter);
	t->nbase = sq_view_layout(def, t->base, t->bprio, SQ_TABLE_MAX_COLS);
	memcpy(t->cols, t->base, sizeof(t->cols));
	t->ncols = t->nfit = t->nbase;
	t->sort = -1;
	t->partial_min = SQ_TABLE_PARTIAL_MIN;
	if (def->default_sort != NULL && *def->default_sort != '\0') {
		const char *s = def->default_sort;

		t->sort_desc = *s == '-';
		t->sort = col_index(def, s + (*s == '-'));
	}
	sq_table_pick_idcols(t);
}

void
sq_table_free(struct sq_table *t)
{
	sq_snapshot_unref(t->snap);
	sq_snapshot_unref(t->given);
	sq_filter_free(&t->filter);
	free(t->rows);
	sq_table_marks_free(t);
	if (t->vstate != NULL && t->ops != NULL && t->ops->free_state != NULL)
		t->ops->free_state(t->vstate);
	if (t->cache != NULL)
		sq_table_cache_drop(t->cache);
	free(t->cache);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------ text */

const char *
sq_table_cell(const struct sq_table *t, int i, const void *rec, char *buf,
	      size_t n)
{
	char raw[SQ_TABLE_CELL];
	const char *s =
	    sq_when_cell(&t->def->cols[t->cols[i]], rec, 0, raw, sizeof(raw));

	return sq_sanitize(s ? s : "", buf, n);
}

const char *
sq_table_rowtext(const struct sq_table *t, const void *rec, char *buf, size_t n)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < t->ncols; i++) {
		char cell[SQ_TABLE_CELL];

		sq_table_cell(t, i, rec, cell, sizeof(cell));
		if (!sq_filter_text_add(buf, n, &o, cell, i == 0))
			break;
	}
	return buf;
}

/* ------------------------------------------------------------ rows */

int
sq_table_push(struct sq_table *t, const struct sq_table_row *r)
{
	if (t->nrows == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 256;
		struct sq_table_row *p = realloc(t->rows, nc * sizeof(*p));

		if (p == NULL)
			return -1;
		t->rows = p;
		t->cap = nc;
	}
	t->rows[t->nrows++] = *r;
	return 0;
}

/* Display width of def column d's cell of rec (as sq_table_cell). */
static int
cell_width(const struct sq_table *t, int d, const void *rec)
{
	char raw[SQ_TABLE_CELL], buf[SQ_TABLE_CELL];
	const char *s =
	    sq_when_cell(&t->def->cols[d], rec, 0, raw, sizeof(raw));

	return sq_width(sq_sanitize(s ? s : "", buf, sizeof(buf)));
}

/* The kept widths of rec's cells in c (made now when not kept), in the
 * order of c->wcols; NULL when they cannot be kept. */
static const unsigned char *
row_widths(const struct sq_table *t, struct sq_table_cache *c, uint32_t rec)
{
	size_t h = (rec * 2654435761u) & (WSLOTS - 1);
	unsigned char *v;
	int k;

	while (c->wkey[h] != 0 && c->wkey[h] != rec + 1)
		h = (h + 1) & (WSLOTS - 1);
	v = c->wval + h * (size_t)c->wncols;
	if (c->wkey[h] != 0)
		return v;
	if (c->wused >= WSLOTS / 2) {
		memset(c->wkey, 0, WSLOTS * sizeof(*c->wkey));
		c->wused = 0;
		return row_widths(t, c, rec);
	}
	c->wkey[h] = rec + 1;
	c->wused++;
	for (k = 0; k < c->wncols; k++) {
		int d = c->wcols[k], w = 0;

		if (!(t->def->cols[d].flags & SQ_COL_TIME))
			w = cell_width(t, d, sq_snapshot_row(t->snap, rec));
		v[k] = (unsigned char)(w < 255 ? w : 255);
	}
	return v;
}

/*
 * The cache's widths ready for t's columns: pos[c] the place of shown
 * column c in c->wcols. 0, or -1 when widths are not kept (no cache, no
 * memory, more than UINT32_MAX - 1 rows).
 */
static int
widths_ready(struct sq_table *t, struct sq_table_cache *c, int *pos)
{
	int i, k;

	if (c == NULL || c->snap != t->snap || t->ncols != t->nbase ||
	    t->snap->nrows >= UINT32_MAX)
		return -1;
	if (c->wkey == NULL) {
		c->wkey = calloc(WSLOTS, sizeof(*c->wkey));
		c->wval = malloc(WSLOTS * SQ_TABLE_MAX_COLS);
		if (c->wkey == NULL || c->wval == NULL) {
			free(c->wkey);
			free(c->wval);
			c->wkey = NULL;
			c->wval = NULL;
			return -1;
		}
		c->wncols = 0;
	}
	if (c->wncols != t->nbase ||
	    memcmp(c->wcols, t->base, (size_t)t->nbase * sizeof(int)) != 0) {
		memset(c->wkey, 0, WSLOTS * sizeof(*c->wkey));
		c->wused = 0;
		c->wncols = t->nbase;
		memcpy(c->wcols, t->base, (size_t)t->nbase * sizeof(int));
	}
	for (i = 0; i < t->ncols; i++) {
		for (k = 0; k < c->wncols && c->wcols[k] != t->cols[i]; k++)
			;
		if (k == c->wncols)
			return -1;
		pos[i] = k;
	}
	return 0;
}

static void
compute_widths(struct sq_table *t)
{
	size_t i, n = t->nrows < 1000 ? t->nrows : 1000;
	int c, pos[SQ_TABLE_MAX_COLS];
	int kept = widths_ready(t, t->cache, pos) == 0;

	for (c = 0; c < t->ncols; c++) {
		const struct sq_column *col = &t->def->cols[t->cols[c]];
		int w = sq_width(col->title);

		if (t->cols[c] == t->sort)
			w++; /* the sort mark */
		if (w < 1)
			w = 1;
		t->widths[c] = w;
	}
	for (i = 0; i < n; i++) {
		const void *rec = sq_snapshot_row(t->snap, t->rows[i].rec);
		const unsigned char *kw =
		    kept ? row_widths(t, t->cache, t->rows[i].rec) : NULL;

		for (c = 0; c < t->ncols; c++) {
			/* display columns (wcwidth), not code points; a time
			 * column's text as of now */
			int w = kw != NULL && !(t->def->cols[t->cols[c]].flags &
						SQ_COL_TIME)
				    ? kw[pos[c]]
				    : cell_width(t, t->cols[c], rec);

			if (c == 0)
				w += 2 * t->rows[i].depth + 2;
			if (w > 40)
				w = 40;
			if (w > t->widths[c])
				t->widths[c] = w;
		}
	}
}

static int arranges(const struct sq_table *t);

/* Put the cursor on the row with t->cur_id, when one is shown. */
static void
find_cursor(struct sq_table *t, struct sq_table_cache *c)
{
	int unique = sq_table_id_unique(t);
	size_t i;

	if (t->cur_id[0] == '\0')
		return;
	/* the very row it was on, by its snapshot row, without the text of
	 * every row before it (half a million jobs; a fold in 100,000
	 * associations): an id of one row only is that row or none, one of
	 * several columns (the account trees) must still read as it did */
	if (c != NULL && c->cur_ok && strcmp(c->cur_id, t->cur_id) == 0) {
		/* its bit says it is not among the rows (they are those
		 * that pass): no need to look among half a million */
		if (unique && !arranges(t) &&
		    sq_table_match_out(t, c, c->cur_rec))
			return;
		for (i = 0; i < t->nrows && t->rows[i].rec != c->cur_rec; i++)
			;
		if (i < t->nrows &&
		    (unique ||
		     sq_table_row_has_id(
			 t, sq_snapshot_row(t->snap, c->cur_rec), t->cur_id))) {
			t->cur = i;
			return;
		}
		if (unique)
			return;
	}
	for (i = 0; i < t->nrows; i++) {
		const void *rec = sq_snapshot_row(t->snap, t->rows[i].rec);

		if (sq_table_row_has_id(t, rec, t->cur_id)) {
			t->cur = i;
			return;
		}
	}
}

/* The cursor is on row t->cur now: remember its id (and snapshot row). */
static void
set_cursor_id(struct sq_table *t)
{
	struct sq_table_cache *c = t->cache;

	sq_table_id(t, sq_snapshot_row(t->snap, t->rows[t->cur].rec), t->cur_id,
		    sizeof(t->cur_id));
	if (c != NULL && c->snap == t->snap) {
		c->cur_rec = t->rows[t->cur].rec;
		c->cur_ok = 1;
		memcpy(c->cur_id, t->cur_id, sizeof(c->cur_id));
	}
}

/* Has t an arrangement to run on its rows (a scoped view's rows
 * already of its scope need none)? */
static int
arranges(const struct sq_table *t)
{
	return t->ops != NULL && t->ops->arrange != NULL &&
	       !(t->sliced && t->ops->scoped);
}

/* t->rows from the cache's sorted rows that pass (c->pre, or every row
 * in order when c->pre_all; np of them), or row by row without a cache
 * (pre -1): then arranged. */
static void
rows_made(struct sq_table *t, struct sq_table_cache *c, int pre, size_t np,
	  int filt)
{
	size_t i, n = t->snap->nrows;

	t->nrows = 0;
	if (pre == 0 && np > t->cap) {
		struct sq_table_row *r = realloc(t->rows, np * sizeof(*r));

		if (r != NULL) {
			t->rows = r;
			t->cap = np;
		}
	}
	if (pre == 0 && t->cap >= np) {
		/* c->pre, or every row in order without a filter */
		const uint32_t *v = c->pre_all ? c->order : c->pre;

		for (i = 0; i < np; i++) {
			struct sq_table_row r = { v != NULL ? v[i] : i, 0, 0,
						  0 };

			t->rows[i] = r;
		}
		t->nrows = np;
	} else {
		for (i = 0; i < n; i++) {
			size_t rec =
			    c != NULL && c->order != NULL ? c->order[i] : i;
			struct sq_table_row r = { rec, 0, 0, 0 };

			if (filt && !sq_table_row_passes(t, c, rec))
				continue;
			if (sq_table_push(t, &r) == -1)
				break;
		}
	}
	if (arranges(t))
		t->ops->arrange(t);
}

/* The cursor on its row id when that row is shown, else where it was
 * (clamped); the widths for the rows. */
static void
settle(struct sq_table *t, struct sq_table_cache *c)
{
	find_cursor(t, c);
	if (t->cur >= t->nrows)
		t->cur = t->nrows ? t->nrows - 1 : 0;
	if (t->nrows > 0)
		set_cursor_id(t);
	compute_widths(t);
}

/* Is t big enough to make its rows in steps, and can it? (a view whose
 * arrangement needs every row cannot: only one that arranges a first
 * part of the rows as the whole would, views.h arrange_first, or none) */
static int
in_steps(const struct sq_table *t)
{
	return t->snap->nrows >= t->partial_min &&
	       (!arranges(t) || t->ops->arrange_first);
}

/*
 * A big table's keystroke: the first rows (those around the cursor's
 * place) sorted and filtered now, the rest in idle slices
 * (sq_table_warm) or when something needs them (sq_table_finish).
 * 0, or -1 when that cannot be done (no memory: all at once then).
 */
static int
rebuild_first(struct sq_table *t, struct sq_table_cache *c, int filt)
{
	size_t want, m, i;
	uint32_t *first;

	if (!t->pending)
		t->pend_cur = t->cur;
	/* the top rows: where the cursor's row goes is known once they
	 * are all there (then it moves there, as an all-at-once rebuild
	 * would have put it) */
	want = SQ_TABLE_FIRST_ROWS;
	if (want > t->snap->nrows)
		want = t->snap->nrows;
	first = malloc((want ? want : 1) * sizeof(*first));
	if (first == NULL ||
	    sq_table_cache_first(t, c, filt, want, SQ_TABLE_SLICE_MS, first,
				 &m) == -1) {
		free(first);
		return -1;
	}
	t->nrows = 0;
	if (m > t->cap) {
		struct sq_table_row *r = realloc(t->rows, m * sizeof(*r));

		if (r == NULL) {
			free(first);
			return -1;
		}
		t->rows = r;
		t->cap = m;
	}
	for (i = 0; i < m; i++) {
		struct sq_table_row r = { first[i], 0, 0, 0 };

		t->rows[i] = r;
	}
	t->nrows = m;
	free(first);
	t->pending = 1;
	if (arranges(t))
		t->ops->arrange(t);
	/* the cursor on its row when it is among these; its id stays
	 * for the whole */
	t->cur = t->pend_cur;
	if (c->cur_ok && sq_table_id_unique(t) &&
	    strcmp(c->cur_id, t->cur_id) == 0)
		find_cursor(t, c);
	if (t->cur >= t->nrows)
		t->cur = t->nrows ? t->nrows - 1 : 0;
	compute_widths(t);
	return 0;
}

/* The rest of a big table's rows, for about ms: 1 when they are all
 * there (t->pending is 0 again). */
static int
rebuild_step(struct sq_table *t, double ms)
{
	struct sq_table_cache *c = t->cache;
	int filt = sq_filter_active(&t->filter), r;

	if (!t->pending)
		return 1;
	if (c != NULL && c->snap == t->snap && c->pre_ok) {
		r = 1; /* the last slice made them: rows now */
	} else {
		r = c != NULL && c->snap == t->snap
			? sq_table_cache_step(t, c, filt, ms)
			: -1;
		/* the rows and their arrangement in a slice of their own */
		if (r == 1 && ms < 1e9)
			return 0;
	}
	if (r == 0)
		return 0;
	t->pending = 0;
	rows_made(t, c, r == 1 ? 0 : -1, r == 1 ? c->npre : 0, filt);
	t->cur = t->pend_cur;
	settle(t, c);
	return 1;
}

int
sq_table_warm(struct sq_table *t, size_t rows)
{
	if (t->pending) {
		rebuild_step(t, SQ_TABLE_SLICE_MS);
		return 1;
	}
	return sq_table_cache_warm(t, rows);
}

void
sq_table_finish(struct sq_table *t)
{
	while (!rebuild_step(t, 1e9))
		;
}

/*
 * Rebuild t->rows. filter_only: only the filter changed since the last
 * rebuild (sq_table_filter); when the rows it keeps are the very rows
 * shown, in the same order, the arrangement, cursor and widths stay as
 * they are (typing "acct" into the filter of a queue where every row has
 * an account changes nothing four times). A big table makes its first
 * rows only (rebuild_first).
 */
static void
rebuild(struct sq_table *t, int filter_only)
{
	struct sq_table_cache *c;
	size_t np = 0;
	int filt, pre = -1;

	if (t->snap == NULL) {
		t->nrows = 0;
		t->cur = t->top = 0;
		t->pending = 0;
		return;
	}
	c = sq_table_cache_get(t);
	filt = sq_filter_active(&t->filter);
	if (c != NULL && in_steps(t) && rebuild_first(t, c, filt) == 0)
		return;
	if (t->pending) {
		t->cur = t->pend_cur;
		t->pending = 0;
		filter_only = 0; /* the rows shown are a first part */
	}
	if (c != NULL) {
		pre = sq_table_cache_rows(t, c, filt, filter_only);
		if (pre == 1)
			return;
		np = c->npre;
	}
	rows_made(t, c, pre, np, filt);
	settle(t, c);
}

void
sq_table_rebuild(struct sq_table *t)
{
	rebuild(t, 0);
}

void
sq_table_set_snapshot(struct sq_table *t, struct sq_snapshot *snap)
{
	struct sq_snapshot *shown = NULL;

	if (snap != NULL) {
		sq_snapshot_ref(snap);
		/* the same snapshot again: the same rows shown */
		shown = snap == t->given && t->snap != NULL
			    ? sq_snapshot_ref(t->snap)
			    : sq_table_scope_slice(t, snap);
		if (shown == NULL)
			shown = sq_snapshot_ref(snap);
	}
	/* what was worked out for the old rows goes with them (the memory
	 * stays for the new ones) */
	if (shown != t->snap && t->cache != NULL)
		sq_table_cache_reset(t->cache);
	sq_snapshot_unref(t->snap);
	sq_snapshot_unref(t->given);
	t->snap = shown;
	t->given = snap;
	t->sliced = shown != snap;
	sq_table_cache_reserve(t);
	sq_table_rebuild(t);
}

int
sq_table_filter(struct sq_table *t, const char *text, char *err, size_t n)
{
	if (sq_filter_set(&t->filter, text, t->def, err, n) == -1)
		return -1;
	if (*text != '\0')
		snprintf(t->search, sizeof(t->search), "%s", text);
	rebuild(t, 1);
	return 0;
}

void
sq_table_sort(struct sq_table *t, int col, int desc)
{
	t->sort = col;
	t->sort_desc = desc;
	sq_table_rebuild(t);
}

int
sq_table_set_columns(struct sq_table *t, const char *list, char *err, size_t n)
{
	char buf[2048], *save = NULL, *tok;
	int cols[SQ_TABLE_MAX_COLS], nc = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok != NULL;
	     tok = strtok_r(NULL, ", ", &save)) {
		int c = col_index(t->def, tok);

		if (c < 0) {
			snprintf(err, n, "view %s has no column '%.40s'",
				 t->def->name, tok);
			return -1;
		}
		if (nc < SQ_TABLE_MAX_COLS)
			cols[nc++] = c;
	}
	if (nc == 0) {
		snprintf(err, n, "no columns given");
		return -1;
	}
	sq_table_set_base(t, cols, nc);
	/* the filter's regex ran over the old columns */
	if (sq_filter_active(&t->filter)) {
		char text[256], e[200];

		snprintf(text, sizeof(text), "%s", t->filter.text);
		sq_filter_set(&t->filter, text, t->def, e, sizeof(e));
	}
	sq_table_rebuild(t);
	return 0;
}

void
sq_table_columns_text(const struct sq_table *t, char *buf, size_t n)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < t->nbase; i++) {
		int w = snprintf(buf + o, n - o, "%s%s", i ? "," : "",
				 t->def->cols[t->base[i]].id);

		if (w < 0 || (size_t)w >= n - o)
			break;
		o += (size_t)w;
	}
}

/* ------------------------------------------------------------ cursor */

void
sq_table_goto(struct sq_table *t, size_t row)
{
	sq_table_finish(t);
	if (t->nrows == 0) {
		t->cur = 0;
		t->cur_id[0] = '\0';
		return;
	}
	t->cur = row >= t->nrows ? t->nrows - 1 : row;
	set_cursor_id(t);
}

void
sq_table_move(struct sq_table *t, long delta)
{
	long c = (long)t->cur + delta;

	if (c < 0)
		c = 0;
	sq_table_goto(t, (size_t)c);
}

int
sq_table_search(struct sq_table *t, int dir)
{
	struct sq_filter f;
	char err[200], text[4096];
	size_t i, n = t->nrows;
	int found = 0;

	sq_table_finish(t);
	n = t->nrows;
	if (t->search[0] == '\0' || n == 0)
		return 0;
	sq_filter_init(&f);
	if (sq_filter_set(&f, t->search, t->def, err, sizeof(err)) == -1)
		return 0;
	for (i = 1; i <= n; i++) {
		size_t r = dir > 0 ? (t->cur + i) % n : (t->cur + n - i) % n;
		const void *rec = sq_snapshot_row(t->snap, t->rows[r].rec);

		sq_table_rowtext(t, rec, text, sizeof(text));
		if (sq_filter_row(&f, rec, text)) {
			sq_table_goto(t, r);
			found = 1;
			break;
		}
	}
	sq_filter_free(&f);
	return found;
}

const void *
sq_table_cur(const struct sq_table *t)
{
	if (t->snap == NULL || t->nrows == 0)
		return NULL;
	return sq_snapshot_row(t->snap, t->rows[t->cur].rec);
}
