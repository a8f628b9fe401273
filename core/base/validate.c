/*
 * validate.c - value whitelists and POSIX single-quoting for remote
 * command lines. Nothing here tries to repair a bad value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/parse.h"
#include "core/base/validate.h"

/* ASCII classes: the C library's depend on the locale (Latin-1 letters). */
static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int
is_alnum(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * Length of the well-formed UTF-8 sequence at p that is not a control
 * character (C0, DEL, C1), or 0. Overlong forms, surrogates and code
 * points past U+10FFFF are not well-formed.
 */
static size_t
utf8_char(const unsigned char *p)
{
	unsigned c = p[0];
	unsigned cp;
	size_t n, i;

	if (c < 0x20 || c == 0x7f)
		return 0;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return n;
}

static int
parse_u32(const char **p, unsigned long *v)
{
	char *end;

	if (!is_digit((unsigned char)**p))
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
		if (!is_digit((unsigned char)*p))
			goto bad;
		a = strtoul(p, (char **)&p, 10);
		if (*p != '\0' || a > 1000)
			goto bad;
		w = snprintf(out, n, "%lu+%lu", id, a);
	} else if (*p == '_') {
		p++;
		if (*p == '[') {
			p++;
			if (!is_digit((unsigned char)*p))
				goto bad;
			a = strtoul(p, (char **)&p, 10);
			if (*p != '-')
				goto bad;
			p++;
			if (!is_digit((unsigned char)*p))
				goto bad;
			b = strtoul(p, (char **)&p, 10);
			if (strcmp(p, "]") != 0 || b < a || b > 10000000)
				goto bad;
			w = snprintf(out, n, "%lu_[%lu-%lu]", id, a, b);
		} else {
			if (!is_digit((unsigned char)*p))
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
	if (!is_alnum((unsigned char)s[0]) && s[0] != '_')
		goto bad;
	for (i = 1; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!is_alnum(c) && c != '_' && c != '.' && c != '-')
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
	    !is_alnum((unsigned char)s[0]))
		goto bad;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!is_alnum(c) && strchr("_.-,[]", c) == NULL)
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
	size_t n;

	if (s == NULL || strlen(s) > 1024)
		goto bad;
	for (p = (const unsigned char *)s; *p != '\0'; p += n) {
		n = utf8_char(p);
		if (n == 0 || strchr("'\"\\!`$", *p) != NULL)
			goto bad;
	}
	return 0;
bad:
	return sq_err_set(err, SQ_ERR_DENIED,
			  "text may not contain quotes, backslash, '!', '`', "
			  "'$', control characters or invalid UTF-8, nor be "
			  "longer than 1024 bytes");
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

		if (!is_alnum(c) && strchr("_.-,=/:", c) == NULL)
			goto bad;
	}
	/* each item is key=value with a key that starts alphanumeric, so
	 * nothing can pass for an option */
	for (i = 0; i < n; i += strcspn(s + i, ",") + 1) {
		size_t len = strcspn(s + i, ","), eq = strcspn(s + i, "=");

		if (!is_alnum((unsigned char)s[i]) || eq >= len ||
		    eq + 1 == len)
			goto bad;
	}
	if (s[n - 1] == ',')
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
		if (!is_digit((unsigned char)s[i]))
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
	/* digits, '-' and ':' only: strtol() in the parser would skip a
	 * leading newline or blank ("\n1-0") */
	if (s == NULL || *s == '\0' || strlen(s) > 20 ||
	    strspn(s, "0123456789-:") != strlen(s) ||
	    sq_parse_duration(s, &v) == -1 || v < 0)
		return sq_err_set(err, SQ_ERR_DENIED,
				  "invalid duration '%.40s'", s ? s : "");
	return 0;
}

int
sq_valid_path(const char *s, struct sq_err *err)
{
	size_t i, n;

	if (s == NULL || (n = strlen(s)) == 0 || n > 255 || s[0] != '/')
		goto bad;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!is_alnum(c) && strchr("_.+-/", c) == NULL)
			goto bad;
	}
	if (strstr(s, "/../") != NULL ||
	    (n >= 3 && strcmp(s + n - 3, "/..") == 0))
		goto bad;
	return 0;
bad:
	return sq_err_set(err, SQ_ERR_DENIED,
			  "invalid directory '%.40s' (an absolute path of "
			  "letters, digits and _.+-/ is needed)",
			  s ? s : "");
}

