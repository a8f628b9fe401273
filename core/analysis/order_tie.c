/*
 * order_tie.c - the order sorts keep equal rows in: by job id (then run)
 * where rows are jobs, so that rows of equal priority keep their places
 * from one refresh to the next (squeue's own order changes), made once a
 * snapshot and gathered over the radix keys, not the rows.
 */
#include <stdint.h>

#include "core/analysis/history.h"
#include "core/query/order.h"
#include "core/query/order_int.h"
#include "core/analysis/whatif.h"

/* The key that orders the rows equal in the sorted column where rows are
 * jobs (job id, then run): 0 for the other kinds, whose snapshot order
 * is their source's, the same from one fetch to the next. */
static int
tie_key(enum sq_kind kind, const void *r, uint64_t *k)
{
	if (kind == SQ_KIND_JOBS)
		*k = ((const struct sq_job *)r)->job_id;
	else if (kind == SQ_KIND_PRIO)
		*k = ((const struct sq_prio *)r)->job_id;
	else if (kind == SQ_KIND_WHATIF)
		*k = ((const struct sq_whatif *)r)->job_id;
	else if (kind == SQ_KIND_HISTORY)
		*k = (uint64_t)((const struct sq_hist *)r)->job_id << 32 |
		     (uint32_t)((const struct sq_hist *)r)->run;
	else
		return 0;
	return 1;
}

int
sq_order_tie(const struct sq_snapshot *snap, struct sq_order_ws *w,
	     const uint32_t **perm)
{
	size_t n = snap->nrows, i;
	uint64_t k = 0, prev = 0;
	struct rkey *rk;
	uint32_t *p;

	*perm = NULL;
	/* made for this snapshot by an earlier sort (the sort thread
	 * orders every column) */
	if (snap->serial != 0 && w->perm_serial == snap->serial &&
	    w->perm_rows == n) {
		if (!w->perm_none)
			*perm = w->buf[WS_PERM];
		return 0;
	}
	w->perm_serial = 0;
	for (i = 0; i < n; i++, prev = k) {
		if (!tie_key(snap->kind, sq_snapshot_row(snap, i), &k))
			return 0;
		if (i > 0 && k < prev)
			break;
	}
	if (i == n)
		goto made;
	rk = sq_order_ws_get(w, WS_RK, n * sizeof(*rk), 0);
	p = sq_order_ws_get(w, WS_PERM, n * sizeof(*p), 0);
	if (rk == NULL || p == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		tie_key(snap->kind, sq_snapshot_row(snap, i), &rk[i].k);
		rk[i].rec = (uint32_t)i;
	}
	if (sq_order_radix(rk, n, p, NULL, w) == -1)
		return -1;
	*perm = p;
made:
	w->perm_serial = snap->serial;
	w->perm_rows = n;
	w->perm_none = *perm == NULL;
	return 0;
}

struct rkey *
sq_order_tie_gather(const struct rkey *rk, size_t n, const uint32_t *perm,
		    uint32_t *miss, size_t *m, size_t *nmiss,
		    struct sq_order_ws *w)
{
	struct rkey *g = sq_order_ws_get(w, WS_RK2, n * sizeof(*g), 0);
	size_t j;

	if (g == NULL)
		return NULL;
	for (j = 0; j < n; j++) {
		const struct rkey *r = &rk[perm[j]];

		if (r->rec == SQ_ORDER_NOVAL)
			miss[(*nmiss)++] = perm[j];
		else
			g[(*m)++] = *r;
	}
	return g;
}
