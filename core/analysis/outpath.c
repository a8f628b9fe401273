/*
 * outpath.c - a batch job's output paths from `scontrol show job -o`,
 * with Slurm's filename patterns expanded the way slurmd 22.05 does it
 * (checked on the testbed: see tests/unit/test_outpath.c), and the
 * escaping of file bytes for a terminal. No I/O here.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/outpath.h"

#define NO_VAL_TASK "4294967294"
#define MAX_PAD 10

struct out {
	char *p;
	size_t n, len;
	int full;
};

static void
put(struct out *o, const char *s, size_t l)
{
	if (o->len + l >= o->n) {
		o->full = 1;
		return;
	}
	memcpy(o->p + o->len, s, l);
	o->len += l;
	o->p[o->len] = '\0';
}

static void
puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static int
all_digits(const char *s)
{
	if (s == NULL || *s == '\0')
		return 0;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return 0;
	}
	return 1;
}

/* A number (as text) padded with zeros to width. */
static void
put_num(struct out *o, const char *num, unsigned width)
{
	size_t l = strlen(num);

	while (width > l) {
		put(o, "0", 1);
		width--;
	}
	put(o, num, l);
}

static int
is_wildcard(char c)
{
	return c != '\0' && strchr("AajJNnstux", c) != NULL;
}

static void
expand_one(struct out *o, char c, unsigned pad, const struct sq_outpath_job *j)
{
	const char *task =
	    all_digits(j->array_task_id) ? j->array_task_id : NO_VAL_TASK;

	switch (c) {
	case 'A':
		put_num(o,
			all_digits(j->array_job_id) && strcmp(task, NO_VAL_TASK)
			    ? j->array_job_id
			    : j->job_id,
			pad);
		break;
	case 'a':
		put_num(o, task, pad);
		break;
	case 'j':
	case 'J':
		put_num(o, j->job_id, pad);
		break;
	case 's':
		puts_(o, "batch");
		break;
	case 'n':
	case 't':
		put_num(o, "0", pad);
		break;
	case 'u':
		puts_(o, j->user);
		break;
	case 'x':
		puts_(o, j->name);
		break;
	case 'N':
		puts_(o, j->node);
		break;
	}
}

/* The pattern after a '%' at p: expanded into o; returns the next byte. */
static const char *
expand_at(struct out *o, const char *p, const struct sq_outpath_job *j)
{
	const char *d = p;
	unsigned pad = 0;

	if (*p == '%') {
		put(o, "%", 1);
		return p + 1;
	}
	if (isdigit((unsigned char)*p)) {
		unsigned long w = strtoul(p, (char **)&d, 10);

		if (w > 9) {
			pad = MAX_PAD;
		} else {
			pad = (unsigned)w;
			d = p + 1;
		}
		if (!is_wildcard(*d)) {
			/* slurmd keeps the last digit, drops '%' and the
			 * others, and goes on with the byte after it */
			while (isdigit((unsigned char)p[1]))
				p++;
			put(o, p, 1);
			return p + 1;
		}
		p = d;
	}
	if (*p == '\0') {
		put(o, "%", 1);
		return p;
	}
	if (!is_wildcard(*p)) {
		put(o, "%", 1);
		put(o, p, 1);
		return p + 1;
	}
	expand_one(o, *p, pad, j);
	return p + 1;
}

int
sq_outpath_expand(const char *pattern, const struct sq_outpath_job *j,
		  char *out, size_t n)
{
	struct out o = { out, n, 0, 0 };
	const char *p = pattern;

	if (n == 0)
		return -1;
	out[0] = '\0';
	if (pattern == NULL || *pattern == '\0')
		return 0;
	if (pattern[0] != '/' && j->work_dir[0] != '\0') {
		puts_(&o, j->work_dir);
		if (o.len > 0 && out[o.len - 1] != '/')
			put(&o, "/", 1);
	}
	if (strchr(pattern, '\\') != NULL) {
		for (; *p; p++) {
			if (*p != '\\')
				put(&o, p, 1);
		}
		return o.full ? -1 : 0;
	}
	while (*p != '\0') {
		if (*p != '%') {
			put(&o, p++, 1);
			continue;
		}
		p = expand_at(&o, p + 1, j);
	}
	return o.full ? -1 : 0;
}

/* Does s start a " Key=" field (a capital, then letters, digits, _ / :)? */
static int
key_start(const char *s)
{
	if (!isupper((unsigned char)*s))
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_' || *s == '/' ||
	       *s == ':')
		s++;
	return *s == '=';
}

/* The value of key in line (len bytes) into v; "" when absent. */
static void
field(const char *line, size_t len, const char *key, char *v, size_t n)
{
	size_t kl = strlen(key), i, end;

	v[0] = '\0';
	for (i = 0; i + kl + 1 <= len; i++) {
		if ((i == 0 || line[i - 1] == ' ') &&
		    strncmp(line + i, key, kl) == 0 && line[i + kl] == '=')
			break;
	}
	if (i + kl + 1 > len)
		return;
	i += kl + 1;
	for (end = i; end < len; end++) {
		if (line[end] == ' ' && key_start(line + end + 1))
			break;
	}
	while (end > i && line[end - 1] == ' ')
		end--;
	if (end - i >= n)
		end = i + n - 1;
	memcpy(v, line + i, end - i);
	v[end - i] = '\0';
}

