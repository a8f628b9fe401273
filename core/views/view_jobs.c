/*
 * view_jobs.c - the jobs view: the live queue; pending jobs carry their
 * sprio factors and their rank in the partition.
 */
#include <stdio.h>
#include <string.h>

#include "core/analysis/gpuuse.h"
#include "core/base/parse.h"
#include "core/views/view_admin_cols.h"

#define J struct sq_job

SQ_STR_FIELD(c_id, J, r->id)
SQ_STR_FIELD(c_name, J, r->name)
SQ_STR_FIELD(c_user, J, r->user)
SQ_STR_FIELD(c_account, J, r->account)
SQ_STR_FIELD(c_part, J, r->partition)
SQ_STR_FIELD(c_qos, J, r->qos)
SQ_STR_FIELD(c_state, J, r->state)
SQ_STR_FIELD(c_st, J, r->state_compact)
SQ_STR_FIELD(c_reason, J, r->reason)
SQ_STR_FIELD(c_gres, J, r->gres)
SQ_STR_FIELD(c_nodelist, J, r->nodelist)
SQ_INT_FIELD(c_prio, J, r->priority)
SQ_INT_FIELD(c_nodes, J, r->nodes)
SQ_INT_FIELD(c_cpus, J, r->cpus)
SQ_INT_FIELD(c_restarts, J, sq_job_restarts(r))
SQ_INT_FIELD(c_jobid, J, r->job_id)
SQ_TIME_FIELD(c_submit, J, r->submit_time)
SQ_TIME_FIELD(c_start, J, r->start_time)

static const char *
c_limit(const void *rec, char *buf, size_t n)
{
	const J *r = rec;

	if (r->time_limit == SQ_NONE)
		return NULL;
	sq_fmt_duration(r->time_limit, buf, n);
	return buf;
}

static int
c_limit_num(const void *rec, long long *v)
{
	*v = ((const J *)rec)->time_limit;
	return 0;
}

static const char *
c_used(const void *rec, char *buf, size_t n)
{
	const J *r = rec;

	if (r->time_used == SQ_NONE)
		return NULL;
	sq_fmt_duration(r->time_used, buf, n);
	return buf;
}

static int
c_used_num(const void *rec, long long *v)
{
	*v = ((const J *)rec)->time_used;
	return 0;
}

/* sprio factors: empty unless the job is pending and sprio lists it */
#define PRIO_FIELD(name, field)                                                \
	static int name##_num(const void *rec, long long *v)                   \
	{                                                                      \
		const J *r = rec;                                              \
		*v = r->prio != NULL ? (long long)r->prio->field : SQ_NONE;    \
		return 0;                                                      \
	}                                                                      \
	static const char *name(const void *rec, char *buf, size_t n)          \
	{                                                                      \
		long long v;                                                   \
		name##_num(rec, &v);                                           \
		return sq_col_int(v, buf, n);                                  \
	}

PRIO_FIELD(c_age, age)
PRIO_FIELD(c_fs, fairshare)
PRIO_FIELD(c_js, jobsize)
PRIO_FIELD(c_pp, partition_prio)
PRIO_FIELD(c_pq, qos)
PRIO_FIELD(c_pa, assoc)
PRIO_FIELD(c_pn, nice)
PRIO_FIELD(c_site, site)
PRIO_FIELD(c_rank, rank)

static const char *
c_tres(const void *rec, char *buf, size_t n)
{
	const J *r = rec;

	(void)buf;
	(void)n;
	return r->prio != NULL ? sq_col_str(r->prio->tres) : NULL;
}

/* squeue's NODELIST(REASON): the nodes, or the reason in parentheses
 * while the job waits */
static const char *
c_where(const void *rec, char *buf, size_t n)
{
	const J *r = rec;

	int pending = r->state != NULL && strncmp(r->state, "PENDING", 7) == 0;

	if (!pending && r->nodelist != NULL && *r->nodelist != '\0')
		return r->nodelist;
	if (r->reason == NULL || *r->reason == '\0')
		return NULL;
	snprintf(buf, n, "(%s)", r->reason);
	return buf;
}

static const char *
c_array(const void *rec, char *buf, size_t n)
{
	const J *r = rec;

	if (r->array_job_id == 0)
		return NULL;
	snprintf(buf, n, "%u", r->array_job_id);
	return buf;
}

