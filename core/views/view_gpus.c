/*
 * view_gpus.c - accelerators (every GRES in SQ_ACCEL_NAMES: gpu and its
 * types, tpu, shard, mps ...) in four views over one GPUS snapshot:
 *   gpus             per node and type: total, alloc, idle
 *   gpus-partitions  per partition and type (sums of its nodes)
 *   gpus-users       per user, account and type: allocated to running jobs
 *   gpus-accounts    per account and type
 * util is the live use of the jobs on the row (core/analysis/gpuuse_join.c)
 * where the cluster measures it; otherwise the util column says why. pend_gpus,
 * pend_jobs and longest_wait: the demand of the pending jobs (partition, user
 * and account rows; core/analysis/gpus.c sq_gpus_add_pending).
 */
#include <string.h>

#include "core/analysis/gpus.h"
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define G struct sq_gpu

SQ_STR_FIELD(c_node, G, r->node)
SQ_STR_FIELD(c_part, G, r->partition)
SQ_STR_FIELD(c_user, G, r->user)
SQ_STR_FIELD(c_account, G, r->account)
SQ_STR_FIELD(c_name, G, r->name)
SQ_INT_FIELD(c_total, G, r->total)
SQ_INT_FIELD(c_alloc, G, r->alloc)
SQ_INT_FIELD(c_idle, G, r->idle)
SQ_INT_FIELD(c_jobs, G, r->jobs)

static const char *
c_type(const void *rec, char *buf, size_t n)
{
	const G *r = rec;

	(void)buf;
	(void)n;
	/* an untyped GRES: say so rather than leave a hole */
	return r->type[0] != '\0' ? r->type : "(any)";
}

static int
c_util_num(const void *rec, long long *v)
{
	*v = ((const G *)rec)->util;
	return 0;
}

static const char *
c_util(const void *rec, char *buf, size_t n)
{
	const G *r = rec;

	if (r->util == SQ_NONE)
		return r->util_note[0] ? r->util_note : NULL;
	snprintf(buf, n, "%lld%%", (long long)r->util);
	return buf;
}

static int
c_pend_num(const void *rec, long long *v)
{
	*v = ((const G *)rec)->pend_gpus;
	return 0;
}

static const char *
c_pend(const void *rec, char *buf, size_t n)
{
	const G *r = rec;

	if (r->pend_gpus == SQ_NONE)
		return r->pend_note[0] ? r->pend_note : NULL;
	return sq_col_int(r->pend_gpus, buf, n);
}

SQ_INT_FIELD(c_pjobs, G, r->pend_jobs)
SQ_DUR_FIELD(c_wait, G, r->pend_wait)

#define COL_PEND                                                               \
	{ "pend_gpus",                                                         \
	  "PEND",                                                              \
	  "GPUs asked for by pending jobs (each array task counts; "           \
	  "tres-per-job, else per node x nodes, else per task x tasks), "      \
	  "or why unknown",                                                    \
	  5,                                                                   \
	  SQ_RIGHT,                                                            \
	  c_pend,                                                              \
	  c_pend_num,                                                          \
	  SQ_NUM },                                                            \
	    { "pend_jobs", "PJOBS",  "pending jobs asking for some",           \
	      5,           SQ_RIGHT, c_pjobs,                                  \
	      c_pjobs_num, SQ_NUM },                                           \
	{                                                                      \
		"longest_wait", "WAIT",                                        \
		    "longest wait of those jobs: now - SubmitTime", 10,        \
		    SQ_RIGHT, c_wait, c_wait_num, SQ_NUM                       \
	}

#define COL_GRES                                                               \
	{                                                                      \
		"gres", "GRES", "accelerator GRES (gpu, tpu, shard, mps ...)", \
		    5, SQ_LEFT, c_name, NULL, 0                                \
	}
#define COL_TYPE                                                               \
	{                                                                      \
		"type", "TYPE", "GRES type, (any) when untyped", 8, SQ_LEFT,   \
		    c_type, NULL, 0                                            \
	}
#define COL_UTIL                                                               \
	{                                                                      \
		"util", "UTIL",                                                \
		    "GPU use of its jobs (sstat), weighted by their GPUs, "    \
		    "or why there is none",                                    \
		    12, SQ_LEFT, c_util, c_util_num, 0                         \
	}

/* what the running jobs of a user or an account row hold */
#define COL_HELD                                                               \
	{ "alloc",     "ALLOC",  "allocated to its running jobs",              \
	  5,           SQ_RIGHT, c_alloc,                                      \
	  c_alloc_num, SQ_NUM },                                               \
	    { "jobs",     "JOBS",   "running jobs holding some",               \
	      4,          SQ_RIGHT, c_jobs,                                    \
	      c_jobs_num, SQ_NUM },                                            \
	{                                                                      \
		"idle", "IDLE", "GPUs of its jobs that gpus-idle lists", 5,    \
		    SQ_RIGHT, c_idle, c_idle_num, SQ_NUM                       \
	}

