/*
 * view_overview.h - the at-a-glance views (view_overview.c; UI thread):
 * the tick, each turn of the console's loop, that feeds the overview's
 * history from new snapshots and collects the clusters' fetch. What they
 * fetch and show is in their hooks (tui/views.h).
 */
#ifndef SQ_TUI_VIEW_OVERVIEW_H
#define SQ_TUI_VIEW_OVERVIEW_H

struct sq_app;
/* The at-a-glance views' state (app->glance): the overview's sources,
 * lines and history, the clusters' run and answer. */
struct sq_tui_glance;

/* Each turn of the loop: new snapshots into the overview, the clusters'
 * answer collected. */
void sq_tui_glance_tick(struct sq_app *app);
/* The console ends: everything freed. */
void sq_tui_glance_free(struct sq_app *app);

#endif
