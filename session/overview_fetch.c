/*
 * overview_fetch.c - the overview of one cluster for batch mode: nodes,
 * jobs and sdiag read once through the backend, and on a cluster with
 * GPUs the GPUS kind (pending demand) and GPUUSE (utilisation, one
 * batched sstat), aggregated by core/overview.c. A missing sdiag (no
 * permission, no REST endpoint) only leaves the controller lines out; a
 * GPU fetch that fails leaves its line saying why.
 */
#include <stdio.h>
#include <time.h>

#include "core/ctld_track.h"
#include "core/overview.h"
#include "session/glance.h"

/* Does the cluster have an accelerator (a node with GPUs)? */
static int
has_gpus(const struct sq_snapshot *nodes)
{
	size_t i;

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
	if (b->ops->fetch(b, SQ_KIND_GPUS, gpus, &e) == -1)
		*gpus = NULL;
	sq_err_clear(&e);
	if (b->ops->fetch(b, SQ_KIND_GPUUSE, use, &e) == -1) {
		*use = NULL;
		snprintf(buf, n, "not read: %.200s", e.msg);
	}
}

int
sq_overview_fetch(struct sq_backend *b, struct sq_snapshot **out,
		  struct sq_err *err)
{
	struct sq_snapshot *nodes = NULL, *jobs = NULL, *diag = NULL;
	struct sq_snapshot *gpus = NULL, *use = NULL;
	struct sq_ov_input in = { 0 };
	struct sq_err derr;
	char why[256] = "";
	int rc = -1;

	*out = NULL;
	if (b->ops->fetch(b, SQ_KIND_NODES, &nodes, err) == -1)
		goto out;
	if (b->ops->fetch(b, SQ_KIND_JOBS, &jobs, err) == -1)
		goto out;
	sq_err_clear(&derr);
	if ((b->ops->caps(b) & SQ_CAP_DIAG) &&
	    b->ops->fetch(b, SQ_KIND_DIAG, &diag, &derr) == -1)
		diag = NULL;
	/* which controller is in control (one read: not since when) */
	if (diag != NULL &&
	    sq_ctld_track(diag, NULL, (int64_t)time(NULL), &derr) == -1) {
		sq_snapshot_unref(diag);
		diag = NULL;
	}
	if (has_gpus(nodes))
		fetch_gpu(b, &gpus, &use, why, sizeof(why));
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
	return rc;
}
