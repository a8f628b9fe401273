/*
 * view_partitions.c - the partitions view: one row per partition with
 * node, CPU and GPU use (counted from the nodes) and preemption settings.
 */
#include <stdio.h>

#include "core/base/parse.h"
#include "core/views/view_cols.h"

#define P struct sq_partition

SQ_STR_FIELD(c_name, P, r->name)
SQ_STR_FIELD(c_state, P, r->state)
SQ_STR_FIELD(c_nodelist, P, r->nodelist)
SQ_STR_FIELD(c_preempt, P, r->preempt_mode)
SQ_STR_FIELD(c_qos, P, r->qos)
SQ_INT_FIELD(c_nodes, P, r->nodes_total)
SQ_INT_FIELD(c_idle, P, r->nodes_idle)
SQ_INT_FIELD(c_ca, P, r->cpus_alloc)
SQ_INT_FIELD(c_ct, P, r->cpus_total)
SQ_INT_FIELD(c_ga, P, r->gpus_alloc)
SQ_INT_FIELD(c_gt, P, r->gpus_total)
SQ_INT_FIELD(c_tier, P, r->priority_tier)
SQ_INT_FIELD(c_factor, P, r->priority_job_factor)

static const char *
c_default(const void *rec, char *buf, size_t n)
{
	const P *r = rec;

	(void)buf;
	(void)n;
	return r->is_default < 0 ? "" : r->is_default ? "yes" : "no";
}

static const char *
c_maxtime(const void *rec, char *buf, size_t n)
{
	const P *r = rec;

	if (r->max_time == SQ_INFINITE)
		return "UNLIMITED";
	/* minutes: one too large to count in seconds is garbage (fuzz
	 * json_partitions: INT64_MAX * 60 overflowed) */
	if (r->max_time < 0 || r->max_time > INT64_MAX / 60)
		return NULL;
	sq_fmt_duration(r->max_time * 60, buf, n);
	return buf;
}

static const struct sq_column cols[] = {
	{ "partition", "PARTITION", "partition name", 12, SQ_LEFT, c_name, NULL,
	  0 },
	{ "default", "DEF", "the default partition", 3, SQ_LEFT, c_default,
	  NULL, 0 },
	{ "state", "STATE", "UP, DOWN, DRAIN or INACTIVE", 6, SQ_LEFT, c_state,
	  NULL, SQ_COL_ROLE_NODE_STATE },
	{ "nodes", "NODES", "nodes in the partition", 5, SQ_RIGHT, c_nodes,
	  c_nodes_num, SQ_COL_NUM },
	{ "nodes_idle", "IDLE", "idle nodes", 4, SQ_RIGHT, c_idle, c_idle_num,
	  SQ_COL_NUM },
	{ "cpus_alloc", "CPU_A", "allocated CPUs", 5, SQ_RIGHT, c_ca, c_ca_num,
	  SQ_COL_NUM },
	{ "cpus_total", "CPU_T", "total CPUs", 5, SQ_RIGHT, c_ct, c_ct_num,
	  SQ_COL_NUM },
	{ "gpus_alloc", "GPU_A", "allocated GPUs", 5, SQ_RIGHT, c_ga, c_ga_num,
	  SQ_COL_NUM },
	{ "gpus_total", "GPU_T", "total GPUs", 5, SQ_RIGHT, c_gt, c_gt_num,
	  SQ_COL_NUM },
	{ "priority_tier", "TIER", "PriorityTier (higher preempts lower)", 4,
	  SQ_RIGHT, c_tier, c_tier_num, SQ_COL_NUM },
	{ "priority_job_factor", "JOBFACTOR", "PriorityJobFactor", 9, SQ_RIGHT,
	  c_factor, c_factor_num, SQ_COL_NUM },
	{ "preempt_mode", "PREEMPT", "PreemptMode", 8, SQ_LEFT, c_preempt, NULL,
	  0 },
	{ "max_time", "MAXTIME", "MaxTime", 11, SQ_RIGHT, c_maxtime, NULL, 0 },
	{ "qos", "QOS", "partition QOS", 8, SQ_LEFT, c_qos, NULL, 0 },
	{ "nodelist", "NODELIST", "nodes", 16, SQ_LEFT, c_nodelist, NULL, 0 },
};

static const char *const aliases[] = { "part", "p", "sinfo", NULL };

const struct sq_view_def sq_view_partitions = {
	.name = "partitions",
	.aliases = aliases,
	.help = "partitions, their nodes, CPUs and GPUs",
	.kind = SQ_KIND_PARTITIONS,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = "partition",
	.layout = "partition:1,default:3,state:2,nodes:2,nodes_idle:2,"
		  "cpus_alloc:3,cpus_total:3,gpus_alloc:4,gpus_total:4,"
		  "priority_tier:5,priority_job_factor:6,preempt_mode:5,"
		  "max_time:4,qos:6,nodelist:2",
};
