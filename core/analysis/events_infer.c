/*
 * events_infer.c - preemption events from accounting runs alone (no
 * controller log: slurmrestd): each PREEMPTED or REQUEUED run is an
 * event, and its preemptor is inferred the way an admin would: the job
 * that started on one of the victim's nodes when the victim ended, from
 * a partition of higher PriorityTier or with a QOS that preempts the
 * victim's; its mode is the PreemptMode of the victim's partition. Such
 * rows say "inferred" in their source.
 */
#include <stdlib.h>
#include <string.h>

#include "core/analysis/events.h"
#include "core/analysis/history.h"
#include "core/base/hostlist.h"

/* A job that may have preempted: a run of the accounting window or a
 * job of the queue. */
struct cand {
	uint32_t job_id; /* an array task: its array's id (as the log) */
	const char *user, *partition, *qos, *nodelist;
	int64_t start;
};

int
sq_events_from_runs(struct sq_snapshot *events, const struct sq_snapshot *runs,
		    int64_t since)
{
	size_t i;

	for (i = 0; runs != NULL && i < runs->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(runs, i);
		struct sq_event *e;

		if (h->scope != SQ_HIST_RUN || h->end == SQ_NONE ||
		    h->end < since ||
		    (strcmp(h->state, "PREEMPTED") != 0 &&
		     strcmp(h->state, "REQUEUED") != 0))
			continue;
		e = sq_snapshot_add(events);
		if (e == NULL)
			return -1;
		e->time = h->end;
		e->victim_job = h->job_id;
		e->victim_id = sq_snapshot_str(events, h->id);
		e->victim_user = sq_snapshot_str(events, h->user);
		e->victim_account = sq_snapshot_str(events, h->account);
		e->victim_partition = sq_snapshot_str(events, h->partition);
		e->victim_qos = sq_snapshot_str(events, h->qos);
		e->nodelist = sq_snapshot_str(events, h->nodelist);
		e->run_start = h->start;
		e->preemptor_user = e->preemptor_partition = e->mode = "";
		e->state = sq_snapshot_str(events, h->state);
		e->restarts = SQ_NONE;
		e->source = "sacct";
	}
	return 0;
}

static const struct sq_partition *
partition(const struct sq_snapshot *parts, const char *name)
{
	size_t i;

	for (i = 0; parts != NULL && i < parts->nrows; i++) {
		const struct sq_partition *p = sq_snapshot_row(parts, i);

		if (strcmp(p->name, name) == 0)
			return p;
	}
	return NULL;
}

static int64_t
tier(const struct sq_snapshot *parts, const char *name)
{
	const struct sq_partition *p = partition(parts, name);

	return p != NULL ? p->priority_tier : SQ_NONE;
}

/* The mode the victim's partition preempts with (REQUEUE, CANCEL,
 * SUSPEND), or "" */
static const char *
part_mode(const struct sq_snapshot *parts, const char *name)
{
	static const char *const modes[] = { "REQUEUE", "CANCEL", "SUSPEND" };
	const struct sq_partition *p = partition(parts, name);
	size_t i;

	for (i = 0; p != NULL && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strstr(p->preempt_mode, modes[i]) != NULL)
			return modes[i];
	}
	return "";
}

