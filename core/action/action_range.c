/*
 * action_range.c - values as Slurm keeps them, before anything runs:
 * numbers within the range Slurm stores (32-bit limits and priorities,
 * 64-bit TRES counts, wall times in 32-bit minutes), and account and user
 * names folded to lower case, as sacctmgr stores them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/base/parse.h"

/* The largest value of a 32-bit number Slurm stores: 0xfffffffe is
 * NO_VAL ("not set": sacctmgr says "Nothing modified") and 0xffffffff
 * INFINITE (cleared); sacctmgr silently keeps the low 32 bits of more.
 * An association or QOS limit (and a wall time in minutes) goes through
 * sacctmgr, which refuses anything over INT_MAX ("Request didn't affect
 * anything", Slurm 22.05 testbed). */
#define MAX32 4294967293ULL
#define MAXDB 2147483647ULL
/* and of a 64-bit TRES count (NO_VAL64 and INFINITE64 above it) */
#define MAX64 18446744073709551613ULL

void
sq_action_fold(char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i] != '\0'; i++)
		s[i] = (char)tolower((unsigned char)s[i]);
}

/* digits only, into *v; -1 when not a number or past 64 bits */
static int
ull_of(const char *s, size_t len, unsigned long long *v)
{
	char buf[32], *end;

	if (len == 0 || len >= sizeof(buf) || strspn(s, "0123456789") < len)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno == ERANGE || *end != '\0' ? -1 : 0;
}

/* every count of a TRES list "cpu=8,mem=4G,gres/gpu=2" */
static int
tres_range(const struct sq_arg_spec *s, const char *v, struct sq_err *err)
{
	const char *p = v;

	while (p != NULL && *p != '\0') {
		const char *eq = strchr(p, '=');
		size_t len = strcspn(p, ",");
		const char *num = eq ? eq + 1 : p;
		size_t nl = eq && (size_t)(eq - p) < len
				? len - (size_t)(eq + 1 - p)
				: 0;
		size_t digits = strspn(num, "0123456789");
		unsigned long long x, mult = 1;

		if (nl > 0 && strncmp(num, "-1", nl) != 0) {
			if (digits + 1 == nl)
				mult = strchr("Kk", num[digits])   ? 1
				       : strchr("Mm", num[digits]) ? 1
				       : strchr("Gg", num[digits]) ? 1ULL << 10
				       : strchr("Tt", num[digits]) ? 1ULL << 20
				       : strchr("Pp", num[digits]) ? 1ULL << 30
								   : 0;
			/* a unit Slurm does not know: not a count (the
			 * value's own check says so), nothing to range */
			if (mult == 0)
				mult = 1;
			if (ull_of(num, digits, &x) == -1 || x > MAX64 / mult)
				return sq_err_set(
				    err, SQ_ERR_DENIED,
				    "%s: '%.*s' is out of range: Slurm keeps "
				    "TRES counts up to %llu",
				    s->key, (int)len, p, MAX64);
		}
		p = p[len] == ',' ? p + len + 1 : NULL;
	}
	return 0;
}

int
sq_action_value_range(const struct sq_action_def *d,
		      const struct sq_arg_spec *s, const char *v,
		      struct sq_err *err)
{
	unsigned long long x, max = d->kind == SQ_KIND_JOBS ? MAX32 : MAXDB;
	int64_t secs;

	if (v == NULL || strcmp(v, "-1") == 0)
		return 0;
	switch (s->type) {
	case SQ_ARG_NUMBER:
	case SQ_ARG_FAIRSHARE:
		if (strcmp(v, "parent") == 0)
			return 0;
		if (ull_of(v, strlen(v), &x) == -1 || x > max)
			return sq_err_set(err, SQ_ERR_DENIED,
					  "%s=%.40s is out of range: Slurm "
					  "stores 0 to %llu%s",
					  s->key, v, max,
					  (s->flags & SQ_ARGF_CLEAR)
					      ? " (-1 clears it)"
					      : "");
		return 0;
	case SQ_ARG_DURATION:
		if (strcmp(v, "UNLIMITED") == 0 ||
		    sq_parse_duration(v, &secs) == -1)
			return 0;
		if (secs / 60 > (int64_t)max)
			return sq_err_set(err, SQ_ERR_DENIED,
					  "%s=%.40s is out of range: Slurm "
					  "stores up to %llu minutes",
					  s->key, v, max);
		return 0;
	case SQ_ARG_TRES:
		return tres_range(s, v, err);
	case SQ_ARG_SECONDS:
		if (ull_of(v, strlen(v), &x) == -1 || x > max)
			return sq_err_set(err, SQ_ERR_DENIED,
					  "%s=%.40s is out of range: Slurm "
					  "stores 0 to %llu seconds",
					  s->key, v, max);
		return 0;
	default:
		return 0;
	}
}
