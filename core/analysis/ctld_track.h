/*
 * ctld_track.h - which slurmctld is in control, and since when, from the
 * "controller" rows a diag read carries (`scontrol ping`, REST /ping:
 * "ROLE HOST" = UP|DOWN, in SlurmctldHost order). The one in control is
 * the first that answers: Slurm 22.05's primary takes control back from
 * a backup when it starts, and `scontrol takeover` shuts the primary
 * down, so an answering primary is never a standby there. When it
 * changed is known only to a connection that saw it change (the
 * caller's struct sq_ctld_track): the read that first saw the new one.
 * Pure: no I/O.
 */
#ifndef SQ_CTLD_TRACK_H
#define SQ_CTLD_TRACK_H

#include <stdint.h>

#include "core/base/err.h"
#include "core/model/snapshot.h"

struct sq_ctld_track {
	char in_control[160]; /* "HOST (ROLE)" at the last read, or "" */
	char before[160];     /* the one before the change seen */
	int64_t last;         /* the last read's time */
	int64_t since;        /* the first read that saw in_control, once
			       * a change was seen; else 0 */
	int64_t after;        /* the read before that one */
};

/*
 * Add to diag's controller rows (if it has any): "in control" (HOST
 * (ROLE), or "none answers"), and once t saw a change "in control since"
 * (epoch), "changed after" (epoch of the read before) and "before it".
 * t may be NULL (one read). now is the read's time. 0, or -1 with err.
 */
int sq_ctld_track(struct sq_snapshot *diag, struct sq_ctld_track *t,
		  int64_t now, struct sq_err *err);

/* The "in control" value of diag's rows, or NULL. */
const char *sq_ctld_in_control(const struct sq_snapshot *diag);

#endif
