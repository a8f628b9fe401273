/*
 * audit.c - the audit log: one JSON object per line, appended with one
 * write(2) to a 0600 file owned by the user. The JSON writer is here (core
 * may not use json-c): it escapes quotes, backslashes and control
 * characters, replaces invalid UTF-8, and redacts anything shaped like a
 * token. It never prints.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "core/action/audit.h"
#include "core/base/util.h"

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

static int
tokch(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* Length of a JWT-shaped token at p (eyJ... . ... . ...), else 0. */
static size_t
jwt_len(const unsigned char *p)
{
	size_t n = 0, dots = 0;

	if (strncmp((const char *)p, "eyJ", 3) != 0)
		return 0;
	while (tokch(p[n]) || p[n] == '.') {
		if (p[n] == '.')
			dots++;
		n++;
	}
	return (dots >= 1 && n >= 16) ? n : 0;
}

/* Length of the secret after "SLURM_JWT=" or "X-SLURM-USER-TOKEN:". */
static size_t
secret_after(const unsigned char *p, size_t *skip)
{
	static const char *const keys[] = { "SLURM_JWT=", "X-SLURM-USER-TOKEN:",
					    "x-slurm-user-token:", NULL };
	size_t i, n;

	for (i = 0; keys[i] != NULL; i++) {
		size_t k = strlen(keys[i]);

		if (strncmp((const char *)p, keys[i], k) != 0)
			continue;
		n = k;
		while (p[n] == ' ')
			n++;
		*skip = n;
		while (p[n] != '\0' && p[n] != ' ' && p[n] != '"' &&
		       p[n] != '\'' && p[n] != ',')
			n++;
		return n - *skip;
	}
	return 0;
}

/* Length of a valid UTF-8 sequence at p, or 0. */
static size_t
utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

int
sq_json_string(struct sq_buf *b, const char *s)
{
	const unsigned char *p;
	int rc = 0;

	if (s == NULL)
		return sq_buf_append(b, "null", 4);
	rc |= sq_buf_append(b, "\"", 1);
	for (p = (const unsigned char *)s; *p != '\0';) {
		size_t n, skip = 0;

		if ((n = jwt_len(p)) > 0) {
			rc |= sq_buf_append(b, "[redacted]", 10);
			p += n;
			continue;
		}
		if ((n = secret_after(p, &skip)) > 0) {
			rc |= sq_buf_append(b, p, skip);
			rc |= sq_buf_append(b, "[redacted]", 10);
			p += skip + n;
			continue;
		}
		switch (*p) {
		case '"':
			rc |= sq_buf_append(b, "\\\"", 2);
			break;
		case '\\':
			rc |= sq_buf_append(b, "\\\\", 2);
			break;
		case '\n':
			rc |= sq_buf_append(b, "\\n", 2);
			break;
		case '\t':
			rc |= sq_buf_append(b, "\\t", 2);
			break;
		case '\r':
			rc |= sq_buf_append(b, "\\r", 2);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				rc |= sq_buf_printf(b, "\\u%04x", *p);
			} else if ((n = utf8_len(p)) == 0) {
				rc |= sq_buf_append(b, "\\ufffd", 6);
			} else {
				rc |= sq_buf_append(b, p, n);
				p += n;
				continue;
			}
		}
		p++;
	}
	rc |= sq_buf_append(b, "\"", 1);
	return rc ? -1 : 0;
}

static int
key(struct sq_buf *b, const char *k)
{
	return sq_buf_printf(b, ",\"%s\":", k);
}

static void
iso_time(double t, char *buf, size_t n)
{
	time_t sec = (time_t)t;
	struct tm tm;
	char base[32];

	gmtime_r(&sec, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, n, "%s.%03dZ", base, (int)((t - (double)sec) * 1000));
}

static double
now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *
verify_name(int v)
{
	return v == SQ_VERIFY_OK       ? "true"
	       : v == SQ_VERIFY_FAILED ? "false"
				       : "null";
}

