/*
 * rest_views.c - the views slurmrestd has the data for but no endpoint:
 * GPUs, the pending queue's priorities, limits with their use, and
 * preemption events. The fetch plan builds them from the kinds REST
 * reads (session/plan.c, with the core functions the CLI backends' rows
 * come from: core/analysis/gpus.c, join.c, limits.c, events*.c, so the
 * rows are the same); here are REST's words for them (sq_rest_built,
 * which also names the kinds REST reads without their association
 * columns: accounts and users, completed by the plan, and
 * sq_rest_unserved: why it serves some not at all) and the one kind
 * only they need: slurmdbd's runs around the last
 * day's preemptions (PREEMPT_RUNS), what the events are inferred from.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/rest/rest.h"
#include "core/analysis/events.h"
#include "core/analysis/history.h"
#include "core/base/util.h"

const struct sq_backend_built sq_rest_built[SQ_KIND_COUNT] = {
	/* slurmrestd serves no gres/gpuutil TRES usage on any version */
	[SQ_KIND_GPUS] = { .source = "GET nodes + jobs (tres_alloc_str)",
			   .unserved = "not collected (slurmrestd serves no "
				       "gres/gpuutil usage)" },
	[SQ_KIND_PRIO] = { .source = "GET jobs (pending)",
			   .note = "priority and rank from /jobs; slurmrestd "
				   "serves no sprio factors, so their columns "
				   "are empty" },
	[SQ_KIND_LIMITS] = { .source = "GET associations + qos + jobs",
			     .note = "use counted from the queue; decayed "
				     "usage (GrpTRESMins, GrpWall) and accrue "
				     "counts are slurmctld's own" },
	/* GET /accounts and /users carry only names from v0.0.40 on: the
	 * plan completes them from GET /associations (the ASSOCS kind) */
	[SQ_KIND_ACCOUNTS] = { .reads = 1 },
	[SQ_KIND_USERS] = { .reads = 1 },
	/* PREEMPT_RUNS says when it is for the newest preemptions only */
	[SQ_KIND_EVENTS] = { .source = "GET slurmdb jobs (by state, and "
				       "around each preemption) + jobs",
			     .note = "no controller log through slurmrestd: "
				     "preemptors are inferred (source "
				     "'inferred')" },
};

/* Why slurmrestd cannot serve a kind, where no version can (the kinds
 * the plan builds from others say so in rest.c's rest_fetch) */
const char *const sq_rest_unserved[SQ_KIND_COUNT] = {
	[SQ_KIND_NODE_EVENTS] = "slurmrestd serves no node event history "
				"(sacctmgr show event has no endpoint); the "
				"nodes view shows each node's current "
				"reason; use the local or ssh backend for "
				"node-events",
	[SQ_KIND_PROBLEMS] = "slurmrestd has no endpoint for "
			     "sacctmgr show problem; use the local or "
			     "ssh backend for problems",
	[SQ_KIND_RUNAWAY] = "slurmrestd has no runaway-job endpoint: "
			    "its /slurmdb/jobs lists accounting's jobs "
			    "without comparing them with slurmctld's "
			    "(the hidden run_away_jobs flag of v0.0.43+ "
			    "only drops ended ones) and no request runs "
			    "the fix; use the local or ssh backend for "
			    "runaway and fix-runaway",
	[SQ_KIND_PRIO_WEIGHTS] = "slurmrestd has no priority weights or "
				 "factors (sprio) on any API version; use "
				 "the local or ssh backend for them",
	[SQ_KIND_WHATIF] = "the whatif view needs the normalized "
			   "priority factors (sprio -n), which "
			   "slurmrestd serves on no API version; use "
			   "the local or ssh backend",
	[SQ_KIND_CONFIG] = "slurmrestd does not serve the running "
			   "slurm.conf; use the local or ssh backend",
};

/* The most spans of events one fetch asks slurmdbd about */
#define EVENTS_SPANS 16
/* The most preempted jobs whose other runs one fetch asks for */
#define EVENTS_IDS 64
/* Seconds added on each side of a span (the clocks of squall's host and
 * slurmdbd's may differ a little) */
#define EVENTS_SKEW 60

/* "now-Nseconds" for the epoch t (relative: slurmdbd reads a date in its
 * own time zone, which may not be ours) */
static void
rel_time(char *buf, size_t n, int64_t now, int64_t t)
{
	if (t >= now)
		snprintf(buf, n, "now");
	else
		snprintf(buf, n, "now-%lldseconds", (long long)(now - t));
}

/* The node list's characters (sq_events_spans let only letters, digits
 * and "-_.[]," through), URL-encoded */
static void
enc_nodes(char *buf, size_t n, const char *nodes)
{
	size_t o = 0;

	for (; *nodes != '\0' && o + 4 < n; nodes++) {
		if (*nodes == '[' || *nodes == ']' || *nodes == ',') {
			snprintf(buf + o, n - o, "%%%02X",
				 (unsigned char)*nodes);
			o += 3;
		} else {
			buf[o++] = *nodes;
		}
	}
	buf[o] = '\0';
}

