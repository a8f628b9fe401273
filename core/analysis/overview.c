/*
 * overview.c - the rows of the overview view, aggregated from the newest
 * nodes, jobs, partitions and sdiag snapshots: nodes by state, CPU, memory
 * and GPU allocation and jobs per partition, the top pending reasons,
 * the busiest users and accounts, GPUs (idle, allocated, utilisation as
 * sstat measures it, pending demand) and slurmctld health. Pure:
 * reads snapshots, writes a new one; no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/analysis/gpuuse.h"
#include "core/model/model_admin.h"
#include "core/analysis/overview.h"
#include "core/analysis/overview_om.h"
#include "core/analysis/overview_rows.h"
#include "core/base/parse.h"

/* A counter keyed by a string (n bytes at k). */
struct cnt {
	const char *k;
	size_t n;
	int64_t a, b, c, d; /* meaning by use: see the callers */
};

struct counts {
	struct cnt *v;
	size_t cap, used;
};

static uint64_t
hash(const char *k, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)k[i]) * 1099511628211ULL;
	return h;
}

static int
grow(struct counts *c)
{
	size_t cap = c->cap ? c->cap * 2 : 64, i;
	struct cnt *v = calloc(cap, sizeof(*v));

	if (v == NULL)
		return -1;
	for (i = 0; i < c->cap; i++) {
		size_t j;

		if (c->v[i].k == NULL)
			continue;
		j = hash(c->v[i].k, c->v[i].n) & (cap - 1);
		while (v[j].k != NULL)
			j = (j + 1) & (cap - 1);
		v[j] = c->v[i];
	}
	free(c->v);
	c->v = v;
	c->cap = cap;
	return 0;
}

/* The counter of key (n bytes), NULL on ENOMEM. */
static struct cnt *
count(struct counts *c, const char *k, size_t n)
{
	size_t j;

	if ((c->used + 1) * 2 > c->cap && grow(c) == -1)
		return NULL;
	j = hash(k, n) & (c->cap - 1);
	while (c->v[j].k != NULL) {
		if (c->v[j].n == n && memcmp(c->v[j].k, k, n) == 0)
			return &c->v[j];
		j = (j + 1) & (c->cap - 1);
	}
	c->v[j].k = k;
	c->v[j].n = n;
	c->used++;
	return &c->v[j];
}

/* Order of rankings: a (desc), then b (desc), then the key. */
static int
by_rank(const void *x, const void *y)
{
	const struct cnt *p = x, *q = y;
	size_t n;
	int d;

	if (p->k == NULL || q->k == NULL)
		return (p->k == NULL) - (q->k == NULL);
	if (p->a != q->a)
		return p->a > q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b > q->b ? -1 : 1;
	n = p->n < q->n ? p->n : q->n;
	d = memcmp(p->k, q->k, n);
	return d != 0 ? d : (p->n > q->n) - (p->n < q->n);
}

struct sq_ov_row *
sq_ov_row_add(struct sq_snapshot *s, const char *section, const char *key,
	      size_t kn, int src)
{
	struct sq_ov_row *r = sq_snapshot_add(s);
	char id[160];

	if (r == NULL)
		return NULL;
	r->section = section;
	/* a line, not a record: long names are cut (the filter keeps
	 * the whole name) */
	r->key = sq_snapshot_strn(s, key, kn > 24 ? 24 : kn);
	snprintf(id, sizeof(id), "%s/%s", section, r->key);
	r->id = sq_snapshot_str(s, id);
	r->value = "";
	r->view = "";
	r->filter = "";
	r->num = SQ_NONE;
	r->used = r->total = 0;
	r->src = src;
	return r;
}

void
sq_ov_row_value(struct sq_snapshot *s, struct sq_ov_row *r, const char *fmt,
		long long a, long long b)
{
	char buf[96];

	snprintf(buf, sizeof(buf), fmt, a, b);
	r->value = sq_snapshot_str(s, buf);
}

/* "@col=value", quoted when the value has a space; "" when it cannot be
 * written as a filter (quotes). */
