/*
 * view_node_events.c - node events over the history window (--since,
 * :since): which node was drained or down, why, set by whom, from when
 * to when (sacctmgr show event; slurmrestd serves no event history).
 */
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define E struct sq_node_event

SQ_STR_FIELD(c_node, E, r->node)
SQ_STR_FIELD(c_state, E, r->state)
SQ_STR_FIELD(c_reason, E, r->reason)
SQ_STR_FIELD(c_set_by, E, r->set_by)
SQ_TIME_FIELD(c_start, E, r->start)
SQ_TIME_FIELD(c_end, E, r->end)
SQ_DUR_FIELD(c_duration, E, r->duration)

static const struct sq_column cols[] = {
	{ "node", "NODE", "node name", 8, SQ_LEFT, c_node, NULL, 0 },
	{ "state", "STATE", "the node's state during the event", 10, SQ_LEFT,
	  c_state, NULL, SQ_COL_ROLE_NODE_STATE },
	{ "reason", "REASON", "why (the reason given)", 24, SQ_LEFT, c_reason,
	  NULL, 0 },
	{ "set_by", "SET_BY", "the user who set it", 10, SQ_LEFT, c_set_by,
	  NULL, 0 },
	{ "start", "START", "start (local time)", 19, SQ_LEFT, c_start,
	  c_start_num, SQ_NUM | SQ_COL_TIME },
	{ "end", "END", "end (local time; empty while open)", 19, SQ_LEFT,
	  c_end, c_end_num, SQ_NUM | SQ_COL_TIME },
	{ "duration", "DURATION", "how long (to now while open)", 10, SQ_RIGHT,
	  c_duration, c_duration_num, SQ_NUM },
};

static const char *const aliases[] = { "node-event", "nevents", NULL };

const struct sq_view_def sq_view_node_events = {
	.name = "node-events",
	.aliases = aliases,
	.help = "node events: drains and downs, why, by whom, how long",
	.kind = SQ_KIND_NODE_EVENTS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "-start",
};
