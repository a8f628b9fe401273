/*
 * view_scope.c - one snapshot, several views: the rows of a view's scope
 * (view_scope.h).
 */
#include <stddef.h>

#include "session/plan.h"
#include "tui/table.h"
#include "tui/view_scope.h"

void
sq_tui_scope_arrange(struct sq_table *t)
{
	size_t i, n = 0;

	if (t->sliced) /* every row is of the scope */
		return;
	for (i = 0; i < t->nrows; i++) {
		if (sq_plan_in_scope(t->def,
				     sq_snapshot_row(t->snap, t->rows[i].rec)))
			t->rows[n++] = t->rows[i];
	}
	t->nrows = n;
}
