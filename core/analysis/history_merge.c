/*
 * history_merge.c - the incremental fetch of accounting
 * (core/analysis/history.h): after the first fetch of a window only the runs
 * that changed since the last one (with an overlap) are asked for, and merged
 * here with the previous snapshot's finished runs the new fetch does not have
 * (still in the window); the summaries are made again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/history.h"
#include "core/model/model.h"
#include "core/base/strtab.h"

struct run_key {
	uint32_t job_id;
	int64_t start, end;
	const char *id;
};

static int
cmp_run_key(const void *a_, const void *b_)
{
	const struct run_key *a = a_, *b = b_;

	if (a->job_id != b->job_id)
		return a->job_id < b->job_id ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return strcmp(a->id, b->id);
}

/* A copy of run r (and its steps) at the end of b's snapshot. */
static int
copy_run(struct sq_hist_build *b, struct sq_strtab *st, const struct sq_hist *r)
{
	struct sq_hist *h = sq_history_add_run(b);
	size_t i, at = b->s->nrows - 1;

	if (h == NULL)
		return -1;
	*h = *r;
	h->id = sq_strtab_str(st, r->id);
	h->user = sq_strtab_str(st, r->user);
	h->account = sq_strtab_str(st, r->account);
	h->partition = sq_strtab_str(st, r->partition);
	h->qos = sq_strtab_str(st, r->qos);
	h->name = sq_strtab_str(st, r->name);
	h->state = sq_strtab_str(st, r->state);
	h->nodelist = sq_strtab_str(st, r->nodelist);
	h->tres = sq_strtab_str(st, r->tres);
	h->steps = NULL;
	h->nsteps = 0;
	for (i = 0; i < r->nsteps; i++) {
		struct sq_hist_step *d = sq_history_add_step(b, at);

		if (d == NULL)
			return -1;
		*d = r->steps[i];
		d->step = sq_strtab_str(st, r->steps[i].step);
		d->name = sq_strtab_str(st, r->steps[i].name);
		d->state = sq_strtab_str(st, r->steps[i].state);
		d->nodelist = sq_strtab_str(st, r->steps[i].nodelist);
	}
	return 0;
}

/* incr's runs, then prev's that incr lacks (those still active only
 * with keep_active) ended at or after window_start */
static struct sq_snapshot *
merge(const struct sq_snapshot *incr, const struct sq_snapshot *prev,
      int64_t window_start, int keep_active)
{
	struct sq_snapshot *out = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_hist_build b;
	struct sq_strtab st;
	struct run_key *keys = NULL;
	size_t i, nk = 0;
	int ok = 0;

	if (out == NULL)
		return NULL;
	out->source = incr->source;
	sq_history_init(&b, out);
	sq_strtab_init(&st, &out->arena, 0);
	keys = malloc((incr->nrows + 1) * sizeof(*keys));
	if (keys == NULL ||
	    sq_snapshot_reserve(out, incr->nrows + prev->nrows) == -1)
		goto done;
	for (i = 0; i < incr->nrows; i++) {
		const struct sq_hist *r = sq_snapshot_row(incr, i);

		if (r->scope != SQ_HIST_RUN)
			continue;
		keys[nk].job_id = r->job_id;
		keys[nk].start = r->start;
		keys[nk].end = r->end;
		keys[nk].id = r->id;
		nk++;
		if (copy_run(&b, &st, r) == -1)
			goto done;
	}
	if (nk > 1)
		qsort(keys, nk, sizeof(*keys), cmp_run_key);
	for (i = 0; i < prev->nrows; i++) {
		const struct sq_hist *r = sq_snapshot_row(prev, i);
		struct run_key k;

		if (r->scope != SQ_HIST_RUN ||
		    (!keep_active &&
		     sq_history_outcome(r->state) == SQ_HIST_ACTIVE))
			continue;
		if (window_start != SQ_NONE &&
		    (r->end == SQ_NONE || r->end < window_start))
			continue;
		k.job_id = r->job_id;
		k.start = r->start;
		k.end = r->end;
		k.id = r->id;
		if (nk > 0 &&
		    bsearch(&k, keys, nk, sizeof(*keys), cmp_run_key) != NULL)
			continue;
		if (copy_run(&b, &st, r) == -1)
			goto done;
	}
	ok = sq_history_finish(&b) == 0;
done:
	sq_strtab_free(&st);
	sq_history_free(&b);
	free(keys);
	if (!ok) {
		sq_snapshot_unref(out);
		return NULL;
	}
	return out;
}

struct sq_snapshot *
sq_history_merge(const struct sq_snapshot *incr, const struct sq_snapshot *prev,
		 int64_t window_start)
{
	return merge(incr, prev, window_start, 0);
}

struct sq_snapshot *
sq_history_union(const struct sq_snapshot *a, const struct sq_snapshot *b)
{
	return merge(a, b, SQ_NONE, 1);
}

/* SQUALL_HISTORY_OVERLAP, else SQ_HIST_OVERLAP */
static int64_t
incr_overlap(void)
{
	const char *e = getenv("SQUALL_HISTORY_OVERLAP");
	char *end;
	long long v;

	if (e == NULL || *e == '\0')
		return SQ_HIST_OVERLAP;
	v = strtoll(e, &end, 10);
	if (*end != '\0' || v < 0 || v > 86400)
		return SQ_HIST_OVERLAP;
	return v;
}

int
sq_history_incr_start(const struct sq_hist_incr *h,
		      const struct sq_hist_window *w, int64_t now, char *start,
		      size_t n)
{
	/* the last result must still be whole (batch mode keeps one scope
	 * of a snapshot in place) and of this window */
	if (h->enabled && h->prev != NULL && h->prev->nrows == h->prev_nrows &&
	    strcmp(h->spec, w->spec) == 0 && now >= h->at &&
	    now - h->full < SQ_HIST_FULL) {
		snprintf(start, n, "now-%lldseconds",
			 (long long)(now - h->at + incr_overlap()));
		return 1;
	}
	sq_history_window_sacct(w, start, n);
	return 0;
}

int
sq_history_incr_done(struct sq_hist_incr *h, const struct sq_hist_window *w,
		     int64_t now, int part, struct sq_snapshot **s)
{
	if (part) {
		struct sq_snapshot *m = sq_history_merge(
		    *s, h->prev, w->rel > 0 ? now - w->rel : SQ_NONE);

		if (m == NULL)
			return -1;
		m->fetched = (*s)->fetched;
		m->fetch_ms = (*s)->fetch_ms;
		sq_snapshot_unref(*s);
		*s = m;
	}
	if (!h->enabled)
		return 0;
	if (h->prev != NULL)
		sq_snapshot_unref(h->prev);
	h->prev = sq_snapshot_ref(*s);
	h->prev_nrows = (*s)->nrows;
	snprintf(h->spec, sizeof(h->spec), "%s", w->spec);
	h->at = now;
	if (!part)
		h->full = now;
	return 0;
}

void
sq_history_incr_free(struct sq_hist_incr *h)
{
	if (h->prev != NULL)
		sq_snapshot_unref(h->prev);
	memset(h, 0, sizeof(*h));
}
