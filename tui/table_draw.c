/*
 * table_draw.c - drawing the table widget: the header with the sort mark
 * and the selected column, rows with the cursor, tags, state colours and
 * filter matches, horizontal scrolling to the selected column, and a
 * view's extra column (bars). Text is sanitized before it gets here.
 */
#include <curses.h>
#include <string.h>

#include "core/base/sanitize.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/table.h"
#include "tui/table_draw.h"
#include "tui/text.h"
#include "tui/views.h"

/* The first shown column so that the selected one fits in w. */
static int
first_column(const struct sq_table *t, int w)
{
	int first = 0, used, c;

	if (t->curcol < t->nfit)
		return 0;
	for (;;) {
		used = 0;
		for (c = first; c <= t->curcol && c < t->ncols; c++)
			used += sq_table_colw(t, c, first) + 1;
		if (used <= w || first >= t->curcol)
			return first;
		first++;
	}
}

/* Draw one cell with the filter's match highlighted. */
static void
draw_cell(struct sq_app *app, struct sq_table *t, int y, int x, int w,
	  const char *text, int align, int attr, int hl)
{
	size_t so, eo;
	int tw = sq_width(text), pad = 0, used;

	if (align == SQ_RIGHT && tw < w)
		pad = w - tw;
	if (pad > 0)
		sq_clear(y, x, pad, attr);
	if (hl && sq_filter_find(&t->filter, text, &so, &eo) && eo > so) {
		char a[SQ_TABLE_CELL], b[SQ_TABLE_CELL];
		int mattr = sq_color_attr(app, SQ_ROLE_MATCH);

		snprintf(a, sizeof(a), "%.*s", (int)so, text);
		snprintf(b, sizeof(b), "%.*s", (int)(eo - so), text + so);
		used = sq_put(y, x + pad, w - pad, a, attr);
		used += sq_put(y, x + pad + used, w - pad - used, b, mattr);
		used +=
		    sq_put(y, x + pad + used, w - pad - used, text + eo, attr);
	} else {
		used = sq_put_fit(y, x + pad, w - pad, text, attr);
	}
	(void)used;
}

static void
draw_header(struct sq_app *app, struct sq_table *t, int y, int x, int w,
	    int first, int gutter)
{
	int hattr = sq_color_attr(app, SQ_ROLE_HEADER), c, cx = x + gutter;

	sq_clear(y, x, w, hattr);
	for (c = first; c < t->ncols && cx < x + w; c++) {
		const struct sq_column *col = &t->def->cols[t->cols[c]];
		char title[96];
		int role = SQ_ROLE_HEADER, cw = sq_table_colw(t, c, first);

		if (t->cols[c] == t->sort)
			role = SQ_ROLE_HEADER_SORT;
		if (c == t->curcol)
			role = SQ_ROLE_HEADER_CURSOR;
		if (t->cols[c] == t->sort)
			snprintf(title, sizeof(title), "%s%s", col->title,
				 t->sort_desc ? (app->utf8 ? "▼" : "v")
					      : (app->utf8 ? "▲" : "^"));
		else
			snprintf(title, sizeof(title), "%s", col->title);
		if (cx + cw > x + w)
			cw = x + w - cx;
		if (col->align == SQ_RIGHT && sq_width(title) < cw)
			draw_cell(app, t, y, cx, cw, title, SQ_RIGHT,
				  sq_color_attr(app, role), 0);
		else
			sq_put_fit(y, cx, cw, title, sq_color_attr(app, role));
		cx += sq_table_colw(t, c, first) + 1;
	}
	/* more columns to the left or the right: h/l reach them */
	if (first > 0)
		sq_put(y, x, 1, "<", hattr);
	if (cx - 1 > x + w || c < t->ncols)
		sq_put(y, x + w - 1, 1, ">", hattr);
}

/* Column c's width when deciding whether the extra column fits: its
 * text's, but the last column's at most its own width where the view
 * puts the extra column first (sq_table_fit then cuts it). */
