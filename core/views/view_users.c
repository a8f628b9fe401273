/*
 * view_users.c - the users view: default account, admin level, the
 * accounts and QOS of a user's associations, the accounts it
 * coordinates (sacctmgr show user; REST /slurmdb/users).
 */
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define U struct sq_user

SQ_STR_FIELD(c_name, U, r->name)
SQ_STR_FIELD(c_defacct, U, r->default_account)
SQ_STR_FIELD(c_wckey, U, r->default_wckey)
SQ_STR_FIELD(c_admin, U, r->admin_level)
SQ_STR_FIELD(c_accounts, U, r->accounts)
SQ_STR_FIELD(c_coord, U, r->coordinator_of)
SQ_STR_FIELD(c_qos, U, r->qos)
SQ_STR_FIELD(c_defqos, U, r->default_qos)

static const struct sq_column cols[] = {
	{ "user", "USER", "user name", 10, SQ_LEFT, c_name, NULL, 0 },
	{ "default_account", "DEF_ACCOUNT", "default account", 11, SQ_LEFT,
	  c_defacct, NULL, 0 },
	{ "admin_level", "ADMIN", "None, Operator or Administrator", 13,
	  SQ_LEFT, c_admin, NULL, 0 },
	{ "accounts", "ACCOUNTS", "accounts it has an association in", 20,
	  SQ_LEFT, c_accounts, NULL, 0 },
	{ "coordinator_of", "COORDINATORS", "accounts it coordinates", 14,
	  SQ_LEFT, c_coord, NULL, 0 },
	{ "default_qos", "DEF_QOS", "default QOS of its default association", 8,
	  SQ_LEFT, c_defqos, NULL, 0 },
	{ "qos", "QOS", "QOS its associations allow", 16, SQ_LEFT, c_qos, NULL,
	  0 },
	{ "default_wckey", "DEF_WCKEY", "default WCKey", 9, SQ_LEFT, c_wckey,
	  NULL, SQ_HID },
};

static const char *const aliases[] = { "user", "u", NULL };

const struct sq_view_def sq_view_users = {
	.name = "users",
	.aliases = aliases,
	.help = "users: default account, admin level, accounts, QOS",
	.kind = SQ_KIND_USERS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "user",
};
