/*
 * snapshot_rowsize.c - sq_kind_rowsize() of snapshot.h: the size of each
 * kind's record, the only place that knows every record type (so that
 * snapshot.c, which every record header includes, includes none).
 */
#include "core/analysis/gpuuse.h"
#include "core/analysis/history.h"
#include "core/model/model.h"
#include "core/model/model_admin.h"
#include "core/spec/nodeset.h"
#include "core/model/snapshot.h"
#include "core/spec/spec.h"
#include "core/analysis/whatif.h"
#include "core/analysis/clusters.h"
#include "core/analysis/om_snapshot.h"
#include "core/analysis/overview.h"
#include "core/analysis/rpc.h"

size_t
sq_kind_rowsize(enum sq_kind kind)
{
	switch (kind) {
	case SQ_KIND_PARTITIONS:
		return sizeof(struct sq_partition);
	case SQ_KIND_NODES:
		return sizeof(struct sq_node);
	case SQ_KIND_JOBS:
		return sizeof(struct sq_job);
	case SQ_KIND_PRIO:
		return sizeof(struct sq_prio);
	case SQ_KIND_PRIO_WEIGHTS:
		return sizeof(struct sq_prio_weights);
	case SQ_KIND_SPEC:
		return sizeof(struct sq_spec_row);
	case SQ_KIND_NODESETS:
		return sizeof(struct sq_nodeset);
	case SQ_KIND_HISTORY:
	case SQ_KIND_PREEMPT_RUNS: /* runs too (the events' inference) */
		return sizeof(struct sq_hist);
	case SQ_KIND_WHATIF:
		return sizeof(struct sq_whatif);
	case SQ_KIND_OVERVIEW:
		return sizeof(struct sq_ov_row);
	case SQ_KIND_RPC:
		return sizeof(struct sq_rpc);
	case SQ_KIND_CLUSTERS:
		return sizeof(struct sq_cluster_row);
	case SQ_KIND_GPUUSE:
		return sizeof(struct sq_gpuuse);
	case SQ_KIND_METRICS:
		return sizeof(struct sq_om_row);
	default:
		return sq_admin_rowsize(kind);
	}
}
