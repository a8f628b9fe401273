/*
 * overview.h - the cluster at a glance: aggregation of the snapshots the
 * console already fetches (nodes, jobs, partitions, sdiag) into the rows
 * of the overview view, and the history of each row's number as a fixed
 * ring per series, rendered as a sparkline. Pure: no I/O, no curses.
 */
#ifndef SQ_OVERVIEW_H
#define SQ_OVERVIEW_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/base/openmetrics.h"
#include "core/model/snapshot.h"

/* One line of the overview (an SQ_KIND_OVERVIEW row). Strings are in the
 * snapshot's arena, never NULL. */
struct sq_ov_row {
	const char *section; /* source, nodes, partition, reason, user,
				account, stuck, gpus, ctld */
	const char *key;     /* "idle", "low cpu", "Resources" ... */
	const char *value;   /* what the line says: "3", "12/24 50%" */
	const char *id;      /* series key: "section/key" */
	int64_t num;         /* the number the sparkline follows */
	/* the bar: the part the line counts (allocated CPUs, nodes in the
	 * state, idle GPUs) of total; total <= 0: no bar */
	int64_t used, total;
	const char *view;   /* Enter opens this view ... */
	const char *filter; /* ... with this filter ("" none) */
	int src;            /* enum sq_kind the number came from */
};

/* The newest snapshots to aggregate; any may be NULL (its lines are
 * left out). top: lines of each ranking (reasons, users, accounts). */
struct sq_ov_input {
	const struct sq_snapshot *parts, *nodes, *jobs, *diag;
	int top;
	/* the GPU lines: the GPUS snapshot (pending demand) and the GPUUSE
	 * one (utilisation); NULL when not read, use_note then says why
	 * ("" or NULL: not read yet) */
	const struct sq_snapshot *gpus, *gpuuse;
	const char *use_note;
	/* slurmctld's metrics (/metrics/nodes, /partitions, /scheduler),
	 * read instead of the nodes and sdiag snapshots when those are
	 * NULL (core/analysis/overview_om.h); metrics_note: why they were not
	 * used
	 * ("" or NULL: not asked), said on the "source" line */
	const struct sq_om *om_nodes, *om_parts, *om_sched;
	const char *metrics_note;
};

/* A new SQ_KIND_OVERVIEW snapshot (one reference), NULL on ENOMEM. */
struct sq_snapshot *sq_overview_build(const struct sq_ov_input *in, time_t now);

/* The same rows into s, a new, empty SQ_KIND_OVERVIEW snapshot. */
void sq_overview_fill(struct sq_snapshot *s, const struct sq_ov_input *in,
		      time_t now);

/*
 * The kinds (SQ_KIND_BIT mask) the batch overview is built from, given
 * those read so far (NULL: not read, or not yet): slurmctld's metrics
 * (METRICS) and the queue always; the nodes and sdiag where the metrics
 * were not served; the GPUs' demand (GPUS) and use (GPUUSE) where the
 * nodes or the metrics count a GPU (core/analysis/overview_build.c).
 */
unsigned sq_overview_kinds(const struct sq_snapshot *metrics,
			   const struct sq_snapshot *nodes);

/*
 * Build s (a new, empty SQ_KIND_OVERVIEW snapshot) from the kinds of
 * sq_overview_kinds(): metrics (its note says why not where they were
 * not served), nodes, jobs (needed: the time the rows are of), diag
 * (the controller lines: which one is in control is added to it), gpus
 * and gpuuse (NULL where not read; use_why then says why the use was
 * not, or NULL). The top 5 of each ranking. 0, or -1 on ENOMEM. Pure.
 */
int
sq_overview_build_from(struct sq_snapshot *s, const struct sq_snapshot *metrics,
		       const struct sq_snapshot *nodes,
		       const struct sq_snapshot *jobs, struct sq_snapshot *diag,
		       const struct sq_snapshot *gpus,
		       const struct sq_snapshot *gpuuse, const char *use_why);

/*
 * History: SQ_SPARK_SLOTS samples per series, one per SQ_SPARK_STEP
 * seconds at most (a later sample in the same step replaces the value),
 * so a ring holds the last hour at any refresh rate. SQ_OV_SERIES series
 * in a table allocated once; a new series takes a free one or the one
 * updated longest ago. Nothing is allocated after sq_ov_hist_new().
 */
#define SQ_SPARK_STEP 10
#define SQ_SPARK_SLOTS 360
#define SQ_SPARK_SPAN (SQ_SPARK_STEP * SQ_SPARK_SLOTS)
#define SQ_OV_SERIES 128

struct sq_spark {
	char key[80]; /* "" unused */
	time_t last;  /* time of the newest sample */
	unsigned head, n;
	time_t t[SQ_SPARK_SLOTS];
	float v[SQ_SPARK_SLOTS];
};

struct sq_ov_hist {
	struct sq_spark s[SQ_OV_SERIES];
};

/* Zeroed history (free()), NULL on ENOMEM. */
struct sq_ov_hist *sq_ov_hist_new(void);
/* Record value v of series key at time t; the series, or NULL. */
struct sq_spark *sq_ov_hist_add(struct sq_ov_hist *h, const char *key, double v,
				time_t t);
/* The series of key, or NULL. */
const struct sq_spark *sq_ov_hist_find(const struct sq_ov_hist *h,
				       const char *key);
/* Record every row of an overview snapshot whose src is in the mask
 * (bit 1 << kind): the kinds that were fetched anew. */
void sq_ov_hist_feed(struct sq_ov_hist *h, const struct sq_snapshot *ov,
		     unsigned kinds);

/*
 * The samples of the last hour before now, oldest first, at most max
 * (consecutive samples merged, keeping the largest, when there are
 * more). Returns the count written to out.
 */
size_t sq_spark_values(const struct sq_spark *s, time_t now, double *out,
		       size_t max);
/*
 * A sparkline of n values scaled between their minimum and maximum: one
 * character per value, Unicode blocks (U+2581..U+2588) or, when plain,
 * the ASCII levels "_.-~=+*#". NUL-terminated in buf (cut to fit len).
 * Returns the characters written.
 */
size_t sq_spark_render(const double *v, size_t n, int plain, char *buf,
		       size_t len);

#endif
