/*
 * sj_dbd.c - slurmdbd's statistics (GET /slurmdb/vX/diag) as the rows
 * `sacctmgr show stats` gives (backends/cli/parse_dbd_stats.c): section
 * "dbd" ("Data since", each rollup's "<rollup>: last ran", "Last cycle",
 * "Max cycle", "Total time", "Total cycles", "Mean cycle"), "dbd_type"
 * and "dbd_user" (value "count=N ave_time=N total_time=N", busiest
 * first). Up to v0.0.40 the rollups are a list with a "type"
 * ("internal", "user"); from v0.0.41 an object named after the slots
 * of Slurm's array, not what they count: "hourly" is sacctmgr's
 * "Internal DBD rollup", "daily" its "User RPC rollup call" (the same
 * figures on the 24.11 and 26.05 testbeds), "monthly" a slot sacctmgr
 * does not print. slurmrestd serves no cluster's rollups ("testbed Hour
 * rollup" in sacctmgr).
 */
#include <stdio.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "core/model/model_admin.h"

static int
add(struct sq_snapshot *s, const char *section, const char *key,
    const char *value, struct sq_err *err)
{
	return sq_kv_add(s, section, key, value, err);
}

static int
add_num(struct sq_snapshot *s, const char *rollup, const char *label, int64_t v,
	struct sq_err *err)
{
	char key[160], val[32];

	if (v == SQ_NONE)
		return 0;
	snprintf(key, sizeof(key), "%s: %s", rollup, label);
	if (strcmp(label, "last ran") == 0 && v <= 0)
		snprintf(val, sizeof(val), "never");
	else
		snprintf(val, sizeof(val), "%lld", (long long)v);
	return add(s, "dbd", key, val, err);
}

/* v0.0.38..40: {"type": "internal", "last_run", "last_cycle", ...} */
static int
rollup_old(struct sq_snapshot *s, json_object *o, struct sq_err *err)
{
	const char *type = sq_sj_cstr(sq_sj_get(o, "type"));
	char name[96];

	if (type == NULL)
		return 0;
	if (strcmp(type, "internal") == 0)
		snprintf(name, sizeof(name), "Internal DBD rollup");
	else if (strcmp(type, "user") == 0)
		snprintf(name, sizeof(name), "User RPC rollup call");
	else
		snprintf(name, sizeof(name), "%c%.80s rollup",
			 type[0] >= 'a' && type[0] <= 'z' ? type[0] - 32
							  : type[0],
			 type[0] != '\0' ? type + 1 : "");
	if (add_num(s, name, "last ran", sq_sj_numk(o, "last_run", SQ_NONE),
		    err) == -1 ||
	    add_num(s, name, "Last cycle", sq_sj_numk(o, "last_cycle", SQ_NONE),
		    err) == -1 ||
	    add_num(s, name, "Max cycle", sq_sj_numk(o, "max_cycle", SQ_NONE),
		    err) == -1 ||
	    add_num(s, name, "Total time", sq_sj_numk(o, "total_time", SQ_NONE),
		    err) == -1 ||
	    add_num(s, name, "Total cycles",
		    sq_sj_numk(o, "total_cycles", SQ_NONE), err) == -1)
		return -1;
	return add_num(s, name, "Mean cycle",
		       sq_sj_numk(o, "mean_cycles", SQ_NONE), err);
}

/* v0.0.41+: "hourly": {"count", "duration": {"last","max","time"},
 * "last_run"} */
static int
rollup_new(struct sq_snapshot *s, const char *name, json_object *o,
	   struct sq_err *err)
{
	json_object *d = sq_sj_get(o, "duration");
	int64_t count = sq_sj_numk(o, "count", SQ_NONE);
	int64_t total = sq_sj_numk(d, "time", SQ_NONE);