void
sq_ov_row_link(struct sq_snapshot *s, struct sq_ov_row *r, const char *view,
	       const char *col, const char *v, size_t n)
{
	char buf[300];

	r->view = view;
	if (col == NULL || memchr(v, '\'', n) != NULL ||
	    memchr(v, '"', n) != NULL || n > 200)
		return;
	if (memchr(v, ' ', n) != NULL)
		snprintf(buf, sizeof(buf), "@%s='%.*s'", col, (int)n, v);
	else
		snprintf(buf, sizeof(buf), "@%s=%.*s", col, (int)n, v);
	r->filter = sq_snapshot_str(s, buf);
}

/* Does the comma-separated list (default marked '*') name p? */
static int
in_list(const char *list, const char *p, size_t pn)
{
	const char *e = list;

	while (*e != '\0') {
		size_t n = strcspn(e, ",");
		size_t m = n > 0 && e[n - 1] == '*' ? n - 1 : n;

		if (m == pn && memcmp(e, p, pn) == 0)
			return 1;
		e += n;
		if (*e == ',')
			e++;
	}
	return 0;
}

/* Nodes by state: from the nodes, or from /metrics/nodes (base states
 * and flags, "+drain": a node counts under its base state and each flag
 * it has). */
static void
nodes_rows(struct sq_snapshot *s, const struct sq_ov_input *in)
{
	struct sq_ov_om_state om[32];
	struct counts st = { 0 };
	int64_t total = in->nodes != NULL ? (int64_t)in->nodes->nrows
					  : sq_ov_om_nodes(in->om_nodes);
	size_t i,
	    n = in->nodes != NULL ? 0 : sq_ov_om_states(in->om_nodes, om, 32);
	struct sq_ov_row *r;

	for (i = 0; in->nodes != NULL && i < in->nodes->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(in->nodes, i);
		struct cnt *c = count(&st, nd->state, strlen(nd->state));

		if (c != NULL)
			c->a++;
	}
	for (i = 0; i < n; i++) {
		struct cnt *c = count(&st, om[i].name, strlen(om[i].name));

		if (c != NULL)
			c->a = om[i].n;
	}
	r = total >= 0 ? sq_ov_row_add(s, "nodes", "total", 5, SQ_KIND_NODES)
		       : NULL;
	if (r != NULL) {
		r->num = total;
		sq_ov_row_value(s, r, r->num == 1 ? "%lld node" : "%lld nodes",
				r->num, 0);
		r->view = "nodes";
	}
	if (st.cap > 0)
		qsort(st.v, st.cap, sizeof(*st.v), by_rank);
	for (i = 0; i < st.used && total >= 0; i++) {
		r = sq_ov_row_add(s, "nodes", st.v[i].k, st.v[i].n,
				  SQ_KIND_NODES);
		if (r == NULL)
			break;
		r->num = r->used = st.v[i].a;
		r->total = total;
		/* the bar is this state's share of the nodes: say so */
		sq_ov_row_value(s, r, "%lld of %lld", r->num, r->total);
		if (st.v[i].k[0] == '+')
			r->view = "nodes";
		else
			sq_ov_row_link(s, r, "nodes", "state", st.v[i].k,
				       st.v[i].n);
	}
	free(st.v);
}

/* Partition names in order: the partitions snapshot, the metrics', the
 * nodes', the queue's. */
