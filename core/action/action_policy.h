/*
 * action_policy.h - what may run: read-only mode refuses every mutating
 * action where actions are dispatched (and hides it from keys, `:`
 * completion and help), and a bulk action over SQ_ACTION_BULK_THRESHOLD
 * targets needs its target count typed back; the job states an action
 * applies to, and the action on the targets that remain.
 */
#ifndef SQ_ACTION_POLICY_H
#define SQ_ACTION_POLICY_H

#include <stddef.h>

#include "core/action/action.h"
#include "core/base/err.h"

#define SQ_ACTION_BULK_THRESHOLD 10

/* The re-read that verifies an action, the same for every backend: up to
 * SQ_VERIFY_TRIES reads while an effect is not yet seen, read k (from 0)
 * after sq_action_verify_wait_ms(k) (a requeue passes through
 * COMPLETING, a hold through the controller's next save). */
#define SQ_VERIFY_TRIES 4
long sq_action_verify_wait_ms(int k);
/* Sleep that long. */
void sq_action_verify_wait(int k);

/* The one read-only gate: -1 (SQ_ERR_DENIED, "read-only: NAME refused
 * (this session or cluster is read-only)" in err) when readonly and d
 * changes the cluster; d NULL names a command that does (undo), by name
 * (else name is d's). 0 when it may go on. */
int sq_action_readonly_check(const struct sq_action_def *d, const char *name,
			     int readonly, struct sq_err *err);

/* 0 when a may run; -1 (SQ_ERR_DENIED, reason in err) when refused. */
int sq_action_policy_check(const struct sq_action *a, int readonly,
			   struct sq_err *err);

/* Whether an action is offered at all (keys, completion, help). */
int sq_action_visible(const struct sq_action_def *d, int readonly);

/* 1 when the count must be typed to confirm a. */
int sq_action_needs_count(const struct sq_action *a);

/* 1 when typed is exactly the number of targets (spaces around allowed). */
int sq_action_count_confirmed(const struct sq_action *a, const char *typed);

/* 1 for "y"/"Y"/"yes": the only answers that confirm; Enter, n and
 * anything else mean No. */
int sq_action_answer_yes(const char *answer);

/* 1 when a target in state (a job state word, "" unknown) may be acted
 * on by d: d declares no states, the state is unknown, or it is one of
 * d->states. */
int sq_action_applies(const struct sq_action_def *d, const char *state);

/* 1 when the first word of state ("PENDING" of "PENDING+X" or of
 * "CANCELLED by 0") is one of the space-separated words of list. */
int sq_action_state_in(const char *list, const char *state);

/* What d->states says in words for a skipped target: "PENDING jobs". */
void sq_action_states_text(const struct sq_action_def *d, char *buf, size_t n);

/* A new action *out of a's type and arguments on the targets i of a with
 * keep[i] != 0 (validated again). -1 with err on failure. */
int sq_action_subset(const struct sq_action *a, const unsigned char *keep,
		     struct sq_action *out, struct sq_err *err);

#endif
