/*
 * actions.c - the HTTP requests of an action through slurmrestd, as a
 * step table (req_rows): one row per action kind, each step a method, a
 * path builder and a body builder. v0.0.38 (Slurm 22.05) can cancel and
 * signal (DELETE /slurm/V/job/ID), hold, release and update jobs (POST
 * /slurm/V/job/ID), add and delete accounts and user associations and
 * set a QOS priority (slurmdb). It cannot requeue, suspend or update
 * nodes, and association limit updates are refused: on 22.05 slurmrestd
 * crashes on a POST to an association that has a TRES limit. From
 * v0.0.39 nodes are drained, downed, resumed and given a reason (POST
 * /slurm/V/node/NAME, actions_node.c); reboot is never possible. From
 * v0.0.40 (23.11) on, the QOS lifecycle (addqos, setqos with every QOS
 * key, delqos: actions_qos.c) and the limits of one association
 * (setlimit, clearlimit: actions_assoc.c), moduser (actions_user.c),
 * modaccount, addcoord and delcoord (actions_account.c) are mapped,
 * their bodies built from the target read first
 * (sq_rest_reqs_read_first). Sending them and checking every effect with
 * a GET is actions_run.c. Never prints.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/rest/actions.h"
#include "core/base/parse.h"
#include "core/base/util.h"

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

int
sq_rest_minutes(const char *v, int64_t *out)
{
	int64_t s;

	if (sq_parse_duration(v, &s) == -1 || s < 0)
		return -1;
	*out = (s + 59) / 60;
	return 0;
}

/* --- the requests of each action ----------------------------------------- */

/* What a request of a target is built from. */
struct req_ctx {
	const struct sq_action *a;
	const char *t;                       /* the target */
	char acc[129], user[129], part[129]; /* an ASSOCS target's parts */
	int vs, vdb;                         /* /slurm/ and /slurmdb/ API */
	const char *cluster;                 /* slurmdb calls */
	const struct sq_rest_state *before;  /* the target read, or NULL */
};

static int
unsupported(struct sq_err *err, const char *what, int v)
{
	return sq_err_set(err, SQ_ERR_UNSUPPORTED,
			  "%s through slurmrestd (API v0.0.%d) is not "
			  "possible; use the local or ssh backend",
			  what, v);
}

/* slurmrestd has no request that fixes runaway jobs (sacctmgr's
 * DBD_FIX_RUNAWAY_JOB has no endpoint in any data_parser version). */
static int
no_runaway(const struct req_ctx *c, struct sq_err *err)
{
	return unsupported(err,
			   "fixing runaway jobs (slurmrestd has no "
			   "endpoint for it)",
			   c->vdb);
}

/* --- paths: into buf, values validated by core/action/action.c --- */

static void
job_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurm/v0.0.%d/job/%s", c->vs, c->t);
}

static void
signal_path(const struct req_ctx *c, char *buf, size_t n)
{
	const char *sig = sq_action_arg(c->a, "sig");
	int num = sig[0] >= '0' && sig[0] <= '9';

	snprintf(buf, n, "/slurm/v0.0.%d/job/%s?signal=%s%s", c->vs, c->t,
		 num ? "" : "SIG", sig);
}

static void
accounts_association_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurmdb/v0.0.%d/accounts_association", c->vdb);
}

static void
accounts_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurmdb/v0.0.%d/accounts", c->vdb);
}

static void
account_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurmdb/v0.0.%d/account/%s", c->vdb, c->t);
}

static void
associations_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurmdb/v0.0.%d/associations", c->vdb);
}

/* DELETE of one association: its parts as the query */
static void
association_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n,
		 "/slurmdb/v0.0.%d/association?account=%s&user=%s&cluster=%s"
		 "%s%s",
		 c->vdb, c->acc, c->user, c->cluster,
		 c->part[0] ? "&partition=" : "", c->part);
}

static void
qos_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurmdb/v0.0.%d/qos", c->vdb);
}

