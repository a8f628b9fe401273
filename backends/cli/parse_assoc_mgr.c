/*
 * parse_assoc_mgr.c - limits in force and their usage from `scontrol
 * show assoc_mgr flags=assoc,qos`. Values print as LIMIT(USED) with N
 * for "no limit" (GrpJobs=N(4), MaxJobs=2(2), GrpTRES=cpu=N(20),
 * gres/gpu=6(5)); only set limits become rows. QOS per-user limits are
 * keyed by uid; the association records give the uid -> name map.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

enum mode { M_NONE, M_ASSOC, M_QOS };
enum sub { SUB_NONE, SUB_ACCOUNT, SUB_USER };

#define MAX_UIDS 4096

struct amgr {
	struct sq_snapshot *s;
	enum mode mode;
	enum sub sub;
	const char *cluster, *account, *user, *partition, *parent, *qos;
	const char *subname;
	int64_t id;
	size_t first_row; /* first row of the current record */
	struct {
		long uid;
		const char *name;
	} uids[MAX_UIDS];
	int nuids;
};

/* "bob(1002)" -> "bob" (uid in *uid), "root(1)" -> "root" */
static const char *
name_id(struct amgr *a, char *v, long *id)
{
	char *p = strchr(v, '(');

	if (id != NULL)
		*id = -1;
	if (p != NULL) {
		*p = '\0';
		if (id != NULL)
			*id = strtol(p + 1, NULL, 10);
	}
	return v[0] ? sq_snapshot_str(a->s, v) : "";
}

/* A QOS's per-user entry: "1000" (22.05, the uid, named from the
 * associations read before) or "alice(1000)" (24.11+: the name first). */
static const char *
uid_name(struct amgr *a, char *uid)
{
	char *end;
	long u = strtol(uid, &end, 10);
	int i;

	if (strchr(uid, '(') != NULL && !isdigit((unsigned char)uid[0]))
		return name_id(a, uid, NULL);
	if (*end == '\0') {
		for (i = 0; i < a->nuids; i++) {
			if (a->uids[i].uid == u)
				return a->uids[i].name;
		}
	}
	return sq_snapshot_str(a->s, uid);
}

/* "6(0)" / "N(4)" / "120" / "N" -> limit (SQ_NONE for N) and used */
static int
limit_used(const char *v, int64_t *limit, int64_t *used)
{
	char *end;
	double d;

	*limit = *used = SQ_NONE;
	if (*v == 'N') {
		v++;
	} else if (isdigit((unsigned char)*v)) {
		*limit = strtoll(v, &end, 10);
		v = end;
	} else {
		return -1;
	}
	if (*v == '(') {
		d = strtod(v + 1, &end);
		if (end == v + 1 || *end != ')')
			return -1;
		*used = (int64_t)llround(d);
		v = end + 1;
	}
	return *v == '\0' ? 0 : -1;
}

static int
emit(struct amgr *a, const char *limit, const char *tres, int64_t value,
     int64_t used, struct sq_err *err)
{
	struct sq_limit *l = sq_snapshot_add(a->s);

	if (l == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	l->scope = a->mode == M_QOS ? "qos" : "assoc";
	l->cluster = a->cluster;
	l->account = a->account;
	l->user = a->user;
	l->partition = a->partition;
	l->parent = a->parent;
	l->qos = a->qos;
	if (a->mode == M_QOS && a->sub == SUB_ACCOUNT)
		l->account = a->subname;
	if (a->mode == M_QOS && a->sub == SUB_USER)
		l->user = a->subname;
	l->id = a->id;
	l->limit = sq_snapshot_str(a->s, limit);
	l->tres = sq_snapshot_str(a->s, tres);
	l->value = value;
	l->used = used;
	return 0;
}

static int
is_limit_key(const char *k)
{
	return (strncmp(k, "Grp", 3) == 0 || strncmp(k, "Max", 3) == 0 ||
		strncmp(k, "Min", 3) == 0) &&
	       strcmp(k, "MinPrioThresh") != 0;
}

static int
limit_token(struct amgr *a, const char *key, char *val, int lineno,
	    struct sq_err *err)
{
	int64_t lim, used;

	if (*val == '\0')
		return 0;
	if (strchr(val, '=') == NULL) {
		if (limit_used(val, &lim, &used) == -1)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "assoc_mgr line %d: bad %s value",
					  lineno, key);
		if (lim != SQ_NONE)
			return emit(a, key, "", lim, used, err);
		return 0;
	}
	/* a TRES list: name=LIMIT(USED),... */
	for (char *item = val, *next; item != NULL && *item; item = next) {
		char *eq;

		next = strchr(item, ',');
		if (next != NULL)
			*next++ = '\0';
		eq = strchr(item, '=');
		if (eq == NULL)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "assoc_mgr line %d: bad %s item",
					  lineno, key);
		*eq = '\0';
		if (limit_used(eq + 1, &lim, &used) == -1)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "assoc_mgr line %d: bad %s value",
					  lineno, key);
		if (lim != SQ_NONE && emit(a, key, item, lim, used, err) == -1)
			return -1;
	}
	return 0;
}

