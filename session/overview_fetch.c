/*
 * overview_fetch.c - the overview of one cluster for batch mode: nodes,
 * jobs and sdiag read once through the backend, and on a cluster with
 * GPUs the GPUS kind (pending demand) and GPUUSE (utilisation, one
 * batched sstat), aggregated by core/analysis/overview.c. A missing sdiag (no
 * permission, no REST endpoint) only leaves the controller lines out; a
 * GPU fetch that fails leaves its line saying why.
 *
 * Where slurmctld serves its metrics (25.11+, the backend's `metrics`
 * op: local and replay), /metrics/nodes, /partitions and /scheduler
 * stand for the nodes fetch and sdiag; the queue (reasons, users, stuck
 * jobs, each partition's jobs) and the GPU demand and use still come
 * from their commands. SQUALL_METRICS=off in the environment asks for
 * the commands (the test compares both). The overview's source line
 * says which was used and, if not the metrics, why.
 *
 * The console's overview reads the same three endpoints through the
 * same code as the METRICS kind (sq_overview_metrics_fetch, the plan's
 * row): a snapshot of the sets, or of why they were not read, which
 * tui/view_overview.c builds its lines from instead of the nodes and
 * sdiag snapshots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/analysis/ctld_track.h"
#include "core/analysis/om_snapshot.h"
#include "core/base/openmetrics.h"
#include "core/analysis/overview.h"
#include "core/analysis/overview_om.h"
#include "session/glance.h"
#include "session/plan.h"

/* Does the cluster have an accelerator (a node with GPUs)? */
static int
has_gpus(const struct sq_snapshot *nodes, const struct sq_om *om)
{
	size_t i;

	if (nodes == NULL) {
		int64_t used, total;

		sq_ov_om_gpus(om, &used, &total);
		return total > 0;
	}
	for (i = 0; i < nodes->nrows; i++) {
		const struct sq_node *n = sq_snapshot_row(nodes, i);

		if (n->gpus_total > 0)
			return 1;
	}
	return 0;
}

/* The GPUS and GPUUSE snapshots (NULL when a fetch failed: why says
 * why, into buf). */
static void
fetch_gpu(struct sq_backend *b, struct sq_snapshot **gpus,
	  struct sq_snapshot **use, char *buf, size_t n)
{
	struct sq_err e;

	sq_err_clear(&e);
	if (sq_plan_fetch_plain(b, SQ_KIND_GPUS, gpus, &e) == -1)
		*gpus = NULL;
	sq_err_clear(&e);
	if (sq_backend_fetch_kind(b, SQ_KIND_GPUUSE, use, &e) == -1) {
		*use = NULL;
		snprintf(buf, n, "not read: %.200s", e.msg);
	}
}

/* One endpoint into om: 0, or -1 with why. */
static int
om_get(struct sq_backend *b, const char *path, struct sq_om *om, char *why,
       size_t n)
{
	struct sq_buf out;
	struct sq_err e;
	char perr[128];
	int rc = -1;

	sq_buf_init(&out, SQ_OM_MAX_BYTES);
	sq_err_clear(&e);
	if (b->ops->metrics(b, path, &out, &e) == -1)
		snprintf(why, n, "%.200s", e.msg);
	else if (sq_om_parse(out.data, out.len, om, perr, sizeof(perr)) == -1)
		snprintf(why, n, "%s unreadable: %s", path, perr);
	else
		rc = 0;
	sq_buf_free(&out);
	return rc;
}

/* The three endpoints (enum sq_om_set's order), or why not (into why).
 * 0 when all are read. */
static int
om_fetch(struct sq_backend *b, struct sq_om om[SQ_OM_SETS], char *why, size_t n)
{
	static const char *const paths[SQ_OM_SETS] = {
		[SQ_OM_NODES] = "/metrics/nodes",
		[SQ_OM_PARTITIONS] = "/metrics/partitions",
		[SQ_OM_SCHEDULER] = "/metrics/scheduler"
	};
	const char *env = getenv("SQUALL_METRICS");
	int i;

	if (env != NULL && strcmp(env, "off") == 0) {
		snprintf(why, n, "SQUALL_METRICS=off");
		return -1;
	}
	if (b->ops->metrics == NULL) {
		snprintf(why, n, "not read by the %s backend", b->ops->name);
		return -1;
	}
	for (i = 0; i < SQ_OM_SETS; i++) {
		if (om_get(b, paths[i], &om[i], why, n) == -1) {
			while (i >= 0)
				sq_om_free(&om[i--]);
			return -1;
		}
	}
	return 0;
}

int
sq_overview_fetch(struct sq_backend *b, struct sq_snapshot **out,
		  struct sq_err *err)
{
	struct sq_snapshot *nodes = NULL, *jobs = NULL, *diag = NULL;
	struct sq_snapshot *gpus = NULL, *use = NULL;
	struct sq_ov_input in = { 0 };
	struct sq_om om[3] = { { 0 } };
	struct sq_err derr;
	char why[256] = "", mwhy[256] = "";
	int rc = -1, served;

	*out = NULL;
	served = om_fetch(b, om, mwhy, sizeof(mwhy)) == 0;
	if (!served &&
	    sq_backend_fetch_kind(b, SQ_KIND_NODES, &nodes, err) == -1)
		goto out;
	if (sq_backend_fetch_kind(b, SQ_KIND_JOBS, &jobs, err) == -1)
		goto out;
	sq_err_clear(&derr);
	if (!served &&
	    sq_backend_fetch_kind(b, SQ_KIND_DIAG, &diag, &derr) == -1)
		diag = NULL;
	/* which controller is in control (one read: not since when) */
	if (diag != NULL &&
	    sq_ctld_track(diag, NULL, (int64_t)time(NULL), &derr) == -1) {
		sq_snapshot_unref(diag);
		diag = NULL;
	}
	if (has_gpus(nodes, &om[0]))
		fetch_gpu(b, &gpus, &use, why, sizeof(why));
	if (served) {
		in.om_nodes = &om[0];
		in.om_parts = &om[1];
		in.om_sched = &om[2];
	}
	in.metrics_note = mwhy;
	in.nodes = nodes;
	in.jobs = jobs;
	in.diag = diag;
	in.gpus = gpus;
	in.gpuuse = use;
	in.use_note = why;
	in.top = 5;
	*out = sq_overview_build(&in, jobs->fetched);
	if (*out == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto out;
	}
	rc = 0;
out:
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(diag);
	sq_snapshot_unref(gpus);
	sq_snapshot_unref(use);
	sq_om_free(&om[0]);
	sq_om_free(&om[1]);
	sq_om_free(&om[2]);
	return rc;
}

int
sq_overview_metrics_fetch(struct sq_backend *b, struct sq_snapshot **out,
			  struct sq_err *err)
{
	struct sq_om om[SQ_OM_SETS] = { { 0 } };
	char why[256] = "";
	int k, served = om_fetch(b, om, why, sizeof(why)) == 0;

	*out = sq_om_snapshot_new(served ? om : NULL, why, time(NULL));
	for (k = 0; k < SQ_OM_SETS; k++)
		sq_om_free(&om[k]);
	if (*out == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return 0;
}
