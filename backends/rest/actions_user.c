/*
 * actions_user.c - moduser through slurmrestd from API v0.0.40 (Slurm
 * 23.11) on: POST /slurmdb/vN/users with the user's default account and
 * admin level (the fields slurmdbd's user modify takes), read back with
 * GET /user/NAME?with_assocs (the default account shows only with the
 * associations), checked (the fields asked as asked, no other field of the
 * user moved) and undone with the values read before. A default QOS is
 * not a user's field there but each association's: POST /users does not
 * set it (24.11 ignores default.qos as an unknown field, 26.05's slurmdbd
 * leaves the associations as they were), so defaultqos= is a POST
 * /associations with every association of the user (GET
 * /associations?user=NAME), each built as setlimit builds it from the
 * record read (actions_assoc.c: its TRES limits kept) with its default
 * QOS changed, as sacctmgr's modify user sets it on all of them; checked
 * on all of them ("(mixed)" as the CLI's when they differ) and undone as
 * the CLI's: one moduser when they had one default QOS, a setlimit per
 * association when they had several. With another key it is refused
 * (two requests of two records: run two moduser lines). A default WCKey
 * is not mapped. Never prints.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "backends/backend.h"
#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "core/action/acct_verdict.h"
#include "core/base/util.h"

int
sq_rest_user_mapped(const struct sq_action *a, int vdb)
{
	return a->type == SQ_ACTION_ACCT_MODIFY_USER && vdb >= 40;
}

int
sq_rest_user_check(const struct sq_action *a, int vdb, struct sq_err *err)
{
	if (vdb < 40)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "moduser through slurmrestd API v0.0.%d is "
				  "not mapped (squall maps POST "
				  "/slurmdb/vN/users from v0.0.40, Slurm "
				  "23.11, on); use the local or ssh backend "
				  "(sacctmgr -i modify user)",
				  vdb);
	if (sq_action_arg(a, "defaultqos") != NULL && a->nargs > 1)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "moduser defaultqos= with other keys through "
				  "slurmrestd: the default QOS is each "
				  "association's (POST /associations), the "
				  "others the user's (POST /users); run them "
				  "as two moduser lines");
	if (sq_action_arg(a, "defaultwckey") != NULL)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "moduser defaultwckey= through slurmrestd is "
				  "not mapped in squall; use the local or ssh "
				  "backend");
	return 0;
}

/* none, operator, administrator as data_parser's ADMIN_LVL */
static const char *
level(const char *v)
{
	if (strcasecmp(v, "operator") == 0)
		return "Operator";
	if (strcasecmp(v, "administrator") == 0 || strcasecmp(v, "admin") == 0)
		return "Administrator";
	return "None";
}

/* Has the user an association in account acc? */
static int
has_account(json_object *rec, const char *acc, char *list, size_t n)
{
	json_object *arr = sq_rest_jget(rec, "associations");
	size_t i, off = 0;
	int found = 0;

	list[0] = '\0';
	for (i = 0; arr != NULL && json_object_is_type(arr, json_type_array) &&
		    i < sq_rest_jlen(arr);
	     i++) {
		const char *x = json_object_get_string(
		    sq_rest_jget(json_object_array_get_idx(arr, i), "account"));

		if (x == NULL)
			continue;
		found |= strcmp(x, acc) == 0;
		if (off < n)
			off += (size_t)snprintf(list + off, n - off, "%s%s",
						off ? "," : "", x);
	}
	return found;
}

static json_object *
users_body(const struct sq_action *a, const char *name,
	   const struct sq_rest_state *before, struct sq_err *err)
{
	const char *acc = sq_action_arg(a, "defaultaccount");
	const char *lvl = sq_action_arg(a, "adminlevel");
	json_object *u, *arr, *o;
	char have[512];

	if (before == NULL) {
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "moduser through slurmrestd reads the user first; "
			   "%s could not be read",
			   name);
		return NULL;
	}
	if (!before->found) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "no user %s (POST /users would create it)", name);
		return NULL;
	}
	if (acc != NULL && !has_account(before->rec, acc, have, sizeof(have))) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "refused: %s has no association in %s (its "
			   "accounts: %s); add one first (adduser %s "
			   "account=%s)",
			   name, acc, have[0] ? have : "none", name, acc);
		return NULL;
	}
	u = json_object_new_object();
	json_object_object_add(u, "name", json_object_new_string(name));
	if (acc != NULL)
		sq_rest_jput(u, "default.account", json_object_new_string(acc));
	if (lvl != NULL) {
		arr = json_object_new_array();
		json_object_array_add(arr, json_object_new_string(level(lvl)));
		json_object_object_add(u, "administrator_level", arr);
	}
	arr = json_object_new_array();
	json_object_array_add(arr, u);
	o = json_object_new_object();
	json_object_object_add(o, "users", arr);
	return o;
}

