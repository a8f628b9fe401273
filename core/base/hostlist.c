/*
 * hostlist.c - expand, test and fold Slurm host lists. Pure string work:
 * no I/O, no cluster; bounded by SQ_HOSTLIST_MAX names of 255 bytes so a
 * hostile "n[0-999999999]" cannot eat the machine.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hostlist.h"
#include "core/base/parse.h"

#define NAME_MAX_LEN 256

struct expand_ctx {
	int (*fn)(void *arg, const char *name);
	void *arg;
	long count;
};

static int
bad_char(int c)
{
	return c <= ' ' || c == 0x7f || c == '[' || c == ']' || c == ',';
}

/* Expand term (which may hold bracket groups) after the prefix in buf. */
static int
expand_term(struct expand_ctx *x, char *buf, size_t blen, const char *term,
	    const char *end)
{
	const char *open = memchr(term, '[', (size_t)(end - term));
	const char *close, *p;
	size_t plen;

	if (open == NULL) {
		size_t l = (size_t)(end - term);

		for (p = term; p < end; p++) {
			if (bad_char((unsigned char)*p))
				return -1;
		}
		if (blen + l >= NAME_MAX_LEN)
			return -1;
		memcpy(buf + blen, term, l);
		buf[blen + l] = '\0';
		if (blen + l == 0)
			return -1; /* empty name */
		if (++x->count > SQ_HOSTLIST_MAX)
			return -1;
		return x->fn(x->arg, buf);
	}
	close = memchr(open, ']', (size_t)(end - open));
	if (close == NULL)
		return -1;
	plen = (size_t)(open - term);
	for (p = term; p < open; p++) {
		if (bad_char((unsigned char)*p))
			return -1;
	}
	if (blen + plen >= NAME_MAX_LEN)
		return -1;
	memcpy(buf + blen, term, plen);
	blen += plen;
	/* items of the bracket: N or N-M */
	for (p = open + 1; p < close;) {
		const char *q = p;
		unsigned long lo, hi, v;
		int width;
		char *e;

		if (!isdigit((unsigned char)*q))
			return -1;
		lo = strtoul(q, &e, 10);
		width = (int)(e - q);
		hi = lo;
		q = e;
		if (*q == '-') {
			q++;
			if (!isdigit((unsigned char)*q))
				return -1;
			hi = strtoul(q, &e, 10);
			q = e;
		}
		if (q > close || (q < close && *q != ',') || hi < lo ||
		    hi - lo >= SQ_HOSTLIST_MAX || width > 18)
			return -1;
		for (v = lo; v <= hi; v++) {
			char num[32];
			int k = snprintf(num, sizeof(num), "%0*lu", width, v);
			int rc;

			if (k < 0 || blen + (size_t)k >= NAME_MAX_LEN)
				return -1;
			memcpy(buf + blen, num, (size_t)k);
			rc = expand_term(x, buf, blen + (size_t)k, close + 1,
					 end);
			if (rc != 0)
				return rc;
		}
		p = q < close ? q + 1 : q;
	}
	if (close == open + 1)
		return -1; /* "[]" */
	return 0;
}

