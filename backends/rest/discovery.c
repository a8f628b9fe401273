/*
 * discovery.c - which slurmrestd API to speak, from GET /openapi/v3: the
 * highest /slurm/v0.0.N/ and /slurmdb/v0.0.N/ that squall's JSON mapping
 * supports, and which endpoints (and methods) exist at those versions.
 * Availability varies by release even within one version, so nothing is
 * assumed from the version number alone.
 */
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/rest/rest.h"

struct ep_rule {
	int db;             /* 0: /slurm/, 1: /slurmdb/ */
	const char *path;   /* after the version, without trailing '/' */
	const char *method; /* lowercase, as OpenAPI writes it */
	unsigned flag;
};

static const struct ep_rule rules[] = {
	{ 0, "jobs", "get", SQ_REP_JOBS },
	{ 0, "jobs", "delete", SQ_REP_JOBS_DELETE },
	{ 0, "job/{", "get", SQ_REP_JOB_GET },
	{ 0, "job/{", "post", SQ_REP_JOB_UPDATE },
	{ 0, "job/{", "delete", SQ_REP_JOB_DELETE },
	{ 0, "nodes", "get", SQ_REP_NODES },
	{ 0, "node/{", "post", SQ_REP_NODE_UPDATE },
	{ 0, "partitions", "get", SQ_REP_PARTITIONS },
	{ 0, "reservations", "get", SQ_REP_RESERVATIONS },
	{ 0, "diag", "get", SQ_REP_DIAG },
	{ 0, "shares", "get", SQ_REP_SHARES },
	{ 0, "ping", "get", SQ_REP_PING },
	{ 0, "licenses", "get", SQ_REP_LICENSES },
	{ 1, "accounts", "get", SQ_REP_ACCOUNTS },
	{ 1, "users", "get", SQ_REP_USERS },
	{ 1, "associations", "get", SQ_REP_ASSOCS },
	{ 1, "associations", "post", SQ_REP_ACCT_UPDATE },
	{ 1, "qos", "get", SQ_REP_QOS },
	{ 1, "diag", "get", SQ_REP_DB_DIAG },
};

/* "/slurm/v0.0.38/jobs/" -> db 0, version 38, rest "jobs". -1 when the
 * path is not a versioned Slurm path. */
static int
split_path(const char *key, int *db, const char **rest)
{
	const char *p;
	char *end;
	long v;

	if (strncmp(key, "/slurmdb/v0.0.", 14) == 0) {
		*db = 1;
		p = key + 14;
	} else if (strncmp(key, "/slurm/v0.0.", 12) == 0) {
		*db = 0;
		p = key + 12;
	} else {
		return -1;
	}
	v = strtol(p, &end, 10);
	if (end == p || *end != '/' || v < 0 || v > 999)
		return -1;
	*rest = end + 1;
	return (int)v;
}

/* Does the rest of a path match a rule's path (exactly, or as a prefix
 * for templated "job/{" rules), ignoring one trailing '/'? */
static int
rest_matches(const char *rest, const char *rule)
{
	size_t rl = strlen(rule), l = strlen(rest);

	if (rule[rl - 1] == '{')
		return strncmp(rest, rule, rl) == 0;
	if (l > 0 && rest[l - 1] == '/')
		l--;
	return l == rl && strncmp(rest, rule, rl) == 0;
}

/* Does an operation (a path's "get") take the query parameter name with
 * value among its schema's enum? (GET /slurm/V/jobs: flags=ALL from
 * v0.0.40, where slurmrestd otherwise asks slurmctld for SHOW_DETAIL too:
 * every running job's job_resources and gres_detail, which the jobs view
 * never reads.) */
static int
takes_query(json_object *op, const char *name, const char *value)
{
	json_object *ps, *p, *v, *s, *e;
	size_t i, j;

	if (!json_object_object_get_ex(op, "parameters", &ps) ||
	    !json_object_is_type(ps, json_type_array))
		return 0;
	for (i = 0; i < json_object_array_length(ps); i++) {
		p = json_object_array_get_idx(ps, i);
		if (!json_object_object_get_ex(p, "name", &v) ||
		    strcmp(json_object_get_string(v), name) != 0 ||
		    !json_object_object_get_ex(p, "in", &v) ||
		    strcmp(json_object_get_string(v), "query") != 0 ||
		    !json_object_object_get_ex(p, "schema", &s) ||
		    !json_object_object_get_ex(s, "enum", &e) ||
		    !json_object_is_type(e, json_type_array))
			continue;
		for (j = 0; j < json_object_array_length(e); j++) {
			v = json_object_array_get_idx(e, j);
			if (json_object_is_type(v, json_type_string) &&
			    strcmp(json_object_get_string(v), value) == 0)
				return 1;
		}
	}
	return 0;
}