	if (o == NULL)
		return 0;
	if (add_num(s, name, "last ran", sq_sj_numk(o, "last_run", SQ_NONE),
		    err) == -1 ||
	    add_num(s, name, "Last cycle", sq_sj_numk(d, "last", SQ_NONE),
		    err) == -1 ||
	    add_num(s, name, "Max cycle", sq_sj_numk(d, "max", SQ_NONE), err) ==
		-1 ||
	    add_num(s, name, "Total time", total, err) == -1 ||
	    add_num(s, name, "Total cycles", count, err) == -1)
		return -1;
	if (count > 0 && total != SQ_NONE)
		return add_num(s, name, "Mean cycle", total / count, err);
	return 0;
}

static int
rollups(struct sq_snapshot *s, json_object *r, struct sq_err *err)
{
	size_t i;

	if (r != NULL && json_object_is_type(r, json_type_array)) {
		for (i = 0; i < json_object_array_length(r); i++) {
			if (rollup_old(s, json_object_array_get_idx(r, i),
				       err) == -1)
				return -1;
		}
		return 0;
	}
	if (r == NULL || !json_object_is_type(r, json_type_object))
		return 0;
	if (rollup_new(s, "Internal DBD rollup", sq_sj_get(r, "hourly"), err) ==
	    -1)
		return -1;
	return rollup_new(s, "User RPC rollup call", sq_sj_get(r, "daily"),
			  err);
}

/* The users without a name of a list, summed up into one row */
struct unnamed {
	const char *name_key;
	int64_t count, total;
};

/* [{"rpc"|"user": NAME, "count", "time": {"average", "total"}}]; users
 * without a name (a uid since removed: slurmrestd gives null and no uid,
 * sacctmgr "nobody (uid)") are one row, "(no user name)" */
static int
fill_rpc(json_object *e, const char *name, struct sq_sj_rpc_row *r, void *arg)
{
	struct unnamed *u = arg;
	json_object *t = sq_sj_get(e, "time");

	if (e == NULL) {
		if (u->count <= 0)
			return 0;
		r->name = "(no user name)";
		r->count = u->count;
		snprintf(r->value, sizeof(r->value),
			 "count=%lld ave_time=%lld total_time=%lld",
			 (long long)u->count, (long long)(u->total / u->count),
			 (long long)u->total);
		return 1;
	}
	if ((name == NULL || *name == '\0') &&
	    strcmp(u->name_key, "user") == 0 &&
	    json_object_is_type(e, json_type_object)) {
		u->count += sq_sj_numk(e, "count", 0);
		u->total += sq_sj_numk(t, "total", 0);
		return 0;
	}
	if (name == NULL || *name == '\0')
		return 0;
	r->name = name;
	r->count = sq_sj_numk(e, "count", 0);
	snprintf(r->value, sizeof(r->value),
		 "count=%lld ave_time=%lld total_time=%lld",
		 (long long)r->count, (long long)sq_sj_numk(t, "average", 0),
		 (long long)sq_sj_numk(t, "total", 0));
	return 1;
}

static int
rpcs(struct sq_snapshot *s, const char *section, json_object *arr,
     const char *name_key, struct sq_err *err)
{
	struct unnamed u = { name_key, 0, 0 };

	return sq_sj_rpc_list(s, section, arr, name_key, fill_rpc, &u, err);
}

int
sq_sj_dbd(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	json_object *st = sq_sj_get(root, "statistics");
	int64_t since = sq_sj_numk(st, "time_start", SQ_NONE);
	char v[32];

	if (st == NULL || !json_object_is_type(st, json_type_object))
		return sq_err_set(err, SQ_ERR_PARSE,
				  "slurmdb diag: no \"statistics\" object");
	if (since != SQ_NONE) {
		snprintf(v, sizeof(v), "%lld", (long long)since);
		if (add(c->s, "dbd", "Data since", v, err) == -1)
			return -1;
	}
	if (rollups(c->s, sq_sj_get(st, "rollups"), err) == -1 ||
	    rpcs(c->s, "dbd_type", sq_sj_get(st, "RPCs"), "rpc", err) == -1)
		return -1;
	return rpcs(c->s, "dbd_user", sq_sj_get(st, "users"), "user", err);
}
