/*
 * parse.c - small parsing helpers for Slurm's text output. No allocation;
 * strings are split in place.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/none.h"
#include "core/base/parse.h"

int
sq_split(char *line, char delim, char **fields, int max)
{
	int n = 0;
	char *p = line;

	if (max <= 0)
		return 0;
	for (;;) {
		char *d;

		if (n == max - 1) {
			fields[n++] = p;
			break;
		}
		/* fields are short: a plain loop beats a strchr call each */
		for (d = p; *d != '\0' && *d != delim; d++)
			;
		fields[n++] = p;
		if (*d == '\0')
			break;
		*d = '\0';
		p = d + 1;
	}
	return n;
}

char *
sq_next_line(char **pos)
{
	char *s = *pos, *nl;
	size_t n;

	if (s == NULL || *s == '\0')
		return NULL;
	nl = strchr(s, '\n');
	if (nl != NULL) {
		*nl = '\0';
		*pos = nl + 1;
		n = (size_t)(nl - s);
	} else {
		n = strlen(s);
		*pos = s + n;
	}
	if (n > 0 && s[n - 1] == '\r')
		s[n - 1] = '\0';
	return s;
}

size_t
sq_count_lines(const char *text)
{
	const char *p = text, *nl;
	size_t n = 0;

	while ((nl = strchr(p, '\n')) != NULL) {
		n++;
		p = nl + 1;
	}
	return n + (*p != '\0');
}

int
sq_is_none(const char *s)
{
	if (s == NULL)
		return 1;
	/* by the first byte: this runs for most fields of every line, and
	 * a name such as "normal" or "Node" must cost one compare, not a
	 * compare per spelling */
	switch (s[0]) {
	case '\0':
		return 1;
	case 'N':
		return strcmp(s + 1, "/A") == 0 || strcmp(s + 1, "one") == 0 ||
		       strcmp(s + 1, "ONE") == 0 ||
		       strcmp(s + 1, "OT_SET") == 0;
	case 'n':
		return s[1] == '/' && s[2] == 'a' && s[3] == '\0';
	case '(':
		return strcmp(s + 1, "null)") == 0;
	case 'U':
		return strcmp(s + 1, "nknown") == 0;
	default:
		return 0;
	}
}

static int
is_infinite(const char *s)
{
	switch (s[0]) {
	case 'U':
		return strcmp(s + 1, "NLIMITED") == 0;
	case 'I':
		return strcmp(s + 1, "NFINITE") == 0 ||
		       strcmp(s + 1, "nfinite") == 0;
	case 'i':
		return strcmp(s + 1, "nfinite") == 0 ||
		       strcmp(s + 1, "nf") == 0;
	default:
		return 0;
	}
}

/* strtoll(s, end, 10) with errno cleared first: a number of at most 18
 * digits (most are) in a loop, anything else by strtoll. */
static long long
dec(const char *s, char **end)
{
	long long v = 0;
	const char *p = s;

	errno = 0;
	if (*p < '0' || *p > '9')
		return strtoll(s, end, 10);
	while (*p >= '0' && *p <= '9' && p - s < 18)
		v = v * 10 + (*p++ - '0');
	if (*p >= '0' && *p <= '9')
		return strtoll(s, end, 10);
	*end = (char *)p;
	return v;
}

int
sq_parse_int(const char *s, int64_t *out)
{
	char *end;
	long long v;
	int64_t mul = 1;

	if (sq_is_none(s)) {
		*out = SQ_NONE;
		return 0;
	}
	if (is_infinite(s)) {
		*out = SQ_INFINITE;
		return 0;
	}
	v = dec(s, &end);
	if (end == s || errno != 0)
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'K':
	case 'k':
		mul = 1000;
		end++;
		break;
	case 'M':
		mul = 1000000;
		end++;
		break;
	case 'G':
		mul = 1000000000;
		end++;
		break;
	default:
		return -1;
	}
	if (*end != '\0')
		return -1;
	/* 9999999999999G does not fit: refuse it, do not overflow */
	if (v > INT64_MAX / mul || v < INT64_MIN / mul)
		return -1;
	*out = (int64_t)v * mul;
	return 0;
}

int
sq_parse_mem_mb(const char *s, int64_t *out)
{
	char *end;
	double v;

	if (sq_is_none(s)) {
		*out = SQ_NONE;
		return 0;
	}
	if (is_infinite(s)) {
		*out = SQ_INFINITE;
		return 0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno != 0)
		return -1;
	switch (*end) {
	case '\0':
	case 'M':
		break;
	case 'K':
		v /= 1024;
		break;
	case 'G':
		v *= 1024;
		break;
	case 'T':
		v *= 1024 * 1024;
		break;
	default:
		return -1;
	}
	if (*end != '\0' && end[1] != '\0')
		return -1;
	/* NaN, 1e300: out of int64_t's range (and of any memory size) */
	if (!(v > -1e18 && v < 1e18))
		return -1;
	*out = (int64_t)v;
	return 0;
}

