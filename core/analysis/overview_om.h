/*
 * overview_om.h - the overview's figures read from slurmctld's metrics
 * (core/base/openmetrics.h) instead of the nodes and sdiag snapshots: nodes
 * by state, each partition's CPU, memory and GPU allocation, the GPUs of
 * the cluster and the controller's health. core/analysis/overview.c makes the
 * lines; this file only reads the samples (which metric means what is
 * here, and only here). Pure.
 */
#ifndef SQ_OVERVIEW_OM_H
#define SQ_OVERVIEW_OM_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/openmetrics.h"

/* A node state and its count: base states by the name sinfo gives them
 * ("allocated", "mixed", "idle" ...), flags with a '+' ("+drain"). */
struct sq_ov_om_state {
	const char *name;
	int is_flag;
	int64_t n;
};

/* The node count (slurm_nodes), -1 when the sample is missing. */
int64_t sq_ov_om_nodes(const struct sq_om *nodes);
/* The states with a count above 0 into out (at most max, base states
 * first, in a fixed order); the number written. */
size_t sq_ov_om_states(const struct sq_om *nodes, struct sq_ov_om_state *out,
		       size_t max);
/* GPUs allocated and in total over the nodes (slurm_node_gpus*). */
void sq_ov_om_gpus(const struct sq_om *nodes, int64_t *used, int64_t *total);

/* The partitions' names in the endpoint's order: the n-th (from 0), or
 * NULL past the last. */
const char *sq_ov_om_partition(const struct sq_om *parts, size_t n);

/* One partition's allocation: CPUs, memory (MB) and GPUs, used of
 * total (the GPUs used are its jobs', the only GPU figure the endpoint
 * has per partition). -1 where a sample is missing. */
struct sq_ov_om_part {
	int64_t cpu_used, cpu_total, mem_used, mem_total, gpu_used, gpu_total;
};
void sq_ov_om_part(const struct sq_om *parts, const char *name,
		   struct sq_ov_om_part *out);

/* The scheduler metric for the overview's controller line key ("server
 * threads", "backfill cycle" ...): 0 and *v, or -1 (no such metric:
 * "sched cycles/min" has none). */
int sq_ov_om_ctld(const struct sq_om *sched, const char *key, int64_t *v);

#endif