int
sq_audit_line(struct sq_buf *b, const struct sq_audit_rec *r)
{
	char ts[64];
	size_t i;
	int rc = 0;
	const struct sq_action *a = r->action;

	iso_time(r->time > 0 ? r->time : now_wall(), ts, sizeof(ts));
	rc |= sq_buf_printf(b, "{\"time\":\"%s\"", ts);
	rc |= key(b, "event");
	rc |= sq_json_string(b, r->event);
	rc |= key(b, "id");
	rc |= sq_json_string(b, r->id);
	rc |= key(b, "session");
	rc |= sq_json_string(b, r->session ? r->session : sq_audit_session());
	rc |= key(b, "user");
	rc |= sq_json_string(b, r->user);
	rc |= key(b, "cluster");
	rc |= sq_json_string(b, r->cluster);
	rc |= key(b, "backend");
	rc |= sq_json_string(b, r->backend);
	rc |= key(b, "action");
	rc |= sq_json_string(b, a && a->def ? a->def->name : NULL);
	rc |= key(b, "targets");
	rc |= sq_buf_append(b, "[", 1);
	for (i = 0; a != NULL && i < a->ntargets; i++) {
		if (i)
			rc |= sq_buf_append(b, ",", 1);
		rc |= sq_json_string(b, a->targets[i]);
	}
	rc |= sq_buf_append(b, "]", 1);
	rc |= key(b, "args");
	rc |= sq_buf_append(b, "[", 1);
	for (i = 0; a != NULL && i < a->nargs; i++) {
		if (i)
			rc |= sq_buf_append(b, ",", 1);
		rc |= sq_json_string(b, a->args[i]);
	}
	rc |= sq_buf_append(b, "]", 1);
	if (a != NULL && a->script != NULL) {
		/* submit: which script, not its text */
		rc |= key(b, "script");
		rc |= sq_buf_append(b, "{\"path\":", 8);
		rc |= sq_json_string(b, a->ntargets ? a->targets[0] : NULL);
		rc |= sq_buf_printf(b, ",\"size\":%zu,\"sha256\":\"%s\"}",
				    a->script_len, a->script_sha256);
	}
	rc |= key(b, "command");
	rc |= sq_json_string(b, r->command);
	if (r->running != NULL) {
		rc |= key(b, "running");
		rc |= sq_json_string(b, r->running);
	}
	if (r->result != NULL) {
		const struct sq_result *res = r->result;

		rc |= sq_buf_printf(b, ",\"status\":%d", res->status);
		rc |= key(b, "message");
		rc |= sq_json_string(b, res->message);
		rc |= sq_buf_printf(b, ",\"duration_ms\":%.1f", res->ms);
		rc |= sq_buf_printf(
		    b, ",\"ok\":%s",
		    res->nfailed == 0 && res->ntargets > 0 ? "true" : "false");
		rc |= sq_buf_printf(b, ",\"failed\":%zu", res->nfailed);
		rc |= key(b, "results");
		rc |= sq_buf_append(b, "[", 1);
		for (i = 0; i < res->ntargets; i++) {
			const struct sq_target_result *t = &res->targets[i];

			rc |= sq_buf_printf(b, "%s{\"target\":", i ? "," : "");
			rc |= sq_json_string(b, t->target);
			rc |= sq_buf_printf(b, ",\"ok\":%s,\"verified\":%s",
					    t->ok ? "true" : "false",
					    verify_name(t->verified));
			rc |= key(b, "message");
			rc |= sq_json_string(b, t->message);
			rc |= sq_buf_append(b, "}", 1);
		}
		rc |= sq_buf_append(b, "]", 1);
		rc |= key(b, "inverse");
		rc |= sq_json_string(b, res->inverse[0] ? res->inverse : NULL);
		if (res->created[0] != '\0') {
			rc |= key(b, "created");
			rc |= sq_json_string(b, res->created);
		}
	} else if (r->message != NULL) {
		rc |= key(b, "message");
		rc |= sq_json_string(b, r->message);
	}
	rc |= sq_buf_append(b, "}\n", 2);
	return rc ? -1 : 0;
}

int
sq_audit_default_path(char *buf, size_t n, struct sq_err *err)
{
	const char *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");
	int w;

	if (x != NULL && x[0] == '/')
		w = snprintf(buf, n, "%s/squall/audit.log", x);
	else if (h != NULL && h[0] == '/')
		w = snprintf(buf, n, "%s/.local/state/squall/audit.log", h);
	else
		return sq_err_set(err, SQ_ERR_SYSTEM,
				  "no XDG_STATE_HOME or HOME for the audit "
				  "log");
	if (w < 0 || (size_t)w >= n)
		return sq_err_set(err, SQ_ERR_SYSTEM,
				  "audit log path too long");
	return 0;
}

/* mkdir -p the directory part of path, new directories 0700. */
static int
make_parents(const char *path, struct sq_err *err)
{
	char dir[1024];

	if (sq_util_mkdir_parents(path, dir, sizeof(dir)) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "mkdir %s: %s", dir,
				  strerror(errno));
	return 0;
}

static void
local_user(char *buf, size_t n)
{
	struct passwd pw, *res = NULL;
	char tmp[4096];

	if (getpwuid_r(geteuid(), &pw, tmp, sizeof(tmp), &res) == 0 &&
	    res != NULL)
		snprintf(buf, n, "%s", pw.pw_name);
	else
		snprintf(buf, n, "uid%lu", (unsigned long)geteuid());
}

