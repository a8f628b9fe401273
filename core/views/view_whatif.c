/*
 * view_whatif.c - the what-if view: each pending job's priority and rank
 * in its partition today and under the weights tried, the changes, the
 * model's own value with today's weights (its check against sprio), and
 * the normalized factors. Sorted by the largest move.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/views/view_admin_cols.h"
#include "core/views/view_cols.h"
#include "core/analysis/whatif.h"

#define R struct sq_whatif

/* A signed change: "+3", "-2", "0" (sq_col_int reads -1 and -2 as
 * "not set" and UNLIMITED). */
#define SQ_SIGNED_FIELD(name, expr)                                            \
	static int name##_num(const void *rec_, long long *v)                  \
	{                                                                      \
		const R *r = rec_;                                             \
		*v = (long long)(expr);                                        \
		return 0;                                                      \
	}                                                                      \
	static const char *name(const void *rec_, char *buf, size_t n)         \
	{                                                                      \
		long long v;                                                   \
		name##_num(rec_, &v);                                          \
		snprintf(buf, n, v ? "%+lld" : "0", v);                        \
		return buf;                                                    \
	}

SQ_STR_FIELD(c_user, R, r->user)
SQ_STR_FIELD(c_acct, R, r->account)
SQ_STR_FIELD(c_part, R, r->partition)
SQ_STR_FIELD(c_tres, R, r->tres_n)
SQ_INT_FIELD(c_id, R, r->job_id)
SQ_INT_FIELD(c_prio, R, r->priority)
SQ_INT_FIELD(c_new, R, r->priority_new)
SQ_SIGNED_FIELD(c_delta, r->delta)
SQ_INT_FIELD(c_rank, R, r->rank)
SQ_INT_FIELD(c_rank_new, R, r->rank_new)
SQ_SIGNED_FIELD(c_move, r->move)
SQ_INT_FIELD(c_shift, R, llabs(r->move))
SQ_INT_FIELD(c_model, R, r->priority_model)
SQ_INT_FIELD(c_site, R, r->site)
SQ_INT_FIELD(c_nice, R, r->nice)
SQ_DBL_FIELD(c_age, R, r->norm[SQ_WF_AGE])
SQ_DBL_FIELD(c_age_new, R, r->age_new)
SQ_DBL_FIELD(c_fs, R, r->norm[SQ_WF_FAIRSHARE])
SQ_DBL_FIELD(c_js, R, r->norm[SQ_WF_JOBSIZE])
SQ_DBL_FIELD(c_pp, R, r->norm[SQ_WF_PARTITION])
SQ_DBL_FIELD(c_qos, R, r->norm[SQ_WF_QOS])
SQ_DBL_FIELD(c_assoc, R, r->norm[SQ_WF_ASSOC])

#define NUM SQ_COL_NUM
#define HID (SQ_COL_NUM | SQ_COL_HIDDEN)

static const struct sq_column cols[] = {
	{ "job_id", "JOBID", "job id", 8, SQ_RIGHT, c_id, c_id_num, NUM },
	{ "partition", "PARTITION",
	  "partition (a job has a row per "
	  "partition)",
	  9, SQ_LEFT, c_part, NULL, 0 },
	{ "user", "USER", "owner", 9, SQ_LEFT, c_user, NULL, 0 },
	{ "account", "ACCOUNT", "account (from the queue)", 10, SQ_LEFT, c_acct,
	  NULL, 0 },
	{ "priority", "PRIORITY", "priority today (sprio)", 9, SQ_RIGHT, c_prio,
	  c_prio_num, NUM },
	{ "priority_new", "NEW", "priority under the weights tried", 9,
	  SQ_RIGHT, c_new, c_new_num, NUM },
	{ "delta", "DELTA", "priority_new - priority", 8, SQ_RIGHT, c_delta,
	  c_delta_num, NUM },
	{ "rank", "RANK", "place in the partition today (1 starts first)", 4,
	  SQ_RIGHT, c_rank, c_rank_num, NUM },
	{ "rank_new", "RNEW",
	  "place in the partition under the weights "
	  "tried",
	  4, SQ_RIGHT, c_rank_new, c_rank_new_num, NUM },
	{ "move", "MOVE", "rank - rank_new: places gained (+) or lost (-)", 5,
	  SQ_RIGHT, c_move, c_move_num, NUM },
	{ "shift", "SHIFT", "places moved either way (the default sort)", 5,
	  SQ_RIGHT, c_shift, c_shift_num, HID },
	{ "priority_model", "MODEL",
	  "today's weights times sprio -n's "
	  "factors: equals priority within rounding",
	  9, SQ_RIGHT, c_model, c_model_num, HID },
	{ "site", "SITE", "site factor (carried unchanged)", 5, SQ_RIGHT,
	  c_site, c_site_num, HID },
	{ "nice", "NICE", "nice adjustment (carried unchanged)", 5, SQ_RIGHT,
	  c_nice, c_nice_num, HID },
	{ "age", "AGE", "age factor (0..1)", 9, SQ_RIGHT, c_age, c_age_num,
	  HID },
	{ "age_new", "AGENEW", "age factor under the PriorityMaxAge tried", 9,
	  SQ_RIGHT, c_age_new, c_age_new_num, HID },
	{ "fairshare", "FAIRSH", "fairshare factor (0..1)", 9, SQ_RIGHT, c_fs,
	  c_fs_num, HID },
	{ "jobsize", "JOBSZ", "job size factor (0..1)", 9, SQ_RIGHT, c_js,
	  c_js_num, HID },
	{ "partition_factor", "PARTF", "partition factor (0..1)", 9, SQ_RIGHT,
	  c_pp, c_pp_num, HID },
	{ "qos", "QOSF", "QOS factor (0..1)", 9, SQ_RIGHT, c_qos, c_qos_num,
	  HID },
	{ "assoc", "ASSOCF", "association factor (0..1)", 9, SQ_RIGHT, c_assoc,
	  c_assoc_num, HID },
	{ "tres", "TRES", "TRES factors (0..1, two decimals from sprio)", 24,
	  SQ_LEFT, c_tres, NULL, SQ_COL_HIDDEN },
};

static const char *const aliases[] = { "what-if", "wi", NULL };

const struct sq_view_def sq_view_whatif = {
	.name = "whatif",
	.aliases = aliases,
	.help = "pending jobs' priority and rank under other weights",
	.kind = SQ_KIND_WHATIF,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = "-shift",
};