void
sq_rest_user_path(const struct sq_action *a, int vdb, char *buf, size_t n)
{
	snprintf(buf, n, "/slurmdb/v0.0.%d/%s", vdb,
		 sq_action_arg(a, "defaultqos") != NULL ? "associations"
							: "users");
}

/* The default QOS moduser asks ("" for -1: cleared). */
static const char *
dq_wanted(const struct sq_action *a)
{
	const char *v = sq_action_arg(a, "defaultqos");

	return v == NULL ? NULL : strcmp(v, "-1") == 0 ? "" : v;
}

/* Does the request change association x: its default QOS is not the one
 * asked, or none of assocs has one to change (then all are sent, and
 * none changes)? */
static int
dq_posted(const struct sq_action *a, json_object *assocs, json_object *x)
{
	const char *want = dq_wanted(a);
	size_t i;

	if (strcmp(sq_rest_jstr_at(x, "default.qos"), want) != 0)
		return 1;
	for (i = 0; i < sq_rest_jlen(assocs); i++)
		if (strcmp(sq_rest_jstr_at(json_object_array_get_idx(assocs, i),
					   "default.qos"),
			   want) != 0)
			return 0;
	return 1;
}

/* One association of the user as setlimit account= user= [partition=]
 * defaultqos= builds it from the record x (actions_assoc.c), appended to
 * list; -1 with err. */
static int
dq_assoc(const struct sq_action *a, const char *name, const char *cluster,
	 json_object *x, json_object *list, struct sq_err *err)
{
	const char *acc = json_object_get_string(sq_rest_jget(x, "account"));
	const char *part = json_object_get_string(sq_rest_jget(x, "partition"));
	struct sq_rest_state one;
	struct sq_action s;
	json_object *o;
	char line[1024];

	part = part ? part : "";
	snprintf(line, sizeof(line),
		 "setlimit account=%s user=%s%s%s defaultqos=%s",
		 acc ? acc : "", name, *part ? " partition=" : "", part,
		 sq_action_arg(a, "defaultqos"));
	if (sq_action_parse(line, -1, NULL, 0, &s, err) != 0)
		return -1;
	memset(&one, 0, sizeof(one));
	one.found = 1;
	one.rec = x;
	o = sq_rest_assoc_body(&s, acc ? acc : "", name, part, cluster, &one,
			       err);
	sq_action_free(&s);
	if (o == NULL)
		return -1;
	json_object_array_add(list, json_object_get(json_object_array_get_idx(
					sq_rest_jget(o, "associations"), 0)));
	json_object_put(o);
	return 0;
}

json_object *
sq_rest_user_body(const struct sq_action *a, const char *name,
		  const char *cluster, const struct sq_rest_state *before,
		  struct sq_err *err)
{
	json_object *list, *o;
	size_t i;

	if (sq_action_arg(a, "defaultqos") == NULL)
		return users_body(a, name, before, err);
	if (before == NULL || before->assocs == NULL) {
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "moduser defaultqos= through slurmrestd reads the "
			   "user's associations first; %s's could not be read",
			   name);
		return NULL;
	}
	if (sq_rest_jlen(before->assocs) == 0) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "%s has no association to set a default QOS on",
			   name);
		return NULL;
	}
	list = json_object_new_array();
	for (i = 0; i < sq_rest_jlen(before->assocs); i++) {
		json_object *x = json_object_array_get_idx(before->assocs, i);

		if (dq_posted(a, before->assocs, x) &&
		    dq_assoc(a, name, cluster, x, list, err) == -1) {
			json_object_put(list);
			return NULL;
		}
	}
	o = json_object_new_object();
	json_object_object_add(o, "associations", list);
	return o;
}

int
sq_rest_assocs_read(struct sq_backend *b, int vdb, const char *by,
		    const char *name, const char *cluster,
		    struct sq_rest_state *st, struct sq_err *err)
{
	struct sq_rest_state as;
	char path[512];

