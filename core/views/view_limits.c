/*
 * view_limits.c - the limits in force with their current usage
 * (scontrol show assoc_mgr flags=assoc,qos): one row per set limit of an
 * association or QOS, so "who is at a limit" is a filter away.
 */
#include <string.h>

#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define L struct sq_limit

SQ_STR_FIELD(c_scope, L, r->scope)
SQ_STR_FIELD(c_cluster, L, r->cluster)
SQ_STR_FIELD(c_account, L, r->account)
SQ_STR_FIELD(c_user, L, r->user)
SQ_STR_FIELD(c_part, L, r->partition)
SQ_STR_FIELD(c_parent, L, r->parent)
SQ_STR_FIELD(c_qos, L, r->qos)
SQ_STR_FIELD(c_limit, L, r->limit)
SQ_STR_FIELD(c_tres, L, r->tres)
SQ_INT_FIELD(c_id, L, r->id)

/* GrpWall and MaxWallPJ are minutes in assoc_mgr: shown as durations,
 * as the assocs and qos views show them (the sort stays on minutes) */
static int
is_wall(const L *r)
{
	return strcmp(r->limit, "GrpWall") == 0 ||
	       strcmp(r->limit, "MaxWallPJ") == 0;
}

static const char *
minutes_or_int(const L *r, int64_t v, char *buf, size_t n)
{
	/* minutes too large to count in seconds are shown as Slurm gave
	 * them (fuzz cli_assoc_mgr: INT64_MAX * 60 overflowed) */
	if (v == SQ_NONE || !is_wall(r) || v > INT64_MAX / 60)
		return sq_col_int(v, buf, n);
	return sq_col_duration(v < 0 ? v : v * 60, buf, n);
}

static int
c_value_num(const void *rec, long long *v)
{
	*v = ((const L *)rec)->value;
	return 0;
}

static const char *
c_value(const void *rec, char *buf, size_t n)
{
	const L *r = rec;

	return minutes_or_int(r, r->value, buf, n);
}

static int
c_used_num(const void *rec, long long *v)
{
	*v = ((const L *)rec)->used;
	return 0;
}

static const char *
c_used(const void *rec, char *buf, size_t n)
{
	const L *r = rec;

	return minutes_or_int(r, r->used, buf, n);
}

static const char *
c_at(const void *rec, char *buf, size_t n)
{
	const L *r = rec;

	(void)buf;
	(void)n;
	if (r->used == SQ_NONE || r->value < 0)
		return NULL;
	return r->used >= r->value ? "yes" : "no";
}

static const struct sq_column cols[] = {
	{ "scope", "SCOPE", "assoc or qos", 5, SQ_LEFT, c_scope, NULL, 0 },
	{ "cluster", "CLUSTER", "cluster", 8, SQ_LEFT, c_cluster, NULL,
	  SQ_HID },
	{ "qos", "QOS", "QOS (qos scope)", 8, SQ_LEFT, c_qos, NULL, 0 },
	{ "account", "ACCOUNT",
	  "association account, or the account of a "
	  "per-account QOS limit",
	  10, SQ_LEFT, c_account, NULL, 0 },
	{ "user", "USER",
	  "association user, or the user of a per-user QOS "
	  "limit",
	  9, SQ_LEFT, c_user, NULL, 0 },
	{ "partition", "PARTITION", "association partition", 9, SQ_LEFT, c_part,
	  NULL, SQ_HID },
	{ "parent", "PARENT", "parent account (account associations)", 9,
	  SQ_LEFT, c_parent, NULL, SQ_HID },
	{ "id", "ID", "association or QOS id", 4, SQ_RIGHT, c_id, c_id_num,
	  SQ_NUM | SQ_HID },
	{ "limit", "LIMIT", "assoc_mgr name (GrpTRES, MaxJobs, MaxJobsPU ...)",
	  12, SQ_LEFT, c_limit, NULL, 0 },
	{ "tres", "TRES", "TRES of a TRES limit", 10, SQ_LEFT, c_tres, NULL,
	  0 },
	{ "value", "VALUE", "the limit (GrpWall, MaxWallPJ: a duration)", 7,
	  SQ_RIGHT, c_value, c_value_num, SQ_NUM },
	{ "used", "USED", "current usage", 7, SQ_RIGHT, c_used, c_used_num,
	  SQ_NUM },
	{ "at_limit", "AT_LIMIT", "usage has reached the limit", 8, SQ_LEFT,
	  c_at, NULL, 0 },
};

static const char *const aliases[] = { "assoc_mgr", NULL };

const struct sq_view_def sq_view_limits = {
	.name = "limits",
	.aliases = aliases,
	.help = "limits in force with their usage (assoc_mgr)",
	.kind = SQ_KIND_LIMITS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = NULL,
};
