/*
 * nodes_group.h - the nodes view grouped by node set (nodes_group.c; UI
 * thread): is it on; the group action (toggles, returns 1); take the
 * worker's newest NODESETS snapshot into t (a nodes table), re-arranging
 * it when the sets changed; and the nodes view's arrange and prefix
 * hooks (tui/views.h).
 */
#ifndef SQ_TUI_NODES_GROUP_H
#define SQ_TUI_NODES_GROUP_H

#include <stddef.h>

struct sq_app;
struct sq_table;
struct sq_table_row;

int sq_tui_nodes_grouped(void);
int sq_tui_nodes_group(struct sq_app *app, struct sq_table *t);
void sq_tui_nodes_sync(struct sq_app *app, struct sq_table *t);
void sq_tui_nodes_arrange(struct sq_table *t);
const char *sq_tui_nodes_prefix(const struct sq_table *t,
				const struct sq_table_row *r, char *buf,
				size_t n);

#endif
