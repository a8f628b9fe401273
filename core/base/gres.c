/*
 * gres.c - parsing GRES and TRES strings into (name, type, count) items.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/gres.h"
#include "core/base/parse.h"

static const char *const accel_names[] = { "gpu", "tpu", "shard", "mps", "npu",
					   "hpu", "ipu", "fpga",  "mic", NULL };

int
sq_gres_is_accel(const char *name)
{
	int i;

	for (i = 0; accel_names[i] != NULL; i++) {
		if (strcmp(name, accel_names[i]) == 0)
			return 1;
	}
	return 0;
}

static void
copy_part(char *dst, size_t dn, const char *s, size_t n)
{
	if (n >= dn)
		n = dn - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static int
all_digits(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

/* No GRES comes in more than 10^12 (a count past it is garbage): sums of
 * counts over nodes and jobs then stay far from INT64_MAX. */
#define MAX_COUNT 1000000000000LL

/* One entry of length n at s, without any "(...)" suffix. */
static int
parse_one(const char *s, size_t n, struct sq_gres_item *it)
{
	const char *p, *eq;
	const char *parts[4];
	size_t lens[4];
	int np = 0;
	char num[32];

	memset(it, 0, sizeof(*it));
	/* strip a "gres/" or "gres:" prefix */
	if (n > 5 &&
	    (strncmp(s, "gres/", 5) == 0 || strncmp(s, "gres:", 5) == 0)) {
		s += 5;
		n -= 5;
	}
	/* TRES form name[:type]=count */
	eq = memchr(s, '=', n);
	p = s;
	while (p < (eq ? eq : s + n) && np < 4) {
		const char *c = memchr(p, ':', (size_t)((eq ? eq : s + n) - p));
		size_t l =
		    c ? (size_t)(c - p) : (size_t)((eq ? eq : s + n) - p);

		parts[np] = p;
		lens[np++] = l;
		if (c == NULL)
			break;
		p = c + 1;
	}
	if (np == 0 || lens[0] == 0)
		return -1;
	copy_part(it->name, sizeof(it->name), parts[0], lens[0]);
	if (eq != NULL) {
		size_t cl = (size_t)(s + n - eq - 1);

		if (np > 1)
			copy_part(it->type, sizeof(it->type), parts[1],
				  lens[1]);
		/* TRES values may carry a unit (mem=48000M): keep the number */
		if (cl == 0 || cl >= sizeof(num) ||
		    !isdigit((unsigned char)eq[1]))
			return -1;
		copy_part(num, sizeof(num), eq + 1, cl);
		it->count = strtoll(num, NULL, 10);
		return it->count > MAX_COUNT ? -1 : 0;
	}
	/* GRES form name[:type][:count] */
	if (np == 1) {
		it->count = 1;
	} else if (all_digits(parts[np - 1], lens[np - 1]) &&
		   lens[np - 1] < sizeof(num)) {
		copy_part(num, sizeof(num), parts[np - 1], lens[np - 1]);
		it->count = strtoll(num, NULL, 10);
		if (it->count > MAX_COUNT)
			return -1;
		if (np > 2)
			copy_part(it->type, sizeof(it->type), parts[1],
				  lens[1]);
	} else {
		copy_part(it->type, sizeof(it->type), parts[1], lens[1]);
		it->count = 1;
	}
	return 0;
}

int
sq_gres_parse(const char *s, struct sq_gres_item *items, int max)
{
	int n = 0;
	const char *p = s;

	if (sq_is_none(s))
		return 0;
	while (*p != '\0') {
		const char *e = p;
		int depth = 0;
		size_t len;
		const char *paren;

		/* an entry ends at a comma outside parentheses */
		while (*e != '\0' && !(*e == ',' && depth == 0)) {
			if (*e == '(')
				depth++;
			else if (*e == ')' && depth > 0)
				depth--;
			e++;
		}
		len = (size_t)(e - p);
		paren = memchr(p, '(', len);
		if (paren != NULL)
			len = (size_t)(paren - p);
		if (len > 0) {
			if (n >= max)
				return -1;
			if (parse_one(p, len, &items[n]) == -1)
				return -1;
			n++;
		}
		p = *e == ',' ? e + 1 : e;
	}
	return n;
}

int64_t
sq_gres_count(const char *s, const char *name)
{
	struct sq_gres_item items[32];
	int n, i, typed = 0;
	int64_t untyped_sum = 0, typed_sum = 0;

	n = sq_gres_parse(s, items, 32);
	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (strcmp(items[i].name, name) != 0)
			continue;
		if (items[i].type[0] != '\0') {
			typed = 1;
			typed_sum += items[i].count;
		} else {
			untyped_sum += items[i].count;
		}
	}
	/* TRES lists carry both gres/gpu=8 and gres/gpu:a100=4: prefer the
	 * untyped total when present, else sum the types */
	if (untyped_sum > 0)
		return untyped_sum;
	return typed ? typed_sum : 0;
}

char *
sq_gres_tres_legacy(char *s)
{
	char *p = s;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, "gres/", 5) == 0)
			p[4] = ':';
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return s;
}
