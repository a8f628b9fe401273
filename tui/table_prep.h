/*
 * table_prep.h - the table's sort thread: when a big snapshot comes, the
 * rows' order by each shown column is made on a second thread, so that a
 * sort key finds it made (table_prep.c). UI thread API.
 */
#ifndef SQ_TABLE_PREP_H
#define SQ_TABLE_PREP_H

#include <stddef.h>
#include <stdint.h>

struct sq_snapshot;
struct sq_view_def;
struct sq_table_prep;

/* Snapshots with fewer rows sort on the UI thread as they always did
 * (a few milliseconds). */
#define SQ_TABLE_PREP_MIN 50000

/* A sort thread's state (no thread yet); NULL on ENOMEM. */
struct sq_table_prep *sq_table_prep_new(void);
/* Stop the thread (after the order it is making) and free everything. */
void sq_table_prep_free(struct sq_table_prep *p);

/*
 * Stop what the thread was doing and order the rows of snap (a reference
 * is taken) by each of the def columns cols, in that order, ascending;
 * ncols 0 (or a snapshot under SQ_TABLE_PREP_MIN rows) only stops it.
 * -1 when the thread cannot start (then nothing is made).
 */
int sq_table_prep_start(struct sq_table_prep *p, struct sq_snapshot *snap,
			const struct sq_view_def *def, const int *cols,
			int ncols);

/*
 * The order of snap's rows by def column col (descending if desc) into
 * order (snap->nrows entries), as sq_order_rows makes it: 1 when the
 * thread made it (waiting while it is making that one), 0 when it did
 * not (another snapshot, a column not asked for or not begun yet).
 */
int sq_table_prep_get(struct sq_table_prep *p, const struct sq_snapshot *snap,
		      int col, int desc, uint32_t *order);

/* The ascending order itself (as sq_table_prep_get would copy it),
 * valid until the next start; NULL when the thread did not make it. */
const uint32_t *sq_table_prep_asc(struct sq_table_prep *p,
				  const struct sq_snapshot *snap, int col);

/* Wait until the thread is done: the milliseconds it took from its
 * start (make bench). */
double sq_table_prep_wait(struct sq_table_prep *p);

#endif
