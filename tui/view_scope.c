/*
 * view_scope.c - one snapshot, several views: the rows of a view's scope
 * (view_scope.h).
 */
#include <stddef.h>

#include "session/plan.h"
#include "tui/table.h"
#include "tui/view_scope.h"
#include "tui/views.h"

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

struct sq_snapshot *
sq_tui_scope_slice(const struct sq_table *t, struct sq_snapshot *s)
{
	size_t first, n;

	if (t->ops == NULL || t->ops->arrange != sq_tui_scope_arrange ||
	    sq_plan_scope_rows(t->def, s, &first, &n) == -1)
		return NULL;
	return sq_snapshot_slice(s, first, n);
}