static const struct sq_column node_cols[] = {
	{ "node", "NODE", "node", 8, SQ_LEFT, c_node, NULL, 0 },
	COL_GRES,
	COL_TYPE,
	{ "total", "TOTAL", "configured", 5, SQ_RIGHT, c_total, c_total_num,
	  SQ_NUM },
	{ "alloc", "ALLOC", "allocated (GresUsed)", 5, SQ_RIGHT, c_alloc,
	  c_alloc_num, SQ_NUM },
	{ "idle", "IDLE", "total - alloc", 5, SQ_RIGHT, c_idle, c_idle_num,
	  SQ_NUM },
	{ "partitions", "PARTITIONS", "partitions of the node", 14, SQ_LEFT,
	  c_part, NULL, 0 },
	COL_UTIL,
};

static const struct sq_column part_cols[] = {
	{ "partition", "PARTITION", "partition", 9, SQ_LEFT, c_part, NULL, 0 },
	COL_GRES,
	COL_TYPE,
	{ "total", "TOTAL", "configured on its nodes", 5, SQ_RIGHT, c_total,
	  c_total_num, SQ_NUM },
	{ "alloc", "ALLOC", "allocated on its nodes (by any partition)", 5,
	  SQ_RIGHT, c_alloc, c_alloc_num, SQ_NUM },
	{ "idle", "IDLE", "total - alloc", 5, SQ_RIGHT, c_idle, c_idle_num,
	  SQ_NUM },
	{ "jobs", "JOBS", "running jobs of this partition holding some", 4,
	  SQ_RIGHT, c_jobs, c_jobs_num, SQ_NUM },
	COL_UTIL,
	COL_PEND,
};

static const struct sq_column user_cols[] = {
	{ "user", "USER", "user", 9, SQ_LEFT, c_user, NULL, 0 },
	{ "account", "ACCOUNT", "account", 10, SQ_LEFT, c_account, NULL, 0 },
	COL_GRES,
	COL_TYPE,
	COL_HELD,
	COL_UTIL,
	COL_PEND,
};

static const struct sq_column account_cols[] = {
	{ "account", "ACCOUNT", "account", 10, SQ_LEFT, c_account, NULL, 0 },
	COL_GRES,
	COL_TYPE,
	COL_HELD,
	COL_UTIL,
	COL_PEND,
};

static const char *const node_aliases[] = { "gpu", "gpus-nodes", "accel",
					    NULL };
static const char *const part_aliases[] = { "gpus-partition", NULL };
static const char *const user_aliases[] = { "gpus-user", NULL };
static const char *const account_aliases[] = { "gpus-account", NULL };

/* The view of one scope: the GPUS kind, with that scope's columns. */
#define GPUS_VIEW(var, name_, aliases_, help_, cols_, sort_)                   \
	const struct sq_view_def var = {                                       \
		.name = name_,                                                 \
		.aliases = aliases_,                                           \
		.help = help_,                                                 \
		.kind = SQ_KIND_GPUS,                                          \
		.cols = cols_,                                                 \
		.ncols = SQ_COLS(cols_),                                       \
		.default_sort = sort_,                                         \
	}

GPUS_VIEW(sq_view_gpus, "gpus", node_aliases,
	  "accelerators per node and type: total, alloc, idle", node_cols,
	  "node");
GPUS_VIEW(sq_view_gpus_partitions, "gpus-partitions", part_aliases,
	  "accelerators per partition and type", part_cols, "partition");
GPUS_VIEW(sq_view_gpus_users, "gpus-users", user_aliases,
	  "accelerators allocated per user, account and type", user_cols,
	  "-alloc");
GPUS_VIEW(sq_view_gpus_accounts, "gpus-accounts", account_aliases,
	  "accelerators allocated per account and type", account_cols,
	  "-alloc");

int
sq_gpus_view_scope(const char *view_name)
{
	if (strcmp(view_name, sq_view_gpus.name) == 0)
		return SQ_GPU_NODE;
	if (strcmp(view_name, sq_view_gpus_partitions.name) == 0)
		return SQ_GPU_PARTITION;
	if (strcmp(view_name, sq_view_gpus_users.name) == 0)
		return SQ_GPU_USER;
	if (strcmp(view_name, sq_view_gpus_accounts.name) == 0)
		return SQ_GPU_ACCOUNT;
	return -1;
}
