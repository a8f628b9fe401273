/*
 * actions_read.c - reading an action's targets back through slurmrestd
 * (GET of a job, account, QOS or association): the state before (for
 * read_targets() and the inverse), the verification after (a job or a
 * node read into core's target record and judged by sq_action_verdict(),
 * core/action/action_verdict.h), and the inverse from the values read before.
 * Private to backends/rest/.
 */
#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/action/acct_verdict.h"
#include "core/action/action_policy.h"
#include "core/action/action_verdict.h"
#include "core/base/parse.h"
#include "core/base/util.h"

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
		x = sq_rest_jlen(x) > 0 ? json_object_array_get_idx(x, 0)
					: NULL;
	return x ? json_object_get_string(x) : "";
}

void
sq_rest_state_free(struct sq_rest_state *s)
{
	if (s->root != NULL)
		json_object_put(s->root);
	if (s->aroot != NULL)
		json_object_put(s->aroot);
	memset(s, 0, sizeof(*s));
}

static json_object *
first_of(json_object *root, const char *key)
{
	json_object *arr;

	if (root == NULL || !json_object_object_get_ex(root, key, &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    sq_rest_jlen(arr) == 0)
		return NULL;
	return json_object_array_get_idx(arr, 0);
}

int
sq_rest_get_target(struct sq_backend *b, const char *path, const char *gone,
		   struct sq_rest_state *st, struct sq_err *err)
{
	struct sq_buf out;
	long status = 0;
	int rc = -1;

	sq_buf_init(&out, SQ_REST_ACT_BODY_LIMIT);
	if (sq_rest_call(b, "GET", path, NULL, &out, &status, err) == -1) {
		/* the target is not there: not an error of the read */
		if (gone != NULL &&
		    (status == 404 ||
		     (status >= 400 && sq_rest_words_in(err->msg, gone))))
			rc = 0;
		goto done;
	}
	st->root = json_tokener_parse(sq_buf_str(&out));
	if (st->root == NULL) {
		sq_err_set(err, SQ_ERR_PARSE, "GET %s: not JSON", path);
		goto done;
	}
	rc = 0;
done:
	sq_buf_free(&out);
	return rc;
}

int
sq_rest_words_in(const char *msg, const char *words)
{
	char w[64];
	const char *p = words;

	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, "|");

		if (n > 0 && n < sizeof(w)) {
			memcpy(w, p, n);
			w[n] = '\0';
			if (strstr(msg, w) != NULL)
				return 1;
		}
		p += n + (p[n] == '|');
	}
	return 0;
}

