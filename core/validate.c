/*
 * validate.c - value whitelists and POSIX single-quoting for remote
 * command lines. Nothing here tries to repair a bad value.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/validate.h"

static int
parse_u32(const char **p, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno != 0 || *v == 0 || *v > 0xfffffffeUL)
		return -1;
	*p = end;
	return 0;
}

int
sq_valid_jobid(const char *s, char *out, size_t n, struct sq_err *err)
{
	const char *p = s;
	unsigned long id, a, b;
	int w;

	if (s == NULL || parse_u32(&p, &id) == -1)
		goto bad;
	if (*p == '\0') {
		w = snprintf(out, n, "%lu", id);
	} else if (*p == '+') {
		p++;
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtoul(p, (char **)&p, 10);
		if (*p != '\0' || a > 1000)
			goto bad;
		w = snprintf(out, n, "%lu+%lu", id, a);
	} else if (*p == '_') {
		p++;
		if (*p == '[') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			a = strtoul(p, (char **)&p, 10);
			if (*p != '-')
				goto bad;
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtoul(p, (char **)&p, 10);
			if (strcmp(p, "]") != 0 || b < a || b > 10000000)
				goto bad;
			w = snprintf(out, n, "%lu_[%lu-%lu]", id, a, b);
		} else {
			if (!isdigit((unsigned char)*p))
				goto bad;
			a = strtoul(p, (char **)&p, 10);
			if (*p != '\0' || a > 10000000)
				goto bad;
			w = snprintf(out, n, "%lu_%lu", id, a);
		}
	} else {
		goto bad;
	}
	if (w < 0 || (size_t)w >= n)
		goto bad;
	return 0;
bad:
	return sq_err_set(err, SQ_ERR_DENIED, "invalid job id '%.40s'",
			  s ? s : "");
}

int
sq_valid_name(const char *s, struct sq_err *err)
{
	size_t i, n;

	if (s == NULL || (n = strlen(s)) == 0 || n > 128)
		goto bad;
	if (!isalnum((unsigned char)s[0]) && s[0] != '_')
		goto bad;
	for (i = 1; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!isalnum(c) && c != '_' && c != '.' && c != '-')
			goto bad;
	}
	return 0;
bad:
	return sq_err_set(err, SQ_ERR_DENIED, "invalid name '%.40s'",
			  s ? s : "");
}

int
sq_valid_nodelist(const char *s, struct sq_err *err)
{
	size_t i, n;

	if (s == NULL || (n = strlen(s)) == 0 || n > 4096 ||
	    !isalnum((unsigned char)s[0]))
		goto bad;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!isalnum(c) && strchr("_.-,[]", c) == NULL)
			goto bad;
	}
	return 0;
bad:
	return sq_err_set(err, SQ_ERR_DENIED, "invalid node list '%.40s'",
			  s ? s : "");
}

int
sq_valid_text(const char *s, struct sq_err *err)
{
	const unsigned char *p;

	if (s == NULL || strlen(s) > 1024)
		goto bad;
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f || strchr("'\"\\!`$", *p) != NULL)
			goto bad;
	}
	return 0;
bad:
	return sq_err_set(err, SQ_ERR_DENIED,
			  "text may not contain quotes, backslash, '!', '`', "
			  "'$' or control characters");
}

int
sq_valid_tres(const char *s, struct sq_err *err)
{
	size_t i, n;

	if (s != NULL && strcmp(s, "-1") == 0)
		return 0;
	if (s == NULL || (n = strlen(s)) == 0 || n > 512)
		goto bad;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!isalnum(c) && strchr("_.-,=/:", c) == NULL)
			goto bad;
	}
	if (strchr(s, '=') == NULL)
		goto bad;
	return 0;
bad:
	return sq_err_set(err, SQ_ERR_DENIED, "invalid TRES list '%.40s'",
			  s ? s : "");
}

int
sq_valid_number(const char *s, struct sq_err *err)
{
	size_t i, n;

	if (s != NULL && strcmp(s, "-1") == 0)
		return 0;
	if (s == NULL || (n = strlen(s)) == 0 || n > 18)
		goto bad;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			goto bad;
	}
	return 0;
bad:
	return sq_err_set(err, SQ_ERR_DENIED, "invalid number '%.40s'",
			  s ? s : "");
}

int
sq_valid_duration(const char *s, struct sq_err *err)
{
	int64_t v;

	if (s != NULL && (strcmp(s, "-1") == 0 || strcmp(s, "UNLIMITED") == 0))
		return 0;
	if (s == NULL || *s == '\0' || strlen(s) > 20 ||
	    sq_parse_duration(s, &v) == -1 || v < 0)
		return sq_err_set(err, SQ_ERR_DENIED,
				  "invalid duration '%.40s'", s ? s : "");
	return 0;
}

int
sq_shell_quote(struct sq_buf *b, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '\'' || *p < 0x20 || *p == 0x7f)
			return -1;
	}
	if (sq_buf_append(b, "'", 1) == -1 ||
	    sq_buf_append(b, s, strlen(s)) == -1 ||
	    sq_buf_append(b, "'", 1) == -1)
		return -1;
	return 0;
}

int
sq_shell_join(struct sq_buf *b, const char *const argv[])
{
	size_t i;

	if (sq_buf_printf(b, "env LC_ALL=C SLURM_TIME_FORMAT=%%s") == -1)
		return -1;
	for (i = 0; argv[i] != NULL; i++) {
		if (sq_buf_append(b, " ", 1) == -1 ||
		    sq_shell_quote(b, argv[i]) == -1)
			return -1;
	}
	return 0;
}
