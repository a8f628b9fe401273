/*
 * views.h - the hooks of views that need more than the generic table:
 * trees with fold/unfold (fairshare, associations, accounts), job arrays
 * that collapse, the compact node map, GPU bars, and extra lines in the
 * detail pane (why a job is pending, a node's jobs). Views are matched by
 * kind, so any view of sq_views[] of that kind gets them.
 */
#ifndef SQ_VIEWS_H
#define SQ_VIEWS_H

#include <stddef.h>

#include "core/view.h"
#include "tui/table.h"

struct sq_app;
struct sq_pane;

struct sq_tui_view {
	enum sq_kind kind;
	/* Re-order or fold t->rows after filter and sort (NULL: as is). */
	void (*arrange)(struct sq_table *t);
	/* Prefix of the first cell (tree lines, fold marks); NULL: none. */
	const char *(*prefix)(const struct sq_table *t,
			      const struct sq_table_row *r, char *buf,
			      size_t n);
	/* An extra column drawn right of the table (bars). */
	const char *extra_title;
	int extra_width;
	void (*extra)(struct sq_app *app, const void *rec, int y, int x, int w);
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
};

/*
 * Grouping of the nodes view by node set (nodes_group.c; UI thread): is
 * it on; the group action (toggles, returns 1); take the worker's newest
 * NODESETS snapshot into t (a nodes table), re-arranging it when the sets
 * changed; and the nodes view's arrange and prefix hooks.
 */
int sq_tui_nodes_grouped(void);
int sq_tui_nodes_group(struct sq_app *app, struct sq_table *t);
void sq_tui_nodes_sync(struct sq_app *app, struct sq_table *t);
void sq_tui_nodes_arrange(struct sq_table *t);
const char *sq_tui_nodes_prefix(const struct sq_table *t,
				const struct sq_table_row *r, char *buf,
				size_t n);

/* The hooks of a view, or NULL. */
const struct sq_tui_view *sq_tui_view_for(const struct sq_view_def *def);

extern const struct sq_tui_view sq_tui_view_jobs;
extern const struct sq_tui_view sq_tui_view_nodes;
extern const struct sq_tui_view sq_tui_view_shares;
extern const struct sq_tui_view sq_tui_view_assocs;
extern const struct sq_tui_view sq_tui_view_accounts;
extern const struct sq_tui_view sq_tui_view_gpus;
extern const struct sq_tui_view sq_tui_view_history;
extern const struct sq_tui_view sq_tui_view_whatif;

/* :whatif [KEY=VALUE ... | spec] (view_whatif.c): set the weights tried
 * and open the view; 0 or -1 (message shown). Take the worker's newest
 * WHATIF snapshot into t, recomputed for those weights. */
int sq_tui_whatif_cmd(struct sq_app *app, const char *arg);
void sq_tui_whatif_sync(struct sq_app *app, struct sq_table *t);
extern const struct sq_tui_view sq_tui_view_overview;
extern const struct sq_tui_view sq_tui_view_clusters;

/*
 * The at-a-glance views (view_overview.c; UI thread): the kinds the
 * worker fetches for one of them; the tick (each turn of the loop) that
 * feeds the overview's history from new snapshots and collects the
 * clusters' fetch; and the sync of their table with the newest rows.
 */
unsigned sq_tui_glance_want(enum sq_kind kind);
void sq_tui_glance_tick(struct sq_app *app);
void sq_tui_glance_sync(struct sq_app *app, struct sq_table *t);

#endif
