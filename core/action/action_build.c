/*
 * action_build.c - building an action (core/action/action.h): its targets (job
 * ids, node lists expanded, accounts, users, associations, QOS) and its
 * argument values, every one through core/base/validate.h before it is kept,
 * then the check that the action is complete. A value that fails is
 * refused, never repaired.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/resv.h"
#include "core/action/limit_keys.h"
#include "core/action/submit_opts.h"
#include "core/base/validate.h"

int
sq_action_assoc_split(const char *target, char *account, char *user,
		      char *partition)
{
	const char *p = target, *s;
	char *out[3];
	int i;

	out[0] = account;
	out[1] = user;
	out[2] = partition;
	for (i = 0; i < 3; i++)
		out[i][0] = '\0';
	for (i = 0; i < 3 && p != NULL; i++) {
		size_t n;

		s = strchr(p, '/');
		n = s ? (size_t)(s - p) : strlen(p);
		if (n > 128)
			return -1;
		memcpy(out[i], p, n);
		out[i][n] = '\0';
		p = s ? s + 1 : NULL;
	}
	return p == NULL ? 0 : -1;
}

static int
valid_target(enum sq_kind kind, int submit, const char *t, char *out, size_t n,
	     struct sq_err *err)
{
	switch (kind) {
	case SQ_KIND_JOBS:
		if (submit) {
			/* the script's path: shown and audited, never run */
			if (*t != '/' || sq_valid_text(t, err) == -1)
				return sq_err_set(err, SQ_ERR_DENIED,
						  "invalid script path "
						  "'%.60s'",
						  t);
			break;
		}
		return sq_valid_jobid(t, out, n, err);
	case SQ_KIND_RUNAWAY: /* a job id as accounting has it: digits */
		if (t[0] == '\0' || strspn(t, "0123456789") != strlen(t) ||
		    strlen(t) > 10)
			return sq_err_set(err, SQ_ERR_DENIED,
					  "invalid job id '%.60s'", t);
		break;
	case SQ_KIND_NODES:
		if (sq_valid_nodelist(t, err) == -1)
			return -1;
		break;
	case SQ_KIND_ASSOCS: {
		char acc[129], user[129], part[129];

		if (sq_action_assoc_split(t, acc, user, part) == -1 ||
		    sq_valid_name(acc, err) == -1)
			return sq_err_set(err, SQ_ERR_DENIED,
					  "invalid association '%.60s' (want "
					  "ACCOUNT[/USER[/PARTITION]])",
					  t);
		if (strchr(t, '/') != NULL && sq_valid_name(user, err) == -1)
			return -1;
		if (part[0] != '\0' && sq_valid_name(part, err) == -1)
			return -1;
		break;
	}
	default:
		if (sq_valid_name(t, err) == -1)
			return -1;
	}
	if (strlen(t) >= n)
		return sq_err_set(err, SQ_ERR_DENIED, "target too long");
	memcpy(out, t, strlen(t) + 1);
	/* account and user names as sacctmgr stores them (lower case); a
	 * partition keeps its case */
	if (kind == SQ_KIND_ACCOUNTS || kind == SQ_KIND_QOS ||
	    kind == SQ_KIND_USERS)
		sq_action_fold(out, n);
	else if (kind == SQ_KIND_ASSOCS)
		sq_action_fold(
		    out, strchr(out, '/') == NULL ? n
			 : strchr(strchr(out, '/') + 1, '/')
			     ? (size_t)(strchr(strchr(out, '/') + 1, '/') - out)
			     : n);
	return 0;
}

static int add_one(struct sq_action *a, const char *target, struct sq_err *err);
static int add_nodes(struct sq_action *a, const char *t, struct sq_err *err);

/*
 * Split a node list at the commas outside brackets ("n1,gpu[01-02]") and
 * add each part. Returns 1 when t has no such comma (nothing done).
 */
