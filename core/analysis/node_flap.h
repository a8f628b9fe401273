/*
 * node_flap.h - the nodes view's event counts: how many down/drain
 * events (sacctmgr show event, the node-events kind) each node had in the
 * history window, and whether it flaps (flap-events of them within
 * flap-hours). Reads snapshots, runs nothing.
 */
#ifndef SQ_NODE_FLAP_H
#define SQ_NODE_FLAP_H

#include <stdint.h>

#include "core/model/model.h"

#define SQ_FLAP_EVENTS_DEFAULT 3
#define SQ_FLAP_HOURS_DEFAULT 24

/* The settings (`set flap-events`, `set flap-hours`; thread safe). */
struct sq_flap_cfg {
	int events;
	int hours;
};
void sq_flap_cfg_set(int events, int hours);
struct sq_flap_cfg sq_flap_cfg_get(void);

/* Is a node event's state a down or a drain (DOWN, DRAIN, IDLE+DRAIN,
 * FAIL ...)? */
int sq_flap_counts(const char *state);

/* Join node events ev (SQ_KIND_NODE_EVENTS) into nodes (SQ_KIND_NODES):
 * each node's events, those that started within cfg.hours of now, and
 * the flapping mark; every node gets events_known = 1. */
void sq_nodes_join_events(struct sq_snapshot *nodes,
			  const struct sq_snapshot *ev, struct sq_flap_cfg cfg,
			  int64_t now);

#endif
