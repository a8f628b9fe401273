/*
 * parse_sacctmgr.c - associations, accounts, users and QOS from
 * `sacctmgr -n -P show ...` with the fixed format= arguments below.
 *
 * sacctmgr -P separates fields with '|' and does not escape it; the one
 * free-text field of a format (a description) is placed last so it may
 * contain '|'. The assoc listing uses `tree`: the Account field is
 * indented by one space per level, which gives the depth.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/model/name_index.h"
#include "core/base/parse.h"
#include "core/base/util.h"

const char sq_cli_assoc_fmt[] =
    "format=Cluster,Account,User,Partition,ParentName,ID,Share,Priority,"
    "GrpJobs,GrpJobsAccrue,GrpSubmit,GrpTRES,GrpTRESMins,GrpTRESRunMins,"
    "GrpWall,MaxJobs,MaxJobsAccrue,MaxSubmit,MaxTRES,MaxTRESPerNode,"
    "MaxTRESMins,MaxWall,QOS,DefaultQOS";
const char sq_cli_account_fmt[] =
    "format=Account,ParentName,User,Share,Coordinators,Org,Descr";
const char sq_cli_user_fmt[] =
    "format=User,DefaultAccount,DefaultWCKey,AdminLevel,"
    "Coordinators,Account,Partition,QOS,DefaultQOS";
const char sq_cli_qos_fmt[] =
    "format=Name,ID,Priority,Preempt,PreemptMode,PreemptExemptTime,GraceTime,"
    "Flags,UsageFactor,UsageThreshold,GrpJobs,GrpJobsAccrue,GrpSubmit,"
    "GrpTRES,GrpTRESMins,GrpTRESRunMins,GrpWall,MaxJobsPerUser,"
    "MaxJobsPerAccount,MaxSubmitJobsPerUser,MaxSubmitJobsPerAccount,"
    "MaxTRES,MaxTRESPerNode,MaxTRESPerUser,MaxTRESPerAccount,MaxTRESMins,"
    "MaxWall,MinTRES,Description";

/* A string field: "" for Slurm's none-words, else an arena copy. */
static const char *
str(struct sq_snapshot *s, const char *v)
{
	return sq_is_none(v) ? "" : sq_snapshot_str(s, v);
}

/* Split one line into exactly n fields or report a parse error. */
static int
fields(char *line, char **f, int n, const char *what, int lineno,
       struct sq_err *err)
{
	int got = sq_split(line, '|', f, n);

	if (got != n)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "%s line %d: %d fields, expected %d "
				  "(truncated output?)",
				  what, lineno, got, n);
	return 0;
}

/* A field of n bytes (f[i] to the next field's start): "" when empty or
 * a none-word, else an arena copy. Most of an association line's 24
 * fields are empty, and cost a byte's test, not a call. */
static const char *
strn(struct sq_snapshot *s, const char *v, size_t n)
{
	if (n == 0 || sq_is_none(v))
		return "";
	return sq_snapshot_strn(s, v, n);
}

/* The previous line's copy of a field (*last, n bytes): a big tree's
 * lines share their cluster, QOS and parent with the line before, and
 * need one copy of them, not one a line. */
struct again {
	const char *p;
	size_t n;
};

static const char *
strn_again(struct sq_snapshot *s, const char *v, size_t n, struct again *last)
{
	if (n == 0)
		return "";
	if (last->p == NULL || last->n != n || memcmp(last->p, v, n) != 0) {
		last->p = strn(s, v, n);
		last->n = strlen(last->p);
	}
	return last->p;
}

/* sq_parse_int with an empty field (most are) decided here. */
static int
num(const char *v, int64_t *out)
{
	const char *p = v;
	int64_t x = 0;

	if (*v == '\0') {
		*out = SQ_NONE;
		return 0;
	}
	/* a plain count or id (most numbers here) in the loop */
	while (*p >= '0' && *p <= '9' && p - v < 18)
		x = x * 10 + (*p++ - '0');
	if (*p == '\0') {
		*out = x;
		return 0;
	}
	return sq_parse_int(v, out);
}

static int
secs(const char *v, int64_t *out)
{
	if (*v == '\0') {
		*out = SQ_NONE;
		return 0;
	}
	return sq_admin_seconds(v, out);
}

static int
shares(const char *v, int64_t *out)
{
	if (*v == 'p' && strcmp(v, "parent") == 0) {
		*out = SQ_INFINITE;
		return 0;
	}
	return num(v, out);
}

