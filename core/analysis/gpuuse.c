/*
 * gpuuse.c - the GPUUSE rows: running GPU jobs from squeue, their steps'
 * gres/gpuutil and gres/gpumem from one batched sstat, normalised to the
 * allocated GPUs, and the idle judgement from the samples kept across
 * refreshes (carried from the previous snapshot) and Slurm's peaks.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/util.h"
#include "core/analysis/gpuuse.h"
#include "core/base/gres.h"

#define MAX_ITEMS 64

int
sq_gpuuse_add_job(struct sq_snapshot *s, const char *id, const char *user,
		  const char *account, const char *partition,
		  int64_t start_time, const char *nodelist,
		  const char *tres_alloc)
{
	struct sq_gres_item it[MAX_ITEMS];
	const char *type = "";
	int64_t gpus = 0, typed = 0;
	struct sq_gpuuse *g;
	int n, i;

	n = sq_gres_parse(tres_alloc, it, MAX_ITEMS);
	for (i = 0; i < n; i++) {
		if (strcmp(it[i].name, "gpu") != 0)
			continue;
		if (it[i].type[0] == '\0') {
			gpus += it[i].count;
		} else {
			typed += it[i].count;
			if (*type == '\0')
				type = it[i].type;
		}
	}
	/* "gres/gpu=2,gres/gpu:a100=2" is two GPUs: the untyped total */
	if (gpus == 0)
		gpus = typed;
	if (gpus <= 0)
		return 0;
	/* no job holds more; keeps GPU-minutes and weighted sums in range */
	if (gpus > SQ_GPUUSE_MAX_GPUS)
		gpus = SQ_GPUUSE_MAX_GPUS;
	g = sq_snapshot_add(s);
	if (g == NULL)
		return -1;
	g->id = sq_snapshot_str(s, id);
	g->job_id = (uint32_t)strtoul(id, NULL, 10);
	g->user = sq_snapshot_str(s, user);
	g->account = sq_snapshot_str(s, account);
	g->partition = sq_snapshot_str(s, partition);
	g->nodelist = sq_snapshot_str(s, nodelist);
	g->type = sq_snapshot_str(s, type);
	g->gpus = gpus;
	g->start_time = start_time >= 0 ? start_time : SQ_NONE;
	g->run_s = SQ_NONE;
	g->util = g->mem = g->util_max = g->mem_max = SQ_NONE;
	g->idle_min = g->wasted_mh = SQ_NONE;
	g->note = "";
	return 0;
}

static int
by_id(const void *a, const void *b)
{
	return strcmp(((const struct sq_gpuuse *)a)->id,
		      ((const struct sq_gpuuse *)b)->id);
}

void
sq_gpuuse_sort(struct sq_snapshot *s)
{
	if (s->nrows > 1)
		qsort(s->rows, s->nrows, s->rowsize, by_id);
}

static int
key_id(const void *key, const void *row)
{
	return strcmp(key, ((const struct sq_gpuuse *)row)->id);
}

struct sq_gpuuse *
sq_gpuuse_find(const struct sq_snapshot *s, const char *id)
{
	struct sq_gpuuse *hit;
	size_t i;

	/* rows ordered by id (sq_gpuuse_sort): a binary search; a miss
	 * (rows not ordered, a raw id) falls back to the scans below */
	hit = s->nrows ? bsearch(id, s->rows, s->nrows, s->rowsize, key_id)
		       : NULL;
	if (hit != NULL)
		return hit;
	for (i = 0; i < s->nrows; i++) {
		struct sq_gpuuse *g = sq_snapshot_row(s, i);

		if (strcmp(g->id, id) == 0)
			return g;
	}
	/* sstat may print an array task by its raw job id */
	for (i = 0; i < s->nrows; i++) {
		struct sq_gpuuse *g = sq_snapshot_row(s, i);
		char raw[16];

		snprintf(raw, sizeof(raw), "%u", g->job_id);
		if (strcmp(raw, id) == 0)
			return g;
	}
	return NULL;
}

