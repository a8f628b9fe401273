/*
 * view_rpc.c - who loads slurmctld now: sdiag's RPCs by message type
 * (rpc-types) and by user (rpc-users) with the rate per minute between
 * the last two refreshes, a sparkline of the rates of the refreshes kept,
 * the average time and the share of all RPCs; squall's own marked
 * (core/analysis/rpc.h).
 */
#include <math.h>
#include <stdio.h>

#include "core/analysis/overview.h"
#include "core/analysis/rpc.h"
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define R struct sq_rpc

SQ_STR_FIELD(c_name, R, r->name)
SQ_INT_FIELD(c_count, R, r->count)
SQ_INT_FIELD(c_ave, R, r->ave_time)
SQ_INT_FIELD(c_total, R, r->total_time)

static const char *
fmt1(double v, char *buf, size_t n)
{
	if (isnan(v))
		return NULL;
	snprintf(buf, n, "%.1f", v);
	return buf;
}

static int
c_rate_num(const void *rec, long long *v)
{
	*v = sq_col_double_key(((const R *)rec)->rate);
	return 0;
}

static const char *
c_rate(const void *rec, char *buf, size_t n)
{
	return fmt1(((const R *)rec)->rate, buf, n);
}

static int
c_share_num(const void *rec, long long *v)
{
	*v = sq_col_double_key(((const R *)rec)->share);
	return 0;
}

static const char *
c_share(const void *rec, char *buf, size_t n)
{
	return fmt1(((const R *)rec)->share, buf, n);
}

/* the rates of the refreshes kept, oldest first (a reset: the lowest) */
static const char *
c_trend(const void *rec, char *buf, size_t n)
{
	const R *r = rec;
	double v[SQ_RPC_KEEP];
	int i;

	if (r->nrates < 2)
		return NULL;
	for (i = 0; i < r->nrates; i++)
		v[i] = isnan(r->rates[i]) ? 0 : r->rates[i];
	sq_spark_render(v, (size_t)r->nrates, 0, buf, n);
	return buf;
}

static const char *
c_own(const void *rec, char *buf, size_t n)
{
	(void)buf;
	(void)n;
	return ((const R *)rec)->own ? "squall" : NULL;
}

#define COLS(what, name_help)                                                  \
	{ "name", what, name_help, 32, SQ_LEFT, c_name, NULL, 0 },             \
	    { "count",     "COUNT",  "RPCs since sdiag's statistics began",    \
	      8,           SQ_RIGHT, c_count,                                  \
	      c_count_num, SQ_NUM },                                           \
	    { "rate",                                                          \
	      "/MIN",                                                          \
	      "RPCs per minute between the last two refreshes (empty: one "    \
	      "read so far, or the counters were reset)",                      \
	      7,                                                               \
	      SQ_RIGHT,                                                        \
	      c_rate,                                                          \
	      c_rate_num,                                                      \
	      SQ_NUM },                                                        \
	    { "trend",                                                         \
	      "TREND",                                                         \
	      "the rate at each refresh kept (oldest first), a sparkline",     \
	      15,                                                              \
	      SQ_LEFT,                                                         \
	      c_trend,                                                         \
	      NULL,                                                            \
	      0 },                                                             \
	    { "ave_time", "AVE_US", "average time of one, microseconds",       \
	      8,          SQ_RIGHT, c_ave,                                     \
	      c_ave_num,  SQ_NUM },                                            \
	    { "share",     "SHARE%", "percent of all RPCs counted",            \
	      6,           SQ_RIGHT, c_share,                                  \
	      c_share_num, SQ_NUM },                                           \
	    { "total_time",                                                    \
	      "TOTAL_US",                                                      \
	      "time of all, microseconds",                                     \
	      12,                                                              \
	      SQ_RIGHT,                                                        \
	      c_total,                                                         \
	      c_total_num,                                                     \
	      SQ_NUM | SQ_COL_HIDDEN },                                        \
	{                                                                      \
		"own", "OWN", own_help, 6, SQ_LEFT, c_own, NULL, 0             \
	}

#define own_help_types "squall: squall's own fetches send this type too"
#define own_help_users "squall: the user squall connects as"

static const struct sq_column type_cols[] = {
#define own_help own_help_types
	COLS("TYPE", "the RPC's message type, as sdiag names it"),
#undef own_help
};

static const struct sq_column user_cols[] = {
#define own_help own_help_users
	COLS("USER", "the user who sent the RPCs"),
#undef own_help
};

static const char *const type_aliases[] = { "rpc", "rpcs", NULL };
static const char *const user_aliases[] = { "rpc-user", NULL };

const struct sq_view_def sq_view_rpc_types = {
	.name = "rpc-types",
	.aliases = type_aliases,
	.help = "slurmctld RPCs by message type: rate now, share (sdiag)",
	.kind = SQ_KIND_RPC,
	.cols = type_cols,
	.ncols = SQ_COLS(type_cols),
	.default_sort = "-rate",
};

const struct sq_view_def sq_view_rpc_users = {
	.name = "rpc-users",
	.aliases = user_aliases,
	.help = "slurmctld RPCs by user: rate now, share (sdiag)",
	.kind = SQ_KIND_RPC,
	.cols = user_cols,
	.ncols = SQ_COLS(user_cols),
	.default_sort = "-rate",
};
