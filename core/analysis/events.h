/*
 * events.h - merging the sources of preemption events into one EVENTS
 * snapshot: accounting runs (sacct, REST slurmdb), controller log lines,
 * and restart counts that grew between two queue snapshots. Pure
 * functions on snapshots that are not yet published.
 */
#ifndef SQ_EVENTS_H
#define SQ_EVENTS_H

#include "core/model/model_admin.h"
#include "core/model/snapshot.h"

/* The events' window: the last day (the CLI's sacct -S now-1days). */
#define SQ_EVENTS_WINDOW 86400

/* Seconds between a run's End in accounting and the controller's log
 * line for the same preemption that still count as one event. */
#define SQ_EVENTS_SLACK 60

/*
 * Fold the log events (source "log") into events: a log line that
 * matches a run of the same job within SQ_EVENTS_SLACK seconds gives it
 * its preemptor and mode (source becomes "sacct+log"); others are added
 * once (repeated lines are dropped). -1 on ENOMEM.
 */
int sq_events_merge(struct sq_snapshot *events, const struct sq_snapshot *log);

/*
 * Restart counts that grew from old_jobs to new_jobs (JOBS snapshots)
 * and are not explained by an event of that job since old_jobs was
 * fetched become events with source "restarts", at new_jobs' fetch
 * time. With old_jobs NULL (a first or one-shot fetch), a job that
 * has restarted but has no event at all gets one row with time unknown.
 * Returns the number of rows added, or -1 on ENOMEM.
 */
int sq_events_from_restarts(struct sq_snapshot *events,
			    const struct sq_snapshot *old_jobs,
			    const struct sq_snapshot *new_jobs);

/* Set note = why on every event whose preemptor no source names (the
 * string is copied into the snapshot). */
void sq_events_note_unknown(struct sq_snapshot *events, const char *why);

/* Drop the events before since (epoch): the window's start. */
void sq_events_since(struct sq_snapshot *events, int64_t since);

/*
 * Complete events from the queue (JOBS snapshot, may be NULL): victim
 * and preemptor user/partition where unknown, the restart count of each
 * run, and mode REQUEUE where the job was evidently requeued (it ran
 * again or is back in the queue). Then sort newest first.
 */
void sq_events_finish(struct sq_snapshot *events,
		      const struct sq_snapshot *jobs);

/*
 * Accounting runs (a HISTORY snapshot, slurmdbd's job records) that
 * ended PREEMPTED or REQUEUED at or after since become events with
 * source "sacct", as sacct -s PR,RQ lists them. -1 on ENOMEM.
 */
int sq_events_from_runs(struct sq_snapshot *events,
			const struct sq_snapshot *runs, int64_t since);

/*
 * For PREEMPTED events without a preemptor (no controller log): the job
 * (a run of runs, or of the queue jobs) that started on one of the
 * victim's nodes within SQ_EVENTS_SLACK seconds of its end, from a
 * partition (parts) of higher PriorityTier or with a QOS (qos) that
 * preempts the victim's, the closest in time (an array task named by its
 * array's job id, as the controller log names it); its source gets
 * "+inferred". An unknown mode of a PREEMPTED run is the PreemptMode of
 * the victim's partition, preemptor found or not. Any input
 * but events may be NULL.
 */
void sq_events_infer(struct sq_snapshot *events, const struct sq_snapshot *runs,
		     const struct sq_snapshot *jobs,
		     const struct sq_snapshot *parts,
		     const struct sq_snapshot *qos);

/*
 * The events of accounting runs alone, where no controller log names
 * the preemptors (slurmrestd; the fetch plan's build of EVENTS from
 * PREEMPT_RUNS, session/plan.c): the runs of ended (the events' own
 * answer) that ended PREEMPTED or REQUEUED at or after since
 * (sq_events_from_runs), their preemptors inferred from runs (the candidates,
 * ended's among them), jobs, parts and qos (sq_events_infer), the queue's
 * restarts (sq_events_from_restarts, one-shot) and sq_events_finish. Any input
 * but events may be NULL. -1 on ENOMEM.
 */
int sq_events_build(struct sq_snapshot *events, const struct sq_snapshot *ended,
		    const struct sq_snapshot *runs,
		    const struct sq_snapshot *jobs,
		    const struct sq_snapshot *parts,
		    const struct sq_snapshot *qos, int64_t since);

/*
 * A stretch of PREEMPTED events whose preemptors are to be inferred:
 * where a backend without the controller log (rest) asks slurmdbd for
 * the runs active around them, on their nodes, rather than for every
 * run of the window. from..to (epoch) spans the events' ends, less 1
 * and plus SQ_EVENTS_SLACK; nodes joins their node lists with commas.
 */
#define SQ_EVENTS_SPAN_MAX 600 /* seconds between a span's events */
struct sq_events_span {
	int64_t from, to;
	char nodes[512];
};

/*
 * The spans of the events sq_events_infer would look at, newest first,
 * at most max of them: an event joins the span before it when it ended
 * within SQ_EVENTS_SPAN_MAX seconds of that span's newest one and its
 * node list fits. A node list with anything but letters, digits, "-",
 * "_", ".", "[", "]" and "," is never put in a span. Returns the number
 * of spans; *left counts the events left out (too many spans, or their
 * node lists).
 */
size_t sq_events_spans(const struct sq_snapshot *events,
		       struct sq_events_span *out, size_t max, size_t *left);

#endif
