/*
 * spark.c - the overview's history: a fixed ring of samples per series
 * (allocated once, never per refresh) and the sparkline of the last hour,
 * in Unicode blocks or plain ASCII levels. Pure: no I/O, no curses.
 */
#include <stdlib.h>
#include <string.h>

#include "core/analysis/overview.h"

struct sq_ov_hist *
sq_ov_hist_new(void)
{
	return calloc(1, sizeof(struct sq_ov_hist));
}

const struct sq_spark *
sq_ov_hist_find(const struct sq_ov_hist *h, const char *key)
{
	size_t i;

	if (h == NULL || key == NULL || *key == '\0')
		return NULL;
	for (i = 0; i < SQ_OV_SERIES; i++) {
		if (h->s[i].key[0] != '\0' && strcmp(h->s[i].key, key) == 0)
			return &h->s[i];
	}
	return NULL;
}

/* The series of key, a free one, or the one updated longest ago. */
static struct sq_spark *
claim(struct sq_ov_hist *h, const char *key)
{
	struct sq_spark *old = &h->s[0];
	size_t i;

	for (i = 0; i < SQ_OV_SERIES; i++) {
		struct sq_spark *s = &h->s[i];

		if (s->key[0] != '\0' && strcmp(s->key, key) == 0)
			return s;
	}
	for (i = 0; i < SQ_OV_SERIES; i++) {
		struct sq_spark *s = &h->s[i];

		if (s->key[0] == '\0') {
			old = s;
			break;
		}
		if (s->last < old->last)
			old = s;
	}
	old->head = old->n = 0;
	old->last = 0;
	strncpy(old->key, key, sizeof(old->key) - 1);
	old->key[sizeof(old->key) - 1] = '\0';
	return old;
}

struct sq_spark *
sq_ov_hist_add(struct sq_ov_hist *h, const char *key, double v, time_t t)
{
	struct sq_spark *s;
	unsigned last;

	if (h == NULL || key == NULL || *key == '\0')
		return NULL;
	s = claim(h, key);
	last = (s->head + SQ_SPARK_SLOTS - 1) % SQ_SPARK_SLOTS;
	if (s->n > 0 && t < s->t[last])
		return s; /* older than what we have: ignored */
	if (s->n > 0 && t / SQ_SPARK_STEP == s->t[last] / SQ_SPARK_STEP) {
		s->v[last] = (float)v;
		s->t[last] = t;
	} else {
		s->v[s->head] = (float)v;
		s->t[s->head] = t;
		s->head = (s->head + 1) % SQ_SPARK_SLOTS;
		if (s->n < SQ_SPARK_SLOTS)
			s->n++;
	}
	s->last = t;
	return s;
}

void
sq_ov_hist_feed(struct sq_ov_hist *h, const struct sq_snapshot *ov,
		unsigned kinds)
{
	size_t i;

	if (h == NULL || ov == NULL)
		return;
	for (i = 0; i < ov->nrows; i++) {
		const struct sq_ov_row *r = sq_snapshot_row(ov, i);

		if (r->num < 0 || !(kinds & (1u << (unsigned)r->src)))
			continue;
		sq_ov_hist_add(h, r->id, (double)r->num, ov->fetched);
	}
}

size_t
sq_spark_values(const struct sq_spark *s, time_t now, double *out, size_t max)
{
	unsigned first, i, n = 0;
	size_t k, group, o = 0;

	if (s == NULL || max == 0)
		return 0;
	/* the samples of the last hour: the newest n of the ring */
	for (i = 0; i < s->n; i++) {
		unsigned at =
		    (s->head + SQ_SPARK_SLOTS - 1 - i) % SQ_SPARK_SLOTS;

		if (now - s->t[at] >= SQ_SPARK_SPAN)
			break;
		n++;
	}
	first = (s->head + SQ_SPARK_SLOTS - n) % SQ_SPARK_SLOTS;
	group = (n + max - 1) / max;
	if (group == 0)
		return 0;
	/* groups end at the newest sample, so the right edge is now */
	k = n % group;
	for (i = 0; i < n;) {
		size_t len = o == 0 && k != 0 ? k : group, j;
		double m = s->v[(first + i) % SQ_SPARK_SLOTS];

		for (j = 1; j < len && i + j < n; j++) {
			double x = s->v[(first + i + j) % SQ_SPARK_SLOTS];

			if (x > m)
				m = x;
		}
		out[o++] = m;
		i += (unsigned)len;
	}
	return o;
}

size_t
sq_spark_render(const double *v, size_t n, int plain, char *buf, size_t len)
{
	static const char ascii[] = "_.-~=+*#";
	double lo, hi;
	size_t i, o = 0, each = plain ? 1 : 3;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (n == 0)
		return 0;
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	for (i = 0; i < n && o + each < len; i++) {
		int level;

		if (hi > lo)
			level = (int)((v[i] - lo) / (hi - lo) * 7 + 0.5);
		else
			level = v[i] > 0 ? 3 : 0;
		if (level < 0)
			level = 0;
		if (level > 7)
			level = 7;
		if (plain) {
			buf[o++] = ascii[level];
		} else {
			/* U+2581 + level: E2 96 81..88 */
			buf[o++] = (char)0xe2;
			buf[o++] = (char)0x96;
			buf[o++] = (char)(0x81 + level);
		}
	}
	buf[o] = '\0';
	return i;
}
