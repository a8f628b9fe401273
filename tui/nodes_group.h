/*
 * nodes_group.h - the nodes view grouped by node set (nodes_group.c; UI
 * thread): the grouping's state, kept in the nodes view's state
 * (view_nodemap.c, t->vstate) and freed with it; the group action
 * (toggles, returns 1); take the worker's newest NODESETS snapshot into
 * t (a nodes table), re-arranging it when the sets changed; and what the
 * nodes view's arrange and prefix hooks (tui/views.h) do while grouped.
 */
#ifndef SQ_TUI_NODES_GROUP_H
#define SQ_TUI_NODES_GROUP_H

#include <stddef.h>

#include "core/spec/nodeset.h"

struct sq_app;
struct sq_snapshot;
struct sq_table;
struct sq_table_row;

struct sq_nodes_group {
	int on;
	struct sq_snapshot *sets;  /* our reference, or NULL */
	struct sq_nodeset_map map; /* node -> row of sets */
	int width;                 /* longest set name, 6 to 12 */
};

void sq_tui_nodes_group_free(struct sq_nodes_group *g);
int sq_tui_nodes_group(struct sq_nodes_group *g, struct sq_app *app,
		       struct sq_table *t);
void sq_tui_nodes_sync(struct sq_nodes_group *g, struct sq_app *app,
		       struct sq_table *t);
void sq_tui_nodes_arrange(const struct sq_nodes_group *g, struct sq_table *t);
const char *sq_tui_nodes_prefix(const struct sq_nodes_group *g,
				const struct sq_table *t,
				const struct sq_table_row *r, char *buf,
				size_t n);

#endif
