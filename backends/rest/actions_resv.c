/*
 * actions_resv.c - reservations through slurmrestd (API v0.0.43 and
 * later: POST /slurm/vX/reservation creates or changes one, DELETE
 * /slurm/vX/reservation/NAME deletes it): the request body (the start
 * and end as the words typed, which slurmrestd reads as scontrol does,
 * so the preview is the request sent), reading a reservation back, and
 * the check and inverse of core/action/resv_check.c on it.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"
#include "core/action/resv.h"
#include "core/base/util.h"

/* "a,b" -> ["a","b"] */
static json_object *
csv_array(const char *v)
{
	json_object *arr = json_object_new_array();
	char copy[1100], *t, *save = NULL;

	sq_util_copy(copy, sizeof(copy), v);
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		json_object_array_add(arr, json_object_new_string(t));
	return arr;
}

static int
add_field(json_object *o, const char *key, const char *v, struct sq_err *err)
{
	int64_t d;

	if (strcmp(key, "start") == 0 || strcmp(key, "end") == 0) {
		json_object_object_add(
		    o, key[0] == 's' ? "start_time" : "end_time",
		    json_object_new_string(v));
	} else if (strcmp(key, "duration") == 0) {
		json_object *n = json_object_new_object();

		if (strcmp(v, "UNLIMITED") == 0 || strcmp(v, "-1") == 0) {
			json_object_object_add(n, "set",
					       json_object_new_boolean(0));
			json_object_object_add(n, "infinite",
					       json_object_new_boolean(1));
		} else {
			if (sq_parse_duration(v, &d) == -1 || d < 0) {
				json_object_put(n);
				return sq_err_set(err, SQ_ERR_USAGE,
						  "bad duration %.40s", v);
			}
			json_object_object_add(n, "set",
					       json_object_new_boolean(1));
			json_object_object_add(n, "number",
					       json_object_new_int64(d / 60));
		}
		json_object_object_add(o, "duration", n);
	} else if (strcmp(key, "nodes") == 0) {
		json_object *arr = json_object_new_array();

		json_object_array_add(arr, json_object_new_string(v));
		json_object_object_add(o, "node_list", arr);
	} else if (strcmp(key, "partition") == 0) {
		json_object_object_add(o, "partition",
				       json_object_new_string(v));
	} else if (strcmp(key, "users") == 0 || strcmp(key, "accounts") == 0 ||
		   strcmp(key, "flags") == 0) {
		json_object_object_add(o, key, csv_array(v));
	} else {
		return sq_err_set(err, SQ_ERR_USAGE, "%.40s= is not mapped",
				  key);
	}
	return 0;
}

json_object *
sq_rest_resv_body(const struct sq_action *a, const char *name,
		  struct sq_err *err)
{
	json_object *o = json_object_new_object();
	size_t i;