static void
partition_names(const struct sq_ov_input *in, struct counts *names)
{
	size_t i;

	if (in->parts != NULL) {
		for (i = 0; i < in->parts->nrows; i++) {
			const struct sq_partition *p =
			    sq_snapshot_row(in->parts, i);
			struct cnt *c = count(names, p->name, strlen(p->name));

			if (c != NULL && c->d == 0)
				c->d = (int64_t)names->used;
		}
	}
	for (i = 0; in->om_parts != NULL; i++) {
		const char *p = sq_ov_om_partition(in->om_parts, i);
		struct cnt *c = p != NULL ? count(names, p, strlen(p)) : NULL;

		if (p == NULL)
			break;
		if (c != NULL && c->d == 0)
			c->d = (int64_t)names->used;
	}
	for (i = 0; in->nodes != NULL && i < in->nodes->nrows; i++) {
		const struct sq_node *n = sq_snapshot_row(in->nodes, i);
		const char *e = n->partitions;

		while (*e != '\0') {
			size_t l = strcspn(e, ",");
			size_t m = l > 0 && e[l - 1] == '*' ? l - 1 : l;
			struct cnt *c = m > 0 ? count(names, e, m) : NULL;

			if (c != NULL && c->d == 0)
				c->d = (int64_t)names->used;
			e += l;
			if (*e == ',')
				e++;
		}
	}
	/* partitions with jobs only (or no nodes fetched yet) */
	for (i = 0; in->jobs != NULL && i < in->jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(in->jobs, i);
		size_t l = strcspn(j->partition, ",");
		struct cnt *c = l > 0 ? count(names, j->partition, l) : NULL;

		if (c != NULL && c->d == 0)
			c->d = (int64_t)names->used;
	}
}

static int
by_order(const void *x, const void *y)
{
	const struct cnt *p = x, *q = y;

	if (p->k == NULL || q->k == NULL)
		return (p->k == NULL) - (q->k == NULL);
	return (p->d > q->d) - (p->d < q->d);
}

static void
bar_row(struct sq_snapshot *s, const struct cnt *p, const char *what,
	int64_t used, int64_t total, const char *unit)
{
	char key[160], val[96];
	struct sq_ov_row *r;

	snprintf(key, sizeof(key), "%.*s %s", (int)p->n, p->k, what);
	r = sq_ov_row_add(s, "partition", key, strlen(key), SQ_KIND_NODES);
	if (r == NULL)
		return;
	r->num = r->used = used;
	r->total = total;
	/* memory is in MB: GB from 10 GB on */
	if (strcmp(unit, "MB") == 0 && total >= 10240)
		snprintf(val, sizeof(val), "%lld/%lld GB",
			 (long long)used / 1024, (long long)total / 1024);
	else
		snprintf(val, sizeof(val), "%lld/%lld %s", (long long)used,
			 (long long)total, unit);
	r->value = sq_snapshot_str(s, val);
	sq_ov_row_link(s, r, "jobs", "partition", p->k, p->n);
}

/* The bars from /metrics/partitions: the GPUs are the partition's jobs'
 * (no per-partition figure of the nodes' GPUs there), said by the key. */
static void
om_bars(struct sq_snapshot *s, const struct cnt *p, const struct sq_om *om)
{
	struct sq_ov_om_part f;
	char name[160];

	if (om == NULL)
		return;
	snprintf(name, sizeof(name), "%.*s", (int)p->n, p->k);
	sq_ov_om_part(om, name, &f);
	if (f.cpu_used >= 0 && f.cpu_total >= 0)
		bar_row(s, p, "cpu", f.cpu_used, f.cpu_total, "CPUs");
	if (f.mem_used >= 0 && f.mem_total >= 0)
		bar_row(s, p, "mem", f.mem_used, f.mem_total, "MB");
	if (f.gpu_used >= 0 && f.gpu_total > 0)
		bar_row(s, p, "gpu (jobs)", f.gpu_used, f.gpu_total, "GPUs");
}

/* Per partition: cpu, mem and gpu bars from the nodes (or the metrics);
 * jobs running and pending from the queue. */