int
sq_audit_open(struct sq_audit *au, const char *path, struct sq_err *err)
{
	struct stat st;

	memset(au, 0, sizeof(*au));
	au->fd = -1;
	if (path == NULL) {
		if (sq_audit_default_path(au->path, sizeof(au->path), err) ==
		    -1)
			return -1;
	} else if (snprintf(au->path, sizeof(au->path), "%s", path) >=
		   (int)sizeof(au->path)) {
		return sq_err_set(err, SQ_ERR_SYSTEM,
				  "audit log path too long");
	}
	local_user(au->user, sizeof(au->user));
	if (make_parents(au->path, err) == -1)
		return -1;
	au->fd = open(au->path,
		      O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
			  O_NOCTTY,
		      0600);
	if (au->fd == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "audit log %s: %s",
				  au->path, strerror(errno));
	if (fstat(au->fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		sq_err_set(err, SQ_ERR_DENIED,
			   "audit log %s is not a regular file", au->path);
		goto refuse;
	}
	if (st.st_uid != geteuid()) {
		sq_err_set(err, SQ_ERR_DENIED,
			   "audit log %s is owned by uid %lu, not by you",
			   au->path, (unsigned long)st.st_uid);
		goto refuse;
	}
	if ((st.st_mode & 07777) != 0600) {
		if (fchmod(au->fd, 0600) == -1) {
			sq_err_set(err, SQ_ERR_DENIED,
				   "audit log %s has mode %04o and cannot be "
				   "narrowed to 0600: %s",
				   au->path, (unsigned)(st.st_mode & 07777),
				   strerror(errno));
			goto refuse;
		}
		au->repaired = 1;
	}
	return 0;
refuse:
	close(au->fd);
	au->fd = -1;
	return -1;
}

void
sq_audit_close(struct sq_audit *au)
{
	if (au == NULL)
		return;
	if (au->fd != -1)
		close(au->fd);
	au->fd = -1;
}

void
sq_audit_new_id(struct sq_audit *au, char *buf, size_t n)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, n, "%ld-%ld%03ld-%lu", (long)getpid(), (long)ts.tv_sec,
		 ts.tv_nsec / 1000000L, au ? ++au->n : 0UL);
}

int
sq_audit_append(struct sq_audit *au, const struct sq_audit_rec *r,
		struct sq_err *err)
{
	struct sq_buf b;
	struct sq_audit_rec rec = *r;
	const char *p;
	size_t left;
	int rc = -1;

	if (au == NULL || au->fd == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "audit log not open");
	if (rec.user == NULL)
		rec.user = au->user;
	sq_buf_init(&b, 1024 * 1024);
	if (sq_audit_line(&b, &rec) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "audit line too long");
		goto out;
	}
	p = b.data;
	left = b.len;
	while (left > 0) {
		ssize_t w = write(au->fd, p, left);

		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0) {
			sq_err_set(err, SQ_ERR_SYSTEM, "audit log %s: %s",
				   au->path, strerror(errno));
			goto out;
		}
		p += w;
		left -= (size_t)w;
	}
	rc = 0;
out:
	sq_buf_free(&b);
	return rc;
}

/* --- the session -------------------------------------------------------- */

static char session_id[64];
static pthread_once_t session_once = PTHREAD_ONCE_INIT;

static void
session_init(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(session_id, sizeof(session_id), "%ld-%ld%03ld", (long)getpid(),
		 (long)ts.tv_sec, ts.tv_nsec / 1000000L);
}

const char *
sq_audit_session(void)
{
	pthread_once(&session_once, session_init);
	return session_id;
}

/* --- reading the log back (the one reader: :audit, :undo, tests) -------- */

/* Copy the JSON string at p (after its opening quote) into buf: escapes
 * undone, \t as a space, \uXXXX as '?'. Returns the end quote. */
static const char *
json_unescape(const char *p, char *buf, size_t n)
{
	size_t o = 0;

	while (*p != '\0' && *p != '"') {
		char c = *p;

		if (*p == '\\' && p[1] != '\0') {
			p++;
			c = *p == 'n'   ? '\n'
			    : *p == 't' ? ' '
			    : *p == 'u' ? '?'
					: *p;
			if (*p == 'u')
				p +=
				    strspn(p + 1, "0123456789abcdefABCDEF") >= 4
					? 4
					: 0;
		}
		if (o + 1 < n)
			buf[o++] = c;
		p++;
	}
	if (n > 0)
		buf[o] = '\0';
	return p;
}