	json_object_object_add(o, "name", json_object_new_string(name));
	for (i = 0; i < a->nargs; i++) {
		char key[32];
		const char *val =
		    sq_action_arg_split(a->args[i], key, sizeof(key));

		if (val == NULL)
			continue;
		if (a->type == SQ_ACTION_RESV_UPDATE &&
		    strcmp(key, "flags") == 0) {
			json_object_put(o);
			sq_err_set(err, SQ_ERR_UNSUPPORTED,
				   "changing a reservation's flags is not "
				   "mapped through slurmrestd (its update "
				   "sets the flags it is given); use the "
				   "local or ssh backend (scontrol update "
				   "Flags=%.60s)",
				   val);
			return NULL;
		}
		if (add_field(o, key, val, err) == -1) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

/* A string, or an array of strings joined by ',', into buf. */
static const char *
csv_of(json_object *rec, const char *key, char *buf, size_t n)
{
	json_object *v = NULL;
	size_t i, off = 0;

	buf[0] = '\0';
	if (!json_object_object_get_ex(rec, key, &v) || v == NULL)
		return buf;
	if (json_object_is_type(v, json_type_string)) {
		sq_util_copy(buf, n, json_object_get_string(v));
		return buf;
	}
	if (!json_object_is_type(v, json_type_array))
		return buf;
	for (i = 0; i < sq_rest_jlen(v); i++) {
		const char *s =
		    json_object_get_string(json_object_array_get_idx(v, i));

		if (s == NULL || off + strlen(s) + 2 >= n)
			continue;
		off += (size_t)snprintf(buf + off, n - off, "%s%s",
					off ? "," : "", s);
	}
	return buf;
}

/* A {set, infinite, number} time, or a plain number: epoch, SQ_NONE. */
static int64_t
time_of(json_object *rec, const char *key)
{
	json_object *v = NULL, *x = NULL;

	if (!json_object_object_get_ex(rec, key, &v) || v == NULL)
		return SQ_NONE;
	if (json_object_is_type(v, json_type_int))
		return json_object_get_int64(v);
	if (json_object_object_get_ex(v, "infinite", &x) &&
	    json_object_get_boolean(x))
		return SQ_NONE;
	if (json_object_object_get_ex(v, "set", &x) &&
	    !json_object_get_boolean(x))
		return SQ_NONE;
	if (json_object_object_get_ex(v, "number", &x))
		return json_object_get_int64(x);
	return SQ_NONE;
}

/* The strings of one reservation read back, and the record over them. */
struct resv_text {
	char nodes[1024], part[129], users[1024], accounts[1024], flags[512];
	struct sq_reservation r;
};

static void
to_resv(json_object *rec, struct resv_text *t)
{
	memset(t, 0, sizeof(*t));
	t->r.name = t->r.state = "";
	t->r.start_time = time_of(rec, "start_time");
	t->r.end_time = time_of(rec, "end_time");
	t->r.nodes = csv_of(rec, "node_list", t->nodes, sizeof(t->nodes));
	t->r.partition = csv_of(rec, "partition", t->part, sizeof(t->part));
	t->r.users = csv_of(rec, "users", t->users, sizeof(t->users));
	t->r.accounts =
	    csv_of(rec, "accounts", t->accounts, sizeof(t->accounts));
	t->r.flags = csv_of(rec, "flags", t->flags, sizeof(t->flags));
}

int
sq_rest_resv_read(struct sq_backend *b, const struct sq_action *a, size_t i,
		  struct sq_rest_state *st, struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	char path[512];

	memset(st, 0, sizeof(*st));
	/* no writes to check before v0.0.43: the request is refused, and
	 * why, before a read could call the target missing */
	if (api->slurm < 43)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "reservations through slurmrestd API "
				  "v0.0.%d are read-only",
				  api->slurm);
	snprintf(path, sizeof(path), "/slurm/v0.0.%d/reservation/%s",
		 api->slurm, a->targets[i]);
	if (sq_rest_get_target(b, path, "not found", st, err) == -1)
		return -1;
	st->rec = sq_rest_named(st->root, "reservations", a->targets[i]);
	st->found = st->rec != NULL;
	return 0;
}

int
sq_rest_resv_verify(const struct sq_action *a, const struct sq_rest_state *st,
		    char *msg, size_t n)
{
	struct resv_text t;

	if (st->found)
		to_resv(st->rec, &t);
	return sq_resv_verify(a, st->found ? &t.r : NULL, time(NULL), msg, n);
}

void
sq_rest_resv_inverse(const struct sq_action *a, const struct sq_result *res,
		     const struct sq_rest_state *before, char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < res->ntargets && i < a->ntargets; i++) {
		struct resv_text t;
		char line[1024];
		int have = before != NULL && before[i].found;

		if (!res->targets[i].ok)
			continue;
		if (have)
			to_resv(before[i].rec, &t);
		if (sq_resv_inverse(a, a->targets[i], have ? &t.r : NULL,
				    time(NULL), line, sizeof(line)) == -1 ||
		    line[0] == '\0' || off + strlen(line) + 2 >= n)
			continue;
		off += (size_t)snprintf(buf + off, n - off, "%s%s",
					off ? "\n" : "", line);
	}
}
