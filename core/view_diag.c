/*
 * view_diag.c - controller health from sdiag (REST /diag): threads,
 * agent queue, scheduler and backfill cycle times, RPCs by message type
 * and by user, as section/key/value rows.
 */
#include "core/view_admin.h"
#include "core/view_admin_cols.h"

#define K struct sq_kv

SQ_STR_FIELD(c_section, K, r->section)
SQ_STR_FIELD(c_key, K, r->key)
SQ_STR_FIELD(c_value, K, r->value)

static const struct sq_column cols[] = {
	{ "section", "SECTION",
	  "general, main, backfill, rpc_type, rpc_user, "
	  "pending_rpc",
	  9, SQ_LEFT, c_section, NULL, 0 },
	{ "key", "KEY", "statistic, RPC message type or user", 36, SQ_LEFT,
	  c_key, NULL, 0 },
	{ "value", "VALUE",
	  "value (times: epoch; RPCs: count, ave_time, "
	  "total_time in microseconds)",
	  30, SQ_LEFT, c_value, NULL, 0 },
};

static const char *const aliases[] = { "sdiag", "health", NULL };

const struct sq_view_def sq_view_diag = {
	.name = "diag",
	.aliases = aliases,
	.help = "controller statistics (sdiag)",
	.kind = SQ_KIND_DIAG,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = NULL,
};