int
sq_shell_quote(struct sq_buf *b, const char *s)
{
	const unsigned char *p;
	size_t n;

	for (p = (const unsigned char *)s; *p != '\0'; p += n) {
		/* ! and \ are live inside single quotes in csh and fish */
		n = utf8_char(p);
		if (n == 0 || *p == '\'' || *p == '!' || *p == '\\')
			return -1;
	}
	if (sq_buf_append(b, "'", 1) == -1 ||
	    sq_buf_append(b, s, strlen(s)) == -1 ||
	    sq_buf_append(b, "'", 1) == -1)
		return -1;
	return 0;
}

/*
 * Variables that change what the Slurm commands print or select (formats,
 * sort orders, filters, federation views), per the ENVIRONMENT sections of
 * their man pages. The remote shell cannot drop a prefix, so each is named.
 */
const char *const sq_shell_unset_env[] = {
	"SQUEUE_ACCOUNT",
	"SQUEUE_ALL",
	"SQUEUE_ARRAY",
	"SQUEUE_FEDERATION",
	"SQUEUE_FORMAT",
	"SQUEUE_FORMAT2",
	"SQUEUE_LICENSES",
	"SQUEUE_LOCAL",
	"SQUEUE_NAMES",
	"SQUEUE_PARTITION",
	"SQUEUE_PRIORITY",
	"SQUEUE_QOS",
	"SQUEUE_SIBLING",
	"SQUEUE_SORT",
	"SQUEUE_STATES",
	"SQUEUE_USERS",
	"SINFO_ALL",
	"SINFO_FEDERATION",
	"SINFO_FORMAT",
	"SINFO_LOCAL",
	"SINFO_PARTITION",
	"SINFO_SORT",
	"SPRIO_FEDERATION",
	"SPRIO_FORMAT",
	"SPRIO_LOCAL",
	"SPRIO_SIBLING",
	"SACCT_FEDERATION",
	"SACCT_FORMAT",
	"SACCT_LOCAL",
	"SSHARE_FORMAT",
	"SCONTROL_ALL",
	"SCONTROL_FEDERATION",
	"SCONTROL_FUTURE",
	"SCONTROL_LOCAL",
	"SCONTROL_SIBLING",
	"SLURM_JWT",
	NULL,
};

int
sq_shell_utc(const char *cmd)
{
	const char *base = strrchr(cmd, '/');

	base = base != NULL ? base + 1 : cmd;
	return strcmp(base, "squeue") == 0;
}

int
sq_shell_join(struct sq_buf *b, const char *bindir, const char *const argv[])
{
	size_t i, start = b->len;

	if (argv == NULL || argv[0] == NULL)
		goto bad;
	if (argv[0][0] == '/' ? sq_valid_path(argv[0], NULL) == -1
			      : sq_valid_name(argv[0], NULL) == -1)
		goto bad;
	if (bindir != NULL && bindir[0] != '\0' &&
	    sq_valid_path(bindir, NULL) == -1)
		goto bad;
	if (sq_buf_append(b, "env", 3) == -1)
		goto bad;
	for (i = 0; sq_shell_unset_env[i] != NULL; i++) {
		if (sq_buf_printf(b, " -u %s", sq_shell_unset_env[i]) == -1)
			goto bad;
	}
	if (sq_buf_printf(b, " LC_ALL=C SLURM_TIME_FORMAT=%%s ") == -1)
		goto bad;
	if (sq_shell_utc(argv[0]) && sq_buf_printf(b, "TZ=UTC0 ") == -1)
		goto bad;
	if (bindir != NULL && bindir[0] != '\0' && argv[0][0] != '/') {
		struct sq_buf path;
		size_t n = strlen(bindir);
		int rc;

		sq_buf_init(&path, 0);
		while (n > 1 && bindir[n - 1] == '/')
			n--;
		rc = sq_buf_printf(&path, "%.*s/%s", (int)n, bindir, argv[0]);
		if (rc == 0)
			rc = sq_shell_quote(b, sq_buf_str(&path));
		sq_buf_free(&path);
		if (rc == -1)
			goto bad;
	} else if (sq_shell_quote(b, argv[0]) == -1) {
		goto bad;
	}
	for (i = 1; argv[i] != NULL; i++) {
		if (sq_buf_append(b, " ", 1) == -1 ||
		    sq_shell_quote(b, argv[i]) == -1)
			goto bad;
	}
	return 0;
bad:
	/* leave nothing of a refused line behind */
	if (b->data != NULL && start <= b->len) {
		b->len = start;
		b->data[start] = '\0';
	}
	return -1;
}
