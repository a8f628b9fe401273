/*
 * view_reservations.c - reservations: when, where, for whom, flags
 * (scontrol show reservation; REST /reservations), the time to the
 * start and a strip over the next days (core/action/resv.c).
 */
#include <time.h>

#include "core/action/resv.h"
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define R struct sq_reservation

SQ_STR_FIELD(c_name, R, r->name)
SQ_STR_FIELD(c_state, R, r->state)
SQ_STR_FIELD(c_nodes, R, r->nodes)
SQ_STR_FIELD(c_features, R, r->features)
SQ_STR_FIELD(c_part, R, r->partition)
SQ_STR_FIELD(c_flags, R, r->flags)
SQ_STR_FIELD(c_tres, R, r->tres)
SQ_STR_FIELD(c_users, R, r->users)
SQ_STR_FIELD(c_groups, R, r->groups)
SQ_STR_FIELD(c_accounts, R, r->accounts)
SQ_STR_FIELD(c_licenses, R, r->licenses)
SQ_STR_FIELD(c_bb, R, r->burst_buffer)
SQ_STR_FIELD(c_delay, R, r->max_start_delay)
SQ_INT_FIELD(c_nodecnt, R, r->node_cnt)
SQ_INT_FIELD(c_corecnt, R, r->core_cnt)
SQ_TIME_FIELD(c_start, R, r->start_time)
SQ_TIME_FIELD(c_end, R, r->end_time)
SQ_DUR_FIELD(c_duration, R, r->duration)

static int
c_starts_in_num(const void *rec, long long *v)
{
	const R *r = rec;

	if (r->start_time < 0)
		return -1;
	*v = (long long)(r->start_time - (int64_t)time(NULL));
	return 0;
}

static const char *
c_starts_in(const void *rec, char *buf, size_t n)
{
	const R *r = rec;

	sq_resv_starts_in(r->start_time, r->end_time, time(NULL), buf, n);
	return buf;
}

static const char *
c_timeline(const void *rec, char *buf, size_t n)
{
	const R *r = rec;

	sq_resv_strip(r->start_time, r->end_time, time(NULL), buf, n);
	return buf;
}

static const struct sq_column cols[] = {
	{ "name", "NAME", "reservation name", 14, SQ_LEFT, c_name, NULL, 0 },
	{ "state", "STATE", "ACTIVE or INACTIVE", 8, SQ_LEFT, c_state, NULL,
	  0 },
	{ "starts_in", "STARTS", "time to the start, or active and time left",
	  16, SQ_LEFT, c_starts_in, c_starts_in_num, SQ_NUM },
	{ "timeline", "NEXT_7_DAYS",
	  "the next 7 days from midnight: # reserved, . free, | a day", 34,
	  SQ_LEFT, c_timeline, NULL, 0 },
	{ "start_time", "START", "start (local time)", 19, SQ_LEFT, c_start,
	  c_start_num, SQ_NUM | SQ_COL_TIME },
	{ "end_time", "END", "end (local time)", 19, SQ_LEFT, c_end, c_end_num,
	  SQ_NUM | SQ_COL_TIME },
	{ "duration", "DURATION", "duration", 10, SQ_RIGHT, c_duration,
	  c_duration_num, SQ_NUM },
	{ "nodes", "NODES", "reserved nodes", 10, SQ_LEFT, c_nodes, NULL, 0 },
	{ "node_cnt", "NODE_CNT", "node count", 8, SQ_RIGHT, c_nodecnt,
	  c_nodecnt_num, SQ_NUM },
	{ "core_cnt", "CORE_CNT", "core count", 8, SQ_RIGHT, c_corecnt,
	  c_corecnt_num, SQ_NUM | SQ_HID },
	{ "partition", "PARTITION", "partition", 9, SQ_LEFT, c_part, NULL, 0 },
	{ "flags", "FLAGS", "flags (MAINT, IGNORE_JOBS ...)", 16, SQ_LEFT,
	  c_flags, NULL, 0 },
	{ "users", "USERS", "users allowed", 12, SQ_LEFT, c_users, NULL, 0 },
	{ "accounts", "ACCOUNTS", "accounts allowed", 12, SQ_LEFT, c_accounts,
	  NULL, 0 },
	{ "groups", "GROUPS", "groups allowed", 10, SQ_LEFT, c_groups, NULL,
	  SQ_HID },
	{ "tres", "TRES", "reserved TRES", 12, SQ_LEFT, c_tres, NULL, 0 },
	{ "features", "FEATURES", "node features", 10, SQ_LEFT, c_features,
	  NULL, SQ_HID },
	{ "licenses", "LICENSES", "licenses", 10, SQ_LEFT, c_licenses, NULL,
	  SQ_HID },
	{ "burst_buffer", "BURST_BUFFER", "burst buffer", 10, SQ_LEFT, c_bb,
	  NULL, SQ_HID },
	{ "max_start_delay", "MAX_START_DELAY", "MaxStartDelay", 10, SQ_LEFT,
	  c_delay, NULL, SQ_HID },
};

static const char *const aliases[] = { "res", "reservation", NULL };

const struct sq_view_def sq_view_reservations = {
	.name = "reservations",
	.aliases = aliases,
	.help = "reservations: when, which nodes, for whom",
	.kind = SQ_KIND_RESERVATIONS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "start_time",
};
