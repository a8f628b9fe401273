/*
 * rest_views.c - the views slurmrestd has the data for but no endpoint:
 * GPUs, the pending queue's priorities, limits with their use, and
 * preemption events. Each fetches the plain kinds through the backend's
 * own fetch and hands the records to the core joins the CLI backends use
 * (core/analysis/gpus.c, join.c, limits.c, events*.c), so the rows are the
 * same.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/rest/rest.h"
#include "core/analysis/events.h"
#include "core/analysis/gpus.h"
#include "core/analysis/history.h"
#include "core/model/join.h"
#include "core/analysis/limits.h"
#include "core/base/util.h"

/* The events window, as the CLI's sacct -S now-1days. */
#define EVENTS_WINDOW (24 * 3600)

/* One plain kind, or NULL (err set) */
static struct sq_snapshot *
get(struct sq_backend *b, enum sq_kind kind, struct sq_err *err)
{
	struct sq_snapshot *s = NULL;

	if (b->ops->fetch(b, kind, &s, err) == -1)
		return NULL;
	return s;
}

/* The slurmctld answers of the GPUS kind: nodes and their jobs. */
static int
build_gpus(struct sq_backend *b, struct sq_snapshot *s, struct sq_err *err)
{
	struct sq_snapshot *nodes, *jobs = NULL;
	int rc = -1;

	nodes = get(b, SQ_KIND_NODES, err);
	if (nodes != NULL)
		jobs = get(b, SQ_KIND_JOBS, err);
	if (jobs == NULL)
		goto done;
	/* slurmrestd serves no gres/gpuutil TRES usage on any version */
	if (sq_gpus_add_records(s, nodes, jobs) == -1 ||
	    sq_gpus_finish(s, "not collected (slurmrestd serves no "
			      "gres/gpuutil usage)") == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto done;
	}
	s->source = "GET nodes + jobs (tres_alloc_str)";
	rc = 0;
done:
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(jobs);
	return rc;
}

static int
build_prio(struct sq_backend *b, struct sq_snapshot *s, struct sq_err *err)
{
	struct sq_snapshot *jobs = get(b, SQ_KIND_JOBS, err);
	int rc;

	if (jobs == NULL)
		return -1;
	rc = sq_prio_from_jobs(s, jobs);
	sq_snapshot_unref(jobs);
	if (rc == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s->source = "GET jobs (pending)";
	s->note = "priority and rank from /jobs; slurmrestd serves no sprio "
		  "factors, so their columns are empty";
	return 0;
}

static int
build_limits(struct sq_backend *b, struct sq_snapshot *s, struct sq_err *err)
{
	struct sq_snapshot *assocs, *qos = NULL, *jobs = NULL;
	int rc = -1;

	assocs = get(b, SQ_KIND_ASSOCS, err);
	if (assocs != NULL)
		qos = get(b, SQ_KIND_QOS, err);
	if (qos != NULL)
		jobs = get(b, SQ_KIND_JOBS, err);
	if (jobs == NULL)
		goto done;
	if (sq_limits_build(s, assocs, qos, jobs) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto done;
	}
	s->source = "GET associations + qos + jobs";
	s->note = "use counted from the queue; decayed usage (GrpTRESMins, "
		  "GrpWall) and accrue counts are slurmctld's own";
	rc = 0;
done:
	sq_snapshot_unref(assocs);
	sq_snapshot_unref(qos);
	sq_snapshot_unref(jobs);
	return rc;
}

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
 * state=REQUEUED (it answers every run): there the whole day it is. */
static int
fetch_event_runs(struct sq_backend *b, struct sq_snapshot *s, int64_t now,
		 struct sq_snapshot **runs, size_t *left, struct sq_err *err)
{
	struct sq_events_span spans[EVENTS_SPANS];
	char q[1800], from[40], to[40], nodes[1600];
	size_t i, n, o;
	int v38 = sq_rest_backend_api(b)->slurmdb < 40;

	*runs = NULL;
	*left = 0;
	if (v38)
		snprintf(q, sizeof(q), "start_time=now-%dseconds&end_time=now",
			 EVENTS_WINDOW);
	else
		snprintf(q, sizeof(q),
			 "start_time=now-%dseconds&end_time=now&"
			 "state=PREEMPTED&state=REQUEUED",
			 EVENTS_WINDOW);
	if (add_runs(b, q, runs, err) == -1)
		return -1;
	if (sq_events_from_runs(s, *runs, now - EVENTS_WINDOW) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto fail;
	}
	if (v38) /* every run of the day is there already */
		return 0;
	/* the preempted jobs' other runs: a later one says it was requeued
	 * where the partition does not say how it preempts (24.11) */
	o = (size_t)snprintf(q, sizeof(q),
			     "start_time=now-%dseconds&end_time=now",
			     EVENTS_WINDOW);
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
	return 0;
fail:
	sq_snapshot_unref(*runs);
	*runs = NULL;
	return -1;
}

/* Preemption events of the last day from slurmdbd; the queue,
 * partitions and QOS only complete them (restart counts, names, the
 * inferred preemptor). */
static int
build_events(struct sq_backend *b, struct sq_snapshot *s, struct sq_err *err)
{
	struct sq_snapshot *runs, *jobs, *parts, *qos;
	struct sq_err opt;
	int64_t now = (int64_t)time(NULL);
	size_t left = 0;
	int rc = -1;

	if (fetch_event_runs(b, s, now, &runs, &left, err) == -1)
		return -1;
	jobs = get(b, SQ_KIND_JOBS, &opt);
	parts = get(b, SQ_KIND_PARTITIONS, &opt);
	qos = get(b, SQ_KIND_QOS, &opt);
	sq_events_infer(s, runs, jobs, parts, qos);
	if (sq_events_from_restarts(s, NULL, jobs) == -1)
		goto oom;
	sq_events_finish(s, jobs);
	s->source = "GET slurmdb jobs (by state, and around each "
		    "preemption) + jobs";
	s->note = left == 0
		      ? "no controller log through slurmrestd: preemptors "
			"are inferred (source 'inferred')"
		      : "no controller log through slurmrestd: preemptors "
			"are inferred (source 'inferred'), for the newest "
			"preemptions only";
	rc = 0;
	goto done;
oom:
	sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
done:
	sq_snapshot_unref(runs);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(parts);
	sq_snapshot_unref(qos);
	return rc;
}

int
sq_rest_fetch_joined(struct sq_backend *b, enum sq_kind kind,
		     struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	double t0 = sq_util_now_ms();
	int rc;

	*out = NULL;
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	switch (kind) {
	case SQ_KIND_GPUS:
		rc = build_gpus(b, s, err);
		break;
	case SQ_KIND_PRIO:
		rc = build_prio(b, s, err);
		break;
	case SQ_KIND_LIMITS:
		rc = build_limits(b, s, err);
		break;
	case SQ_KIND_EVENTS:
		rc = build_events(b, s, err);
		break;
	default:
		rc = sq_err_set(err, SQ_ERR_UNSUPPORTED,
				"the %s view is not available through "
				"slurmrestd",
				sq_kind_name(kind));
	}
	if (rc == -1) {
		sq_snapshot_unref(s);
		return -1;
	}
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	return 0;
}
