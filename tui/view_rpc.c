/*
 * view_rpc.c - the rpc-types and rpc-users views in the console: each
 * shows the rows of its scope of the one RPC snapshot (core/rpc.h).
 */
#include "session/plan.h"
#include "tui/table.h"
#include "tui/views.h"

static void
arrange(struct sq_table *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nrows; i++) {
		if (sq_plan_in_scope(t->def,
				     sq_snapshot_row(t->snap, t->rows[i].rec)))
			t->rows[n++] = t->rows[i];
	}
	t->nrows = n;
}

const struct sq_tui_view sq_tui_view_rpc = {
	.kind = SQ_KIND_RPC,
	.arrange = arrange,
};
