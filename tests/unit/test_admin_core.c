/*
 * test_admin_core.c - the pure admin logic on recorded testbed data:
 * merging preemption sources (core/analysis/events.c), restart-count diffs, and
 * "why pending" (core/analysis/why.c) for the jobs the testbed holds by
 * AssocMaxJobsLimit, AssocGrpGRES and Priority. The fixtures were
 * recorded in UTC (the controller log has local times), so TZ=UTC.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli_admin.h"
#include "core/analysis/events.h"
#include "core/model/join.h"
#include "core/analysis/why.h"
#include "tests/unit/test_util.h"

#define FIX "cli/22.05/"

/* The recorded queue joined with its sprio rows, as batch mode does. */
static struct sq_snapshot *
queue(void)
{
	struct sq_snapshot *jobs =
	    sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue,
			      FIX "admin_squeue_jobs.txt", NULL, 0);
	struct sq_snapshot *prio = sq_test_cli_parse(
	    SQ_KIND_PRIO, sq_parse_sprio, FIX "admin_sprio.txt", NULL, 0);

	sq_prio_rank(prio);
	sq_jobs_join_prio(jobs, prio);
	sq_snapshot_unref(prio);
	return jobs;
}

static const struct sq_job *
job(const struct sq_snapshot *jobs, uint32_t id)
{
	size_t i;

	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (j->job_id == id)
			return j;
	}
	fail_msg("job %u not in the fixture", id);
	return NULL;
}

