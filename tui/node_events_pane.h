/*
 * node_events_pane.h - the node detail pane's last events: the node's
 * down/drain history from the node-events snapshot (sacctmgr show
 * event), or, where the backend serves none (slurmrestd), what /nodes
 * gives and what is missing.
 */
#ifndef SQ_TUI_NODE_EVENTS_PANE_H
#define SQ_TUI_NODE_EVENTS_PANE_H

#include "core/model/model.h"
#include "tui/app.h"
#include "tui/pane.h"

/* Lines about nd's events, at the end of the detail pane p. */
void sq_tui_node_events(struct sq_app *app, const struct sq_node *nd,
			struct sq_pane *p);

#endif
