/*
 * view_qos.c - the QOS view: priority, preemption (list, mode, exempt
 * time, grace time), flags, usage factor and limits (sacctmgr show qos;
 * REST /slurmdb/qos).
 */
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define Q struct sq_qos

SQ_STR_FIELD(c_name, Q, r->name)
SQ_STR_FIELD(c_descr, Q, r->description)
SQ_STR_FIELD(c_preempt, Q, r->preempt)
SQ_STR_FIELD(c_pmode, Q, r->preempt_mode)
SQ_STR_FIELD(c_flags, Q, r->flags)
SQ_STR_FIELD(c_grptres, Q, r->grp_tres)
SQ_STR_FIELD(c_grptresmins, Q, r->grp_tres_mins)
SQ_STR_FIELD(c_grptresrun, Q, r->grp_tres_run_mins)
SQ_STR_FIELD(c_maxtres, Q, r->max_tres)
SQ_STR_FIELD(c_maxtrespn, Q, r->max_tres_per_node)
SQ_STR_FIELD(c_maxtrespu, Q, r->max_tres_pu)
SQ_STR_FIELD(c_maxtrespa, Q, r->max_tres_pa)
SQ_STR_FIELD(c_maxtresmins, Q, r->max_tres_mins)
SQ_STR_FIELD(c_mintres, Q, r->min_tres)
SQ_INT_FIELD(c_id, Q, r->id)
SQ_INT_FIELD(c_prio, Q, r->priority)
SQ_INT_FIELD(c_grpjobs, Q, r->grp_jobs)
SQ_INT_FIELD(c_grpaccrue, Q, r->grp_jobs_accrue)
SQ_INT_FIELD(c_grpsubmit, Q, r->grp_submit)
SQ_INT_FIELD(c_maxjobspu, Q, r->max_jobs_pu)
SQ_INT_FIELD(c_maxjobspa, Q, r->max_jobs_pa)
SQ_INT_FIELD(c_maxsubmitpu, Q, r->max_submit_pu)
SQ_INT_FIELD(c_maxsubmitpa, Q, r->max_submit_pa)
SQ_DUR_FIELD(c_exempt, Q, r->preempt_exempt_time)
SQ_DUR_FIELD(c_grace, Q, r->grace_time)
SQ_DUR_FIELD(c_grpwall, Q, r->grp_wall)
SQ_DUR_FIELD(c_maxwall, Q, r->max_wall)
SQ_DBL_FIELD(c_ufactor, Q, r->usage_factor)
SQ_DBL_FIELD(c_uthresh, Q, r->usage_threshold)

