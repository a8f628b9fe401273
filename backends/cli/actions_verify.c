/*
 * actions_verify.c - deciding from the records read back (actions_read.c)
 * whether the effect of an action happened (held: Priority=0; drained:
 * State has DRAIN and the reason; a limit: sacctmgr shows the value), and
 * the inverse built from the state read before. A job or a node is read
 * into core's target record and judged by sq_action_verdict()
 * (core/action/action_verdict.h); an account, user, association or QOS into
 * core's account record, judged by sq_acct_verdict()
 * (core/action/acct_verdict.h). Never prints.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/cli/actions.h"
#include "core/action/acct_verdict.h"
#include "core/action/action_verdict.h"
#include "core/action/limit_keys.h"
#include "core/base/parse.h"
#include "core/base/util.h"

/* --- verification -------------------------------------------------------- */

static int
same_number(const char *want, const char *have, int mem)
{
	int64_t a, b;

	if (mem)
		return sq_parse_mem_mb(want, &a) == 0 &&
		       sq_parse_mem_mb(have, &b) == 0 && a == b;
	return sq_parse_int(want, &a) == 0 && sq_parse_int(have, &b) == 0 &&
	       a == b;
}

static int
tres_ok(const char *want, const char *have)
{
	char copy[1024], *tok, *save = NULL, got[128];

	sq_util_copy(copy, sizeof(copy), want);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const char *h;

		if (eq == NULL)
			return 0;
		*eq = '\0';
		h = sq_cli_tres_get(have, tok, got, sizeof(got));
		if (strcmp(eq + 1, "-1") == 0) {
			if (h != NULL)
				return 0;
		} else if (h == NULL ||
			   !same_number(eq + 1, h, strcmp(tok, "mem") == 0)) {
			return 0;
		}
	}
	return 1;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* Same set of comma-separated names, in any order. */
static int
same_set(const char *a, const char *b)
{
	char ca[1024], cb[1024], *va[64], *vb[64], *save = NULL, *t;
	int na = 0, nb = 0, i;

	sq_util_copy(ca, sizeof(ca), a);
	sq_util_copy(cb, sizeof(cb), b);
	for (t = strtok_r(ca, ",", &save); t && na < 64;
	     t = strtok_r(NULL, ",", &save))
		va[na++] = t;
	save = NULL;
	for (t = strtok_r(cb, ",", &save); t && nb < 64;
	     t = strtok_r(NULL, ",", &save))
		vb[nb++] = t;
	if (na != nb)
		return 0;
	qsort(va, (size_t)na, sizeof(va[0]), cmp_names);
	qsort(vb, (size_t)nb, sizeof(vb[0]), cmp_names);
	for (i = 0; i < na; i++) {
		if (strcasecmp(va[i], vb[i]) != 0)
			return 0;
	}
	return 1;
}

static int
value_ok(const struct sq_arg_spec *sp, const char *want, const char *have)
{
	int64_t a, b;

	if (have == NULL)
		return 0;
	if (strcmp(want, "-1") == 0 && sp->type != SQ_ARG_INT)
		return *have == '\0' || strcmp(have, "UNLIMITED") == 0;
	switch (sp->type) {
	case SQ_ARG_NUMBER:
	case SQ_ARG_INT:
		return same_number(want, have, 0);
	case SQ_ARG_DURATION:
		return sq_parse_duration(want, &a) == 0 &&
		       sq_parse_duration(have, &b) == 0 && a == b;
	case SQ_ARG_TRES:
		return tres_ok(want, have);
	case SQ_ARG_NAMELIST:
		return same_set(want, have);
	case SQ_ARG_FAIRSHARE:
		return strcasecmp(want, have) == 0;
	case SQ_ARG_DECIMAL: /* sacctmgr prints six decimals */
		return *have != '\0' &&
		       (long long)(strtod(want, NULL) * 1e6 + 0.5) ==
			   (long long)(strtod(have, NULL) * 1e6 + 0.5);
	case SQ_ARG_SECONDS: /* set in seconds, shown as [D-]HH:MM:SS */
		return sq_parse_duration(have, &b) == 0 &&
		       sq_parse_int(want, &a) == 0 && a == b;
	case SQ_ARG_TEXT:
		return strcmp(want, have) == 0;
	default:
		return strcasecmp(want, have) == 0;
	}
}