enum {
	A_CLUSTER,
	A_ACCOUNT,
	A_USER,
	A_PART,
	A_PARENT,
	A_ID,
	A_SHARE,
	A_PRIO,
	A_GRPJOBS,
	A_GRPJOBSACCRUE,
	A_GRPSUBMIT,
	A_GRPTRES,
	A_GRPTRESMINS,
	A_GRPTRESRUNMINS,
	A_GRPWALL,
	A_MAXJOBS,
	A_MAXJOBSACCRUE,
	A_MAXSUBMIT,
	A_MAXTRES,
	A_MAXTRESPN,
	A_MAXTRESMINS,
	A_MAXWALL,
	A_QOS,
	A_DEFQOS,
	A_COUNT
};

/* Split a line of len bytes at '|' into at most max fields (the last
 * keeps the rest), their lengths into fl: sq_split without a pass over a
 * field after it. */
static int
split_bar(char *line, size_t len, char **f, size_t *fl, int max)
{
	char *p = line, *end = line + len, *d;
	int n = 0;

	for (;;) {
		if (n == max - 1) {
			d = end;
		} else {
			for (d = p; d < end && *d != '|'; d++)
				;
		}
		f[n] = p;
		fl[n++] = (size_t)(d - p);
		if (d == end)
			return n;
		*d = '\0';
		p = d + 1;
	}
}

/*
 * A part of an association listing one thread parses: [text, its NUL)
 * into s. Why it stopped: rc 0; -1 out of memory; -2 at line bad_line
 * (bad_n fields), -3 (no account), -4 (a bad number).
 */
/* The fewest bytes an association line holds: 23 delimiters, an account
 * name, its newline. */
#define ROW_MIN 25

struct apart {
	char *text;
	struct sq_snapshot *s;
	int lines, rc, bad_line, bad_n;
	pthread_t th;
};

static int
assoc_stop(struct apart *p, int rc, int lineno, int n)
{
	p->bad_line = lineno;
	p->bad_n = n;
	return p->rc = rc;
}

static int
assoc_lines(struct apart *p)
{
	struct sq_snapshot *s = p->s;
	struct again cluster = { 0 }, part = { 0 }, parent = { 0 }, qos = { 0 },
		     defqos = { 0 };
	char *pos = p->text, *end = pos + strlen(pos), *f[A_COUNT];
	size_t fl[A_COUNT];
	int lineno = 0;

	while (pos < end) {
		char *line = pos, *nl = memchr(pos, '\n', (size_t)(end - pos));
		size_t len =
		    nl != NULL ? (size_t)(nl - pos) : (size_t)(end - pos);
		struct sq_assoc *a;
		const char *acct;
		int bad = 0, n;

		pos = nl != NULL ? nl + 1 : end;
		line[len] = '\0';
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		p->lines = ++lineno;
		if (len == 0)
			continue;
		n = split_bar(line, len, f, fl, A_COUNT);
		if (n != A_COUNT)
			return assoc_stop(p, -2, lineno, n);
		acct = f[A_ACCOUNT];
		while (*acct == ' ')
			acct++;
		if (*acct == '\0')
			return assoc_stop(p, -3, lineno, 0);
		a = sq_snapshot_add(s);
		if (a == NULL)
			return p->rc = -1;
		a->depth = (int)(acct - f[A_ACCOUNT]);
		a->cluster =
		    strn_again(s, f[A_CLUSTER], fl[A_CLUSTER], &cluster);
		a->account =
		    sq_snapshot_strn(s, acct, fl[A_ACCOUNT] - (size_t)a->depth);
		a->user = strn(s, f[A_USER], fl[A_USER]);
		a->partition = strn_again(s, f[A_PART], fl[A_PART], &part);
		a->parent = strn_again(s, f[A_PARENT], fl[A_PARENT], &parent);
		bad |= num(f[A_ID], &a->id);
		bad |= shares(f[A_SHARE], &a->shares);
		bad |= num(f[A_PRIO], &a->priority);
		bad |= num(f[A_GRPJOBS], &a->grp_jobs);
		bad |= num(f[A_GRPJOBSACCRUE], &a->grp_jobs_accrue);
		bad |= num(f[A_GRPSUBMIT], &a->grp_submit);
		a->grp_tres = strn(s, f[A_GRPTRES], fl[A_GRPTRES]);
		a->grp_tres_mins = strn(s, f[A_GRPTRESMINS], fl[A_GRPTRESMINS]);
		a->grp_tres_run_mins =
		    strn(s, f[A_GRPTRESRUNMINS], fl[A_GRPTRESRUNMINS]);
		bad |= secs(f[A_GRPWALL], &a->grp_wall);
		bad |= num(f[A_MAXJOBS], &a->max_jobs);
		bad |= num(f[A_MAXJOBSACCRUE], &a->max_jobs_accrue);
		bad |= num(f[A_MAXSUBMIT], &a->max_submit);
		a->max_tres = strn(s, f[A_MAXTRES], fl[A_MAXTRES]);
		a->max_tres_per_node = strn(s, f[A_MAXTRESPN], fl[A_MAXTRESPN]);
		a->max_tres_mins = strn(s, f[A_MAXTRESMINS], fl[A_MAXTRESMINS]);
		bad |= secs(f[A_MAXWALL], &a->max_wall);
		a->qos = strn_again(s, f[A_QOS], fl[A_QOS], &qos);
		a->default_qos =
		    strn_again(s, f[A_DEFQOS], fl[A_DEFQOS], &defqos);
		if (bad)
			return assoc_stop(p, -4, lineno, 0);
	}
	return p->rc = 0;
}