/* Skip one JSON value at p (string, number, literal, array, object). */
static const char *
skip_value(const char *p)
{
	int depth = 0;

	do {
		if (*p == '"') {
			for (p++; *p != '\0' && *p != '"'; p++) {
				if (*p == '\\' && p[1] != '\0')
					p++;
			}
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if (*p == ']' || *p == '}') {
			depth--;
		} else if (depth == 0) {
			while (*p != '\0' && *p != ',' && *p != '}' &&
			       *p != ']')
				p++;
			return p;
		}
		if (*p != '\0')
			p++;
	} while (*p != '\0' && depth > 0);
	return p;
}

int
sq_audit_field(const char *line, const char *key, char *buf, size_t n)
{
	const char *p = strchr(line, '{');
	size_t kl = strlen(key);

	if (n > 0)
		buf[0] = '\0';
	if (p == NULL)
		return 0;
	p++;
	while (*p != '\0') {
		const char *k;

		while (*p == ' ' || *p == ',')
			p++;
		if (*p != '"')
			return 0;
		k = p + 1;
		p = skip_value(p);
		while (*p == ' ' || *p == ':')
			p++;
		if ((size_t)(p - k) >= kl + 2 && strncmp(k, key, kl) == 0 &&
		    k[kl] == '"') {
			if (*p == '"') {
				json_unescape(p + 1, buf, n);
			} else if (*p == '[') {
				/* an array of strings: joined with ',' */
				size_t off = 0;

				for (p++; *p == '"' || *p == ',';) {
					if (*p == ',') {
						p++;
						continue;
					}
					if (off > 0 && off + 1 < n)
						buf[off++] = ',';
					json_unescape(p + 1, buf + off,
						      n > off ? n - off : 0);
					off += strlen(buf + off);
					p = skip_value(p);
				}
			} else {
				size_t l = (size_t)(skip_value(p) - p);

				snprintf(buf, n, "%.*s", (int)l, p);
				if (strcmp(buf, "null") == 0)
					buf[0] = '\0';
			}
			return 1;
		}
		p = skip_value(p);
	}
	return 0;
}

static void
entry_of(const char *line, struct sq_audit_entry *e)
{
	memset(e, 0, sizeof(*e));
	sq_audit_field(line, "time", e->time, sizeof(e->time));
	sq_audit_field(line, "event", e->event, sizeof(e->event));
	sq_audit_field(line, "id", e->id, sizeof(e->id));
	sq_audit_field(line, "session", e->session, sizeof(e->session));
	sq_audit_field(line, "user", e->user, sizeof(e->user));
	sq_audit_field(line, "cluster", e->cluster, sizeof(e->cluster));
	sq_audit_field(line, "backend", e->backend, sizeof(e->backend));
	sq_audit_field(line, "action", e->action, sizeof(e->action));
	sq_audit_field(line, "targets", e->targets, sizeof(e->targets));
	sq_audit_field(line, "args", e->args, sizeof(e->args));
	sq_audit_field(line, "command", e->command, sizeof(e->command));
	sq_audit_field(line, "message", e->message, sizeof(e->message));
	sq_audit_field(line, "inverse", e->inverse, sizeof(e->inverse));
	sq_audit_field(line, "ok", e->ok, sizeof(e->ok));
}

int
sq_audit_read(const char *path, size_t max, struct sq_audit_entry **out,
	      size_t *nout, struct sq_err *err)
{
	char def[1024], *data, *p;
	FILE *fp;
	long size, start;
	size_t got, nl = 0, i = 0;

	*out = NULL;
	*nout = 0;
	if (path == NULL) {
		if (sq_audit_default_path(def, sizeof(def), err) == -1)
			return -1;
		path = def;
	}
	fp = fopen(path, "r");
	if (fp == NULL)
		return errno == ENOENT
			   ? 0
			   : sq_err_set(err, SQ_ERR_SYSTEM, "%s: %s", path,
					strerror(errno));
	/* the newest MiB is enough for max lines of a few hundred bytes */
	fseek(fp, 0, SEEK_END);
	size = ftell(fp);
	start = size > 1048576 ? size - 1048576 : 0;
	fseek(fp, start, SEEK_SET);
	data = malloc((size_t)(size - start) + 1);
	if (data == NULL) {
		fclose(fp);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	got = fread(data, 1, (size_t)(size - start), fp);
	data[got] = '\0';
	fclose(fp);
	/* the last max whole lines (a cut first line is dropped) */
	p = data;
	if (start > 0)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : data + got;
	for (i = 0; p[i] != '\0'; i++)
		nl += p[i] == '{' && (i == 0 || p[i - 1] == '\n');
	while (nl > max && *p != '\0') {
		char *e = strchr(p, '\n');

		nl -= *p == '{';
		p = e ? e + 1 : p + strlen(p);
	}
	i = 0;
	*out = calloc(max ? max : 1, sizeof(**out));
	if (*out == NULL) {
		free(data);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	while (*p != '\0' && i < max) {
		char *e = strchr(p, '\n');

		if (e != NULL)
			*e = '\0';
		if (*p == '{')
			entry_of(p, &(*out)[i++]);
		p = e ? e + 1 : p + strlen(p);
	}
	*nout = i;
	free(data);
	return 0;
}
