/*
 * view_assocs.c - the association tree with shares and limits (sacctmgr
 * show assoc tree; REST /slurmdb/associations). Rows stay in tree order;
 * the tree column indents each row by its depth.
 */
#include <string.h>

#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define S struct sq_assoc

SQ_STR_FIELD(c_cluster, S, r->cluster)
SQ_STR_FIELD(c_account, S, r->account)
SQ_STR_FIELD(c_user, S, r->user)
SQ_STR_FIELD(c_part, S, r->partition)
SQ_STR_FIELD(c_parent, S, r->parent)
SQ_STR_FIELD(c_grptres, S, r->grp_tres)
SQ_STR_FIELD(c_grptresmins, S, r->grp_tres_mins)
SQ_STR_FIELD(c_grptresrun, S, r->grp_tres_run_mins)
SQ_STR_FIELD(c_maxtres, S, r->max_tres)
SQ_STR_FIELD(c_maxtrespn, S, r->max_tres_per_node)
SQ_STR_FIELD(c_maxtresmins, S, r->max_tres_mins)
SQ_STR_FIELD(c_qos, S, r->qos)
SQ_STR_FIELD(c_defqos, S, r->default_qos)
SQ_INT_FIELD(c_id, S, r->id)
SQ_INT_FIELD(c_depth, S, r->depth)
SQ_INT_FIELD(c_prio, S, r->priority)
SQ_INT_FIELD(c_grpjobs, S, r->grp_jobs)
SQ_INT_FIELD(c_grpaccrue, S, r->grp_jobs_accrue)
SQ_INT_FIELD(c_grpsubmit, S, r->grp_submit)
SQ_INT_FIELD(c_maxjobs, S, r->max_jobs)
SQ_INT_FIELD(c_maxaccrue, S, r->max_jobs_accrue)
SQ_INT_FIELD(c_maxsubmit, S, r->max_submit)
SQ_DUR_FIELD(c_grpwall, S, r->grp_wall)
SQ_DUR_FIELD(c_maxwall, S, r->max_wall)

static int
c_shares_num(const void *rec, long long *v)
{
	*v = ((const S *)rec)->shares;
	return 0;
}

static const char *
c_shares(const void *rec, char *buf, size_t n)
{
	const S *r = rec;

	if (r->shares == SQ_INFINITE)
		return "parent";
	return sq_col_int(r->shares, buf, n);
}

/* "  chemistry" / "    bob": the tree as sacctmgr draws it */
static const char *
c_tree(const void *rec, char *buf, size_t n)
{
	const S *r = rec;
	int d = r->depth > 30 ? 30 : r->depth;

	snprintf(buf, n, "%*s%s", 2 * d, "",
		 r->user[0] != '\0' ? r->user : r->account);
	return buf;
}

static const struct sq_column cols[] = {
	{ "tree", "ASSOCIATION", "account or user, indented by depth", 18,
	  SQ_LEFT, c_tree, NULL, 0 },
	{ "cluster", "CLUSTER", "cluster", 8, SQ_LEFT, c_cluster, NULL,
	  SQ_HID },
	{ "account", "ACCOUNT", "account", 10, SQ_LEFT, c_account, NULL, 0 },
	{ "user", "USER", "user (empty: the account's own association)", 9,
	  SQ_LEFT, c_user, NULL, 0 },
	{ "partition", "PARTITION", "partition (empty: all)", 9, SQ_LEFT,
	  c_part, NULL, 0 },
	{ "parent", "PARENT", "parent account", 9, SQ_LEFT, c_parent, NULL, 0 },
	{ "id", "ID", "association id", 5, SQ_RIGHT, c_id, c_id_num,
	  SQ_NUM | SQ_HID },
	{ "depth", "DEPTH", "depth in the tree (root 0)", 5, SQ_RIGHT, c_depth,
	  c_depth_num, SQ_NUM | SQ_HID },
	{ "shares", "SHARES", "raw fairshare shares", 6, SQ_RIGHT, c_shares,
	  c_shares_num, SQ_NUM },
	{ "priority", "PRIO", "association priority", 5, SQ_RIGHT, c_prio,
	  c_prio_num, SQ_NUM | SQ_HID },
	{ "grp_tres", "GRP_TRES", "GrpTRES", 14, SQ_LEFT, c_grptres, NULL, 0 },
	{ "grp_jobs", "GRP_JOBS", "GrpJobs", 8, SQ_RIGHT, c_grpjobs,
	  c_grpjobs_num, SQ_NUM },
	{ "grp_jobs_accrue", "GRP_ACCRUE", "GrpJobsAccrue", 10, SQ_RIGHT,
	  c_grpaccrue, c_grpaccrue_num, SQ_NUM | SQ_HID },
	{ "grp_submit", "GRP_SUBMIT", "GrpSubmitJobs", 10, SQ_RIGHT,
	  c_grpsubmit, c_grpsubmit_num, SQ_NUM },
	{ "grp_tres_mins", "GRP_TRES_MINS", "GrpTRESMins", 14, SQ_LEFT,
	  c_grptresmins, NULL, 0 },
	{ "grp_tres_run_mins", "GRP_TRES_RUN", "GrpTRESRunMins", 14, SQ_LEFT,
	  c_grptresrun, NULL, SQ_HID },
	{ "grp_wall", "GRP_WALL", "GrpWall", 10, SQ_RIGHT, c_grpwall,
	  c_grpwall_num, SQ_NUM | SQ_HID },
	{ "max_jobs", "MAX_JOBS", "MaxJobs (running)", 8, SQ_RIGHT, c_maxjobs,
	  c_maxjobs_num, SQ_NUM },
	{ "max_jobs_accrue", "MAX_ACCRUE", "MaxJobsAccrue", 10, SQ_RIGHT,
	  c_maxaccrue, c_maxaccrue_num, SQ_NUM | SQ_HID },
	{ "max_submit", "MAX_SUBMIT", "MaxSubmitJobs", 10, SQ_RIGHT,
	  c_maxsubmit, c_maxsubmit_num, SQ_NUM },
	{ "max_tres", "MAX_TRES", "MaxTRES per job", 12, SQ_LEFT, c_maxtres,
	  NULL, 0 },
	{ "max_tres_per_node", "MAX_TRES_PN", "MaxTRESPerNode", 12, SQ_LEFT,
	  c_maxtrespn, NULL, 0 },
	{ "max_tres_mins", "MAX_TRES_MINS", "MaxTRESMins per job", 12, SQ_LEFT,
	  c_maxtresmins, NULL, SQ_HID },
	{ "max_wall", "MAX_WALL", "MaxWall per job", 11, SQ_RIGHT, c_maxwall,
	  c_maxwall_num, SQ_NUM },
	{ "qos", "QOS", "allowed QOS", 16, SQ_LEFT, c_qos, NULL, 0 },
	{ "default_qos", "DEF_QOS", "default QOS", 8, SQ_LEFT, c_defqos, NULL,
	  0 },
};

static const char *const aliases[] = { "assoc", "associations", NULL };

const struct sq_view_def sq_view_assocs = {
	.name = "assocs",
	.aliases = aliases,
	.help = "associations in tree order with shares and limits",
	.kind = SQ_KIND_ASSOCS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = NULL, /* tree order */
};
