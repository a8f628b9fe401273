/*
 * view_accounts.c - the accounts view: every account with its parent,
 * organization, coordinators, users and shares (sacctmgr show account;
 * REST /slurmdb/accounts). Limits live in the assocs view.
 */
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define A struct sq_account

SQ_STR_FIELD(c_name, A, r->name)
SQ_STR_FIELD(c_parent, A, r->parent)
SQ_STR_FIELD(c_descr, A, r->description)
SQ_STR_FIELD(c_org, A, r->organization)
SQ_STR_FIELD(c_coord, A, r->coordinators)
SQ_STR_FIELD(c_users, A, r->users)
SQ_INT_FIELD(c_nusers, A, r->nusers)

static int
c_shares_num(const void *rec, long long *v)
{
	*v = ((const A *)rec)->shares;
	return 0;
}

static const char *
c_shares(const void *rec, char *buf, size_t n)
{
	const A *r = rec;

	if (r->shares == SQ_INFINITE)
		return "parent";
	return sq_col_int(r->shares, buf, n);
}

static const struct sq_column cols[] = {
	{ "account", "ACCOUNT", "account name", 12, SQ_LEFT, c_name, NULL, 0 },
	{ "parent", "PARENT", "parent account", 10, SQ_LEFT, c_parent, NULL,
	  0 },
	{ "shares", "SHARES", "raw fairshare shares of its association", 6,
	  SQ_RIGHT, c_shares, c_shares_num, SQ_NUM },
	{ "nusers", "NUSERS", "users with an association in it", 6, SQ_RIGHT,
	  c_nusers, c_nusers_num, SQ_NUM },
	{ "users", "USERS", "users with an association in it", 24, SQ_LEFT,
	  c_users, NULL, 0 },
	{ "coordinators", "COORDINATORS", "account coordinators", 14, SQ_LEFT,
	  c_coord, NULL, 0 },
	{ "organization", "ORG", "organization", 10, SQ_LEFT, c_org, NULL, 0 },
	{ "description", "DESCRIPTION", "description (sacctmgr lower-cases it)",
	  20, SQ_LEFT, c_descr, NULL, 0 },
};

static const char *const aliases[] = { "account", "acct", NULL };

const struct sq_view_def sq_view_accounts = {
	.name = "accounts",
	.aliases = aliases,
	.help = "accounts: parent, users, coordinators, shares",
	.kind = SQ_KIND_ACCOUNTS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "account",
};
