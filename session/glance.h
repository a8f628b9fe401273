/*
 * glance.h - the data of the at-a-glance views for both front ends:
 * slurmctld's metrics the overview reads (the METRICS kind; the batch
 * overview is its plan row's build, session/plan.c), and every configured
 * cluster fetched in parallel, one thread per cluster, within a time
 * budget, each with its own failure (clusters.c).
 */
#ifndef SQ_GLANCE_H
#define SQ_GLANCE_H

#include <stddef.h>

#include "backends/backend.h"
#include "core/analysis/clusters.h"
#include "core/conf/conf.h"
#include "core/model/snapshot.h"

/* The overview's (batch mode's and the console's): slurmctld's
 * /metrics/nodes, /partitions and /scheduler, into a new SQ_KIND_METRICS
 * snapshot (core/analysis/om_snapshot.h); when they are not read (an older
 * release, a backend without the `metrics` op, refused, SQUALL_METRICS=
 * off) one without rows whose note says why. 0, or -1 on ENOMEM. */
int sq_overview_metrics_fetch(struct sq_backend *b, struct sq_snapshot **out,
			      struct sq_err *err);

/*
 * The clusters the clusters view lists: every `cluster` line of c,
 * resolved as -c NAME would be, or cur alone when there is none. Call
 * once at start (main thread), before any sq_clusters_start(); the list
 * is copied.
 */
void sq_clusters_configure(const struct sq_conf *c,
			   const struct sq_cluster_cfg *cur);
size_t sq_clusters_count(void);
/* The configured cluster of row i (a copy), 0 or -1 out of range. */
int sq_clusters_get(size_t i, struct sq_cluster_cfg *out);

/* One parallel fetch of every configured cluster (any thread). */
struct sq_clusters_run;

/* Start one thread per cluster; each opens its backend and reads nodes
 * and jobs. budget: seconds after which a cluster that has not answered
 * is reported as timed out (its thread finishes on its own). NULL on
 * ENOMEM. */
struct sq_clusters_run *sq_clusters_start(int budget);
/* The SQ_KIND_CLUSTERS snapshot (a new reference) once every cluster
 * answered or the budget is over; NULL before (wait 0) or wait up to the
 * budget (wait 1). */
struct sq_snapshot *sq_clusters_result(struct sq_clusters_run *r, int wait);
/* Drop the caller's hold on r (threads still running keep theirs). */
void sq_clusters_release(struct sq_clusters_run *r);

/* One cluster's row from its open backend b (what each thread does
 * between open and close): its nodes and jobs by sq_plan_fetch_served()
 * and their counts and age into row; the first failure's words into
 * error ("" when none). Not the strings, not ms. */
void sq_clusters_read(struct sq_backend *b, struct sq_cluster_row *row,
		      char *error, size_t len);

/* Batch and worker: the whole fetch, waited for. 0, or -1 with err. */
int sq_clusters_fetch(struct sq_snapshot **out, struct sq_err *err);

#define SQ_CLUSTERS_BUDGET 20 /* seconds */

#endif
