/*
 * view_gpus_idle.c - the gpus-idle view: running jobs that hold GPUs and
 * whose use stayed under `gpu-idle-below` percent for `gpu-idle-after`
 * minutes (core/analysis/gpuuse.h judges it from squall's samples and Slurm's
 * peak). Its rows are jobs: the job actions work on them.
 */
#include <stdio.h>

#include "core/analysis/gpuuse.h"
#include "core/base/parse.h"
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define U struct sq_gpuuse

SQ_STR_FIELD(c_id, U, r->id)
SQ_STR_FIELD(c_user, U, r->user)
SQ_STR_FIELD(c_account, U, r->account)
SQ_STR_FIELD(c_part, U, r->partition)
SQ_STR_FIELD(c_nodes, U, r->nodelist)
SQ_STR_FIELD(c_type, U, r->type)
SQ_INT_FIELD(c_jobid, U, r->job_id)
SQ_INT_FIELD(c_gpus, U, r->gpus)
SQ_INT_FIELD(c_run, U, r->run_s)
SQ_INT_FIELD(c_idle, U, r->idle_min)

static const char *
c_time(const void *rec, char *buf, size_t n)
{
	const U *r = rec;

	if (r->run_s == SQ_NONE)
		return NULL;
	sq_fmt_duration(r->run_s, buf, n);
	return buf;
}

static int
c_wasted_num(const void *rec, long long *v)
{
	*v = ((const U *)rec)->wasted_mh;
	return *v == SQ_NONE ? -1 : 0;
}

static const char *
c_wasted(const void *rec, char *buf, size_t n)
{
	const U *r = rec;

	if (r->wasted_mh == SQ_NONE)
		return NULL;
	snprintf(buf, n, "%.1f", (double)r->wasted_mh / 60.0);
	return buf;
}

static int
c_util_num(const void *rec, long long *v)
{
	*v = ((const U *)rec)->util;
	return *v == SQ_NONE ? -1 : 0;
}

static const char *
c_util(const void *rec, char *buf, size_t n)
{
	const U *r = rec;

	return r->util != SQ_NONE ? sq_gpuuse_fmt_pct(r->util, buf, n)
				  : r->note;
}

static int
c_umax_num(const void *rec, long long *v)
{
	*v = ((const U *)rec)->util_max;
	return *v == SQ_NONE ? -1 : 0;
}

static const char *
c_umax(const void *rec, char *buf, size_t n)
{
	return sq_gpuuse_fmt_pct(((const U *)rec)->util_max, buf, n);
}

static int
c_mem_num(const void *rec, long long *v)
{
	*v = ((const U *)rec)->mem;
	return *v == SQ_NONE ? -1 : 0;
}

static const char *
c_mem(const void *rec, char *buf, size_t n)
{
	return sq_gpuuse_fmt_mem(((const U *)rec)->mem, buf, n);
}

#define NUM SQ_COL_NUM

static const struct sq_column cols[] = {
	{ "job_id", "JOBID", "job id as squeue prints it", 10, SQ_LEFT, c_id,
	  c_jobid_num, 0 },
	{ "user", "USER", "owner", 9, SQ_LEFT, c_user, NULL, 0 },
	{ "account", "ACCOUNT", "account", 10, SQ_LEFT, c_account, NULL, 0 },
	{ "gpus", "GPUS", "allocated GPUs", 4, SQ_RIGHT, c_gpus, c_gpus_num,
	  NUM },
	{ "time_used", "TIME", "run time", 11, SQ_RIGHT, c_time, c_run_num, 0 },
	{ "idle_min", "IDLEMIN",
	  "minutes under gpu-idle-below (the whole run when its peak is)", 7,
	  SQ_RIGHT, c_idle, c_idle_num, NUM },
	{ "gpu_hours_wasted", "GPUH",
	  "GPU-hours idle so far: GPUs x minutes idle / 60", 6, SQ_RIGHT,
	  c_wasted, c_wasted_num, NUM },
	{ "gpu_util", "GPU%", "GPU use now, percent of its GPUs", 5, SQ_RIGHT,
	  c_util, c_util_num, NUM },
	{ "gpu_util_max", "GPU%MAX", "peak GPU use since the start", 5,
	  SQ_RIGHT, c_umax, c_umax_num, NUM },
	{ "gpu_mem", "GPUMEM", "GPU memory in use", 7, SQ_RIGHT, c_mem,
	  c_mem_num, NUM | SQ_COL_HIDDEN },
	{ "type", "TYPE", "GPU type", 8, SQ_LEFT, c_type, NULL, SQ_COL_HIDDEN },
	{ "partition", "PARTITION", "partition", 9, SQ_LEFT, c_part, NULL,
	  SQ_COL_HIDDEN },
	{ "nodelist", "NODELIST", "allocated nodes", 12, SQ_LEFT, c_nodes, NULL,
	  0 },
};

static const char *const aliases[] = { "idle-gpus", "gpu-idle", NULL };

const struct sq_view_def sq_view_gpus_idle = {
	.name = "gpus-idle",
	.aliases = aliases,
	.help = "running jobs holding GPUs they do not use (gpu-idle-below, "
		"gpu-idle-after)",
	.kind = SQ_KIND_GPUUSE,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = "-gpu_hours_wasted",
};
