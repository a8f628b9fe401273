/*
 * view_history_users.c - the history-users view: each user's runs in the
 * window by outcome, CPU and GPU hours, median CPU and memory efficiency,
 * so an admin spots who wastes an allocation or keeps failing.
 */
#include "core/views/view_history_cols.h"

SQ_STR_FIELD(c_user, H, r->user)
SQ_HIST_SUMMARY_FIELDS

static const struct sq_column cols[] = {
	{ "user", "USER", "user", 9, SQ_LEFT, c_user, NULL, 0 },
	SQ_HIST_SUMMARY_COLS,
};

static const char *const aliases[] = { "history-user", "hist-users", NULL };

const struct sq_view_def sq_view_history_users = {
	.name = "history-users",
	.aliases = aliases,
	.help = "runs in the window per user: outcomes, hours, efficiency",
	.kind = SQ_KIND_HISTORY,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "-cpu_hours",
};