static int
add_node_parts(struct sq_action *a, const char *t, struct sq_err *err)
{
	char part[4097];
	const char *p, *start = t;
	int depth = 0, split = 0;

	for (p = t; *p != '\0'; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && depth > 0)
			depth--;
		else if (*p == ',' && depth == 0)
			split = 1;
	}
	if (!split)
		return 1;
	for (p = t, depth = 0;; p++) {
		if (*p == '[') {
			depth++;
		} else if (*p == ']' && depth > 0) {
			depth--;
		} else if ((*p == ',' && depth == 0) || *p == '\0') {
			size_t n = (size_t)(p - start);

			if (n >= sizeof(part))
				return sq_err_set(err, SQ_ERR_DENIED,
						  "node list too long");
			memcpy(part, start, n);
			part[n] = '\0';
			if (n > 0 && add_nodes(a, part, err) == -1)
				return -1;
			if (*p == '\0')
				return 0;
			start = p + 1;
		}
	}
}

/*
 * A node list is split at its commas outside brackets; a part with one
 * bracket group ("n[1-3,7]", "gpu[01-04]") is expanded, so each node is
 * a target of its own (verified and reported apart). Parts with more
 * groups stay whole.
 */
static int
add_nodes(struct sq_action *a, const char *t, struct sq_err *err)
{
	const char *lb = strchr(t, '['), *rb;
	char pre[160], name[200], *p, *end;
	size_t pn;
	int rc, pass;

	/* "n,-0[2]" is the nodes n and -02 (refused), not n,-02 */
	if ((rc = add_node_parts(a, t, err)) != 1)
		return rc;
	if (lb == NULL || (rb = strchr(lb, ']')) == NULL ||
	    strchr(rb + 1, '[') != NULL || strchr(rb + 1, ',') != NULL ||
	    (size_t)(lb - t) >= sizeof(pre) || strlen(rb + 1) > 30)
		return add_one(a, t, err);
	pn = (size_t)(lb - t);
	memcpy(pre, t, pn);
	pre[pn] = '\0';
	/* pass 0 checks the whole group, pass 1 adds: "n[0,x]" stays one
	 * target, never n0 plus n[0,x] */
	for (pass = 0; pass < 2; pass++) {
		for (p = (char *)lb + 1; p < rb;) {
			unsigned long lo, hi, v;
			int width = (int)strspn(p, "0123456789");

			if (width == 0 || width > 9)
				return add_one(a, t, err);
			lo = strtoul(p, &end, 10);
			hi = lo;
			if (*end == '-') {
				p = end + 1;
				if (strspn(p, "0123456789") == 0)
					return add_one(a, t, err);
				hi = strtoul(p, &end, 10);
			}
			if (hi < lo || hi - lo > SQ_ACTION_MAX_TARGETS ||
			    (*end != ',' && end != rb))
				return add_one(a, t, err);
			for (v = lo; pass == 1 && v <= hi; v++) {
				snprintf(name, sizeof(name), "%s%0*lu%s", pre,
					 width, v, rb + 1);
				if (add_one(a, name, err) == -1)
					return -1;
			}
			p = end + (*end == ',');
		}
	}
	return 0;
}

int
sq_action_add_target(struct sq_action *a, const char *target,
		     struct sq_err *err)
{
	if (a->def == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "no such action");
	if (a->def->kind == SQ_KIND_NODES && target != NULL &&
	    sq_valid_nodelist(target, err) == 0)
		return add_nodes(a, target, err);
	return add_one(a, target, err);
}