int
sq_hostlist_expand(const char *expr, int (*fn)(void *arg, const char *name),
		   void *arg)
{
	struct expand_ctx x = { fn, arg, 0 };
	char buf[NAME_MAX_LEN];
	const char *p = expr, *start;
	int depth = 0;

	if (expr == NULL || sq_is_none(expr))
		return 0;
	for (start = p;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if (depth < 0 || depth > 1)
			return -1;
		if ((*p == ',' && depth == 0) || *p == '\0') {
			int rc;

			if (depth != 0)
				return -1;
			if (p == start)
				return -1; /* empty term: "a,,b" */
			rc = expand_term(&x, buf, 0, start, p);
			if (rc != 0)
				return rc;
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	return 0;
}

static int
count_one(void *arg, const char *name)
{
	(void)name;
	(*(long *)arg)++;
	return 0;
}

long
sq_hostlist_count(const char *expr)
{
	long n = 0;

	if (sq_hostlist_expand(expr, count_one, &n) != 0)
		return -1;
	return n;
}

struct match_ctx {
	const char *name;
};

static int
match_one(void *arg, const char *name)
{
	return strcmp(((struct match_ctx *)arg)->name, name) == 0 ? 1 : 0;
}

int
sq_hostlist_contains(const char *expr, const char *name)
{
	struct match_ctx m = { name };

	return sq_hostlist_expand(expr, match_one, &m) == 1;
}

struct names_ctx {
	char **v;
	size_t n, cap;
};

static int
add_name(void *arg, const char *name)
{
	struct names_ctx *c = arg;

	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 16;
		char **nv = realloc(c->v, ncap * sizeof(*nv));

		if (nv == NULL)
			return -1;
		c->v = nv;
		c->cap = ncap;
	}
	c->v[c->n] = strdup(name);
	if (c->v[c->n] == NULL)
		return -1;
	c->n++;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
sq_hostlist_free_names(char **names, size_t n)
{
	size_t i;

	if (names == NULL)
		return;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

char **
sq_hostlist_names(const char *expr, size_t *n)
{
	struct names_ctx c = { NULL, 0, 0 };
	size_t i, j;

	if (sq_hostlist_expand(expr, add_name, &c) != 0) {
		sq_hostlist_free_names(c.v, c.n);
		*n = (size_t)-1;
		return NULL;
	}
	if (c.n == 0) {
		free(c.v);
		*n = 0;
		return NULL;
	}
	qsort(c.v, c.n, sizeof(*c.v), cmp_str);
	for (i = 1, j = 1; i < c.n; i++) {
		if (strcmp(c.v[i], c.v[j - 1]) == 0)
			free(c.v[i]);
		else
			c.v[j++] = c.v[i];
	}
	*n = j;
	return c.v;
}

/* A name split at its trailing number: prefix, value and pad width. */
struct host_key {
	const char *name;
	size_t plen; /* length of the prefix */
	unsigned long long num;
	int width; /* 0: no number; else digits (padded if '0') */
	int padded;
};

static void
host_key(const char *name, struct host_key *k)
{
	size_t l = strlen(name), d = l;

	while (d > 0 && isdigit((unsigned char)name[d - 1]) && l - d < 18)
		d--;
	k->name = name;
	k->plen = d;
	k->width = (int)(l - d);
	k->num = k->width ? strtoull(name + d, NULL, 10) : 0;
	k->padded = k->width > 1 && name[d] == '0';
}

/* Hosts fold together when prefix and padding agree. */
static int
same_group(const struct host_key *a, const struct host_key *b)
{
	if (a->width == 0 || b->width == 0)
		return 0;
	if (a->plen != b->plen || memcmp(a->name, b->name, a->plen) != 0)
		return 0;
	if (a->padded || b->padded)
		return a->width == b->width;
	return 1;
}

static int
cmp_key(const void *pa, const void *pb)
{
	const struct host_key *a = pa, *b = pb;
	size_t m = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->name, b->name, m);

	if (c != 0)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if (a->width == 0 || b->width == 0)
		return a->width - b->width;
	if ((a->padded || b->padded) && a->width != b->width)
		return a->width - b->width;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void
put_num(struct sq_buf *out, const struct host_key *k)
{
	sq_buf_printf(out, "%0*llu", k->padded ? k->width : 0, k->num);
}

int
sq_hostlist_fold(const char *const *names, size_t n, struct sq_buf *out)
{
	struct host_key *k;
	size_t i, j, u = 0;
	int first = 1;

	if (n == 0)
		return 0;
	k = calloc(n, sizeof(*k));
	if (k == NULL)
		return -1;
	for (i = 0; i < n; i++)
		host_key(names[i], &k[i]);
	qsort(k, n, sizeof(*k), cmp_key);
	for (i = 0; i < n; i++) { /* drop duplicates */
		if (u > 0 && strcmp(k[u - 1].name, k[i].name) == 0)
			continue;
		k[u++] = k[i];
	}
	for (i = 0; i < u; i = j) {
		size_t members = 1;

		for (j = i + 1; j < u && same_group(&k[i], &k[j]); j++)
			members++;
		if (!first)
			sq_buf_append(out, ",", 1);
		first = 0;
		if (members == 1) {
			sq_buf_printf(out, "%s", k[i].name);
			continue;
		}
		sq_buf_append(out, k[i].name, k[i].plen);
		sq_buf_append(out, "[", 1);
		{
			size_t a = i, b;

			while (a < j) {
				b = a;
				while (b + 1 < j &&
				       k[b + 1].num == k[b].num + 1)
					b++;
				if (a != i)
					sq_buf_append(out, ",", 1);
				put_num(out, &k[a]);
				if (b > a) {
					sq_buf_append(out, "-", 1);
					put_num(out, &k[b]);
				}
				a = b + 1;
			}
		}
		sq_buf_append(out, "]", 1);
	}
	free(k);
	return out->truncated ? -1 : 0;
}

int
sq_hostlist_cmp(const char *a, const char *b)
{
	size_t na, nb, i;
	char **va = sq_hostlist_names(a, &na);
	char **vb;
	int rc = 0;

	if (na == (size_t)-1)
		return -1;
	vb = sq_hostlist_names(b, &nb);
	if (nb == (size_t)-1) {
		sq_hostlist_free_names(va, na);
		return -1;
	}
	if (na != nb)
		rc = 1;
	for (i = 0; rc == 0 && i < na; i++) {
		if (strcmp(va[i], vb[i]) != 0)
			rc = 1;
	}
	sq_hostlist_free_names(va, na);
	sq_hostlist_free_names(vb, nb);
	return rc;
}
