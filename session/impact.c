/*
 * impact.c - fetch what core/action/impact.c needs for a node action's preview
 * and audit line: the queue (one squeue or GET /jobs) and, when the
 * backend serves them, the reservations. Two queries, only when a drain,
 * down or reboot is being prepared or run. Each kind alone through the
 * fetch plan (sq_plan_fetch_served: the capability check, then the
 * kind's plan row), as every fetch.
 */
#include <time.h>

#include "core/action/impact.h"
#include "core/action/resv.h"
#include "session/impact.h"
#include "session/plan.h"

/* kind alone through the plan, or NULL: each optional, an unread one
 * leaves its part of the impact out */
static struct sq_snapshot *
fetch(struct sq_backend *b, enum sq_kind kind)
{
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_plan_fetch_served(b, kind, &s, &err) == -1)
		return NULL;
	return s;
}

/* A reservation's impact: the queue, the nodes (their partitions) and
 * the reservations (reserve-update: the values not changed). */
static int
resv_fetch(struct sq_backend *b, const struct sq_action *a, struct sq_buf *text,
	   char *summary, size_t n)
{
	struct sq_snapshot *jobs = fetch(b, SQ_KIND_JOBS);
	struct sq_snapshot *nodes = fetch(b, SQ_KIND_NODES);
	struct sq_snapshot *res = a->type == SQ_ACTION_RESV_UPDATE
				      ? fetch(b, SQ_KIND_RESERVATIONS)
				      : NULL;
	struct sq_buf scratch;
	int rc;

	sq_buf_init(&scratch, 0);
	rc = sq_resv_impact(a, jobs, nodes, res, time(NULL),
			    text != NULL ? text : &scratch, summary, n);
	sq_buf_free(&scratch);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(res);
	return rc;
}

int
sq_impact_fetch(struct sq_backend *b, const struct sq_action *a,
		struct sq_buf *text, char *summary, size_t n)
{
	struct sq_snapshot *jobs, *res;
	struct sq_buf scratch;
	int rc;

	if (b->ops->fetch != NULL && sq_resv_impact_applies(a))
		return resv_fetch(b, a, text, summary, n);
	if (!sq_impact_applies(a) || b->ops->fetch == NULL)
		return -1;
	jobs = fetch(b, SQ_KIND_JOBS);
	res = fetch(b, SQ_KIND_RESERVATIONS);
	sq_buf_init(&scratch, 0);
	rc = sq_impact_format(a, jobs, res, time(NULL),
			      text != NULL ? text : &scratch, summary, n);
	sq_buf_free(&scratch);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(res);
	return rc;
}
