/*
 * actions_account.c - modaccount, addcoord and delcoord through slurmrestd
 * from API v0.0.40 (Slurm 23.11) on: POST /slurmdb/vN/accounts with the
 * account as read first (GET /account/NAME?with_coords). slurmdbd's
 * account update is a whole record: description and organization are
 * required, and every coordinator of the account that the body does not
 * list is removed (a POST without "coordinators" removes them all: seen
 * on 24.11 and 26.05), so each body carries the description, the
 * organization and the whole coordinator list read before, changed only
 * where asked. An account's parent and shares are its association's
 * (user "", no partition), not the account's: modaccount parent= and
 * fairshare= are a POST /slurmdb/vN/associations of that association as
 * read first (GET /associations?account=NAME), built as setlimit builds
 * it (its limits kept) with parent_account and shares_raw set, which
 * slurmrestd's association update applies (openapi/slurmdbd
 * associations.c: the diff of the record read and the one posted);
 * with description= or organization= they are refused (two records, two
 * requests). Checked (core's verdict and core's "nothing else moved" on
 * the records read, actions_acct.c) and undone with the values read
 * before. Never prints.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "backends/backend.h"
#include "backends/rest/actions.h"
#include "core/action/acct_verdict.h"
#include "core/base/util.h"

int
sq_rest_account_mapped(const struct sq_action *a, int vdb)
{
	return vdb >= 40 && (a->type == SQ_ACTION_ACCT_MODIFY_ACCOUNT ||
			     a->type == SQ_ACTION_ACCT_ADD_COORD ||
			     a->type == SQ_ACTION_ACCT_DEL_COORD);
}

/* parent= and fairshare= are the account's association's */
static int
assoc_keys(const struct sq_action *a)
{
	return a->type == SQ_ACTION_ACCT_MODIFY_ACCOUNT &&
	       (sq_action_arg(a, "parent") != NULL ||
		sq_action_arg(a, "fairshare") != NULL);
}

void
sq_rest_account_path(const struct sq_action *a, int vdb, char *buf, size_t n)
{
	snprintf(buf, n, "/slurmdb/v0.0.%d/%s", vdb,
		 assoc_keys(a) ? "associations" : "accounts");
}

int
sq_rest_account_read_assoc(struct sq_backend *b, int vdb, const char *name,
			   const char *cluster, struct sq_rest_state *st,
			   struct sq_err *err)
{
	return sq_rest_assocs_read(b, vdb, "account", name, cluster, st, err);
}

json_object *
sq_rest_account_assoc(const struct sq_rest_state *st)
{
	size_t i;

	for (i = 0;
	     st != NULL && st->assocs != NULL && i < sq_rest_jlen(st->assocs);
	     i++) {
		json_object *x = json_object_array_get_idx(st->assocs, i);

		if (*sq_rest_jstr_at(x, "user") == '\0' &&
		    *sq_rest_jstr_at(x, "partition") == '\0' &&
		    strcasecmp(sq_rest_jstr_at(x, "account"),
			       sq_rest_jstr_at(st->rec, "name")) == 0)
			return x;
	}
	return NULL;
}

/* parent=, fairshare=: the account's association as setlimit account=NAME
 * builds it from the record read (actions_assoc.c: its limits kept),
 * its shares and parent_account set as asked. */
static json_object *
assoc_body(const struct sq_action *a, const char *name, const char *cluster,
	   const struct sq_rest_state *before, struct sq_err *err)
{
	const char *fs = sq_action_arg(a, "fairshare");
	const char *par = sq_action_arg(a, "parent");
	json_object *x = sq_rest_account_assoc(before), *o;
	struct sq_rest_state one;
	struct sq_action s;

	if (x == NULL) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "modaccount parent=/fairshare= through slurmrestd "
			   "sets the association of account %s on cluster "
			   "%s, and it has none (GET /associations)",
			   name, cluster);
		return NULL;
	}
	sq_action_init(&s, SQ_ACTION_ACCT_SET_LIMIT);
	if (fs != NULL && sq_action_set_arg(&s, "fairshare", fs, err) == -1) {
		sq_action_free(&s);
		return NULL;
	}
	memset(&one, 0, sizeof(one));
	one.found = 1;
	one.rec = x;
	o = sq_rest_assoc_body(&s, name, "", "", cluster, &one, err);
	sq_action_free(&s);
	if (o != NULL && par != NULL)
		sq_rest_jput(json_object_array_get_idx(
				 sq_rest_jget(o, "associations"), 0),
			     "parent_account", json_object_new_string(par));
	return o;
}

