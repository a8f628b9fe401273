/*
 * table_fit.c - columns that fit the terminal: of the chosen columns the
 * most important (the view's fit priority, whichever are chosen) that fit
 * are shown in their chosen order, the last of them takes the rest of the
 * width; the others follow, reached with h/l (table_draw.c marks them).
 */
#include <string.h>

#include "tui/table.h"
#include "tui/text.h"

/* the least a last column shrinks to before it is left out */
#define FIT_MIN 16
/* the first fit priority that is a group, shown whole or not at all */
#define SQ_FIT_GROUP 7

/*
 * The fit priority of def column d among chosen columns: the view's own
 * (its layout), so that hiding a column never hands its width to a less
 * important one; a column the view does not rank comes after the view's
 * single columns and before its groups (the sprio factors).
 */
static int
chosen_prio(const struct sq_table *t, int d)
{
	int idx[SQ_TABLE_MAX_COLS], prio[SQ_TABLE_MAX_COLS], i, n;

	n = sq_view_layout(t->def, idx, prio, SQ_TABLE_MAX_COLS);
	for (i = 0; i < n; i++) {
		if (idx[i] == d)
			return prio[i];
	}
	return SQ_FIT_GROUP - 1;
}

void
sq_table_set_base(struct sq_table *t, const int *cols, int n)
{
	int i;

	if (n > SQ_TABLE_MAX_COLS)
		n = SQ_TABLE_MAX_COLS;
	for (i = 0; i < n; i++) {
		t->base[i] = cols[i];
		t->bprio[i] = chosen_prio(t, cols[i]);
	}
	t->nbase = t->ncols = t->nfit = n;
	memcpy(t->cols, t->base, (size_t)n * sizeof(t->cols[0]));
	t->restw = 0;
	if (t->curcol >= n)
		t->curcol = n - 1;
	if (t->curcol < 0)
		t->curcol = 0;
}

void
sq_table_default_columns(struct sq_table *t)
{
	t->nbase = sq_view_layout(t->def, t->base, t->bprio, SQ_TABLE_MAX_COLS);
	memcpy(t->cols, t->base, sizeof(t->cols));
	t->ncols = t->nfit = t->nbase;
	t->restw = 0;
	if (t->curcol >= t->ncols)
		t->curcol = t->ncols > 0 ? t->ncols - 1 : 0;
	sq_table_rebuild(t);
}

/* width of def column d as last computed, its title's without rows */
static int
def_width(const struct sq_table *t, int d)
{
	int c;

	for (c = 0; c < t->ncols; c++) {
		if (t->cols[c] == d)
			return t->widths[c];
	}
	return sq_width(t->def->cols[d].title);
}

void
sq_table_fit(struct sq_table *t, int w)
{
	int order[SQ_TABLE_MAX_COLS], wd[SQ_TABLE_MAX_COLS];
	int sel[SQ_TABLE_MAX_COLS] = { 0 };
	int cols[SQ_TABLE_MAX_COLS], widths[SQ_TABLE_MAX_COLS];
	int n = t->nbase, i, j, used = 0, nc = 0, cur = -1, last, stop = -1;

	if (n <= 0 || n != t->ncols)
		return;
	if (t->curcol >= 0 && t->curcol < t->ncols)
		cur = t->cols[t->curcol];
	for (i = 0; i < n; i++) {
		const struct sq_column *col = &t->def->cols[t->base[i]];
		int cap = col->width, tw = sq_width(col->title);

		wd[i] = def_width(t, t->base[i]);
		order[i] = i;
		/* a long text (a job name) is cut at the column's width, but
		 * the first column (the id) and the last (the rest) */
		if (tw > cap)
			cap = tw;
		if (col->align == SQ_LEFT && i > 0 && i < n - 1 && wd[i] > cap)
			wd[i] = cap;
	}
	/* by priority, then by the chosen order (insertion sort, n <= 64) */
	for (i = 1; i < n; i++) {
		int k = order[i];

		for (j = i; j > 0 && t->bprio[order[j - 1]] > t->bprio[k]; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
	for (i = 0; i < n; i++) {
		int k = order[i], need = wd[k];

		/* after a column that does not fit, none less important */
		if (stop >= 0 && t->bprio[k] > stop)
			break;
		/* the last chosen column takes what is left: it needs less */
		if (k == n - 1 && need > FIT_MIN)
			need = FIT_MIN;
		if (i == 0 || used + need + 1 <= w) {
			sel[k] = 1;
			used += need + 1;
		} else {
			stop = t->bprio[k];
		}
	}
	/* from priority 7 on a level is a group (the sprio factors): all of
	 * it or none */
	for (i = 0; stop >= SQ_FIT_GROUP && i < n; i++) {
		if (t->bprio[i] == stop)
			sel[i] = 0;
	}
	for (i = 0; i < n; i++) {
		if (sel[i]) {
			cols[nc] = t->base[i];
			widths[nc++] = wd[i];
		}
	}
	t->nfit = nc;
	for (i = 0; i < n; i++) {
		if (!sel[i]) {
			cols[nc] = t->base[i];
			widths[nc++] = wd[i];
		}
	}
	memcpy(t->cols, cols, (size_t)n * sizeof(cols[0]));
	memcpy(t->widths, widths, (size_t)n * sizeof(widths[0]));
	for (i = 0; i < n; i++) {
		if (cols[i] == cur)
			t->curcol = i;
	}
	used = 0;
	for (i = 0; i + 1 < t->nfit; i++)
		used += t->widths[i] + 1;
	last = w - used;
	t->restw = last > 1 ? last : 1;
}

int
sq_table_colw(const struct sq_table *t, int c, int first)
{
	if (first == 0 && c == t->nfit - 1 && t->restw > 0 &&
	    (t->def->cols[t->cols[c]].align == SQ_LEFT ||
	     t->restw < t->widths[c]))
		return t->restw;
	return t->widths[c];
}
