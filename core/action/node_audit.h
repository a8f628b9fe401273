/*
 * node_audit.h - squall's own node actions (drain, down, resume, reboot,
 * cancelreboot, reason) from its audit log, as rows of the node-events
 * kind beside Slurm's events: who did it from squall, on which cluster.
 * Reads entries the caller read (core/action/audit.h); runs nothing.
 */
#ifndef SQ_NODE_AUDIT_H
#define SQ_NODE_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "core/action/audit.h"
#include "core/model/model.h"

/* The state word of an audit row: "squall drain" (never counted as a
 * down/drain event by core/analysis/node_flap.h, whose words start a part). */
#define SQ_NODE_AUDIT_PREFIX "squall "

/*
 * Add to ev (SQ_KIND_NODE_EVENTS) a row per target node of each result
 * line of v[0..n) that is a node action on cluster (NULL: any) at or
 * after since: node, state "squall ACTION", reason (the action's
 * reason=, else its message) with the cluster and whether it was
 * verified, set_by the user, start the time (end and duration none).
 * Returns the rows added, -1 when out of memory.
 */
int sq_node_events_add_audit(struct sq_snapshot *ev,
			     const struct sq_audit_entry *v, size_t n,
			     const char *cluster, int64_t since);

#endif
