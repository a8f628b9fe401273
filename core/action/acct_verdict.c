/*
 * acct_verdict.c - the one verdict of the account, user, association and
 * QOS actions (acct_verdict.h): values normalized by their argument type
 * (core/action/action.c's specs, limit_keys.h) so that sacctmgr's and
 * slurmrestd's readings of the same state are the same text, and the
 * comparison of what was asked with what was read. Never reads the
 * cluster, never prints.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/action/acct_verdict.h"
#include "core/action/limit_keys.h"
#include "core/base/none.h"
#include "core/base/parse.h"
#include "core/base/util.h"

/* Slurm's "use the parent's shares" (SLURMDB_FS_USE_PARENT) */
#define FS_USE_PARENT 2147483647LL

void
sq_acct_rec_init(struct sq_acct_rec *r)
{
	memset(r, 0, sizeof(*r));
}

const char *
sq_acct_rec_get(const struct sq_acct_rec *r, const char *key)
{
	size_t i;

	for (i = 0; r != NULL && i < r->n; i++) {
		if (strcmp(r->f[i].key, key) == 0)
			return r->f[i].val;
	}
	return NULL;
}

const char *const *
sq_acct_rec_keys(enum sq_kind kind)
{
	static const char *const assoc[] = {
		"grptres",    "grpjobs",   "grpsubmit", "maxtres",
		"maxwall",    "maxjobs",   "maxsubmit", "qos",
		"defaultqos", "fairshare", NULL
	};
	static const char *const qos[] = {
		"grptres",     "grpjobs",     "grpsubmit",   "maxtres",
		"maxwall",     "priority",    "preempt",     "preemptmode",
		"usagefactor", "gracetime",   "flags",       "grpwall",
		"maxjobspu",   "maxsubmitpu", "maxtrespu",   "maxjobspa",
		"maxsubmitpa", "maxtrespa",   "description", NULL
	};
	static const char *const users[] = { "defaultaccount", "defaultqos",
					     "adminlevel", "defaultwckey",
					     NULL };
	static const char *const accounts[] = { "parent",       "description",
						"organization", "fairshare",
						"coordinators", NULL };
	static const char *const none[] = { NULL };

	switch (kind) {
	case SQ_KIND_ASSOCS:
		return assoc;
	case SQ_KIND_QOS:
		return qos;
	case SQ_KIND_USERS:
		return users;
	case SQ_KIND_ACCOUNTS:
		return accounts;
	default:
		return none;
	}
}

/* The value type of key on kind: the spec of the action that sets it. */
static int
type_of(enum sq_kind kind, const char *key, enum sq_arg_type *t)
{
	static const struct {
		enum sq_kind kind;
		enum sq_action_type type;
	} setter[] = {
		{ SQ_KIND_ASSOCS, SQ_ACTION_ACCT_SET_LIMIT },
		{ SQ_KIND_QOS, SQ_ACTION_QOS_ADD },
		{ SQ_KIND_USERS, SQ_ACTION_ACCT_MODIFY_USER },
		{ SQ_KIND_ACCOUNTS, SQ_ACTION_ACCT_ADD_ACCOUNT },
	};
	const struct sq_arg_spec *sp;
	size_t i;

	if (strcmp(key, "coordinators") == 0) {
		*t = SQ_ARG_NAMELIST;
		return 0;
	}
	for (i = 0; i < sizeof(setter) / sizeof(setter[0]); i++) {
		if (setter[i].kind != kind)
			continue;
		sp = sq_action_arg_spec(sq_action_def(setter[i].type), key);
		if (sp == NULL)
			return -1;
		*t = sp->type;
		return 0;
	}
	return -1;
}

static int
unset_word(const char *v)
{
	return *v == '\0' || strcmp(v, "-1") == 0 ||
	       strcasecmp(v, "UNLIMITED") == 0 ||
	       strcasecmp(v, "INFINITE") == 0 || strcmp(v, "(null)") == 0;
}

static int
cmp_ci(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* Comma-separated items sorted; each item through fix (NULL: as is;
 * fix returning 0 drops it). */
static void
sorted_list(const char *raw, char *out, size_t n,
	    int (*fix)(char *item, size_t len))
{
	char copy[1024], *v[64], *tok, *save = NULL;
	size_t nv = 0, i, off = 0;

	sq_util_copy(copy, sizeof(copy), raw);
	for (tok = strtok_r(copy, ",", &save); tok != NULL && nv < 64;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*tok != '\0' && (fix == NULL || fix(tok, strlen(tok))))
			v[nv++] = tok;
	}
	qsort(v, nv, sizeof(v[0]), cmp_ci);
	out[0] = '\0';
	for (i = 0; i < nv && off < n; i++)
		off += (size_t)snprintf(out + off, n - off, "%s%s",
					i ? "," : "", v[i]);
}

