/*
 * overview_fetch.c - the overview of one cluster for batch mode: nodes,
 * jobs and sdiag read once through the backend, aggregated by
 * core/overview.c. A missing sdiag (no permission, no REST endpoint)
 * only leaves the controller lines out.
 */
#include "core/overview.h"
#include "session/glance.h"

int
sq_overview_fetch(struct sq_backend *b, struct sq_snapshot **out,
		  struct sq_err *err)
{
	struct sq_snapshot *nodes = NULL, *jobs = NULL, *diag = NULL;
	struct sq_ov_input in = { 0 };
	struct sq_err derr;
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
	in.nodes = nodes;
	in.jobs = jobs;
	in.diag = diag;
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
	return rc;
}
