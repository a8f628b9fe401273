/*
 * spec_live.h - the SPEC and NODESETS snapshots of a live cluster: a
 * spec file (spec_load.h) against what the fetch plan fetched through a
 * backend. Called by the session layer's fetch plan only (its rows'
 * ready and build, session/plan_build.c).
 */
#ifndef SQ_SPEC_LIVE_H
#define SQ_SPEC_LIVE_H

#include "backends/backend.h"
#include "core/model/snapshot.h"

/*
 * Is b's cluster spec (b->cfg.spec) readable where kind (SPEC or
 * NODESETS) needs it: a spec is required for SPEC, optional for
 * NODESETS. The plan asks before it fetches anything. 0, or -1 with err.
 */
int sq_spec_ready(const struct sq_backend *b, enum sq_kind kind,
		  struct sq_err *err);

/*
 * Build s, a new empty SPEC or NODESETS snapshot of b's cluster, from
 * what the plan fetched: the nodes; for SPEC the partitions and the
 * config (NULL: not read, config_why says why; its rows are then
 * unknown). Reads b->cfg.spec and, for the local backend, the NodeSet=
 * and NodeName= lines of the slurm.conf the cluster runs. 0, or -1 with
 * err set.
 */
int sq_spec_build(const struct sq_backend *b, struct sq_snapshot *s,
		  const struct sq_snapshot *nodes,
		  const struct sq_snapshot *parts,
		  const struct sq_snapshot *config, const char *config_why,
		  struct sq_err *err);

#endif