/* Add the runs of one query to *runs (a union; *runs NULL: the first). */
static int
add_runs(struct sq_backend *b, const char *query, struct sq_snapshot **runs,
	 struct sq_err *err)
{
	struct sq_snapshot *more, *u;

	if (sq_rest_fetch_runs_query(b, query, &more, err) == -1)
		return -1;
	if (*runs == NULL) {
		*runs = more;
		return 0;
	}
	u = sq_history_union(*runs, more);
	sq_snapshot_unref(more);
	if (u == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	sq_snapshot_unref(*runs);
	*runs = u;
	return 0;
}

/* The runs of the last day that ended PREEMPTED or REQUEUED (sacct -s
 * PR,RQ), the other runs of the preempted jobs, then for each
 * span of those events the runs active around it on its nodes, the
 * preemptor candidates: a day of a busy cluster's accounting is never
 * asked for whole (40,000 runs took slurmrestd 30 s). v0.0.38 ignores
 * state=REQUEUED (it answers every run): there the whole day it is.
 * *runs: all of them; its dep the first answer's, the events' own (the
 * later answers hold runs of requeued jobs that state= did not list,
 * some PREEMPTED: candidates only), NULL when there is one answer. */
static int
fetch_event_runs(struct sq_backend *b, struct sq_snapshot *s, int64_t now,
		 struct sq_snapshot **runs, size_t *left, struct sq_err *err)
{
	struct sq_snapshot *first;
	struct sq_events_span spans[EVENTS_SPANS];
	char q[1800], from[40], to[40], nodes[1600];
	size_t i, n, o;
	int v38 = sq_rest_backend_api(b)->slurmdb < 40;

	*runs = NULL;
	*left = 0;
	if (v38)
		snprintf(q, sizeof(q), "start_time=now-%dseconds&end_time=now",
			 SQ_EVENTS_WINDOW);
	else
		snprintf(q, sizeof(q),
			 "start_time=now-%dseconds&end_time=now&"
			 "state=PREEMPTED&state=REQUEUED",
			 SQ_EVENTS_WINDOW);
	if (add_runs(b, q, runs, err) == -1)
		return -1;
	first = sq_snapshot_ref(*runs);
	if (sq_events_from_runs(s, *runs, now - SQ_EVENTS_WINDOW) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto fail;
	}
	if (v38) /* every run of the day is there already */
		goto done;
	/* the preempted jobs' other runs: a later one says it was requeued
	 * where the partition does not say how it preempts (24.11) */
	o = (size_t)snprintf(q, sizeof(q),
			     "start_time=now-%dseconds&end_time=now",
			     SQ_EVENTS_WINDOW);
	for (i = 0, n = 0; i < s->nrows && n < EVENTS_IDS; i++) {
		const struct sq_event *e = sq_snapshot_row(s, i);

		if (strcmp(e->state, "PREEMPTED") != 0)
			continue;
		o += (size_t)snprintf(q + o, sizeof(q) - o, "&step=%u",
				      (unsigned)e->victim_job);
		n++;
	}
	if (n > 0 && add_runs(b, q, runs, err) == -1)
		goto fail;
	n = sq_events_spans(s, spans, EVENTS_SPANS, left);
	for (i = 0; i < n; i++) {
		rel_time(from, sizeof(from), now, spans[i].from - EVENTS_SKEW);
		rel_time(to, sizeof(to), now, spans[i].to + EVENTS_SKEW);
		enc_nodes(nodes, sizeof(nodes), spans[i].nodes);
		snprintf(q, sizeof(q), "start_time=%s&end_time=%s&node=%s",
			 from, to, nodes);
		if (add_runs(b, q, runs, err) == -1)
			goto fail;
	}
done:
	if (*runs != first)
		(*runs)->dep = first;
	else
		sq_snapshot_unref(first);
	return 0;
fail:
	sq_snapshot_unref(first);
	sq_snapshot_unref(*runs);
	*runs = NULL;
	return -1;
}

int
sq_rest_fetch_preempt_runs(struct sq_backend *b, struct sq_snapshot **out,
			   struct sq_err *err)
{
	/* the events of the first answer pick the later queries */
	struct sq_snapshot *ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	int64_t now = (int64_t)time(NULL);
	double t0 = sq_util_now_ms();
	size_t left = 0;
	int rc;

	*out = NULL;
	if (ev == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	rc = fetch_event_runs(b, ev, now, out, &left, err);
	sq_snapshot_unref(ev);
	if (rc == -1)
		return -1;
	(*out)->kind = SQ_KIND_PREEMPT_RUNS;
	(*out)->fetched = (time_t)now; /* the window ends here */
	(*out)->source = "GET slurmdb jobs (by state, and around each "
			 "preemption)";
	(*out)->note = left == 0
			   ? NULL
			   : "no controller log through slurmrestd: "
			     "preemptors are inferred (source 'inferred'), "
			     "for the newest preemptions only";
	(*out)->fetch_ms = sq_util_now_ms() - t0;
	return 0;
}