static int
add_one(struct sq_action *a, const char *target, struct sq_err *err)
{
	char canon[4200], *dup;

	if (a->def == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "no such action");
	if (a->ntargets >= SQ_ACTION_MAX_TARGETS)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "more than %d targets in one action",
				  SQ_ACTION_MAX_TARGETS);
	if (valid_target(a->def->kind, a->type == SQ_ACTION_JOB_SUBMIT, target,
			 canon, sizeof(canon), err) == -1)
		return -1;
	if (a->ntargets == a->tcap_) {
		size_t ncap = a->tcap_ ? a->tcap_ * 2 : 8;
		char **nv = realloc(a->tv_, ncap * sizeof(*nv));

		if (nv == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		a->tv_ = nv;
		a->tcap_ = ncap;
	}
	dup = strdup(canon);
	if (dup == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	a->tv_[a->ntargets++] = dup;
	a->targets = (const char *const *)a->tv_;
	return 0;
}

static const char *const signals[] = {
	"HUP",  "INT",  "QUIT", "ABRT",   "KILL",  "USR1", "USR2", "PIPE",
	"ALRM", "TERM", "CONT", "STOP",   "TSTP",  "TTIN", "TTOU", "URG",
	"XCPU", "XFSZ", "PROF", "VTALRM", "WINCH", NULL
};

/* Signal name or number re-printed canonically ("USR1", "10"). */
static int
valid_signal(const char *s, char *out, size_t n, struct sq_err *err)
{
	const char *p = s;
	int i;

	if (strncmp(p, "SIG", 3) == 0 || strncmp(p, "sig", 3) == 0)
		p += 3;
	if (*p != '\0' && strspn(p, "0123456789") == strlen(p) &&
	    strlen(p) <= 2 && atoi(p) >= 1 && atoi(p) <= 64) {
		snprintf(out, n, "%d", atoi(p));
		return 0;
	}
	for (i = 0; signals[i] != NULL; i++) {
		size_t k;

		if (strlen(p) != strlen(signals[i]))
			continue;
		for (k = 0; p[k] != '\0'; k++) {
			if (toupper((unsigned char)p[k]) != signals[i][k])
				break;
		}
		if (p[k] == '\0') {
			snprintf(out, n, "%s", signals[i]);
			return 0;
		}
	}
	return sq_err_set(err, SQ_ERR_DENIED, "invalid signal '%.40s'", s);
}

static int
valid_namelist(const char *s, struct sq_err *err)
{
	char part[130];
	const char *p = s;

	if (*s == '\0')
		return sq_err_set(err, SQ_ERR_DENIED, "empty name list");
	while (p != NULL) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);

		if (n >= sizeof(part))
			return sq_err_set(err, SQ_ERR_DENIED,
					  "name too long in '%.40s'", s);
		memcpy(part, p, n);
		part[n] = '\0';
		if (sq_valid_name(part, err) == -1)
			return -1;
		p = c ? c + 1 : NULL;
	}
	return 0;
}

static int
in_choices(const char *choices, const char *v)
{
	const char *p = choices;
	size_t n = strlen(v);

	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, '|');
		size_t k = e ? (size_t)(e - p) : strlen(p);

		if (k == n && strncmp(p, v, n) == 0)
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

static int
limit_name_ok(const char *name)
{
	const struct sq_arg_spec *s =
	    sq_action_arg_spec(sq_action_def(SQ_ACTION_ACCT_SET_LIMIT), name);

	return s != NULL && (s->flags & SQ_ARGF_CLEAR);
}

/* "1", "0.5", "1.25": a factor (sacctmgr keeps a double; six decimals
 * are what it prints back). */
static int
valid_decimal(const char *v, struct sq_err *err)
{
	size_t ip = strspn(v, "0123456789"), fp = 0;

	if (v[ip] == '.')
		fp = strspn(v + ip + 1, "0123456789") + 1;
	if (ip == 0 || ip > 9 || fp > 7 || v[ip + fp] != '\0' || (fp == 1))
		return sq_err_set(err, SQ_ERR_DENIED,
				  "invalid factor '%.40s' (want e.g. 1.5)", v);
	return 0;
}

/* A whole number of at most 9 digits, signed or not; its canonical form
 * to out. */
static int
valid_int(const char *v, char *out, size_t n, struct sq_err *err)
{
	const char *p = v + (*v == '-' || *v == '+');

	if (*p == '\0' || strlen(p) > 9 || strspn(p, "0123456789") != strlen(p))
		return sq_err_set(err, SQ_ERR_DENIED, "invalid number '%.40s'",
				  v);
	snprintf(out, n, "%ld", strtol(v, NULL, 10));
	return 0;
}

/* One of spec s's choices, any case; lowered to out. */
static int
valid_enum(const struct sq_arg_spec *s, const char *v, char *out, size_t n,
	   struct sq_err *err)
{
	size_t i;

	for (i = 0; v[i] != '\0' && i + 1 < n; i++)
		out[i] = (char)tolower((unsigned char)v[i]);
	out[i] = '\0';
	if (!in_choices(s->choices, out))
		return sq_err_set(err, SQ_ERR_DENIED, "%s must be one of %s",
				  s->key, s->choices);
	return 0;
}