/* Every key=value of a is what the record shows now. */
static int
args_ok(const struct sq_action *a, const struct sq_cli_rec *r, char *msg,
	size_t n)
{
	size_t i;

	for (i = 0; i < a->nargs; i++) {
		const char *eq = strchr(a->args[i], '=');
		char key[64];
		const struct sq_arg_spec *sp;
		const char *field, *have;
		size_t kl = eq ? (size_t)(eq - a->args[i]) : 0;

		if (eq == NULL || kl >= sizeof(key))
			continue;
		memcpy(key, a->args[i], kl);
		key[kl] = '\0';
		sp = sq_action_arg_spec(a->def, key);
		field = sq_cli_field_of(a->def->kind, key);
		if (sp == NULL || field == NULL)
			continue;
		have = sq_cli_rec_get(r, field);
		if (!value_ok(sp, eq + 1, have)) {
			snprintf(msg, n,
				 "not changed: %s is '%.100s', not "
				 "'%.100s'",
				 field, have ? have : "?", eq + 1);
			return 0;
		}
	}
	return 1;
}

static int
has_word(const char *state, const char *w)
{
	return state != NULL && strstr(state, w) != NULL;
}

static void
rec_copy(char *dst, size_t n, const char *v)
{
	sq_util_copy(dst, n, v != NULL ? v : "");
}

void
sq_cli_target_rec(const struct sq_action *a, const struct sq_cli_rec *r,
		  struct sq_target_rec *out)
{
	int jobs = a->def->kind == SQ_KIND_JOBS;
	const char *v;

	sq_target_rec_init(out);
	if (r == NULL)
		return;
	out->found = r->found;
	rec_copy(out->state, sizeof(out->state),
		 sq_cli_rec_get(r, jobs ? "JobState" : "State"));
	rec_copy(out->reason, sizeof(out->reason), sq_cli_rec_get(r, "Reason"));
	if ((v = sq_cli_rec_get(r, "Priority")) != NULL)
		sq_parse_int(v, &out->priority);
	if ((v = sq_cli_rec_get(r, "Restarts")) != NULL)
		sq_parse_int(v, &out->restarts);
	if (a->type == SQ_ACTION_JOB_UPDATE && r->found)
		out->args_ok =
		    args_ok(a, r, out->mismatch, sizeof(out->mismatch));
}

void
sq_cli_acct_rec(const struct sq_action *a, const struct sq_cli_rec *r,
		struct sq_acct_rec *out)
{
	enum sq_kind kind = a->def->kind;
	const char *const *keys = sq_acct_rec_keys(kind);
	size_t i;

	sq_acct_rec_init(out);
	if (r == NULL || !r->found)
		return;
	out->found = 1;
	for (i = 0; keys[i] != NULL; i++) {
		const char *f = strcmp(keys[i], "coordinators") == 0
				    ? "Coordinators"
				    : sq_cli_field_of(kind, keys[i]);

		if (f != NULL)
			sq_acct_rec_put(out, kind, keys[i],
					sq_cli_rec_get(r, f));
	}
}

int
sq_cli_verify(const struct sq_action *a, size_t i,
	      const struct sq_cli_rec *before, const struct sq_cli_rec *after,
	      char *msg, size_t n)
{
	(void)i;
	msg[0] = '\0';
	if (sq_action_has_verdict(a->type)) {
		struct sq_target_rec b, r;

		sq_cli_target_rec(a, before, &b);
		sq_cli_target_rec(a, after, &r);
		return sq_verdict_verify(sq_action_verdict(
		    a, before != NULL ? &b : NULL, &r, msg, n));
	}
	switch (a->def->kind) {
	case SQ_KIND_JOBS:
	case SQ_KIND_NODES:
		snprintf(msg, n, "not checked");
		return SQ_VERIFY_UNCHECKED;
	case SQ_KIND_RESERVATIONS:
		return sq_cli_verify_resv(a, after, msg, n);
	default:
		break;
	}
	if (sq_acct_has_verdict(a->type)) {
		/* core's verdict (core/action/acct_verdict.h); an account
		 * or a user also left its other fields as they were (core's
		 * check, REST's too), a setqos every other column of the
		 * QOS */
		struct sq_acct_rec b, r;
		int v;

		sq_cli_acct_rec(a, before, &b);
		sq_cli_acct_rec(a, after, &r);
		v = sq_verdict_verify(
		    sq_acct_verdict(a, before != NULL ? &b : NULL, &r, msg, n));
		if (v == SQ_VERIFY_OK && before != NULL &&
		    (a->def->kind == SQ_KIND_ACCOUNTS ||
		     a->def->kind == SQ_KIND_USERS) &&
		    !sq_acct_others_same(a, &b, &r, msg, n))
			return SQ_VERIFY_FAILED;
		if (v == SQ_VERIFY_OK && a->type == SQ_ACTION_QOS_SET &&
		    !sq_cli_qos_unchanged(a, before, after, msg, n))
			return SQ_VERIFY_FAILED;
		return v;
	}
	snprintf(msg, n, "not checked");
	return SQ_VERIFY_UNCHECKED;
}

/* --- inverse -------------------------------------------------------------- */

