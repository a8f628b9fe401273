/*
 * order.h - the order of a snapshot's rows by one column (the console's
 * sort and batch mode's): see order.c.
 */
#ifndef SQ_ORDER_H
#define SQ_ORDER_H

#include <stdint.h>

#include "core/model/snapshot.h"
#include "core/model/view.h"

#define SQ_ORDER_CELL 512 /* bytes of one cell's text */

/*
 * Fill order (s->nrows entries) with the row indexes of s sorted by col,
 * descending if desc: numbers (col->num) as numbers, SQ_INFINITE the
 * largest; text (col->text) in natural order; rows without a value
 * (NULL text, SQ_NONE) last either way; ties by job id (then run) where
 * rows are jobs (jobs, priority, whatif, history), else in snapshot order,
 * so equal rows keep their places from one refresh to the next.
 * 0, or -1 (out of memory, more than UINT32_MAX rows; order unset).
 */
int sq_order_rows(const struct sq_snapshot *s, const struct sq_column *col,
		  int desc, uint32_t *order);

/*
 * The scratch memory of sq_order_rows_ws, kept from one sort to the next
 * (zero it before the first; sq_order_ws_free frees it): at 100,000 rows
 * a sort's fresh pages cost more than the sort where page faults are
 * slow (virtual machines).
 */
#define SQ_ORDER_WS_BUFS 11
struct sq_order_ws {
	void *buf[SQ_ORDER_WS_BUFS];
	size_t cap[SQ_ORDER_WS_BUFS];
	/* the rows' tie order (job id) of the snapshot of this serial and
	 * row count, kept for its other columns' sorts; perm_none: it is
	 * the snapshot order */
	uint64_t perm_serial;
	size_t perm_rows;
	int perm_none;
};

/* sq_order_rows with the scratch memory of w. */
int sq_order_rows_ws(const struct sq_snapshot *s, const struct sq_column *col,
		     int desc, uint32_t *order, struct sq_order_ws *w);
void sq_order_ws_free(struct sq_order_ws *w);

/*
 * The ascending order (sq_order_rows_ws with desc 0) and what turns it
 * into the descending one without sorting again: ties (s->nrows / 8 + 1
 * bytes) gets bit i set when the row at place i has the same value as
 * the one before; *npres is how many rows have a value (they come
 * first). 0, or -1 as sq_order_rows.
 */
int sq_order_rows_ties(const struct sq_snapshot *s, const struct sq_column *col,
		       uint32_t *order, unsigned char *ties, size_t *npres,
		       struct sq_order_ws *w);
/* The descending order (n rows) of an ascending one and its ties, as
 * sq_order_rows(desc 1) makes it: equal values and the rows without a
 * value stay in their tie order (job id, else snapshot order). */
void sq_order_flip(const uint32_t *asc, const unsigned char *ties, size_t npres,
		   size_t n, uint32_t *desc);
/* Grow w for sorts of n rows now (and touch its pages), so that the
 * first sort of a numeric or text column allocates nothing: -1 ENOMEM. */
int sq_order_ws_reserve(struct sq_order_ws *w, size_t n);

/* Natural order: digit runs compare as numbers ("n2" < "n10"). */
int sq_order_natcmp(const char *a, const char *b);

#endif
