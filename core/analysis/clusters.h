/*
 * clusters.h - the rows of the clusters view: one per configured cluster
 * with its backend, version, node and job counts, idle GPUs, the age of
 * its data and its last error. Counting is pure (here); fetching every
 * cluster in parallel is session/clusters.c.
 */
#ifndef SQ_CLUSTERS_H
#define SQ_CLUSTERS_H

#include <stdint.h>

#include "core/model/snapshot.h"

/* One SQ_KIND_CLUSTERS row; strings in the snapshot's arena, never NULL;
 * counts SQ_NONE when unknown (the fetch failed). */
struct sq_cluster_row {
	const char *cluster;
	const char *backend;
	const char *version;
	int64_t nodes_up, nodes_down, nodes_drained;
	int64_t jobs_running, jobs_pending;
	int64_t gpus_idle;
	int64_t fetched;   /* epoch seconds of the data, SQ_NONE */
	int64_t ms;        /* how long the fetch took */
	const char *error; /* "" when none */
};

/* Is a node state (as sinfo prints it) drained/draining, down (down,
 * fail, not responding '*'), or up? 'd' drained, 'x' down, 'u' up. */
int sq_node_state_class(const char *state);

/* Fill r's counts from a nodes and a jobs snapshot (either may be NULL:
 * its counts stay SQ_NONE). */
void sq_cluster_row_count(struct sq_cluster_row *r,
			  const struct sq_snapshot *nodes,
			  const struct sq_snapshot *jobs);

#endif
