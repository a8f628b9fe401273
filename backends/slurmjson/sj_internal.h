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

#include "backends/slurmjson/sj_util.h"
#include "core/base/err.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"

struct sq_sj_info; /* slurmjson.h */

struct sq_sj_ctx {
	struct sq_snapshot *s;
	struct sq_sj_info *info;
	time_t now;
	int api; /* 38..44, or 0 when the body did not say (or not yet:
		  * a stream maps elements before it reads meta) */
};

/* Is an empty list the answer to an update_time with nothing changed?
 * 22.05 leaves the list out; 24.11+ send it empty with "last_update": 0
 * and a warning ("No job changes since update_time[...]"), where a queue
 * that became empty has a last_update of its own. */
int sq_sj_unchanged(const struct sq_sj_info *info);

int sq_sj_partitions(struct sq_sj_ctx *c, json_object *root,
		     struct sq_err *err);
int sq_sj_nodes(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_jobs(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_diag(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
/* GET /slurmdb/vX/diag: slurmdbd's statistics (sj_dbd.c) */
int sq_sj_dbd(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
/* GET /ping's "pings" array as "controller" rows (sj_ping.c); sq_sj_diag
 * maps a root with pings and no statistics through it */
int sq_sj_pings(struct sq_sj_ctx *c, json_object *pings, struct sq_err *err);
int sq_sj_assocs(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_accounts(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_users(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_qos(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_reservations(struct sq_sj_ctx *c, json_object *root,
		       struct sq_err *err);
int sq_sj_licenses(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_shares(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
/* Job runs and steps of /slurmdb/vX/jobs (sj_history.c): the whole
 * list, or one job at a time (the stream) and then finish (efficiency,
 * run numbers, summaries; sq_history_finish). */
int sq_sj_history(struct sq_sj_ctx *c, json_object *root, struct sq_err *err);
int sq_sj_history_job(struct sq_sj_ctx *c, json_object *o, size_t idx,
		      struct sq_err *err);
int sq_sj_history_finish(struct sq_sj_ctx *c, struct sq_err *err);

/* One element of the "jobs" or "nodes" list (idx from 0, for messages);
 * the stream (sj_stream.c) maps each as it arrives. A non-object job is
 * an error. */
int sq_sj_job(struct sq_sj_ctx *c, json_object *o, size_t idx,
	      struct sq_err *err);
int sq_sj_node(struct sq_sj_ctx *c, json_object *o, size_t idx,
	       struct sq_err *err);
/* The members of an element sq_sj_map_elem reads (NULL-terminated), or
 * NULL for all: the stream leaves the others out before json-c parses
 * the element. A member a mapper reads must be in its list. */
const char *const *sq_sj_elem_keys(enum sq_kind kind);
extern const char *const sq_sj_job_keys[];
/* Does kind have a per-element mapper (jobs, nodes)? Map one element. */
int sq_sj_has_elem_mapper(enum sq_kind kind);
int sq_sj_map_elem(enum sq_kind kind, struct sq_sj_ctx *c, json_object *o,
		   size_t idx, struct sq_err *err);
/* A parsed root whose envelope was read: an update_time answer without
 * data sets info->unchanged, else the mapper of kind runs. */
int sq_sj_map_root(enum sq_kind kind, struct sq_sj_ctx *c, json_object *root,
		   struct sq_err *err);

/* The depth limit of a whole body. */
#define SQ_SJ_MAX_DEPTH 64

/* Where a stream took the data list's elements out of the body: the
 * envelope's bytes after offset at were len bytes later in the body of
 * total bytes (for the byte offsets and sizes in messages). */
struct sq_sj_gap {
	size_t at, len, total;
};

/* Parse a whole body (or a stream's envelope, gap not NULL): size cap,
 * depth limit, truncated, malformed, garbage after it, not an object. */
json_object *sq_sj_parse_body(const char *body, size_t len,
			      const struct sq_sj_gap *gap, struct sq_err *err);
/* meta, last_update, warnings[] into info; errors[] give -1 with
 * SQ_ERR_COMMAND and the first entry's text. */
int sq_sj_read_envelope(json_object *root, struct sq_sj_info *info,
			struct sq_err *err);
void sq_sj_info_init(struct sq_sj_info *info);
/* The key of a kind's data in the answer, or NULL. */
const char *sq_sj_data_key(enum sq_kind kind);
/* sq_slurmjson_parse of a kind with a per-element mapper, through the
 * stream in one piece. */
int sq_sj_stream_whole(enum sq_kind kind, const char *body, size_t len,
		       time_t now, struct sq_snapshot *s,
		       struct sq_sj_info *info, struct sq_err *err);

/* A row of an RPC list (sdiag's by type and user, slurmdbd's): its name,
 * count and value as sdiag prints it ("count= ave_time= total_time="). */
struct sq_sj_rpc_row {
	const char *name;
	int64_t count;
	char value[256];
	char id[24]; /* "", or the name when Slurm has none: the uid, as
		      * sdiag prints it (rows are sorted: not a pointer) */
};
/* Makes r of the element e of an RPC list, name its name_key (NULL when
 * it has none): 1, or 0 (r untouched) when e makes no row. Called once
 * more with e and name NULL when a row is left, for one that sums up
 * elements it skipped (0: none). arg is the caller's. */
typedef int sq_sj_rpc_fill_fn(json_object *e, const char *name,
			      struct sq_sj_rpc_row *r, void *arg);
/* The rows fill makes of the elements of arr (not a list, or empty:
 * none), added to s under section (a literal) busiest first, then by
 * name; sj_diag.c. */
int sq_sj_rpc_list(struct sq_snapshot *s, const char *section, json_object *arr,
		   const char *name_key, sq_sj_rpc_fill_fn *fill, void *arg,
		   struct sq_err *err);

#endif