/* Live GPU use (core/analysis/gpuuse.h): the figure, or why there is none. */
static const char *
gpu_cell(const J *r, int what, char *buf, size_t n)
{
	const struct sq_gpuuse *g = r->more ? r->more->gpu : NULL;

	if (g == NULL)
		return r->more && r->more->gpu_note ? r->more->gpu_note : NULL;
	switch (what) {
	case 0:
		return g->util != SQ_NONE ? sq_gpuuse_fmt_pct(g->util, buf, n)
					  : g->note;
	case 1:
		return g->mem != SQ_NONE ? sq_gpuuse_fmt_mem(g->mem, buf, n)
					 : g->note;
	case 2:
		return g->util_max != SQ_NONE
			   ? sq_gpuuse_fmt_pct(g->util_max, buf, n)
			   : g->note;
	default:
		return g->mem_max != SQ_NONE
			   ? sq_gpuuse_fmt_mem(g->mem_max, buf, n)
			   : g->note;
	}
}

static int64_t
gpu_num(const J *r, int what)
{
	const struct sq_gpuuse *g = r->more ? r->more->gpu : NULL;

	if (g == NULL)
		return SQ_NONE;
	return what == 0   ? g->util
	       : what == 1 ? g->mem
	       : what == 2 ? g->util_max
			   : g->mem_max;
}

#define GPU_COL(fn, what)                                                      \
	static const char *fn(const void *rec, char *buf, size_t n)            \
	{                                                                      \
		return gpu_cell(rec, what, buf, n);                            \
	}                                                                      \
	static int fn##_num(const void *rec, long long *v)                     \
	{                                                                      \
		*v = gpu_num(rec, what);                                       \
		return *v == SQ_NONE ? -1 : 0;                                 \
	}
GPU_COL(c_gutil, 0)
GPU_COL(c_gmem, 1)
GPU_COL(c_gutil_max, 2)
GPU_COL(c_gmem_max, 3)

#define NUM SQ_COL_NUM
#define PD (SQ_COL_NUM | SQ_COL_PENDING)
#define GU (SQ_COL_NUM | SQ_COL_GPUUSE | SQ_COL_HIDDEN)