/* A comma list of limits that can be cleared. */
static int
valid_limit_names(const char *v, struct sq_err *err)
{
	char part[64];
	const char *p = v;

	while (p != NULL) {
		const char *c = strchr(p, ',');
		size_t k = c ? (size_t)(c - p) : strlen(p);

		if (k >= sizeof(part))
			k = sizeof(part) - 1;
		memcpy(part, p, k);
		part[k] = '\0';
		if (!limit_name_ok(part))
			return sq_err_set(err, SQ_ERR_DENIED,
					  "'%.40s' is not a limit "
					  "that can be cleared",
					  part);
		p = c ? c + 1 : NULL;
	}
	return 0;
}

/* Check value v for spec; a canonical form may be written to out. */
static int
valid_value(const struct sq_arg_spec *s, const char *v, char *out, size_t n,
	    struct sq_err *err)
{
	snprintf(out, n, "%s", v);
	if (strlen(v) >= n)
		return sq_err_set(err, SQ_ERR_DENIED, "value of %s too long",
				  s->key);
	if (strcmp(v, "-1") == 0 && s->type != SQ_ARG_INT &&
	    !(s->flags & SQ_ARGF_CLEAR))
		return sq_err_set(err, SQ_ERR_DENIED,
				  "%s cannot be cleared with -1", s->key);
	if (strcmp(v, "-1") == 0 && (s->flags & SQ_ARGF_CLEAR))
		return 0; /* clears it (moduser defaultqos=-1) */
	switch (s->type) {
	case SQ_ARG_NAME:
		return sq_valid_name(v, err);
	case SQ_ARG_NAMELIST:
		if (strcmp(v, "-1") == 0) /* SQ_ARGF_CLEAR: checked above */
			return 0;
		return valid_namelist(v, err);
	case SQ_ARG_TEXT:
		if (sq_valid_text(v, err) == -1)
			return -1;
		if (*v == '\0' && (s->flags & SQ_ARGF_REQUIRED))
			return sq_err_set(err, SQ_ERR_DENIED,
					  "%s may not be empty", s->key);
		return 0;
	case SQ_ARG_NUMBER:
		return sq_valid_number(v, err);
	case SQ_ARG_INT:
		return valid_int(v, out, n, err);
	case SQ_ARG_DURATION:
		return sq_valid_duration(v, err);
	case SQ_ARG_TRES:
		return sq_valid_tres(v, err);
	case SQ_ARG_SIGNAL:
		return valid_signal(v, out, n, err);
	case SQ_ARG_FLAG:
		if (strcmp(v, "yes") == 0 || strcmp(v, s->key) == 0) {
			snprintf(out, n, "yes");
			return 0;
		}
		return sq_err_set(err, SQ_ERR_DENIED, "%s takes no value",
				  s->key);
	case SQ_ARG_ENUM:
		return valid_enum(s, v, out, n, err);
	case SQ_ARG_SBATCH:
		return sq_submit_check(s->key, v, err);
	case SQ_ARG_RESVTIME:
		return sq_resv_valid_time(v, err);
	case SQ_ARG_RESVFLAGS:
		return sq_resv_valid_flags(v, out, n, err);
	case SQ_ARG_RESVFLAGS_CHANGE:
		return sq_resv_valid_flag_changes(v, out, n, err);
	case SQ_ARG_NODELIST:
		return strcmp(v, "ALL") == 0 ? 0 : sq_valid_nodelist(v, err);
	case SQ_ARG_FAIRSHARE:
		if (strcmp(v, "parent") == 0)
			return 0;
		return sq_valid_number(v, err);
	case SQ_ARG_DECIMAL:
		return valid_decimal(v, err);
	case SQ_ARG_SECONDS:
		if (*v == '\0' || strlen(v) > 10 ||
		    strspn(v, "0123456789") != strlen(v))
			return sq_err_set(err, SQ_ERR_DENIED,
					  "%s: '%.40s' is not whole seconds",
					  s->key, v);
		return 0;
	case SQ_ARG_LIMITNAME:
		return valid_limit_names(v, err);
	}
	return sq_err_set(err, SQ_ERR_DENIED, "bad argument type");
}