/* "2G", "1953125K", "1.50M" -> bytes; plain digits are bytes. -1 when
 * unreadable. */
static int64_t
size_bytes(const char *v, size_t n)
{
	double x = 0, frac = 0, scale = 1, mul = 1;
	size_t i = 0;

	if (n == 0 || !isdigit((unsigned char)v[0]))
		return -1;
	for (; i < n && isdigit((unsigned char)v[i]); i++)
		x = x * 10 + (v[i] - '0');
	if (i < n && v[i] == '.') {
		for (i++; i < n && isdigit((unsigned char)v[i]); i++) {
			scale /= 10;
			frac += (v[i] - '0') * scale;
		}
	}
	x += frac;
	if (i < n) {
		static const char units[] = "KMGTP";
		const char *u = strchr(units, v[i]);
		long k;

		if (u == NULL || v[i] == '\0' || i + 1 != n)
			return -1;
		for (k = 0; k <= u - units; k++)
			mul *= 1024;
	}
	x *= mul;
	if (!(x < 9.2e18))
		return -1;
	return (int64_t)(x + 0.5);
}

int64_t
sq_gpuuse_tres(const char *tres, const char *item)
{
	size_t il = strlen(item);
	const char *p = tres;

	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l > il && strncmp(p, item, il) == 0 && p[il] == '=') {
			int64_t v = size_bytes(p + il + 1, l - il - 1);

			return v < 0 ? SQ_NONE : v;
		}
		p = e ? e + 1 : NULL;
	}
	return SQ_NONE;
}

static int64_t
add(int64_t a, int64_t b)
{
	if (b == SQ_NONE)
		return a;
	if (a == SQ_NONE)
		return b;
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

int
sq_gpuuse_add_step(struct sq_snapshot *s, const char *jobid,
		   const char *tres_max, const char *tres_tot)
{
	char id[64];
	size_t l = strcspn(jobid, ".");
	struct sq_gpuuse *g;

	if (l >= sizeof(id))
		return 1;
	memcpy(id, jobid, l);
	id[l] = '\0';
	g = sq_gpuuse_find(s, id);
	if (g == NULL)
		return 1;
	g->steps++;
	g->util = add(g->util, sq_gpuuse_tres(tres_tot, "gres/gpuutil"));
	g->mem = add(g->mem, sq_gpuuse_tres(tres_tot, "gres/gpumem"));
	g->util_max =
	    add(g->util_max, sq_gpuuse_tres(tres_max, "gres/gpuutil"));
	g->mem_max = add(g->mem_max, sq_gpuuse_tres(tres_max, "gres/gpumem"));
	return 0;
}

static struct sq_gpuuse_cfg cfg_now = { SQ_GPUUSE_BELOW_DEFAULT,
					SQ_GPUUSE_AFTER_DEFAULT };

void
sq_gpuuse_cfg_set(int below, int after)
{
	struct sq_gpuuse_cfg c = { below, after };

	sq_util_setting_copy(&cfg_now, &c, sizeof(c));
}

struct sq_gpuuse_cfg
sq_gpuuse_cfg_get(void)
{
	struct sq_gpuuse_cfg c;

	sq_util_setting_copy(&c, &cfg_now, sizeof(c));
	return c;
}

static int64_t
pct(int64_t sum, int64_t gpus)
{
	int64_t v;

	if (sum == SQ_NONE || gpus <= 0)
		return SQ_NONE;
	if (sum >= 100 * gpus)
		return 100;
	v = (sum + gpus / 2) / gpus;
	return v > 100 ? 100 : v;
}

/* prev's samples of the same job (same id and start), then this one. */
static void
carry(struct sq_gpuuse *g, const struct sq_snapshot *prev, int64_t now)
{
	const struct sq_gpuuse *p = prev ? sq_gpuuse_find(prev, g->id) : NULL;
	int n = 0, drop;

	if (p != NULL && p->start_time == g->start_time && p->nsamples > 0) {
		n = p->nsamples;
		drop = n >= SQ_GPUUSE_SAMPLES ? n - SQ_GPUUSE_SAMPLES + 1 : 0;
		n -= drop;
		memcpy(g->sample_at, p->sample_at + drop,
		       (size_t)n * sizeof(g->sample_at[0]));
		memcpy(g->sample_util, p->sample_util + drop,
		       (size_t)n * sizeof(g->sample_util[0]));
	}
	g->sample_at[n] = now;
	g->sample_util[n] = (int16_t)(g->util == SQ_NONE ? -1 : g->util);
	g->nsamples = n + 1;
}

/* Minutes under below, or SQ_NONE when it is not under it now. No
 * figure (no process on its GPUs) counts as under. */
static int64_t
idle_minutes(const struct sq_gpuuse *g, int64_t now, int below)
{
	int64_t since;
	int i;

	if (g->util != SQ_NONE && g->util >= below)
		return SQ_NONE;
	if (g->steps == 0)
		return SQ_NONE; /* no step reports: not judged */
	if (g->start_time != SQ_NONE &&
	    (g->util_max == SQ_NONE || pct(g->util_max, g->gpus) < below)) {
		since = g->start_time; /* the peak since the start */
	} else {
		since = now;
		for (i = g->nsamples - 1; i >= 0; i--) {
			if (g->sample_util[i] >= below)
				break;
			since = g->sample_at[i];
		}
	}
	if (since < 0)
		since = 0;
	return now > since ? (now - since) / 60 : 0;
}

void
sq_gpuuse_finish(struct sq_snapshot *s, const struct sq_snapshot *prev,
		 int64_t now, struct sq_gpuuse_cfg cfg, const char *note_all)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		struct sq_gpuuse *g = sq_snapshot_row(s, i);

		if (g->start_time != SQ_NONE && now >= g->start_time)
			g->run_s = now - g->start_time;
		if (note_all != NULL) {
			g->util = g->mem = g->util_max = g->mem_max = SQ_NONE;
			g->note = note_all;
			g->steps = 0;
			continue;
		}
		g->util = pct(g->util, g->gpus);
		g->util_max = pct(g->util_max, g->gpus);
		if (g->steps == 0)
			g->note = "no running step reports usage (sstat)";
		else if (g->util == SQ_NONE)
			g->note = "no process on its GPUs";
		carry(g, prev, now);
		g->idle_min = idle_minutes(g, now, cfg.below);
		if (g->idle_min != SQ_NONE) {
			g->wasted_mh = g->idle_min * g->gpus;
			g->idle = g->idle_min >= cfg.after;
		}
	}
}

