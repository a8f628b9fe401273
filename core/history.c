/*
 * history.c - job runs from accounting: the window, the field helpers
 * the sacct and slurmdb JSON parsers share, efficiency as seff reports
 * it, and the per-user, per-account and per-node summaries, computed
 * once per fetch (like gpus.c) into the same snapshot.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gres.h"
#include "core/history.h"
#include "core/hostlist.h"
#include "core/model.h"
#include "core/parse.h"
#include "core/strtab.h"

#define MAX_GRES 64

enum sq_hist_outcome
sq_history_outcome(const char *st)
{
	static const char *const warn[] = { "TIMEOUT",   "CANCELLED",
					    "PREEMPTED", "REQUEUED",
					    "DEADLINE",  "REVOKED",
					    NULL };
	static const char *const fail[] = { "FAILED", "NODE_FAIL",
					    "OUT_OF_MEMORY", "BOOT_FAIL",
					    NULL };
	static const char *const active[] = {
		"RUNNING",     "PENDING",      "SUSPENDED",   "COMPLETING",
		"CONFIGURING", "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING",
		"STOPPED",     "SIGNALING",    "STAGE_OUT",   NULL
	};
	int i;

	if (st == NULL)
		return SQ_HIST_UNKNOWN;
	if (strcmp(st, "COMPLETED") == 0)
		return SQ_HIST_OK;
	for (i = 0; fail[i] != NULL; i++)
		if (strcmp(st, fail[i]) == 0)
			return SQ_HIST_FAIL;
	for (i = 0; warn[i] != NULL; i++)
		if (strcmp(st, warn[i]) == 0)
			return SQ_HIST_WARN;
	for (i = 0; active[i] != NULL; i++)
		if (strcmp(st, active[i]) == 0)
			return SQ_HIST_ACTIVE;
	return SQ_HIST_UNKNOWN;
}

/* ---- the window ---- */

static int
digits(const char *s, int n, int *out)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

static int
mdays(int y, int m)
{
	static const int d[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return d[m - 1];
}

int
sq_history_window_parse(const char *spec, struct sq_hist_window *w,
			struct sq_err *err)
{
	size_t len;

	memset(w, 0, sizeof(*w));
	if (spec == NULL || *spec == '\0')
		spec = SQ_HIST_DEFAULT_SINCE;
	len = strlen(spec);
	if (len > 19)
		goto bad;
	if (len >= 10 && spec[4] == '-' && spec[7] == '-') {
		/* YYYY-MM-DD[THH:MM[:SS]] */
		if (digits(spec, 4, &w->year) || digits(spec + 5, 2, &w->mon) ||
		    digits(spec + 8, 2, &w->day))
			goto bad;
		if (len > 10) {
			if ((len != 16 && len != 19) || spec[10] != 'T' ||
			    spec[13] != ':' || digits(spec + 11, 2, &w->hour) ||
			    digits(spec + 14, 2, &w->min))
				goto bad;
			if (len == 19 &&
			    (spec[16] != ':' || digits(spec + 17, 2, &w->sec)))
				goto bad;
		}
		if (w->year < 1970 || w->year > 2999 || w->mon < 1 ||
		    w->mon > 12 || w->day < 1 ||
		    w->day > mdays(w->year, w->mon) || w->hour > 23 ||
		    w->min > 59 || w->sec > 59)
			goto bad;
		snprintf(w->spec, sizeof(w->spec),
			 "%04d-%02d-%02dT%02d:%02d:%02d", w->year, w->mon,
			 w->day, w->hour, w->min, w->sec);
		return 0;
	} else {
		/* N followed by s, m, h, d or w */
		int64_t v = 0, mul;
		size_t i;

		for (i = 0; i + 1 < len; i++) {
			if (spec[i] < '0' || spec[i] > '9' || i >= 9)
				goto bad;
			v = v * 10 + (spec[i] - '0');
		}
		if (len < 2)
			goto bad;
		switch (spec[len - 1]) {
		case 's':
			mul = 1;
			break;
		case 'm':
			mul = 60;
			break;
		case 'h':
			mul = 3600;
			break;
		case 'd':
			mul = 86400;
			break;
		case 'w':
			mul = 7 * 86400;
			break;
		default:
			goto bad;
		}
		if (v <= 0 || v > SQ_HIST_MAX_REL / mul)
			goto bad;
		w->rel = v * mul;
		snprintf(w->spec, sizeof(w->spec), "%lld%c", (long long)v,
			 spec[len - 1]);
		return 0;
	}
bad:
	memset(w, 0, sizeof(*w));
	return sq_err_set(err, SQ_ERR_USAGE,
			  "bad window: want e.g. 2h, 30m, 7d, 2w, 2026-11-01 "
			  "or 2026-11-01T08:00");
}

void
sq_history_window_sacct(const struct sq_hist_window *w, char *buf, size_t n)
{
	/* relative windows go as now-N seconds: the remote host's time zone
	 * never matters (sacct: now[{+|-}count[seconds|...]]) */
	if (w->rel > 0)
		snprintf(buf, n, "now-%lldseconds", (long long)w->rel);
	else
		snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d", w->year,
			 w->mon, w->day, w->hour, w->min, w->sec);
}

