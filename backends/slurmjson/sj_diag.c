/*
 * sj_diag.c - slurmctld statistics (GET /slurm/vX/diag, sdiag --json) as
 * the key/value rows the sdiag text parser makes: sections "general",
 * "main", "backfill", "rpc_type" and "rpc_user" (value "count=N
 * ave_time=N total_time=N", busiest first), keys as sdiag labels them.
 * Keys sdiag does not print keep their JSON name, in the section of their
 * prefix ("pending_rpc" for the pending RPC lists); the exit reasons
 * (schedule_exit, bf_exit) are "exit: <sdiag's label>".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/model/model_admin.h"

static const struct {
	const char *json, *section, *label;
} labels[] = {
	{ "req_time", "general", "sdiag output at" },
	{ "req_time_start", "general", "Data since" },
	{ "server_thread_count", "general", "Server thread count" },
	{ "agent_queue_size", "general", "Agent queue size" },
	{ "agent_count", "general", "Agent count" },
	{ "agent_thread_count", "general", "Agent thread count" },
	{ "dbd_agent_queue_size", "general", "DBD Agent queue size" },
	{ "jobs_submitted", "general", "Jobs submitted" },
	{ "jobs_started", "general", "Jobs started" },
	{ "jobs_completed", "general", "Jobs completed" },
	{ "jobs_canceled", "general", "Jobs canceled" },
	{ "jobs_failed", "general", "Jobs failed" },
	{ "job_states_ts", "general", "Job states ts" },
	{ "jobs_pending", "general", "Jobs pending" },
	{ "jobs_running", "general", "Jobs running" },
	{ "gettimeofday_latency", "general",
	  "Latency for 1000 calls to gettimeofday()" },
	{ "schedule_cycle_last", "main", "Last cycle" },
	{ "schedule_cycle_max", "main", "Max cycle" },
	{ "schedule_cycle_total", "main", "Total cycles" },
	{ "schedule_cycle_mean", "main", "Mean cycle" },
	{ "schedule_cycle_mean_depth", "main", "Mean depth cycle" },
	{ "schedule_cycle_per_minute", "main", "Cycles per minute" },
	{ "schedule_queue_length", "main", "Last queue length" },
	{ "bf_backfilled_jobs", "backfill",
	  "Total backfilled jobs (since last slurm start)" },
	{ "bf_last_backfilled_jobs", "backfill",
	  "Total backfilled jobs (since last stats cycle start)" },
	{ "bf_backfilled_het_jobs", "backfill",
	  "Total backfilled heterogeneous job components" },
	{ "bf_cycle_counter", "backfill", "Total cycles" },
	{ "bf_when_last_cycle", "backfill", "Last cycle when" },
	{ "bf_cycle_last", "backfill", "Last cycle" },
	{ "bf_cycle_max", "backfill", "Max cycle" },
	{ "bf_cycle_mean", "backfill", "Mean cycle" },
	{ "bf_last_depth", "backfill", "Last depth cycle" },
	{ "bf_last_depth_try", "backfill", "Last depth cycle (try sched)" },
	{ "bf_depth_mean", "backfill", "Depth Mean" },
	{ "bf_depth_mean_try", "backfill", "Depth Mean (try depth)" },
	{ "bf_queue_len", "backfill", "Last queue length" },
	{ "bf_queue_len_mean", "backfill", "Queue length mean" },
	{ "bf_table_size", "backfill", "Last table size" },
	{ "bf_table_size_mean", "backfill", "Mean table size" },
};

/* The scheduler's exit reasons as sdiag labels them (23.02+), rows
 * "exit: <label>" of the section main or backfill, as the text parser
 * makes them. */
static const struct {
	const char *group, *json, *label;
} exits[] = {
	{ "schedule_exit", "end_job_queue", "End of job queue" },
	{ "schedule_exit", "default_queue_depth", "Hit default_queue_depth" },
	{ "schedule_exit", "max_job_start", "Hit sched_max_job_start" },
	{ "schedule_exit", "licenses", "Blocked on licenses" },
	{ "schedule_exit", "max_rpc_cnt", "Hit max_rpc_cnt" },
	{ "schedule_exit", "max_sched_time", "Timeout (max_sched_time)" },
	{ "bf_exit", "end_job_queue", "End of job queue" },
	{ "bf_exit", "bf_max_job_start", "Hit bf_max_job_start" },
	{ "bf_exit", "bf_max_job_test", "Hit bf_max_job_test" },
	{ "bf_exit", "state_changed", "System state changed" },
	{ "bf_exit", "bf_node_space_size",
	  "Hit table size limit (bf_node_space_size)" },
	{ "bf_exit", "bf_max_time", "Timeout (bf_max_time)" },
};

/* The key of member k of group (schedule_exit, bf_exit) into buf. */
static const char *
exit_key(const char *group, const char *k, char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(exits) / sizeof(exits[0]); i++) {
		if (strcmp(exits[i].group, group) == 0 &&
		    strcmp(exits[i].json, k) == 0) {
			snprintf(buf, n, "exit: %s", exits[i].label);
			return buf;
		}
	}
	snprintf(buf, n, "%s.%s", group, k);
	return buf;
}

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

