/*
 * view_nodes.c - the nodes view: state and drain reason, CPU, memory and
 * accelerator use of every node.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/views/view_cols.h"

#define N struct sq_node

SQ_STR_FIELD(c_name, N, r->name)

/* the state as sinfo prints it, its reboot marks spelt out: "draining@"
 * reads "draining@ REBOOT_REQUESTED", "reboot^" "reboot^ REBOOT_ISSUED" */
static const char *
c_state(const void *rec, char *buf, size_t n)
{
	const char *s = ((const N *)rec)->state;
	size_t l = s != NULL ? strlen(s) : 0;

	if (l == 0)
		return NULL;
	if (s[l - 1] == '@')
		snprintf(buf, n, "%s REBOOT_REQUESTED", s);
	else if (s[l - 1] == '^')
		snprintf(buf, n, "%s REBOOT_ISSUED", s);
	else
		return s;
	return buf;
}
SQ_STR_FIELD(c_parts, N, r->partitions)
SQ_STR_FIELD(c_gres, N, r->gres)
SQ_STR_FIELD(c_gres_used, N, r->gres_used)
SQ_STR_FIELD(c_reason, N, r->reason)

/* who set the reason: NULL-safe, rows made outside the parsers have none */
static const char *
c_reason_by(const void *rec, char *buf, size_t n)
{
	const char *s = ((const N *)rec)->reason_by;

	(void)buf;
	(void)n;
	return s != NULL && s[0] != '\0' ? s : NULL;
}

static int
c_reason_at_num(const void *rec, long long *v)
{
	*v = ((const N *)rec)->reason_at;
	return 0;
}

static const char *
c_reason_at(const void *rec, char *buf, size_t n)
{
	const N *r = rec;
	struct tm tm;
	time_t t = (time_t)r->reason_at;

	if (r->reason_at <= 0 || localtime_r(&t, &tm) == NULL)
		return NULL;
	strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
	return buf;
}
/* down/drain events in the window; "5 FLAPPING" past flap-events in
 * flap-hours; empty when not joined (no event history: REST) */
static int
c_events_num(const void *rec, long long *v)
{
	const N *r = rec;

	if (!r->events_known)
		return -1;
	*v = r->events;
	return 0;
}

static const char *
c_events(const void *rec, char *buf, size_t n)
{
	const N *r = rec;

	if (!r->events_known)
		return NULL;
	snprintf(buf, n, "%lld%s", (long long)r->events,
		 r->flapping ? " FLAPPING" : "");
	return buf;
}

SQ_INT_FIELD(c_ca, N, r->cpus_alloc)
SQ_INT_FIELD(c_ct, N, r->cpus_total)
SQ_INT_FIELD(c_ma, N, r->mem_alloc)
SQ_INT_FIELD(c_mt, N, r->mem_total)
SQ_INT_FIELD(c_ga, N, r->gpus_alloc)
SQ_INT_FIELD(c_gt, N, r->gpus_total)

/* the node's jobs stuck COMPLETING: a number only where there are some */
static int
c_stuck_num(const void *rec, long long *v)
{
	*v = ((const N *)rec)->stuck_cg;
	return 0;
}

static const char *
c_stuck(const void *rec, char *buf, size_t n)
{
	const N *r = rec;

	if (r->stuck_cg <= 0)
		return NULL;
	snprintf(buf, n, "%d", (int)r->stuck_cg);
	return buf;
}

static const struct sq_column cols[] = {
	{ "node", "NODE", "node name", 10, SQ_LEFT, c_name, NULL, 0 },
	{ "state", "STATE", "node state as sinfo prints it (@ and ^ spelt out)",
	  10, SQ_LEFT, c_state, NULL, SQ_COL_ROLE_NODE_STATE },
	{ "partitions", "PARTITIONS", "partitions (* = default)", 14, SQ_LEFT,
	  c_parts, NULL, 0 },
	{ "cpus_alloc", "CPU_A", "allocated CPUs", 5, SQ_RIGHT, c_ca, c_ca_num,
	  SQ_COL_NUM },
	{ "cpus_total", "CPU_T", "CPUs", 5, SQ_RIGHT, c_ct, c_ct_num,
	  SQ_COL_NUM },
	{ "mem_alloc", "MEM_A", "allocated memory (MB)", 7, SQ_RIGHT, c_ma,
	  c_ma_num, SQ_COL_NUM },
	{ "mem_total", "MEM_T", "memory (MB)", 7, SQ_RIGHT, c_mt, c_mt_num,
	  SQ_COL_NUM },
	{ "gpus_alloc", "GPU_A", "allocated GPUs", 5, SQ_RIGHT, c_ga, c_ga_num,
	  SQ_COL_NUM },
	{ "gpus_total", "GPU_T", "GPUs", 5, SQ_RIGHT, c_gt, c_gt_num,
	  SQ_COL_NUM },
	{ "gres", "GRES", "configured GRES", 14, SQ_LEFT, c_gres, NULL,
	  SQ_COL_GRES },
	{ "gres_used", "GRES_USED", "allocated GRES", 18, SQ_LEFT, c_gres_used,
	  NULL, SQ_COL_GRES },
	{ "reason", "REASON", "why the node is drained or down", 24, SQ_LEFT,
	  c_reason, NULL, 0 },
	{ "reason_by", "REASON_BY", "who set the reason", 10, SQ_LEFT,
	  c_reason_by, NULL, SQ_COL_HIDDEN },
	{ "reason_at", "REASON_AT", "when the reason was set", 12, SQ_LEFT,
	  c_reason_at, c_reason_at_num, SQ_COL_TIME | SQ_COL_HIDDEN },
	{ "stuck_cg", "STUCK_CG",
	  "its jobs COMPLETING longer than completing-stuck minutes (from "
	  "the queue, read for this column; empty: none)",
	  8, SQ_RIGHT, c_stuck, c_stuck_num,
	  SQ_COL_NUM | SQ_COL_QUEUE | SQ_COL_HIDDEN },
	{ "events", "EVENTS",
	  "down/drain events in the history window (sacctmgr show event); "
	  "FLAPPING: flap-events of them within flap-hours",
	  9, SQ_RIGHT, c_events, c_events_num,
	  SQ_COL_NUM | SQ_COL_HIDDEN | SQ_COL_NODE_EVENTS },
};

static const char *const aliases[] = { "node", "no", "n", NULL };

const struct sq_view_def sq_view_nodes = {
	.name = "nodes",
	.aliases = aliases,
	.help = "nodes: state, reason, CPU, memory and GPU use",
	.kind = SQ_KIND_NODES,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = "node",
	.layout = "node:1,state:1,partitions:3,cpus_alloc:2,cpus_total:2,"
		  "mem_alloc:4,mem_total:4,gpus_alloc:3,gpus_total:3,gres:6,"
		  "gres_used:6,reason:2",
};
