/*
 * spec_value.c - is a slurm.conf value as declared the same setting as
 * what `scontrol show config` prints? Units, case, lists and "not set"
 * normalised the way Slurm reads slurm.conf. Pure string work.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/model/model.h"
#include "core/base/parse.h"
#include "core/spec/spec.h"

#define VAL_MAX 1024
#define LIST_MAX 64

static void
trim_copy(const char *s, char *out, size_t n)
{
	size_t l;

	while (*s == ' ' || *s == '\t')
		s++;
	snprintf(out, n, "%s", s);
	l = strlen(out);
	while (l > 0 && (out[l - 1] == ' ' || out[l - 1] == '\t'))
		out[--l] = '\0';
}

static int
not_set(const char *s)
{
	return sq_is_none(s) || strcasecmp(s, "none") == 0 ||
	       strcasecmp(s, "(null)") == 0;
}

/* 1 yes, 0 no, -1 neither */
static int
yes_no(const char *s)
{
	if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "true") == 0 ||
	    strcasecmp(s, "on") == 0)
		return 1;
	if (strcasecmp(s, "no") == 0 || strcasecmp(s, "false") == 0 ||
	    strcasecmp(s, "off") == 0)
		return 0;
	return -1;
}

static int
is_number(const char *s, double *v)
{
	char *end;

	if (*s == '\0')
		return 0;
	*v = strtod(s, &end);
	return end != s && *end == '\0';
}

static int
unlimited(const char *s)
{
	return strcasecmp(s, "UNLIMITED") == 0 ||
	       strcasecmp(s, "INFINITE") == 0;
}

/*
 * A number with a time unit: "10 sec", "2000 usec", "5min", "30s".
 * def_us is the unit of a bare number in microseconds (0: no bare
 * numbers). Returns 0 with *us set, -1 when s is not such a value.
 */
static int
unit_value(const char *s, long long def_us, long long *us)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	static const struct {
		const char *name;
		long long us;
	} units[] = {
		{ "usec", 1 },           { "us", 1 },
		{ "msec", 1000 },        { "ms", 1000 },
		{ "sec", 1000000 },      { "secs", 1000000 },
		{ "s", 1000000 },        { "seconds", 1000000 },
		{ "min", 60000000 },     { "mins", 60000000 },
		{ "minutes", 60000000 },
	};
	size_t i;

	if (end == s || v < 0 || !isdigit((unsigned char)*s))
		return -1;
	while (*end == ' ')
		end++;
	if (*end == '\0') {
		if (def_us == 0)
			return -1;
		*us = v * def_us;
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].name) == 0) {
			*us = v * units[i].us;
			return 0;
		}
	}
	return -1;
}

/* Does s look like a Slurm time string: [days-]h:m:s, m:s, days-h? */
static int
is_time_string(const char *s)
{
	const char *p;
	int sep = 0;

	for (p = s; *p != '\0'; p++) {
		if (*p == ':' || *p == '-')
			sep = 1;
		else if (!isdigit((unsigned char)*p))
			return 0;
	}
	return sep && isdigit((unsigned char)*s);
}

/*
 * A declared time: a Slurm time string (a bare number is minutes, as
 * slurm.conf reads PriorityMaxAge or PreemptExemptTime) or a number with
 * a unit ("600 sec", "600s").
 */
static int
declared_seconds(const char *s, int64_t *sec)
{
	long long us;

	if (unlimited(s)) {
		*sec = SQ_INFINITE;
		return 0;
	}
	if (unit_value(s, 0, &us) == 0) {
		*sec = us / 1000000;
		return 0;
	}
	return sq_parse_duration(s, sec);
}

static int
cmp_item(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add the items AccountingStorageEnforce implies, as slurmctld does. */
static int
enforce_implied(char **items, int n, char *extra, size_t xn)
{
	int i, assoc = 0, limits = 0;
	size_t used = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(items[i], "limits") == 0 ||
		    strcmp(items[i], "qos") == 0 ||
		    strcmp(items[i], "wckeys") == 0 ||
		    strcmp(items[i], "safe") == 0)
			assoc = 1;
		if (strcmp(items[i], "safe") == 0)
			limits = 1;
	}
	if (assoc && n < LIST_MAX && used + 13 < xn) {
		memcpy(extra + used, "associations", 13);
		items[n++] = extra + used;
		used += 13;
	}
	if (limits && n < LIST_MAX && used + 7 < xn) {
		memcpy(extra + used, "limits", 7);
		items[n++] = extra + used;
	}
	return n;
}

