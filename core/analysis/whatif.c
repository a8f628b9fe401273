/*
 * whatif.c - the priority what-if model: a job's priority is site +
 * sum(weight x normalized factor) + sum over TRES - nice (Slurm's
 * multifactor, truncated, at least 1); new weights give a new priority
 * and a new rank in the partition. Pure computation on a WHATIF snapshot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/analysis/whatif.h"

#define EPS 1e-7

/*
 * The normalized TRES factors of a row: sprio -n prints them with two
 * decimals and sprio the weighted ones with none, so each gives an
 * interval; the estimate is the middle of their intersection.
 */
static size_t
row_tres(const struct sq_whatif *r, const struct sq_whatif_weights *old,
	 struct sq_whatif_tres *t)
{
	struct sq_whatif_tres wt[SQ_WHATIF_MAX_TRES];
	size_t n = 0, nw = 0, i, j;

	if (sq_whatif_tres_parse(r->tres_n ? r->tres_n : "", t,
				 SQ_WHATIF_MAX_TRES, &n) == -1)
		n = 0;
	if (sq_whatif_tres_parse(r->tres_w ? r->tres_w : "", wt,
				 SQ_WHATIF_MAX_TRES, &nw) == -1)
		nw = 0;
	for (i = 0; i < n; i++) {
		double lo = t[i].v - 0.005, hi = t[i].v + 0.005;

		for (j = 0; j < old->ntres; j++) {
			size_t k;
			double W = old->tres[j].v;

			if (strcmp(old->tres[j].name, t[i].name) != 0 || W <= 0)
				continue;
			for (k = 0; k < nw; k++) {
				if (strcmp(wt[k].name, t[i].name) != 0)
					continue;
				if ((wt[k].v - 0.5) / W > lo)
					lo = (wt[k].v - 0.5) / W;
				if ((wt[k].v + 0.5) / W < hi)
					hi = (wt[k].v + 0.5) / W;
			}
		}
		if (lo <= hi)
			t[i].v = (lo + hi) / 2;
		if (t[i].v < 0)
			t[i].v = 0;
	}
	return n;
}

static double
tres_weight(const struct sq_whatif_weights *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->ntres; i++) {
		if (strcmp(w->tres[i].name, name) == 0)
			return w->tres[i].v;
	}
	return 0;
}

/* sum(weight x factor) over the factors and the TRES of a row */
static double
weighted_sum(const struct sq_whatif *r, const struct sq_whatif_weights *w,
	     const double *norm, const struct sq_whatif_tres *t, size_t nt)
{
	double s = 0;
	size_t i;

	for (i = 0; i < SQ_WF_COUNT; i++)
		s += w->w[i] * norm[i];
	for (i = 0; i < nt; i++)
		s += tres_weight(w, t[i].name) * t[i].v;
	(void)r;
	return s;
}

/* Slurm stores the sum as uint32: truncated, and at least 1. */
static int64_t
as_priority(double x)
{
	if (x < 1)
		return 1;
	if (x > 4294967295.0)
		return 4294967295LL;
	return (int64_t)x;
}

