/*
 * overview_build.c - the batch overview built from the kinds it is made
 * of (sq_overview_kinds: slurmctld's metrics where served, else the
 * nodes and sdiag; the queue; the GPUs' demand and use where there are
 * GPUs), by core/analysis/overview.c's rows. Pure: the fetch plan
 * (session/plan.c, the kind's row) fetches them. The console composes the
 * same rows from its own snapshots (tui/view_overview.c).
 */
#include <stdio.h>

#include "core/analysis/ctld_track.h"
#include "core/analysis/om_snapshot.h"
#include "core/analysis/overview.h"
#include "core/analysis/overview_om.h"

/* Does the cluster have an accelerator (a node with GPUs)? The nodes,
 * or where they were not read the metrics' (om: the nodes' set). */
static int
has_gpus(const struct sq_snapshot *nodes, const struct sq_om *om)
{
	size_t i;

	if (nodes == NULL) {
		int64_t used, total;

		sq_ov_om_gpus(om, &used, &total);
		return total > 0;
	}
	for (i = 0; i < nodes->nrows; i++) {
		const struct sq_node *n = sq_snapshot_row(nodes, i);

		if (n->gpus_total > 0)
			return 1;
	}
	return 0;
}

/* The metrics' sets into om (zeroed where not served): 1 when served,
 * 0 when not, -1 on ENOMEM. */
static int
om_sets(const struct sq_snapshot *metrics, struct sq_om om[SQ_OM_SETS])
{
	if (sq_om_snapshot_sets(metrics, om) == 0)
		return 1;
	return sq_om_snapshot_served(metrics) ? -1 : 0;
}

static void
om_free(struct sq_om om[SQ_OM_SETS])
{
	int k;

	for (k = 0; k < SQ_OM_SETS; k++)
		sq_om_free(&om[k]);
}

unsigned
sq_overview_kinds(const struct sq_snapshot *metrics,
		  const struct sq_snapshot *nodes)
{
	unsigned k = SQ_KIND_BIT(SQ_KIND_METRICS) | SQ_KIND_BIT(SQ_KIND_JOBS);
	struct sq_om om[SQ_OM_SETS];
	int served = om_sets(metrics, om);

	if (served == 0)
		k |= SQ_KIND_BIT(SQ_KIND_NODES) | SQ_KIND_BIT(SQ_KIND_DIAG);
	if (served >= 0 && has_gpus(served ? NULL : nodes, &om[SQ_OM_NODES]))
		k |= SQ_KIND_BIT(SQ_KIND_GPUS) | SQ_KIND_BIT(SQ_KIND_GPUUSE);
	om_free(om);
	return k;
}

int
sq_overview_build_from(struct sq_snapshot *s, const struct sq_snapshot *metrics,
		       const struct sq_snapshot *nodes,
		       const struct sq_snapshot *jobs, struct sq_snapshot *diag,
		       const struct sq_snapshot *gpus,
		       const struct sq_snapshot *gpuuse, const char *use_why)
{
	struct sq_ov_input in = { 0 };
	struct sq_om om[SQ_OM_SETS];
	struct sq_err e;
	char use_note[256] = "";
	int served = om_sets(metrics, om);

	if (served == -1)
		return -1;
	if (served) {
		in.om_nodes = &om[SQ_OM_NODES];
		in.om_parts = &om[SQ_OM_PARTITIONS];
		in.om_sched = &om[SQ_OM_SCHEDULER];
		nodes = diag = NULL;
	}
	in.metrics_note = !served && metrics != NULL && metrics->note != NULL
			      ? metrics->note
			      : "";
	/* which controller is in control (one read: not since when) */
	sq_err_clear(&e);
	if (diag != NULL &&
	    sq_ctld_track(diag, NULL, (int64_t)jobs->fetched, &e) == -1)
		diag = NULL;
	if (has_gpus(nodes, &om[SQ_OM_NODES])) {
		in.gpus = gpus;
		in.gpuuse = gpuuse;
		if (gpuuse == NULL && use_why != NULL)
			snprintf(use_note, sizeof(use_note), "not read: %.200s",
				 use_why);
	}
	in.nodes = nodes;
	in.jobs = jobs;
	in.diag = diag;
	in.use_note = use_note;
	in.top = 5;
	sq_overview_fill(s, &in, jobs->fetched);
	om_free(om);
	return 0;
}