int
sq_gpuuse_view_scope(const char *view_name)
{
	return strcmp(view_name, "gpus-idle") == 0 ? 1 : -1;
}

int
sq_gpuuse_row_scope(const void *rec)
{
	return ((const struct sq_gpuuse *)rec)->idle ? 1 : 0;
}

void
sq_gpuuse_keep(struct sq_snapshot *s, int scope)
{
	size_t i, m = 0;

	for (i = 0; i < s->nrows; i++) {
		struct sq_gpuuse *g = sq_snapshot_row(s, i);

		if (sq_gpuuse_row_scope(g) != scope)
			continue;
		if (m != i)
			memcpy(sq_snapshot_row(s, m), g, sizeof(*g));
		m++;
	}
	s->nrows = m;
}

const char *
sq_gpuuse_fmt_mem(int64_t b, char *buf, size_t n)
{
	const int64_t k = 1024, m = k * k, g = m * k;

	if (b < 0)
		return NULL;
	if (b >= g)
		snprintf(buf, n, "%.1fG", (double)b / (double)g);
	else if (b >= m)
		snprintf(buf, n, "%lldM", (long long)(b / m));
	else if (b >= k)
		snprintf(buf, n, "%lldK", (long long)(b / k));
	else
		snprintf(buf, n, "%lld", (long long)b);
	return buf;
}

const char *
sq_gpuuse_fmt_pct(int64_t v, char *buf, size_t n)
{
	if (v == SQ_NONE)
		return NULL;
	snprintf(buf, n, "%lld%%", (long long)v);
	return buf;
}
