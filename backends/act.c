/*
 * act.c - the result of an action as every backend's act() reports it
 * (act.h): the start, the summary line, the end, and a submit's result.
 */
#include <stdio.h>
#include <string.h>

#include "backends/act.h"
#include "core/base/util.h"

int
sq_act_begin(struct sq_result *res, const struct sq_action *a,
	     struct sq_err *err)
{
	sq_result_free(res);
	sq_result_init(res);
	if (sq_result_targets(res, a) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return 0;
}

int
sq_act_summary(struct sq_result *res, const struct sq_action *a,
	       const char *why, struct sq_err *err)
{
	size_t i;

	if (res->nfailed == 0) {
		snprintf(
		    res->message, sizeof(res->message), "%s: %zu of %zu done%s",
		    a->def->name, res->ntargets, res->ntargets,
		    res->targets[0].verified == SQ_VERIFY_OK ? " and verified"
							     : "");
		return 0;
	}
	if (why != NULL && why[0] == '\0')
		why = NULL;
	for (i = 0; why == NULL && i < res->ntargets; i++) {
		if (!res->targets[i].ok)
			why = res->targets[i].message;
	}
	snprintf(res->message, sizeof(res->message),
		 "%s: %zu of %zu failed: %.400s", a->def->name, res->nfailed,
		 res->ntargets, why ? why : "failed");
	return sq_err_set(err, SQ_ERR_COMMAND, "%s", res->message);
}

int
sq_act_end(struct sq_result *res, int rc, const struct sq_err *err, double t0)
{
	if (rc == -1 && res->message[0] == '\0')
		sq_util_copy(res->message, sizeof(res->message),
			     err ? err->msg : "failed");
	res->ms = sq_util_now_ms() - t0;
	return rc;
}

int
sq_act_submitted(struct sq_result *res, const char *id, int verdict,
		 const char *seen, struct sq_err *err)
{
	struct sq_target_result *t = &res->targets[0];

	res->nfailed = 1;
	if (id == NULL) {
		snprintf(res->message, sizeof(res->message),
			 "submit: not submitted: %.900s", err->msg);
		sq_util_copy(t->message, sizeof(t->message), err->msg);
		return -1;
	}
	sq_util_copy(res->created, sizeof(res->created), id);
	snprintf(res->inverse, sizeof(res->inverse), "cancel %s", id);
	t->verified = verdict;
	t->ok = verdict != SQ_VERIFY_FAILED;
	snprintf(t->message, sizeof(t->message), "job %s: %.200s", id, seen);
	if (!t->ok) {
		snprintf(res->message, sizeof(res->message),
			 "submit: job %s submitted but not as asked: %.300s",
			 id, seen);
		return sq_err_set(err, SQ_ERR_COMMAND, "%s", res->message);
	}
	res->nfailed = 0;
	snprintf(res->message, sizeof(res->message),
		 "submit: job %s submitted%s", id,
		 verdict == SQ_VERIFY_OK ? " and verified" : "");
	return 0;
}
