/*
 * history_build.c - a HISTORY snapshot built from the runs and steps a
 * parser adds (core/analysis/history.h): steps attached to their runs,
 * efficiency as seff reports it, the runs of a job numbered, and the per-user,
 * per-account and per-node summaries, computed once per fetch (like
 * gpus.c) into the same snapshot.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/history.h"
#include "core/base/hostlist.h"
#include "core/model/model.h"
#include "core/base/strtab.h"

/* ---- building ---- */

void
sq_history_init(struct sq_hist_build *b, struct sq_snapshot *s)
{
	memset(b, 0, sizeof(*b));
	b->s = s;
}

void
sq_history_free(struct sq_hist_build *b)
{
	free(b->steps);
	free(b->parent);
	b->steps = NULL;
	b->parent = NULL;
	b->n = b->cap = 0;
}

struct sq_hist *
sq_history_add_run(struct sq_hist_build *b)
{
	struct sq_hist *h = sq_snapshot_add(b->s);

	if (h == NULL)
		return NULL;
	h->scope = SQ_HIST_RUN;
	h->id = h->user = h->account = h->partition = h->qos = h->name = "";
	h->state = h->nodelist = h->tres = "";
	h->run = 1;
	h->exit_code = h->signal = SQ_NONE;
	h->submit = h->start = h->end = h->elapsed = SQ_NONE;
	h->alloc_cpus = h->req_mem = h->alloc_mem = SQ_NONE;
	h->gpus = 0;
	h->nnodes = SQ_NONE;
	h->total_cpu = NAN;
	h->max_rss = SQ_NONE;
	h->cpu_eff = h->mem_eff = NAN;
	h->gpu_util_max = NAN;
	h->gpu_mem_max = SQ_NONE;
	h->gpu_note = "";
	return h;
}

struct sq_hist_step *
sq_history_add_step(struct sq_hist_build *b, size_t run)
{
	struct sq_hist_step *st;

	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 64;
		void *p = realloc(b->steps, nc * sizeof(*b->steps));

		if (p == NULL)
			return NULL;
		b->steps = p;
		p = realloc(b->parent, nc * sizeof(*b->parent));
		if (p == NULL)
			return NULL;
		b->parent = p;
		b->cap = nc;
	}
	b->parent[b->n] = run;
	st = &b->steps[b->n++];
	memset(st, 0, sizeof(*st));
	st->step = st->name = st->state = st->nodelist = "";
	st->exit_code = st->signal = st->elapsed = SQ_NONE;
	st->nodes = st->tasks = st->max_rss = SQ_NONE;
	st->gpu_util = st->gpu_mem = SQ_NONE;
	st->total_cpu = NAN;
	return st;
}

static struct sq_hist *
row(struct sq_snapshot *s, size_t i)
{
	return sq_snapshot_row(s, i);
}

/* Steps to their runs (one arena block, in parse order per run). */
static int
attach_steps(struct sq_hist_build *b)
{
	struct sq_snapshot *s = b->s;
	struct sq_hist_step *all;
	size_t *pos, i;

	if (b->n == 0)
		return 0;
	all = sq_arena_alloc(&s->arena, b->n * sizeof(*all));
	pos = calloc(s->nrows + 1, sizeof(*pos));
	if (all == NULL || pos == NULL) {
		free(pos);
		return -1;
	}
	for (i = 0; i < b->n; i++)
		if (b->parent[i] < s->nrows)
			pos[b->parent[i] + 1]++;
	for (i = 1; i <= s->nrows; i++)
		pos[i] += pos[i - 1];
	for (i = 0; i < s->nrows; i++) {
		row(s, i)->steps = all + pos[i];
		row(s, i)->nsteps = 0;
	}
	for (i = 0; i < b->n; i++) {
		struct sq_hist *h;

		if (b->parent[i] >= s->nrows)
			continue;
		h = row(s, b->parent[i]);
		all[pos[b->parent[i]] + h->nsteps++] = b->steps[i];
	}
	free(pos);
	return 0;
}

