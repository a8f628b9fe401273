/*
 * actions.c - actions through slurmrestd. v0.0.38 (Slurm 22.05) can
 * cancel and signal (DELETE /slurm/V/job/ID), hold, release and update
 * jobs (POST /slurm/V/job/ID), add and delete accounts and user
 * associations and set a QOS priority (slurmdb). It cannot requeue,
 * suspend or update nodes, and association limit updates are refused: on
 * 22.05 slurmrestd crashes on a POST to an association that has a TRES
 * limit. Every effect is checked with a GET afterwards. Never prints.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "backends/rest/submit.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/parse.h"
#include "core/util.h"

#define BODY_LIMIT ((size_t)64 * 1024 * 1024)

void
sq_rest_reqs_free(struct sq_rest_reqs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].body);
	free(r->v);
	r->v = NULL;
	r->n = 0;
	r->cap = 0;
}

/* A new request at the end of r; r grows by doubling (an action has up
 * to SQ_ACTION_MAX_TARGETS targets, two requests each). */
static struct sq_rest_req *
new_req(struct sq_rest_reqs *r, const char *method, size_t target)
{
	struct sq_rest_req *v;

	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 8;

		v = realloc(r->v, cap * sizeof(*v));
		if (v == NULL)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	v = r->v;
	memset(&v[r->n], 0, sizeof(v[r->n]));
	sq_util_copy(v[r->n].method, sizeof(v[r->n].method), method);
	v[r->n].target = target;
	return &v[r->n++];
}

