/*
 * when.c - times for people (when.h): local time, compact by how far
 * back it is, and ages. The machine formats (tsv, json) keep the
 * columns' own text and values.
 */
#include <stdio.h>
#include <time.h>

#include "core/model/model.h"
#include "core/query/when.h"

/* a week either way: the day and the time; further, the date alone */
#define NEAR (7 * 86400)

static int
local(int64_t t, struct tm *tm)
{
	time_t tt = (time_t)t;

	if (t == SQ_NONE || t <= 0 || t == SQ_INFINITE)
		return -1;
	return localtime_r(&tt, tm) != NULL ? 0 : -1;
}

const char *
sq_when_short(int64_t t, int64_t now, char *buf, size_t n)
{
	struct tm tm, nw;

	if (n == 0 || local(t, &tm) == -1)
		return NULL;
	if (local(now, &nw) == -1)
		nw = tm;
	if (tm.tm_year == nw.tm_year && tm.tm_yday == nw.tm_yday)
		strftime(buf, n, "%H:%M", &tm);
	else if (t > now - NEAR && t < now + NEAR)
		strftime(buf, n, "%b %d %H:%M", &tm);
	else
		strftime(buf, n, "%Y-%m-%d", &tm);
	return buf;
}

const char *
sq_when_age(int64_t s, char *buf, size_t n)
{
	if (s < 0)
		s = -s;
	if (s < 60)
		snprintf(buf, n, "%llds", (long long)s);
	else if (s < 3600)
		snprintf(buf, n, "%lldm", (long long)(s / 60));
	else if (s < 86400)
		snprintf(buf, n, "%lldh", (long long)(s / 3600));
	else
		snprintf(buf, n, "%lldd", (long long)(s / 86400));
	return buf;
}

const char *
sq_when_long(int64_t t, int64_t now, char *buf, size_t n)
{
	struct tm tm, nw;
	char day[32], age[16];

	if (n == 0 || local(t, &tm) == -1)
		return NULL;
	if (local(now, &nw) == -1)
		nw = tm;
	if (tm.tm_year == nw.tm_year && tm.tm_yday == nw.tm_yday)
		strftime(day, sizeof(day), "%H:%M:%S", &tm);
	else if (t > now - NEAR && t < now + NEAR)
		strftime(day, sizeof(day), "%b %d %H:%M:%S", &tm);
	else
		strftime(day, sizeof(day), "%Y-%m-%d %H:%M:%S", &tm);
	sq_when_age(now - t, age, sizeof(age));
	if (t <= now)
		snprintf(buf, n, "%s (%s ago)", day, age);
	else
		snprintf(buf, n, "%s (in %s)", day, age);
	return buf;
}

const char *
sq_when_cell(const struct sq_column *c, const void *rec, int full, char *buf,
	     size_t n)
{
	long long v;

	if ((c->flags & SQ_COL_TIME) && c->num != NULL &&
	    c->num(rec, &v) == 0) {
		int64_t now = (int64_t)time(NULL);

		return full ? sq_when_long(v, now, buf, n)
			    : sq_when_short(v, now, buf, n);
	}
	return c->text(rec, buf, n);
}
