/*
 * actions_assoc.c - setlimit and clearlimit through slurmrestd from API
 * v0.0.40 (Slurm 23.11) on: POST /slurmdb/vN/associations with the one
 * association selected (account, cluster, user, partition: slurmrestd
 * matches exactly those four, "" for none, and refuses to change more
 * than one). slurmrestd turns the body into the association's new state
 * for its TRES limits (a TRES list it is not sent is cleared), so the
 * body carries every TRES limit the association has, read before, with
 * the ones asked merged in as sacctmgr merges them. The read (GET
 * /associations of the account, and user) keeps every association of the
 * account and user, so the check after sees that the selected one
 * changed as asked and no other did. 22.05 (v0.0.38) stays refused: its
 * slurmrestd crashes on an update of an association with a TRES limit.
 * Never prints.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "core/action/limit_keys.h"
#include "core/base/util.h"

/* data_parser's field of each association key (v0.0.40 to v0.0.45) */
static const struct {
	const char *key, *path;
} assoc_fields[] = {
	{ "grptres", "max.tres.total" },
	{ "grpjobs", "max.jobs.per.count" },
	{ "grpsubmit", "max.jobs.per.submitted" },
	{ "maxtres", "max.tres.per.job" },
	{ "maxwall", "max.jobs.per.wall_clock" },
	{ "maxjobs", "max.jobs.active" },
	{ "maxsubmit", "max.jobs.total" },
	{ "qos", "qos" },
	{ "defaultqos", "default.qos" },
	{ "fairshare", "shares_raw" },
};

/* every TRES limit of an association: sent as read unless asked */
static const char *const tres_fields[] = {
	"max.tres.total",           "max.tres.group.minutes",
	"max.tres.group.active",    "max.tres.minutes.total",
	"max.tres.minutes.per.job", "max.tres.per.job",
	"max.tres.per.node",
};

const char *
sq_rest_assoc_path(const struct sq_limit_key *k)
{
	size_t i;

	for (i = 0; i < sizeof(assoc_fields) / sizeof(assoc_fields[0]); i++)
		if (strcmp(assoc_fields[i].key, k->key) == 0)
			return assoc_fields[i].path;
	return NULL;
}

int
sq_rest_assoc_mapped(const struct sq_action *a, int vdb)
{
	return (a->type == SQ_ACTION_ACCT_SET_LIMIT ||
		a->type == SQ_ACTION_ACCT_CLEAR_LIMIT) &&
	       vdb >= 40;
}

/* The limits of a as setlimit's key=value (clearlimit: key=-1) in e. */
static int
effective(const struct sq_action *a, struct sq_action *e, struct sq_err *err)
{
	const char *list = sq_action_arg(a, "limits");
	size_t i;

	sq_action_init(e, SQ_ACTION_ACCT_SET_LIMIT);
	if (a->type == SQ_ACTION_ACCT_CLEAR_LIMIT) {
		while (list != NULL && *list != '\0') {
			size_t len = strcspn(list, ",");
			char key[64];

			snprintf(key, sizeof(key), "%.*s",
				 (int)(len < 63 ? len : 63), list);
			if (sq_action_set_arg(e, key, "-1", err) == -1)
				return -1;
			list += len + (list[len] == ',');
		}
		return 0;
	}
	for (i = 0; i < a->nargs; i++) {
		char key[64];
		size_t kl = strcspn(a->args[i], "=");

		snprintf(key, sizeof(key), "%.*s", (int)(kl < 63 ? kl : 63),
			 a->args[i]);
		if (sq_action_set_arg(e, key,
				      a->args[i][kl] ? a->args[i] + kl + 1 : "",
				      err) == -1)
			return -1;
	}
	return 0;
}

/* Does TRES list arr name key (whatever its count)? */
static int
tres_has(json_object *arr, const char *key)
{
	size_t i;

	for (i = 0; i < sq_rest_jlen(arr); i++) {
		char k[140];

		if (strcmp(sq_rest_jtres_key(json_object_array_get_idx(arr, i),
					     k, sizeof(k)),
			   key) == 0)
			return 1;
	}
	return 0;
}