int
sq_parse_duration(const char *s, int64_t *seconds)
{
	long d = 0, f[3];
	int nf = 0;
	const char *p = s;
	char *end;

	if (sq_is_none(s) || strcmp(s, "INVALID") == 0) {
		*seconds = SQ_NONE;
		return 0;
	}
	if (is_infinite(s)) {
		*seconds = SQ_INFINITE;
		return 0;
	}
	/* every part below 10^9, so the sums below cannot overflow */
	if (strchr(s, '-') != NULL) {
		d = strtol(p, &end, 10);
		if (end == p || *end != '-' || d < 0 || d > 999999999)
			return -1;
		p = end + 1;
	}
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return -1;
		f[nf++] = strtol(p, &end, 10);
		if (f[nf - 1] > 999999999)
			return -1;
		p = end;
		if (*p == '\0')
			break;
		if (*p != ':' || nf == 3)
			return -1;
		p++;
	}
	if (strchr(s, '-') != NULL) {
		/* days-hours[:minutes[:seconds]] */
		int64_t h = f[0], m = nf > 1 ? f[1] : 0,
			sec = nf > 2 ? f[2] : 0;

		*seconds = ((int64_t)d * 24 + h) * 3600 + m * 60 + sec;
	} else if (nf == 3) {
		*seconds = (int64_t)f[0] * 3600 + f[1] * 60 + f[2];
	} else if (nf == 2) {
		*seconds = (int64_t)f[0] * 60 + f[1];
	} else {
		*seconds = (int64_t)f[0] * 60; /* bare number is minutes */
	}
	/* and the whole below 10^9 days, so what sq_fmt_duration prints
	 * reads back ("999999919-19999" is 1000000752 days) */
	if (*seconds / 86400 > 999999999)
		return -1;
	return 0;
}

int
sq_parse_time(const char *s, int64_t *epoch)
{
	struct tm tm;
	char *end;
	long long v;

	if (sq_is_none(s) || strcmp(s, "0") == 0) {
		*epoch = SQ_NONE;
		return 0;
	}
	if (strlen(s) >= 19 && s[4] == '-' && s[10] == 'T') {
		memset(&tm, 0, sizeof(tm));
		if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year,
			   &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
			   &tm.tm_sec) != 6)
			return -1;
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		tm.tm_isdst = -1;
		*epoch = (int64_t)mktime(&tm);
		return 0;
	}
	v = dec(s, &end);
	if (end == s || *end != '\0' || errno != 0 || v < 0)
		return -1;
	*epoch = (int64_t)v;
	return 0;
}

/* v >= 0 in decimal at p: the number of digits */
static size_t
put_num(char *p, int64_t v)
{
	char t[24];
	size_t k = 0, i;

	do {
		t[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	for (i = 0; i < k; i++)
		p[i] = t[k - 1 - i];
	return k;
}

/* 0 <= v < 100 in two digits */
static size_t
put_num2(char *p, int64_t v)
{
	p[0] = (char)('0' + v / 10);
	p[1] = (char)('0' + v % 10);
	return 2;
}

void
sq_fmt_duration(int64_t seconds, char *buf, size_t n)
{
	int64_t d, h, m, sec;
	char tmp[48];
	size_t o = 0;

	if (seconds == SQ_INFINITE) {
		snprintf(buf, n, "UNLIMITED");
		return;
	}
	if (seconds < 0) {
		snprintf(buf, n, "N/A");
		return;
	}
	d = seconds / 86400;
	h = seconds / 3600 % 24;
	m = seconds / 60 % 60;
	sec = seconds % 60;
	/* by hand: the time columns of a thousand rows are printed at every
	 * keystroke; the same text as "%lld-%02lld:%02lld:%02lld" */
	if (d > 0) {
		o = put_num(tmp, d);
		tmp[o++] = '-';
		o += put_num2(tmp + o, h);
		tmp[o++] = ':';
	} else if (h > 0) {
		o = put_num(tmp, h);
		tmp[o++] = ':';
	}
	o += o == 0 ? put_num(tmp, m) : put_num2(tmp + o, m);
	tmp[o++] = ':';
	o += put_num2(tmp + o, sec);
	if (n == 0)
		return;
	if (o > n - 1)
		o = n - 1;
	memcpy(buf, tmp, o);
	buf[o] = '\0';
}

/* A key's characters past its first letter (ASCII: the same in every
 * locale; isalnum() is a call a byte, and these run on every byte of
 * scontrol's lines) */
static int
key_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == ':' || c == '/' ||
	       c == '.' || c == '[' || c == ']';
}

static int
key_first(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int
sq_is_key(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !key_first((unsigned char)s[0]))
		return 0;
	for (i = 1; i < n; i++) {
		if (!key_char((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

/* Does a Key= start at p (p is just after a space)? One pass: key
 * characters up to an '=' (a space or anything else first, and it is a
 * word of a value). */
static int
key_at(const char *p)
{
	size_t n = 1;

	if (!key_first((unsigned char)p[0]))
		return 0;
	while (key_char((unsigned char)p[n]))
		n++;
	return p[n] == '=';
}

int
sq_kv_next(char **pos, char **key, char **val)
{
	char *p = *pos, *eq, *q;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0')
		return 0;
	eq = strchr(p, '=');
	if (eq == NULL)
		return 0;
	*key = p;
	*eq = '\0';
	*val = eq + 1;
	for (q = eq + 1; *q != '\0'; q++) {
		if (*q == ' ' && key_at(q + 1))
			break;
	}
	if (*q == ' ') {
		*q = '\0';
		*pos = q + 1;
	} else {
		*pos = q;
	}
	return 1;
}

char *
sq_trim(char *p)
{
	char *e;

	while (*p == ' ' || *p == '\t')
		p++;
	e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return p;
}