static void
start_record(struct amgr *a, enum mode m)
{
	a->mode = m;
	a->sub = SUB_NONE;
	a->cluster = a->account = a->user = a->partition = a->parent = "";
	a->qos = a->subname = "";
	a->id = SQ_NONE;
	a->first_row = a->s->nrows;
}

/* A line without '=': a section title ("Association Records", "User
 * Limits") or, in a QOS's per-account/user limits, the account or user
 * they are of; 1 for a title that begins the output. */
static int
title_line(struct amgr *a, char *p)
{
	char *e = p + strlen(p);

	while (e > p && e[-1] == ' ')
		*--e = '\0';
	if (strcmp(p, "Current Association Manager state") == 0 ||
	    strstr(p, " Records") != NULL) {
		start_record(a, M_NONE);
		return 1;
	}
	if (strcmp(p, "Account Limits") == 0)
		a->sub = SUB_ACCOUNT;
	else if (strcmp(p, "User Limits") == 0)
		a->sub = SUB_USER;
	else if (a->mode == M_QOS && a->sub == SUB_ACCOUNT)
		a->subname = sq_snapshot_str(a->s, p);
	else if (a->mode == M_QOS && a->sub == SUB_USER)
		a->subname = uid_name(a, p);
	return 0;
}

/* One key=value of an association or QOS record; -1 on a bad limit. */
static int
record_token(struct amgr *a, char *key, char *val, int lineno,
	     struct sq_err *err)
{
	struct sq_snapshot *s = a->s;
	long id;

	if (a->mode == M_ASSOC && strcmp(key, "ClusterName") == 0) {
		a->cluster = sq_snapshot_str(s, val);
	} else if (a->mode == M_ASSOC && strcmp(key, "Account") == 0) {
		a->account = sq_snapshot_str(s, val);
	} else if (a->mode == M_ASSOC && strcmp(key, "UserName") == 0) {
		a->user = name_id(a, val, &id);
		if (id >= 0 && a->nuids < MAX_UIDS) {
			a->uids[a->nuids].uid = id;
			a->uids[a->nuids++].name = a->user;
		}
	} else if (a->mode == M_ASSOC && strcmp(key, "Partition") == 0) {
		a->partition = sq_snapshot_str(s, val);
	} else if (a->mode == M_ASSOC && strcmp(key, "ParentAccount") == 0) {
		size_t i;

		/* the limits of this record came first: they get it too */
		a->parent = name_id(a, val, NULL);
		for (i = a->first_row; i < s->nrows; i++)
			((struct sq_limit *)sq_snapshot_row(s, i))->parent =
			    a->parent;
	} else if (strcmp(key, "ID") == 0) {
		a->id = strtoll(val, NULL, 10);
	} else if (a->mode == M_QOS && strcmp(key, "QOS") == 0) {
		a->qos = name_id(a, val, &id);
		a->id = id;
	} else if (a->mode != M_NONE && is_limit_key(key)) {
		return limit_token(a, key, val, lineno, err);
	}
	return 0;
}

int
sq_parse_assoc_mgr(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	struct amgr *a;
	char *pos = text, *line;
	int lineno = 0, rc = -1, seen = 0;

	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	a->s = s;
	start_record(a, M_NONE);
	while ((line = sq_next_line(&pos)) != NULL) {
		char *tok, *save = NULL, *p = line;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			continue;
		if (strchr(p, '=') == NULL) {
			seen |= title_line(a, p);
			continue;
		}
		if (strncmp(p, "ClusterName=", 12) == 0)
			start_record(a, M_ASSOC);
		else if (strncmp(p, "QOS=", 4) == 0)
			start_record(a, M_QOS);
		else if (strncmp(p, "UserName=", 9) == 0 && a->mode != M_ASSOC)
			start_record(a, M_NONE); /* flags=users records */
		for (tok = strtok_r(p, " \t", &save); tok != NULL;
		     tok = strtok_r(NULL, " \t", &save)) {
			char *eq = strchr(tok, '=');

			if (eq == NULL)
				continue;
			*eq = '\0';
			if (record_token(a, tok, eq + 1, lineno, err) == -1)
				goto out;
		}
	}
	if (!seen) {
		sq_err_set(err, SQ_ERR_PARSE,
			   "not the output of scontrol show assoc_mgr");
		goto out;
	}
	rc = 0;
out:
	free(a);
	return rc;
}