int64_t
sq_history_window_start(const struct sq_hist_window *w, time_t now)
{
	struct tm tm;

	if (w->rel > 0)
		return (int64_t)now - w->rel;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = w->year - 1900;
	tm.tm_mon = w->mon - 1;
	tm.tm_mday = w->day;
	tm.tm_hour = w->hour;
	tm.tm_min = w->min;
	tm.tm_sec = w->sec;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

static pthread_mutex_t since_mu = PTHREAD_MUTEX_INITIALIZER;
static char since_spec[64];

void
sq_history_since_set(const char *spec)
{
	pthread_mutex_lock(&since_mu);
	snprintf(since_spec, sizeof(since_spec), "%s", spec ? spec : "");
	pthread_mutex_unlock(&since_mu);
}

void
sq_history_since(const char *cfg_spec, char *buf, size_t n)
{
	pthread_mutex_lock(&since_mu);
	snprintf(buf, n, "%s",
		 since_spec[0] != '\0' ? since_spec
				       : (cfg_spec ? cfg_spec : ""));
	pthread_mutex_unlock(&since_mu);
}

/* ---- field helpers ---- */

const char *
sq_history_state(struct sq_snapshot *s, const char *state)
{
	size_t n = strcspn(state, " ");

	return sq_snapshot_strn(s, state, n);
}

int
sq_history_cpu_time(const char *s, double *out)
{
	long f[3] = { 0, 0, 0 };
	long days = 0;
	int nf = 0;
	double frac = 0;
	const char *p = s;
	char *end;

	*out = NAN;
	if (sq_is_none(s))
		return 0;
	if (strchr(s, '-') != NULL) {
		days = strtol(p, &end, 10);
		if (end == p || *end != '-' || days < 0 || days > 100000)
			return -1;
		p = end + 1;
	}
	for (;;) {
		if (*p < '0' || *p > '9' || nf == 3)
			return -1;
		f[nf++] = strtol(p, &end, 10);
		if (end - p > 9)
			return -1;
		p = end;
		if (*p == ':') {
			p++;
			continue;
		}
		break;
	}
	if (*p == '.') {
		double scale = 0.1;

		p++;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9') {
			frac += (*p - '0') * scale;
			scale /= 10;
			p++;
		}
	}
	if (*p != '\0' || nf < 2)
		return -1;
	if (nf == 2)
		*out = days * 86400.0 + f[0] * 60.0 + f[1] + frac;
	else
		*out =
		    days * 86400.0 + f[0] * 3600.0 + f[1] * 60.0 + f[2] + frac;
	return 0;
}

int
sq_history_kb(const char *s, int64_t *out)
{
	char *end;
	double v, mul = 1;

	*out = SQ_NONE;
	if (sq_is_none(s))
		return 0;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtod(s, &end);
	switch (*end) {
	case '\0':
		break;
	case 'K':
		mul = 1;
		end++;
		break;
	case 'M':
		mul = 1024;
		end++;
		break;
	case 'G':
		mul = 1024.0 * 1024;
		end++;
		break;
	case 'T':
		mul = 1024.0 * 1024 * 1024;
		end++;
		break;
	case 'P':
		mul = 1024.0 * 1024 * 1024 * 1024;
		end++;
		break;
	default:
		return -1;
	}
	if (*end != '\0' || !(v >= 0) || v * mul > 9e15)
		return -1;
	*out = (int64_t)llround(v * mul);
	return 0;
}

int
sq_history_exit(const char *s, int64_t *code, int64_t *sig)
{
	char *end;
	long c, g = 0;

	*code = *sig = SQ_NONE;
	if (sq_is_none(s))
		return 0;
	if (*s < '0' || *s > '9')
		return -1;
	c = strtol(s, &end, 10);
	if (*end == ':') {
		const char *p = end + 1;

		if (*p < '0' || *p > '9')
			return -1;
		g = strtol(p, &end, 10);
	}
	if (*end != '\0' || c > 255 || g > 255)
		return -1;
	*code = c;
	*sig = g;
	return 0;
}

int64_t
sq_history_gpus(const char *tres)
{
	struct sq_gres_item it[MAX_GRES];
	int n, i, j;
	int64_t total = 0;

	n = sq_gres_parse(tres, it, MAX_GRES);
	for (i = 0; i < n; i++) {
		int64_t untyped = -1, typed = 0;
		int seen = 0;

		if (!sq_gres_is_accel(it[i].name))
			continue;
		for (j = 0; j < i; j++)
			if (strcmp(it[j].name, it[i].name) == 0)
				seen = 1;
		if (seen)
			continue;
		for (j = i; j < n; j++) {
			if (strcmp(it[j].name, it[i].name) != 0)
				continue;
			if (it[j].type[0] == '\0')
				untyped =
				    (untyped < 0 ? 0 : untyped) + it[j].count;
			else
				typed += it[j].count;
		}
		total += untyped >= 0 ? untyped : typed;
	}
	return total;
}

