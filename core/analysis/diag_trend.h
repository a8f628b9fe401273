/*
 * diag_trend.h - what changed in slurmctld between refreshes: a few of
 * sdiag's figures (server threads, the agent and DBD agent queues, the
 * main and backfill cycles, jobs submitted and started) kept over the
 * connection's reads (struct sq_diag_hist, the caller's) and put first
 * in the diag view as rows of section "changed": a level with the one
 * before and a sparkline, a counter as a rate per minute. Pure: no I/O.
 */
#ifndef SQ_DIAG_TREND_H
#define SQ_DIAG_TREND_H

#include "core/base/err.h"
#include "core/model/snapshot.h"

/* the reads a history keeps (the sparkline's points) */
#define SQ_DIAG_KEEP 16

struct sq_diag_hist;

struct sq_diag_hist *sq_diag_hist_new(void);
void sq_diag_hist_free(struct sq_diag_hist *h);

/*
 * Record diag's figures in h (at sdiag's own time, else diag->fetched)
 * and make *out: the "changed" rows, then every row of diag. 0, or -1
 * with err set.
 */
int sq_diag_trend(const struct sq_snapshot *diag, struct sq_diag_hist *h,
		  struct sq_snapshot **out, struct sq_err *err);

#endif
