/*
 * actions_run.c - an action through slurmrestd once its requests are
 * built (actions.c): the preview line ("DELETE /slurm/v0.0.38/job/123"),
 * and act(): every target as read before (the check's read, handed over,
 * else read here: for the inverse), send the requests,
 * read the targets again with the re-read policy of every backend
 * (core/action/action_policy.h), verify and build the inverse (actions_read.c).
 * The result is reported through backends/act.h, as the CLI backends
 * report theirs. Submit is submit.c. Never prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/act.h"
#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "backends/rest/submit.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/action/action_policy.h"
#include "core/base/util.h"

/* A delete through slurmrestd cannot be undone in full there: the
 * preview says so (the CLI's undo re-creates limits and coordinators). */
static void
delete_note(const struct sq_action *a, char *buf, size_t len)
{
	size_t off = strlen(buf);
	const char *what = NULL;

	if (a->type == SQ_ACTION_ACCT_REMOVE_USER)
		what = "its undo re-adds the association without its "
		       "limits, QOS or default QOS";
	else if (a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT)
		what = "its undo re-adds the account (description, "
		       "organization) without its parent, shares or "
		       "coordinators";
	if (what != NULL && off + 1 < len)
		snprintf(buf + off, len - off,
			 "\ncannot be undone in full through slurmrestd: %s "
			 "(the local or ssh backend lists them and restores "
			 "them)",
			 what);
}

/* Each target read (for the bodies of sq_rest_reqs_read_first): a new
 * array of a->ntargets states, or NULL when none is needed. */
static struct sq_rest_state *
read_first(struct sq_backend *b, const struct sq_action *a, const char *cluster,
	   int need)
{
	struct sq_rest_state *before;
	size_t i;

	if (!need || (before = calloc(a->ntargets, sizeof(*before))) == NULL)
		return NULL;
	for (i = 0; i < a->ntargets; i++) {
		struct sq_err e;

		sq_err_clear(&e);
		sq_rest_read_target(b, a, i, cluster, &before[i], &e);
	}
	return before;
}

static void
states_free(struct sq_rest_state *st, size_t n)
{
	size_t i;

	for (i = 0; st != NULL && i < n; i++)
		sq_rest_state_free(&st[i]);
	free(st);
}

int
sq_rest_describe(struct sq_backend *b, const struct sq_action *a,
		 const struct sq_targets_read *read, char *buf, size_t len)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	const struct sq_rest_read *rd = sq_rest_targets_of(a, read);
	struct sq_rest_reqs r;
	struct sq_rest_state *own = NULL;
	const struct sq_rest_state *before = NULL;
	struct sq_err err;
	char cl[128];
	const char *cluster = NULL;
	int rc;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return sq_rest_submit_describe(b, a, buf, len);
	sq_err_clear(&err);
	/* the check's read (backend.h) when it was handed over: its
	 * cluster name and targets, else our own */
	if (a->def->kind != SQ_KIND_JOBS &&
	    a->def->kind != SQ_KIND_RESERVATIONS &&
	    a->def->kind != SQ_KIND_NODES && api->slurmdb != 0)
		cluster = rd != NULL && rd->cluster[0]
			      ? rd->cluster
			      : sq_rest_cluster_name(b, cl, sizeof(cl), &err);
	if (cluster && sq_rest_reqs_read_first(a, api->slurmdb))
		before =
		    rd != NULL ? rd->st : (own = read_first(b, a, cluster, 1));
	rc = sq_rest_action_reqs_before(a, api->slurm, api->slurmdb,
					cluster ? cluster : "?", before, &r,
					&err);
	if (rc == -1) {
		states_free(own, a->ntargets);
		sq_util_copy(buf, len, err.msg);
		return -1;
	}
	sq_rest_reqs_format(&r, buf, len);
	sq_rest_reqs_free(&r);
	delete_note(a, buf, len);
	/* moduser defaultqos=: each association it changes, as the CLI's */
	if (sq_rest_user_mapped(a, api->slurmdb))
		sq_rest_user_listing(a, before, buf, len);
	states_free(own, a->ntargets);
	return 0;
}

/* Re-read every target with the policy of every backend
 * (action_policy.h) and fill res's verdicts and nfailed. */
/* "done" only when the selected changed and no other: the QOS's other
 * fields, the other associations of the account and user (0: msg). */
static int
others_unchanged(const struct sq_action *a, size_t i,
		 const struct sq_rest_state *before,
		 const struct sq_rest_state *after, char *msg, size_t n)
{
	if (sq_rest_assoc_mapped(a, 40))
		return sq_rest_assoc_unchanged(a, i, &before[i], after, msg, n);
	if (sq_rest_qos_dp(a, after))
		return sq_rest_qos_unchanged(a, &before[i], after, msg, n);
	if (sq_rest_user_mapped(a, 40) || sq_rest_account_mapped(a, 40))
		return sq_rest_acct_unchanged(a, &before[i], after, msg, n);
	return 1;
}

static void
verify_all(struct sq_backend *b, const struct sq_action *a, const char *cluster,
	   const struct sq_rest_state *before, struct sq_result *res)
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
				v = sq_rest_verify(a, &before[i], &after, msg,
						   sizeof(msg));
		}
		if (got == 0 && v == SQ_VERIFY_OK && before != NULL &&
		    !others_unchanged(a, i, before, &after, msg, sizeof(msg)))
			v = SQ_VERIFY_FAILED;
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
	    const struct sq_targets_read *read, struct sq_result *res,
	    struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	const struct sq_rest_read *rd = sq_rest_targets_of(a, read);
	struct sq_rest_reqs r = { NULL, 0, 0 };
	struct sq_rest_state *own = NULL;
	const struct sq_rest_state *before;
	char cl[128], first_err[512] = "";
	const char *cluster = NULL;
	double t0 = sq_util_now_ms();
	size_t i;
	int rc = -1;

	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return sq_rest_submit_act(b, a, res, err);
	if (sq_act_begin(res, a, err) == -1)
		return -1;
	/* the check's read (backend.h) when it was handed over: its
	 * cluster name and targets, else our own */
	if (a->def->kind != SQ_KIND_JOBS &&
	    a->def->kind != SQ_KIND_RESERVATIONS &&
	    a->def->kind != SQ_KIND_NODES &&
	    (cluster = rd != NULL && rd->cluster[0]
			   ? rd->cluster
			   : sq_rest_cluster_name(b, cl, sizeof(cl), err)) ==
		NULL)
		goto out;
	before = rd != NULL ? rd->st : (own = read_first(b, a, cluster, 1));
	if (before == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto out;
	}
	if (sq_rest_action_reqs_before(a, api->slurm, api->slurmdb, cluster,
				       before, &r, err) == -1)
		goto out;
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
	verify_all(b, a, cluster, before, res);
	sq_rest_inverse(a, res, before, res->inverse, sizeof(res->inverse));
	rc = sq_act_summary(res, a, first_err, err);
out:
	states_free(own, a->ntargets);
	sq_rest_reqs_free(&r);
	return sq_act_end(res, rc, err, t0);
}