/* One TRES "mem=2000M" as "mem=2000" (mem in MB), a count of -1 or one
 * that is no number dropped. */
static int
tres_fix(char *item, size_t len)
{
	char *eq = strchr(item, '=');
	int64_t c;

	(void)len;
	if (eq == NULL)
		return 0;
	*eq = '\0';
	if (strcasecmp(item, "mem") == 0 ? sq_parse_mem_mb(eq + 1, &c) != 0
					 : sq_parse_int(eq + 1, &c) != 0) {
		*eq = '=';
		return 1; /* as it is */
	}
	if (c < 0)
		return 0;
	/* the item's buffer holds the digits: it only gets shorter or
	 * loses a unit */
	snprintf(eq, len - (size_t)(eq - item) + 1, "=%lld", (long long)c);
	return 1;
}

static void
norm(enum sq_arg_type t, const char *raw, char *out, size_t n)
{
	int64_t v = 0;

	out[0] = '\0';
	if (t != SQ_ARG_TEXT && unset_word(raw))
		return;
	switch (t) {
	case SQ_ARG_NUMBER:
	case SQ_ARG_INT:
		if (sq_parse_int(raw, &v) == 0)
			snprintf(out, n, "%lld", (long long)v);
		else
			sq_util_copy(out, n, raw);
		return;
	case SQ_ARG_DURATION: /* minutes or [D-]HH:MM:SS */
		if (sq_parse_duration(raw, &v) == 0 && v >= 0)
			sq_fmt_duration(v, out, n);
		else
			sq_util_copy(out, n, raw);
		return;
	case SQ_ARG_SECONDS: /* seconds, or shown as [D-]HH:MM:SS */
		if (strchr(raw, ':') != NULL ? sq_parse_duration(raw, &v) == 0
					     : sq_parse_int(raw, &v) == 0)
			snprintf(out, n, "%lld", (long long)v);
		else
			sq_util_copy(out, n, raw);
		return;
	case SQ_ARG_TRES:
		sorted_list(raw, out, n, tres_fix);
		return;
	case SQ_ARG_NAMELIST:
		sorted_list(raw, out, n, NULL);
		return;
	case SQ_ARG_ENUM:
		sq_util_copy(out, n, raw);
		sq_action_fold(out, n);
		/* a QOS's preempt mode off is the cluster's (one value in
		 * slurmdbd); admin is short for administrator */
		if (strcmp(out, "off") == 0 || strcmp(out, "disabled") == 0)
			sq_util_copy(out, n, "cluster");
		else if (strcmp(out, "admin") == 0)
			sq_util_copy(out, n, "administrator");
		return;
	case SQ_ARG_DECIMAL:
		snprintf(out, n, "%.6f", strtod(raw, NULL));
		return;
	case SQ_ARG_FAIRSHARE:
		if (sq_parse_int(raw, &v) == 0 && v != FS_USE_PARENT)
			snprintf(out, n, "%lld", (long long)v);
		else if (strcasecmp(raw, "parent") == 0 || v == FS_USE_PARENT)
			sq_util_copy(out, n, "parent");
		else
			sq_util_copy(out, n, raw);
		return;
	default:
		sq_util_copy(out, n, raw);
		return;
	}
}

void
sq_acct_rec_put(struct sq_acct_rec *r, enum sq_kind kind, const char *key,
		const char *raw)
{
	enum sq_arg_type t = SQ_ARG_TEXT;
	size_t i;

	if (raw == NULL)
		return;
	if (type_of(kind, key, &t) == -1)
		t = SQ_ARG_TEXT;
	for (i = 0; i < r->n && strcmp(r->f[i].key, key) != 0; i++)
		;
	if (i == r->n) {
		if (r->n >= SQ_ACCT_REC_MAX)
			return;
		sq_util_copy(r->f[r->n].key, sizeof(r->f[0].key), key);
		r->n++;
	}
	norm(t, raw, r->f[i].val, sizeof(r->f[i].val));
}

int
sq_acct_has_verdict(enum sq_action_type t)
{
	const struct sq_action_def *d = sq_action_def(t);

	return d != NULL &&
	       (d->kind == SQ_KIND_ACCOUNTS || d->kind == SQ_KIND_USERS ||
		d->kind == SQ_KIND_ASSOCS || d->kind == SQ_KIND_QOS);
}

/* The item of list ("cpu=16,mem=2000") named name into buf (the whole
 * "name=value"); NULL when not in it. Names compare in any case. */
static const char *
item_of(const char *list, const char *name, char *buf, size_t n)
{
	const char *p = list;
	size_t nl = strcspn(name, "=");

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, ","), kl = strcspn(p, "=,");

		if (kl == nl && strncasecmp(p, name, nl) == 0) {
			snprintf(buf, n, "%.*s", (int)len, p);
			return buf;
		}
		p += len + (p[len] == ',');
	}
	return NULL;
}

