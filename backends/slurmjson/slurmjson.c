/*
 * slurmjson.c - parsing a Slurm JSON body, reading its envelope (meta,
 * errors[], warnings[], last_update) and handing the data to the mapper
 * of the kind asked for. Bodies are untrusted: size-capped, parsed with a
 * depth limit, and rejected when truncated or followed by garbage.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/model/model.h"

json_object *
sq_sj_parse_body(const char *body, size_t len, const struct sq_sj_gap *gap,
		 struct sq_err *err)
{
	json_tokener *tok;
	json_object *o;
	enum json_tokener_error je;
	size_t end, at, total = gap != NULL ? gap->total : len;

	if (body == NULL || len == 0) {
		sq_err_set(err, SQ_ERR_PARSE,
			   "empty answer where JSON was "
			   "expected");
		return NULL;
	}
	/* a stream's envelope is bounded by the stream, its list is not */
	if (len > SQ_SJ_MAX_BODY || len > (size_t)INT_MAX) {
		sq_err_set(err, SQ_ERR_PARSE,
			   "JSON answer too large (%zu bytes)", len);
		return NULL;
	}
	tok = json_tokener_new_ex(SQ_SJ_MAX_DEPTH);
	if (tok == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	o = json_tokener_parse_ex(tok, body, (int)len);
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	/* offsets in the body a stream took the list out of */
	at = gap != NULL && end > gap->at ? end + gap->len : end;
	if (o == NULL) {
		if (je == json_tokener_continue || je == json_tokener_success)
			sq_err_set(err, SQ_ERR_PARSE,
				   "truncated JSON answer (%zu bytes)", total);
		else
			sq_err_set(err, SQ_ERR_PARSE,
				   "malformed JSON answer at byte %zu: %s", at,
				   json_tokener_error_desc(je));
		return NULL;
	}
	while (end < len && strchr(" \t\r\n", body[end]) != NULL &&
	       body[end] != '\0')
		end++;
	if (end < len) {
		if (gap != NULL && end > gap->at)
			end += gap->len;
		json_object_put(o);
		sq_err_set(err, SQ_ERR_PARSE,
			   "malformed JSON answer: garbage after byte %zu",
			   end);
		return NULL;
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		sq_err_set(err, SQ_ERR_PARSE, "JSON answer is not an object");
		return NULL;
	}
	return o;
}

/* 38 from "openapi/v0.0.38" or "data_parser/v0.0.42". */
static int
api_of(const char *s)
{
	const char *p;

	if (s == NULL || (p = strstr(s, "v0.0.")) == NULL)
		return 0;
	return atoi(p + 5);
}

static void
read_meta(json_object *root, struct sq_sj_info *info)
{
	json_object *meta = sq_sj_get(root, "meta");
	json_object *plugin = sq_sj_get(meta, "plugin");
	json_object *sl, *ver;
	const char *rel;
	int api;

	api = api_of(sq_sj_cstr(sq_sj_get(plugin, "data_parser")));
	if (api == 0)
		api = api_of(sq_sj_cstr(sq_sj_get(plugin, "type")));
	info->api = api;
	sl = sq_sj_get(meta, "slurm");
	if (sl == NULL)
		sl = sq_sj_get(meta, "Slurm");
	rel = sq_sj_cstr(sq_sj_get(sl, "release"));
	if (rel != NULL) {
		snprintf(info->release, sizeof(info->release), "%s", rel);
	} else if ((ver = sq_sj_get(sl, "version")) != NULL) {
		int64_t a = sq_sj_numk(ver, "major", SQ_NONE);
		int64_t b = sq_sj_numk(ver, "minor", SQ_NONE);
		int64_t c = sq_sj_numk(ver, "micro", SQ_NONE);

		/* bounded, so gcc 14 sees the text fits (-Wformat-truncation)
		 */
		if (a >= 0 && a < 1000 && b >= 0 && b < 100 && c >= 0 &&
		    c < 1000)
			snprintf(info->release, sizeof(info->release),
				 "%d.%02d.%d", (int)a, (int)b, (int)c);
	}
}

/* One line from an errors[] or warnings[] entry: "description (error,
 * error N)" with whatever parts the entry has. */
