/*
 * order_int.h - what order.c and order_tie.c share: the workspace's
 * buffers, a row's radix key, the stable radix order, and the tie order
 * (job id) the sorts keep equal rows in.
 */
#ifndef SQ_ORDER_INT_H
#define SQ_ORDER_INT_H

#include <stddef.h>
#include <stdint.h>

struct sq_order_ws;
struct sq_snapshot;

/* the workspace's buffers (SQ_ORDER_WS_BUFS of them) */
enum {
	WS_KEY,
	WS_RK,
	WS_TMP,
	WS_MISS,
	WS_POOL,
	WS_SLOT,
	WS_SLOT2,
	WS_UNIQ,
	WS_RANK,
	WS_PERM,
	WS_RK2
};

/* A row's place as one unsigned number, for the radix sorts; rec
 * SQ_ORDER_NOVAL: the row has no value (order_tie.c's row-order keys). */
struct rkey {
	uint64_t k;
	uint32_t rec;
};
#define SQ_ORDER_NOVAL UINT32_MAX

/* Buffer i of w with at least n bytes (contents kept when keep), or
 * NULL on ENOMEM. */
void *sq_order_ws_get(struct sq_order_ws *w, int i, size_t n, int keep);

/* The rows of a[] (n) into order by k, ties in a[]'s order; ties (when
 * not NULL) gets a bit per place equal to the one before. -1 ENOMEM. */
int sq_order_radix(struct rkey *a, size_t n, uint32_t *order,
		   unsigned char *ties, struct sq_order_ws *w);

/* The rows of snap in tie order (a workspace buffer, kept for the
 * snapshot's other sorts) into *perm; NULL when that is the snapshot
 * order. Before the sort proper: it uses the sort's scratch. -1 ENOMEM. */
int sq_order_tie(const struct sq_snapshot *snap, struct sq_order_ws *w,
		 const uint32_t **perm);

/* The keys rk[] of all n rows in row order (rec SQ_ORDER_NOVAL: no
 * value) in tie order perm: those with a value into a workspace buffer
 * (returned, *m of them), the rows without one appended to miss
 * (*nmiss). A gather over 16-byte keys, not over the rows. NULL ENOMEM. */
struct rkey *sq_order_tie_gather(const struct rkey *rk, size_t n,
				 const uint32_t *perm, uint32_t *miss,
				 size_t *m, size_t *nmiss,
				 struct sq_order_ws *w);

#endif
