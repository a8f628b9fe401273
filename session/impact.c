/*
 * impact.c - fetch what core/action/impact.c needs for a node action's preview
 * and audit line: the queue (one squeue or GET /jobs) and, when the
 * backend serves them, the reservations. Two queries, only when a drain,
 * down or reboot is being prepared or run.
 */
#include <time.h>

#include "core/action/impact.h"
#include "core/action/resv.h"
#include "session/impact.h"

/* A reservation's impact: the queue, the nodes (their partitions) and
 * the reservations (reserve-update: the values not changed). */
static int
resv_fetch(struct sq_backend *b, const struct sq_action *a, struct sq_buf *text,
	   char *summary, size_t n)
{
	struct sq_snapshot *jobs = NULL, *nodes = NULL, *res = NULL;
	struct sq_buf scratch;
	struct sq_err err;
	int rc;

	/* each optional: an unread one leaves its part of the impact out */
	if (sq_backend_fetch_kind(b, SQ_KIND_JOBS, &jobs, &err) == -1)
		jobs = NULL;
	if (sq_backend_fetch_kind(b, SQ_KIND_NODES, &nodes, &err) == -1)
		nodes = NULL;
	if (a->type == SQ_ACTION_RESV_UPDATE &&
	    sq_backend_fetch_kind(b, SQ_KIND_RESERVATIONS, &res, &err) == -1)
		res = NULL;
	sq_buf_init(&scratch, 0);
	rc = sq_resv_impact(a, jobs, nodes, res, time(NULL),
			    text != NULL ? text : &scratch, summary, n);
	sq_buf_free(&scratch);
	if (jobs != NULL)
		sq_snapshot_unref(jobs);
	if (nodes != NULL)
		sq_snapshot_unref(nodes);
	if (res != NULL)
		sq_snapshot_unref(res);
	return rc;
}

int
sq_impact_fetch(struct sq_backend *b, const struct sq_action *a,
		struct sq_buf *text, char *summary, size_t n)
{
	struct sq_snapshot *jobs = NULL, *res = NULL;
	struct sq_buf scratch;
	struct sq_err err;
	int rc;

	if (b->ops->fetch != NULL && sq_resv_impact_applies(a))
		return resv_fetch(b, a, text, summary, n);
	if (!sq_impact_applies(a) || b->ops->fetch == NULL)
		return -1;
	if (sq_backend_fetch_kind(b, SQ_KIND_JOBS, &jobs, &err) == -1)
		jobs = NULL;
	if (sq_backend_fetch_kind(b, SQ_KIND_RESERVATIONS, &res, &err) == -1)
		res = NULL;
	sq_buf_init(&scratch, 0);
	rc = sq_impact_format(a, jobs, res, time(NULL),
			      text != NULL ? text : &scratch, summary, n);
	sq_buf_free(&scratch);
	if (jobs != NULL)
		sq_snapshot_unref(jobs);
	if (res != NULL)
		sq_snapshot_unref(res);
	return rc;
}