static void
qos_name_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurmdb/v0.0.%d/qos/%s", c->vdb, c->t);
}

/* --- bodies: a new json-c object, or NULL with err --- */

static json_object *
wrap(const char *key, json_object *item)
{
	json_object *o = json_object_new_object(),
		    *arr = json_object_new_array();

	json_object_array_add(arr, item);
	json_object_object_add(o, key, arr);
	return o;
}

static void
add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

/* fairshare= as a number; "parent" (or none) adds nothing */
static void
add_shares(json_object *o, const char *key, const struct sq_action *a)
{
	const char *fs = sq_action_arg(a, "fairshare");

	if (fs != NULL && strcmp(fs, "parent") != 0)
		json_object_object_add(
		    o, key, json_object_new_int64(strtoll(fs, NULL, 10)));
}

/* {"hold": true} or false */
static json_object *
hold_body(const struct req_ctx *c, struct sq_err *err)
{
	json_object *o = json_object_new_object();

	json_object_object_add(
	    o, "hold",
	    json_object_new_boolean(c->a->type == SQ_ACTION_JOB_HOLD));
	return o;
}

/* POST /slurm/V/job/ID body of an update: time_limit, nice, ... */
static json_object *
job_update_body(const struct req_ctx *c, struct sq_err *err)
{
	const struct sq_action *a = c->a;
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
			add_str(o, key, v);
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

/* description= (else the name), organization= (else parent=, else the
 * name) of a new account into o */
static void
add_account_words(json_object *o, const struct req_ctx *c)
{
	const char *d = sq_action_arg(c->a, "description");
	const char *org = sq_action_arg(c->a, "organization");
	const char *par = sq_action_arg(c->a, "parent");

	add_str(o, "description", d ? d : c->t);
	add_str(o, "organization", org ? org : (par ? par : c->t));
}

/*
 * addaccount from v0.0.40 (23.11) on: POST /accounts_association makes the
 * account and its association under the parent in one request. (Those
 * versions ignore parent_account in POST /associations and want a user.)
 */
static json_object *
account_assoc_body(const struct req_ctx *c, struct sq_err *err)
{
	json_object *o = json_object_new_object();
	json_object *cond = json_object_new_object();
	json_object *set = json_object_new_object();
	json_object *acct = json_object_new_object();
	json_object *accts = json_object_new_array();
	json_object *clus = json_object_new_array();
	const char *par = sq_action_arg(c->a, "parent");

	json_object_array_add(accts, json_object_new_string(c->t));
	json_object_array_add(clus, json_object_new_string(c->cluster));
	add_str(set, "parent", par ? par : "root");
	add_shares(set, "fairshare", c->a);
	json_object_object_add(cond, "accounts", accts);
	json_object_object_add(cond, "clusters", clus);
	json_object_object_add(cond, "association", set);
	add_account_words(acct, c);
	json_object_object_add(o, "association_condition", cond);
	json_object_object_add(o, "account", acct);
	return o;
}

/* addaccount before v0.0.40: the account (POST /accounts alone makes no
 * association) ... */
static json_object *
account_body(const struct req_ctx *c, struct sq_err *err)
{
	json_object *acct = json_object_new_object();

	add_str(acct, "name", c->t);
	add_account_words(acct, c);
	return wrap("accounts", acct);
}

/* ... then its association under parent= (else root) */
static json_object *
account_association_body(const struct req_ctx *c, struct sq_err *err)
{
	json_object *as = json_object_new_object();
	const char *par = sq_action_arg(c->a, "parent");

	add_str(as, "account", c->t);
	add_str(as, "cluster", c->cluster);
	add_str(as, "parent_account", par ? par : "root");
	add_shares(as, "shares_raw", c->a);
	return wrap("associations", as);
}

static json_object *
user_association_body(const struct req_ctx *c, struct sq_err *err)
{
	json_object *as = json_object_new_object();

	add_str(as, "account", c->acc);
	add_str(as, "cluster", c->cluster);
	add_str(as, "user", c->user);
	if (c->part[0] != '\0')
		add_str(as, "partition", c->part);
	return wrap("associations", as);
}

/* v0.0.38 {"QOS": [...]}, v0.0.40+ {"qos": [...]} */
static json_object *
qos_body(const struct req_ctx *c, struct sq_err *err)
{
	json_object *qo = json_object_new_object();

	add_str(qo, "name", c->t);
	json_object_object_add(qo, "priority",
			       json_object_new_int64(strtoll(
				   sq_action_arg(c->a, "priority"), NULL, 10)));
	return wrap(c->vdb >= 40 ? "qos" : "QOS", qo);
}

/* v0.0.40+: every QOS key (actions_qos.c) */
static json_object *
qos_dp_body(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_qos_body(c->a, c->t, c->before, err);
}

/* v0.0.40+: the one association (actions_assoc.c) */
static json_object *
assoc_limit_body(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_assoc_body(c->a, c->acc, c->user, c->part, c->cluster,
				  c->before, err);
}

/* --- what REST cannot do: -1 with the reason --- */

static int
no_requeue(const struct req_ctx *c, struct sq_err *err)
{
	if (c->vs >= 45)
		return sq_err_set(
		    err, SQ_ERR_UNSUPPORTED,
		    "requeue: slurmrestd (API v0.0.%d) serves GET "
		    "/slurm/v0.0.%d/job/ID/requeue, but squall does not map "
		    "it yet (its check after needs the restart count read "
		    "before); use the local or ssh backend",
		    c->vs, c->vs);
	return unsupported(err, "requeue (no such endpoint before v0.0.45)",
			   c->vs);
}

static int
no_suspend(const struct req_ctx *c, struct sq_err *err)
{
	return unsupported(err, "suspend and resume of jobs", c->vs);
}

/* nodes: v0.0.38, reboot and "ALL" are refused (actions_node.c) */
static int
node_api(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_node_check(c->a, c->vs, err);
}

static void
node_path(const struct req_ctx *c, char *buf, size_t n)
{
	sq_rest_node_path(c->vs, c->t, buf, n);
}

static json_object *
node_body(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_node_body(c->a, err);
}

/* setlimit, clearlimit: from v0.0.40 on (actions_assoc.c) */
static int
limits_api(const struct req_ctx *c, struct sq_err *err)
{
	if (c->vdb <= 38)
		return sq_err_set(
		    err, SQ_ERR_UNSUPPORTED,
		    "association limits through slurmrestd v0.0.38 are "
		    "refused: Slurm 22.05's slurmrestd crashes on an "
		    "association update when the association has a TRES "
		    "limit; use the local or ssh backend (sacctmgr -i)");
	if (c->vdb < 40)
		return unsupported(err,
				   "setting association limits (mapped from "
				   "v0.0.40, Slurm 23.11, on)",
				   c->vdb);
	return 0;
}

/* modaccount, addcoord, delcoord: POST /accounts from v0.0.40, or POST
 * /associations for modaccount parent=/fairshare= (actions_account.c) */
static void
account_mod_path(const struct req_ctx *c, char *buf, size_t n)
{
	sq_rest_account_path(c->a, c->vdb, buf, n);
}

static int
account_api(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_account_check(c->a, c->vdb, err);
}

static json_object *
account_mod_body(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_account_body(c->a, c->t, c->cluster, c->before, err);
}

/* addqos and delqos from v0.0.40 (data_parser's QOS, read back and
 * undone field by field, actions_qos.c); v0.0.38's QOS is another
 * shape, not mapped. */
static int
qos_lifecycle_api(const struct req_ctx *c, struct sq_err *err)
{
	if (c->vdb >= 40)
		return 0;
	return sq_err_set(
	    err, SQ_ERR_UNSUPPORTED,
	    "%s through slurmrestd API v0.0.%d is not mapped: squall maps "
	    "%s /slurmdb/vN/qos from v0.0.40 (Slurm 23.11) on, whose QOS "
	    "fields it reads back and undoes; use the local or ssh backend "
	    "(sacctmgr -i)",
	    c->a->def->name, c->vdb,
	    c->a->type == SQ_ACTION_QOS_ADD ? "POST" : "DELETE");
}

static int
no_default_account(const struct req_ctx *c, struct sq_err *err)
{
	if (sq_action_arg(c->a, "defaultaccount") != NULL)
		return unsupported(err, "setting a default account", c->vdb);
	/* the body names the association only: limits would be dropped */
	if (c->a->nargs > 0)
		return unsupported(err,
				   "limits on a new association (add it, then "
				   "setlimit)",
				   c->vdb);
	return 0;
}

/* moduser: default account and admin level from v0.0.40
 * (actions_user.c) */
static int
moduser_api(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_user_check(c->a, c->vdb, err);
}

static void
users_path(const struct req_ctx *c, char *buf, size_t n)
{
	sq_rest_user_path(c->a, c->vdb, buf, n);
}

static json_object *
user_body(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_user_body(c->a, c->t, c->cluster, c->before, err);
}

static int
only_qos_priority(const struct req_ctx *c, struct sq_err *err)
{
	if (c->vdb >= 40 ||
	    (sq_action_arg(c->a, "priority") != NULL && c->a->nargs == 1))
		return 0;
	return unsupported(err, "QOS limits (only priority= is mapped)",
			   c->vdb);
}

static int
resv_api(const struct req_ctx *c, struct sq_err *err)
{
	if (c->vs < 43)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "reservations through slurmrestd API "
				  "v0.0.%d are read-only (POST and DELETE "
				  "of reservations come with v0.0.43, Slurm "
				  "25.05); use the local or ssh backend "
				  "(scontrol)",
				  c->vs);
	return 0;
}