/* Is name in a comma-separated list? */
static int
listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (n > 0 && list != NULL && *list != '\0') {
		size_t l = strcspn(list, ",");

		if (l == n && strncmp(list, name, n) == 0)
			return 1;
		list += l;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* May c preempt the victim of e: a higher tier or a preempting QOS? */
static int
outranks(const struct cand *c, const struct sq_event *e,
	 const struct sq_snapshot *parts, const struct sq_snapshot *qos)
{
	int64_t tc = tier(parts, c->partition),
		tv = tier(parts, e->victim_partition);
	size_t i;

	if (tc != SQ_NONE && tv != SQ_NONE && tc > tv)
		return 1;
	for (i = 0; qos != NULL && i < qos->nrows; i++) {
		const struct sq_qos *q = sq_snapshot_row(qos, i);

		if (strcmp(q->name, c->qos) == 0 &&
		    listed(q->preempt, e->victim_qos))
			return 1;
	}
	return 0;
}

/* Does c run on one of the victim's nodes? */
static int
shares_node(const struct cand *c, const struct sq_event *e)
{
	size_t n = 0, i;
	char **names = sq_hostlist_names(e->nodelist, &n);
	int hit = 0;

	if (names == NULL)
		return 0;
	for (i = 0; i < n && !hit; i++)
		hit = sq_hostlist_contains(c->nodelist, names[i]);
	sq_hostlist_free_names(names, n);
	return hit;
}

/* The id the controller log names a preemptor by: an array task
 * ("159_2", job 162) by its array's id (159); any other job by its own. */
static uint32_t
array_of(const char *id, uint32_t job_id)
{
	char *end;
	unsigned long a = strtoul(id, &end, 10);

	return *end == '_' && a > 0 && a <= UINT32_MAX ? (uint32_t)a : job_id;
}

/* Keep c in *best when it explains e better (started closer to it). */
static void
consider(const struct cand *c, const struct sq_event *e,
	 const struct sq_snapshot *parts, const struct sq_snapshot *qos,
	 struct cand *best)
{
	int64_t d = c->start - e->time;

	if (c->job_id == e->victim_job || c->start == SQ_NONE || d < -1 ||
	    d > SQ_EVENTS_SLACK || c->nodelist[0] == '\0')
		return;
	if (best->job_id != 0 && d >= best->start - e->time)
		return;
	if (!shares_node(c, e) || !outranks(c, e, parts, qos))
		return;
	*best = *c;
}

/* Has the accounting a record of e's job after e's run (same job id,
 * submitted, started or ended after e ended)? */
static int
requeued_later(const struct sq_event *e, const struct sq_snapshot *runs)
{
	size_t i;

	for (i = 0; runs != NULL && i < runs->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(runs, i);

		if (h->scope == SQ_HIST_RUN && h->job_id == e->victim_job &&
		    ((h->submit != SQ_NONE && h->submit >= e->time) ||
		     (h->start != SQ_NONE && h->start >= e->time) ||
		     (h->end != SQ_NONE && h->end > e->time)))
			return 1;
	}
	return 0;
}

static void
infer_one(struct sq_snapshot *events, struct sq_event *e,
	  const struct sq_snapshot *runs, const struct sq_snapshot *jobs,
	  const struct sq_snapshot *parts, const struct sq_snapshot *qos)
{
	struct cand best = { 0 }, c;
	size_t i;

	for (i = 0; runs != NULL && i < runs->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(runs, i);

		if (h->scope != SQ_HIST_RUN)
			continue;
		c.job_id = array_of(h->id, h->job_id);
		c.user = h->user;
		c.partition = h->partition;
		c.qos = h->qos;
		c.nodelist = h->nodelist;
		c.start = h->start;
		consider(&c, e, parts, qos, &best);
	}
	for (i = 0; jobs != NULL && i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		c.job_id = j->array_job_id ? j->array_job_id : j->job_id;
		c.user = j->user;
		c.partition = j->partition;
		c.qos = j->qos;
		c.nodelist = j->nodelist;
		c.start = j->start_time;
		consider(&c, e, parts, qos, &best);
	}
	/* a PREEMPTED run was preempted the way its partition preempts,
	 * whether or not its preemptor can be named; a later record of the
	 * same job (a run, or the one it was cancelled in) says it was
	 * requeued, where the partition does not say (24.11's REST) */
	if (e->mode[0] == '\0')
		e->mode = part_mode(parts, e->victim_partition);
	if (e->mode[0] == '\0' && requeued_later(e, runs))
		e->mode = "REQUEUE";
	if (best.job_id == 0)
		return;
	e->preemptor_job = best.job_id;
	e->preemptor_user = sq_snapshot_str(events, best.user);
	e->preemptor_partition = sq_snapshot_str(events, best.partition);
	e->source =
	    strcmp(e->source, "sacct") == 0 ? "sacct+inferred" : "inferred";
}

/* Does e need a preemptor (as sq_events_infer asks)? */
static int
needs_preemptor(const struct sq_event *e)
{
	return e->preemptor_job == 0 && e->time != SQ_NONE &&
	       strcmp(e->state, "PREEMPTED") == 0 && e->nodelist[0] != '\0';
}

void
sq_events_infer(struct sq_snapshot *events, const struct sq_snapshot *runs,
		const struct sq_snapshot *jobs, const struct sq_snapshot *parts,
		const struct sq_snapshot *qos)
{
	size_t i;

	for (i = 0; i < events->nrows; i++) {
		struct sq_event *e = sq_snapshot_row(events, i);

		if (needs_preemptor(e))
			infer_one(events, e, runs, jobs, parts, qos);
	}
}

int
sq_events_build(struct sq_snapshot *events, const struct sq_snapshot *ended,
		const struct sq_snapshot *runs, const struct sq_snapshot *jobs,
		const struct sq_snapshot *parts, const struct sq_snapshot *qos,
		int64_t since)
{
	if (sq_events_from_runs(events, ended, since) == -1)
		return -1;
	sq_events_infer(events, runs, jobs, parts, qos);
	if (sq_events_from_restarts(events, NULL, jobs) == -1)
		return -1;
	sq_events_finish(events, jobs);
	return 0;
}

/* Only the characters of a Slurm node list, so it may go in a query */
static int
plain_nodelist(const char *s)
{
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789-_.[],") == strlen(s);
}

static int
cmp_newest(const void *a_, const void *b_)
{
	const struct sq_event *a = *(const struct sq_event *const *)a_,
			      *b = *(const struct sq_event *const *)b_;

	return a->time == b->time ? 0 : a->time > b->time ? -1 : 1;
}

size_t
sq_events_spans(const struct sq_snapshot *events, struct sq_events_span *out,
		size_t max, size_t *left)
{
	const struct sq_event **v;
	size_t i, n = 0, ns = 0;

	*left = 0;
	v = malloc((events->nrows + 1) * sizeof(*v));
	if (v == NULL) {
		*left = events->nrows;
		return 0;
	}
	for (i = 0; i < events->nrows; i++) {
		const struct sq_event *e = sq_snapshot_row(events, i);

		if (needs_preemptor(e))
			v[n++] = e;
	}
	qsort(v, n, sizeof(*v), cmp_newest);
	for (i = 0; i < n; i++) {
		const struct sq_event *e = v[i];
		struct sq_events_span *sp = ns > 0 ? &out[ns - 1] : NULL;
		size_t have, need = strlen(e->nodelist);

		if (!plain_nodelist(e->nodelist) ||
		    need + 1 > sizeof(out->nodes)) {
			(*left)++;
			continue;
		}
		if (sp != NULL &&
		    sp->to - SQ_EVENTS_SLACK - e->time <= SQ_EVENTS_SPAN_MAX) {
			have = strlen(sp->nodes);
			if (listed(sp->nodes, e->nodelist)) {
				sp->from = e->time - 1;
				continue;
			}
			if (have + 1 + need + 1 <= sizeof(sp->nodes)) {
				sp->nodes[have] = ',';
				memcpy(sp->nodes + have + 1, e->nodelist,
				       need + 1);
				sp->from = e->time - 1;
				continue;
			}
		}
		if (ns == max) {
			(*left)++;
			continue;
		}
		sp = &out[ns++];
		sp->from = e->time - 1;
		sp->to = e->time + SQ_EVENTS_SLACK;
		memcpy(sp->nodes, e->nodelist, need + 1);
	}
	free(v);
	return ns;
}
