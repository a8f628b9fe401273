/*
 * openmetrics.c - the OpenMetrics text format (core/base/openmetrics.h): the
 * body is copied once and cut in place, each sample's name and labels
 * pointing into the copy. Strict where a wrong reading could pass for a
 * figure (a sample with no value, a bad escape, text after # EOF),
 * lenient where Prometheus' own format differs (no # EOF, comments).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/openmetrics.h"

static int
name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == ':';
}

static int
name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

/* The name at *p (advanced past it), NUL-terminated later by the
 * caller; its length, 0 when there is none. */
static size_t
scan_name(char **p)
{
	char *s = *p;
	size_t n;

	if (!name_start(*s))
		return 0;
	while (name_char(*s))
		s++;
	n = (size_t)(s - *p);
	*p = s;
	return n;
}

/* A label value at p (just past the opening quote): unescaped in place
 * (\\, \", \n), NUL-terminated; *end past the closing quote. 0 or -1. */
static int
scan_value(char *p, char **end)
{
	char *w = p;

	while (*p != '"') {
		if (*p == '\0')
			return -1;
		if (*p == '\\') {
			p++;
			if (*p == 'n')
				*w++ = '\n';
			else if (*p == '\\' || *p == '"')
				*w++ = *p;
			else
				return -1;
			p++;
			continue;
		}
		*w++ = *p++;
	}
	*end = p + 1;
	*w = '\0';
	return 0;
}

/* {key="value",...} at *p (on the '{'); *p past the '}'. */
static int
scan_labels(char **p, struct sq_om_sample *s)
{
	char *q = *p + 1;

	while (*q != '}') {
		char *k = q, *v;

		if (s->nlabels >= SQ_OM_MAX_LABELS || !name_start(*q))
			return -1;
		while (name_char(*q))
			q++;
		if (q[0] != '=' || q[1] != '"')
			return -1;
		*q = '\0';
		v = q + 2;
		if (scan_value(v, &q) == -1)
			return -1;
		s->label[s->nlabels].key = k;
		s->label[s->nlabels].val = v;
		s->nlabels++;
		if (*q == ',')
			q++;
		else if (*q != '}')
			return -1;
	}
	*p = q + 1;
	return 0;
}

/* A value: a number, NaN, +Inf or -Inf; the whole token. */
static int
scan_number(const char *t, double *out)
{
	char *end;

	if (strcmp(t, "NaN") == 0) {
		*out = NAN;
		return 0;
	}
	if (strcmp(t, "+Inf") == 0 || strcmp(t, "Inf") == 0) {
		*out = INFINITY;
		return 0;
	}
	if (strcmp(t, "-Inf") == 0) {
		*out = -INFINITY;
		return 0;
	}
	if (*t == '\0' || strchr("+-.0123456789", *t) == NULL)
		return -1;
	*out = strtod(t, &end);
	return *end == '\0' && !isnan(*out) && !isinf(*out) ? 0 : -1;
}

static int
push(struct sq_om *om, const struct sq_om_sample *s)
{
	if (om->n == om->cap) {
		size_t cap = om->cap ? om->cap * 2 : 64;
		struct sq_om_sample *v = realloc(om->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		om->v = v;
		om->cap = cap;
	}
	om->v[om->n++] = *s;
	return 0;
}

/* One sample line (not empty, not a comment). 0, -1 malformed, -2
 * ENOMEM. */
static int
sample_line(struct sq_om *om, char *line)
{
	struct sq_om_sample s = { 0 };
	char *p = line, *end, *tok;

	s.name = line;
	if (scan_name(&p) == 0)
		return -1;
	if (*p == '{') {
		char *brace = p;

		if (scan_labels(&p, &s) == -1)
			return -1;
		*brace = '\0';
	}
	if (*p != ' ')
		return -1;
	*p = '\0';
	tok = p + 1;
	end = tok + strcspn(tok, " ");
	if (*end == ' ') { /* a timestamp: a number, then nothing */
		double ts;

		*end = '\0';
		if (scan_number(end + 1, &ts) == -1)
			return -1;
	}
	if (scan_number(tok, &s.value) == -1)
		return -1;
	return push(om, &s) == -1 ? -2 : 0;
}

/* A "# ..." line: HELP, TYPE and UNIT need a metric name; EOF ends. */
static int
comment_line(struct sq_om *om, char *line)
{
	static const char *const kw[] = { "# HELP", "# TYPE", "# UNIT" };
	size_t k;

	if (strcmp(line, "# EOF") == 0) {
		om->eof = 1;
		return 0;
	}
	for (k = 0; k < sizeof(kw) / sizeof(kw[0]); k++) {
		char *p = line + 7;

		if (strncmp(line, kw[k], 6) != 0 ||
		    (line[6] != ' ' && line[6] != '\0'))
			continue;
		if (line[6] == '\0')
			return -1;
		return scan_name(&p) > 0 && (*p == ' ' || *p == '\0') ? 0 : -1;
	}
	return 0; /* other comments (Prometheus' format has them) */
}

static int
fail(struct sq_om *om, char *err, size_t errlen, size_t lineno, const char *why)
{
	sq_om_free(om);
	if (lineno > 0)
		snprintf(err, errlen, "line %zu: %s", lineno, why);
	else
		snprintf(err, errlen, "%s", why);
	return -1;
}

int
sq_om_parse(const char *text, size_t len, struct sq_om *om, char *err,
	    size_t errlen)
{
	char *p, *nl;
	size_t lineno = 0;

	sq_om_free(om);
	if (len > SQ_OM_MAX_BYTES)
		return fail(om, err, errlen, 0, "answer too large");
	if (len == 0)
		return 0;
	if (memchr(text, '\0', len) != NULL)
		return fail(om, err, errlen, 0, "a NUL byte in the answer");
	om->text = malloc(len + 1);
	if (om->text == NULL)
		return fail(om, err, errlen, 0, "out of memory");
	memcpy(om->text, text, len);
	om->text[len] = '\0';
	for (p = om->text; *p != '\0'; p = nl) {
		int rc = 0;

		lineno++;
		nl = p + strcspn(p, "\n");
		if (*nl == '\n')
			*nl++ = '\0';
		if (om->eof)
			return fail(om, err, errlen, lineno,
				    "text after # EOF");
		if (*p == '\0')
			continue;
		if (*p == '#')
			rc = comment_line(om, p);
		else
			rc = sample_line(om, p);
		if (rc == -2)
			return fail(om, err, errlen, 0, "out of memory");
		if (rc == -1)
			return fail(om, err, errlen, lineno,
				    *p == '#' ? "bad # line" : "bad sample");
	}
	return 0;
}

void
sq_om_free(struct sq_om *om)
{
	free(om->v);
	free(om->text);
	memset(om, 0, sizeof(*om));
}

const char *
sq_om_label(const struct sq_om_sample *s, const char *key)
{
	int i;

	for (i = 0; i < s->nlabels; i++)
		if (strcmp(s->label[i].key, key) == 0)
			return s->label[i].val;
	return NULL;
}

int
sq_om_get(const struct sq_om *om, const char *name, const char *key,
	  const char *val, double *out)
{
	size_t i;

	for (i = 0; i < om->n; i++) {
		const struct sq_om_sample *s = &om->v[i];
		const char *v;

		if (strcmp(s->name, name) != 0)
			continue;
		if (key == NULL ? s->nlabels != 0
				: (v = sq_om_label(s, key)) == NULL ||
				      strcmp(v, val) != 0)
			continue;
		*out = s->value;
		return 0;
	}
	return -1;
}
