/*
 * resv.c - the words of a reservation action: its times (validated,
 * turned into epochs for the impact and the check after, written back
 * for an undo) and its flags. The impact is resv_impact.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/action/resv.h"

static const struct {
	const char *name;
	int64_t secs;
} units[] = {
	{ "seconds", 1 },   { "second", 1 },   { "minutes", 60 },
	{ "minute", 60 },   { "hours", 3600 }, { "hour", 3600 },
	{ "days", 86400 },  { "day", 86400 },  { "weeks", 604800 },
	{ "week", 604800 },
};

/* Flags a reservation may be given (scontrol's names). */
static const char *const settable[] = { "MAINT",
					"IGNORE_JOBS",
					"OVERLAP",
					"FLEX",
					"MAGNETIC",
					"DAILY",
					"WEEKLY",
					"WEEKDAY",
					"WEEKEND",
					"HOURLY",
					"ANY_NODES",
					"STATIC_ALLOC",
					"PART_NODES",
					"PURGE_COMP",
					"REPLACE",
					"REPLACE_DOWN",
					"FIRST_CORES",
					"TIME_FLOAT",
					"NO_HOLD_JOBS_AFTER",
					"USER_DELETE",
					"FORCE_START",
					"LICENSE_ONLY",
					NULL };

/* now[+N[unit]]: the offset in seconds, -1 when not that shape */
static int64_t
relative(const char *s)
{
	const char *p;
	char *end;
	long long v;
	size_t i;

	if (strncasecmp(s, "now", 3) != 0)
		return -1;
	p = s + 3;
	if (*p == '\0')
		return 0;
	if (*p != '+' || !isdigit((unsigned char)p[1]) || strlen(p) > 20)
		return -1;
	v = strtoll(p + 1, &end, 10);
	if (v < 0 || v > 100000000LL)
		return -1;
	if (*end == '\0')
		return (int64_t)v;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].name) == 0)
			return (int64_t)v * units[i].secs;
	}
	return -1;
}

/* YYYY-MM-DD[THH:MM[:SS]] into tm; -1 when not that shape */
static int
absolute(const char *s, struct tm *tm)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, k = 0;
	size_t len = strlen(s);

	memset(tm, 0, sizeof(*tm));
	if (len == 10 && sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &k) == 3 &&
	    k == 10)
		;
	else if (len == 16 &&
		 sscanf(s, "%4d-%2d-%2dT%2d:%2d%n", &y, &mo, &d, &h, &mi, &k) ==
		     5 &&
		 k == 16)
		;
	else if (len == 19 &&
		 sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi,
			&sec, &k) == 6 &&
		 k == 19)
		;
	else
		return -1;
	if (strspn(s, "0123456789-T:") != len || y < 1970 || y > 2999 ||
	    mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 59)
		return -1;
	tm->tm_year = y - 1900;
	tm->tm_mon = mo - 1;
	tm->tm_mday = d;
	tm->tm_hour = h;
	tm->tm_min = mi;
	tm->tm_sec = sec;
	tm->tm_isdst = -1;
	return 0;
}

int
sq_resv_time(const char *s, time_t now, int64_t *out, int *rel)
{
	struct tm tm;
	int64_t off;
	time_t t;

	if (s == NULL)
		return -1;
	if ((off = relative(s)) >= 0) {
		*out = (int64_t)now + off;
		if (rel != NULL)
			*rel = 1;
		return 0;
	}
	if (absolute(s, &tm) == -1 || (t = mktime(&tm)) == (time_t)-1)
		return -1;
	*out = (int64_t)t;
	if (rel != NULL)
		*rel = 0;
	return 0;
}

int
sq_resv_valid_time(const char *s, struct sq_err *err)
{
	int64_t t;

	if (sq_resv_time(s, 0, &t, NULL) == -1)
		return sq_err_set(
		    err, SQ_ERR_DENIED,
		    "invalid time '%.40s' (now, now+N"
		    "minutes|hours|days, YYYY-MM-DD[THH:MM[:SS]])",
		    s ? s : "");
	return 0;
}

void
sq_resv_time_format(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(buf, n, "now");
}

/* Is name (any case) one of list's? */
static int
name_in(const char *const *list, const char *name)
{
	size_t i;

	for (i = 0; list[i] != NULL; i++) {
		if (strcasecmp(list[i], name) == 0)
			return 1;
	}
	return 0;
}

int
sq_resv_flag_settable(const char *name)
{
	return name_in(settable, name);
}

int
sq_resv_valid_flags(const char *s, char *out, size_t n, struct sq_err *err)
{
	char copy[512], *tok, *save = NULL;
	size_t off = 0, i;

	if (s == NULL || *s == '\0' || strlen(s) >= sizeof(copy) ||
	    strlen(s) >= n)
		return sq_err_set(err, SQ_ERR_DENIED, "invalid flags");
	snprintf(copy, sizeof(copy), "%s", s);
	out[0] = '\0';
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!sq_resv_flag_settable(tok))
			return sq_err_set(err, SQ_ERR_DENIED,
					  "unknown reservation flag '%.40s' "
					  "(MAINT, IGNORE_JOBS, OVERLAP, "
					  "FLEX, DAILY ...)",
					  tok);
		if (off)
			out[off++] = ',';
		for (i = 0; tok[i] != '\0'; i++)
			out[off++] = (char)toupper((unsigned char)tok[i]);
		out[off] = '\0';
	}
	if (off == 0)
		return sq_err_set(err, SQ_ERR_DENIED, "invalid flags");
	return 0;
}

