/*
 * plan_build.h - the fetch plan's builds (session/plan_build.c): what a
 * plan row's build is given and, for each kind the plan builds, the
 * function its row names, which calls the pure function of core/ that
 * makes the rows. Private to the plan (session/plan.c).
 */
#ifndef SQ_PLAN_BUILD_H
#define SQ_PLAN_BUILD_H

#include "backends/backend.h"
#include "core/base/err.h"
#include "core/model/snapshot.h"

/* What a build is given: the kinds it is built from (indexed by kind;
 * NULL where an optional one is absent, why[k] then says why, or is
 * NULL), the backend's words (backends/backend.h; all NULL for a kind
 * built on every backend) and the backend (its settings: the what-if's
 * weights). */
struct sq_plan_build_in {
	struct sq_snapshot *from[SQ_KIND_COUNT];
	char *why[SQ_KIND_COUNT];
	const struct sq_backend_built *how;
	const struct sq_backend *b;
};

/* Each builds s, a new empty snapshot of its kind, from in: 0, or -1
 * with err, or with err untouched on ENOMEM. */
int sq_plan_build_gpus(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		       struct sq_err *err);
int sq_plan_build_prio(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		       struct sq_err *err);
int sq_plan_build_limits(struct sq_snapshot *s,
			 const struct sq_plan_build_in *in, struct sq_err *err);
/* accounts and users read without their associations' columns, s the
 * read itself (the backend's how->reads), completed from the associations */
int sq_plan_build_accounts(struct sq_snapshot *s,
			   const struct sq_plan_build_in *in,
			   struct sq_err *err);
int sq_plan_build_users(struct sq_snapshot *s,
			const struct sq_plan_build_in *in, struct sq_err *err);
int sq_plan_build_events(struct sq_snapshot *s,
			 const struct sq_plan_build_in *in, struct sq_err *err);
int sq_plan_build_whatif(struct sq_snapshot *s,
			 const struct sq_plan_build_in *in, struct sq_err *err);
int sq_plan_build_overview(struct sq_snapshot *s,
			   const struct sq_plan_build_in *in,
			   struct sq_err *err);
int sq_plan_build_spec(struct sq_snapshot *s, const struct sq_plan_build_in *in,
		       struct sq_err *err);

/* The cluster spec readable where the kind needs it (the rows' ready). */
int sq_plan_spec_ready(const struct sq_backend *b, struct sq_err *err);
int sq_plan_nodesets_ready(const struct sq_backend *b, struct sq_err *err);

/* The what-if's weights to try readable (the row's ready: before any
 * fetch). 0, or -1 with err. */
int sq_plan_whatif_ready(const struct sq_backend *b, struct sq_err *err);

/* The overview's kinds given those read so far (the row's build_kinds). */
unsigned sq_plan_overview_kinds(struct sq_snapshot *const from[SQ_KIND_COUNT]);

#endif