/* Take a json-c object as the request body (and free it). */
static int
set_body(struct sq_rest_req *q, json_object *o)
{
	const char *s = json_object_to_json_string_ext(
	    o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	q->body = s ? strdup(s) : NULL;
	json_object_put(o);
	return q->body ? 0 : -1;
}

static json_object *
wrap(const char *key, json_object *item)
{
	json_object *o = json_object_new_object(),
		    *arr = json_object_new_array();

	json_object_array_add(arr, item);
	json_object_object_add(o, key, arr);
	return o;
}

static int
minutes(const char *v, int64_t *out)
{
	int64_t s;

	if (sq_parse_duration(v, &s) == -1 || s < 0)
		return -1;
	*out = (s + 59) / 60;
	return 0;
}

/* POST /slurm/V/job/ID body of an update: time_limit, nice, ... */
/*
 * addaccount from v0.0.40 (23.11) on: POST /accounts_association makes the
 * account and its association under the parent in one request. (Those
 * versions ignore parent_account in POST /associations and want a user.)
 */
static json_object *
account_assoc_body(const struct sq_action *a, const char *name,
		   const char *cluster)
{
	json_object *o = json_object_new_object();
	json_object *cond = json_object_new_object();
	json_object *set = json_object_new_object();
	json_object *acct = json_object_new_object();
	json_object *accts = json_object_new_array();
	json_object *clus = json_object_new_array();
	const char *d = sq_action_arg(a, "description");
	const char *org = sq_action_arg(a, "organization");
	const char *par = sq_action_arg(a, "parent");
	const char *fs = sq_action_arg(a, "fairshare");

	json_object_array_add(accts, json_object_new_string(name));
	json_object_array_add(clus, json_object_new_string(cluster));
	json_object_object_add(set, "parent",
			       json_object_new_string(par ? par : "root"));
	if (fs != NULL && strcmp(fs, "parent") != 0)
		json_object_object_add(
		    set, "fairshare",
		    json_object_new_int64(strtoll(fs, NULL, 10)));
	json_object_object_add(cond, "accounts", accts);
	json_object_object_add(cond, "clusters", clus);
	json_object_object_add(cond, "association", set);
	json_object_object_add(acct, "description",
			       json_object_new_string(d ? d : name));
	json_object_object_add(
	    acct, "organization",
	    json_object_new_string(org ? org : (par ? par : name)));
	json_object_object_add(o, "association_condition", cond);
	json_object_object_add(o, "account", acct);
	return o;
}

static json_object *
job_update_body(const struct sq_action *a, struct sq_err *err)
{
	json_object *o = json_object_new_object();
	size_t i;

	for (i = 0; i < a->nargs; i++) {
		const char *eq = strchr(a->args[i], '=');
		size_t kl = eq ? (size_t)(eq - a->args[i]) : 0;
		const char *v = eq ? eq + 1 : "";
		int64_t n;

		if (kl == 9 && strncmp(a->args[i], "timelimit", 9) == 0) {
			if (strcmp(v, "UNLIMITED") == 0 ||
			    strcmp(v, "-1") == 0 || minutes(v, &n) == -1)
				goto bad;
			json_object_object_add(o, "time_limit",
					       json_object_new_int64(n));
		} else if ((kl == 4 && strncmp(a->args[i], "nice", 4) == 0) ||
			   (kl == 8 &&
			    strncmp(a->args[i], "priority", 8) == 0)) {
			json_object_object_add(
			    o, kl == 4 ? "nice" : "priority",
			    json_object_new_int64(strtoll(v, NULL, 10)));
		} else {
			char key[32];

			if (kl >= sizeof(key))
				goto bad;
			memcpy(key, a->args[i], kl);
			key[kl] = '\0';
			/* partition, qos, account, comment: same names */
			json_object_object_add(o, key,
					       json_object_new_string(v));
		}
	}
	return o;
bad:
	json_object_put(o);
	sq_err_set(err, SQ_ERR_UNSUPPORTED,
		   "slurmrestd takes a time limit in minutes; "
		   "UNLIMITED is for the CLI backends");
	return NULL;
}

static int
unsupported(struct sq_err *err, const char *what, int v)
{
	return sq_err_set(err, SQ_ERR_UNSUPPORTED,
			  "%s through slurmrestd (API v0.0.%d) is not "
			  "possible; use the local or ssh backend",
			  what, v);
}

int
sq_rest_action_reqs(const struct sq_action *a, int vs, int vdb,
		    const char *cluster, struct sq_rest_reqs *out,
		    struct sq_err *err)
{
	size_t i;
	struct sq_rest_req *q;

	out->v = NULL;
	out->n = 0;
	out->cap = 0;
	if (a == NULL || a->def == NULL || a->ntargets == 0)
		return sq_err_set(err, SQ_ERR_USAGE, "no action or targets");
	switch (a->type) {
	case SQ_ACTION_JOB_REQUEUE:
	case SQ_ACTION_JOB_REQUEUE_HOLD:
		return unsupported(err,
				   "requeue (no such endpoint before "
				   "v0.0.45)",
				   vs);
	case SQ_ACTION_JOB_SUSPEND:
	case SQ_ACTION_JOB_RESUME:
		return unsupported(err, "suspend and resume of jobs", vs);
	case SQ_ACTION_NODE_DRAIN:
	case SQ_ACTION_NODE_DOWN:
	case SQ_ACTION_NODE_RESUME:
	case SQ_ACTION_NODE_REBOOT:
	case SQ_ACTION_NODE_CANCEL_REBOOT:
	case SQ_ACTION_NODE_REASON:
		return unsupported(err,
				   vs <= 38
				       ? "node updates (POST /node answers "
					 "405 on v0.0.38)"
				       : "node updates (not mapped in "
					 "squall)",
				   vs);
	case SQ_ACTION_ACCT_SET_LIMIT:
	case SQ_ACTION_ACCT_CLEAR_LIMIT:
		if (vdb <= 38)
			return sq_err_set(
			    err, SQ_ERR_UNSUPPORTED,
			    "association limits through slurmrestd "
			    "v0.0.38 are refused: Slurm 22.05's slurmrestd "
			    "crashes on an association update when the "
			    "association has a TRES limit; use the local or "
			    "ssh backend (sacctmgr -i)");
		return unsupported(err, "setting association limits", vdb);
	case SQ_ACTION_ACCT_MODIFY_ACCOUNT:
		return unsupported(err,
				   "changing an account (parent and fairshare "
				   "live on its association)",
				   vdb);
	case SQ_ACTION_ACCT_ADD_COORD:
	case SQ_ACTION_ACCT_DEL_COORD:
		return unsupported(err, "changing coordinators", vdb);
	default:
		break;
	}
	if (a->def->kind != SQ_KIND_JOBS && (vdb == 0 || cluster == NULL))
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "slurmrestd offers no /slurmdb/ API here");
	for (i = 0; i < a->ntargets; i++) {
		const char *t = a->targets[i];
		char acc[129], user[129], part[129];

		if (a->def->kind == SQ_KIND_ASSOCS &&
		    sq_action_assoc_split(t, acc, user, part) == -1)
			return sq_err_set(err, SQ_ERR_USAGE, "bad association");
		switch (a->type) {
		case SQ_ACTION_JOB_CANCEL:
			q = new_req(out, "DELETE", i);
			if (q == NULL)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurm/v0.0.%d/job/%s", vs, t);
			break;
		case SQ_ACTION_JOB_SIGNAL: {
			const char *sig = sq_action_arg(a, "sig");
			int num = sig[0] >= '0' && sig[0] <= '9';

			q = new_req(out, "DELETE", i);
			if (q == NULL)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurm/v0.0.%d/job/%s?signal=%s%s", vs, t,
				 num ? "" : "SIG", sig);
			break;
		}
		case SQ_ACTION_JOB_HOLD:
		case SQ_ACTION_JOB_RELEASE: {
			json_object *o = json_object_new_object();

			json_object_object_add(
			    o, "hold",
			    json_object_new_boolean(a->type ==
						    SQ_ACTION_JOB_HOLD));
			q = new_req(out, "POST", i);
			if (q == NULL || set_body(q, o) == -1)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurm/v0.0.%d/job/%s", vs, t);
			break;
		}
		case SQ_ACTION_JOB_UPDATE: {
			json_object *o = job_update_body(a, err);

			if (o == NULL) {
				sq_rest_reqs_free(out);
				return -1;
			}
			q = new_req(out, "POST", i);
			if (q == NULL || set_body(q, o) == -1)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurm/v0.0.%d/job/%s", vs, t);
			break;
		}
		case SQ_ACTION_ACCT_ADD_ACCOUNT: {
			json_object *acct = json_object_new_object();
			json_object *as = json_object_new_object();
			const char *d = sq_action_arg(a, "description");
			const char *org = sq_action_arg(a, "organization");
			const char *par = sq_action_arg(a, "parent");
			const char *fs = sq_action_arg(a, "fairshare");

			if (vdb >= 40) {
				json_object_put(acct);
				json_object_put(as);
				q = new_req(out, "POST", i);
				if (q == NULL ||
				    set_body(q, account_assoc_body(
						    a, t, cluster)) == -1)
					goto nomem;
				snprintf(
				    q->path, sizeof(q->path),
				    "/slurmdb/v0.0.%d/accounts_association",
				    vdb);
				break;
			}
			/* the account, then its association (POST
			 * /accounts alone makes no association) */
			json_object_object_add(acct, "name",
					       json_object_new_string(t));
			json_object_object_add(
			    acct, "description",
			    json_object_new_string(d ? d : t));
			json_object_object_add(
			    acct, "organization",
			    json_object_new_string(org ? org
						       : (par ? par : t)));
			q = new_req(out, "POST", i);
			if (q == NULL ||
			    set_body(q, wrap("accounts", acct)) == -1)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurmdb/v0.0.%d/accounts", vdb);
			json_object_object_add(as, "account",
					       json_object_new_string(t));
			json_object_object_add(as, "cluster",
					       json_object_new_string(cluster));
			json_object_object_add(
			    as, "parent_account",
			    json_object_new_string(par ? par : "root"));
			if (fs != NULL && strcmp(fs, "parent") != 0)
				json_object_object_add(
				    as, "shares_raw",
				    json_object_new_int64(
					strtoll(fs, NULL, 10)));
			q = new_req(out, "POST", i);
			if (q == NULL ||
			    set_body(q, wrap("associations", as)) == -1)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurmdb/v0.0.%d/associations", vdb);
			break;
		}
		case SQ_ACTION_ACCT_DELETE_ACCOUNT:
			q = new_req(out, "DELETE", i);
			if (q == NULL)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurmdb/v0.0.%d/account/%s", vdb, t);
			break;
		case SQ_ACTION_ACCT_ADD_USER: {
			json_object *as = json_object_new_object();

			if (sq_action_arg(a, "defaultaccount") != NULL) {
				json_object_put(as);
				sq_rest_reqs_free(out);
				return unsupported(
				    err, "setting a default account", vdb);
			}
			json_object_object_add(as, "account",
					       json_object_new_string(acc));
			json_object_object_add(as, "cluster",
					       json_object_new_string(cluster));
			json_object_object_add(as, "user",
					       json_object_new_string(user));
			if (part[0] != '\0')
				json_object_object_add(
				    as, "partition",
				    json_object_new_string(part));
			q = new_req(out, "POST", i);
			if (q == NULL ||
			    set_body(q, wrap("associations", as)) == -1)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurmdb/v0.0.%d/associations", vdb);
			break;
		}
		case SQ_ACTION_ACCT_REMOVE_USER:
			q = new_req(out, "DELETE", i);
			if (q == NULL)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurmdb/v0.0.%d/association?account=%s&"
				 "user=%s&cluster=%s%s%s",
				 vdb, acc, user, cluster,
				 part[0] ? "&partition=" : "", part);
			break;
		case SQ_ACTION_QOS_SET: {
			json_object *qo = json_object_new_object();
			const char *p = sq_action_arg(a, "priority");

			if (p == NULL || a->nargs != 1) {
				json_object_put(qo);
				sq_rest_reqs_free(out);
				return unsupported(err,
						   "QOS limits (only priority= "
						   "is mapped)",
						   vdb);
			}
			json_object_object_add(qo, "name",
					       json_object_new_string(t));
			json_object_object_add(
			    qo, "priority",
			    json_object_new_int64(strtoll(p, NULL, 10)));
			q = new_req(out, "POST", i);
			/* v0.0.38 {"QOS": [...]}, v0.0.40+ {"qos": [...]} */
			if (q == NULL ||
			    set_body(q, wrap(vdb >= 40 ? "qos" : "QOS", qo)) ==
				-1)
				goto nomem;
			snprintf(q->path, sizeof(q->path),
				 "/slurmdb/v0.0.%d/qos", vdb);
			break;
		}
		default:
			sq_rest_reqs_free(out);
			return unsupported(err, a->def->name, vs);
		}
	}
	return 0;
