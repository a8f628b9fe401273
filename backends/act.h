/*
 * act.h - what every backend's act() shares once its own commands or
 * requests have run: the result it starts from, the summary line from
 * the per-target verdicts, and the result of a submit. session/exec.c
 * runs the pipeline around act() (policy, preview, audit, the read
 * before); a backend builds and runs its own steps (backends/cli/
 * actions.c argv templates, backends/rest/actions.c request table) and
 * reports through these. Nothing here prints or reaches the cluster.
 */
#ifndef SQ_ACT_H
#define SQ_ACT_H

#include "core/action/action.h"
#include "core/base/err.h"

/* res emptied and given one entry per target of a; -1 (out of memory,
 * err set) when it cannot be. */
int sq_act_begin(struct sq_result *res, const struct sq_action *a,
		 struct sq_err *err);

/*
 * The summary of a once every target of res has ok and verified: 0 with
 * "NAME: N of N done[ and verified]", or -1 with "NAME: K of N failed:
 * WHY" as res->message and err (SQ_ERR_COMMAND). why is what the
 * cluster said first (NULL or "": the first failed target's message).
 */
int sq_act_summary(struct sq_result *res, const struct sq_action *a,
		   const char *why, struct sq_err *err);

/* The end of act(): a failed one (rc -1) without a message gets err's;
 * res->ms is the time since t0 (sq_util_now_ms()). Returns rc. */
int sq_act_end(struct sq_result *res, int rc, const struct sq_err *err,
	       double t0);

/*
 * The result of a submit: id NULL when nothing was submitted ("submit:
 * not submitted: " and err's words, -1); else the new job id, the
 * verdict of reading it back (enum sq_verify) and what was seen there:
 * res->created, the inverse "cancel ID", the target's verdict and
 * message, 0 when it is as asked (-1 with err when it is not).
 */
int sq_act_submitted(struct sq_result *res, const char *id, int verdict,
		     const char *seen, struct sq_err *err);

#endif