static void
resv_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurm/v0.0.%d/reservation", c->vs);
}

static void
resv_name_path(const struct req_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "/slurm/v0.0.%d/reservation/%s", c->vs, c->t);
}

static json_object *
resv_body(const struct req_ctx *c, struct sq_err *err)
{
	return sq_rest_resv_body(c->a, c->t, err);
}

/*
 * The step table: one row per action kind. refuse (when set) says why
 * REST cannot do it at all; check (when set) refuses some arguments,
 * after the /slurmdb/ API is known to be there. Then each target gets
 * the row's steps, in order, that are for the /slurmdb/ version (db_min,
 * db_max; 0: no bound): a method, a path and a JSON body (NULL: none).
 * An action without a row (submit: submit.c) is refused.
 */
typedef int (*refuse_fn)(const struct req_ctx *c, struct sq_err *err);

struct req_step {
	const char *method;
	void (*path)(const struct req_ctx *c, char *buf, size_t n);
	json_object *(*body)(const struct req_ctx *c, struct sq_err *err);
	int db_min, db_max;
};

#define REQ_STEPS 3
/* the /slurmdb/ versions a step is for */
#define ANY_DB 0, 0
#define DB_FROM_40 40, 0
#define DB_BEFORE_40 0, 39

struct req_row {
	enum sq_action_type type;
	refuse_fn refuse, check;
	struct req_step step[REQ_STEPS];
};

