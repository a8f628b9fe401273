/*
 * sj_diag.c - slurmctld statistics (GET /slurm/vX/diag, sdiag --json)
 * as key/value rows in sdiag's blocks: "main" and "backfill" (bf_*)
 * counters, nested groups (schedule_exit, bf_exit) as "group.key", and
 * one row per RPC type ("rpc_type"), per user ("rpc_user") and pending
 * RPC ("rpc_pending"). Every version's keys are kept as they come.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "core/model_admin.h"

/* Is v a {set,infinite,number} object? */
static int
is_noval(json_object *v)
{
	return sq_sj_get(v, "set") != NULL && sq_sj_get(v, "number") != NULL;
}

/* Text of a scalar or NO_VAL value; NULL for anything else. */
static const char *
scalar_text(json_object *v, char *buf, size_t n)
{
	int64_t x;
	double d;

	if (v == NULL)
		return NULL;
	switch (json_object_get_type(v)) {
	case json_type_string:
		return json_object_get_string(v);
	case json_type_boolean:
		return json_object_get_boolean(v) ? "true" : "false";
	case json_type_int:
		snprintf(buf, n, "%lld", (long long)json_object_get_int64(v));
		return buf;
	case json_type_double:
		d = json_object_get_double(v);
		snprintf(buf, n, "%g", d);
		return buf;
	case json_type_object:
		if (!is_noval(v))
			return NULL;
		x = sq_sj_num(v, SQ_NONE);
		if (x == SQ_INFINITE)
			return "UNLIMITED";
		if (x == SQ_NONE) {
			d = sq_sj_double(v);
			if (isnan(d))
				return "";
			snprintf(buf, n, "%g", d);
			return buf;
		}
		snprintf(buf, n, "%lld", (long long)x);
		return buf;
	default:
		return NULL;
	}
}

static int
add_kv(struct sq_snapshot *s, const char *section, const char *key,
       const char *value, struct sq_err *err)
{
	struct sq_kv *kv = sq_snapshot_add(s);

	if (kv == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	kv->section = sq_snapshot_str(s, section);
	kv->key = sq_snapshot_str(s, key);
	kv->value = sq_snapshot_str(s, value);
	return 0;
}

/* One row per element of an RPC list, keyed by name_key, with the scalar
 * fields other than name_key and the ids as "k=v" pairs. */
static int
add_list(struct sq_snapshot *s, const char *section, json_object *arr,
	 const char *name_key, struct sq_err *err)
{
	size_t i, n = json_object_array_length(arr);

	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		const char *name = sq_sj_cstr(sq_sj_get(e, name_key));
		char val[512], num[64];
		size_t l = 0;

		if (name == NULL || !json_object_is_type(e, json_type_object))
			continue;
		val[0] = '\0';
		json_object_object_foreach(e, k, v)
		{
			const char *t;

			if (strcmp(k, name_key) == 0 ||
			    strcmp(k, "type_id") == 0 ||
			    strcmp(k, "user_id") == 0)
				continue;
			t = scalar_text(v, num, sizeof(num));
			if (t == NULL || l >= sizeof(val) - 1)
				continue;
			l += (size_t)snprintf(val + l, sizeof(val) - l,
					      "%s%s=%s", l ? " " : "", k, t);
		}
		if (add_kv(s, section, name, val, err) == -1)
			return -1;
	}
	return 0;
}

/* sdiag's block of a statistics key. */
static const char *
section_of(const char *key)
{
	if (strncmp(key, "bf_", 3) == 0)
		return "backfill";
	if (strcmp(key, "rpcs_by_message_type") == 0)
		return "rpc_type";
	if (strcmp(key, "rpcs_by_user") == 0)
		return "rpc_user";
	if (strncmp(key, "pending_rpcs", 12) == 0)
		return "rpc_pending";
	return "main";
}

int
sq_sj_diag(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	json_object *st = sq_sj_get(root, "statistics");
	char buf[64];

	if (st == NULL || !json_object_is_type(st, json_type_object))
		return sq_err_set(err, SQ_ERR_PARSE,
				  "JSON answer has no 'statistics' object");
	json_object_object_foreach(st, key, val)
	{
		const char *t = scalar_text(val, buf, sizeof(buf));

		if (t != NULL) {
			if (add_kv(c->s, section_of(key), key, t, err) == -1)
				return -1;
		} else if (val != NULL &&
			   json_object_is_type(val, json_type_array)) {
			const char *nk =
			    strstr(key, "user") ? "user" : "message_type";

			if (add_list(c->s, section_of(key), val, nk, err) == -1)
				return -1;
		} else if (val != NULL &&
			   json_object_is_type(val, json_type_object)) {
			json_object_object_foreach(val, k2, v2)
			{
				char b2[64], k3[128];
				const char *t2 =
				    scalar_text(v2, b2, sizeof(b2));

				snprintf(k3, sizeof(k3), "%s.%s", key, k2);
				if (t2 != NULL && add_kv(c->s, section_of(key),
							 k3, t2, err) == -1)
					return -1;
			}
		}
	}
	return 0;
}