static void
read_release(json_object *root, struct sq_rest_api *api)
{
	json_object *info, *ver;
	const char *v, *amp;

	if (!json_object_object_get_ex(root, "info", &info) ||
	    !json_object_object_get_ex(info, "version", &ver) ||
	    !json_object_is_type(ver, json_type_string))
		return;
	v = json_object_get_string(ver);
	/* 23.11+: "Slurm-24.11.7&openapi/slurmctld&openapi/slurmdbd" */
	if (strncmp(v, "Slurm-", 6) != 0)
		return;
	v += 6;
	amp = strchr(v, '&');
	snprintf(api->release, sizeof(api->release), "%.*s",
		 (int)(amp ? (size_t)(amp - v) : strlen(v)), v);
}

int
sq_rest_discover(const char *body, size_t len, struct sq_rest_api *api,
		 struct sq_err *err)
{
	json_tokener *tok;
	json_object *root = NULL, *paths;
	char seen[64];
	unsigned have[2] = { 0, 0 }; /* bit v-38 for supported versions */
	int rc = -1, db, v;
	size_t r;

	memset(api, 0, sizeof(*api));
	if (body == NULL || len == 0 || len > (size_t)INT_MAX)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "empty answer to GET /openapi/v3");
	tok = json_tokener_new_ex(64);
	if (tok == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	root = json_tokener_parse_ex(tok, body, (int)len);
	json_tokener_free(tok);
	if (root == NULL || !json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "paths", &paths) ||
	    !json_object_is_type(paths, json_type_object)) {
		sq_err_set(err, SQ_ERR_PARSE,
			   "GET /openapi/v3 did not return an OpenAPI "
			   "document (is this slurmrestd?)");
		goto out;
	}
	read_release(root, api);
	{
		json_object_object_foreach(paths, key, val)
		{
			const char *rest;

			(void)val;
			v = split_path(key, &db, &rest);
			if (v < 0)
				continue;
			if (v > api->newest_seen)
				api->newest_seen = v;
			if (v >= SQ_REST_API_MIN && v <= SQ_REST_API_MAX)
				have[db] |= 1u << (v - SQ_REST_API_MIN);
		}
	}
	for (v = SQ_REST_API_MAX; v >= SQ_REST_API_MIN; v--) {
		if (api->slurm == 0 &&
		    (have[0] & (1u << (v - SQ_REST_API_MIN))))
			api->slurm = v;
		if (api->slurmdb == 0 &&
		    (have[1] & (1u << (v - SQ_REST_API_MIN))))
			api->slurmdb = v;
	}
	if (api->slurm == 0) {
		if (api->newest_seen)
			snprintf(seen, sizeof(seen), "versions up to v0.0.%d",
				 api->newest_seen);
		else
			snprintf(seen, sizeof(seen), "no versioned path");
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "slurmrestd offers no /slurm/ API version squall "
			   "understands (it lists %s; squall speaks v0.0.%d to "
			   "v0.0.%d)",
			   seen, SQ_REST_API_MIN, SQ_REST_API_MAX);
		goto out;
	}
	{
		json_object_object_foreach(paths, key, val)
		{
			const char *rest;

			v = split_path(key, &db, &rest);
			if (v < 0 || v != (db ? api->slurmdb : api->slurm) ||
			    !json_object_is_type(val, json_type_object))
				continue;
			for (r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
				json_object *m;

				if (rules[r].db != db ||
				    !rest_matches(rest, rules[r].path))
					continue;
				if (!json_object_object_get_ex(
					val, rules[r].method, &m))
					continue;
				api->eps |= rules[r].flag;
				if (rules[r].flag == SQ_REP_JOBS &&
				    takes_query(m, "flags", "ALL"))
					api->eps |= SQ_REP_JOBS_ALL;
			}
		}
	}
	rc = 0;
out:
	json_object_put(root);
	return rc;
}

int
sq_rest_jobs_path(char *buf, size_t n, const struct sq_rest_api *api,
		  int64_t since)
{
	int all = (api->eps & SQ_REP_JOBS_ALL) != 0, w;

	if (since > 0)
		w = snprintf(buf, n, "/slurm/v0.0.%d/jobs?update_time=%lld%s",
			     api->slurm, (long long)since,
			     all ? "&flags=ALL" : "");
	else
		w = snprintf(buf, n, "/slurm/v0.0.%d/jobs%s", api->slurm,
			     all ? "?flags=ALL" : "");
	return w < 0 || (size_t)w >= n ? -1 : 0;
}