/*
 * Efficiency as seff (Slurm contribs/seff/seff) reports it:
 *   CPU    = TotalCPU of the job (user + system, summed over its steps)
 *            / (Elapsed x AllocCPUS)            ("core-walltime")
 *   memory = the largest MaxRSS of any step / the memory allocated to the
 *            job (AllocTRES mem=, the total over its nodes).
 * seff since 21.08 takes a step's memory from TRESUsageInTot mem (the sum
 * of its tasks' peaks); for the one-task steps of most batch jobs that is
 * MaxRSS, which is what sacct and the REST API print for every version,
 * so MaxRSS is used. Unlike seff (which prints 0 %), a run without steps,
 * still running or pending has no efficiency (NAN).
 */
static void
efficiency(struct sq_hist *h)
{
	size_t i;
	double cpu = 0;
	int have_cpu = 0;
	int32_t rss = SQ_NONE;

	for (i = 0; i < h->nsteps; i++) {
		const struct sq_hist_step *st = &h->steps[i];

		if (!isnan(st->total_cpu)) {
			cpu += st->total_cpu;
			have_cpu = 1;
		}
		if (st->max_rss != SQ_NONE && st->max_rss > rss)
			rss = st->max_rss;
	}
	if (have_cpu)
		h->total_cpu = cpu;
	if (rss != SQ_NONE)
		h->max_rss = rss;
	h->cpu_eff = h->mem_eff = NAN;
	if (h->nsteps == 0 || sq_history_outcome(h->state) == SQ_HIST_ACTIVE)
		return;
	if (!isnan(h->total_cpu) && h->elapsed > 0 && h->alloc_cpus > 0)
		h->cpu_eff =
		    h->total_cpu / ((double)h->elapsed * h->alloc_cpus);
	if (h->max_rss != SQ_NONE && h->alloc_mem > 0)
		h->mem_eff = (double)h->max_rss / ((double)h->alloc_mem * 1024);
}

/*
 * A run that has not ended has no end and no exit code, and one not yet
 * started no start and no run time: slurmdbd's REST answer gives a
 * pending run start = end = the time of the query and a running one end
 * = that time (its window cut, JOBCOND_FLAG_NO_TRUNC unset), both exit
 * 0; sacct prints 0:0 for them. COMPLETING and STAGE_OUT runs have
 * ended. A running run keeps its elapsed time (up to the query).
 */
static void
unended(struct sq_hist *h)
{
	if (sq_history_outcome(h->state) != SQ_HIST_ACTIVE ||
	    strcmp(h->state, "COMPLETING") == 0 ||
	    strcmp(h->state, "STAGE_OUT") == 0)
		return;
	h->end = SQ_NONE;
	h->exit_code = h->signal = SQ_NONE;
	if (strcmp(h->state, "PENDING") == 0)
		h->start = h->elapsed = SQ_NONE;
}

/*
 * GPU use of a run: the largest step peak of gres/gpuutil (Slurm's
 * percent, summed over the processes and devices of the step) over the
 * run's GPUs, and of gres/gpumem; GPU-hours; idle when the peak stayed
 * under gpu-idle-below. A run without a measure keeps a note saying why
 * (one a backend set, sq_history_gpu_none, wins).
 */
static void
gpu_use(struct sq_hist *h, long idle_below)
{
	int64_t util = SQ_NONE, mem = SQ_NONE;
	size_t i;

	for (i = 0; i < h->nsteps; i++) {
		if (h->steps[i].gpu_util > util)
			util = h->steps[i].gpu_util;
		if (h->steps[i].gpu_mem > mem)
			mem = h->steps[i].gpu_mem;
	}
	h->gpu_util_max = NAN;
	h->gpu_mem_max = SQ_NONE;
	h->gpu_idle = 0;
	if (h->gpus <= 0) {
		h->gpu_note = "";
		return;
	}
	if (util != SQ_NONE) {
		h->gpu_util_max = (double)util / 100 / h->gpus;
		h->gpu_mem_max = mem;
		h->gpu_note = "";
		h->gpu_idle = h->gpu_util_max * 100 < (double)idle_below;
		return;
	}
	if (h->gpu_note[0] != '\0')
		return;
	if (sq_history_outcome(h->state) == SQ_HIST_ACTIVE)
		h->gpu_note = "after the run";
	else
		h->gpu_note = "not measured";
}