static void
entry_text(json_object *e, char *buf, size_t n)
{
	const char *desc, *what, *sep = " (";
	json_object *nv;
	int64_t num = 0;
	size_t l;

	if ((desc = sq_sj_cstr(e)) != NULL && *desc != '\0') {
		snprintf(buf, n, "%s", desc);
		return;
	}
	desc = sq_sj_cstr(sq_sj_get(e, "description"));
	what = sq_sj_cstr(sq_sj_get(e, "error"));
	/* plain ints: -1 is a real value here (Slurm's "unspecified") */
	nv = sq_sj_get(e, "error_number");
	if (nv == NULL || !json_object_is_type(nv, json_type_int))
		nv = sq_sj_get(e, "errno"); /* some v0.0.38 answers */
	if (nv != NULL && json_object_is_type(nv, json_type_int))
		num = json_object_get_int64(nv);
	if (desc != NULL && *desc == '\0')
		desc = NULL;
	if (what != NULL && *what == '\0')
		what = NULL;
	snprintf(buf, n, "%s", desc ? desc : what ? what : "error");
	if (desc != NULL && what != NULL && strcmp(desc, what) != 0) {
		l = strlen(buf);
		snprintf(buf + l, n - l, "%s%s", sep, what);
		sep = ", ";
	}
	if (num != 0) {
		l = strlen(buf);
		snprintf(buf + l, n - l, "%serror %lld", sep, (long long)num);
		sep = ", ";
	}
	if (strcmp(sep, ", ") == 0) {
		l = strlen(buf);
		snprintf(buf + l, n - l, ")");
	}
}

int
sq_sj_read_envelope(json_object *root, struct sq_sj_info *info,
		    struct sq_err *err)
{
	json_object *errs = sq_sj_get(root, "errors");
	json_object *warns = sq_sj_get(root, "warnings");
	char msg[400];

	read_meta(root, info);
	info->last_update = sq_sj_numk(root, "last_update", SQ_NONE);
	if (warns != NULL && json_object_is_type(warns, json_type_array)) {
		info->nwarnings = (int)json_object_array_length(warns);
		if (info->nwarnings > 0)
			entry_text(json_object_array_get_idx(warns, 0),
				   info->warning, sizeof(info->warning));
	}
	if (errs == NULL || json_object_is_type(errs, json_type_null))
		return 0;
	if (!json_object_is_type(errs, json_type_array))
		return sq_err_set(err, SQ_ERR_PARSE,
				  "JSON answer: 'errors' is not a list");
	info->nerrors = (int)json_object_array_length(errs);
	if (info->nerrors == 0)
		return 0;
	entry_text(json_object_array_get_idx(errs, 0), msg, sizeof(msg));
	if (info->nerrors > 1)
		return sq_err_set(err, SQ_ERR_COMMAND, "%s (and %d more)", msg,
				  info->nerrors - 1);
	return sq_err_set(err, SQ_ERR_COMMAND, "%s", msg);
}

void
sq_sj_info_init(struct sq_sj_info *info)
{
	memset(info, 0, sizeof(*info));
	info->last_update = SQ_NONE;
}

int
sq_slurmjson_check(const char *body, size_t len, struct sq_sj_info *info,
		   struct sq_err *err)
{
	struct sq_sj_info local;
	json_object *root;
	int rc;

	if (info == NULL)
		info = &local;
	sq_sj_info_init(info);
	root = sq_sj_parse_body(body, len, NULL, err);
	if (root == NULL)
		return -1;
	rc = sq_sj_read_envelope(root, info, err);
	json_object_put(root);
	return rc;
}

/* The key of a kind's data in the answer. */
const char *
sq_sj_data_key(enum sq_kind kind)
{
	switch (kind) {
	case SQ_KIND_PARTITIONS:
		return "partitions";
	case SQ_KIND_NODES:
		return "nodes";
	case SQ_KIND_JOBS:
		return "jobs";
	case SQ_KIND_DIAG:
	case SQ_KIND_DBD:
		return "statistics";
	case SQ_KIND_ASSOCS:
		return "associations";
	case SQ_KIND_ACCOUNTS:
		return "accounts";
	case SQ_KIND_USERS:
		return "users";
	case SQ_KIND_QOS:
		return "qos"; /* "QOS" in v0.0.38 */
	case SQ_KIND_RESERVATIONS:
		return "reservations";
	case SQ_KIND_LICENSES:
		return "licenses";
	case SQ_KIND_SHARES:
		return "shares";
	case SQ_KIND_HISTORY:
		return "jobs"; /* of /slurmdb/vX/jobs */
	default:
		return NULL;
	}
}