static int
cmp_rank(const struct sq_whatif *x, const struct sq_whatif *y, int new)
{
	int c = x->partition == y->partition
		    ? 0
		    : strcmp(x->partition, y->partition);
	int64_t px = new ? x->priority_new : x->priority;
	int64_t py = new ? y->priority_new : y->priority;

	if (c != 0)
		return c;
	if (px != py)
		return px > py ? -1 : 1;
	/* same priority: the older (smaller) job id goes first */
	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

static int
cmp_old(const void *a, const void *b)
{
	return cmp_rank(*(struct sq_whatif *const *)a,
			*(struct sq_whatif *const *)b, 0);
}

static int
cmp_new(const void *a, const void *b)
{
	return cmp_rank(*(struct sq_whatif *const *)a,
			*(struct sq_whatif *const *)b, 1);
}

/* rank and rank_new within each partition */
static int
rank(struct sq_snapshot *s)
{
	struct sq_whatif **v;
	size_t i;
	uint32_t r = 0;

	if (s->nrows == 0)
		return 0;
	v = malloc(s->nrows * sizeof(*v));
	if (v == NULL)
		return -1;
	for (i = 0; i < s->nrows; i++)
		v[i] = sq_snapshot_row(s, i);
	qsort(v, s->nrows, sizeof(*v), cmp_old);
	for (i = 0; i < s->nrows; i++) {
		if (i == 0 || strcmp(v[i]->partition, v[i - 1]->partition))
			r = 0;
		v[i]->rank = ++r;
	}
	qsort(v, s->nrows, sizeof(*v), cmp_new);
	for (i = 0; i < s->nrows; i++) {
		if (i == 0 || strcmp(v[i]->partition, v[i - 1]->partition))
			r = 0;
		v[i]->rank_new = ++r;
		v[i]->move = (int64_t)v[i]->rank - (int64_t)v[i]->rank_new;
	}
	free(v);
	return 0;
}

static void
note(struct sq_whatif_info *in, const char *fmt, const char *a)
{
	size_t l = strlen(in->notes);

	snprintf(in->notes + l, sizeof(in->notes) - l, "%s", l ? "; " : "");
	l = strlen(in->notes);
	snprintf(in->notes + l, sizeof(in->notes) - l, fmt, a);
}

/* new = old with the given weights over it; notes what is unknown */
static void
merge(struct sq_whatif_info *in, const struct sq_whatif_weights *given)
{
	int i;

	in->new = in->old;
	for (i = 0; i < SQ_WF_COUNT; i++) {
		if (!(given->set & (1u << i)))
			continue;
		in->new.w[i] = given->w[i];
		if (in->old.w[i] == 0 && given->w[i] != 0)
			note(in,
			     "%s is 0 in force, so sprio -n has no factor "
			     "for it: not modelled",
			     sq_whatif_factor_key((enum sq_wf)i));
	}
	if (given->tres_set) {
		size_t j;

		memcpy(in->new.tres, given->tres, sizeof(given->tres));
		in->new.ntres = given->ntres;
		for (j = 0; j < given->ntres; j++) {
			if (tres_weight(&in->old, given->tres[j].name) == 0 &&
			    given->tres[j].v != 0)
				note(in,
				     "TRES %s has no weight in force, so "
				     "sprio -n has no factor for it: not "
				     "modelled",
				     given->tres[j].name);
		}
	}
	in->new.max_age = given->max_age;
	if (given->max_age != SQ_NONE && in->old_max_age <= 0)
		note(in, "%s",
		     "PriorityMaxAge not modelled: the one in force is "
		     "unknown");
	if (in->flags[0] != '\0')
		note(in,
		     "PriorityFlags=%s change the factors themselves: not "
		     "modelled (factors as Slurm computed them)",
		     in->flags);
	if (given->ignored[0] != '\0')
		note(in,
		     "%s: not modelled (they change the factors, not "
		     "their weights)",
		     given->ignored);
}

/* The age factor under another PriorityMaxAge. */
static double
new_age(struct sq_whatif_info *in, struct sq_whatif *r)
{
	double a = r->norm[SQ_WF_AGE];
	double m0 = (double)in->old_max_age, m1 = (double)in->new.max_age;

	r->age_bound = 0;
	if (in->new.max_age == SQ_NONE || in->old_max_age <= 0)
		return a;
	if (a < 1 - EPS)
		return fmin(a * m0 / m1, 1);
	if (m1 <= m0)
		return 1;
	/* saturated: older than the old maximum, by how much is unknown */
	r->age_bound = 1;
	in->age_bound++;
	return m0 / m1;
}

static void compute_summary(struct sq_snapshot *s, struct sq_whatif_info *in,
			    size_t top_n);

static void
compute_row(struct sq_whatif_info *in, struct sq_whatif *r)
{
	struct sq_whatif_tres t[SQ_WHATIF_MAX_TRES];
	size_t nt = row_tres(r, &in->old, t);
	double norm[SQ_WF_COUNT];
	double s_old, s_new, x_old, base = (double)(r->site - r->nice);

	memcpy(norm, r->norm, sizeof(norm));
	s_old = weighted_sum(r, &in->old, norm, t, nt);
	norm[SQ_WF_AGE] = r->age_new = new_age(in, r);
	s_new = weighted_sum(r, &in->new, norm, t, nt);
	r->priority_model = as_priority(base + s_old);
	/* sprio's priority is the truncated sum: the sum lies in
	 * [priority, priority + 1); start the new one from there */
	x_old = base + s_old;
	if (r->priority > 1) {
		if (x_old < (double)r->priority)
			x_old = (double)r->priority;
		if (x_old >= (double)r->priority + 1)
			x_old = (double)r->priority + 1 - 1e-6;
	}
	r->priority_new = as_priority(x_old + (s_new - s_old));
	r->delta = r->priority_new - r->priority;
	r->info = in;
}

int
sq_whatif_apply(struct sq_snapshot *s, const struct sq_whatif_weights *old,
		const struct sq_whatif_weights *given, const char *given_text,
		int64_t old_max_age, const char *flags, size_t top_n)
{
	struct sq_whatif_info *in = sq_arena_alloc(&s->arena, sizeof(*in));
	size_t i;

	if (in == NULL)
		return -1;
	memset(in, 0, sizeof(*in));
	in->old = *old;
	in->old_max_age = old_max_age;
	snprintf(in->given, sizeof(in->given), "%s",
		 given_text ? given_text : "");
	snprintf(in->flags, sizeof(in->flags), "%s", flags ? flags : "");
	merge(in, given);
	for (i = 0; i < s->nrows; i++) {
		struct sq_whatif *r = sq_snapshot_row(s, i);
		int64_t dev;

		compute_row(in, r);
		dev = llabs(r->priority_model - r->priority);
		if (dev == 0)
			in->model_exact++;
		if (dev > in->model_maxdev)
			in->model_maxdev = dev;
	}
	if (rank(s) == -1)
		return -1;
	compute_summary(s, in, top_n);
	return 0;
}

/* ---------------------------------------------------------- summary */

struct acct_count {
	const char *name;
	size_t before, after;
};

static void
count_accounts(struct sq_snapshot *s, size_t top_n, struct acct_count *a,
	       size_t *na, size_t max, size_t *tb, size_t *ta)
{
	size_t i, j;

	*na = *tb = *ta = 0;
	for (i = 0; i < s->nrows; i++) {
		const struct sq_whatif *r = sq_snapshot_row(s, i);
		const char *name = r->account[0] ? r->account : "?";
		int b = r->rank <= top_n, f = r->rank_new <= top_n;

		if (!b && !f)
			continue;
		*tb += (size_t)b;
		*ta += (size_t)f;
		for (j = 0; j < *na && strcmp(a[j].name, name) != 0; j++)
			;
		if (j == *na) {
			if (*na == max)
				continue;
			a[j].name = name;
			a[j].before = a[j].after = 0;
			(*na)++;
		}
		a[j].before += (size_t)b;
		a[j].after += (size_t)f;
	}
}

static void
compute_summary(struct sq_snapshot *s, struct sq_whatif_info *in, size_t top_n)
{
	struct acct_count a[8];
	size_t i, na, tb, ta, l;

	in->jobs = s->nrows;
	for (i = 0; i < s->nrows; i++) {
		const struct sq_whatif *r = sq_snapshot_row(s, i);

		if (r->move != 0)
			in->moved++;
		if (r->move > in->gain) {
			in->gain = r->move;
			in->gain_job = r->job_id;
		}
		if (r->move < in->loss) {
			in->loss = r->move;
			in->loss_job = r->job_id;
		}
	}
	snprintf(in->summary, sizeof(in->summary),
		 "%zu job%s, %zu change%s rank", in->jobs,
		 in->jobs == 1 ? "" : "s", in->moved,
		 in->moved == 1 ? "s" : "");
	l = strlen(in->summary);
	if (in->gain > 0)
		snprintf(in->summary + l, sizeof(in->summary) - l,
			 "; largest gain job %u +%lld", in->gain_job,
			 (long long)in->gain);
	l = strlen(in->summary);
	if (in->loss < 0)
		snprintf(in->summary + l, sizeof(in->summary) - l,
			 "; largest loss job %u %lld", in->loss_job,
			 (long long)in->loss);
	if (top_n == 0 || s->nrows == 0)
		return;
	count_accounts(s, top_n, a, &na, sizeof(a) / sizeof(a[0]), &tb, &ta);
	l = strlen(in->summary);
	snprintf(in->summary + l, sizeof(in->summary) - l,
		 "; top %zu per partition:", top_n);
	for (i = 0; i < na; i++) {
		l = strlen(in->summary);
		snprintf(in->summary + l, sizeof(in->summary) - l,
			 " %s %.0f%%->%.0f%%", a[i].name,
			 tb ? 100.0 * (double)a[i].before / (double)tb : 0.0,
			 ta ? 100.0 * (double)a[i].after / (double)ta : 0.0);
	}
}

/* ----------------------------------------------------------- derive */

const struct sq_whatif_info *
sq_whatif_info(const struct sq_snapshot *s)
{
	if (s == NULL || s->kind != SQ_KIND_WHATIF || s->nrows == 0)
		return NULL;
	return ((const struct sq_whatif *)sq_snapshot_row(s, 0))->info;
}

struct sq_snapshot *
sq_whatif_derive(struct sq_snapshot *src, const struct sq_whatif_weights *given,
		 const char *given_text, size_t top_n)
{
	const struct sq_whatif_info *in = sq_whatif_info(src);
	struct sq_snapshot *s;

	if (src == NULL || (in == NULL && src->nrows > 0))
		return NULL;
	s = sq_snapshot_new(SQ_KIND_WHATIF, 0);
	if (s == NULL)
		return NULL;
	if (src->nrows > 0) {
		if (sq_snapshot_reserve(s, src->nrows) == -1) {
			sq_snapshot_unref(s);
			return NULL;
		}
		memcpy(s->rows, src->rows, src->nrows * src->rowsize);
		s->nrows = src->nrows;
	}
	s->fetched = src->fetched;
	s->fetch_ms = src->fetch_ms;
	s->source = src->source;
	s->dep = sq_snapshot_ref(src);
	if (in != NULL &&
	    sq_whatif_apply(s, &in->old, given, given_text, in->old_max_age,
			    in->flags, top_n) == -1) {
		sq_snapshot_unref(s);
		return NULL;
	}
	return s;
}

static int
cmp_job(const void *a, const void *b)
{
	const struct sq_job *x = *(const struct sq_job *const *)a;
	const struct sq_job *y = *(const struct sq_job *const *)b;

	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

void
sq_whatif_join_jobs(struct sq_snapshot *s, const struct sq_snapshot *jobs)
{
	const struct sq_job **v;
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		struct sq_whatif *r = sq_snapshot_row(s, i);

		if (r->account == NULL)
			r->account = "";
	}
	if (jobs == NULL || jobs->nrows == 0)
		return;
	v = malloc(jobs->nrows * sizeof(*v));
	if (v == NULL)
		return;
	for (i = 0; i < jobs->nrows; i++)
		v[i] = sq_snapshot_row(jobs, i);
	qsort(v, jobs->nrows, sizeof(*v), cmp_job);
	for (i = 0; i < s->nrows; i++) {
		struct sq_whatif *r = sq_snapshot_row(s, i);
		size_t lo = 0, hi = jobs->nrows;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (v[mid]->job_id < r->job_id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < jobs->nrows && v[lo]->job_id == r->job_id)
			r->account = v[lo]->account;
	}
	free(v);
}

/* ------------------------------------------------------------ detail */

int
sq_whatif_factor_line(const struct sq_whatif *r, size_t f, char *buf, size_t n)
{
	const struct sq_whatif_info *in = r->info;
	struct sq_whatif_tres t[SQ_WHATIF_MAX_TRES];
	double v, v1, w0, w1;
	const char *name;
	size_t nt;

	if (in == NULL)
		return -1;
	if (f < SQ_WF_COUNT) {
		v = r->norm[f];
		v1 = f == SQ_WF_AGE ? r->age_new : v;
		w0 = in->old.w[f];
		w1 = in->new.w[f];
		name = sq_whatif_factor_name((enum sq_wf)f);
	} else {
		nt = row_tres(r, &in->old, t);
		if (f - SQ_WF_COUNT >= nt)
			return -1;
		v = v1 = t[f - SQ_WF_COUNT].v;
		name = t[f - SQ_WF_COUNT].name;
		w0 = tres_weight(&in->old, name);
		w1 = tres_weight(&in->new, name);
	}
	snprintf(buf, n, "%-10s %9.7f x %8.0f = %9.1f   %9.7f x %8.0f = %9.1f",
		 name, v, w0, v * w0, v1, w1, v1 * w1);
	return 0;
}
