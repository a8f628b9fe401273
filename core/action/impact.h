/*
 * impact.h - what a node action (drain, down, reboot) will hit: the
 * running jobs on its target nodes (id, user, time left), the
 * reservations that overlap them, and the gentler form Slurm has. Pure:
 * it reads snapshots the caller fetched (session/impact.c does that on
 * the worker), for the preview and the audit line.
 */
#ifndef SQ_IMPACT_H
#define SQ_IMPACT_H

#include <stddef.h>
#include <time.h>

#include "core/action/action.h"
#include "core/base/buf.h"
#include "core/model/snapshot.h"

/* Does the impact of a matter (node drain, down or reboot)? */
int sq_impact_applies(const struct sq_action *a);

/*
 * Lines for the preview (appended to text, '\n'-separated) and a compact
 * list of the running jobs for the audit ("12(alice) 13(bob)", "none"),
 * into summary (n bytes). jobs or res may be NULL (not known: said so).
 * Returns the number of running jobs on the targets.
 */
int sq_impact_format(const struct sq_action *a, const struct sq_snapshot *jobs,
		     const struct sq_snapshot *res, time_t now,
		     struct sq_buf *text, char *summary, size_t n);

#endif