/* "gres/gpu=2" with the old list "cpu=4,gres/gpu=6" -> "gres/gpu=6";
 * a TRES not set before -> "=-1". */
static void
tres_inverse(const char *want, const char *prev, char *buf, size_t n)
{
	char copy[1024], *tok, *save = NULL, got[128];
	size_t off = 0;

	buf[0] = '\0';
	sq_util_copy(copy, sizeof(copy), want);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const char *h;
		int w;

		if (eq == NULL)
			continue;
		*eq = '\0';
		h = sq_cli_tres_get(prev ? prev : "", tok, got, sizeof(got));
		w = snprintf(buf + off, n - off, "%s%s=%s", off ? "," : "", tok,
			     h ? h : "-1");
		if (w < 0 || (size_t)w >= n - off)
			return;
		off += (size_t)w;
	}
}

/* The previous value of key as an argument value, or NULL to skip. */
static const char *
prev_value(const struct sq_action_def *d, const char *key, const char *want,
	   const struct sq_cli_rec *r, char *buf, size_t n)
{
	const struct sq_arg_spec *sp = sq_action_arg_spec(d, key);
	const char *f = sq_cli_field_of(d->kind, key), *have;

	if (sp == NULL || f == NULL || (have = sq_cli_rec_get(r, f)) == NULL)
		return NULL;
	if (sp->type == SQ_ARG_SECONDS) {
		int64_t secs;

		if (sq_parse_duration(have, &secs) == -1)
			return NULL;
		snprintf(buf, n, "%lld", (long long)secs);
		return buf;
	}
	if (sp->type == SQ_ARG_TRES) {
		if (want == NULL) /* clearlimit: the whole old list */
			return *have ? have : NULL;
		tres_inverse(want, have, buf, n);
		return buf[0] ? buf : NULL;
	}
	if (*have == '\0') {
		if (sp->flags & SQ_ARGF_CLEAR)
			return "-1";
		return sp->type == SQ_ARG_TEXT ? "" : NULL;
	}
	return have;
}

/* Arguments that undo a on target i (into inv, which has no targets). */
static int
inverse_args(const struct sq_action *a, const struct sq_cli_rec *r,
	     struct sq_action *inv)
{
	const struct sq_action_def *d = inv->def;
	char buf[1100];
	size_t i;

	if (a->type == SQ_ACTION_ACCT_CLEAR_LIMIT) {
		char copy[512], *tok, *save = NULL;
		const char *list = sq_action_arg(a, "limits");

		sq_util_copy(copy, sizeof(copy), list ? list : "");
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			const char *v =
			    prev_value(d, tok, NULL, r, buf, sizeof(buf));

			if (v != NULL && strcmp(v, "-1") != 0)
				sq_action_set_arg(inv, tok, v, NULL);
		}
		return inv->nargs > 0 ? 0 : -1;
	}
	if (a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT) {
		static const char *const keys[] = { "parent", "description",
						    "organization", "fairshare",
						    NULL };

		for (i = 0; keys[i] != NULL; i++) {
			const char *f =
			    sq_cli_field_of(SQ_KIND_ACCOUNTS, keys[i]);
			const char *v = sq_cli_rec_get(r, f);

			if (v != NULL && *v != '\0')
				sq_action_set_arg(inv, keys[i], v, NULL);
		}
		return 0;
	}
	for (i = 0; i < a->nargs; i++) {
		const char *eq = strchr(a->args[i], '=');
		char key[64];
		const char *v;
		size_t kl = eq ? (size_t)(eq - a->args[i]) : 0;

		if (eq == NULL || kl >= sizeof(key))
			continue;
		memcpy(key, a->args[i], kl);
		key[kl] = '\0';
		v = prev_value(d, key, eq + 1, r, buf, sizeof(buf));
		if (v != NULL)
			sq_action_set_arg(inv, key, v, NULL);
	}
	return inv->nargs > 0 ? 0 : -1;
}

static int
append_line(char *buf, size_t n, size_t *off, const struct sq_action *inv)
{
	char line[1024];

	if (sq_action_format(inv, line, sizeof(line)) == -1)
		return -1;
	if (*off + strlen(line) + 2 >= n)
		return -1;
	*off += (size_t)snprintf(buf + *off, n - *off, "%s%s", *off ? "\n" : "",
				 line);
	return 0;
}

/* The inverse of an action that needs no old values: the same targets,
 * the inverse verb (and the coordinator's user), one line to buf. */
