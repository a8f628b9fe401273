/*
 * spec_live.h - the SPEC and NODESETS snapshots of a live cluster: a
 * spec file (spec_load.h) against what a backend fetches. Called by the
 * session layer's fetch plan only.
 */
#ifndef SQ_SPEC_LIVE_H
#define SQ_SPEC_LIVE_H

#include "backends/backend.h"
#include "core/model/snapshot.h"

/*
 * The SPEC or NODESETS snapshot of b's cluster: reads b->cfg.spec (a
 * spec is required for SPEC, optional for NODESETS), fetches nodes,
 * partitions and config through b, and for the local backend reads the
 * NodeSet= and NodeName= lines of the slurm.conf the cluster runs.
 * Called on the thread that owns b. *out is a new snapshot owned by the
 * caller. Returns 0, or -1 with err set.
 */
int sq_spec_fetch(struct sq_backend *b, enum sq_kind kind,
		  struct sq_snapshot **out, struct sq_err *err);

#endif
