/*
 * rest_views.c - the views slurmrestd has the data for but no endpoint:
 * GPUs, the pending queue's priorities, limits with their use, and
 * preemption events. Each fetches the plain kinds through the backend's
 * own fetch and hands the records to the core joins the CLI backends use
 * (core/gpus.c, join.c, limits.c, events*.c), so the rows are the same.
 */
#include <stdio.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/rest/rest.h"
#include "core/events.h"
#include "core/gpus.h"
#include "core/join.h"
#include "core/limits.h"
#include "core/util.h"

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

/* Runs of the last day from slurmdbd; the queue, partitions and QOS only
 * complete them (restart counts, names, the inferred preemptor). */
static int
build_events(struct sq_backend *b, struct sq_snapshot *s, struct sq_err *err)
{
	struct sq_snapshot *runs, *jobs, *parts, *qos;
	struct sq_err opt;
	char start[40];
	int64_t since = (int64_t)time(NULL) - EVENTS_WINDOW;
	int rc = -1;

	snprintf(start, sizeof(start), "now-%dseconds", EVENTS_WINDOW);
	if (sq_rest_fetch_runs(b, start, &runs, err) == -1)
		return -1;
	jobs = get(b, SQ_KIND_JOBS, &opt);
	parts = get(b, SQ_KIND_PARTITIONS, &opt);
	qos = get(b, SQ_KIND_QOS, &opt);
	if (sq_events_from_runs(s, runs, since) == -1)
		goto oom;
	sq_events_infer(s, runs, jobs, parts, qos);
	if (sq_events_from_restarts(s, NULL, jobs) == -1)
		goto oom;
	sq_events_finish(s, jobs);
	s->source = "GET slurmdb jobs + jobs";
	s->note = "no controller log through slurmrestd: preemptors are "
		  "inferred (source 'inferred')";
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