/* Split a comma list in place into lower-case, trimmed, sorted, unique
 * items; returns the count. */
static int
list_items(char *s, const char *key, char **items, char *extra, size_t xn)
{
	int n = 0, i, u;
	char *p = s;

	while (p != NULL && n < LIST_MAX) {
		char *tok = p, *e, *comma = strchr(p, ',');

		if (comma != NULL)
			*comma = '\0';
		p = comma ? comma + 1 : NULL;
		while (*tok == ' ')
			tok++;
		e = tok + strlen(tok);
		while (e > tok && e[-1] == ' ')
			*--e = '\0';
		if (*tok == '\0')
			continue;
		for (e = tok; *e != '\0'; e++)
			*e = (char)tolower((unsigned char)*e);
		items[n++] = tok;
	}
	if (strcasecmp(key, "AccountingStorageEnforce") == 0)
		n = enforce_implied(items, n, extra, xn);
	qsort(items, (size_t)n, sizeof(*items), cmp_item);
	for (i = 1, u = n ? 1 : 0; i < n; i++) {
		if (strcmp(items[i], items[u - 1]) != 0)
			items[u++] = items[i];
	}
	return u;
}

static int
lists_equal(const char *key, const char *a, const char *b)
{
	char ca[VAL_MAX], cb[VAL_MAX], xa[32], xb[32];
	char *ia[LIST_MAX], *ib[LIST_MAX];
	int na, nb, i;

	snprintf(ca, sizeof(ca), "%s", a);
	snprintf(cb, sizeof(cb), "%s", b);
	na = list_items(ca, key, ia, xa, sizeof(xa));
	nb = list_items(cb, key, ib, xb, sizeof(xb));
	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		if (strcmp(ia[i], ib[i]) != 0)
			return 0;
	}
	return 1;
}

static int
is_mem_key(const char *key)
{
	return strstr(key, "Mem") != NULL || strstr(key, "mem") != NULL;
}

int
sq_spec_value_equal(const char *key, const char *declared, const char *live)
{
	char d[VAL_MAX], l[VAL_MAX];
	long long lus, dus;
	double dv, lv;
	int yd, yl;

	trim_copy(declared ? declared : "", d, sizeof(d));
	trim_copy(live ? live : "", l, sizeof(l));
	if (not_set(d) && not_set(l))
		return 1;
	if (strcasecmp(d, l) == 0)
		return 1;
	yd = yes_no(d);
	yl = yes_no(l);
	if (yd >= 0 && yl >= 0)
		return yd == yl;
	/* "10 sec", "2000 usec": a bare declared number is in that unit */
	if (unit_value(l, 0, &lus) == 0) {
		const char *u = l;
		char one[40];
		long long def;

		while (isdigit((unsigned char)*u) || *u == ' ')
			u++;
		one[0] = '1';
		one[1] = ' ';
		snprintf(one + 2, sizeof(one) - 2, "%.30s", u);
		if (unit_value(one, 0, &def) != 0)
			def = 1000000;
		if (unit_value(d, def, &dus) == 0)
			return dus == lus;
		if (is_time_string(d)) {
			int64_t s;

			if (sq_parse_duration(d, &s) == 0 && s >= 0)
				return s * 1000000LL == lus;
		}
		return 0;
	}
	/* time strings: PriorityMaxAge = 00:10:00, PriorityDecayHalfLife =
	 * 1-00:00:00; Slurm reads a bare number as minutes */
	if (is_time_string(l) || (unlimited(l) && !is_mem_key(key))) {
		int64_t ls, ds;

		if (sq_parse_duration(l, &ls) == 0 &&
		    declared_seconds(d, &ds) == 0)
			return ls == ds;
		return 0;
	}
	if (is_mem_key(key)) {
		int64_t lm, dm;

		if (sq_parse_mem_mb(l, &lm) == 0 &&
		    sq_parse_mem_mb(d, &dm) == 0)
			return lm == dm;
	}
	if (is_number(d, &dv) && is_number(l, &lv))
		return dv == lv;
	if (strchr(d, ',') != NULL || strchr(l, ',') != NULL)
		return lists_equal(key, d, l);
	if (strcasecmp(key, "AccountingStorageEnforce") == 0)
		return lists_equal(key, d, l);
	return 0;
}

const char *
sq_spec_config_value(const struct sq_snapshot *config, const char *key)
{
	size_t i;

	if (config == NULL)
		return NULL;
	for (i = 0; i < config->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(config, i);

		if (kv->section[0] == '\0' && strcasecmp(kv->key, key) == 0)
			return kv->value;
	}
	return NULL;
}
