/*
 * view_runaway.c - runaway jobs: jobs slurmdbd still has without an end
 * time while slurmctld no longer knows them (sacctmgr show runawayjobs).
 * They skew fairshare and usage until fixed: the fix-runaway action
 * (key F, or `:fix-runaway *` for every row, as sacctmgr fixes them all
 * at once).
 */
#include <stdio.h>
#include <time.h>

#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"
#include "core/views/view_cols.h"

#define R struct sq_runaway

SQ_INT_FIELD(c_id, R, r->id)
SQ_STR_FIELD(c_name, R, r->name)
SQ_STR_FIELD(c_part, R, r->partition)
SQ_STR_FIELD(c_cluster, R, r->cluster)
SQ_STR_FIELD(c_state, R, r->state)
SQ_TIME_FIELD(c_submit, R, r->submit)
SQ_TIME_FIELD(c_start, R, r->start)
SQ_TIME_FIELD(c_end, R, r->end)

/* How long slurmdbd has counted it running: now - start. */
static int
c_open_num(const void *rec, long long *v)
{
	const R *r = rec;

	*v = r->start > 0 ? (long long)(time(NULL) - r->start) : -1;
	return 0;
}

static const char *
c_open(const void *rec, char *buf, size_t n)
{
	long long v;

	c_open_num(rec, &v);
	if (v < 0)
		return NULL;
	if (v >= 86400)
		snprintf(buf, n, "%lldd%02lldh", v / 86400, v % 86400 / 3600);
	else
		snprintf(buf, n, "%lldh%02lldm", v / 3600, v % 3600 / 60);
	return buf;
}

static const struct sq_column cols[] = {
	{ "id", "JOBID", "job id in accounting", 10, SQ_RIGHT, c_id, c_id_num,
	  SQ_NUM },
	{ "name", "NAME", "job name", 16, SQ_LEFT, c_name, NULL, 0 },
	{ "partition", "PARTITION", "partition", 10, SQ_LEFT, c_part, NULL, 0 },
	{ "state", "STATE", "the state slurmdbd keeps (slurmctld has none)", 10,
	  SQ_LEFT, c_state, NULL, SQ_COL_ROLE_JOB_STATE },
	{ "open_for", "OPEN_FOR", "counted as running for (now - start)", 9,
	  SQ_RIGHT, c_open, c_open_num, SQ_NUM },
	{ "submit", "SUBMIT", "submit time (local)", 19, SQ_LEFT, c_submit,
	  c_submit_num, SQ_NUM | SQ_COL_TIME },
	{ "start", "START", "start time (local)", 19, SQ_LEFT, c_start,
	  c_start_num, SQ_NUM | SQ_COL_TIME },
	{ "end", "END", "end time: none until fixed", 19, SQ_LEFT, c_end,
	  c_end_num, SQ_NUM | SQ_COL_TIME | SQ_COL_HIDDEN },
	{ "cluster", "CLUSTER", "cluster in accounting", 10, SQ_LEFT, c_cluster,
	  NULL, SQ_COL_HIDDEN },
};

static const char *const aliases[] = { "runawayjobs", "runaways", NULL };

const struct sq_view_def sq_view_runaway = {
	.name = "runaway",
	.aliases = aliases,
	.help = "runaway jobs: running in slurmdbd, gone from slurmctld "
		"(F fixes them)",
	.kind = SQ_KIND_RUNAWAY,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "id",
};
