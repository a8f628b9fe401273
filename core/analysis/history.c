/*
 * history.c - job runs from accounting: a state's outcome, the window
 * (`:since`, --since), the field helpers the sacct and slurmdb JSON
 * parsers share, and the rows of one scope. Building the snapshot with
 * its efficiencies and summaries is history_build.c; the incremental
 * fetch history_merge.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/gres.h"
#include "core/analysis/history.h"
#include "core/analysis/gpuuse.h"
#include "core/model/model.h"
#include "core/base/parse.h"

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

/* ---- field helpers ---- */

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

void
sq_history_keep(struct sq_snapshot *s, enum sq_hist_scope scope)
{
	size_t i, m = 0;

	for (i = 0; i < s->nrows; i++) {
		struct sq_hist *h = sq_snapshot_row(s, i);

		if (h->scope != scope)
			continue;
		if (m != i)
			memcpy(sq_snapshot_row(s, m), h, sizeof(*h));
		m++;
	}
	s->nrows = m;
}

int
sq_history_bytes(const char *s, int64_t *out)
{
	static const char units[] = "KMGTP";
	const char *u;
	char *end;
	double v, mul = 1;
	int k;

	*out = SQ_NONE;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtod(s, &end);
	if (*end != '\0') {
		if ((u = strchr(units, *end)) == NULL || end[1] != '\0')
			return -1;
		for (k = 0; k <= (int)(u - units); k++)
			mul *= 1024;
	}
	if (!(v >= 0) || v * mul > 9e18)
		return -1;
	*out = (int64_t)llround(v * mul);
	return 0;
}

int
sq_history_gpu_usage(const char *tres, int64_t *util, int64_t *mem)
{
	const char *p = tres;

	*util = *mem = SQ_NONE;
	while (p != NULL && *p != '\0') {
		size_t l = strcspn(p, ",");
		int64_t *to = NULL;
		char v[32];
		size_t k = 0;

		if (strncmp(p, "gres/gpuutil=", 13) == 0) {
			to = util;
			k = 13;
		} else if (strncmp(p, "gres/gpumem=", 12) == 0) {
			to = mem;
			k = 12;
		}
		if (to != NULL) {
			if (l - k == 0 || l - k >= sizeof(v))
				return -1;
			memcpy(v, p + k, l - k);
			v[l - k] = '\0';
			if (sq_history_bytes(v, to) == -1)
				return -1;
		}
		p = p[l] == ',' ? p + l + 1 : NULL;
	}
	return 0;
}

void
sq_history_gpu_none(struct sq_snapshot *s, const char *why)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		struct sq_hist *h = sq_snapshot_row(s, i);

		if (h->scope == SQ_HIST_RUN && h->gpus > 0 &&
		    isnan(h->gpu_util_max))
			h->gpu_note = why;
	}
}

/* gpu-idle-below lives once, in the GPU use settings (core/analysis/gpuuse.h):
 * history reads and sets the same value. */
void
sq_history_idle_below_set(long pct)
{
	struct sq_gpuuse_cfg c = sq_gpuuse_cfg_get();

	sq_gpuuse_cfg_set((int)pct, c.after);
}

long
sq_history_idle_below(void)
{
	return sq_gpuuse_cfg_get().below;
}

double
sq_history_gpu_hours(const struct sq_hist *h)
{
	if (h->scope != SQ_HIST_RUN)
		return h->gpu_hours;
	return h->gpus > 0 && h->elapsed > 0
		   ? (double)h->elapsed * h->gpus / 3600
		   : 0;
}

double
sq_history_gpu_idle_hours(const struct sq_hist *h)
{
	if (h->scope != SQ_HIST_RUN)
		return h->gpu_idle_hours;
	return h->gpu_idle ? sq_history_gpu_hours(h) : 0;
}
