/*
 * diag_trend.c - the diag view's "changed" rows (diag_trend.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/diag_trend.h"
#include "core/model/model_admin.h"
#include "core/analysis/overview.h"
#include "core/analysis/rpc.h"

/* a level is shown as it is; a counter as its rate per minute */
enum mode { LEVEL, RATE };

static const struct series {
	const char *section, *key, *label;
	enum mode mode;
} series[] = {
	{ "general", "Server thread count", "server threads", LEVEL },
	{ "general", "Agent queue size", "agent queue", LEVEL },
	{ "general", "DBD Agent queue size", "dbd agent queue", LEVEL },
	{ "backfill", "Last cycle", "backfill cycle (us)", LEVEL },
	{ "backfill", "Total cycles", "backfill cycles", RATE },
	{ "main", "Last cycle", "main cycle (us)", LEVEL },
	{ "general", "Jobs submitted", "jobs submitted", RATE },
	{ "general", "Jobs started", "jobs started", RATE },
};
#define NSERIES (sizeof(series) / sizeof(series[0]))

struct sq_diag_hist {
	int n;
	time_t t[SQ_DIAG_KEEP];
	double v[NSERIES][SQ_DIAG_KEEP]; /* NAN: not printed */
};

struct sq_diag_hist *
sq_diag_hist_new(void)
{
	return calloc(1, sizeof(struct sq_diag_hist));
}

void
sq_diag_hist_free(struct sq_diag_hist *h)
{
	free(h);
}

static double
lookup(const struct sq_snapshot *diag, const char *section, const char *key)
{
	size_t i;

	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);
		char *end;
		double v;

		if (strcmp(kv->section, section) != 0 ||
		    strcmp(kv->key, key) != 0)
			continue;
		v = strtod(kv->value, &end);
		return end != kv->value ? v : NAN;
	}
	return NAN;
}

static void
record(const struct sq_snapshot *diag, struct sq_diag_hist *h)
{
	time_t t = sq_diag_time(diag);
	size_t k;

	if (h->n == 0 || h->t[h->n - 1] != t) {
		if (h->n == SQ_DIAG_KEEP) {
			memmove(h->t, h->t + 1,
				(SQ_DIAG_KEEP - 1) * sizeof(h->t[0]));
			for (k = 0; k < NSERIES; k++)
				memmove(h->v[k], h->v[k] + 1,
					(SQ_DIAG_KEEP - 1) * sizeof(double));
			h->n--;
		}
		h->n++;
	}
	h->t[h->n - 1] = t;
	for (k = 0; k < NSERIES; k++)
		h->v[k][h->n - 1] =
		    lookup(diag, series[k].section, series[k].key);
}

/* point i of series k: the level, or the rate from i - 1 (NAN: none) */
static double
point(const struct sq_diag_hist *h, size_t k, int i)
{
	double dt;

	if (series[k].mode == LEVEL)
		return h->v[k][i];
	if (i == 0)
		return NAN;
	dt = difftime(h->t[i], h->t[i - 1]);
	if (dt <= 0 || isnan(h->v[k][i]) || isnan(h->v[k][i - 1]) ||
	    h->v[k][i] < h->v[k][i - 1])
		return NAN;
	return (h->v[k][i] - h->v[k][i - 1]) * 60.0 / dt;
}

static void
spark(const struct sq_diag_hist *h, size_t k, char *buf, size_t n)
{
	double v[SQ_DIAG_KEEP];
	size_t m = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < h->n; i++) {
		double p = point(h, k, i);

		if (!isnan(p))
			v[m++] = p;
	}
	if (m >= 2)
		sq_spark_render(v, m, 0, buf, n);
}

/* "5 (was 2) ▁▃▅", "12.0/min ▁▂", "3 (one read so far)" */
static void
text(const struct sq_diag_hist *h, size_t k, char *buf, size_t n)
{
	char sp[3 * SQ_DIAG_KEEP + 1];
	double cur = point(h, k, h->n - 1);

	spark(h, k, sp, sizeof(sp));
	if (series[k].mode == LEVEL && h->n >= 2 && !isnan(h->v[k][h->n - 2]))
		snprintf(buf, n, "%.0f (was %.0f) %s", cur, h->v[k][h->n - 2],
			 sp);
	else if (series[k].mode == LEVEL)
		snprintf(buf, n, "%.0f (one read so far)", cur);
	else if (isnan(cur))
		snprintf(buf, n, "%s",
			 h->n < 2 ? "a rate from the next refresh on"
				  : "no rate (the counters were reset)");
	else
		snprintf(buf, n, "%.1f/min %s", cur, sp);
}

static int
add(struct sq_snapshot *s, const char *section, const char *key,
    const char *value)
{
	struct sq_kv *kv = sq_snapshot_add(s);

	if (kv == NULL)
		return -1;
	kv->section = section;
	kv->key = sq_snapshot_str(s, key);
	kv->value = sq_snapshot_str(s, value);
	return kv->key != NULL && kv->value != NULL ? 0 : -1;
}

int
sq_diag_trend(const struct sq_snapshot *diag, struct sq_diag_hist *h,
	      struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new(diag->kind, diag->rowsize);
	char buf[160];
	size_t k, i;

	*out = NULL;
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	record(diag, h);
	s->fetched = diag->fetched;
	s->fetch_ms = diag->fetch_ms;
	s->source = diag->source ? sq_snapshot_str(s, diag->source) : NULL;
	s->note = diag->note ? sq_snapshot_str(s, diag->note) : NULL;
	for (k = 0; k < NSERIES; k++) {
		if (isnan(h->v[k][h->n - 1]))
			continue;
		text(h, k, buf, sizeof(buf));
		if (add(s, "changed", series[k].label, buf) == -1)
			goto oom;
	}
	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);
		const char *sec = sq_snapshot_str(s, kv->section);

		if (sec == NULL || add(s, sec, kv->key, kv->value) == -1)
			goto oom;
	}
	*out = s;
	return 0;
oom:
	sq_snapshot_unref(s);
	return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
}