static const struct req_row req_rows[] = {
	{ SQ_ACTION_RESV_CREATE, .check = resv_api,
	  .step = { { "POST", resv_path, resv_body, ANY_DB } } },
	{ SQ_ACTION_RESV_UPDATE, .check = resv_api,
	  .step = { { "POST", resv_path, resv_body, ANY_DB } } },
	{ SQ_ACTION_RESV_DELETE, .check = resv_api,
	  .step = { { "DELETE", resv_name_path, NULL, ANY_DB } } },
	{ SQ_ACTION_JOB_CANCEL,
	  .step = { { "DELETE", job_path, NULL, ANY_DB } } },
	{ SQ_ACTION_JOB_SIGNAL,
	  .step = { { "DELETE", signal_path, NULL, ANY_DB } } },
	{ SQ_ACTION_JOB_HOLD,
	  .step = { { "POST", job_path, hold_body, ANY_DB } } },
	{ SQ_ACTION_JOB_RELEASE,
	  .step = { { "POST", job_path, hold_body, ANY_DB } } },
	{ SQ_ACTION_JOB_REQUEUE, .refuse = no_requeue },
	{ SQ_ACTION_JOB_REQUEUE_HOLD, .refuse = no_requeue },
	{ SQ_ACTION_JOB_SUSPEND, .refuse = no_suspend },
	{ SQ_ACTION_JOB_RESUME, .refuse = no_suspend },
	{ SQ_ACTION_JOB_UPDATE,
	  .step = { { "POST", job_path, job_update_body, ANY_DB } } },
	{ SQ_ACTION_NODE_DRAIN, .check = node_api,
	  .step = { { "POST", node_path, node_body, ANY_DB } } },
	{ SQ_ACTION_NODE_DOWN, .check = node_api,
	  .step = { { "POST", node_path, node_body, ANY_DB } } },
	{ SQ_ACTION_NODE_RESUME, .check = node_api,
	  .step = { { "POST", node_path, node_body, ANY_DB } } },
	{ SQ_ACTION_NODE_REBOOT, .refuse = node_api },
	{ SQ_ACTION_NODE_CANCEL_REBOOT, .check = node_api,
	  .step = { { "POST", node_path, node_body, ANY_DB } } },
	{ SQ_ACTION_NODE_REASON, .check = node_api,
	  .step = { { "POST", node_path, node_body, ANY_DB } } },
	{ SQ_ACTION_ACCT_ADD_ACCOUNT,
	  .step = { { "POST", accounts_association_path, account_assoc_body,
		      DB_FROM_40 },
		    { "POST", accounts_path, account_body, DB_BEFORE_40 },
		    { "POST", associations_path, account_association_body,
		      DB_BEFORE_40 } } },
	{ SQ_ACTION_ACCT_MODIFY_ACCOUNT, .check = account_api,
	  .step = { { "POST", account_mod_path, account_mod_body,
		      DB_FROM_40 } } },
	{ SQ_ACTION_ACCT_DELETE_ACCOUNT,
	  .step = { { "DELETE", account_path, NULL, ANY_DB } } },
	{ SQ_ACTION_ACCT_ADD_COORD, .check = account_api,
	  .step = { { "POST", accounts_path, account_mod_body, DB_FROM_40 } } },
	{ SQ_ACTION_ACCT_DEL_COORD, .check = account_api,
	  .step = { { "POST", accounts_path, account_mod_body, DB_FROM_40 } } },
	{ SQ_ACTION_ACCT_ADD_USER, .check = no_default_account,
	  .step = { { "POST", associations_path, user_association_body,
		      ANY_DB } } },
	{ SQ_ACTION_ACCT_REMOVE_USER,
	  .step = { { "DELETE", association_path, NULL, ANY_DB } } },
	{ SQ_ACTION_ACCT_MODIFY_USER, .check = moduser_api,
	  .step = { { "POST", users_path, user_body, DB_FROM_40 } } },
	{ SQ_ACTION_ACCT_SET_LIMIT, .check = limits_api,
	  .step = { { "POST", associations_path, assoc_limit_body,
		      DB_FROM_40 } } },
	{ SQ_ACTION_ACCT_CLEAR_LIMIT, .check = limits_api,
	  .step = { { "POST", associations_path, assoc_limit_body,
		      DB_FROM_40 } } },
	{ SQ_ACTION_QOS_SET, .check = only_qos_priority,
	  .step = { { "POST", qos_path, qos_body, DB_BEFORE_40 },
		    { "POST", qos_path, qos_dp_body, DB_FROM_40 } } },
	{ SQ_ACTION_QOS_ADD, .check = qos_lifecycle_api,
	  .step = { { "POST", qos_path, qos_dp_body, DB_FROM_40 } } },
	{ SQ_ACTION_QOS_DELETE, .check = qos_lifecycle_api,
	  .step = { { "DELETE", qos_name_path, NULL, DB_FROM_40 } } },
	{ SQ_ACTION_RUNAWAY_FIX, .refuse = no_runaway },
};