int
sq_rest_account_check(const struct sq_action *a, int vdb, struct sq_err *err)
{
	if (vdb < 40)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "%s through slurmrestd API v0.0.%d is not "
				  "mapped (squall maps POST /slurmdb/vN/"
				  "accounts from v0.0.40, Slurm 23.11, on: "
				  "the account read first with its "
				  "coordinators); use the local or ssh "
				  "backend (sacctmgr -i)",
				  a->def->name, vdb);
	if (assoc_keys(a) && (sq_action_arg(a, "description") != NULL ||
			      sq_action_arg(a, "organization") != NULL))
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "modaccount parent=/fairshare= with "
				  "description=/organization= through "
				  "slurmrestd: the parent and the shares are "
				  "the account's association's (POST "
				  "/associations), the others the account's "
				  "(POST /accounts); run them as two "
				  "modaccount lines");
	return 0;
}

static const char *
str_of(json_object *rec, const char *key)
{
	json_object *x = sq_rest_jget(rec, key);

	return x != NULL && json_object_get_string(x) != NULL
		   ? json_object_get_string(x)
		   : "";
}

/* Is name among the comma-separated users (any case)? */
static int
named(const char *users, const char *name)
{
	const char *p = users;
	size_t nl = strlen(name);

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, ",");

		if (len == nl && strncasecmp(p, name, nl) == 0)
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* The coordinators' names of rec as a new array of strings, those among
 * skip (comma-separated, NULL: none) left out. */
static json_object *
coord_names(json_object *rec, const char *skip)
{
	json_object *arr = sq_rest_jget(rec, "coordinators");
	json_object *out = json_object_new_array();
	size_t i;

	for (i = 0; arr != NULL && json_object_is_type(arr, json_type_array) &&
		    i < sq_rest_jlen(arr);
	     i++) {
		const char *nm =
		    str_of(json_object_array_get_idx(arr, i), "name");

		if (*nm != '\0' && (skip == NULL || !named(skip, nm)))
			json_object_array_add(out, json_object_new_string(nm));
	}
	return out;
}

/* Is the name p (len bytes) in the array of strings arr (any case)? */
static int
in_names(json_object *arr, const char *p, size_t len)
{
	size_t k;

	for (k = 0; k < sq_rest_jlen(arr); k++) {
		const char *x =
		    json_object_get_string(json_object_array_get_idx(arr, k));

		if (strlen(x) == len && strncasecmp(x, p, len) == 0)
			return 1;
	}
	return 0;
}

/* The coordinator list to send: every one read (direct or inherited:
 * one left out is removed), the users added or removed as asked. */
static json_object *
coord_list(const struct sq_action *a, json_object *rec)
{
	const char *users = sq_action_arg(a, "user");
	json_object *keep, *out = json_object_new_array(), *o;
	const char *p = users;
	size_t i;

	keep = coord_names(rec,
			   a->type == SQ_ACTION_ACCT_DEL_COORD ? users : NULL);
	for (i = 0; i < sq_rest_jlen(keep); i++) {
		o = json_object_new_object();
		json_object_object_add(
		    o, "name",
		    json_object_get(json_object_array_get_idx(keep, i)));
		json_object_array_add(out, o);
	}
	while (a->type == SQ_ACTION_ACCT_ADD_COORD && p != NULL && *p != '\0') {
		size_t len = strcspn(p, ",");

		if (len > 0 && !in_names(keep, p, len)) {
			o = json_object_new_object();
			json_object_object_add(
			    o, "name", json_object_new_string_len(p, (int)len));
			json_object_array_add(out, o);
		}
		p += len + (p[len] == ',');
	}
	json_object_put(keep);
	return out;
}