static const struct sq_column cols[] = {
	{ "name", "QOS", "QOS name", 10, SQ_LEFT, c_name, NULL, 0 },
	{ "id", "ID", "QOS id", 4, SQ_RIGHT, c_id, c_id_num, SQ_NUM | SQ_HID },
	{ "priority", "PRIO", "QOS priority", 6, SQ_RIGHT, c_prio, c_prio_num,
	  SQ_NUM },
	{ "preempt", "PREEMPT", "QOS it may preempt", 12, SQ_LEFT, c_preempt,
	  NULL, 0 },
	{ "preempt_mode", "PREEMPT_MODE",
	  "PreemptMode (cluster = the "
	  "cluster's)",
	  12, SQ_LEFT, c_pmode, NULL, 0 },
	{ "preempt_exempt_time", "EXEMPT", "PreemptExemptTime", 8, SQ_RIGHT,
	  c_exempt, c_exempt_num, SQ_NUM },
	{ "grace_time", "GRACE", "GraceTime", 8, SQ_RIGHT, c_grace, c_grace_num,
	  SQ_NUM },
	{ "flags", "FLAGS", "flags", 12, SQ_LEFT, c_flags, NULL, 0 },
	{ "usage_factor", "USAGE_F", "UsageFactor", 8, SQ_RIGHT, c_ufactor,
	  c_ufactor_num, 0 },
	{ "usage_threshold", "USAGE_T", "UsageThreshold", 8, SQ_RIGHT,
	  c_uthresh, c_uthresh_num, SQ_HID },
	{ "grp_tres", "GRP_TRES", "GrpTRES", 12, SQ_LEFT, c_grptres, NULL, 0 },
	{ "grp_jobs", "GRP_JOBS", "GrpJobs", 8, SQ_RIGHT, c_grpjobs,
	  c_grpjobs_num, SQ_NUM },
	{ "grp_jobs_accrue", "GRP_ACCRUE", "GrpJobsAccrue", 8, SQ_RIGHT,
	  c_grpaccrue, c_grpaccrue_num, SQ_NUM | SQ_HID },
	{ "grp_submit", "GRP_SUBMIT", "GrpSubmitJobs", 10, SQ_RIGHT,
	  c_grpsubmit, c_grpsubmit_num, SQ_NUM },
	{ "grp_tres_mins", "GRP_TRES_MINS", "GrpTRESMins", 12, SQ_LEFT,
	  c_grptresmins, NULL, SQ_HID },
	{ "grp_tres_run_mins", "GRP_TRES_RUN", "GrpTRESRunMins", 12, SQ_LEFT,
	  c_grptresrun, NULL, SQ_HID },
	{ "grp_wall", "GRP_WALL", "GrpWall", 10, SQ_RIGHT, c_grpwall,
	  c_grpwall_num, SQ_NUM | SQ_HID },
	{ "max_tres", "MAX_TRES_PJ", "MaxTRES per job", 12, SQ_LEFT, c_maxtres,
	  NULL, 0 },
	{ "max_tres_per_node", "MAX_TRES_PN", "MaxTRESPerNode", 12, SQ_LEFT,
	  c_maxtrespn, NULL, SQ_HID },
	{ "max_tres_pu", "MAX_TRES_PU", "MaxTRESPerUser", 12, SQ_LEFT,
	  c_maxtrespu, NULL, 0 },
	{ "max_tres_pa", "MAX_TRES_PA", "MaxTRESPerAccount", 12, SQ_LEFT,
	  c_maxtrespa, NULL, SQ_HID },
	{ "max_tres_mins", "MAX_TRES_MINS", "MaxTRESMins per job", 12, SQ_LEFT,
	  c_maxtresmins, NULL, SQ_HID },
	{ "max_jobs_pu", "MAX_JOBS_PU", "MaxJobsPerUser", 11, SQ_RIGHT,
	  c_maxjobspu, c_maxjobspu_num, SQ_NUM },
	{ "max_jobs_pa", "MAX_JOBS_PA", "MaxJobsPerAccount", 11, SQ_RIGHT,
	  c_maxjobspa, c_maxjobspa_num, SQ_NUM | SQ_HID },
	{ "max_submit_pu", "MAX_SUBMIT_PU", "MaxSubmitJobsPerUser", 13,
	  SQ_RIGHT, c_maxsubmitpu, c_maxsubmitpu_num, SQ_NUM },
	{ "max_submit_pa", "MAX_SUBMIT_PA", "MaxSubmitJobsPerAccount", 13,
	  SQ_RIGHT, c_maxsubmitpa, c_maxsubmitpa_num, SQ_NUM | SQ_HID },
	{ "max_wall", "MAX_WALL", "MaxWall per job", 11, SQ_RIGHT, c_maxwall,
	  c_maxwall_num, SQ_NUM },
	{ "min_tres", "MIN_TRES", "MinTRES per job", 10, SQ_LEFT, c_mintres,
	  NULL, SQ_HID },
	{ "description", "DESCRIPTION", "description", 20, SQ_LEFT, c_descr,
	  NULL, 0 },
};

static const char *const aliases[] = { "q", NULL };

const struct sq_view_def sq_view_qos = {
	.name = "qos",
	.aliases = aliases,
	.help = "QOS: priority, preemption, usage factor, limits",
	.kind = SQ_KIND_QOS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "-priority",
};