static const struct req_row *
req_row(enum sq_action_type type)
{
	size_t i;

	for (i = 0; i < sizeof(req_rows) / sizeof(req_rows[0]); i++) {
		if (req_rows[i].type == type)
			return &req_rows[i];
	}
	return NULL;
}

/* One step's request for target i at the end of out. */
static int
add_req(struct sq_rest_reqs *out, const struct req_step *s,
	const struct req_ctx *c, size_t i, struct sq_err *err)
{
	struct sq_rest_req *q;
	json_object *o = NULL;

	if (s->body != NULL && (o = s->body(c, err)) == NULL)
		return -1;
	q = new_req(out, s->method, i);
	if (q == NULL || (o != NULL && set_body(q, o) == -1)) {
		if (q == NULL && o != NULL)
			json_object_put(o);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	s->path(c, q->path, sizeof(q->path));
	return 0;
}

int
sq_rest_reqs_read_first(const struct sq_action *a, int vdb)
{
	return (sq_rest_qos_mapped(a, vdb) &&
		a->type != SQ_ACTION_QOS_DELETE) ||
	       sq_rest_assoc_mapped(a, vdb) || sq_rest_user_mapped(a, vdb) ||
	       sq_rest_account_mapped(a, vdb);
}

int
sq_rest_action_reqs(const struct sq_action *a, int vs, int vdb,
		    const char *cluster, struct sq_rest_reqs *out,
		    struct sq_err *err)
{
	return sq_rest_action_reqs_before(a, vs, vdb, cluster, NULL, out, err);
}

int
sq_rest_action_reqs_before(const struct sq_action *a, int vs, int vdb,
			   const char *cluster,
			   const struct sq_rest_state *before,
			   struct sq_rest_reqs *out, struct sq_err *err)
{
	const struct req_row *row;
	struct req_ctx c;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	if (a == NULL || a->def == NULL || a->ntargets == 0)
		return sq_err_set(err, SQ_ERR_USAGE, "no action or targets");
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.vs = vs;
	c.vdb = vdb;
	c.cluster = cluster;
	if ((row = req_row(a->type)) == NULL)
		return unsupported(err, a->def->name, vs);
	if (row->refuse != NULL)
		return row->refuse(&c, err);
	if (a->def->kind != SQ_KIND_JOBS &&
	    a->def->kind != SQ_KIND_RESERVATIONS &&
	    a->def->kind != SQ_KIND_NODES && (vdb == 0 || cluster == NULL))
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "slurmrestd offers no /slurmdb/ API here");
	if (row->check != NULL && row->check(&c, err) == -1)
		return -1;
	for (i = 0; i < a->ntargets; i++) {
		c.t = a->targets[i];
		c.before = before ? &before[i] : NULL;
		if (a->def->kind == SQ_KIND_ASSOCS &&
		    sq_action_assoc_split(c.t, c.acc, c.user, c.part) == -1) {
			sq_rest_reqs_free(out);
			return sq_err_set(err, SQ_ERR_USAGE, "bad association");
		}
		for (k = 0; k < REQ_STEPS && row->step[k].method != NULL; k++) {
			const struct req_step *s = &row->step[k];

			if ((s->db_min != 0 && vdb < s->db_min) ||
			    (s->db_max != 0 && vdb > s->db_max))
				continue;
			if (add_req(out, s, &c, i, err) == -1) {
				sq_rest_reqs_free(out);
				return -1;
			}
		}
	}
	return 0;
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