static void
same_targets_inverse(const struct sq_action *a, char *buf, size_t n,
		     size_t *off)
{
	const struct sq_action_def *d = a->def;
	struct sq_action inv;
	size_t i;

	/* the same targets, the inverse verb */
	sq_action_init(&inv, d->inverse);
	for (i = 0; i < a->ntargets; i++)
		sq_action_add_target(&inv, a->targets[i], NULL);
	if (d->type == SQ_ACTION_ACCT_ADD_COORD ||
	    d->type == SQ_ACTION_ACCT_DEL_COORD)
		sq_action_set_arg(&inv, "user", sq_action_arg(a, "user"), NULL);
	append_line(buf, n, off, &inv);
	sq_action_free(&inv);
}

/* Whether target j's inverse (verb t, from its old values) reads key1,
 * so it joins the line of the target that made key1. */
static int
same_inverse(const struct sq_action *a, const struct sq_cli_state *before,
	     size_t j, enum sq_action_type t, const char *key1)
{
	struct sq_action o;
	char key2[1024];
	int same;

	sq_action_init(&o, t);
	if (a->def->type == SQ_ACTION_NODE_RESUME) {
		const char *st2 = sq_cli_rec_get(&before->rec[j], "State");
		const char *r2 = sq_cli_rec_get(&before->rec[j], "Reason");

		if (sq_action_def(t) ==
		    sq_action_def(has_word(st2, "DRAIN") ? SQ_ACTION_NODE_DRAIN
							 : SQ_ACTION_NODE_DOWN))
			sq_action_set_arg(&o, "reason", r2 ? r2 : "", NULL);
	} else {
		inverse_args(a, &before->rec[j], &o);
	}
	sq_action_format(&o, key2, sizeof(key2));
	same = strcmp(key1, key2) == 0;
	sq_action_free(&o);
	return same;
}

int
sq_cli_inverse(const struct sq_action *a, const struct sq_cli_state *before,
	       char *buf, size_t n)
{
	const struct sq_action_def *d = a->def;
	size_t i, j, off = 0;
	char *done;

	buf[0] = '\0';
	if (d->inverse == SQ_ACTION_NONE)
		return 0;
	if (d->kind == SQ_KIND_RESERVATIONS)
		return sq_cli_resv_inverse(a, before, buf, n);
	if (d->type == SQ_ACTION_ACCT_REMOVE_USER && before != NULL &&
	    before->ok)
		return sq_cli_deluser_inverse(a, before, buf, n);
	if (d->type == SQ_ACTION_QOS_DELETE)
		return sq_cli_delqos_inverse(a, before, buf, n);
	if (sq_cli_moduser_mixed(a, before))
		return sq_cli_moduser_inverse(a, before, buf, n);
	if (!(d->flags & SQ_ACT_INV_PREV) &&
	    d->type != SQ_ACTION_ACCT_DELETE_ACCOUNT) {
		same_targets_inverse(a, buf, n, &off);
		return 0;
	}
	if (before == NULL || !before->ok)
		return 0;
	/* one line per group of targets that had the same old values */
	done = calloc(a->ntargets ? a->ntargets : 1, 1);
	if (done == NULL)
		return -1;
	for (i = 0; i < a->ntargets; i++) {
		struct sq_action inv;
		char key1[1024];
		enum sq_action_type t = d->inverse;

		if (done[i] || !before->rec[i].found)
			continue;
		if (d->type == SQ_ACTION_NODE_RESUME) {
			const char *st =
			    sq_cli_rec_get(&before->rec[i], "State");

			if (has_word(st, "DRAIN"))
				t = SQ_ACTION_NODE_DRAIN;
			else if (st != NULL && strncmp(st, "DOWN", 4) == 0)
				t = SQ_ACTION_NODE_DOWN;
			else
				continue;
		}
		sq_action_init(&inv, t);
		if (d->type == SQ_ACTION_NODE_RESUME) {
			const char *r =
			    sq_cli_rec_get(&before->rec[i], "Reason");

			if (r == NULL || *r == '\0' ||
			    sq_action_set_arg(&inv, "reason", r, NULL) == -1)
				sq_action_set_arg(&inv, "reason",
						  "restored by squall undo",
						  NULL);
		} else if (inverse_args(a, &before->rec[i], &inv) == -1) {
			sq_action_free(&inv);
			continue;
		}
		sq_action_format(&inv, key1, sizeof(key1));
		sq_action_add_target(&inv, a->targets[i], NULL);
		done[i] = 1;
		for (j = i + 1; j < a->ntargets; j++)
			if (!done[j] && before->rec[j].found &&
			    same_inverse(a, before, j, t, key1)) {
				sq_action_add_target(&inv, a->targets[j], NULL);
				done[j] = 1;
			}
		append_line(buf, n, &off, &inv);
		sq_action_free(&inv);
	}
	free(done);
	/* the account's coordinators went with it */
	if (d->type == SQ_ACTION_ACCT_DELETE_ACCOUNT)
		sq_cli_delaccount_coords(a, before, buf, n);
	return 0;
}
