/*
 * events.c - one preemption timeline from several partial sources.
 * Accounting knows the victim's run (user, partition, start, end), the
 * controller log knows the preemptor and the mode, the queue knows the
 * restart count. Nothing here guesses a preemptor no source names.
 */
#include <stdlib.h>
#include <string.h>

#include "core/analysis/events.h"

static int64_t
absdiff(int64_t a, int64_t b)
{
	return a > b ? a - b : b - a;
}

/* Jobs by real job id, for lookups in a queue of any size. */
struct job_index {
	const struct sq_job **v;
	size_t n;
};

static int
cmp_job_id(const void *a, const void *b)
{
	const struct sq_job *x = *(const struct sq_job *const *)a;
	const struct sq_job *y = *(const struct sq_job *const *)b;

	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

/* Index jobs (may be NULL); -1 on ENOMEM. */
static int
index_jobs(struct job_index *ix, const struct sq_snapshot *jobs)
{
	size_t i;

	ix->v = NULL;
	ix->n = 0;
	if (jobs == NULL || jobs->nrows == 0)
		return 0;
	ix->v = malloc(jobs->nrows * sizeof(*ix->v));
	if (ix->v == NULL)
		return -1;
	for (i = 0; i < jobs->nrows; i++)
		ix->v[i] = sq_snapshot_row(jobs, i);
	ix->n = jobs->nrows;
	qsort(ix->v, ix->n, sizeof(*ix->v), cmp_job_id);
	return 0;
}

/* The job with that id (an array's tasks each have their own id). */
static const struct sq_job *
find_job(const struct job_index *ix, uint32_t id)
{
	size_t lo = 0, hi = ix->n;

	if (id == 0)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ix->v[mid]->job_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && ix->v[lo]->job_id == id ? ix->v[lo] : NULL;
}

static struct sq_event *
copy_event(struct sq_snapshot *s, const struct sq_event *src)
{
	struct sq_event *e = sq_snapshot_add(s);

	if (e == NULL)
		return NULL;
	*e = *src;
	e->victim_id = sq_snapshot_str(s, src->victim_id);
	e->victim_user = sq_snapshot_str(s, src->victim_user);
	e->victim_account = sq_snapshot_str(s, src->victim_account);
	e->victim_partition = sq_snapshot_str(s, src->victim_partition);
	e->victim_qos = sq_snapshot_str(s, src->victim_qos);
	e->nodelist = sq_snapshot_str(s, src->nodelist);
	e->preemptor_user = sq_snapshot_str(s, src->preemptor_user);
	e->preemptor_partition = sq_snapshot_str(s, src->preemptor_partition);
	e->mode = sq_snapshot_str(s, src->mode);
	e->state = sq_snapshot_str(s, src->state);
	e->source = sq_snapshot_str(s, src->source);
	e->note = sq_snapshot_str(s, src->note ? src->note : "");
	return e;
}

int
sq_events_merge(struct sq_snapshot *events, const struct sq_snapshot *log)
{
	size_t nacct = events->nrows, i, j;

	if (log == NULL)
		return 0;
	for (i = 0; i < log->nrows; i++) {
		const struct sq_event *l = sq_snapshot_row(log, i);
		struct sq_event *best = NULL, *e;
		int64_t bestd = SQ_EVENTS_SLACK + 1;
		int dup = 0;

		for (j = 0; j < nacct; j++) {
			e = sq_snapshot_row(events, j);
			if (e->victim_job != l->victim_job ||
			    e->time == SQ_NONE || l->time == SQ_NONE)
				continue;
			if (absdiff(e->time, l->time) < bestd) {
				bestd = absdiff(e->time, l->time);
				best = e;
			}
		}
		if (best != NULL) {
			if (l->preemptor_job != 0)
				best->preemptor_job = l->preemptor_job;
			if (l->mode[0] != '\0')
				best->mode = sq_snapshot_str(events, l->mode);
			if (strcmp(best->source, "sacct") == 0)
				best->source = "sacct+log";
			continue;
		}
		/* a repeated log line (rotation overlap, two tails) */
		for (j = nacct; j < events->nrows; j++) {
			e = sq_snapshot_row(events, j);
			if (e->victim_job == l->victim_job &&
			    e->preemptor_job == l->preemptor_job &&
			    absdiff(e->time, l->time) <= 2)
				dup = 1;
		}
		if (!dup && copy_event(events, l) == NULL)
			return -1;
	}
	return 0;
}

/* Events of job id, at or after since (SQ_NONE: any time). */
/* Rows sq_events_from_restarts() adds for one job at most. */
#define MAX_NEW 100

static int64_t
count_events(const struct sq_snapshot *events, uint32_t id, int64_t since)
{
	size_t i;
	int64_t n = 0;

	for (i = 0; i < events->nrows; i++) {
		const struct sq_event *e = sq_snapshot_row(events, i);

		if (e->victim_job != id)
			continue;
		if (since == SQ_NONE || e->time == SQ_NONE || e->time >= since)
			n++;
	}
	return n;
}

int
sq_events_from_restarts(struct sq_snapshot *events,
			const struct sq_snapshot *old_jobs,
			const struct sq_snapshot *new_jobs)
{
	struct job_index old_ix;
	size_t i;
	int added = 0;

	if (new_jobs == NULL)
		return 0;
	if (index_jobs(&old_ix, old_jobs) == -1)
		return -1;
	for (i = 0; i < new_jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(new_jobs, i);
		const struct sq_job *o;
		int64_t before = 0, grew, known, k;
		int64_t since = SQ_NONE;

		if (sq_job_restarts(j) <= 0 || j->job_id == 0)
			continue;
		if (old_jobs != NULL) {
			o = find_job(&old_ix, j->job_id);
			if (o == NULL)
				continue; /* new to us: no baseline */
			before =
			    sq_job_restarts(o) > 0 ? sq_job_restarts(o) : 0;
			since = (int64_t)old_jobs->fetched - SQ_EVENTS_SLACK;
		}
		grew = sq_job_restarts(j) - before;
		if (grew <= 0)
			continue;
		known = count_events(events, j->job_id, since);
		if (old_jobs == NULL)
			grew = known > 0 ? 0 : 1;
		else
			grew -= known;
		/* a count that jumps by millions is not real restarts (Slurm
		 * keeps it in 16 bits): a row each for the last few, not
		 * all memory */
		if (grew > MAX_NEW)
			grew = MAX_NEW;
		for (k = 0; k < grew; k++) {
			struct sq_event *e = sq_snapshot_add(events);

			if (e == NULL) {
				free(old_ix.v);
				return -1;
			}
			e->time = old_jobs != NULL ? (int64_t)new_jobs->fetched
						   : SQ_NONE;
			e->victim_job = j->job_id;
			e->victim_id = sq_snapshot_str(events, j->id);
			e->victim_user = sq_snapshot_str(events, j->user);
			e->victim_account = sq_snapshot_str(events, j->account);
			e->victim_partition =
			    sq_snapshot_str(events, j->partition);
			e->victim_qos = sq_snapshot_str(events, j->qos);
			e->nodelist = "";
			e->run_start = SQ_NONE;
			e->preemptor_user = e->preemptor_partition = "";
			e->mode = "REQUEUE";
			e->state = "";
			e->restarts = sq_job_restarts(j) - (grew - 1 - k);
			e->source = "restarts";
			/* no source names why: say so (a screen states
			 * only what is true) */
			e->note = "no preemptor: only the queue's restart "
				  "count shows this requeue; no event in "
				  "accounting or the log names its cause";
			added++;
		}
	}
	free(old_ix.v);
	return added;
}

static int
cmp_time_desc(const void *a_, const void *b_)
{
	const struct sq_event *a = a_, *b = b_;

	if (a->time != b->time) {
		if (a->time == SQ_NONE)
			return 1;
		if (b->time == SQ_NONE)
			return -1;
		return a->time < b->time ? 1 : -1;
	}
	if (a->victim_job != b->victim_job)
		return a->victim_job < b->victim_job ? -1 : 1;
	return 0;
}

static const char *
fill(struct sq_snapshot *s, const char *cur, const char *from)
{
	if (cur != NULL && cur[0] != '\0')
		return cur;
	return from != NULL ? sq_snapshot_str(s, from) : "";
}

void
sq_events_finish(struct sq_snapshot *events, const struct sq_snapshot *jobs)
{
	struct job_index ix;
	size_t i, j;

	if (index_jobs(&ix, jobs) == -1)
		ix.n = 0; /* ENOMEM: complete nothing from the queue */
	for (i = 0; i < events->nrows; i++) {
		struct sq_event *e = sq_snapshot_row(events, i);
		const struct sq_job *v = find_job(&ix, e->victim_job);
		const struct sq_job *p = find_job(&ix, e->preemptor_job);
		int64_t later = 0;

		if (v != NULL) {
			e->victim_id = fill(events, e->victim_id, v->id);
			e->victim_user = fill(events, e->victim_user, v->user);
			e->victim_account =
			    fill(events, e->victim_account, v->account);
			e->victim_partition =
			    fill(events, e->victim_partition, v->partition);
			e->victim_qos = fill(events, e->victim_qos, v->qos);
		}
		if (p != NULL) {
			e->preemptor_user =
			    fill(events, e->preemptor_user, p->user);
			e->preemptor_partition =
			    fill(events, e->preemptor_partition, p->partition);
		}
		/* runs of the same job that ended later */
		for (j = 0; j < events->nrows; j++) {
			const struct sq_event *o = sq_snapshot_row(events, j);

			if (j != i && o->victim_job == e->victim_job &&
			    o->time != SQ_NONE && e->time != SQ_NONE &&
			    o->time > e->time && strcmp(o->source, "restarts"))
				later++;
		}
		if (e->mode[0] == '\0' &&
		    (later > 0 || (v != NULL && sq_job_restarts(v) > 0)))
			e->mode = "REQUEUE";
		if (e->restarts == SQ_NONE && v != NULL &&
		    sq_job_restarts(v) != SQ_NONE &&
		    sq_job_restarts(v) - later > 0)
			e->restarts = sq_job_restarts(v) - later;
	}
	free(ix.v);
	if (events->nrows > 1)
		qsort(events->rows, events->nrows, events->rowsize,
		      cmp_time_desc);
}

void
sq_events_note_unknown(struct sq_snapshot *events, const char *why)
{
	size_t i;

	for (i = 0; i < events->nrows; i++) {
		struct sq_event *e = sq_snapshot_row(events, i);

		if (e->preemptor_job == 0 && (e->note == NULL || !*e->note))
			e->note = sq_snapshot_str(events, why);
	}
}

void
sq_events_since(struct sq_snapshot *events, int64_t since)
{
	size_t i, k = 0;

	for (i = 0; i < events->nrows; i++) {
		struct sq_event *e = sq_snapshot_row(events, i);

		if (e->time != SQ_NONE && e->time < since)
			continue;
		if (k != i)
			memcpy(sq_snapshot_row(events, k), e, events->rowsize);
		k++;
	}
	events->nrows = k;
}