/* Every TRES asked has its count in have; one asked -1 is not in it. */
static int
tres_as_asked(const char *want, const char *have)
{
	char copy[1024], *tok, *save = NULL;

	sq_util_copy(copy, sizeof(copy), want);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), one[160], got[160];

		if (eq == NULL)
			return 0;
		if (strcmp(eq + 1, "-1") == 0) {
			if (item_of(have, tok, got, sizeof(got)) != NULL)
				return 0;
			continue;
		}
		norm(SQ_ARG_TRES, tok, one, sizeof(one));
		if (item_of(have, tok, got, sizeof(got)) == NULL ||
		    strcasecmp(got, one) != 0)
			return 0;
	}
	return 1;
}

/* Does have read as want (as typed) of type t? */
static int
as_asked(enum sq_arg_type t, const char *want, const char *have)
{
	char w[512];

	if (t == SQ_ARG_TRES)
		return strcmp(want, "-1") == 0 ? *have == '\0'
					       : tres_as_asked(want, have);
	norm(t, want, w, sizeof(w));
	if (t == SQ_ARG_TEXT)
		return strcmp(w, have) == 0;
	return strcasecmp(w, have) == 0;
}

/* Each key=value of a reads back as asked; else 0 with what differs. */
static int
args_as_asked(const struct sq_action *a, const struct sq_acct_rec *r, char *msg,
	      size_t n)
{
	size_t i;

	for (i = 0; i < a->nargs; i++) {
		size_t kl = strcspn(a->args[i], "=");
		const char *want = a->args[i] + kl + (a->args[i][kl] == '=');
		const struct sq_arg_spec *sp;
		const char *have;
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)(kl < 63 ? kl : 63),
			 a->args[i]);
		sp = sq_action_arg_spec(a->def, key);
		have = sq_acct_rec_get(r, key);
		if (sp == NULL || have == NULL)
			continue; /* not a field of the target, or not read */
		if (!as_asked(sp->type, want, have)) {
			snprintf(msg, n,
				 "not as asked: %s is '%.100s', not '%.100s'",
				 key, *have ? have : "(unset)", want);
			return 0;
		}
	}
	return 1;
}

/* clearlimit: every limit named is unset now. */
static int
cleared(const struct sq_action *a, const struct sq_acct_rec *r, char *msg,
	size_t n)
{
	const char *list = sq_action_arg(a, "limits");
	char copy[512], *tok, *save = NULL;

	sq_util_copy(copy, sizeof(copy), list ? list : "");
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct sq_limit_key *k = sq_limit_find(tok, SQ_LIM_ASSOC);
		const char *have = sq_acct_rec_get(r, k ? k->key : tok);

		if (have != NULL && *have != '\0') {
			snprintf(msg, n, "not cleared: %s is '%.100s'",
				 k ? k->key : tok, have);
			return 0;
		}
	}
	return 1;
}

/* How many of users are among the coordinators. */
static size_t
coords_in(const char *coords, const char *users, size_t *nusers)
{
	char copy[1100], got[200], *tok, *save = NULL;
	size_t in = 0;

	*nusers = 0;
	sq_util_copy(copy, sizeof(copy), users ? users : "");
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		(*nusers)++;
		in += item_of(coords ? coords : "", tok, got, sizeof(got)) !=
		      NULL;
	}
	return in;
}

static enum sq_verdict
coord_verdict(const struct sq_action *a, const struct sq_acct_rec *r, char *msg,
	      size_t n)
{
	const char *c = sq_acct_rec_get(r, "coordinators");
	size_t nu, in = coords_in(c, sq_action_arg(a, "user"), &nu);

	if (c == NULL)
		return sq_verdict_say(SQ_VERDICT_UNSEEN, msg, n,
				      "coordinators not read");
	if (a->type == SQ_ACTION_ACCT_ADD_COORD)
		return in == nu
			   ? sq_verdict_say(SQ_VERDICT_DONE, msg, n,
					    "coordinators: %.200s", c)
			   : sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
					    "not a coordinator: coordinators "
					    "'%.200s'",
					    c);
	return in == 0 ? sq_verdict_say(SQ_VERDICT_DONE, msg, n,
					"removed as coordinator")
		       : sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
					"still a coordinator: '%.200s'", c);
}

/* Is key one of a's key=value arguments? */
static int
asked(const struct sq_action *a, const char *key)
{
	size_t i, kl = strlen(key);

	for (i = 0; i < a->nargs; i++)
		if (strncmp(a->args[i], key, kl) == 0 && a->args[i][kl] == '=')
			return 1;
	return 0;
}

/* The coordinators list (normalized: sorted) without the users named
 * (comma-separated, NULL: none), into out. */