json_object *
sq_rest_named(json_object *root, const char *key, const char *name)
{
	json_object *arr = NULL, *found = NULL;
	size_t k;

	if (root == NULL || !json_object_object_get_ex(root, key, &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return NULL;
	for (k = 0; k < sq_rest_jlen(arr); k++) {
		json_object *x = json_object_array_get_idx(arr, k), *nm = NULL;

		if (json_object_object_get_ex(x, "name", &nm) &&
		    strcmp(json_object_get_string(nm), name) == 0)
			found = x;
	}
	return found;
}

const char *
sq_rest_cluster_name(struct sq_backend *b, char *buf, size_t n,
		     struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	struct sq_buf out;
	char path[64];
	long status;
	json_object *root, *c;
	const char *rc = NULL;

	snprintf(path, sizeof(path), "/slurmdb/v0.0.%d/clusters", api->slurmdb);
	sq_buf_init(&out, SQ_REST_ACT_BODY_LIMIT);
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
int
sq_rest_read_target(struct sq_backend *b, const struct sq_action *a, size_t i,
		    const char *cluster, struct sq_rest_state *st,
		    struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	const char *t = a->targets[i];
	char path[768], acc[129], user[129], part[129];
	const char *key = NULL;

	memset(st, 0, sizeof(*st));
	if (sq_rest_assoc_mapped(a, api->slurmdb))
		return sq_rest_assoc_read(b, a, i, cluster, st, err);
	if (sq_rest_user_mapped(a, api->slurmdb))
		return sq_rest_user_read(b, a, i, cluster, st, err);
	switch (a->def->kind) {
	case SQ_KIND_RESERVATIONS:
		return sq_rest_resv_read(b, a, i, st, err);
	case SQ_KIND_NODES:
		return sq_rest_node_read(b, a, i, st, err);
	case SQ_KIND_JOBS:
		snprintf(path, sizeof(path), "/slurm/v0.0.%d/job/%s",
			 api->slurm, t);
		key = "jobs";
		break;
	case SQ_KIND_ACCOUNTS:
		/* with its coordinators from v0.0.40 (actions_account.c) */
		st->coords = api->slurmdb >= 40;
		snprintf(path, sizeof(path), "/slurmdb/v0.0.%d/account/%s%s",
			 api->slurmdb, t, st->coords ? "?with_coords" : "");
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
	/* "Invalid job id specified", "Nothing found": gone */
	if (sq_rest_get_target(b, path, "Invalid job id|Nothing found", st,
			       err) == -1)
		return -1;
	st->rec = first_of(st->root, key);
	if (st->rec != NULL && a->def->kind == SQ_KIND_ASSOCS) {
		/* the exact association: user "" and partition match */
		json_object *arr = NULL;
		size_t k;

		json_object_object_get_ex(st->root, key, &arr);
		st->rec = NULL;
		for (k = 0; k < sq_rest_jlen(arr); k++) {
			json_object *x = json_object_array_get_idx(arr, k);

			const char *xp = str_of(x, "partition");
			size_t ol = strlen(st->others);

			if (strcmp(str_of(x, "account"), acc) != 0 ||
			    strcmp(str_of(x, "user"), user) != 0)
				continue;
			if (strcmp(xp, part) == 0)
				st->rec = x;
			else if (part[0] == '\0' &&
				 ol + strlen(xp) + 2 < sizeof(st->others))
				snprintf(st->others + ol,
					 sizeof(st->others) - ol, "%s%s",
					 ol ? "," : "", xp);
		}
	}
	st->found = st->rec != NULL;
	/* the account's association too (parent, shares), as the CLI
	 * reads it with every account: modaccount sets them (from
	 * v0.0.40), addaccount's verdict checks those asked, and every
	 * account action's "nothing else changed" compares them (not
	 * delaccount: gone or not) */
	if (st->found && a->def->kind == SQ_KIND_ACCOUNTS &&
	    a->type != SQ_ACTION_ACCT_DELETE_ACCOUNT)
		return sq_rest_account_read_assoc(b, api->slurmdb, t, cluster,
						  st, err);
	return 0;
}

/* Every key=value of an update shows in the job (timelimit in minutes,
 * nice and priority as numbers, the others as strings). */
static int
update_ok(const struct sq_action *a, json_object *rec, char *msg, size_t n)
{
	size_t i;
	int64_t v;

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

			ok = sq_rest_minutes(eq + 1, &m) == 0 &&
			     num_of(rec, "time_limit", &v) == 0 && v == m;
		} else if (strcmp(key, "nice") == 0 ||
			   strcmp(key, "priority") == 0) {
			ok = num_of(rec, key, &v) == 0 &&
			     v == strtoll(eq + 1, NULL, 10);
		} else {
			ok = strcmp(str_of(rec, key), eq + 1) == 0;
		}
		if (!ok) {
			snprintf(msg, n, "not changed: %s", key);
			return 0;
		}
	}
	return 1;
}

/* The job state as squeue prints it (job_state: a string, or from
 * v0.0.39 the base state and its flags). */
static void
job_state(json_object *rec, char *buf, size_t n)
{
	const char *w[16];
	size_t k = 0;
	json_object *x;

	if (!json_object_object_get_ex(rec, "job_state", &x) || x == NULL) {
		buf[0] = '\0';
		return;
	}
	if (!json_object_is_type(x, json_type_array)) {
		w[k++] = json_object_get_string(x);
	} else {
		for (; k < sq_rest_jlen(x) && k < 16; k++)
			w[k] = json_object_get_string(
			    json_object_array_get_idx(x, k));
	}
	sq_util_copy(buf, n, sq_slurmjson_job_state_word(w, k));
}

void
sq_rest_target_rec(const struct sq_action *a, const struct sq_rest_state *st,
		   struct sq_target_rec *out)
{
	sq_target_rec_init(out);
	if (st == NULL || !st->found)
		return;
	out->found = 1;
	if (a->def->kind == SQ_KIND_NODES) {
		sq_rest_node_state(st->rec, out->state, sizeof(out->state));
		sq_util_copy(out->reason, sizeof(out->reason),
			     str_of(st->rec, "reason"));
		return;
	}
	job_state(st->rec, out->state, sizeof(out->state));
	/* squeue's Reason: the description when there is one ("job
	 * requeued in held state"), else the reason word */
	sq_util_copy(out->reason, sizeof(out->reason),
		     *str_of(st->rec, "state_description")
			 ? str_of(st->rec, "state_description")
			 : str_of(st->rec, "state_reason"));
	num_of(st->rec, "priority", &out->priority);
	num_of(st->rec, "restart_cnt", &out->restarts);
	if (a->type == SQ_ACTION_JOB_UPDATE)
		out->args_ok =
		    update_ok(a, st->rec, out->mismatch, sizeof(out->mismatch));
}

int
sq_rest_verify(const struct sq_action *a, const struct sq_rest_state *before,
	       const struct sq_rest_state *st, char *msg, size_t n)
{
	if (a->def->kind == SQ_KIND_RESERVATIONS)
		return sq_rest_resv_verify(a, st, msg, n);
	if (sq_acct_has_verdict(a->type)) {
		struct sq_acct_rec b, r;

		sq_rest_acct_rec(a, before, &b);
		sq_rest_acct_rec(a, st, &r);
		return sq_verdict_verify(
		    sq_acct_verdict(a, before != NULL ? &b : NULL, &r, msg, n));
	}
	if (sq_action_has_verdict(a->type)) {
		struct sq_target_rec b, r;

		sq_rest_target_rec(a, before, &b);
		sq_rest_target_rec(a, st, &r);
		return sq_verdict_verify(sq_action_verdict(
		    a, before != NULL ? &b : NULL, &r, msg, n));
	}
	snprintf(msg, n, "not checked");
	return SQ_VERIFY_UNCHECKED;
}

/* The inverse's value of one argument key of an action from a target's
 * state before (rec): its time limit, nice or priority as numbers (nice
 * 0 where v0.0.38 says null), any other key as the string it had; none
 * where the number is not there. */
static void
inverse_arg(struct sq_action *inv, const char *key, json_object *rec)
{
	char val[64];
	int64_t v;

	if (strcmp(key, "timelimit") == 0) {
		if (num_of(rec, "time_limit", &v) == -1)
			return;
	} else if (strcmp(key, "nice") == 0) {
		if (num_of(rec, key, &v) == -1)
			v = 0; /* v0.0.38 says null for 0 */
	} else if (strcmp(key, "priority") == 0) {
		if (num_of(rec, key, &v) == -1)
			return;
	} else {
		sq_action_set_arg(inv, key, str_of(rec, key), NULL);
		return;
	}
	snprintf(val, sizeof(val), "%lld", (long long)v);
	sq_action_set_arg(inv, key, val, NULL);
}

/* One target's inverse (type t) from its state before into line: every
 * argument of a as it was, and a deleted account's description and
 * organization. 0, or -1 when there is nothing to put back. */
static int
inverse_target(const struct sq_action *a, enum sq_action_type t, size_t i,
	       const struct sq_rest_state *st, char *line, size_t n)
{
	struct sq_action inv;
	size_t k;
	int rc = -1;

	sq_action_init(&inv, t);
	sq_action_add_target(&inv, a->targets[i], NULL);
	for (k = 0; k < a->nargs; k++) {
		const char *eq = strchr(a->args[k], '=');
		size_t kl = (size_t)(eq - a->args[k]);
		char key[32];

		if (kl >= sizeof(key))
			continue;
		memcpy(key, a->args[k], kl);
		key[kl] = '\0';
		inverse_arg(&inv, key, st->rec);
	}
	if (a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT) {
		const char *d = str_of(st->rec, "description");
		const char *o = str_of(st->rec, "organization");

		if (*d)
			sq_action_set_arg(&inv, "description", d, NULL);
		if (*o)
			sq_action_set_arg(&inv, "organization", o, NULL);
	}
	if (inv.nargs > 0 || a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT)
		rc = sq_action_format(&inv, line, n);
	sq_action_free(&inv);
	return rc;
}

/* The inverse of the kinds and actions with their own (reservations,
 * accounting's mapped actions, QOS, nodes) into buf; 0, or -1 when a
 * has none of its own. */
static int
inverse_own(const struct sq_action *a, const struct sq_result *res,
	    const struct sq_rest_state *before, char *buf, size_t n)
{
	if (a->def->kind == SQ_KIND_RESERVATIONS)
		sq_rest_resv_inverse(a, res, before, buf, n);
	else if (sq_rest_assoc_mapped(a, 40))
		sq_rest_assoc_inverse(a, res, before, buf, n);
	else if (sq_rest_qos_dp(a, &before[0]))
		sq_rest_qos_inverse(a, res, before, buf, n);
	else if (sq_rest_user_mapped(a, 40))
		sq_rest_user_inverse(a, res, before, buf, n);
	else if (sq_rest_account_mapped(a, 40))
		sq_rest_account_inverse(a, res, before, buf, n);
	else if (a->def->kind == SQ_KIND_NODES)
		sq_rest_node_inverse(a, res, before, buf, n);
	else
		return -1;
	return 0;
}

/* The inverse from the states before (only targets that succeeded):
 * the inverse action of the targets alone, or, where it puts back what
 * was (SQ_ACT_INV_PREV, delaccount), one line per target as it was. */
void
sq_rest_inverse(const struct sq_action *a, const struct sq_result *res,
		const struct sq_rest_state *before, char *buf, size_t n)
{
	struct sq_action inv;
	size_t i, off = 0;
	enum sq_action_type t = a->def->inverse;

	buf[0] = '\0';
	if (inverse_own(a, res, before, buf, n) == 0 || t == SQ_ACTION_NONE)
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

		if (!res->targets[i].ok || !before[i].found)
			continue;
		if (inverse_target(a, t, i, &before[i], line, sizeof(line)) ==
			0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
	}
}

/* An account's state for delaccount: EMPTY, or "USERS carol,bob/gpu"
 * from the associations slurmdbd lists with it ("" when it lists none:
 * not known). */
static void
account_users(json_object *acct, char *buf, size_t n)
{
	json_object *arr;
	size_t k, off;

	buf[0] = '\0';
	if (!json_object_object_get_ex(acct, "associations", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return;
	off = (size_t)snprintf(buf, n, "%s", SQ_ACCT_EMPTY);
	for (k = 0; k < sq_rest_jlen(arr) && off < n; k++) {
		json_object *x = json_object_array_get_idx(arr, k);
		const char *u = str_of(x, "user"), *p = str_of(x, "partition");

		if (*u == '\0')
			continue;
		if (strncmp(buf, SQ_ACCT_EMPTY, off) == 0)
			off = (size_t)snprintf(buf, n, "USERS ");
		else
			off += (size_t)snprintf(buf + off, n - off, ",");
		if (off < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s%s", u,
						*p ? "/" : "", p);
	}
}

/* REST's struct sq_targets_read: data is a struct sq_rest_read. */
void
sq_rest_targets_read_free(struct sq_targets_read *r)
{
	struct sq_rest_read *rd;
	size_t i;

	if (r == NULL)
		return;
	if ((rd = r->data) != NULL) {
		for (i = 0; rd->st != NULL && i < rd->n; i++)
			sq_rest_state_free(&rd->st[i]);
		free(rd->st);
		free(rd);
	}
	free(r);
}

static void
state_drop(void *s)
{
	sq_rest_state_free(s);
}

void
sq_rest_targets_read_cut(struct sq_targets_read *r, const unsigned char *keep)
{
	struct sq_rest_read *rd = r->data;

	if (rd == NULL || rd->st == NULL)
		return;
	rd->n =
	    sq_util_keep(rd->st, rd->n, sizeof(rd->st[0]), keep, state_drop);
	r->n = rd->n;
}

const struct sq_rest_read *
sq_rest_targets_of(const struct sq_action *a,
		   const struct sq_targets_read *read)
{
	const struct sq_rest_read *rd;

	if (read == NULL || read->ops == NULL ||
	    read->ops->read_free != sq_rest_targets_read_free ||
	    read->n != a->ntargets || (rd = read->data) == NULL ||
	    rd->st == NULL || rd->n != a->ntargets)
		return NULL;
	return rd;
}

int
sq_rest_read_targets(struct sq_backend *b, const struct sq_action *a,
		     struct sq_target_state *out, struct sq_targets_read **read,
		     struct sq_err *err)
{
	struct sq_rest_read *rd;
	const char *cluster = NULL;
	size_t i;

	if (read != NULL)
		*read = NULL;
	if ((rd = calloc(1, sizeof(*rd))) == NULL ||
	    (rd->st = calloc(a->ntargets ? a->ntargets : 1, sizeof(*rd->st))) ==
		NULL) {
		free(rd);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	if (a->def->kind != SQ_KIND_JOBS &&
	    a->def->kind != SQ_KIND_RESERVATIONS &&
	    a->def->kind != SQ_KIND_NODES &&
	    (cluster = sq_rest_cluster_name(b, rd->cluster, sizeof(rd->cluster),
					    err)) == NULL)
		goto fail;
	for (i = 0; i < a->ntargets; i++) {
		struct sq_rest_state *st = &rd->st[i];

		rd->n = i + 1;
		if (sq_rest_read_target(b, a, i, cluster, st, err) == -1)
			goto fail;
		out[i].found = st->found;
		sq_util_copy(out[i].state, sizeof(out[i].state),
			     st->found ? str_of(st->rec, "job_state") : "");
		if (st->found && a->def->kind == SQ_KIND_NODES)
			sq_rest_node_state(st->rec, out[i].state,
					   sizeof(out[i].state));
		if (st->found && a->def->kind == SQ_KIND_ACCOUNTS)
			account_users(st->rec, out[i].state,
				      sizeof(out[i].state));
		if (st->found && a->type == SQ_ACTION_ACCT_REMOVE_USER)
			snprintf(out[i].state, sizeof(out[i].state), "%s%.40s",
				 st->others[0] ? "ALSO " : SQ_ASSOC_ALONE,
				 st->others);
	}
	/* kept for describe() and act() of a (backend.h) */
	if (read != NULL && (*read = calloc(1, sizeof(**read))) != NULL) {
		(*read)->ops = b->ops;
		(*read)->n = rd->n;
		(*read)->data = rd;
		return 0;
	}
	for (i = 0; i < rd->n; i++)
		sq_rest_state_free(&rd->st[i]);
	free(rd->st);
	free(rd);
	return 0;
fail:
	for (i = 0; i < rd->n; i++)
		sq_rest_state_free(&rd->st[i]);
	free(rd->st);
	free(rd);
	return -1;
}
