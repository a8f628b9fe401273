/*
 * views.h - the hooks of views that need more than the generic table:
 * trees with fold/unfold (fairshare, associations, accounts), job arrays
 * that collapse, the compact node map, GPU bars, extra lines in the
 * detail pane (why a job is pending, a node's jobs), and views whose data
 * is not the worker's snapshot of their kind (what-if, the at-a-glance
 * views); and what the table widget, the loop and the panes would
 * otherwise ask the view's kind: its id column, its start from the
 * config, a row's job or node. Views are matched by kind, so any view of
 * sq_views[] of that kind gets them; only the view_*.c files know their
 * kind. Each view_*.c defines its struct sq_tui_view; views.c lists
 * them. Everything here runs on the UI thread.
 */
#ifndef SQ_VIEWS_H
#define SQ_VIEWS_H

#include <stddef.h>

#include "core/model/view.h"

struct sq_app;
struct sq_conf;
struct sq_pane;
struct sq_table;
struct sq_table_row;

struct sq_tui_view {
	enum sq_kind kind;
	/* Re-order or fold t->rows after filter and sort (NULL: as is). */
	void (*arrange)(struct sq_table *t);
	/* arrange only keeps the rows of the view's scope (view_scope.h):
	 * when those are one run of the snapshot the table holds them as a
	 * snapshot of their own (sliced) and needs no arrangement */
	int scoped;
	/* arrange on a big table's first rows arranges them as it would
	 * every row (the jobs view's arrays), so the table may be made in
	 * steps (table.c); else an arranged table is made at once */
	int arrange_first;
	/* The column whose value names one row only, besides job_id (the
	 * nodes view's node), for the row id that keeps the cursor on its
	 * row; NULL: job_id, else the key columns (table.c). */
	const char *id_col;
	/* A new table's start from the config (the jobs view's folded
	 * arrays, the nodes view's map); NULL: none. */
	void (*init)(struct sq_table *t, const struct sq_conf *conf);
	/* More words for the title line, after the sort (the jobs view: how
	 * old its sprio columns are): buf, "" for none. */
	const char *(*title)(const struct sq_table *t, char *buf, size_t n);
	/* Prefix of the first cell (tree lines, fold marks); NULL: none. */
	const char *(*prefix)(const struct sq_table *t,
			      const struct sq_table_row *r, char *buf,
			      size_t n);
	/* An extra column drawn right of the table (bars). */
	const char *extra_title;
	int extra_width;
	void (*extra)(struct sq_app *app, const void *rec, int y, int x, int w);
	/* 1: the extra column comes before the last column's full text (a
	 * long value there is cut at the column's width to make room) */
	int extra_first;
	/* Draw the body instead of the table when t->mode != 0; returns
	 * the rows per page it used (for PgUp/PgDn), or -1 to fall back. */
	int (*draw_body)(struct sq_app *app, struct sq_table *t, int y, int x,
			 int h, int w);
	/* A table-mode action this view handles (fold, map ...): 1 if
	 * used. */
	int (*action)(struct sq_app *app, struct sq_table *t, int action);
	/* Lines of the detail pane after the record's fields. */
	void (*detail)(struct sq_app *app, struct sq_table *t, const void *rec,
		       struct sq_pane *p);
	/* Kinds the detail pane needs besides the view's own. */
	unsigned detail_kinds;
	/* May the detail pane link this row to the view named view (its
	 * links, detail.c)? NULL: yes. */
	int (*link_ok)(const void *rec, const char *view);
	/* Kinds read again at once when the detail pane opens. */
	unsigned detail_refresh;
	/* The job of a row, whose output, errors or script o, O and b
	 * show: buf, or NULL for none. */
	const char *(*job_of)(const void *rec, char *buf, size_t n);
	/* The node of a row, that :ssh logs in to: 0 (in buf), or -1. */
	int (*node_of)(const void *rec, char *buf, size_t n);
	/* The kinds the worker fetches while the view shows, given the
	 * plan's (NULL: the plan's). */
	unsigned (*want)(struct sq_app *app, const struct sq_table *t,
			 unsigned plan);
	/* Take the newest data into t, when the worker published or the
	 * view is shown (NULL: the worker's snapshot of the view's kind,
	 * sq_app_take_snapshot). */
	void (*sync)(struct sq_app *app, struct sq_table *t);
	/* Free what the view keeps in its table (t->vstate: made by its
	 * hooks when first needed, freed with the table). */
	void (*free_state)(void *state);
	/* A new connection: forget what the view keeps of the old
	 * cluster's data (NULL: nothing kept). */
	void (*reset)(struct sq_app *app, struct sq_table *t);
};

/* The hooks of a view, or NULL. */
const struct sq_tui_view *sq_tui_view_for(const struct sq_view_def *def);

extern const struct sq_tui_view sq_tui_view_jobs;
extern const struct sq_tui_view sq_tui_view_nodes;
extern const struct sq_tui_view sq_tui_view_shares;
extern const struct sq_tui_view sq_tui_view_assocs;
extern const struct sq_tui_view sq_tui_view_accounts;
extern const struct sq_tui_view sq_tui_view_gpus;
extern const struct sq_tui_view sq_tui_view_gpuuse;
extern const struct sq_tui_view sq_tui_view_history;
extern const struct sq_tui_view sq_tui_view_rpc;
extern const struct sq_tui_view sq_tui_view_whatif;
extern const struct sq_tui_view sq_tui_view_overview;
extern const struct sq_tui_view sq_tui_view_clusters;

#endif
