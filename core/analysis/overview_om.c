/*
 * overview_om.c - which of slurmctld's metrics (its openmetrics plugin,
 * 25.11+) stands for which overview figure (core/analysis/overview_om.h). The
 * node states: slurmctld counts a node once under its base state
 * (allocated, mixed, idle, down, future, unknown, blocked) and again
 * under each flag it has (drain, completing, planned ...).
 */
#include <math.h>
#include <string.h>

#include "core/analysis/overview_om.h"

static const struct {
	const char *metric, *name;
	int is_flag;
} states[] = {
	{ "slurm_nodes_alloc", "allocated", 0 },
	{ "slurm_nodes_mixed", "mixed", 0 },
	{ "slurm_nodes_idle", "idle", 0 },
	{ "slurm_nodes_down", "down", 0 },
	{ "slurm_nodes_blocked", "blocked", 0 },
	{ "slurm_nodes_future", "future", 0 },
	{ "slurm_nodes_unknown", "unknown", 0 },
	{ "slurm_nodes_drain", "+drain", 1 },
	{ "slurm_nodes_completing", "+completing", 1 },
	{ "slurm_nodes_noresp", "+not responding", 1 },
	{ "slurm_nodes_fail", "+fail", 1 },
	{ "slurm_nodes_maint", "+maint", 1 },
	{ "slurm_nodes_resv", "+reserved", 1 },
	{ "slurm_nodes_planned", "+planned", 1 },
	{ "slurm_nodes_reboot_req", "+reboot requested", 1 },
	{ "slurm_nodes_reboot_issued", "+reboot issued", 1 },
	{ "slurm_nodes_powered_down", "+powered down", 1 },
	{ "slurm_nodes_invalid_reg", "+invalid reg", 1 },
};

/* A sample as a count: finite and not negative, else -1. */
static int64_t
count(const struct sq_om *om, const char *name, const char *key,
      const char *val)
{
	double v;

	if (sq_om_get(om, name, key, val, &v) == -1 || !isfinite(v) || v < 0 ||
	    v > 9e15)
		return -1;
	return (int64_t)v;
}

int64_t
sq_ov_om_nodes(const struct sq_om *nodes)
{
	return count(nodes, "slurm_nodes", NULL, NULL);
}

size_t
sq_ov_om_states(const struct sq_om *nodes, struct sq_ov_om_state *out,
		size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < sizeof(states) / sizeof(states[0]) && n < max; i++) {
		int64_t c = count(nodes, states[i].metric, NULL, NULL);

		if (c <= 0)
			continue;
		out[n].name = states[i].name;
		out[n].is_flag = states[i].is_flag;
		out[n].n = c;
		n++;
	}
	return n;
}

void
sq_ov_om_gpus(const struct sq_om *nodes, int64_t *used, int64_t *total)
{
	size_t i;

	*used = *total = 0;
	for (i = 0; i < nodes->n; i++) {
		const struct sq_om_sample *s = &nodes->v[i];
		int64_t *to = strcmp(s->name, "slurm_node_gpus") == 0 ? total
			      : strcmp(s->name, "slurm_node_gpus_alloc") == 0
				  ? used
				  : NULL;

		if (to != NULL && isfinite(s->value) && s->value > 0 &&
		    s->value < 1e9)
			*to += (int64_t)s->value;
	}
}

const char *
sq_ov_om_partition(const struct sq_om *parts, size_t n)
{
	size_t i;

	for (i = 0; i < parts->n; i++) {
		const char *p;

		if (strcmp(parts->v[i].name, "slurm_partition_cpus") != 0 ||
		    (p = sq_om_label(&parts->v[i], "partition")) == NULL)
			continue;
		if (n-- == 0)
			return p;
	}
	return NULL;
}

void
sq_ov_om_part(const struct sq_om *parts, const char *name,
	      struct sq_ov_om_part *out)
{
	const char *k = "partition";

	out->cpu_used =
	    count(parts, "slurm_partition_nodes_cpus_alloc", k, name);
	out->cpu_total = count(parts, "slurm_partition_cpus", k, name);
	out->mem_used =
	    count(parts, "slurm_partition_nodes_mem_alloc", k, name);
	out->mem_total = count(parts, "slurm_partition_nodes_mem_tot", k, name);
	out->gpu_used =
	    count(parts, "slurm_partition_jobs_gpus_alloc", k, name);
	out->gpu_total = count(parts, "slurm_partition_gpus", k, name);
}

static const struct {
	const char *key, *metric;
} ctld[] = {
	{ "server threads", "slurm_server_thread_cnt" },
	{ "agent queue", "slurm_agent_queue_size" },
	{ "dbd agent queue", "slurm_slurmdbd_queue_size" },
	{ "sched cycle", "slurm_schedule_cycle_last" },
	{ "sched cycle mean", "slurm_sched_mean_cycle" },
	{ "backfill cycle", "slurm_bf_cycle_last" },
	{ "backfill depth", "slurm_bf_last_depth" },
	{ "backfilled jobs", "slurm_backfilled_jobs" },
};

int
sq_ov_om_ctld(const struct sq_om *sched, const char *key, int64_t *v)
{
	size_t i;

	for (i = 0; i < sizeof(ctld) / sizeof(ctld[0]); i++) {
		if (strcmp(ctld[i].key, key) != 0)
			continue;
		*v = count(sched, ctld[i].metric, NULL, NULL);
		return *v < 0 ? -1 : 0;
	}
	return -1;
}