json_object *
sq_rest_account_body(const struct sq_action *a, const char *name,
		     const char *cluster, const struct sq_rest_state *before,
		     struct sq_err *err)
{
	const char *d = sq_action_arg(a, "description");
	const char *org = sq_action_arg(a, "organization");
	json_object *acct, *arr, *o;

	if (assoc_keys(a) && (before == NULL || before->found)) {
		if (before != NULL && before->assocs != NULL)
			return assoc_body(a, name, cluster, before, err);
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "modaccount parent=/fairshare= through slurmrestd "
			   "reads the account's association first; %s's "
			   "could not be read",
			   name);
		return NULL;
	}
	if (before == NULL || (before->found && !before->coords)) {
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "%s through slurmrestd reads the account and its "
			   "coordinators first (a POST without them removes "
			   "them); %s could not be read",
			   a->def->name, name);
		return NULL;
	}
	if (!before->found) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "no account %s (POST /accounts would create it)",
			   name);
		return NULL;
	}
	acct = json_object_new_object();
	json_object_object_add(acct, "name", json_object_new_string(name));
	json_object_object_add(
	    acct, "description",
	    json_object_new_string(d ? d : str_of(before->rec, "description")));
	json_object_object_add(
	    acct, "organization",
	    json_object_new_string(org ? org
				       : str_of(before->rec, "organization")));
	json_object_object_add(acct, "coordinators",
			       coord_list(a, before->rec));
	arr = json_object_new_array();
	json_object_array_add(arr, acct);
	o = json_object_new_object();
	json_object_object_add(o, "accounts", arr);
	return o;
}

/* modaccount's inverse of target i: the fields asked, as read before
 * (core's record of them: the account's, its association's). */
static void
modaccount_inverse(const struct sq_action *a, size_t i,
		   const struct sq_rest_state *before, char *buf, size_t n,
		   size_t *off)
{
	static const char *const keys[] = { "description", "organization",
					    "parent", "fairshare" };
	struct sq_acct_rec r;
	struct sq_action inv;
	char line[1024];
	size_t k;

	sq_rest_acct_rec(a, before, &r);
	sq_action_init(&inv, SQ_ACTION_ACCT_MODIFY_ACCOUNT);
	sq_action_add_target(&inv, a->targets[i], NULL);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *v = sq_acct_rec_get(&r, keys[k]);

		if (sq_action_arg(a, keys[k]) != NULL && v != NULL && *v)
			sq_action_set_arg(&inv, keys[k], v, NULL);
	}
	if (inv.nargs > 0 && sq_action_format(&inv, line, sizeof(line)) == 0 &&
	    *off + strlen(line) + 2 < n)
		*off += (size_t)snprintf(buf + *off, n - *off, "%s%s",
					 *off ? "\n" : "", line);
	sq_action_free(&inv);
}

void
sq_rest_account_inverse(const struct sq_action *a, const struct sq_result *res,
			const struct sq_rest_state *before, char *buf, size_t n)
{
	struct sq_action inv;
	size_t i, off = 0;

	buf[0] = '\0';
	if (a->type == SQ_ACTION_ACCT_MODIFY_ACCOUNT) {
		for (i = 0; i < res->ntargets && i < a->ntargets; i++)
			if (res->targets[i].ok && before != NULL &&
			    before[i].found)
				modaccount_inverse(a, i, &before[i], buf, n,
						   &off);
		return;
	}
	/* as the CLI's: the same accounts, the other verb, the same users */
	sq_action_init(&inv, a->def->inverse);
	for (i = 0; i < res->ntargets && i < a->ntargets; i++)
		if (res->targets[i].ok)
			sq_action_add_target(&inv, a->targets[i], NULL);
	sq_action_set_arg(&inv, "user", sq_action_arg(a, "user"), NULL);
	if (inv.ntargets > 0)
		sq_action_format(&inv, buf, n);
	sq_action_free(&inv);
}