static void
partition_rows(struct sq_snapshot *s, const struct sq_ov_input *in)
{
	struct counts names = { 0 }, jobs = { 0 };
	size_t i, j;

	partition_names(in, &names);
	if (names.cap > 0)
		qsort(names.v, names.cap, sizeof(*names.v), by_order);
	for (i = 0; in->jobs != NULL && i < in->jobs->nrows; i++) {
		const struct sq_job *jb = sq_snapshot_row(in->jobs, i);
		struct cnt *c =
		    count(&jobs, jb->partition, strcspn(jb->partition, ","));

		if (c == NULL)
			continue;
		if (sq_job_is_pending(jb))
			c->b++;
		else if (strcmp(jb->state, "RUNNING") == 0)
			c->a++;
	}
	for (i = 0; i < names.used; i++) {
		const struct cnt *p = &names.v[i];
		int64_t cu = 0, ct = 0, mu = 0, mt = 0, gu = 0, gt = 0;
		struct cnt *jc;
		struct sq_ov_row *r;
		char key[160];

		for (j = 0; in->nodes != NULL && j < in->nodes->nrows; j++) {
			const struct sq_node *n = sq_snapshot_row(in->nodes, j);

			if (!in_list(n->partitions, p->k, p->n))
				continue;
			cu += n->cpus_alloc > 0 ? n->cpus_alloc : 0;
			ct += n->cpus_total > 0 ? n->cpus_total : 0;
			mu += n->mem_alloc > 0 ? n->mem_alloc : 0;
			mt += n->mem_total > 0 ? n->mem_total : 0;
			gu += n->gpus_alloc > 0 ? n->gpus_alloc : 0;
			gt += n->gpus_total > 0 ? n->gpus_total : 0;
		}
		if (in->jobs != NULL) {
			jc = count(&jobs, p->k, p->n);
			snprintf(key, sizeof(key), "%.*s jobs", (int)p->n,
				 p->k);
			r = sq_ov_row_add(s, "partition", key, strlen(key),
					  SQ_KIND_JOBS);
			/* no bar: running and pending are not parts of a
			 * capacity */
			if (r != NULL && jc != NULL) {
				r->num = jc->b;
				sq_ov_row_value(s, r, "%lld R %lld PD", jc->a,
						jc->b);
				sq_ov_row_link(s, r, "jobs", "partition", p->k,
					       p->n);
			}
		}
		if (in->nodes == NULL) {
			om_bars(s, p, in->om_parts);
			continue;
		}
		bar_row(s, p, "cpu", cu, ct, "CPUs");
		bar_row(s, p, "mem", mu, mt, "MB");
		if (gt > 0)
			bar_row(s, p, "gpu", gu, gt, "GPUs");
	}
	free(names.v);
	free(jobs.v);
}

/* The top rankings of the queue: pending reasons (by count), users and
 * accounts (by running CPUs, then pending jobs). */
static void
rank_rows(struct sq_snapshot *s, const struct sq_ov_input *in)
{
	struct counts rs = { 0 }, us = { 0 }, as = { 0 };
	const struct sq_snapshot *js = in->jobs;
	struct counts *all[3] = { &rs, &us, &as };
	static const char *const sect[3] = { "reason", "user", "account" };
	size_t i, k;
	int t;

	for (i = 0; i < js->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(js, i);
		int pend = sq_job_is_pending(j);
		int run = strcmp(j->state, "RUNNING") == 0;
		struct cnt *c;

		if (pend && j->reason[0] != '\0' &&
		    (c = count(&rs, j->reason, strcspn(j->reason, ",("))))
			c->a++;
		for (k = 1; k < 3; k++) {
			const char *v = k == 1 ? j->user : j->account;

			c = count(all[k], v, strlen(v));
			if (c == NULL)
				continue;
			if (run) {
				c->a += j->cpus > 0 ? j->cpus : 0;
				c->c++;
			}
			if (pend)
				c->b++;
		}
	}
	for (k = 0; k < 3; k++) {
		struct counts *c = all[k];

		if (c->cap > 0)
			qsort(c->v, c->cap, sizeof(*c->v), by_rank);
		for (t = 0; t < in->top && (size_t)t < c->used; t++) {
			const struct cnt *e = &c->v[t];
			struct sq_ov_row *r;

			if (k > 0 && e->a == 0 && e->b == 0)
				break;
			r = sq_ov_row_add(s, sect[k], e->n ? e->k : "(none)",
					  e->n ? e->n : 6, SQ_KIND_JOBS);
			if (r == NULL)
				break;
			r->num = e->a;
			if (k == 0)
				sq_ov_row_value(s, r, "%lld PD", e->a, 0);
			else
				sq_ov_row_value(s, r, "%lld cpu %lld PD", e->a,
						e->b);
			sq_ov_row_link(s, r, "jobs", sect[k], e->k, e->n);
		}
		free(c->v);
	}
}

