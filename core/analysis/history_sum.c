/*
 * history_sum.c - the per-user, per-account and per-node summary rows of
 * a HISTORY snapshot (core/analysis/history.h), made by
 * sq_history_finish() from its runs: each run counted into its key's row
 * in one pass in run order, the keys' rows then put in key order.
 * A week of a big site is a million runs: the keys are told apart by a
 * hash (history_keys.c), a node list is expanded once however many runs
 * have it, the node rows are made on a thread of their own, and no pass
 * goes over the runs in key order (a million rows visited out of order
 * cost more than their counting).
 */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/history.h"
#include "core/analysis/history_keys.h"
#include "core/base/hostlist.h"
#include "core/model/model.h"
#include "core/base/strtab.h"
#include "core/base/util.h"

static const struct sq_hist *
row(const struct sq_snapshot *s, size_t i)
{
	return sq_snapshot_row(s, i);
}

/* ---- medians, counters ---- */

/* v[k] as v sorted would have it (no NAN in v; v reordered): Wirth's
 * selection, linear where a sort of every user's runs was a tenth of a
 * big history's parse. */
static double
select_kth(double *v, size_t n, size_t k)
{
	ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (l < m) {
		double x = v[kk], tmp;
		ptrdiff_t i = l, j = m;

		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				tmp = v[i];
				v[i] = v[j];
				v[j] = tmp;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return v[kk];
}

/* The median; for an even count the value below the middle is the
 * largest of those the selection left before it (it leaves v[i] <= v[k]
 * for every i < k): the value a second selection gave. */
static double
median(double *v, size_t n)
{
	double hi, lo;
	size_t i;

	if (n == 0)
		return NAN;
	hi = select_kth(v, n, n / 2);
	if (n % 2)
		return hi;
	lo = v[0];
	for (i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	return (lo + hi) / 2;
}

/* A run's state as the counters of a summary see it: which one it adds
 * to, and whether its end is a last failure. */
enum {
	C_DONE,
	C_FAIL,
	C_TIMEOUT,
	C_OOM,
	C_CANCEL,
	C_PREEMPT,
	C_NODE,
	C_REQUEUE,
	C_ACTIVE,
	C_OTHER,
	C_LASTFAIL = 16
};

static int
state_class(const char *st)
{
	static const char *const names[] = {
		"COMPLETED", "FAILED",    "TIMEOUT",   "OUT_OF_MEMORY",
		"CANCELLED", "PREEMPTED", "NODE_FAIL", "REQUEUED",
	};
	int c, i;

	c = strcmp(st, "BOOT_FAIL") == 0 ? C_FAIL : C_OTHER;
	for (i = 0; i < 8 && c == C_OTHER; i++)
		if (strcmp(st, names[i]) == 0)
			c = i;
	if (c == C_OTHER && sq_history_outcome(st) == SQ_HIST_ACTIVE)
		c = C_ACTIVE;
	if (sq_history_outcome(st) == SQ_HIST_FAIL ||
	    strcmp(st, "TIMEOUT") == 0)
		c |= C_LASTFAIL;
	return c;
}

/* state_class, remembered for the few states there are (the parser
 * shares one copy of each: the pointer is the key). */
struct memo {
	const char *st[16];
	int c[16], n;
};

static int
classify(struct memo *m, const char *st)
{
	int i, c;

	for (i = 0; i < m->n; i++)
		if (m->st[i] == st)
			return m->c[i];
	c = state_class(st);
	if (m->n < 16) {
		m->st[m->n] = st;
		m->c[m->n++] = c;
	}
	return c;
}

/*
 * What a run adds to each summary row it counts in, worked out once per
 * run for the three scopes (each of them read three cache lines of the
 * run's row, a node scope once per node): its counter, its hours, its
 * end when that is a last failure, its efficiencies.
 */
struct part {
	double cpu_hours, gpu_hours, gpu_idle_hours;
	int64_t end; /* SQ_NONE unless a last failure */
	int32_t c;   /* its counter (C_DONE ... C_OTHER) */
};

struct parts {
	struct part *p;
	double *ce, *me; /* by run */
};

static int
parts_make(struct parts *pt, struct sq_snapshot *s, size_t nruns)
{
	struct memo m;
	size_t i;

	m.n = 0;
	pt->p = malloc((nruns + 1) * sizeof(*pt->p));
	pt->ce = malloc((nruns + 1) * sizeof(*pt->ce));
	pt->me = malloc((nruns + 1) * sizeof(*pt->me));
	if (pt->p == NULL || pt->ce == NULL || pt->me == NULL)
		return -1;
	for (i = 0; i < nruns; i++) {
		const struct sq_hist *r = row(s, i);
		struct part *p = &pt->p[i];
		int c = classify(&m, r->state);

		p->c = c & ~C_LASTFAIL;
		/* 0 added where nothing was: the sums are never -0 */
		p->cpu_hours = r->elapsed > 0 && r->alloc_cpus > 0
				   ? (double)r->elapsed * r->alloc_cpus / 3600
				   : 0;
		p->gpu_hours = sq_history_gpu_hours(r);
		p->gpu_idle_hours = sq_history_gpu_idle_hours(r);
		p->end = (c & C_LASTFAIL) ? r->end : SQ_NONE;
		pt->ce[i] = r->cpu_eff;
		pt->me[i] = r->mem_eff;
	}
	return 0;
}

static void
parts_free(struct parts *pt)
{
	free(pt->p);
	free(pt->ce);
	free(pt->me);
}

/* A summary row's counts while the runs are read: a quarter of the row
 * (a node scope's 50,000 of them stay in the cache). */
struct acc {
	int32_t runs, ctr[C_OTHER + 1];
	uint32_t nce, nme; /* efficiencies known (the medians' counts) */
	double cpu_hours, gpu_hours, gpu_idle_hours;
	int64_t last_failure;
};

/* Count a run's part and efficiencies into a. */
static void
count(struct acc *a, const struct part *p, double ce, double me)
{
	a->runs++;
	a->nce += !isnan(ce);
	a->nme += !isnan(me);
	a->ctr[p->c]++;
	a->cpu_hours += p->cpu_hours;
	a->gpu_hours += p->gpu_hours;
	a->gpu_idle_hours += p->gpu_idle_hours;
	if (p->end != SQ_NONE && p->end > a->last_failure)
		a->last_failure = p->end;
}

/* Its counts into summary row g (an empty_row). */
static void
acc_out(struct sq_hist *g, const struct acc *a)
{
	g->runs = a->runs;
	g->completed = a->ctr[C_DONE];
	g->failed = a->ctr[C_FAIL];
	g->timeout = a->ctr[C_TIMEOUT];
	g->oom = a->ctr[C_OOM];
	g->cancelled = a->ctr[C_CANCEL];
	g->preempted = a->ctr[C_PREEMPT];
	g->node_fail = a->ctr[C_NODE];
	g->requeued = a->ctr[C_REQUEUE];
	g->active = a->ctr[C_ACTIVE];
	g->other = a->ctr[C_OTHER];
	g->cpu_hours = a->cpu_hours;
	g->gpu_hours = a->gpu_hours;
	g->gpu_idle_hours = a->gpu_idle_hours;
	g->last_failure = a->last_failure;
}

/* ---- one scope's rows ---- */

struct ord {
	const char *k;
	uint32_t id;
};

static int
cmp_ord(const void *a, const void *b)
{
	return strcmp(((const struct ord *)a)->k, ((const struct ord *)b)->k);
}

/* A summary row of scope, zero runs, key k. */
static void
empty_row(struct sq_hist *g, enum sq_hist_scope scope, const char *k)
{
	memset(g, 0, sizeof(*g));
	g->scope = scope;
	g->id = g->user = g->account = g->partition = g->qos = g->name = "";
	g->state = g->node = "";
	g->exit_code = g->signal = g->elapsed = g->alloc_cpus = SQ_NONE;
	g->total_cpu = NAN;
	g->last_failure = SQ_NONE;
	if (scope == SQ_HIST_USER)
		g->user = k;
	else if (scope == SQ_HIST_ACCOUNT)
		g->account = k;
	else
		g->node = k;
}

/* The efficiencies of each key's runs, back to back in run order (the
 * order the one sort of every key's runs gave); at[id] where key id's
 * begin. Made from the runs' (a node scope's pairs have no copy of
 * them), both in one pass, with the counts the accumulators took. */
struct effs {
	double *v;
	size_t *at;
};

/* e's places for counts n of the ng keys (the first efficiency of each
 * key at next[id]); -1 on ENOMEM. */
static int
effs_alloc(struct effs *e, size_t **next, const struct acc *acc, size_t off,
	   size_t ng)
{
	size_t i;

	e->at = malloc((ng + 1) * sizeof(*e->at));
	*next = malloc((ng + 1) * sizeof(**next));
	if (e->at == NULL || *next == NULL)
		return -1;
	e->at[0] = 0;
	for (i = 0; i < ng; i++)
		e->at[i + 1] =
		    e->at[i] + *(const uint32_t *)((const char *)&acc[i] + off);
	memcpy(*next, e->at, (ng + 1) * sizeof(**next));
	e->v = malloc((e->at[ng] + 1) * sizeof(*e->v));
	return e->v == NULL ? -1 : 0;
}

/* Both efficiencies of the pairs (i < n: key gid[i], run run[i] or i),
 * counted into acc, gathered by key in one pass. */
static int
effs_make(struct effs *ec, struct effs *em, const struct acc *acc, size_t ng,
	  const uint32_t *gid, const size_t *run, size_t n, size_t nruns,
	  const struct parts *pt)
{
	size_t i, *nc = NULL, *nm = NULL;
	int rc = -1;

	if (effs_alloc(ec, &nc, acc, offsetof(struct acc, nce), ng) == 0 &&
	    effs_alloc(em, &nm, acc, offsetof(struct acc, nme), ng) == 0) {
		for (i = 0; i < n; i++) {
			size_t r = run ? run[i] : i;

			if (r >= nruns)
				continue;
			if (!isnan(pt->ce[r]))
				ec->v[nc[gid[i]]++] = pt->ce[r];
			if (!isnan(pt->me[r]))
				em->v[nm[gid[i]]++] = pt->me[r];
		}
		rc = 0;
	}
	free(nc);
	free(nm);
	return rc;
}

/*
 * Append one summary row per key of g, in key order: pairs i < n of key
 * id gid[i] and run run[i] (i when run is NULL), in run order; the runs'
 * parts in pt. -1 on ENOMEM.
 */
static int
summarise(struct sq_snapshot *dst, enum sq_hist_scope scope,
	  const struct sq_hist_keys *g, const uint32_t *gid, const size_t *run,
	  size_t n, size_t nruns, const struct parts *pt)
{
	struct acc *acc = calloc(g->n + 1, sizeof(*acc));
	struct ord *order = malloc((g->n + 1) * sizeof(*order));
	struct effs ec = { 0 }, em = { 0 };
	size_t i;
	int rc = -1;

	if (acc == NULL || order == NULL)
		goto done;
	for (i = 0; i < g->n; i++) {
		acc[i].last_failure = SQ_NONE;
		order[i].k = g->k[i];
		order[i].id = (uint32_t)i;
	}
	for (i = 0; i < n; i++) {
		size_t r = run ? run[i] : i;

		if (r < nruns)
			count(&acc[gid[i]], &pt->p[r], pt->ce[r], pt->me[r]);
	}
	if (effs_make(&ec, &em, acc, g->n, gid, run, n, nruns, pt) == -1)
		goto done;
	qsort(order, g->n, sizeof(*order), cmp_ord);
	for (i = 0; i < g->n; i++) {
		uint32_t id = order[i].id;
		struct sq_hist *out = sq_snapshot_add(dst);

		if (out == NULL)
			goto done;
		empty_row(out, scope, g->k[id]);
		acc_out(out, &acc[id]);
		out->cpu_eff =
		    median(ec.v + ec.at[id], ec.at[id + 1] - ec.at[id]);
		out->mem_eff =
		    median(em.v + em.at[id], em.at[id + 1] - em.at[id]);
	}
	rc = 0;
done:
	free(acc);
	free(order);
	free(ec.v);
	free(ec.at);
	free(em.v);
	free(em.at);
	return rc;
}

/* ---- users and accounts ---- */

/* The rows of the key at offset off of every run of s (user, account),
 * appended to dst. */
static int
by_field(const struct sq_snapshot *s, struct sq_snapshot *dst,
	 enum sq_hist_scope scope, size_t off, size_t nruns,
	 const struct parts *pt)
{
	struct sq_hist_keys *g = calloc(1, sizeof(*g));
	uint32_t *gid = malloc((nruns + 1) * sizeof(*gid));
	size_t i;
	int rc = -1;

	if (g == NULL || gid == NULL)
		goto done;
	for (i = 0; i < nruns; i++) {
		const char *k =
		    *(const char *const *)((const char *)row(s, i) + off);
		int64_t id = sq_hist_keys_id(g, k);

		if (id < 0)
			goto done;
		gid[i] = (uint32_t)id;
	}
	rc = summarise(dst, scope, g, gid, NULL, nruns, nruns, pt);
done:
	if (g != NULL)
		sq_hist_keys_free(g);
	free(g);
	free(gid);
	return rc;
}

/* ---- nodes: each distinct node list expanded once ---- */

struct nodes {
	struct sq_hist_keys g;
	struct sq_strtab t; /* node names, once each */
	/* node list (its shared copy) -> its names' ids gl[off, off+cnt) */
	const char **lk;
	uint32_t *loff, *lcnt;
	size_t lcap, ln;
	uint32_t *gl;
	size_t ngl, glcap;
	const char **nm; /* a list's names, before they are keys */
	size_t nnm, nmcap;
	int err;
};

/* v (of *cap elements of size sz, n used) with room for one more: v or
 * its new place; NULL on ENOMEM (v unchanged). */
static void *
room(void *v, size_t *cap, size_t n, size_t sz)
{
	void *p;
	size_t nc;

	if (n < *cap)
		return v;
	nc = *cap ? 2 * *cap : 1024;
	p = realloc(v, nc * sz);
	if (p != NULL)
		*cap = nc;
	return p;
}

static int
add_node(void *arg, const char *name)
{
	struct nodes *a = arg;
	const char **p = room(a->nm, &a->nmcap, a->nnm, sizeof(*a->nm));

	if (p == NULL) {
		a->err = 1;
		return 1;
	}
	a->nm = p;
	a->nm[a->nnm++] = sq_strtab_str(&a->t, name);
	return 0;
}

static size_t
list_slot(const struct nodes *a, const char *k)
{
	size_t j = (size_t)(((uintptr_t)k * 0x9e3779b97f4a7c15u) >> 20) &
		   (a->lcap - 1);

	while (a->lk[j] != NULL && a->lk[j] != k)
		j = (j + 1) & (a->lcap - 1);
	return j;
}

/* Room for one more list in the table; -1 on ENOMEM. */
static int
lists_grow(struct nodes *a)
{
	size_t nc = a->lcap ? 2 * a->lcap : 1024, i, oc = a->lcap;
	const char **ok = a->lk;
	uint32_t *oo = a->loff, *on = a->lcnt;

	if (2 * (a->ln + 1) <= a->lcap)
		return 0;
	a->lk = calloc(nc, sizeof(*a->lk));
	a->loff = malloc(nc * sizeof(*a->loff));
	a->lcnt = malloc(nc * sizeof(*a->lcnt));
	a->lcap = nc;
	if (a->lk == NULL || a->loff == NULL || a->lcnt == NULL) {
		free(ok);
		free(oo);
		free(on);
		return -1;
	}
	for (i = 0; i < oc; i++) {
		size_t j;

		if (ok[i] == NULL)
			continue;
		j = list_slot(a, ok[i]);
		a->lk[j] = ok[i];
		a->loff[j] = oo[i];
		a->lcnt[j] = on[i];
	}
	free(ok);
	free(oo);
	free(on);
	return 0;
}

/* The slot of node list k, expanded into gl when new (a malformed list
 * counts as one name); -1 on ENOMEM. */
static int64_t
node_list(struct nodes *a, const char *k)
{
	size_t j, off = a->ngl;

	if (a->lcap > 0) {
		j = list_slot(a, k);
		if (a->lk[j] != NULL)
			return (int64_t)j;
	}
	if (lists_grow(a) == -1)
		return -1;
	a->nnm = 0;
	if (sq_hostlist_expand(k, add_node, a) == -1 && !a->err) {
		a->nnm = 0;
		add_node(a, k);
	}
	for (j = 0; j < a->nnm && !a->err; j++) {
		int64_t id = sq_hist_keys_id(&a->g, a->nm[j]);
		uint32_t *p = room(a->gl, &a->glcap, a->ngl, sizeof(*a->gl));

		if (id < 0 || p == NULL)
			return -1;
		a->gl = p;
		a->gl[a->ngl++] = (uint32_t)id;
	}
	if (a->err || a->ngl - off > UINT32_MAX || off > UINT32_MAX)
		return -1;
	j = list_slot(a, k);
	a->lk[j] = k;
	a->loff[j] = (uint32_t)off;
	a->lcnt[j] = (uint32_t)(a->ngl - off);
	a->ln++;
	return (int64_t)j;
}

/*
 * The nodes' rows, on a thread of their own: the pairs (node, run) of
 * every run of j->s in run order, made while the caller's thread
 * prepares the runs and their parts (none of that reads or writes a
 * node list); then, once the parts are ready, the rows, appended to
 * j->dst (with the node names, in its arena).
 */
struct node_job {
	const struct sq_snapshot *s;
	struct sq_snapshot *dst;
	size_t nruns;
	const struct parts *pt;
	int threaded; /* by_node runs on th; mu and cv are made */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int ready; /* under mu: 1 parts made, -1 they failed */
	int rc;
	pthread_t th;
};

static int
by_node(struct node_job *j)
{
	const struct sq_snapshot *s = j->s;
	struct nodes *a = calloc(1, sizeof(*a));
	uint32_t *gid = NULL;
	size_t *run = NULL, n = 0, cap = 0, i, k;
	int rc = -1, ready;

	if (a == NULL)
		goto wait;
	sq_strtab_init(&a->t, &j->dst->arena, 1u << 20);
	for (i = 0; i < j->nruns; i++) {
		const char *nl = row(s, i)->nodelist;
		int64_t l;

		if (nl[0] == '\0')
			continue;
		l = node_list(a, nl);
		if (l < 0)
			goto wait;
		for (k = 0; k < a->lcnt[l]; k++) {
			size_t c2 = cap;
			uint32_t *pg = room(gid, &cap, n, sizeof(*gid));
			size_t *pr;

			if (pg == NULL)
				goto wait;
			gid = pg;
			pr = room(run, &c2, n, sizeof(*run));
			if (pr == NULL)
				goto wait;
			run = pr;
			gid[n] = a->gl[a->loff[l] + k];
			run[n++] = i;
		}
	}
	rc = 0;
wait:
	if (j->threaded) {
		pthread_mutex_lock(&j->mu);
		while (j->ready == 0)
			pthread_cond_wait(&j->cv, &j->mu);
		ready = j->ready;
		pthread_mutex_unlock(&j->mu);
	} else {
		ready = j->ready;
	}
	if (rc == 0 && ready == 1)
		rc = summarise(j->dst, SQ_HIST_NODE, &a->g, gid, run, n,
			       j->nruns, j->pt);
	else
		rc = -1;
	if (a != NULL) {
		sq_strtab_free(&a->t);
		sq_hist_keys_free(&a->g);
		free(a->lk);
		free(a->loff);
		free(a->lcnt);
		free(a->gl);
		free(a->nm);
		free(a);
	}
	free(gid);
	free(run);
	return rc;
}

static void *
node_main(void *arg)
{
	struct node_job *j = arg;

	j->rc = by_node(j);
	return NULL;
}

static void
parts_ready(struct node_job *j, int ready)
{
	pthread_mutex_lock(&j->mu);
	j->ready = ready;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
}

/* Runs from which the node rows get their own thread: below, a thread
 * costs more than it saves (a testbed's or a small site's window). */
static size_t thread_min = 16384;

void
sq_history_summarise_thread_min(size_t n)
{
	thread_min = n;
}

int
sq_history_summarise(struct sq_snapshot *s, size_t nruns,
		     int (*prep)(struct sq_snapshot *s))
{
	struct parts pt = { 0 };
	struct sq_snapshot *fields = sq_snapshot_new(s->kind, 0),
			   *nodes = sq_snapshot_new(s->kind, 0);
	struct node_job j;
	int rc = -1, two = 0;

	if (fields == NULL || nodes == NULL) {
		sq_snapshot_unref(fields);
		sq_snapshot_unref(nodes);
		return -1;
	}
	memset(&j, 0, sizeof(j));
	j.s = s;
	j.dst = nodes;
	j.nruns = nruns;
	j.pt = &pt;
	j.rc = -1;
	if (nruns >= thread_min && pthread_mutex_init(&j.mu, NULL) == 0) {
		if (pthread_cond_init(&j.cv, NULL) == 0) {
			j.threaded = 1;
			two = sq_util_thread_start(&j.th, node_main, &j) == 0;
			if (!two) {
				j.threaded = 0;
				pthread_cond_destroy(&j.cv);
			}
		}
		if (!two)
			pthread_mutex_destroy(&j.mu);
	}
	rc = prep != NULL && prep(s) == -1 ? -1 : parts_make(&pt, s, nruns);
	if (two)
		parts_ready(&j, rc == 0 ? 1 : -1);
	else
		j.ready = rc == 0 ? 1 : -1;
	if (rc == 0 &&
	    (by_field(s, fields, SQ_HIST_USER, offsetof(struct sq_hist, user),
		      nruns, &pt) == -1 ||
	     by_field(s, fields, SQ_HIST_ACCOUNT,
		      offsetof(struct sq_hist, account), nruns, &pt) == -1))
		rc = -1;
	if (two) {
		pthread_join(j.th, NULL);
		pthread_cond_destroy(&j.cv);
		pthread_mutex_destroy(&j.mu);
	} else {
		j.rc = by_node(&j); /* not threaded: no wait */
	}
	/* users, accounts, then nodes after the runs */
	if (rc == 0 && (j.rc != 0 || sq_snapshot_append(s, fields) == -1 ||
			sq_snapshot_append(s, nodes) == -1))
		rc = -1;
	parts_free(&pt);
	sq_snapshot_unref(fields);
	sq_snapshot_unref(nodes);
	return rc;
}
