/*
 * view_priority.c - the priority view: every pending job's weighted sprio
 * factors and its rank within its partition.
 */
#include <stdio.h>

#include "core/views/view_cols.h"

#define R struct sq_prio

SQ_STR_FIELD(c_user, R, r->user)
SQ_STR_FIELD(c_part, R, r->partition)
SQ_STR_FIELD(c_tres, R, r->tres)
SQ_INT_FIELD(c_id, R, r->job_id)
SQ_INT_FIELD(c_prio, R, r->priority)
SQ_INT_FIELD(c_rank, R, r->rank)
SQ_INT_FIELD(c_site, R, r->site)
SQ_INT_FIELD(c_age, R, r->age)
SQ_INT_FIELD(c_fs, R, r->fairshare)
SQ_INT_FIELD(c_js, R, r->jobsize)
SQ_INT_FIELD(c_pp, R, r->partition_prio)
SQ_INT_FIELD(c_qos, R, r->qos)
SQ_INT_FIELD(c_assoc, R, r->assoc)
SQ_INT_FIELD(c_nice, R, r->nice)

#define NUM SQ_COL_NUM

static const struct sq_column cols[] = {
	{ "job_id", "JOBID", "job id", 8, SQ_RIGHT, c_id, c_id_num, NUM },
	{ "user", "USER", "owner", 9, SQ_LEFT, c_user, NULL, 0 },
	{ "partition", "PARTITION", "partition", 9, SQ_LEFT, c_part, NULL, 0 },
	{ "rank", "RANK", "place among pending jobs of the partition", 4,
	  SQ_RIGHT, c_rank, c_rank_num, NUM },
	{ "priority", "PRIORITY", "job priority", 9, SQ_RIGHT, c_prio,
	  c_prio_num, NUM },
	{ "prio_age", "AGE", "age factor (weighted)", 6, SQ_RIGHT, c_age,
	  c_age_num, NUM },
	{ "prio_fairshare", "FAIRSH", "fairshare factor", 6, SQ_RIGHT, c_fs,
	  c_fs_num, NUM },
	{ "prio_jobsize", "JOBSZ", "job size factor", 6, SQ_RIGHT, c_js,
	  c_js_num, NUM },
	{ "prio_partition", "PARTPR", "partition factor", 6, SQ_RIGHT, c_pp,
	  c_pp_num, NUM },
	{ "prio_qos", "QOSPR", "QOS factor", 6, SQ_RIGHT, c_qos, c_qos_num,
	  NUM },
	{ "prio_assoc", "ASSOC", "association factor", 6, SQ_RIGHT, c_assoc,
	  c_assoc_num, NUM },
	{ "prio_site", "SITE", "site factor", 5, SQ_RIGHT, c_site, c_site_num,
	  NUM },
	{ "prio_nice", "NICE", "nice adjustment", 5, SQ_RIGHT, c_nice,
	  c_nice_num, NUM },
	{ "prio_tres", "TRES", "TRES factors", 20, SQ_LEFT, c_tres, NULL, 0 },
};

static const char *const aliases[] = { "prio", "sprio", "pr", NULL };

const struct sq_view_def sq_view_priority = {
	.name = "priority",
	.aliases = aliases,
	.help = "pending jobs' sprio factors and rank",
	.kind = SQ_KIND_PRIO,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = "-priority",
};