	memset(&as, 0, sizeof(as));
	snprintf(path, sizeof(path),
		 "/slurmdb/v0.0.%d/associations?%s=%s&cluster=%s", vdb, by,
		 name, cluster ? cluster : "");
	if (sq_rest_get_target(b, path, "Nothing found", &as, err) == -1)
		return -1;
	st->aroot = as.root != NULL ? as.root : json_object_new_object();
	if (!json_object_object_get_ex(st->aroot, "associations",
				       &st->assocs) ||
	    !json_object_is_type(st->assocs, json_type_array)) {
		/* none: an empty list */
		st->assocs = json_object_new_array();
		json_object_object_add(st->aroot, "associations", st->assocs);
	}
	return 0;
}

int
sq_rest_user_read(struct sq_backend *b, const struct sq_action *a, size_t i,
		  const char *cluster, struct sq_rest_state *st,
		  struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	json_object *arr = NULL;
	char path[256];

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "/slurmdb/v0.0.%d/user/%s?with_assocs",
		 api->slurmdb, a->targets[i]);
	if (sq_rest_get_target(b, path, "Nothing found", st, err) == -1)
		return -1;
	if (st->root == NULL)
		return 0; /* no such user */
	if (!json_object_object_get_ex(st->root, "users", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return sq_err_set(err, SQ_ERR_PARSE, "GET %s: no users", path);
	if (sq_rest_jlen(arr) > 0)
		st->rec = json_object_array_get_idx(arr, 0);
	st->found = st->rec != NULL;
	if (st->found && sq_action_arg(a, "defaultqos") != NULL)
		return sq_rest_assocs_read(b, api->slurmdb, "user",
					   a->targets[i], cluster, st, err);
	return 0;
}

int
sq_rest_user_assocs_same(const struct sq_action *a,
			 const struct sq_rest_state *before,
			 const struct sq_rest_state *after)
{
	static const char *const dq[] = { "default.qos" };
	json_object *b = before->assocs, *f = after->assocs;
	size_t i;

	if (b == NULL || f == NULL || sq_action_arg(a, "defaultqos") == NULL)
		return 1;
	if (sq_rest_jlen(b) != sq_rest_jlen(f))
		return 0;
	/* the default QOS of those posted may move (to the one asked: the
	 * verdict's), nothing else of any */
	for (i = 0; i < sq_rest_jlen(b); i++) {
		json_object *x = json_object_array_get_idx(b, i);

		if (sq_rest_jsame_but(x, json_object_array_get_idx(f, i), dq,
				      dq_posted(a, b, x)) == 0)
			return 0;
	}
	return 1;
}

/* "acc/user" or "acc/user/part": association x as a target */
static void
assoc_name(json_object *x, char *buf, size_t n)
{
	const char *part = sq_rest_jstr_at(x, "partition");

	snprintf(buf, n, "%s/%s%s%s", sq_rest_jstr_at(x, "account"),
		 sq_rest_jstr_at(x, "user"), *part ? "/" : "", part);
}

static int
dq_mixed(json_object *assocs)
{
	size_t i;

	for (i = 1; i < sq_rest_jlen(assocs); i++)
		if (strcmp(sq_rest_jstr_at(json_object_array_get_idx(assocs, 0),
					   "default.qos"),
			   sq_rest_jstr_at(json_object_array_get_idx(assocs, i),
					   "default.qos")) != 0)
			return 1;
	return 0;
}

/* From *k on, the next association of assocs whose default QOS is not
 * want: its name ("acc/user[/part]") into name, its default QOS returned
 * (NULL: none left); *k past it. */
static const char *
dq_next(json_object *assocs, const char *want, size_t *k, char *name, size_t n)
{
	for (; *k < sq_rest_jlen(assocs); (*k)++) {
		json_object *x = json_object_array_get_idx(assocs, *k);
		const char *dq = sq_rest_jstr_at(x, "default.qos");

		if (strcmp(dq, want) != 0) {
			assoc_name(x, name, n);
			(*k)++;
			return dq;
		}
	}
	return NULL;
}

void
sq_rest_user_listing(const struct sq_action *a,
		     const struct sq_rest_state *before, char *buf, size_t n)
{
	const char *want = dq_wanted(a), *dq;
	char name[400];
	size_t i, k;
	int mixed = 0;

	for (i = 0; want != NULL && before != NULL && i < a->ntargets; i++) {
		json_object *as = before[i].assocs;
		size_t count = 0;

		if (!before[i].found || as == NULL)
			continue;
		for (k = 0;
		     (dq = dq_next(as, want, &k, name, sizeof(name))) != NULL;
		     count++)
			sq_acct_dq_line(buf, n, a->targets[i], name, dq, want);
		if (count == 0)
			sq_acct_dq_line(buf, n, a->targets[i], NULL, NULL,
					want);
		mixed |= dq_mixed(as);
	}
	if (mixed)
		sq_acct_dq_mixed(buf, n);
}

static void
put_line(struct sq_action *inv, char *buf, size_t n, size_t *off)
{
	char line[1024];

	if (sq_action_format(inv, line, sizeof(line)) == 0 &&
	    *off + strlen(line) + 2 < n)
		*off += (size_t)snprintf(buf + *off, n - *off, "%s%s",
					 *off ? "\n" : "", line);
	sq_action_free(inv);
}

/* defaultqos='s undo, as the CLI's: moduser with the one default QOS the
 * associations had (-1: none), or, when they had several, a setlimit per
 * association whose default QOS it changes. */
static void
dq_inverse(const struct sq_action *a, const char *user, json_object *assocs,
	   char *buf, size_t n, size_t *off)
{
	const char *want = dq_wanted(a), *first, *dq;
	struct sq_action inv;
	char name[400];
	size_t i;

	if (sq_rest_jlen(assocs) == 0)
		return;
	first = sq_rest_jstr_at(json_object_array_get_idx(assocs, 0),
				"default.qos");
	if (!dq_mixed(assocs)) {
		sq_action_init(&inv, SQ_ACTION_ACCT_MODIFY_USER);
		sq_action_add_target(&inv, user, NULL);
		sq_action_set_arg(&inv, "defaultqos", *first ? first : "-1",
				  NULL);
		put_line(&inv, buf, n, off);
		return;
	}
	for (i = 0;
	     (dq = dq_next(assocs, want, &i, name, sizeof(name))) != NULL;) {
		sq_action_init(&inv, SQ_ACTION_ACCT_SET_LIMIT);
		if (sq_action_add_target(&inv, name, NULL) == 0 &&
		    sq_action_set_arg(&inv, "defaultqos", *dq ? dq : "-1",
				      NULL) == 0)
			put_line(&inv, buf, n, off);
		else
			sq_action_free(&inv);
	}
}

void
sq_rest_user_inverse(const struct sq_action *a, const struct sq_result *res,
		     const struct sq_rest_state *before, char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	if (sq_action_arg(a, "defaultqos") != NULL) {
		for (i = 0; i < res->ntargets && i < a->ntargets; i++)
			if (res->targets[i].ok && before[i].found &&
			    before[i].assocs != NULL)
				dq_inverse(a, a->targets[i], before[i].assocs,
					   buf, n, &off);
		return;
	}
	for (i = 0; i < res->ntargets && i < a->ntargets; i++) {
		struct sq_action inv;
		const char *acc, *lvl;
		char line[512], low[32];
		size_t k;

		if (!res->targets[i].ok || !before[i].found)
			continue;
		sq_action_init(&inv, SQ_ACTION_ACCT_MODIFY_USER);
		sq_action_add_target(&inv, a->targets[i], NULL);
		acc = sq_rest_jstr_at(before[i].rec, "default.account");
		if (sq_action_arg(a, "defaultaccount") != NULL && *acc)
			sq_action_set_arg(&inv, "defaultaccount", acc, NULL);
		lvl = sq_rest_jstr_at(before[i].rec, "administrator_level");
		if (sq_action_arg(a, "adminlevel") != NULL && *lvl) {
			for (k = 0; lvl[k] && k + 1 < sizeof(low); k++)
				low[k] = (char)(lvl[k] >= 'A' && lvl[k] <= 'Z'
						    ? lvl[k] - 'A' + 'a'
						    : lvl[k]);
			low[k] = '\0';
			sq_action_set_arg(&inv, "adminlevel", low, NULL);
		}
		if (inv.nargs > 0 &&
		    sq_action_format(&inv, line, sizeof(line)) == 0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
		sq_action_free(&inv);
	}
}