static int
cmp_rpc(const void *a, const void *b)
{
	const struct sq_sj_rpc_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

int
sq_sj_rpc_list(struct sq_snapshot *s, const char *section, json_object *arr,
	       const char *name_key, sq_sj_rpc_fill_fn *fill, void *arg,
	       struct sq_err *err)
{
	size_t i, n, m = 0;
	struct sq_sj_rpc_row *rows;
	int rc = 0;

	if (arr == NULL || !json_object_is_type(arr, json_type_array) ||
	    (n = json_object_array_length(arr)) == 0)
		return 0;
	rows = calloc(n, sizeof(*rows));
	if (rows == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(arr, i);

		m += (size_t)fill(e, sq_sj_cstr(sq_sj_get(e, name_key)),
				  &rows[m], arg);
	}
	if (m < n)
		m += (size_t)fill(NULL, NULL, &rows[m], arg);
	qsort(rows, m, sizeof(*rows), cmp_rpc);
	for (i = 0; i < m && rc == 0; i++)
		rc =
		    sq_kv_add(s, section,
			      rows[i].id[0] != '\0' ? rows[i].id : rows[i].name,
			      rows[i].value, err);
	free(rows);
	return rc;
}

/* A row of sdiag's RPC lists, with "count= ave_time= total_time=" and
 * any other counters after them; arg is the element's name key. */
static int
fill_rpc(json_object *e, const char *name, struct sq_sj_rpc_row *r, void *arg)
{
	const char *name_key = arg;
	char num[64];
	size_t l;

	if (name == NULL || !json_object_is_type(e, json_type_object))
		return 0;
	r->name = name;
	/* a uid without a user name (a user since removed): sdiag
	 * prints the number, slurmrestd an empty name */
	if (name[0] == '\0' && sq_sj_get(e, "user_id") != NULL) {
		snprintf(r->id, sizeof(r->id), "%lld",
			 (long long)sq_sj_numk(e, "user_id", -1));
	}
	r->count = sq_sj_numk(e, "count", SQ_NONE);
	snprintf(r->value, sizeof(r->value), "count=%lld", (long long)r->count);
	if (sq_sj_get(e, "average_time") != NULL ||
	    sq_sj_get(e, "total_time") != NULL) {
		l = strlen(r->value);
		snprintf(r->value + l, sizeof(r->value) - l,
			 " ave_time=%lld total_time=%lld",
			 (long long)sq_sj_numk(e, "average_time", SQ_NONE),
			 (long long)sq_sj_numk(e, "total_time", SQ_NONE));
	}
	json_object_object_foreach(e, k, v)
	{
		const char *t;

		if (strcmp(k, name_key) == 0 || strcmp(k, "type_id") == 0 ||
		    strcmp(k, "user_id") == 0 || strcmp(k, "count") == 0 ||
		    strcmp(k, "average_time") == 0 ||
		    strcmp(k, "total_time") == 0)
			continue;
		t = scalar_text(v, num, sizeof(num));
		l = strlen(r->value);
		if (t != NULL &&
		    l + strlen(k) + strlen(t) + 3 < sizeof(r->value))
			snprintf(r->value + l, sizeof(r->value) - l, " %s=%s",
				 k, t);
	}
	return 1;
}

/* One row per element of an RPC list, busiest first. */
static int
add_rpcs(struct sq_snapshot *s, const char *section, json_object *arr,
	 const char *name_key, struct sq_err *err)
{
	return sq_sj_rpc_list(s, section, arr, name_key, fill_rpc,
			      (void *)name_key, err);
}

/* Section of a key sdiag does not label. */
static const char *
section_of(const char *key)
{
	if (strncmp(key, "bf_", 3) == 0)
		return "backfill";
	if (strncmp(key, "schedule_", 9) == 0)
		return "main";
	if (strncmp(key, "pending_rpcs", 12) == 0)
		return "pending_rpc";
	return "general";
}

static int
add_scalar(struct sq_snapshot *s, const char *key, const char *t,
	   struct sq_err *err)
{
	char v[128];
	size_t i;

	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		if (strcmp(labels[i].json, key) != 0)
			continue;
		if (strcmp(key, "gettimeofday_latency") == 0) {
			snprintf(v, sizeof(v), "%s microseconds", t);
			t = v;
		}
		return add_kv(s, labels[i].section, labels[i].label, t, err);
	}
	return add_kv(s, section_of(key), key, t, err);
}

int
sq_sj_diag(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	json_object *st = sq_sj_get(root, "statistics");
	json_object *pings = sq_sj_get(root, "pings");
	char buf[64];

	/* GET /ping, read into the diag snapshot (rest.c) */
	if (st == NULL && pings != NULL &&
	    json_object_is_type(pings, json_type_array))
		return sq_sj_pings(c, pings, err);
	if (st == NULL || !json_object_is_type(st, json_type_object))
		return sq_err_set(err, SQ_ERR_PARSE,
				  "JSON answer has no 'statistics' object");
	json_object_object_foreach(st, key, val)
	{
		const char *t = scalar_text(val, buf, sizeof(buf));
		int rc = 0;

		if (t != NULL) {
			rc = add_scalar(c->s, key, t, err);
		} else if (val != NULL &&
			   json_object_is_type(val, json_type_array)) {
			if (strcmp(key, "rpcs_by_user") == 0)
				rc = add_rpcs(c->s, "rpc_user", val, "user",
					      err);
			else if (strcmp(key, "rpcs_by_message_type") == 0)
				rc = add_rpcs(c->s, "rpc_type", val,
					      "message_type", err);
			else
				rc = add_rpcs(c->s, "pending_rpc", val,
					      "message_type", err);
		} else if (val != NULL &&
			   json_object_is_type(val, json_type_object)) {
			/* schedule_exit, bf_exit: "group.key" rows */
			json_object_object_foreach(val, k2, v2)
			{
				char b2[64], k3[128];
				const char *t2 =
				    scalar_text(v2, b2, sizeof(b2));

				exit_key(key, k2, k3, sizeof(k3));
				if (t2 != NULL && rc == 0)
					rc = add_kv(c->s, section_of(key), k3,
						    t2, err);
			}
		}
		if (rc == -1)
			return -1;
	}
	return 0;
}