/* GPUs allocated of total (from the nodes). */
static void
gpu_alloc_row(struct sq_snapshot *s, int64_t used, int64_t total)
{
	struct sq_ov_row *r =
	    sq_ov_row_add(s, "gpus", "allocated", 9, SQ_KIND_NODES);

	if (r == NULL)
		return;
	r->num = r->used = used;
	r->total = total;
	sq_ov_row_value(s, r, "%lld/%lld GPUs", used, total);
	r->view = "gpus";
}

/* A reason as a short cell (the line must leave room for the bar and
 * the sparkline at 80 columns); the views behind the line say it all. */
static const char *
short_why(const char *why)
{
	if (why == NULL || why[0] == '\0')
		return "none: no gpuutil";
	if (strstr(why, "23.02") != NULL)
		return "none: Slurm < 23.02";
	if (strstr(why, "slurmrestd") != NULL)
		return "none via slurmrestd";
	if (strstr(why, "no process") != NULL)
		return "none: no GPU process";
	if (strncmp(why, "not read", 8) == 0)
		return "none: not read";
	return "none: no gpuutil";
}

/* Utilisation: the running GPU jobs' measured use weighted by their
 * GPUs (core/analysis/gpuuse.h), or why there is none. */
static void
gpu_util_row(struct sq_snapshot *s, const struct sq_ov_input *in)
{
	const struct sq_snapshot *u = in->gpuuse;
	struct sq_ov_row *r =
	    sq_ov_row_add(s, "gpus", "utilisation", 11, SQ_KIND_GPUUSE);
	int64_t w = 0, sum = 0, gpus = 0;
	const char *why = NULL;
	char buf[64];
	size_t i;

	if (r == NULL)
		return;
	r->view = "gpus-idle";
	if (u == NULL) {
		r->value = in->use_note != NULL && in->use_note[0] != '\0'
			       ? short_why(in->use_note)
			       : "not read yet";
		return;
	}
	for (i = 0; i < u->nrows; i++) {
		const struct sq_gpuuse *g = sq_snapshot_row(u, i);

		gpus += g->gpus > 0 ? g->gpus : 0;
		if (g->util == SQ_NONE || g->gpus <= 0) {
			if (why == NULL && g->note[0] != '\0')
				why = g->note;
			continue;
		}
		w += g->gpus;
		sum += g->util * g->gpus;
	}
	if (w == 0) {
		if (u->note != NULL && u->note[0] != '\0')
			why = u->note;
		/* a source that measures nothing (Slurm < 23.02, slurmrestd)
		 * says so with or without a GPU job running */
		r->value = gpus == 0 && (why == NULL ||
					 (strstr(why, "23.02") == NULL &&
					  strstr(why, "slurmrestd") == NULL))
			       ? "no GPU job running"
			       : short_why(why);
		return;
	}
	r->num = r->used = (sum + w / 2) / w;
	r->total = 100;
	if (w < gpus)
		snprintf(buf, sizeof(buf), "%lld%% on %lld of %lld GPUs",
			 (long long)r->num, (long long)w, (long long)gpus);
	else
		snprintf(buf, sizeof(buf), "%lld%% of %lld GPUs",
			 (long long)r->num, (long long)w);
	r->value = sq_snapshot_str(s, buf);
}

/* Seconds as a short duration with units: 45s, 9m54s, 2h05m, 3d04h. */
static void
short_dur(int64_t v, char *buf, size_t n)
{
	long long t = (long long)v;

	if (t < 60)
		snprintf(buf, n, "%llds", t);
	else if (t < 3600)
		snprintf(buf, n, "%lldm%02llds", t / 60, t % 60);
	else if (t < 86400)
		snprintf(buf, n, "%lldh%02lldm", t / 3600, t % 3600 / 60);
	else
		snprintf(buf, n, "%lldd%02lldh", t / 86400, t % 86400 / 3600);
}

/* Pending demand: the user rows of GPUS (each pending job once per
 * GRES type it asks for), and the longest wait on a line of its own. */
