/*
 * action_verdict.h - what an action on a job or a node means, once for
 * every backend: per action type the target states in which it applies
 * (sq_action_def.states), the states that mean it is done, and its
 * inverse (sq_action_def.inverse), and the one verdict on a target read
 * back. Backends only read the target into a struct sq_target_rec
 * (normalized: the words squeue and scontrol print) and call
 * sq_action_verdict(); the text it writes is the same on every backend.
 */
#ifndef SQ_ACTION_VERDICT_H
#define SQ_ACTION_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "core/action/action.h"

/* Job states in which a job has ended (or is ending): a cancel on a job
 * in one of them took effect. */
#define SQ_JS_ENDED                                                            \
	"CANCELLED COMPLETING COMPLETED FAILED TIMEOUT NODE_FAIL PREEMPTED "   \
	"BOOT_FAIL DEADLINE OUT_OF_MEMORY"

/* A job or node as a backend read it back, in squeue's and scontrol's
 * words whatever the source (squeue -O, scontrol -o, slurmrestd JSON). */
struct sq_target_rec {
	int found; /* 0: Slurm says there is no such job or node */
	/* JOBS: the job state word ("PENDING"); NODES: the state and its
	 * flags joined by '+' ("IDLE+DRAIN", "DOWN+NOT_RESPONDING") */
	char state[128];
	char reason[256]; /* job Reason / node Reason (without [user@time]) */
	int64_t priority; /* -1 when not read */
	int64_t restarts; /* -1 when not read */
	/* JOB_UPDATE: 1 every value set shows, 0 one does not (mismatch
	 * says which), -1 not compared */
	int args_ok;
	char mismatch[256];
};

/* The verdict on one target. */
enum sq_verdict {
	SQ_VERDICT_UNSEEN = -1, /* the effect cannot be seen (signal) */
	SQ_VERDICT_NOT_YET = 0, /* the effect is not there (yet) */
	SQ_VERDICT_DONE = 1,    /* the effect is there */
	SQ_VERDICT_REFUSED = 2, /* not done, and the state before was one
				   the action does not apply to */
};

/* A record with nothing read: found 0, numbers -1. */
void sq_target_rec_init(struct sq_target_rec *r);

/* 1 when the core decides the verdict of t's actions (jobs and nodes but
 * submit); other kinds are still verified by their backend. */
int sq_action_has_verdict(enum sq_action_type t);

/* The space-separated states that mean t is done ("" for a test that is
 * not a state: priority, restarts, reason, values), NULL for none. */
const char *sq_action_done_states(enum sq_action_type t);

/* The verdict of a on a target read back (after), given what was read
 * before it ran (NULL when not read); msg says what was seen, the same
 * words for every backend. */
enum sq_verdict sq_action_verdict(const struct sq_action *a,
				  const struct sq_target_rec *before,
				  const struct sq_target_rec *after, char *msg,
				  size_t n);

/* v, with msg (n bytes) printed from fmt: a verdict and its words. */
enum sq_verdict sq_verdict_say(enum sq_verdict v, char *msg, size_t n,
			       const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The verdict as a target result's enum sq_verify (refused: failed). */
int sq_verdict_verify(enum sq_verdict v);

#endif