int
sq_action_set_arg(struct sq_action *a, const char *key, const char *value,
		  struct sq_err *err)
{
	const struct sq_arg_spec *s;
	char canon[1100], *kv;
	size_t i;

	if (a->def == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "no such action");
	s = sq_action_arg_spec(a->def, key);
	if (s == NULL &&
	    (a->type == SQ_ACTION_QOS_SET || a->type == SQ_ACTION_QOS_ADD))
		return sq_limit_unknown(err, a->def->name, key, SQ_LIM_QOS);
	if (s == NULL && a->type == SQ_ACTION_ACCT_SET_LIMIT)
		return sq_limit_unknown(err, a->def->name, key, SQ_LIM_ASSOC);
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "%s takes no %.40s=", a->def->name, key);
	if (value == NULL || valid_value(s, value, canon, 1025, err) == -1 ||
	    sq_action_value_range(a->def, s, canon, err) == -1)
		return -1;
	/* account, user and QOS names as sacctmgr stores them */
	if (strcmp(s->key, "parent") == 0 || strcmp(s->key, "preempt") == 0 ||
	    (a->def->kind == SQ_KIND_ASSOCS &&
	     (strcmp(s->key, "qos") == 0 ||
	      strcmp(s->key, "defaultqos") == 0)) ||
	    strcmp(s->key, "defaultaccount") == 0 ||
	    (strcmp(s->key, "user") == 0 && a->def->kind == SQ_KIND_ACCOUNTS))
		sq_action_fold(canon, sizeof(canon));
	kv = malloc(strlen(s->key) + strlen(canon) + 2);
	if (kv == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	sprintf(kv, "%s=%s", s->key, canon);
	for (i = 0; i < a->nargs; i++) {
		size_t k = strlen(s->key);

		if (strncmp(a->args[i], s->key, k) == 0 &&
		    a->args[i][k] == '=') {
			free(a->av_[i]);
			a->av_[i] = kv;
			a->args[i] = kv;
			return 0;
		}
	}
	if (a->nargs >= SQ_ACTION_MAX_ARGS) {
		free(kv);
		return sq_err_set(err, SQ_ERR_USAGE, "too many arguments");
	}
	a->av_[a->nargs] = kv;
	a->args[a->nargs++] = kv;
	return 0;
}

const char *
sq_action_arg(const struct sq_action *a, const char *key)
{
	size_t i, k = strlen(key);

	for (i = 0; i < a->nargs; i++) {
		if (strncmp(a->args[i], key, k) == 0 && a->args[i][k] == '=')
			return a->args[i] + k + 1;
	}
	return NULL;
}

const char *
sq_action_arg_split(const char *arg, char *key, size_t n)
{
	size_t kl = strcspn(arg, "=");

	if (kl >= n || arg[kl] != '=')
		return NULL;
	memcpy(key, arg, kl);
	key[kl] = '\0';
	return arg + kl + 1;
}

int
sq_action_check(const struct sq_action *a, struct sq_err *err)
{
	const struct sq_action_def *d = a->def;
	size_t i;

	if (d == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "no such action");
	if (a->ntargets == 0)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "%s: no target (usage: %s)", d->name,
				  d->usage);
	for (i = 0; i < d->nargs; i++) {
		if ((d->args[i].flags & SQ_ARGF_REQUIRED) &&
		    sq_action_arg(a, d->args[i].key) == NULL)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "%s needs %s= (usage: %s)", d->name,
					  d->args[i].key, d->usage);
	}
	if ((d->flags & SQ_ACT_NEEDS_ARG) && a->nargs == 0)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "%s: nothing to change (usage: %s)", d->name,
				  d->usage);
	if (d->type == SQ_ACTION_RESV_CREATE)
		return sq_resv_check(a, err);
	if (d->type == SQ_ACTION_ACCT_ADD_USER ||
	    d->type == SQ_ACTION_ACCT_REMOVE_USER) {
		for (i = 0; i < a->ntargets; i++) {
			if (strchr(a->targets[i], '/') == NULL)
				return sq_err_set(err, SQ_ERR_USAGE,
						  "%s needs a user and "
						  "account= (usage: %s)",
						  d->name, d->usage);
		}
	}
	return 0;
}