static void
gpu_pend_row(struct sq_snapshot *s, const struct sq_snapshot *g)
{
	struct sq_ov_row *r =
	    sq_ov_row_add(s, "gpus", "pending", 7, SQ_KIND_GPUS);
	struct sq_ov_row *wr =
	    sq_ov_row_add(s, "gpus", "longest wait", 12, SQ_KIND_GPUS);
	int64_t gpus = 0, jobs = 0, wait = SQ_NONE;
	int unknown = 0;
	char buf[64];
	size_t i;

	if (r == NULL || wr == NULL)
		return;
	r->view = wr->view = "gpus-partitions";
	if (g == NULL) {
		r->value = wr->value = "not read yet";
		return;
	}
	for (i = 0; i < g->nrows; i++) {
		const struct sq_gpu *x = sq_snapshot_row(g, i);

		if (x->scope != SQ_GPU_USER)
			continue;
		if (x->pend_gpus == SQ_NONE) {
			unknown = 1;
			continue;
		}
		gpus += x->pend_gpus;
		jobs += x->pend_jobs;
		if (x->pend_wait != SQ_NONE && x->pend_wait > wait)
			wait = x->pend_wait;
	}
	if (unknown) {
		r->value = wr->value = "unknown: not read";
		return;
	}
	r->num = gpus;
	snprintf(buf, sizeof(buf), "%lld GPUs %lld PD", (long long)gpus,
		 (long long)jobs);
	r->value = sq_snapshot_str(s, buf);
	if (wait == SQ_NONE) {
		wr->value = jobs == 0 ? "none pending" : "unknown";
		return;
	}
	wr->num = wait;
	short_dur(wait, buf, sizeof(buf));
	wr->value = sq_snapshot_str(s, buf);
}

static void
gpu_rows(struct sq_snapshot *s, const struct sq_ov_input *in)
{
	const struct sq_snapshot *nodes = in->nodes;
	int64_t used = 0, total = 0;
	struct sq_ov_row *r;
	size_t i;

	if (nodes == NULL)
		sq_ov_om_gpus(in->om_nodes, &used, &total);
	for (i = 0; nodes != NULL && i < nodes->nrows; i++) {
		const struct sq_node *n = sq_snapshot_row(nodes, i);

		used += n->gpus_alloc > 0 ? n->gpus_alloc : 0;
		total += n->gpus_total > 0 ? n->gpus_total : 0;
	}
	r = sq_ov_row_add(s, "gpus", "idle", 4, SQ_KIND_NODES);
	if (r == NULL)
		return;
	/* the line says idle: the bar is the idle share */
	r->num = r->used = total - used;
	r->total = total;
	sq_ov_row_value(s, r, "%lld of %lld GPUs", total - used, total);
	r->view = "gpus";
	if (total <= 0 && in->gpus == NULL)
		return; /* no accelerator here: no more GPU lines */
	gpu_alloc_row(s, used, total);
	gpu_util_row(s, in);
	gpu_pend_row(s, in->gpus);
}

struct sq_snapshot *
sq_overview_build(const struct sq_ov_input *in, time_t now)
{
	struct sq_snapshot *s =
	    sq_snapshot_new(SQ_KIND_OVERVIEW, sizeof(struct sq_ov_row));

	if (s != NULL)
		sq_overview_fill(s, in, now);
	return s;
}

void
sq_overview_fill(struct sq_snapshot *s, const struct sq_ov_input *in,
		 time_t now)
{
	s->fetched = now;
	s->source = "nodes, jobs, sdiag";
	if (in->om_nodes != NULL ||
	    (in->metrics_note != NULL && in->metrics_note[0] != '\0'))
		sq_ov_source_row(s, in);
	if (in->nodes != NULL || in->om_nodes != NULL)
		nodes_rows(s, in);
	if (in->nodes != NULL || in->om_parts != NULL || in->jobs != NULL)
		partition_rows(s, in);
	if (in->jobs != NULL)
		rank_rows(s, in);
	if (in->jobs != NULL)
		sq_ov_stuck_rows(s, in->jobs, now);
	if (in->nodes != NULL || in->om_nodes != NULL)
		gpu_rows(s, in);
	sq_ov_ctld_rows(s, in);
}