/* have's TRES list merged with asked ("cpu=4,mem=-1"): sacctmgr's way */
static json_object *
tres_merged(json_object *have, const char *asked, struct sq_err *err)
{
	json_object *want, *out = json_object_new_array();
	size_t i, j;

	if (strcmp(asked, "-1") == 0)
		return out;
	if ((want = sq_rest_jtres(asked, err)) == NULL) {
		json_object_put(out);
		return NULL;
	}
	for (i = 0;
	     have != NULL && json_object_is_type(have, json_type_array) &&
	     i < sq_rest_jlen(have);
	     i++) {
		json_object *it = json_object_array_get_idx(have, i), *c = NULL;
		char k[140], t[64];

		sq_rest_jtres_key(it, k, sizeof(k));
		if (tres_has(want, k))
			continue;
		json_object_object_get_ex(it, "count", &c);
		snprintf(t, sizeof(t), "%.*s", (int)strcspn(k, "/"), k);
		json_object_array_add(
		    out, sq_rest_jtres_item(
			     t, strchr(k, '/') ? strchr(k, '/') + 1 : "",
			     c ? json_object_get_int64(c) : 0));
	}
	for (j = 0; j < sq_rest_jlen(want); j++) {
		json_object *it = json_object_array_get_idx(want, j), *c = NULL;

		json_object_object_get_ex(it, "count", &c);
		if (json_object_get_int64(c) != -1)
			json_object_array_add(out, json_object_get(it));
	}
	json_object_put(want);
	return out;
}

static json_object *
assoc_value(const struct sq_limit_key *k, const char *v, json_object *have,
	    struct sq_err *err)
{
	if (strcmp(k->type, "tres") == 0)
		return tres_merged(have, v, err);
	if (strcmp(k->type, "shares") == 0) {
		if (strcmp(v, "parent") == 0) {
			sq_err_set(err, SQ_ERR_UNSUPPORTED,
				   "fairshare=parent through slurmrestd is not "
				   "mapped in squall (a number is); use the "
				   "local or ssh backend");
			return NULL;
		}
		return json_object_new_int64(strtoll(v, NULL, 10));
	}
	/* a default QOS: "" clears it ("-1" is taken as a name and kept:
	 * seen on 24.11 and 26.05) */
	if (strcmp(k->type, "name") == 0)
		return json_object_new_string(strcmp(v, "-1") == 0 ? "" : v);
	return sq_rest_limit_json(k, v, have, err);
}

json_object *
sq_rest_assoc_body(const struct sq_action *a, const char *acc, const char *user,
		   const char *part, const char *cluster,
		   const struct sq_rest_state *before, struct sq_err *err)
{
	json_object *o, *arr,
	    *rec = before && before->found ? before->rec : NULL;
	struct sq_action e;
	size_t i;

	if (before == NULL) {
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "%s through slurmrestd reads the association "
			   "first; it could not be read",
			   a->def->name);
		return NULL;
	}
	if (rec == NULL) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "no association %s/%s/%s (POST /associations "
			   "would create it)",
			   acc, user, part);
		return NULL;
	}
	if (effective(a, &e, err) == -1) {
		sq_action_free(&e);
		return NULL;
	}
	o = json_object_new_object();
	json_object_object_add(o, "account", json_object_new_string(acc));
	json_object_object_add(o, "cluster", json_object_new_string(cluster));
	json_object_object_add(o, "user", json_object_new_string(user));
	if (*part)
		json_object_object_add(o, "partition",
				       json_object_new_string(part));
	for (i = 0; i < e.nargs; i++) {
		char key[64];
		size_t kl = strcspn(e.args[i], "=");
		const struct sq_limit_key *k;
		json_object *j;

		snprintf(key, sizeof(key), "%.*s", (int)(kl < 63 ? kl : 63),
			 e.args[i]);
		k = sq_limit_find(key, SQ_LIM_ASSOC);
		if (k == NULL || sq_rest_assoc_path(k) == NULL ||
		    (j = assoc_value(k, e.args[i] + kl + 1,
				     sq_rest_jget(rec, sq_rest_assoc_path(k)),
				     err)) == NULL) {
			if (k == NULL || sq_rest_assoc_path(k) == NULL)
				sq_err_set(err, SQ_ERR_UNSUPPORTED,
					   "%s through slurmrestd is not "
					   "mapped",
					   key);
			json_object_put(o);
			sq_action_free(&e);
			return NULL;
		}
		sq_rest_jput(o, sq_rest_assoc_path(k), j);
	}
	for (i = 0; i < sizeof(tres_fields) / sizeof(tres_fields[0]); i++) {
		json_object *have = sq_rest_jget(rec, tres_fields[i]);

		if (sq_rest_jget(o, tres_fields[i]) == NULL && have != NULL &&
		    json_object_is_type(have, json_type_array) &&
		    sq_rest_jlen(have) > 0)
			sq_rest_jput(o, tres_fields[i],
				     tres_merged(have, "", err));
	}
	sq_action_free(&e);
	arr = json_object_new_array();
	json_object_array_add(arr, o);
	o = json_object_new_object();
	json_object_object_add(o, "associations", arr);
	return o;
}