static void *
assoc_main(void *arg)
{
	assoc_lines(arg);
	return NULL;
}

/* Why part p (its first line base + 1 of the text) stopped, into err. */
static int
assoc_err(const struct apart *p, int base, struct sq_err *err)
{
	int at = base + p->bad_line;

	switch (p->rc) {
	case -2:
		return sq_err_set(err, SQ_ERR_PARSE,
				  "sacctmgr assoc line %d: %d fields, "
				  "expected %d (truncated output?)",
				  at, p->bad_n, A_COUNT);
	case -3:
		return sq_err_set(err, SQ_ERR_PARSE,
				  "sacctmgr assoc line %d: no account", at);
	case -4:
		return sq_err_set(err, SQ_ERR_PARSE,
				  "sacctmgr assoc line %d: bad number", at);
	default:
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
}

/*
 * Room in s for the most rows a text of len bytes can hold (ROW_MIN
 * bytes each), in huge pages where the system gives them: no copy as the
 * rows grow, none when the second part's rows come after the first's,
 * and a fault per 2 MiB, not per 4 KiB, as the rows are written (the
 * most of a big tree's parse, sq_util_huge). Only the pages written are
 * memory; the rest is given back when the parse is done. Without it
 * the rows grow as usual.
 */
static void
room(struct sq_snapshot *s, size_t len)
{
	if (sq_snapshot_reserve(s, len / ROW_MIN + 1) == 0)
		sq_util_huge(s->rows, s->cap * s->rowsize);
}

int
sq_parse_sacctmgr_assoc_cut(char *text, size_t min, struct sq_snapshot *s,
			    struct sq_err *err)
{
	struct apart p[2] = { { .text = text, .s = s } };
	size_t len = strlen(text);
	char *cut = NULL;
	int two = 0, rc;

	/* the second part starts at the first line after the middle; an
	 * association's line stands alone (its depth is its indent) */
	if (len >= min && len > 0)
		cut = memchr(text + len / 2, '\n', len - len / 2);
	room(s, len);
	if (cut != NULL && cut[1] != '\0' &&
	    (p[1].s = sq_snapshot_new(s->kind, 0)) != NULL) {
		*cut = '\0';
		p[1].text = cut + 1;
		room(p[1].s, len - (size_t)(cut - text));
		two = sq_util_thread_start(&p[1].th, assoc_main, &p[1]) == 0;
		if (!two) { /* one part after all */
			*cut = '\n';
			sq_snapshot_unref(p[1].s);
		}
	}
	assoc_lines(&p[0]);
	if (two)
		pthread_join(p[1].th, NULL);
	if (p[0].rc != 0)
		rc = assoc_err(&p[0], 0, err);
	else if (two && p[1].rc != 0)
		rc = assoc_err(&p[1], p[0].lines, err);
	else if (two && sq_snapshot_append(s, p[1].s) == -1)
		rc = sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	else
		rc = two ? 2 : 1;
	if (two)
		sq_snapshot_unref(p[1].s);
	sq_snapshot_fit(s);
	return rc < 0 ? -1 : rc;
}

/* A big site's tree (a megabyte is some 14,000 associations) is parsed
 * in two parts at once. */
int
sq_parse_sacctmgr_assoc(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	return sq_parse_sacctmgr_assoc_cut(text, (size_t)1 << 20, s, err) < 0
		   ? -1
		   : 0;
}

/* The row of the record named name, or a new one (NULL without memory):
 * an account or user has a line per association (with its users,
 * accounts, QOS); x finds the record of each. */
static void *
named_row(struct sq_snapshot *s, struct sq_name_index *x, const char *name,
	  int *fresh)
{
	size_t at;
	long i = sq_name_index_find(x, s, name, &at);
	void *row;

	*fresh = 0;
	if (i >= 0)
		return sq_snapshot_row(s, (size_t)i);
	row = sq_snapshot_add(s);
	if (row == NULL || sq_name_index_put(x, at, s->nrows - 1) == -1)
		return NULL;
	*fresh = 1;
	return row;
}

enum { C_ACCOUNT, C_PARENT, C_USER, C_SHARE, C_COORD, C_ORG, C_DESCR, C_COUNT };

int
sq_parse_sacctmgr_account(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[C_COUNT];
	int lineno = 0, rc = -1, fresh;
	struct sq_name_index x;

	if (sq_name_index_init(&x, sq_count_lines(text),
			       offsetof(struct sq_account, name)) == -1) {
		sq_name_index_free(&x);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_account *a;

		lineno++;
		if (*line == '\0')
			continue;
		if (fields(line, f, C_COUNT, "sacctmgr account", lineno, err))
			goto out;
		if (f[C_ACCOUNT][0] == '\0') {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sacctmgr account line %d: no name", lineno);
			goto out;
		}
		a = named_row(s, &x, f[C_ACCOUNT], &fresh);
		if (a == NULL) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		if (fresh) {
			a->name = sq_snapshot_str(s, f[C_ACCOUNT]);
			a->description = str(s, f[C_DESCR]);
			a->organization = str(s, f[C_ORG]);
			a->coordinators = str(s, f[C_COORD]);
			a->parent = a->users = "";
			a->shares = SQ_NONE;
		}
		if (f[C_USER][0] == '\0') {
			/* the account's own association */
			a->parent = str(s, f[C_PARENT]);
			if (shares(f[C_SHARE], &a->shares) == -1) {
				sq_err_set(err, SQ_ERR_PARSE,
					   "sacctmgr account line %d: "
					   "bad share '%s'",
					   lineno, f[C_SHARE]);
				goto out;
			}
		} else if (!sq_admin_in_list(a->users, f[C_USER])) {
			if (sq_admin_list_add(s, &a->users, f[C_USER]) == -1) {
				sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
				goto out;
			}
			a->nusers++;
		}
	}
	rc = 0;
out:
	sq_name_index_free(&x);
	return rc;
}

enum {
	U_USER,
	U_DEFACCT,
	U_WCKEY,
	U_ADMIN,
	U_COORD,
	U_ACCOUNT,
	U_PART,
	U_QOS,
	U_DEFQOS,
	U_COUNT
};

int
sq_parse_sacctmgr_user(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[U_COUNT];
	int lineno = 0, rc = -1, fresh;
	struct sq_name_index x;

	if (sq_name_index_init(&x, sq_count_lines(text),
			       offsetof(struct sq_user, name)) == -1) {
		sq_name_index_free(&x);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_user *u;

		lineno++;
		if (*line == '\0')
			continue;
		if (fields(line, f, U_COUNT, "sacctmgr user", lineno, err))
			goto out;
		if (f[U_USER][0] == '\0') {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sacctmgr user line %d: no name", lineno);
			goto out;
		}
		u = named_row(s, &x, f[U_USER], &fresh);
		if (u == NULL) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		if (fresh) {
			u->name = sq_snapshot_str(s, f[U_USER]);
			u->default_account = str(s, f[U_DEFACCT]);
			u->default_wckey = str(s, f[U_WCKEY]);
			u->admin_level = sq_snapshot_str(s, f[U_ADMIN]);
			u->coordinator_of = str(s, f[U_COORD]);
			u->accounts = u->qos = u->default_qos = "";
		}
		if (sq_admin_list_add(s, &u->accounts, f[U_ACCOUNT]) == -1 ||
		    sq_admin_list_add(s, &u->qos, f[U_QOS]) == -1) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		/* the default QOS of the default account's association wins */
		if (f[U_DEFQOS][0] != '\0' &&
		    (u->default_qos[0] == '\0' ||
		     strcmp(f[U_ACCOUNT], u->default_account) == 0))
			u->default_qos = sq_snapshot_str(s, f[U_DEFQOS]);
	}
	rc = 0;
out:
	sq_name_index_free(&x);
	return rc;
}

enum {
	Q_NAME,
	Q_ID,
	Q_PRIO,
	Q_PREEMPT,
	Q_PMODE,
	Q_PEXEMPT,
	Q_GRACE,
	Q_FLAGS,
	Q_UFACTOR,
	Q_UTHRESH,
	Q_GRPJOBS,
	Q_GRPJOBSACCRUE,
	Q_GRPSUBMIT,
	Q_GRPTRES,
	Q_GRPTRESMINS,
	Q_GRPTRESRUNMINS,
	Q_GRPWALL,
	Q_MAXJOBSPU,
	Q_MAXJOBSPA,
	Q_MAXSUBMITPU,
	Q_MAXSUBMITPA,
	Q_MAXTRES,
	Q_MAXTRESPN,
	Q_MAXTRESPU,
	Q_MAXTRESPA,
	Q_MAXTRESMINS,
	Q_MAXWALL,
	Q_MINTRES,
	Q_DESCR,
	Q_COUNT
};

int
sq_parse_sacctmgr_qos(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[Q_COUNT];
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_qos *q;
		int bad = 0;

		lineno++;
		if (*line == '\0')
			continue;
		if (fields(line, f, Q_COUNT, "sacctmgr qos", lineno, err))
			return -1;
		if (f[Q_NAME][0] == '\0')
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr qos line %d: no name",
					  lineno);
		q = sq_snapshot_add(s);
		if (q == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		q->name = sq_snapshot_str(s, f[Q_NAME]);
		q->description = str(s, f[Q_DESCR]);
		bad |= sq_parse_int(f[Q_ID], &q->id);
		bad |= sq_parse_int(f[Q_PRIO], &q->priority);
		q->preempt = str(s, f[Q_PREEMPT]);
		q->preempt_mode = str(s, f[Q_PMODE]);
		bad |= sq_admin_seconds(f[Q_PEXEMPT], &q->preempt_exempt_time);
		bad |= sq_admin_seconds(f[Q_GRACE], &q->grace_time);
		q->flags = str(s, f[Q_FLAGS]);
		bad |= sq_admin_double(f[Q_UFACTOR], &q->usage_factor);
		bad |= sq_admin_double(f[Q_UTHRESH], &q->usage_threshold);
		bad |= sq_parse_int(f[Q_GRPJOBS], &q->grp_jobs);
		bad |= sq_parse_int(f[Q_GRPJOBSACCRUE], &q->grp_jobs_accrue);
		bad |= sq_parse_int(f[Q_GRPSUBMIT], &q->grp_submit);
		q->grp_tres = str(s, f[Q_GRPTRES]);
		q->grp_tres_mins = str(s, f[Q_GRPTRESMINS]);
		q->grp_tres_run_mins = str(s, f[Q_GRPTRESRUNMINS]);
		bad |= sq_admin_seconds(f[Q_GRPWALL], &q->grp_wall);
		bad |= sq_parse_int(f[Q_MAXJOBSPU], &q->max_jobs_pu);
		bad |= sq_parse_int(f[Q_MAXJOBSPA], &q->max_jobs_pa);
		bad |= sq_parse_int(f[Q_MAXSUBMITPU], &q->max_submit_pu);
		bad |= sq_parse_int(f[Q_MAXSUBMITPA], &q->max_submit_pa);
		q->max_tres = str(s, f[Q_MAXTRES]);
		q->max_tres_per_node = str(s, f[Q_MAXTRESPN]);
		q->max_tres_pu = str(s, f[Q_MAXTRESPU]);
		q->max_tres_pa = str(s, f[Q_MAXTRESPA]);
		q->max_tres_mins = str(s, f[Q_MAXTRESMINS]);
		bad |= sq_admin_seconds(f[Q_MAXWALL], &q->max_wall);
		q->min_tres = str(s, f[Q_MINTRES]);
		if (bad)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr qos line %d: bad number",
					  lineno);
	}
	return 0;
}