/* Flags an update may add (+) or take away (-): those scontrol parses
 * with either sign (others are for the create only). */
static const char *const changeable[] = {
	"MAINT",        "IGNORE_JOBS", "FLEX",        "MAGNETIC", "DAILY",
	"WEEKLY",       "WEEKDAY",     "WEEKEND",     "HOURLY",   "ANY_NODES",
	"STATIC_ALLOC", "PART_NODES",  "USER_DELETE", NULL
};

int
sq_resv_valid_flag_changes(const char *s, char *out, size_t n,
			   struct sq_err *err)
{
	char copy[512], *tok, *save = NULL;
	char sign = '+';
	size_t off = 0, i;

	if (s == NULL || *s == '\0' || strlen(s) >= sizeof(copy) ||
	    2 * strlen(s) + 1 >= n)
		return sq_err_set(err, SQ_ERR_DENIED, "invalid flags");
	snprintf(copy, sizeof(copy), "%s", s);
	out[0] = '\0';
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		/* a sign holds for the names after it, as in scontrol */
		if (*tok == '+' || *tok == '-')
			sign = *tok++;
		if (!name_in(changeable, tok))
			return sq_err_set(
			    err, SQ_ERR_DENIED,
			    "reservation flag '%.40s' cannot be changed on an "
			    "update (+ or - one of MAINT, IGNORE_JOBS, FLEX, "
			    "MAGNETIC, DAILY, WEEKLY, WEEKDAY, WEEKEND, "
			    "HOURLY, ANY_NODES, STATIC_ALLOC, PART_NODES, "
			    "USER_DELETE)",
			    tok);
		if (off)
			out[off++] = ',';
		out[off++] = sign;
		for (i = 0; tok[i] != '\0'; i++)
			out[off++] = (char)toupper((unsigned char)tok[i]);
		out[off] = '\0';
	}
	if (off == 0)
		return sq_err_set(err, SQ_ERR_DENIED, "invalid flags");
	return 0;
}

int
sq_resv_check(const struct sq_action *a, struct sq_err *err)
{
	/* each pair: one of the two is needed */
	static const char *const needs[][2] = {
		{ "duration", "end" },
		{ "nodes", "partition" },
		{ "users", "accounts" },
	};
	const char *u = a->def->usage;
	size_t i;

	if (a->ntargets != 1)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "reserve: one reservation name (usage: %s)",
				  u);
	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		if (sq_action_arg(a, needs[i][0]) == NULL &&
		    sq_action_arg(a, needs[i][1]) == NULL)
			return sq_err_set(
			    err, SQ_ERR_USAGE,
			    "reserve needs %s= or %s= (usage: %s)", needs[i][0],
			    needs[i][1], u);
	}
	return 0;
}

void
sq_resv_span(int64_t s, char *buf, size_t n)
{
	if (s < 0)
		s = -s;
	if (s >= 86400)
		snprintf(buf, n, "%lldd%02lldh", (long long)(s / 86400),
			 (long long)(s % 86400 / 3600));
	else if (s >= 3600)
		snprintf(buf, n, "%lldh%02lldm", (long long)(s / 3600),
			 (long long)(s % 3600 / 60));
	else if (s >= 60)
		snprintf(buf, n, "%lldm", (long long)(s / 60));
	else
		snprintf(buf, n, "%llds", (long long)s);
}

void
sq_resv_starts_in(int64_t start, int64_t end, time_t now, char *buf, size_t n)
{
	char s[24];

	if (start < 0) {
		snprintf(buf, n, "?");
	} else if (start > (int64_t)now) {
		sq_resv_span(start - (int64_t)now, s, sizeof(s));
		snprintf(buf, n, "in %s", s);
	} else if (end < 0 || end > (int64_t)now) {
		if (end < 0) {
			snprintf(buf, n, "active");
		} else {
			sq_resv_span(end - (int64_t)now, s, sizeof(s));
			snprintf(buf, n, "active, %s left", s);
		}
	} else {
		snprintf(buf, n, "ended");
	}
}

void
sq_resv_strip(int64_t start, int64_t end, time_t now, char *buf, size_t n)
{
	const int64_t slot = 86400 / SQ_RESV_STRIP_SLOTS;
	struct tm tm;
	time_t t0;
	size_t off = 0;
	int d, k;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (localtime_r(&now, &tm) == NULL)
		return;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	if ((t0 = mktime(&tm)) == (time_t)-1)
		return;
	for (d = 0; d < SQ_RESV_STRIP_DAYS; d++) {
		if (d > 0 && off + 1 < n)
			buf[off++] = '|';
		for (k = 0; k < SQ_RESV_STRIP_SLOTS && off + 1 < n; k++) {
			int64_t a =
			    (int64_t)t0 +
			    ((int64_t)d * SQ_RESV_STRIP_SLOTS + k) * slot;
			int on = start >= 0 && start < a + slot &&
				 (end < 0 || end > a);

			buf[off++] = on ? '#' : '.';
		}
	}
	buf[off] = '\0';
}
