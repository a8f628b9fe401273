/*
 * view_history_accounts.c - the history-accounts view: each account's
 * runs in the window by outcome, CPU and GPU hours, median CPU and memory
 * efficiency, to compare groups.
 */
#include "core/views/view_history_cols.h"

SQ_STR_FIELD(c_account, H, r->account)
SQ_HIST_SUMMARY_FIELDS

static const struct sq_column cols[] = {
	{ "account", "ACCOUNT", "account", 10, SQ_LEFT, c_account, NULL, 0 },
	SQ_HIST_SUMMARY_COLS,
};

static const char *const aliases[] = { "history-account", "hist-accounts",
				       NULL };

const struct sq_view_def sq_view_history_accounts = {
	.name = "history-accounts",
	.aliases = aliases,
	.help = "runs in the window per account: outcomes, hours, efficiency",
	.kind = SQ_KIND_HISTORY,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "-cpu_hours",
};