static const struct sq_column cols[] = {
	{ "job_id", "JOBID", "job id as squeue prints it (arrays: 12_3)", 10,
	  SQ_LEFT, c_id, c_jobid_num, 0 },
	{ "user", "USER", "owner", 9, SQ_LEFT, c_user, NULL, 0 },
	{ "account", "ACCOUNT", "account", 10, SQ_LEFT, c_account, NULL, 0 },
	{ "partition", "PARTITION", "partition(s)", 9, SQ_LEFT, c_part, NULL,
	  0 },
	{ "qos", "QOS", "QOS", 7, SQ_LEFT, c_qos, NULL, 0 },
	{ "state", "STATE", "job state", 10, SQ_LEFT, c_state, NULL,
	  SQ_COL_ROLE_JOB_STATE },
	{ "reason", "REASON", "why it waits (pending) or none", 18, SQ_LEFT,
	  c_reason, NULL, 0 },
	{ "priority", "PRIORITY", "job priority", 9, SQ_RIGHT, c_prio,
	  c_prio_num, NUM },
	{ "nodes", "NODES", "nodes requested or allocated", 5, SQ_RIGHT,
	  c_nodes, c_nodes_num, NUM },
	{ "cpus", "CPUS", "CPUs", 5, SQ_RIGHT, c_cpus, c_cpus_num, NUM },
	{ "gres", "GRES", "TRES per node (GPUs ...)", 14, SQ_LEFT, c_gres, NULL,
	  SQ_COL_GRES },
	{ "time_limit", "LIMIT", "time limit", 11, SQ_RIGHT, c_limit,
	  c_limit_num, 0 },
	{ "prio_age", "AGE", "sprio age factor (weighted)", 5, SQ_RIGHT, c_age,
	  c_age_num, PD },
	{ "prio_fairshare", "FAIRSH", "sprio fairshare factor", 6, SQ_RIGHT,
	  c_fs, c_fs_num, PD },
	{ "prio_jobsize", "JOBSZ", "sprio job size factor", 5, SQ_RIGHT, c_js,
	  c_js_num, PD },
	{ "prio_partition", "PARTPR", "sprio partition factor", 6, SQ_RIGHT,
	  c_pp, c_pp_num, PD },
	{ "prio_qos", "QOSPR", "sprio QOS factor", 5, SQ_RIGHT, c_pq, c_pq_num,
	  PD },
	{ "prio_assoc", "ASSOC", "sprio association factor", 5, SQ_RIGHT, c_pa,
	  c_pa_num, PD },
	{ "prio_tres", "TRESPR", "sprio TRES factors", 12, SQ_LEFT, c_tres,
	  NULL, SQ_COL_PENDING },
	{ "prio_nice", "NICE", "sprio nice adjustment", 5, SQ_RIGHT, c_pn,
	  c_pn_num, PD },
	{ "prio_site", "SITE", "sprio site factor", 5, SQ_RIGHT, c_site,
	  c_site_num, PD | SQ_COL_HIDDEN },
	{ "rank", "RANK", "place among pending jobs of the partition", 4,
	  SQ_RIGHT, c_rank, c_rank_num, PD },
	{ "name", "NAME", "job name", 16, SQ_LEFT, c_name, NULL, 0 },
	{ "state_compact", "ST", "compact state", 2, SQ_LEFT, c_st, NULL,
	  SQ_COL_HIDDEN | SQ_COL_ROLE_JOB_STATE },
	{ "time_used", "TIME", "run time", 11, SQ_RIGHT, c_used, c_used_num,
	  0 },
	{ "submit_time", "SUBMIT", "submit time (json: epoch seconds)", 10,
	  SQ_LEFT, c_submit, c_submit_num, NUM | SQ_COL_HIDDEN | SQ_COL_TIME },
	{ "start_time", "START",
	  "start, or expected start (json: epoch seconds)", 10, SQ_LEFT,
	  c_start, c_start_num, NUM | SQ_COL_HIDDEN | SQ_COL_TIME },
	{ "nodelist", "NODELIST", "allocated nodes", 12, SQ_LEFT, c_nodelist,
	  NULL, 0 },
	{ "restarts", "RESTARTS", "times requeued", 3, SQ_RIGHT, c_restarts,
	  c_restarts_num, NUM | SQ_COL_HIDDEN },
	{ "job_id_raw", "JOBIDRAW", "the numeric job id (JobIDRaw)", 8,
	  SQ_RIGHT, c_jobid, c_jobid_num, NUM | SQ_COL_HIDDEN },
	{ "array_job_id", "ARRAY", "array master job id", 8, SQ_RIGHT, c_array,
	  NULL, SQ_COL_HIDDEN },
	{ "gpu_util", "GPU%",
	  "GPU use now, percent of its allocated GPUs (sstat gres/gpuutil "
	  "summed over steps / GPUs)",
	  5, SQ_RIGHT, c_gutil, c_gutil_num, GU },
	{ "gpu_mem", "GPUMEM", "GPU memory in use (sstat gres/gpumem)", 7,
	  SQ_RIGHT, c_gmem, c_gmem_num, GU },
	{ "gpu_util_max", "GPU%MAX", "peak GPU use since the start (sstat Max)",
	  5, SQ_RIGHT, c_gutil_max, c_gutil_max_num, GU },
	{ "gpu_mem_max", "GPUMEMMAX", "peak GPU memory since the start", 7,
	  SQ_RIGHT, c_gmem_max, c_gmem_max_num, GU },
	{ "nodelist_reason", "NODELIST(REASON)",
	  "allocated nodes, or (the reason) while pending, as squeue", 16,
	  SQ_LEFT, c_where, NULL, 0 },
};

static const char *const aliases[] = { "j", "job", "squeue", "queue", NULL };

const struct sq_view_def sq_view_jobs = {
	.name = "jobs",
	.aliases = aliases,
	.help = "the job queue; pending jobs with sprio factors and rank",
	.kind = SQ_KIND_JOBS,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = "-priority",
	/* squeue's columns first; the sprio factors at 160 cells and more */
	.layout = "job_id:1,name:3,user:2,account:5,partition:5,qos:6,"
		  "state:1,time_used:3,nodes:4,priority:5,prio_age:7,"
		  "prio_fairshare:7,prio_jobsize:7,prio_partition:7,"
		  "prio_qos:7,prio_assoc:7,prio_tres:8,prio_nice:8,rank:8,"
		  "cpus:9,gres:9,time_limit:9,nodelist_reason:2",
};
