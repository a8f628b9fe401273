/*
 * sj_internal.h - the per-kind mappers of backends/slurmjson, called by
 * slurmjson.c once the body is parsed and its envelope checked. Each
 * takes the root object and appends rows to s; -1 with err on a record
 * that cannot be read (a job without an id, a node without a name).
 */
#ifndef SQ_SJ_INTERNAL_H
#define SQ_SJ_INTERNAL_H

#include <json-c/json.h>
#include <time.h>

#include "backends/slurmjson/slurmjson.h"
#include "backends/slurmjson/sj_util.h"

struct sq_sj_ctx {
	struct sq_snapshot *s;
	struct sq_sj_info *info;
	time_t now;
	int api; /* 38..44, or 0 when the body did not say */
};

int sq_sj_partitions(struct sq_sj_ctx *c, json_object *root,
		     struct sq_err *err);
int sq_sj_nodes(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_jobs(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_diag(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_assocs(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_accounts(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_users(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_qos(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_reservations(struct sq_sj_ctx *c, json_object *root,
		       struct sq_err *err);
int sq_sj_shares(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);

/* The array root[key], or NULL with err set (missing or not an array). */
json_object *sq_sj_array(json_object *root, const char *key,
			 struct sq_err *err);

#endif