nomem:
	sq_rest_reqs_free(out);
	return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
}

int
sq_rest_reqs_format(const struct sq_rest_reqs *r, char *buf, size_t n)
{
	size_t i, off = 0;

	if (n == 0)
		return -1;
	buf[0] = '\0';
	for (i = 0; i < r->n; i++) {
		int w = snprintf(buf + off, n - off, "%s%s %s%s%s",
				 i ? "\n" : "", r->v[i].method, r->v[i].path,
				 r->v[i].body ? " " : "",
				 r->v[i].body ? r->v[i].body : "");

		if (w < 0 || (size_t)w >= n - off)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

/* --- reading back ---------------------------------------------------- */

/* A number that is a plain int (v0.0.38) or {"set":..,"number":..}. */
static int
num_of(json_object *o, const char *key, int64_t *v)
{
	json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || x == NULL)
		return -1;
	if (json_object_is_type(x, json_type_object)) {
		json_object *n;

		if (!json_object_object_get_ex(x, "number", &n))
			return -1;
		x = n;
	}
	if (!json_object_is_type(x, json_type_int))
		return -1;
	*v = json_object_get_int64(x);
	return 0;
}

/* A string (v0.0.38) or the first of an array (job_state on v0.0.39+). */
static const char *
str_of(json_object *o, const char *key)
{
	json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || x == NULL)
		return "";
	if (json_object_is_type(x, json_type_array))
		x = json_object_array_length(x) > 0
			? json_object_array_get_idx(x, 0)
			: NULL;
	return x ? json_object_get_string(x) : "";
}