static int
cmp_run(const void *a_, const void *b_)
{
	const struct sq_hist *a = *(const struct sq_hist *const *)a_;
	const struct sq_hist *b = *(const struct sq_hist *const *)b_;

	if (a->job_id != b->job_id)
		return a->job_id < b->job_id ? -1 : 1;
	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* 1, 2, 3 ... for the runs of one job, oldest first. */
static int
number_runs(struct sq_snapshot *s)
{
	struct sq_hist **v;
	size_t i, n = s->nrows;

	if (n == 0)
		return 0;
	v = malloc(n * sizeof(*v));
	if (v == NULL)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = row(s, i);
	qsort(v, n, sizeof(*v), cmp_run);
	for (i = 0; i < n; i++)
		v[i]->run = (i > 0 && v[i - 1]->job_id == v[i]->job_id &&
			     v[i]->job_id != 0)
				? v[i - 1]->run + 1
				: 1;
	free(v);
	return 0;
}

/* ---- summaries ---- */

struct key {
	const char *k;
	size_t run;
};

static int
cmp_key(const void *a_, const void *b_)
{
	const struct key *a = a_, *b = b_;
	int c = strcmp(a->k, b->k);

	if (c != 0)
		return c;
	return a->run < b->run ? -1 : a->run > b->run;
}

/* ---- keys in order, without sorting a million of them ---- */

struct grp {
	const char *k;
	size_t n;    /* its keys */
	uint32_t id; /* in the order first seen */
};

static int
cmp_grp(const void *a_, const void *b_)
{
	return strcmp(((const struct grp *)a_)->k, ((const struct grp *)b_)->k);
}

static uint32_t
str_hash(const char *p)
{
	uint32_t h = 2166136261u;

	for (; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

/* The slot of key k in slot[0..cap) (a power of two; gid + 1, 0 empty). */
static size_t
slot_of(const uint32_t *slot, size_t cap, const struct grp *g, const char *k)
{
	size_t j = str_hash(k) & (cap - 1);

	while (slot[j] != 0 && g[slot[j] - 1].k != k &&
	       strcmp(g[slot[j] - 1].k, k) != 0)
		j = (j + 1) & (cap - 1);
	return j;
}

/* Room for the next group and a table at most half full; -1 on ENOMEM. */
static int
grow(uint32_t **slot, size_t *cap, struct grp **g, size_t ng, size_t *gcap)
{
	size_t i;

	if (ng == *gcap) {
		struct grp *p = realloc(*g, 2 * *gcap * sizeof(**g));

		if (p == NULL)
			return -1;
		*g = p;
		*gcap *= 2;
	}
	if (2 * (ng + 1) > *cap) {
		uint32_t *ns = calloc(2 * *cap, sizeof(*ns));

		if (ns == NULL)
			return -1;
		free(*slot);
		*slot = ns;
		*cap *= 2;
		for (i = 0; i < ng; i++)
			ns[slot_of(ns, *cap, *g, (*g)[i].k)] = (uint32_t)i + 1;
	}
	return 0;
}

/*
 * keys[0..n), given in run order, into cmp_key's order (by key, then
 * run): the distinct keys found by hashing and sorted (a few thousand
 * users, tens of thousands of nodes), each key then put in its group's
 * place in the order it came. A qsort of a million keys by strcmp was a
 * fifth of a big history's parse. -1 without memory (keys unchanged).
 */
static int
group_keys(struct key *keys, size_t n)
{
	size_t cap = 1024, gcap = 256, ng = 0, i, at;
	uint32_t *slot = calloc(cap, sizeof(*slot));
	uint32_t *gid = malloc((n + 1) * sizeof(*gid));
	size_t *pos = NULL;
	struct grp *g = malloc(gcap * sizeof(*g));
	struct key *out = malloc((n + 1) * sizeof(*out));
	int rc = -1;

	if (slot == NULL || gid == NULL || g == NULL || out == NULL)
		goto done;
	for (i = 0; i < n; i++) {
		size_t j = slot_of(slot, cap, g, keys[i].k);

		if (slot[j] == 0) {
			if (grow(&slot, &cap, &g, ng, &gcap) == -1)
				goto done;
			j = slot_of(slot, cap, g, keys[i].k);
			g[ng].k = keys[i].k;
			g[ng].n = 0;
			g[ng].id = (uint32_t)ng;
			slot[j] = (uint32_t)++ng;
		}
		gid[i] = slot[j] - 1;
		g[gid[i]].n++;
	}
	qsort(g, ng, sizeof(*g), cmp_grp);
	pos = malloc((ng + 1) * sizeof(*pos));
	if (pos == NULL)
		goto done;
	for (i = 0, at = 0; i < ng; i++) { /* by id: where its keys go */
		pos[g[i].id] = at;
		at += g[i].n;
	}
	for (i = 0; i < n; i++)
		out[pos[gid[i]]++] = keys[i];
	memcpy(keys, out, n * sizeof(*keys));
	rc = 0;
done:
	free(slot);
	free(gid);
	free(pos);
	free(g);
	free(out);
	return rc;
}

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

static double
median(double *v, size_t n)
{
	double hi;

	if (n == 0)
		return NAN;
	hi = select_kth(v, n, n / 2);
	if (n % 2)
		return hi;
	return (select_kth(v, n, n / 2 - 1) + hi) / 2;
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

/* Count run r into summary row g. */
static void
count(struct sq_hist *g, const struct sq_hist *r, struct memo *m)
{
	int c = classify(m, r->state);

	g->runs++;
	switch (c & ~C_LASTFAIL) {
	case C_DONE:
		g->completed++;
		break;
	case C_FAIL:
		g->failed++;
		break;
	case C_TIMEOUT:
		g->timeout++;
		break;
	case C_OOM:
		g->oom++;
		break;
	case C_CANCEL:
		g->cancelled++;
		break;
	case C_PREEMPT:
		g->preempted++;
		break;
	case C_NODE:
		g->node_fail++;
		break;
	case C_REQUEUE:
		g->requeued++;
		break;
	case C_ACTIVE:
		g->active++;
		break;
	default:
		g->other++;
	}
	if (r->elapsed > 0 && r->alloc_cpus > 0)
		g->cpu_hours += (double)r->elapsed * r->alloc_cpus / 3600;
	g->gpu_hours += sq_history_gpu_hours(r);
	g->gpu_idle_hours += sq_history_gpu_idle_hours(r);
	if ((c & C_LASTFAIL) && r->end != SQ_NONE && r->end > g->last_failure)
		g->last_failure = r->end;
}

/* Append one summary row per distinct key of keys[0..n) (in run order;
 * put in key order here). */
static int
summarise(struct sq_snapshot *s, enum sq_hist_scope scope, struct key *keys,
	  size_t n, size_t nruns)
{
	double *ce, *me;
	size_t i = 0;
	struct memo memo;

	memo.n = 0;

	if (n > 1 && group_keys(keys, n) == -1)
		qsort(keys, n, sizeof(*keys), cmp_key);
	ce = malloc((n + 1) * sizeof(*ce));
	me = malloc((n + 1) * sizeof(*me));
	if (ce == NULL || me == NULL) {
		free(ce);
		free(me);
		return -1;
	}
	while (i < n) {
		size_t j = i, nc = 0, nm = 0;
		struct sq_hist g, *out;

		memset(&g, 0, sizeof(g));
		g.scope = scope;
		g.id = g.user = g.account = g.partition = g.qos = g.name = "";
		g.state = g.node = "";
		g.exit_code = g.signal = g.elapsed = g.alloc_cpus = SQ_NONE;
		g.total_cpu = NAN;
		g.last_failure = SQ_NONE;
		for (; j < n && (keys[j].k == keys[i].k ||
				 strcmp(keys[j].k, keys[i].k) == 0);
		     j++) {
			const struct sq_hist *r = row(s, keys[j].run);

			if (keys[j].run >= nruns)
				continue;
			count(&g, r, &memo);
			if (!isnan(r->cpu_eff))
				ce[nc++] = r->cpu_eff;
			if (!isnan(r->mem_eff))
				me[nm++] = r->mem_eff;
		}
		g.cpu_eff = median(ce, nc);
		g.mem_eff = median(me, nm);
		switch (scope) {
		case SQ_HIST_USER:
			g.user = keys[i].k;
			break;
		case SQ_HIST_ACCOUNT:
			g.account = keys[i].k;
			break;
		default:
			g.node = keys[i].k;
			break;
		}
		out = sq_snapshot_add(s);
		if (out == NULL) {
			free(ce);
			free(me);
			return -1;
		}
		*out = g;
		i = j;
	}
	free(ce);
	free(me);
	return 0;
}

struct node_acc {
	struct sq_strtab t; /* node names, once each */
	struct key *keys;
	size_t n, cap;
	size_t run;
	int err;
};

static int
add_node(void *arg, const char *name)
{
	struct node_acc *a = arg;

	if (a->n == a->cap) {
		size_t nc = a->cap ? a->cap * 2 : 256;
		void *p = realloc(a->keys, nc * sizeof(*a->keys));

		if (p == NULL) {
			a->err = 1;
			return 1;
		}
		a->keys = p;
		a->cap = nc;
	}
	a->keys[a->n].k = sq_strtab_str(&a->t, name);
	a->keys[a->n].run = a->run;
	a->n++;
	return 0;
}

int
sq_history_finish(struct sq_hist_build *b)
{
	struct sq_snapshot *s = b->s;
	size_t nruns = s->nrows, i;
	struct key *keys;
	struct node_acc na;
	int rc = -1;

	if (attach_steps(b) == -1 || number_runs(s) == -1)
		return -1;
	for (i = 0; i < nruns; i++) {
		unended(row(s, i));
		efficiency(row(s, i));
		gpu_use(row(s, i), sq_history_idle_below());
	}
	keys = malloc((nruns + 1) * sizeof(*keys));
	if (keys == NULL)
		return -1;
	for (i = 0; i < nruns; i++) {
		keys[i].k = row(s, i)->user;
		keys[i].run = i;
	}
	if (summarise(s, SQ_HIST_USER, keys, nruns, nruns) == -1)
		goto done;
	for (i = 0; i < nruns; i++) {
		keys[i].k = row(s, i)->account;
		keys[i].run = i;
	}
	if (summarise(s, SQ_HIST_ACCOUNT, keys, nruns, nruns) == -1)
		goto done;
	memset(&na, 0, sizeof(na));
	sq_strtab_init(&na.t, &s->arena, 1u << 20);
	for (i = 0; i < nruns; i++) {
		const struct sq_hist *r = row(s, i);

		size_t before = na.n;

		na.run = i;
		if (r->nodelist[0] == '\0')
			continue;
		/* a malformed list counts as one name */
		if (sq_hostlist_expand(r->nodelist, add_node, &na) == -1 &&
		    !na.err) {
			na.n = before;
			add_node(&na, r->nodelist);
		}
		if (na.err)
			break;
	}
	if (!na.err && summarise(s, SQ_HIST_NODE, na.keys, na.n, nruns) == 0)
		rc = 0;
	sq_strtab_free(&na.t);
	free(na.keys);
	sq_snapshot_fit(s);
done:
	free(keys);
	return rc;
}
