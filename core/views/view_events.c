/*
 * view_events.c - the preemption timeline, newest first: victim run,
 * preemptor (when a source names it), mode, restart count and the
 * sources that saw it (sacct, log, restarts).
 */
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define E struct sq_event

SQ_STR_FIELD(c_vid, E, r->victim_id)
SQ_STR_FIELD(c_vuser, E, r->victim_user)
SQ_STR_FIELD(c_vacct, E, r->victim_account)
SQ_STR_FIELD(c_vpart, E, r->victim_partition)
SQ_STR_FIELD(c_vqos, E, r->victim_qos)
SQ_STR_FIELD(c_nodes, E, r->nodelist)
SQ_STR_FIELD(c_puser, E, r->preemptor_user)
SQ_STR_FIELD(c_ppart, E, r->preemptor_partition)
SQ_STR_FIELD(c_mode, E, r->mode)
SQ_STR_FIELD(c_state, E, r->state)
SQ_STR_FIELD(c_source, E, r->source)
SQ_STR_FIELD(c_note, E, r->note)
SQ_INT_FIELD(c_restarts, E, r->restarts)
SQ_TIME_FIELD(c_time, E, r->time)
SQ_TIME_FIELD(c_start, E, r->run_start)

static int
c_vjob_num(const void *rec, long long *v)
{
	*v = ((const E *)rec)->victim_job;
	return 0;
}

static const char *
c_vjob(const void *rec, char *buf, size_t n)
{
	return sq_col_int(((const E *)rec)->victim_job, buf, n);
}

static int
c_pjob_num(const void *rec, long long *v)
{
	const E *r = rec;

	*v = r->preemptor_job ? (long long)r->preemptor_job : SQ_NONE;
	return 0;
}

static const char *
c_pjob(const void *rec, char *buf, size_t n)
{
	long long v;

	c_pjob_num(rec, &v);
	return sq_col_int(v, buf, n);
}

static const struct sq_column cols[] = {
	{ "time", "TIME", "when the run was preempted or requeued", 19, SQ_LEFT,
	  c_time, c_time_num, SQ_NUM | SQ_COL_TIME },
	{ "victim_job", "VICTIM", "the preempted job (real job id)", 7,
	  SQ_RIGHT, c_vjob, c_vjob_num, SQ_NUM },
	{ "victim_id", "VICTIM_ID", "the victim as squeue prints it (6_2)", 9,
	  SQ_LEFT, c_vid, NULL, SQ_HID },
	{ "victim_user", "V_USER", "the victim's owner", 8, SQ_LEFT, c_vuser,
	  NULL, 0 },
	{ "victim_account", "V_ACCOUNT", "the victim's account", 9, SQ_LEFT,
	  c_vacct, NULL, SQ_HID },
	{ "victim_partition", "V_PARTITION", "the victim's partition", 11,
	  SQ_LEFT, c_vpart, NULL, 0 },
	{ "victim_qos", "V_QOS", "the victim's QOS", 6, SQ_LEFT, c_vqos, NULL,
	  SQ_HID },
	{ "preemptor_job", "PREEMPTOR", "the job it made room for (when known)",
	  9, SQ_RIGHT, c_pjob, c_pjob_num, SQ_NUM },
	{ "preemptor_user", "P_USER", "the preemptor's owner", 8, SQ_LEFT,
	  c_puser, NULL, 0 },
	{ "preemptor_partition", "P_PARTITION", "the preemptor's partition", 11,
	  SQ_LEFT, c_ppart, NULL, SQ_HID },
	{ "mode", "MODE", "REQUEUE, CANCEL or SUSPEND", 7, SQ_LEFT, c_mode,
	  NULL, 0 },
	{ "state", "STATE", "end state of the run (PREEMPTED, REQUEUED)", 9,
	  SQ_LEFT, c_state, NULL, SQ_HID | SQ_COL_ROLE_JOB_STATE },
	{ "restarts", "RESTARTS", "the victim's restart count after it", 8,
	  SQ_RIGHT, c_restarts, c_restarts_num, SQ_NUM },
	{ "nodelist", "NODES", "nodes of the preempted run", 8, SQ_LEFT,
	  c_nodes, NULL, 0 },
	{ "run_start", "RUN_START", "start of the preempted run", 19, SQ_LEFT,
	  c_start, c_start_num, SQ_NUM | SQ_HID | SQ_COL_TIME },
	{ "source", "SOURCE", "sacct, log, restarts (joined with +)", 10,
	  SQ_LEFT, c_source, NULL, 0 },
	{ "note", "NOTE", "why the preemptor is not known", 30, SQ_LEFT, c_note,
	  NULL, 0 },
};

static const char *const aliases[] = { "preemptions", "ev", NULL };

const struct sq_view_def sq_view_events = {
	.name = "events",
	.aliases = aliases,
	.help = "preemptions and requeues: victim, preemptor, mode",
	.kind = SQ_KIND_EVENTS,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "-time",
};
