/*
 * action.h - a request to change something on the cluster (cancel a job,
 * drain a node, set a limit), as built by the UI or batch mode and handed
 * to a backend's describe() and act(). Values are validated before a
 * backend sees them (see core/validate.h).
 */
#ifndef SQ_ACTION_H
#define SQ_ACTION_H

#include <stddef.h>

#define SQ_ACTION_MAX_TARGETS 4096
#define SQ_ACTION_MAX_ARGS 16

/* X(enum suffix, name, mutating) */
#define SQ_ACTIONS(X)                                                          \
	X(JOB_CANCEL, "cancel")                                                \
	X(JOB_SIGNAL, "signal")                                                \
	X(JOB_HOLD, "hold")                                                    \
	X(JOB_RELEASE, "release")                                              \
	X(JOB_REQUEUE, "requeue")                                              \
	X(JOB_REQUEUE_HOLD, "requeuehold")                                     \
	X(JOB_SUSPEND, "suspend")                                              \
	X(JOB_RESUME, "resume")                                                \
	X(JOB_UPDATE, "update")                                                \
	X(NODE_DRAIN, "drain")                                                 \
	X(NODE_DOWN, "down")                                                   \
	X(NODE_RESUME, "noderesume")                                           \
	X(NODE_REBOOT, "reboot")                                               \
	X(NODE_REASON, "reason")                                               \
	X(ACCT_ADD_ACCOUNT, "addaccount")                                      \
	X(ACCT_MODIFY_ACCOUNT, "modaccount")                                   \
	X(ACCT_DELETE_ACCOUNT, "delaccount")                                   \
	X(ACCT_ADD_USER, "adduser")                                            \
	X(ACCT_REMOVE_USER, "deluser")                                         \
	X(ACCT_SET_LIMIT, "setlimit")                                          \
	X(ACCT_CLEAR_LIMIT, "clearlimit")                                      \
	X(QOS_SET, "setqos")

enum sq_action_type {
#define SQ_ACTION_ENUM(e, n) SQ_ACTION_##e,
	SQ_ACTIONS(SQ_ACTION_ENUM)
#undef SQ_ACTION_ENUM
	    SQ_ACTION_COUNT
};

struct sq_action {
	enum sq_action_type type;
	const char *const *targets; /* job ids, node names, account names */
	size_t ntargets;
	/* key=value arguments, e.g. "reason=maintenance", "timelimit=60" */
	const char *args[SQ_ACTION_MAX_ARGS];
	size_t nargs;
};

struct sq_result {
	int status;         /* exit status or HTTP status */
	char message[1024]; /* what the cluster said, one line */
	double ms;          /* duration */
};

const char *sq_action_name(enum sq_action_type type);
int sq_action_from_name(const char *name);

#endif
