/*
 * actions_acct.c - an account, user, association or QOS as slurmrestd
 * returns it (GET .../account/NAME, .../user/NAME?with_assocs,
 * .../association(s)?..., .../qos/NAME) into core's account record
 * (core/action/acct_verdict.h): each key's value written as squall's
 * argument (sq_rest_limit_arg: a QOS's fields by the vocabulary's REST
 * path, an association's by actions_assoc.c's), then normalized by core
 * like sacctmgr's (an account's coordinators when it was read with them,
 * v0.0.40+). The verdict is core's. Never prints.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "backends/rest/actions.h"
#include "core/action/acct_verdict.h"
#include "core/action/limit_keys.h"

/* The limit keys of scope with a REST field (path) into out. */
static void
limits(struct sq_acct_rec *out, enum sq_kind kind, json_object *rec,
       unsigned scope)
{
	const struct sq_limit_key *keys;
	size_t nk, i;

	keys = sq_limit_keys(&nk);
	for (i = 0; i < nk; i++) {
		const char *path = scope == SQ_LIM_QOS
				       ? keys[i].rest_qos
				       : sq_rest_assoc_path(&keys[i]);
		char buf[1024];

		if (!(keys[i].scope & scope) || path == NULL)
			continue;
		sq_acct_rec_put(out, kind, keys[i].key,
				sq_rest_limit_arg(&keys[i], rec, path, 0, buf,
						  sizeof(buf)));
	}
}

/* An account's coordinators (read with_coords), direct and inherited
 * as sacctmgr's withcoord lists them. */
static void
coordinators(struct sq_acct_rec *out, json_object *rec)
{
	json_object *arr = sq_rest_jget(rec, "coordinators");
	char buf[512];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; arr != NULL && json_object_is_type(arr, json_type_array) &&
		    i < sq_rest_jlen(arr) && off < sizeof(buf);
	     i++)
		off += (size_t)snprintf(
		    buf + off, sizeof(buf) - off, "%s%s", off ? "," : "",
		    sq_rest_jstr_at(json_object_array_get_idx(arr, i), "name"));
	sq_acct_rec_put(out, SQ_KIND_ACCOUNTS, "coordinators", buf);
}

/* A user's default QOS from its associations as the CLI reads it: the
 * one they all have, "(mixed)" when they differ (none: not put). */
static void
default_qos(struct sq_acct_rec *out, json_object *assocs)
{
	const char *first = NULL;
	size_t i;

	for (i = 0; i < sq_rest_jlen(assocs); i++) {
		const char *dq = sq_rest_jstr_at(
		    json_object_array_get_idx(assocs, i), "default.qos");

		if (first == NULL)
			first = dq;
		else if (strcmp(first, dq) != 0)
			first = "(mixed)";
	}
	if (first != NULL)
		sq_acct_rec_put(out, SQ_KIND_USERS, "defaultqos", first);
}

void
sq_rest_acct_rec(const struct sq_action *a, const struct sq_rest_state *st,
		 struct sq_acct_rec *out)
{
	enum sq_kind kind = a->def->kind;
	json_object *rec = st != NULL && st->found ? st->rec : NULL, *assoc;

	sq_acct_rec_init(out);
	if (rec == NULL)
		return;
	out->found = 1;
	switch (kind) {
	case SQ_KIND_QOS:
		limits(out, kind, rec, SQ_LIM_QOS);
		sq_acct_rec_put(out, kind, "description",
				sq_rest_jstr_at(rec, "description"));
		break;
	case SQ_KIND_ASSOCS:
		limits(out, kind, rec, SQ_LIM_ASSOC);
		break;
	case SQ_KIND_USERS:
		sq_acct_rec_put(out, kind, "defaultaccount",
				sq_rest_jstr_at(rec, "default.account"));
		sq_acct_rec_put(out, kind, "adminlevel",
				sq_rest_jstr_at(rec, "administrator_level"));
		sq_acct_rec_put(out, kind, "defaultwckey",
				sq_rest_jstr_at(rec, "default.wckey"));
		if (st->assocs != NULL)
			default_qos(out, st->assocs);
		break;
	case SQ_KIND_ACCOUNTS:
		sq_acct_rec_put(out, kind, "description",
				sq_rest_jstr_at(rec, "description"));
		sq_acct_rec_put(out, kind, "organization",
				sq_rest_jstr_at(rec, "organization"));
		if (st->coords)
			coordinators(out, rec);
		/* its association's (modaccount reads it) */
		if ((assoc = sq_rest_account_assoc(st)) != NULL) {
			sq_acct_rec_put(
			    out, kind, "parent",
			    sq_rest_jstr_at(assoc, "parent_account"));
			sq_acct_rec_put(out, kind, "fairshare",
					sq_rest_jstr_at(assoc, "shares_raw"));
		}
		break;
	default:
		break;
	}
}

int
sq_rest_acct_unchanged(const struct sq_action *a,
		       const struct sq_rest_state *before,
		       const struct sq_rest_state *after, char *msg, size_t n)
{
	struct sq_acct_rec b, f;

	sq_rest_acct_rec(a, before, &b);
	sq_rest_acct_rec(a, after, &f);
	if (!sq_acct_others_same(a, &b, &f, msg, n))
		return 0;
	if (a->type == SQ_ACTION_ACCT_MODIFY_USER && before->found &&
	    after->found && !sq_rest_user_assocs_same(a, before, after)) {
		snprintf(msg, n,
			 "changed as asked, but other fields of the "
			 "user changed too");
		return 0;
	}
	return 1;
}