static int
setup(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

static void
test_events_merge(void **state)
{
	struct sq_snapshot *ev =
	    sq_test_cli_parse(SQ_KIND_EVENTS, sq_parse_sacct_events,
			      FIX "admin_sacct_events.txt", NULL, 0);
	struct sq_snapshot *log =
	    sq_test_cli_parse(SQ_KIND_EVENTS, sq_parse_events_log,
			      FIX "admin_slurmctld_preempt.log", NULL, 0);
	struct sq_snapshot *jobs = queue();
	const struct sq_event *e;
	size_t i;

	(void)state;
	assert_int_equal(sq_events_merge(ev, log), 0);
	/* every log line matched an accounting run: no duplicates */
	assert_int_equal(ev->nrows, 5);
	/* merging twice changes nothing */
	assert_int_equal(sq_events_merge(ev, log), 0);
	assert_int_equal(ev->nrows, 5);
	assert_int_equal(sq_events_from_restarts(ev, NULL, jobs), 0);
	sq_events_finish(ev, jobs);
	/* newest first: job 104 preempted by hi-preempt (126) */
	e = sq_snapshot_row(ev, 0);
	assert_int_equal(e->victim_job, 104);
	assert_int_equal(e->preemptor_job, 126);
	assert_string_equal(e->preemptor_user, "opsadmin");
	assert_string_equal(e->preemptor_partition, "high");
	assert_string_equal(e->victim_user, "alice");
	assert_string_equal(e->victim_partition, "low");
	assert_string_equal(e->mode, "REQUEUE");
	assert_string_equal(e->source, "sacct+log");
	assert_int_equal(e->restarts, 1);
	for (i = 1; i < ev->nrows; i++) {
		const struct sq_event *p = sq_snapshot_row(ev, i - 1);

		e = sq_snapshot_row(ev, i);
		assert_true(e->time <= p->time);
		assert_string_equal(e->source, "sacct+log");
		assert_true(e->preemptor_job != 0);
	}
	sq_snapshot_unref(log);
	sq_snapshot_unref(ev);
	sq_snapshot_unref(jobs);
}

static void
test_events_log_only(void **state)
{
	struct sq_snapshot *ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	struct sq_snapshot *log =
	    sq_test_cli_parse(SQ_KIND_EVENTS, sq_parse_events_log,
			      FIX "admin_slurmctld_preempt.log", NULL, 0);
	struct sq_snapshot *jobs = queue();
	const struct sq_event *e;

	(void)state;
	/* no accounting: the log alone gives the events, the queue names */
	assert_int_equal(sq_events_merge(ev, log), 0);
	assert_int_equal(ev->nrows, 5);
	sq_events_finish(ev, jobs);
	e = sq_snapshot_row(ev, 0);
	assert_int_equal(e->victim_job, 104);
	assert_string_equal(e->victim_user, "alice");
	assert_string_equal(e->source, "log");
	sq_snapshot_unref(log);
	sq_snapshot_unref(ev);
	sq_snapshot_unref(jobs);
}

static void
test_events_restarts(void **state)
{
	struct sq_snapshot *ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	struct sq_snapshot *older = queue(), *newer = queue();
	struct sq_job *j;
	const struct sq_event *e;

	(void)state;
	/* one-shot: job 104 has restarted once and no source knows why */
	assert_int_equal(sq_events_from_restarts(ev, NULL, newer), 1);
	e = sq_snapshot_row(ev, 0);
	assert_int_equal(e->victim_job, 104);
	assert_int_equal(e->time, SQ_NONE);
	assert_string_equal(e->source, "restarts");
	assert_non_null(strstr(e->note, "no preemptor: only the queue's "
					"restart count"));
	sq_snapshot_unref(ev);
	/* between refreshes: 104 goes 1 -> 3, carol-3 (116) 0 -> 1 */
	ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	newer->fetched = older->fetched + 30;
	j = (struct sq_job *)job(newer, 104);
	j->more = sq_snapshot_job_more(newer, "", "", 3);
	j = (struct sq_job *)job(newer, 116);
	j->more = sq_snapshot_job_more(newer, "", "", 1);
	assert_int_equal(sq_events_from_restarts(ev, older, newer), 3);
	e = sq_snapshot_row(ev, 0);
	assert_int_equal(e->victim_job, 104);
	assert_int_equal(e->restarts, 2);
	assert_int_equal(e->time, newer->fetched);
	e = sq_snapshot_row(ev, 1);
	assert_int_equal(e->restarts, 3);
	e = sq_snapshot_row(ev, 2);
	assert_int_equal(e->victim_job, 116);
	assert_string_equal(e->victim_user, "carol");
	/* already explained: nothing new */
	assert_int_equal(sq_events_from_restarts(ev, older, newer), 0);
	/* no change at all: nothing */
	sq_snapshot_unref(ev);
	ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	assert_int_equal(sq_events_from_restarts(ev, older, older), 0);
	sq_snapshot_unref(ev);
	sq_snapshot_unref(older);
	sq_snapshot_unref(newer);
}

static void
test_why_limit_of(void **state)
{
	static const struct {
		const char *reason, *scope, *key, *tres;
	} cases[] = {
		{ "AssocMaxJobsLimit", "assoc", "MaxJobs", "" },
		{ "AssocGrpGRES", "assoc", "GrpTRES", "gres/" },
		{ "AssocGrpCpuLimit", "assoc", "GrpTRES", "cpu" },
		{ "AssocGrpCPUMinutesLimit", "assoc", "GrpTRESMins", "cpu" },
		{ "AssocGrpGRESRunMinutes", "assoc", "GrpTRESRunMins",
		  "gres/" },
		{ "AssocGrpSubmitJobsLimit", "assoc", "GrpSubmitJobs", "" },
		{ "AssocMaxSubmitJobLimit", "assoc", "MaxSubmitJobs", "" },
		{ "AssocMaxWallDurationPerJobLimit", "assoc", "MaxWallPJ", "" },
		{ "AssocMaxGRESPerNode", "assoc", "MaxTRESPN", "gres/" },
		{ "AssocGrpMemLimit", "assoc", "GrpTRES", "mem" },
		{ "QOSMaxJobsPerUserLimit", "qos", "MaxJobsPU", "" },
		{ "QOSMaxSubmitJobPerAccountLimit", "qos", "MaxSubmitJobsPA",
		  "" },
		{ "QOSMaxGRESPerUser", "qos", "MaxTRESPU", "gres/" },
		{ "QOSMaxCpuPerJobLimit", "qos", "MaxTRESPJ", "cpu" },
		{ "QOSGrpNodeLimit", "qos", "GrpTRES", "node" },
		{ "QOSMinGRES", "qos", "MinTRESPJ", "gres/" },
		{ "QOSGrpWallLimit", "qos", "GrpWall", "" },
	};
	char scope[8], key[32], tres[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (sq_why_limit_of(cases[i].reason, scope, sizeof(scope), key,
				    sizeof(key), tres, sizeof(tres)) != 0)
			fail_msg("%s: not a limit", cases[i].reason);
		if (strcmp(scope, cases[i].scope) ||
		    strcmp(key, cases[i].key) || strcmp(tres, cases[i].tres))
			fail_msg("%s: got %s %s '%s'", cases[i].reason, scope,
				 key, tres);
	}
	assert_int_equal(sq_why_limit_of("Priority", scope, sizeof(scope), key,
					 sizeof(key), tres, sizeof(tres)),
			 -1);
	assert_int_equal(sq_why_limit_of("QOSNotAllowed", scope, sizeof(scope),
					 key, sizeof(key), tres, sizeof(tres)),
			 -1);
	assert_int_equal(sq_why_limit_of("AssocFoo", scope, sizeof(scope), key,
					 sizeof(key), tres, sizeof(tres)),
			 -1);
}

static void
test_why_max_jobs(void **state)
{
	struct sq_snapshot *jobs = queue();
	struct sq_snapshot *limits =
	    sq_test_cli_parse(SQ_KIND_LIMITS, sq_parse_assoc_mgr,
			      FIX "admin_assoc_mgr.txt", NULL, 0);
	struct sq_snapshot *assocs =
	    sq_test_cli_parse(SQ_KIND_ASSOCS, sq_parse_sacctmgr_assoc,
			      FIX "admin_sacctmgr_assoc.txt", NULL, 0);
	struct sq_why w;
	char text[2048];

	(void)state;
	/* carol-3: AssocMaxJobsLimit of chemistry/carol (MaxJobs=2) */
	sq_why_compute(job(jobs, 116), jobs, limits, assocs, &w);
	assert_true(w.pending);
	assert_true(w.limit_reason);
	assert_string_equal(w.limit_key, "MaxJobs");
	assert_int_equal(w.nlimits, 1);
	assert_string_equal(w.limits[0].owner, "chemistry/carol");
	assert_int_equal(w.limits[0].value, 2);
	assert_int_equal(w.limits[0].used, 2);
	assert_true(w.limits[0].at_limit);
	/* sixth of eight ranked in low; 118 is ahead on fairshare */
	assert_int_equal(w.rank, 6);
	assert_int_equal(w.ranked, 8);
	assert_int_equal(w.ahead_job, 118);
	assert_string_equal(w.factor, "fairshare");
	assert_int_equal(w.factor_ahead - w.factor_self, 1667);
	sq_why_format(&w, text, sizeof(text));
	assert_non_null(strstr(text, "association chemistry/carol MaxJobs = "
				     "2, in use 2"));
	assert_non_null(strstr(text, "rank: 6 of 8"));
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(limits);
	sq_snapshot_unref(assocs);
}

static void
test_why_grp_gres(void **state)
{
	struct sq_snapshot *jobs = queue();
	struct sq_snapshot *limits =
	    sq_test_cli_parse(SQ_KIND_LIMITS, sq_parse_assoc_mgr,
			      FIX "admin_assoc_mgr.txt", NULL, 0);
	struct sq_why w;
	char text[2048];

	(void)state;
	/* gpu-over: 5 of chemistry's 6 GPUs in use, it asks for 2; the
	 * account tree comes from the limits alone (assocs NULL) */
	sq_why_compute(job(jobs, 117), jobs, limits, NULL, &w);
	assert_string_equal(w.limit_key, "GrpTRES");
	assert_string_equal(w.limit_tres, "gres/");
	assert_int_equal(w.nlimits, 1);
	assert_string_equal(w.limits[0].owner, "chemistry");
	assert_string_equal(w.limits[0].tres, "gres/gpu");
	assert_int_equal(w.limits[0].value, 6);
	assert_int_equal(w.limits[0].used, 5);
	assert_int_equal(w.limits[0].request, 2);
	assert_true(w.limits[0].at_limit);
	assert_int_equal(w.rank, 1);
	assert_int_equal(w.ahead_job, 0);
	sq_why_format(&w, text, sizeof(text));
	assert_non_null(strstr(text, "association chemistry GrpTRES gres/gpu "
				     "= 6, in use 5, this job adds 2"));
	/* without assoc_mgr the limit is named, usage unknown */
	sq_why_compute(job(jobs, 117), jobs, NULL, NULL, &w);
	assert_false(w.limits_known);
	sq_why_format(&w, text, sizeof(text));
	assert_non_null(strstr(text, "usage unknown"));
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(limits);
}

static void
test_why_priority(void **state)
{
	struct sq_snapshot *jobs = queue();
	struct sq_why w;
	char text[2048];

	(void)state;
	/* pend-prio: last in low, behind the array on job size */
	sq_why_compute(job(jobs, 122), jobs, NULL, NULL, &w);
	assert_false(w.limit_reason);
	assert_int_equal(w.rank, 8);
	assert_int_equal(w.ahead_job, 112);
	assert_int_equal(w.ahead_priority - w.priority, 25);
	assert_string_equal(w.factor, "jobsize");
	/* held: sprio does not rank it */
	sq_why_compute(job(jobs, 125), jobs, NULL, NULL, &w);
	assert_int_equal(w.rank, 0);
	assert_non_null(strstr(w.meaning, "administrator"));
	sq_why_format(&w, text, sizeof(text));
	assert_non_null(strstr(text, "not ranked (sprio does not list it: "
				     "it is held)"));
	/* sprio read before the job was submitted: not asserted */
	jobs->dep->fetched = (time_t)job(jobs, 125)->submit_time - 5;
	jobs->fetched = jobs->dep->fetched + 20;
	sq_why_compute(job(jobs, 125), jobs, NULL, NULL, &w);
	sq_why_format(&w, text, sizeof(text));
	assert_non_null(strstr(text, "not known yet (sprio was read before "
				     "this job was submitted)"));
	assert_non_null(strstr(text, "sprio was read 20s before this row"));
	/* "front of its partition" only at rank 1 */
	((struct sq_job *)job(jobs, 122))->reason = "Resources";
	sq_why_compute(job(jobs, 122), jobs, NULL, NULL, &w);
	assert_null(strstr(w.meaning, "it is at the front"));
	assert_non_null(strstr(w.meaning, "not at the front"));
	assert_non_null(strstr(w.meaning, "ranks it 8 of"));
	/* running: not pending */
	sq_why_compute(job(jobs, 126), jobs, NULL, NULL, &w);
	assert_false(w.pending);
	/* a small buffer is cut, never overrun */
	sq_why_compute(job(jobs, 122), jobs, NULL, NULL, &w);
	assert_true(sq_why_format(&w, text, 16) > 16);
	assert_int_equal(strlen(text), 15);
	sq_snapshot_unref(jobs);
}

/* Equal priority: Slurm (sort_job_queue2) starts the earlier submit time
 * first, and a requeue sets the submit time anew; job id only after. */
static void
test_why_tie(void **state)
{
	struct sq_snapshot *jobs = queue();
	struct sq_job *older = (struct sq_job *)job(jobs, 112);
	struct sq_job *newer = (struct sq_job *)job(jobs, 122);
	struct sq_why w;
	char text[2048];

	(void)state;
	/* 112 (pending array, bob) ties 122 (bob) on priority, and was
	 * requeued 95 s after 122 was submitted */
	((struct sq_prio *)older->prio)->priority = newer->prio->priority;
	older->submit_time = newer->submit_time + 95;
	sq_why_compute(older, jobs, NULL, NULL, &w);
	assert_int_equal(w.ahead_job, 122);
	assert_int_equal(w.rank, 8);
	sq_why_format(&w, text, sizeof(text));
	assert_null(strstr(text, "older job"));
	assert_non_null(strstr(text, "separated by: submit time (equal "
				     "priority: Slurm starts the earlier "
				     "submitted job first; job 122 was "
				     "submitted or requeued 1m before this "
				     "one)"));
	sq_why_compute(newer, jobs, NULL, NULL, &w);
	assert_int_equal(w.rank, 7);
	assert_int_not_equal(w.ahead_job, 112);
	/* the same submit time: the lower job id */
	older->submit_time = newer->submit_time;
	sq_why_compute(newer, jobs, NULL, NULL, &w);
	assert_int_equal(w.ahead_job, 112);
	sq_why_format(&w, text, sizeof(text));
	assert_non_null(strstr(text, "separated by: job id (equal priority "
				     "and submit time: Slurm starts the lower "
				     "job id first)"));
	/* no submit time: not claimed */
	older->submit_time = SQ_NONE;
	sq_why_compute(newer, jobs, NULL, NULL, &w);
	sq_why_format(&w, text, sizeof(text));
	assert_non_null(strstr(text, "submit times are not known here"));
	sq_snapshot_unref(jobs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_merge),
		cmocka_unit_test(test_events_log_only),
		cmocka_unit_test(test_events_restarts),
		cmocka_unit_test(test_why_limit_of),
		cmocka_unit_test(test_why_tie),
		cmocka_unit_test(test_why_max_jobs),
		cmocka_unit_test(test_why_grp_gres),
		cmocka_unit_test(test_why_priority),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