struct rest_state {
	int found;
	json_object *root; /* owns */
	json_object *rec;  /* inside root */
};

static void
state_free(struct rest_state *s)
{
	if (s->root != NULL)
		json_object_put(s->root);
	memset(s, 0, sizeof(*s));
}

static json_object *
first_of(json_object *root, const char *key)
{
	json_object *arr;

	if (root == NULL || !json_object_object_get_ex(root, key, &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    json_object_array_length(arr) == 0)
		return NULL;
	return json_object_array_get_idx(arr, 0);
}

static const char *
cluster_name(struct sq_backend *b, char *buf, size_t n, struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	struct sq_buf out;
	char path[64];
	long status;
	json_object *root, *c;
	const char *rc = NULL;

	snprintf(path, sizeof(path), "/slurmdb/v0.0.%d/clusters", api->slurmdb);
	sq_buf_init(&out, BODY_LIMIT);
	if (sq_rest_call(b, "GET", path, NULL, &out, &status, err) == 0 &&
	    (root = json_tokener_parse(sq_buf_str(&out))) != NULL) {
		if ((c = first_of(root, "clusters")) != NULL) {
			sq_util_copy(buf, n, str_of(c, "name"));
			rc = buf[0] ? buf : NULL;
		}
		json_object_put(root);
	}
	sq_buf_free(&out);
	if (rc == NULL && err->msg[0] == '\0')
		sq_err_set(err, SQ_ERR_PARSE, "no cluster name from %s", path);
	return rc;
}

/* GET the target's record; found = 0 when Slurm says it does not exist. */
static int
read_target(struct sq_backend *b, const struct sq_action *a, size_t i,
	    const char *cluster, struct rest_state *st, struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	const char *t = a->targets[i];
	char path[768], acc[129], user[129], part[129];
	const char *key = NULL;
	struct sq_buf out;
	long status = 0;
	int rc = -1;

	memset(st, 0, sizeof(*st));
	switch (a->def->kind) {
	case SQ_KIND_JOBS:
		snprintf(path, sizeof(path), "/slurm/v0.0.%d/job/%s",
			 api->slurm, t);
		key = "jobs";
		break;
	case SQ_KIND_ACCOUNTS:
		snprintf(path, sizeof(path), "/slurmdb/v0.0.%d/account/%s",
			 api->slurmdb, t);
		key = "accounts";
		break;
	case SQ_KIND_QOS:
		snprintf(path, sizeof(path), "/slurmdb/v0.0.%d/qos/%s",
			 api->slurmdb, t);
		key = api->slurmdb >= 40 ? "qos" : "QOS";
		break;
	case SQ_KIND_ASSOCS:
		sq_action_assoc_split(t, acc, user, part);
		snprintf(path, sizeof(path),
			 "/slurmdb/v0.0.%d/association?account=%s&user=%s&"
			 "cluster=%s%s%s",
			 api->slurmdb, acc, user, cluster ? cluster : "",
			 part[0] ? "&partition=" : "", part);
		key = "associations";
		break;
	default:
		return sq_err_set(err, SQ_ERR_UNSUPPORTED, "cannot read");
	}
	sq_buf_init(&out, BODY_LIMIT);
	if (sq_rest_call(b, "GET", path, NULL, &out, &status, err) == -1) {
		/* "Invalid job id specified", "Nothing found": gone */
		if (status >= 400 &&
		    (strstr(err->msg, "Invalid job id") ||
		     strstr(err->msg, "Nothing found") || status == 404))
			rc = 0;
		goto done;
	}
	st->root = json_tokener_parse(sq_buf_str(&out));
	if (st->root == NULL) {
		sq_err_set(err, SQ_ERR_PARSE, "GET %s: not JSON", path);
		goto done;
	}
	st->rec = first_of(st->root, key);
	if (st->rec != NULL && a->def->kind == SQ_KIND_ASSOCS) {
		/* the exact association: user "" and partition match */
		json_object *arr = NULL;
		size_t k;

		json_object_object_get_ex(st->root, key, &arr);
		st->rec = NULL;
		for (k = 0; k < json_object_array_length(arr); k++) {
			json_object *x = json_object_array_get_idx(arr, k);

			if (strcmp(str_of(x, "account"), acc) == 0 &&
			    strcmp(str_of(x, "user"), user) == 0 &&
			    strcmp(str_of(x, "partition"), part) == 0)
				st->rec = x;
		}
	}
	st->found = st->rec != NULL;
	rc = 0;
done:
	sq_buf_free(&out);
	return rc;
}

static int
verify(const struct sq_action *a, const struct rest_state *st, char *msg,
       size_t n)
{
	const char *state = st->found ? str_of(st->rec, "job_state") : "";
	int64_t prio = -1, v;
	size_t i;

	switch (a->type) {
	case SQ_ACTION_JOB_CANCEL:
		if (!st->found || strcmp(state, "CANCELLED") == 0 ||
		    strcmp(state, "COMPLETING") == 0 ||
		    strcmp(state, "COMPLETED") == 0) {
			snprintf(msg, n, "cancelled (%s)",
				 st->found ? state : "gone");
			return SQ_VERIFY_OK;
		}
		snprintf(msg, n, "still %s", state);
		return SQ_VERIFY_FAILED;
	case SQ_ACTION_JOB_SIGNAL:
		snprintf(msg, n, "signal sent (%s)", state);
		return st->found ? SQ_VERIFY_UNCHECKED : SQ_VERIFY_FAILED;
	case SQ_ACTION_JOB_HOLD:
	case SQ_ACTION_JOB_RELEASE:
		if (!st->found)
			break;
		num_of(st->rec, "priority", &prio);
		if ((a->type == SQ_ACTION_JOB_HOLD) == (prio == 0)) {
			snprintf(msg, n, "%s (priority %lld)",
				 prio == 0 ? "held" : "released",
				 (long long)prio);
			return SQ_VERIFY_OK;
		}
		snprintf(msg, n, "not %s: priority %lld",
			 a->type == SQ_ACTION_JOB_HOLD ? "held" : "released",
			 (long long)prio);
		return SQ_VERIFY_FAILED;
	case SQ_ACTION_JOB_UPDATE:
		if (!st->found)
			break;
		for (i = 0; i < a->nargs; i++) {
			const char *eq = strchr(a->args[i], '=');
			size_t kl = (size_t)(eq - a->args[i]);
			char key[32];
			int ok;

			if (kl >= sizeof(key))
				continue;
			memcpy(key, a->args[i], kl);
			key[kl] = '\0';
			if (strcmp(key, "timelimit") == 0) {
				int64_t m = -1;

				ok = minutes(eq + 1, &m) == 0 &&
				     num_of(st->rec, "time_limit", &v) == 0 &&
				     v == m;
			} else if (strcmp(key, "nice") == 0 ||
				   strcmp(key, "priority") == 0) {
				ok = num_of(st->rec, key, &v) == 0 &&
				     v == strtoll(eq + 1, NULL, 10);
			} else {
				ok = strcmp(str_of(st->rec, key), eq + 1) == 0;
			}
			if (!ok) {
				snprintf(msg, n, "not changed: %s", key);
				return SQ_VERIFY_FAILED;
			}
		}
		snprintf(msg, n, "updated");
		return SQ_VERIFY_OK;
	case SQ_ACTION_ACCT_ADD_ACCOUNT:
	case SQ_ACTION_ACCT_ADD_USER:
		snprintf(msg, n, st->found ? "added" : "not found");
		return st->found ? SQ_VERIFY_OK : SQ_VERIFY_FAILED;
	case SQ_ACTION_ACCT_DELETE_ACCOUNT:
	case SQ_ACTION_ACCT_REMOVE_USER:
		snprintf(msg, n, st->found ? "still there" : "removed");
		return st->found ? SQ_VERIFY_FAILED : SQ_VERIFY_OK;
	case SQ_ACTION_QOS_SET:
		if (!st->found)
			break;
		if (num_of(st->rec, "priority", &v) == 0 &&
		    v == strtoll(sq_action_arg(a, "priority"), NULL, 10)) {
			snprintf(msg, n, "priority %lld", (long long)v);
			return SQ_VERIFY_OK;
		}
		snprintf(msg, n, "priority not changed");
		return SQ_VERIFY_FAILED;
	default:
		snprintf(msg, n, "not checked");
		return SQ_VERIFY_UNCHECKED;
	}
	snprintf(msg, n, "not found");
	return SQ_VERIFY_FAILED;
}

/* The inverse from the states before (only targets that succeeded). */
static void
inverse(const struct sq_action *a, const struct sq_result *res,
	const struct rest_state *before, char *buf, size_t n)
{
	struct sq_action inv;
	size_t i, off = 0;
	enum sq_action_type t = a->def->inverse;

	buf[0] = '\0';
	if (t == SQ_ACTION_NONE)
		return;
	if (!(a->def->flags & SQ_ACT_INV_PREV) &&
	    a->type != SQ_ACTION_ACCT_DELETE_ACCOUNT) {
		sq_action_init(&inv, t);
		for (i = 0; i < res->ntargets; i++) {
			if (res->targets[i].ok)
				sq_action_add_target(&inv, a->targets[i], NULL);
		}
		if (inv.ntargets > 0)
			sq_action_format(&inv, buf, n);
		sq_action_free(&inv);
		return;
	}
	for (i = 0; i < res->ntargets; i++) {
		char line[1024];
		size_t k;

		if (!res->targets[i].ok || !before[i].found)
			continue;
		sq_action_init(&inv, t);
		sq_action_add_target(&inv, a->targets[i], NULL);
		for (k = 0; k < a->nargs; k++) {
			const char *eq = strchr(a->args[k], '=');
			size_t kl = (size_t)(eq - a->args[k]);
			char key[32], val[64];
			int64_t v;

			if (kl >= sizeof(key))
				continue;
			memcpy(key, a->args[k], kl);
			key[kl] = '\0';
			if (strcmp(key, "timelimit") == 0 &&
			    num_of(before[i].rec, "time_limit", &v) == 0) {
				snprintf(val, sizeof(val), "%lld",
					 (long long)v);
				sq_action_set_arg(&inv, key, val, NULL);
			} else if (strcmp(key, "nice") == 0 ||
				   (strcmp(key, "priority") == 0 &&
				    num_of(before[i].rec, key, &v) == 0)) {
				if (strcmp(key, "nice") == 0 &&
				    num_of(before[i].rec, key, &v) == -1)
					v = 0; /* v0.0.38 says null for 0 */
				snprintf(val, sizeof(val), "%lld",
					 (long long)v);
				sq_action_set_arg(&inv, key, val, NULL);
			} else if (strcmp(key, "timelimit") != 0 &&
				   strcmp(key, "nice") != 0 &&
				   strcmp(key, "priority") != 0) {
				sq_action_set_arg(&inv, key,
						  str_of(before[i].rec, key),
						  NULL);
			}
		}
		if (a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT) {
			const char *d = str_of(before[i].rec, "description");
			const char *o = str_of(before[i].rec, "organization");

			if (*d)
				sq_action_set_arg(&inv, "description", d, NULL);
			if (*o)
				sq_action_set_arg(&inv, "organization", o,
						  NULL);
		}
		if ((inv.nargs > 0 ||
		     a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT) &&
		    sq_action_format(&inv, line, sizeof(line)) == 0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
		sq_action_free(&inv);
	}
}

int
sq_rest_describe(struct sq_backend *b, const struct sq_action *a, char *buf,
		 size_t len)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	struct sq_rest_reqs r;
	struct sq_err err;
	char cl[128];
	const char *cluster = NULL;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return sq_rest_submit_describe(b, a, buf, len);
	sq_err_clear(&err);
	if (a->def->kind != SQ_KIND_JOBS && api->slurmdb != 0)
		cluster = cluster_name(b, cl, sizeof(cl), &err);
	if (sq_rest_action_reqs(a, api->slurm, api->slurmdb,
				cluster ? cluster : "?", &r, &err) == -1) {
		sq_util_copy(buf, len, err.msg);
		return -1;
	}
	sq_rest_reqs_format(&r, buf, len);
	sq_rest_reqs_free(&r);
	return 0;
}

int
sq_rest_act(struct sq_backend *b, const struct sq_action *a,
	    struct sq_result *res, struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	struct sq_rest_reqs r = { NULL, 0, 0 };
	struct rest_state *before = NULL;
	char cl[128], first_err[512] = "";
	const char *cluster = NULL;
	double t0 = sq_util_now_ms();
	size_t i;
	int rc = -1;

	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return sq_rest_submit_act(b, a, res, err);
	sq_result_free(res);
	sq_result_init(res);
	if (sq_result_targets(res, a) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	if (a->def->kind != SQ_KIND_JOBS &&
	    (cluster = cluster_name(b, cl, sizeof(cl), err)) == NULL)
		goto out;
	if (sq_rest_action_reqs(a, api->slurm, api->slurmdb, cluster, &r,
				err) == -1)
		goto out;
	before = calloc(a->ntargets, sizeof(*before));
	if (before == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto out;
	}
	for (i = 0; i < a->ntargets; i++) {
		struct sq_err e;

		sq_err_clear(&e);
		read_target(b, a, i, cluster, &before[i], &e);
	}
	for (i = 0; i < r.n; i++) {
		struct sq_buf out;
		struct sq_err e;
		long status = 0;
		struct sq_target_result *t = &res->targets[r.v[i].target];

		sq_buf_init(&out, BODY_LIMIT);
		sq_err_clear(&e);
		if (sq_rest_call(b, r.v[i].method, r.v[i].path, r.v[i].body,
				 &out, &status, &e) == -1 ||
		    sq_slurmjson_check(out.data ? out.data : "{}",
				       out.data ? out.len : 2, NULL,
				       &e) == -1) {
			/* Slurm's words (errors[] of the answer) */
			sq_util_copy(t->message, sizeof(t->message), e.msg);
			if (first_err[0] == '\0')
				sq_util_copy(first_err, sizeof(first_err),
					     e.msg);
			t->ok = -1;
		}
		res->status = (int)status;
		sq_buf_free(&out);
	}
	res->nfailed = 0;
	for (i = 0; i < a->ntargets; i++) {
		struct sq_target_result *t = &res->targets[i];
		struct rest_state after;
		struct sq_err e;
		char msg[256];
		int v;

		sq_err_clear(&e);
		if (read_target(b, a, i, cluster, &after, &e) == -1) {
			t->verified = SQ_VERIFY_UNCHECKED;
			if (t->ok != -1)
				snprintf(t->message, sizeof(t->message),
					 "done; could not re-read: %.200s",
					 e.msg);
		} else {
			v = verify(a, &after, msg, sizeof(msg));
			t->verified = v;
			/* an error answer that still did it (22.05 says
			 * "Missing required field 'user'" for an account's
			 * association and creates it) counts as done */
			if (v == SQ_VERIFY_OK)
				t->ok = 1;
			if (t->message[0] == '\0' || v == SQ_VERIFY_OK)
				sq_util_copy(t->message, sizeof(t->message),
					     msg);
		}
		state_free(&after);
		t->ok = t->ok != -1 && t->verified != SQ_VERIFY_FAILED;
		if (!t->ok)
			res->nfailed++;
	}
	inverse(a, res, before, res->inverse, sizeof(res->inverse));
	if (res->nfailed == 0) {
		snprintf(res->message, sizeof(res->message),
			 "%s: %zu of %zu done", a->def->name, res->ntargets,
			 res->ntargets);
		rc = 0;
	} else {
		const char *why = first_err[0] ? first_err : NULL;

		for (i = 0; why == NULL && i < res->ntargets; i++) {
			if (!res->targets[i].ok)
				why = res->targets[i].message;
		}
		snprintf(res->message, sizeof(res->message),
			 "%s: %zu of %zu failed: %.400s", a->def->name,
			 res->nfailed, res->ntargets, why ? why : "failed");
		sq_err_set(err, SQ_ERR_COMMAND, "%s", res->message);
	}
out:
	if (rc == -1 && res->message[0] == '\0')
		sq_util_copy(res->message, sizeof(res->message), err->msg);
	for (i = 0; before != NULL && i < a->ntargets; i++)
		state_free(&before[i]);
	free(before);
	sq_rest_reqs_free(&r);
	res->ms = sq_util_now_ms() - t0;
	return rc;
}
