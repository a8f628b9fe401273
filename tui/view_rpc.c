/*
 * view_rpc.c - the rpc-types and rpc-users views in the console: each
 * shows the rows of its scope of the one RPC snapshot (core/analysis/rpc.h).
 */
#include "session/plan.h"
#include "tui/table.h"
#include "tui/view_scope.h"
#include "tui/views.h"

const struct sq_tui_view sq_tui_view_rpc = {
	.kind = SQ_KIND_RPC,
	.arrange = sq_tui_scope_arrange,
	.scoped = 1,
};