int64_t
sq_history_tres_mem(const char *tres)
{
	const char *p = tres;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, "mem=", 4) == 0) {
			char v[32];
			size_t l = strcspn(p + 4, ",");
			int64_t mb;

			if (l == 0 || l >= sizeof(v))
				return SQ_NONE;
			memcpy(v, p + 4, l);
			v[l] = '\0';
			if (sq_parse_mem_mb(v, &mb) == -1)
				return SQ_NONE;
			return mb;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return SQ_NONE;
}

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
	h->state = h->nodelist = h->tres = h->node = "";
	h->run = 1;
	h->exit_code = h->signal = SQ_NONE;
	h->submit = h->start = h->end = h->elapsed = SQ_NONE;
	h->alloc_cpus = h->req_mem = h->alloc_mem = SQ_NONE;
	h->gpus = 0;
	h->nnodes = SQ_NONE;
	h->total_cpu = NAN;
	h->max_rss = SQ_NONE;
	h->cpu_eff = h->mem_eff = NAN;
	h->last_failure = SQ_NONE;
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
	int64_t rss = SQ_NONE;

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

static int
cmp_dbl(const void *a_, const void *b_)
{
	double a = *(const double *)a_, b = *(const double *)b_;

	return a < b ? -1 : a > b;
}

static double
median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Count run r into summary row g. */
static void
count(struct sq_hist *g, const struct sq_hist *r)
{
	const char *st = r->state;

	g->runs++;
	if (strcmp(st, "COMPLETED") == 0)
		g->completed++;
	else if (strcmp(st, "FAILED") == 0 || strcmp(st, "BOOT_FAIL") == 0)
		g->failed++;
	else if (strcmp(st, "TIMEOUT") == 0)
		g->timeout++;
	else if (strcmp(st, "OUT_OF_MEMORY") == 0)
		g->oom++;
	else if (strcmp(st, "CANCELLED") == 0)
		g->cancelled++;
	else if (strcmp(st, "PREEMPTED") == 0)
		g->preempted++;
	else if (strcmp(st, "NODE_FAIL") == 0)
		g->node_fail++;
	else if (strcmp(st, "REQUEUED") == 0)
		g->requeued++;
	else if (sq_history_outcome(st) == SQ_HIST_ACTIVE)
		g->active++;
	if (r->elapsed > 0 && r->alloc_cpus > 0)
		g->cpu_hours += (double)r->elapsed * r->alloc_cpus / 3600;
	if (r->elapsed > 0 && r->gpus > 0)
		g->gpu_hours += (double)r->elapsed * r->gpus / 3600;
	if ((sq_history_outcome(st) == SQ_HIST_FAIL ||
	     strcmp(st, "TIMEOUT") == 0) &&
	    r->end != SQ_NONE && r->end > g->last_failure)
		g->last_failure = r->end;
}

/* Append one summary row per distinct key of keys[0..n) (sorted). */
static int
summarise(struct sq_snapshot *s, enum sq_hist_scope scope, struct key *keys,
	  size_t n, size_t nruns)
{
	double *ce, *me;
	size_t i = 0;

	if (n > 1)
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
		g.state = g.nodelist = g.tres = g.node = "";
		g.exit_code = g.signal = g.submit = g.start = g.end = SQ_NONE;
		g.elapsed = g.alloc_cpus = g.req_mem = g.alloc_mem = SQ_NONE;
		g.nnodes = g.max_rss = SQ_NONE;
		g.total_cpu = NAN;
		g.last_failure = SQ_NONE;
		for (; j < n && strcmp(keys[j].k, keys[i].k) == 0; j++) {
			const struct sq_hist *r = row(s, keys[j].run);

			if (keys[j].run >= nruns)
				continue;
			count(&g, r);
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
	struct sq_snapshot *s;
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
	a->keys[a->n].k = sq_snapshot_str(a->s, name);
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
	for (i = 0; i < nruns; i++)
		efficiency(row(s, i));
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
	na.s = s;
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
	free(na.keys);
done:
	free(keys);
	return rc;
}

/* ---- incremental fetch ---- */

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
	h->node = sq_strtab_str(st, r->node);
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

struct sq_snapshot *
sq_history_merge(const struct sq_snapshot *incr, const struct sq_snapshot *prev,
		 int64_t window_start)
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
		    sq_history_outcome(r->state) == SQ_HIST_ACTIVE)
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

void
sq_history_keep(struct sq_snapshot *s, enum sq_hist_scope scope)
{
	size_t i, m = 0;

	for (i = 0; i < s->nrows; i++) {
		struct sq_hist *h = row(s, i);

		if (h->scope != scope)
			continue;
		if (m != i)
			memcpy(row(s, m), h, sizeof(*h));
		m++;
	}
	s->nrows = m;
}