int
sq_slurmjson_supports(enum sq_kind kind)
{
	return sq_sj_data_key(kind) != NULL;
}

int
sq_sj_has_elem_mapper(enum sq_kind kind)
{
	return kind == SQ_KIND_JOBS || kind == SQ_KIND_NODES ||
	       kind == SQ_KIND_HISTORY;
}

const char *const *
sq_sj_elem_keys(enum sq_kind kind)
{
	return kind == SQ_KIND_JOBS ? sq_sj_job_keys : NULL;
}

int
sq_sj_map_elem(enum sq_kind kind, struct sq_sj_ctx *c, json_object *o,
	       size_t idx, struct sq_err *err)
{
	if (kind == SQ_KIND_JOBS)
		return sq_sj_job(c, o, idx, err);
	if (kind == SQ_KIND_HISTORY)
		return sq_sj_history_job(c, o, idx, err);
	return sq_sj_node(c, o, idx, err);
}

int
sq_sj_unchanged(const struct sq_sj_info *info)
{
	return info->nwarnings > 0 && info->last_update == 0;
}

int
sq_sj_map_root(enum sq_kind kind, struct sq_sj_ctx *c, json_object *root,
	       struct sq_err *err)
{
	const char *key = sq_sj_data_key(kind);
	json_object *list = sq_sj_get(root, key);

	if ((list == NULL &&
	     !(kind == SQ_KIND_QOS && sq_sj_get(root, "QOS") != NULL) &&
	     c->info->nwarnings > 0) ||
	    (list != NULL && json_object_is_type(list, json_type_array) &&
	     json_object_array_length(list) == 0 && sq_sj_unchanged(c->info))) {
		/* update_time answer: "No job changes since update_time" */
		c->info->unchanged = 1;
		return 0;
	}
	switch (kind) {
	case SQ_KIND_PARTITIONS:
		return sq_sj_partitions(c, root, err);
	case SQ_KIND_NODES:
		return sq_sj_nodes(c, root, err);
	case SQ_KIND_JOBS:
		return sq_sj_jobs(c, root, err);
	case SQ_KIND_DIAG:
		return sq_sj_diag(c, root, err);
	case SQ_KIND_DBD:
		return sq_sj_dbd(c, root, err);
	case SQ_KIND_ASSOCS:
		return sq_sj_assocs(c, root, err);
	case SQ_KIND_ACCOUNTS:
		return sq_sj_accounts(c, root, err);
	case SQ_KIND_USERS:
		return sq_sj_users(c, root, err);
	case SQ_KIND_QOS:
		return sq_sj_qos(c, root, err);
	case SQ_KIND_RESERVATIONS:
		return sq_sj_reservations(c, root, err);
	case SQ_KIND_LICENSES:
		return sq_sj_licenses(c, root, err);
	case SQ_KIND_SHARES:
		return sq_sj_shares(c, root, err);
	case SQ_KIND_HISTORY:
		return sq_sj_history(c, root, err);
	default:
		return -1;
	}
}

int
sq_slurmjson_parse(enum sq_kind kind, const char *body, size_t len, time_t now,
		   struct sq_snapshot *s, struct sq_sj_info *info,
		   struct sq_err *err)
{
	struct sq_sj_info local;
	struct sq_sj_ctx c;
	json_object *root;
	const char *key = sq_sj_data_key(kind);
	int rc = -1;

	if (info == NULL)
		info = &local;
	sq_sj_info_init(info);
	if (key == NULL || s == NULL || s->kind != kind)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "no JSON mapping for the %s view",
				  sq_kind_name(kind));
	/* the long lists: one element at a time (sj_stream.c) */
	if (sq_sj_has_elem_mapper(kind))
		return sq_sj_stream_whole(kind, body, len, now, s, info, err);
	root = sq_sj_parse_body(body, len, NULL, err);
	if (root == NULL)
		return -1;
	if (sq_sj_read_envelope(root, info, err) == -1)
		goto out;
	c.s = s;
	c.info = info;
	c.now = now;
	c.api = info->api;
	rc = sq_sj_map_root(kind, &c, root, err);
out:
	json_object_put(root);
	return rc;
}