int
sq_jobfiles_parse(const char *text, struct sq_jobfiles *jf, struct sq_err *err)
{
	char ajid[32], atid[64], name[1024], wd[SQ_OUTPATH_MAX], uid[64];
	char *pat = NULL;
	size_t len;
	struct sq_outpath_job j;
	int rc = -1;

	memset(jf, 0, sizeof(*jf));
	while (*text == '\n' || *text == ' ')
		text++;
	len = strcspn(text, "\n");
	field(text, len, "JobId", jf->job_id, sizeof(jf->job_id));
	if (!all_digits(jf->job_id))
		return sq_err_set(err, SQ_ERR_PARSE,
				  "scontrol show job: no job id in its output");
	pat = malloc(SQ_OUTPATH_MAX);
	if (pat == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	field(text, len, "JobState", jf->state, sizeof(jf->state));
	field(text, len, "BatchHost", jf->node, sizeof(jf->node));
	field(text, len, "NodeList", jf->nodelist, sizeof(jf->nodelist));
	field(text, len, "ArrayJobId", ajid, sizeof(ajid));
	field(text, len, "ArrayTaskId", atid, sizeof(atid));
	field(text, len, "JobName", name, sizeof(name));
	field(text, len, "WorkDir", wd, sizeof(wd));
	field(text, len, "UserId", uid, sizeof(uid));
	uid[strcspn(uid, "(")] = '\0';
	snprintf(jf->user, sizeof(jf->user), "%s", uid);
	j = (struct sq_outpath_job){ jf->job_id, ajid,     atid, jf->user,
				     name,       jf->node, wd };
	field(text, len, "StdOut", pat, SQ_OUTPATH_MAX);
	if (sq_outpath_expand(pat, &j, jf->stdout_path,
			      sizeof(jf->stdout_path)) == -1)
		goto toolong;
	field(text, len, "StdErr", pat, SQ_OUTPATH_MAX);
	if (sq_outpath_expand(pat, &j, jf->stderr_path,
			      sizeof(jf->stderr_path)) == -1)
		goto toolong;
	rc = 0;
	goto out;
toolong:
	sq_err_set(err, SQ_ERR_PARSE, "job %s: its output path is too long",
		   jf->job_id);
out:
	free(pat);
	return rc;
}

int
sq_jobfiles_active(const char *state)
{
	static const char *const active[] = {
		"PENDING",    "RUNNING",  "SUSPENDED",    "CONFIGURING",
		"COMPLETING", "REQUEUED", "RESIZING",     "SIGNALING",
		"STAGE_OUT",  "STOPPED",  "REQUEUE_HOLD", NULL
	};
	size_t i;

	for (i = 0; active[i] != NULL; i++) {
		if (strcmp(state, active[i]) == 0)
			return 1;
	}
	return 0;
}

int
sq_jobfiles_waiting(const char *state)
{
	static const char *const waiting[] = { "PENDING",     "CONFIGURING",
					       "REQUEUED",    "REQUEUE_HOLD",
					       "REQUEUE_FED", "RESV_DEL_HOLD",
					       NULL };
	size_t i;

	for (i = 0; waiting[i] != NULL; i++) {
		if (strcmp(state, waiting[i]) == 0)
			return 1;
	}
	return 0;
}

const char *
sq_jobfiles_not_started(const char *jobid, const char *state, const char *what,
			const char *path, char *buf, size_t n)
{
	snprintf(buf, n,
		 "job %s has not started (%s): its %s will be written to %s",
		 jobid, state, what, path);
	return buf;
}

/* Length of the well-formed UTF-8 sequence at p (n bytes left) of a
 * printable character: 1-4; 0 when it is not one; -1 when it is cut. */
static int
utf8_len(const unsigned char *p, size_t n)
{
	int l, i;
	unsigned cp;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	l = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2;
	cp = p[0] & (0x7f >> l);
	for (i = 1; i < l; i++) {
		if ((size_t)i >= n)
			return -1;
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((l == 3 && cp < 0x800) ||
	    (l == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	if ((cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
		return 0;
	/* bidirectional overrides and isolates reorder what follows */
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return 0;
	return l;
}

size_t
sq_text_escape(const char *s, size_t n, int final, struct sq_buf *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;
	char esc[8];
	int l;

	while (i < n) {
		unsigned char c = p[i];

		if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t') {
			i++;
			run++;
			continue;
		}
		l = c >= 0x80 ? utf8_len(p + i, n - i) : 0;
		if (l > 0) {
			i += (size_t)l;
			run += (size_t)l;
			continue;
		}
		if (run > 0 && sq_buf_append(out, p + i - run, run) == -1)
			return (size_t)-1;
		run = 0;
		if (l == -1 && !final)
			return i;
		if (c == '\r')
			snprintf(esc, sizeof(esc), "\\r");
		else
			snprintf(esc, sizeof(esc), "\\x%02x", c);
		if (sq_buf_append(out, esc, strlen(esc)) == -1)
			return (size_t)-1;
		i++;
	}
	if (run > 0 && sq_buf_append(out, p + i - run, run) == -1)
		return (size_t)-1;
	return i;
}