static void
coords_but(const char *list, const char *users, char *out, size_t n)
{
	char copy[1100], got[200], *tok, *save = NULL;
	size_t off = 0;

	out[0] = '\0';
	sq_util_copy(copy, sizeof(copy), list);
	for (tok = strtok_r(copy, ",", &save); tok != NULL && off < n;
	     tok = strtok_r(NULL, ",", &save))
		if (users == NULL ||
		    item_of(users, tok, got, sizeof(got)) == NULL)
			off += (size_t)snprintf(out + off, n - off, "%s%s",
						off ? "," : "", tok);
}

static const char *
noun_of(enum sq_kind kind)
{
	switch (kind) {
	case SQ_KIND_ACCOUNTS:
		return "account";
	case SQ_KIND_USERS:
		return "user";
	case SQ_KIND_ASSOCS:
		return "association";
	default:
		return "QOS";
	}
}

int
sq_acct_others_same(const struct sq_action *a, const struct sq_acct_rec *before,
		    const struct sq_acct_rec *after, char *msg, size_t n)
{
	const char *users = a->type == SQ_ACTION_ACCT_ADD_COORD ||
				    a->type == SQ_ACTION_ACCT_DEL_COORD
				? sq_action_arg(a, "user")
				: NULL;
	const char *was = sq_acct_rec_get(before, "coordinators");
	const char *now = sq_acct_rec_get(after, "coordinators");
	const char *what = NULL;
	char cb[512], ca[512];
	size_t i;

	if (before == NULL || !before->found || !after->found)
		return 1;
	/* the other coordinators, in any order (sorted when put) */
	if (was != NULL && now != NULL) {
		coords_but(was, users, cb, sizeof(cb));
		coords_but(now, users, ca, sizeof(ca));
		if (strcasecmp(cb, ca) != 0)
			what = "other coordinators";
	}
	for (i = 0; what == NULL && i < before->n; i++) {
		const char *key = before->f[i].key;

		now = sq_acct_rec_get(after, key);
		if (strcmp(key, "coordinators") != 0 && !asked(a, key) &&
		    now != NULL && strcmp(before->f[i].val, now) != 0)
			what = "other fields";
	}
	if (what == NULL)
		return 1;
	snprintf(msg, n, "changed as asked, but %s of the %s changed too", what,
		 noun_of(a->def->kind));
	return 0;
}

enum sq_verdict
sq_acct_verdict(const struct sq_action *a, const struct sq_acct_rec *before,
		const struct sq_acct_rec *after, char *msg, size_t n)
{
	(void)before;
	msg[0] = '\0';
	switch (a->type) {
	case SQ_ACTION_ACCT_DELETE_ACCOUNT:
	case SQ_ACTION_ACCT_REMOVE_USER:
	case SQ_ACTION_QOS_DELETE:
		return after->found
			   ? sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
					    "still there")
			   : sq_verdict_say(SQ_VERDICT_DONE, msg, n, "removed");
	default:
		break;
	}
	if (!after->found)
		return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n, "not found");
	switch (a->type) {
	case SQ_ACTION_ACCT_ADD_COORD:
	case SQ_ACTION_ACCT_DEL_COORD:
		return coord_verdict(a, after, msg, n);
	case SQ_ACTION_ACCT_CLEAR_LIMIT:
		return cleared(a, after, msg, n)
			   ? sq_verdict_say(SQ_VERDICT_DONE, msg, n, "cleared")
			   : SQ_VERDICT_NOT_YET;
	default:
		break;
	}
	if (!args_as_asked(a, after, msg, n))
		return SQ_VERDICT_NOT_YET;
	return sq_verdict_say(SQ_VERDICT_DONE, msg, n, "%s",
			      a->def->flags & SQ_ACT_CREATES ? "added" : "set");
}

/* Append fmt's text (up to three strings) to buf. */
static void
append3(char *buf, size_t n, const char *fmt, const char *x, const char *y,
	const char *z)
{
	size_t off = strlen(buf);

	if (off + 1 < n)
		snprintf(buf + off, n - off, fmt, x, y, z);
}

void
sq_acct_dq_line(char *buf, size_t n, const char *user, const char *assoc,
		const char *was, const char *want)
{
	if (assoc == NULL)
		append3(buf, n,
			"\n%s: every association has default QOS %s "
			"already%s",
			user, *want ? want : "(none)", "");
	else
		append3(buf, n, "\nchanges the default QOS of %s: %s -> %s",
			assoc, was && *was ? was : "(none)",
			*want ? want : "(none)");
}

void
sq_acct_dq_mixed(char *buf, size_t n)
{
	append3(buf, n,
		"\ntheir default QOS differ: the undo sets each back on its "
		"own (setlimit ... defaultqos=)%s%s%s",
		"", "", "");
}