static int
same_assoc(json_object *x, const char *acc, const char *user, const char *part)
{
	json_object *v;

	return json_object_object_get_ex(x, "account", &v) &&
	       strcmp(json_object_get_string(v), acc) == 0 &&
	       json_object_object_get_ex(x, "user", &v) &&
	       strcmp(json_object_get_string(v), user) == 0 &&
	       (part == NULL ||
		(json_object_object_get_ex(x, "partition", &v) &&
		 strcmp(json_object_get_string(v), part) == 0));
}

int
sq_rest_assoc_read(struct sq_backend *b, const struct sq_action *a, size_t i,
		   const char *cluster, struct sq_rest_state *st,
		   struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	char path[768], acc[129], user[129], part[129];
	json_object *arr = NULL;
	size_t k;

	memset(st, 0, sizeof(*st));
	if (sq_action_assoc_split(a->targets[i], acc, user, part) == -1)
		return sq_err_set(err, SQ_ERR_USAGE, "bad association");
	/* user= with no name is any user: the account's, then filtered */
	snprintf(path, sizeof(path),
		 "/slurmdb/v0.0.%d/associations?account=%s&cluster=%s%s%s",
		 api->slurmdb, acc, cluster ? cluster : "",
		 user[0] ? "&user=" : "", user);
	if (sq_rest_get_target(b, path, NULL, st, err) == -1)
		return -1;
	if (!json_object_object_get_ex(st->root, "associations", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return sq_err_set(err, SQ_ERR_PARSE, "GET %s: no associations",
				  path);
	for (k = 0; k < sq_rest_jlen(arr); k++) {
		json_object *x = json_object_array_get_idx(arr, k);

		if (same_assoc(x, acc, user, part))
			st->rec = x;
	}
	st->found = st->rec != NULL;
	return 0;
}

/* Every association of the target's account and user other than the
 * target as it was, and the target's fields not asked as they were;
 * "also changed ..." into msg when not. */
int
sq_rest_assoc_unchanged(const struct sq_action *a, size_t i,
			const struct sq_rest_state *before,
			const struct sq_rest_state *after, char *msg, size_t n)
{
	char acc[129], user[129], part[129];
	json_object *ba = NULL, *aa = NULL;
	struct sq_action e;
	struct sq_err err;
	size_t k, j, off = 0;
	int same;

	if (!before->found || !after->found ||
	    sq_action_assoc_split(a->targets[i], acc, user, part) == -1)
		return 1;
	json_object_object_get_ex(before->root, "associations", &ba);
	json_object_object_get_ex(after->root, "associations", &aa);
	for (k = 0; ba != NULL && k < sq_rest_jlen(ba); k++) {
		json_object *x = json_object_array_get_idx(ba, k), *y = NULL;
		json_object *p = NULL;
		const char *xp;

		json_object_object_get_ex(x, "partition", &p);
		xp = p ? json_object_get_string(p) : "";
		if (!same_assoc(x, acc, user, NULL) || strcmp(xp, part) == 0)
			continue;
		for (j = 0; aa != NULL && j < sq_rest_jlen(aa); j++)
			if (same_assoc(json_object_array_get_idx(aa, j), acc,
				       user, xp))
				y = json_object_array_get_idx(aa, j);
		if (y != NULL && json_object_equal(x, y))
			continue;
		off += (size_t)snprintf(msg + off, off < n ? n - off : 0,
					"%s%s/%s/%s %s",
					off ? "; " : "also changed: ", acc,
					user, xp, y ? "changed" : "removed");
	}
	if (off > 0)
		return 0;
	if (effective(a, &e, &err) == -1) {
		sq_action_free(&e);
		return 1;
	}
	same = sq_rest_rec_unchanged(&e, before->rec, after->rec, SQ_LIM_ASSOC,
				     sq_rest_assoc_path);
	sq_action_free(&e);
	if (!same)
		snprintf(msg, n,
			 "changed as asked, but other fields of the "
			 "association changed too");
	return same;
}

void
sq_rest_assoc_inverse(const struct sq_action *a, const struct sq_result *res,
		      const struct sq_rest_state *before, char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < res->ntargets && i < a->ntargets; i++) {
		struct sq_action inv, e;
		struct sq_err err;
		char line[1024];

		if (!res->targets[i].ok || !before[i].found)
			continue;
		if (effective(a, &e, &err) == -1) {
			sq_action_free(&e);
			continue;
		}
		sq_action_init(&inv, SQ_ACTION_ACCT_SET_LIMIT);
		sq_action_add_target(&inv, a->targets[i], NULL);
		sq_rest_limits_undo(&e, &inv, before[i].rec, SQ_LIM_ASSOC,
				    sq_rest_assoc_path);
		if (inv.nargs > 0 &&
		    sq_action_format(&inv, line, sizeof(line)) == 0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
		sq_action_free(&inv);
		sq_action_free(&e);
	}
}
