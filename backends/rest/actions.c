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
#include "core/action_policy.h"
#include "core/parse.h"
#include "core/util.h"

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

int
sq_rest_minutes(const char *v, int64_t *out)
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
			    strcmp(v, "-1") == 0 ||
			    sq_rest_minutes(v, &n) == -1)
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
		cluster = sq_rest_cluster_name(b, cl, sizeof(cl), &err);
	if (sq_rest_action_reqs(a, api->slurm, api->slurmdb,
				cluster ? cluster : "?", &r, &err) == -1) {
		sq_util_copy(buf, len, err.msg);
		return -1;
	}
	sq_rest_reqs_format(&r, buf, len);
	sq_rest_reqs_free(&r);
	return 0;
}

/* Re-read every target with the policy of every backend
 * (action_policy.h) and fill res's verdicts and nfailed. */
static void
verify_all(struct sq_backend *b, const struct sq_action *a, const char *cluster,
	   struct sq_result *res)
{
	size_t i;

	res->nfailed = 0;
	for (i = 0; i < a->ntargets; i++) {
		struct sq_target_result *t = &res->targets[i];
		struct sq_rest_state after;
		struct sq_err e;
		char msg[256];
		int v = SQ_VERIFY_FAILED, k, got = -1;

		/* the re-read policy of every backend (action_policy.h) */
		memset(&after, 0, sizeof(after));
		for (k = 0; k < SQ_VERIFY_TRIES && v == SQ_VERIFY_FAILED &&
			    (k == 0 || t->ok != -1);
		     k++) {
			sq_action_verify_wait(k);
			sq_rest_state_free(&after);
			sq_err_clear(&e);
			got = sq_rest_read_target(b, a, i, cluster, &after, &e);
			if (got == 0)
				v = sq_rest_verify(a, &after, msg, sizeof(msg));
		}
		if (got == -1) {
			t->verified = SQ_VERIFY_UNCHECKED;
			if (t->ok != -1)
				snprintf(t->message, sizeof(t->message),
					 "done; could not re-read: %.200s",
					 e.msg);
		} else {
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
		sq_rest_state_free(&after);
		t->ok = t->ok != -1 && t->verified != SQ_VERIFY_FAILED;
		if (!t->ok)
			res->nfailed++;
	}
}

int
sq_rest_act(struct sq_backend *b, const struct sq_action *a,
	    struct sq_result *res, struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	struct sq_rest_reqs r = { NULL, 0, 0 };
	struct sq_rest_state *before = NULL;
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
	    (cluster = sq_rest_cluster_name(b, cl, sizeof(cl), err)) == NULL)
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
		sq_rest_read_target(b, a, i, cluster, &before[i], &e);
	}
	for (i = 0; i < r.n; i++) {
		struct sq_buf out;
		struct sq_err e;
		long status = 0;
		struct sq_target_result *t = &res->targets[r.v[i].target];

		sq_buf_init(&out, SQ_REST_ACT_BODY_LIMIT);
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
	verify_all(b, a, cluster, res);
	sq_rest_inverse(a, res, before, res->inverse, sizeof(res->inverse));
	if (res->nfailed == 0) {
		snprintf(
		    res->message, sizeof(res->message), "%s: %zu of %zu done%s",
		    a->def->name, res->ntargets, res->ntargets,
		    res->targets[0].verified == SQ_VERIFY_OK ? " and verified"
							     : "");
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
		sq_rest_state_free(&before[i]);
	free(before);
	sq_rest_reqs_free(&r);
	res->ms = sq_util_now_ms() - t0;
	return rc;
}
