/*
 * view_problems.c - what accounting finds wrong in its accounts and
 * users (sacctmgr show problem): an account without users or
 * associations, a user without a default account, associations or uid.
 * One row per problem; the account and user columns name what to fix
 * (the accounts and users views, and their actions, fix it).
 */
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"
#include "core/views/view_cols.h"

#define P struct sq_problem

SQ_STR_FIELD(c_cluster, P, r->cluster)
SQ_STR_FIELD(c_account, P, r->account)
SQ_STR_FIELD(c_user, P, r->user)
SQ_STR_FIELD(c_problem, P, r->problem)

static const struct sq_column cols[] = {
	{ "account", "ACCOUNT", "the account with the problem, or the user's",
	  14, SQ_LEFT, c_account, NULL, 0 },
	{ "user", "USER", "the user with the problem (none: the account's)", 12,
	  SQ_LEFT, c_user, NULL, 0 },
	{ "problem", "PROBLEM", "what slurmdbd finds wrong, in Slurm's words",
	  40, SQ_LEFT, c_problem, NULL, 0 },
	{ "cluster", "CLUSTER", "cluster in accounting", 10, SQ_LEFT, c_cluster,
	  NULL, 0 },
};

static const char *const aliases[] = { "problem", "acct-problems", NULL };

const struct sq_view_def sq_view_problems = {
	.name = "problems",
	.aliases = aliases,
	.help = "accounts and users with problems (sacctmgr show problem)",
	.kind = SQ_KIND_PROBLEMS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "account",
};
