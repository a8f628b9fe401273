/*
 * view_clusters.c - the clusters view: every configured cluster in one
 * table (core/analysis/clusters.h), each with its own error.
 */
#include <stdio.h>
#include <time.h>

#include "core/analysis/clusters.h"
#include "core/views/view_cols.h"

#define C struct sq_cluster_row

SQ_STR_FIELD(c_cluster, C, r->cluster)
SQ_STR_FIELD(c_backend, C, r->backend)
SQ_STR_FIELD(c_version, C, r->version)
SQ_STR_FIELD(c_error, C, r->error)

#define NUM_FIELD(name, expr)                                                  \
	static int name##_num(const void *rec_, long long *v)                  \
	{                                                                      \
		const C *r = rec_;                                             \
		if ((expr) < 0)                                                \
			return -1;                                             \
		*v = (long long)(expr);                                        \
		return 0;                                                      \
	}                                                                      \
	static const char *name(const void *rec_, char *buf, size_t n)         \
	{                                                                      \
		long long v;                                                   \
		if (name##_num(rec_, &v) == -1)                                \
			return NULL;                                           \
		return sq_col_int(v, buf, n);                                  \
	}

NUM_FIELD(c_up, r->nodes_up)
NUM_FIELD(c_down, r->nodes_down)
NUM_FIELD(c_drained, r->nodes_drained)
NUM_FIELD(c_run, r->jobs_running)
NUM_FIELD(c_pend, r->jobs_pending)
NUM_FIELD(c_gpus, r->gpus_idle)
NUM_FIELD(c_ms, r->ms)

static int
c_age_num(const void *rec, long long *v)
{
	const C *r = rec;
	time_t now = time(NULL);

	if (r->fetched < 0)
		return -1;
	*v = now > r->fetched ? (long long)(now - r->fetched) : 0;
	return 0;
}

static const char *
c_age(const void *rec, char *buf, size_t n)
{
	long long v;

	if (c_age_num(rec, &v) == -1)
		return NULL;
	if (v < 120)
		snprintf(buf, n, "%llds", v);
	else if (v < 7200)
		snprintf(buf, n, "%lldm", v / 60);
	else
		snprintf(buf, n, "%lldh", v / 3600);
	return buf;
}

static const struct sq_column cols[] = {
	{ "cluster", "CLUSTER", "name of the `cluster` line", 12, SQ_LEFT,
	  c_cluster, NULL, 0 },
	{ "backend", "BACKEND", "local, ssh, rest or replay", 7, SQ_LEFT,
	  c_backend, NULL, 0 },
	{ "version", "VERSION", "Slurm version", 8, SQ_LEFT, c_version, NULL,
	  0 },
	{ "nodes_up", "UP", "nodes up (not down, drained or failing)", 4,
	  SQ_RIGHT, c_up, c_up_num, SQ_COL_NUM },
	{ "nodes_down", "DOWN", "nodes down, failing or not responding", 4,
	  SQ_RIGHT, c_down, c_down_num, SQ_COL_NUM },
	{ "nodes_drained", "DRAIN", "nodes drained or draining", 5, SQ_RIGHT,
	  c_drained, c_drained_num, SQ_COL_NUM },
	{ "jobs_running", "RUN", "running jobs", 6, SQ_RIGHT, c_run, c_run_num,
	  SQ_COL_NUM },
	{ "jobs_pending", "PEND", "pending jobs", 6, SQ_RIGHT, c_pend,
	  c_pend_num, SQ_COL_NUM },
	{ "gpus_idle", "GPUIDLE", "idle GPUs on nodes that are up", 7, SQ_RIGHT,
	  c_gpus, c_gpus_num, SQ_COL_NUM },
	{ "age", "AGE", "age of the data", 4, SQ_RIGHT, c_age, c_age_num,
	  SQ_COL_NUM },
	{ "fetch_ms", "MS", "how long the fetch took (ms)", 6, SQ_RIGHT, c_ms,
	  c_ms_num, SQ_COL_NUM | SQ_COL_HIDDEN },
	{ "error", "ERROR", "the last error, or empty", 40, SQ_LEFT, c_error,
	  NULL, 0 },
};

static const char *const aliases[] = { "cl", "all", NULL };

const struct sq_view_def sq_view_clusters = {
	.name = "clusters",
	.aliases = aliases,
	.help = "every configured cluster at once; Enter switches to it",
	.kind = SQ_KIND_CLUSTERS,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = NULL,
};
