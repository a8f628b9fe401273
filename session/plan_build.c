/*
 * plan_build.c - the builds the fetch plan's rows name (session/plan.c):
 * each hands the kinds its row is built from to the pure function of
 * core/ that makes the rows (core/analysis/gpus.c, join.c, limits.c,
 * events*.c, whatif_build.c, overview_build.c; the spec's, with the
 * spec file and the local slurm.conf: spec/spec_live.c). Nothing here
 * fetches.
 */
#include <stdint.h>

#include "core/analysis/events.h"
#include "core/analysis/gpus.h"
#include "core/analysis/limits.h"
#include "core/analysis/overview.h"
#include "core/analysis/whatif.h"
#include "core/model/join.h"
#include "core/model/model_admin.h"
#include "session/plan_build.h"
#include "session/whatif_weights.h"
#include "spec/spec_live.h"

/* GPUs from the nodes' GRES and the running jobs' TRES */
int
sq_plan_build_gpus(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		   struct sq_err *err)
{
	(void)err;
	return sq_gpus_build(s, in->from[SQ_KIND_NODES], in->from[SQ_KIND_JOBS],
			     in->how->unserved);
}

/* the pending jobs' priorities and ranks, without the sprio factors */
int
sq_plan_build_prio(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		   struct sq_err *err)
{
	(void)err;
	return sq_prio_from_jobs(s, in->from[SQ_KIND_JOBS]);
}

/* the limits set, their use counted from the queue */
int
sq_plan_build_limits(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		     struct sq_err *err)
{
	(void)err;
	return sq_limits_build(s, in->from[SQ_KIND_ASSOCS],
			       in->from[SQ_KIND_QOS], in->from[SQ_KIND_JOBS]);
}

/* accounts read without their associations' columns (parent, shares,
 * users), completed from the associations */
int
sq_plan_build_accounts(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		       struct sq_err *err)
{
	(void)err;
	return sq_accounts_join_assocs(s, in->from[SQ_KIND_ASSOCS]);
}

/* users read without their associations' columns (accounts, QOS,
 * default QOS), completed from the associations */
int
sq_plan_build_users(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		    struct sq_err *err)
{
	(void)err;
	return sq_users_join_assocs(s, in->from[SQ_KIND_ASSOCS]);
}

/* preemptions from accounting's runs of the window that ends at their
 * fetch (the first answer's, the runs' dep, where there are more), the
 * preemptors inferred from them all; the runs' note (newest preemptions
 * only) wins over the backend's */
int
sq_plan_build_events(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		     struct sq_err *err)
{
	const struct sq_snapshot *runs = in->from[SQ_KIND_PREEMPT_RUNS];

	if (runs->note != NULL)
		s->note = sq_snapshot_str(s, runs->note);
	(void)err;
	return sq_events_build(
	    s, runs->dep != NULL ? runs->dep : runs, runs,
	    in->from[SQ_KIND_JOBS], in->from[SQ_KIND_PARTITIONS],
	    in->from[SQ_KIND_QOS], (int64_t)runs->fetched - SQ_EVENTS_WINDOW);
}

/* The what-if's weights to try (--weights: a text, or "spec" for the
 * cluster spec's Priority* keys, session/whatif_weights.c), readable before
 * anything is fetched */
int
sq_plan_whatif_ready(const struct sq_backend *b, struct sq_err *err)
{
	struct sq_whatif_weights w;

	return sq_whatif_weights_read(b->cfg.weights, b->cfg.spec, &w, NULL, 0,
				      err);
}

/* sprio -n's factors times the weights tried beside those in force
 * (sprio -w), with the queue's accounts and the config's PriorityMaxAge
 * and PriorityFlags (core/analysis/whatif_build.c) */
int
sq_plan_build_whatif(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		     struct sq_err *err)
{
	struct sq_whatif_weights given;
	char shown[1024];

	if (sq_whatif_weights_read(in->b->cfg.weights, in->b->cfg.spec, &given,
				   shown, sizeof(shown), err) == -1)
		return -1;
	return sq_whatif_build(s, in->from[SQ_KIND_WHATIF],
			       in->from[SQ_KIND_PRIO_WEIGHTS],
			       in->from[SQ_KIND_JOBS], in->from[SQ_KIND_CONFIG],
			       &given, shown, SQ_WHATIF_TOP_N, err);
}

/* The batch overview's kinds given those read so far: the nodes and
 * sdiag where the metrics were not served, the GPU kinds where there are
 * GPUs (core/analysis/overview_build.c) */
unsigned
sq_plan_overview_kinds(struct sq_snapshot *const from[SQ_KIND_COUNT])
{
	return sq_overview_kinds(from[SQ_KIND_METRICS], from[SQ_KIND_NODES]);
}

/* nodes (or slurmctld's metrics), the queue, sdiag and the GPUs in one
 * summary; the console composes the same rows from its own snapshots,
 * with their history (tui/view_overview.c) */
int
sq_plan_build_overview(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		       struct sq_err *err)
{
	(void)err;
	return sq_overview_build_from(
	    s, in->from[SQ_KIND_METRICS], in->from[SQ_KIND_NODES],
	    in->from[SQ_KIND_JOBS], in->from[SQ_KIND_DIAG],
	    in->from[SQ_KIND_GPUS], in->from[SQ_KIND_GPUUSE],
	    in->why[SQ_KIND_GPUUSE]);
}

int
sq_plan_spec_ready(const struct sq_backend *b, struct sq_err *err)
{
	return sq_spec_ready(b, SQ_KIND_SPEC, err);
}

int
sq_plan_nodesets_ready(const struct sq_backend *b, struct sq_err *err)
{
	return sq_spec_ready(b, SQ_KIND_NODESETS, err);
}

/* the cluster spec against the live partitions, nodes and config, or
 * the nodes grouped by node set (spec/spec_live.c) */
int
sq_plan_build_spec(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		   struct sq_err *err)
{
	return sq_spec_build(
	    in->b, s, in->from[SQ_KIND_NODES], in->from[SQ_KIND_PARTITIONS],
	    in->from[SQ_KIND_CONFIG], in->why[SQ_KIND_CONFIG], err);
}