static int
last_width(const struct sq_table *t, int c)
{
	const struct sq_column *col = &t->def->cols[t->cols[c]];
	int cap = col->width, tw = sq_width(col->title);

	if (t->ops == NULL || !t->ops->extra_first || c != t->ncols - 1)
		return t->widths[c];
	if (tw > cap)
		cap = tw;
	return t->widths[c] < cap ? t->widths[c] : cap;
}

void
sq_table_draw(struct sq_app *app, struct sq_table *t, int y, int x, int h,
	      int w)
{
	const struct sq_tui_view *ops = t->ops;
	int body = h - 1, gutter = 1, first, extra = 0, tw = 0, c, i;
	int nattr = sq_color_attr(app, SQ_ROLE_NORMAL);

	if (body < 1)
		return;
	app->page = body;
	for (c = 0; c < t->ncols; c++)
		tw += last_width(t, c) + 1;
	if (ops != NULL && ops->extra != NULL &&
	    w - gutter - tw >= ops->extra_width + 1)
		extra = ops->extra_width;
	/* the last cell is for the mark of more columns */
	sq_table_fit(t, w - gutter - 1 - (extra ? extra + 1 : 0));
	first = first_column(t, w - gutter - (extra ? extra + 1 : 0));
	draw_header(app, t, y, x, w - (extra ? extra + 1 : 0), first, gutter);
	if (extra) {
		int hx = x + w - extra;

		sq_clear(y, hx - 1, 1, sq_color_attr(app, SQ_ROLE_HEADER));
		sq_put_fit(y, hx, extra, ops->extra_title,
			   sq_color_attr(app, SQ_ROLE_HEADER));
	}
	if (t->cur < t->top)
		t->top = t->cur;
	if (t->cur >= t->top + (size_t)body)
		t->top = t->cur - (size_t)body + 1;
	if (t->top + (size_t)body > t->nrows)
		t->top = t->nrows > (size_t)body ? t->nrows - (size_t)body : 0;
	for (i = 0; i < body; i++) {
		size_t r = t->top + (size_t)i;
		const struct sq_table_row *row;
		const void *rec;
		char id[256];
		int sel, tag, base, cx = x + gutter, ry = y + 1 + i;

		if (r >= t->nrows) {
			sq_clear(ry, x, w, nattr);
			continue;
		}
		row = &t->rows[r];
		rec = sq_snapshot_row(t->snap, row->rec);
		sel = r == t->cur;
		tag = t->ntags > 0 &&
		      sq_table_tagged(t, sq_table_id(t, rec, id, sizeof(id)));
		base = sq_color_attr(app, sel   ? SQ_ROLE_SELECTION
					  : tag ? SQ_ROLE_TAGGED
						: SQ_ROLE_NORMAL);
		sq_clear(ry, x, w, base);
		sq_put(ry, x, 1, tag ? "*" : " ", base);
		for (c = first;
		     c < t->ncols && cx < x + w - (extra ? extra : 0); c++) {
			const struct sq_column *col = &t->def->cols[t->cols[c]];
			char cell[SQ_TABLE_CELL], pre[128];
			int cw = sq_table_colw(t, c, first), attr = base, role,
			    used = 0;

			if (cx + cw > x + w - (extra ? extra + 1 : 0))
				cw = x + w - (extra ? extra + 1 : 0) - cx;
			if (cw <= 0)
				break;
			sq_table_cell(t, c, rec, cell, sizeof(cell));
			role = sq_cell_role(t, c, cell);
			if (!sel && !tag && role >= 0)
				attr = sq_color_attr(app, role);
			if (c == 0 && ops != NULL && ops->prefix != NULL &&
			    ops->prefix(t, row, pre, sizeof(pre)) != NULL) {
				used = sq_put(
				    ry, cx, cw, pre,
				    sel ? base
					: sq_color_attr(app, SQ_ROLE_TREE));
			}
			draw_cell(app, t, ry, cx + used, cw - used, cell,
				  col->align, attr, !sel);
			cx += sq_table_colw(t, c, first) + 1;
		}
		if (extra)
			ops->extra(app, rec, ry, x + w - extra, extra);
	}
}
