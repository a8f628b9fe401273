/*
 * action.h - requests that change something on the cluster (cancel a job,
 * drain a node, set a limit): the one action table that feeds keys, `:`
 * commands, `?` help, the man page and batch --exec; the command grammar;
 * and the result a backend reports. Values are validated here (see
 * core/base/validate.h) before any backend sees them; nothing here runs
 * anything.
 */
#ifndef SQ_ACTION_H
#define SQ_ACTION_H

#include <stddef.h>

#include "core/base/err.h"
#include "core/model/model.h"

#define SQ_ACTION_MAX_TARGETS 4096
#define SQ_ACTION_MAX_ARGS 32

/* Flags of an action definition */
#define SQ_ACT_MUTATES 0x01   /* changes the cluster (refused read-only) */
#define SQ_ACT_NEEDS_ARG 0x02 /* at least one key=value is required */
#define SQ_ACT_CREATES                                                         \
	0x04 /* targets are new names typed on the line,                       \
		never the cursor row or tagged rows */
#define SQ_ACT_INV_PREV                                                        \
	0x08                  /* inverse = the same action with the values     \
				 read before it ran (update, setlimit ...) */
#define SQ_ACT_NO_TARGET 0x10 /* targets come only from key=value args */
#define SQ_ACT_ANY_VIEW 0x20  /* offered in every view, not only kind's */

/* Job states (squeue's words) an action applies to, as Slurm documents
 * them: scancel acts on jobs not yet finished; scontrol requeue on
 * "running, suspended or finished" batch jobs. */
#define SQ_JS_ACTIVE                                                           \
	"PENDING RUNNING SUSPENDED CONFIGURING COMPLETING REQUEUED "           \
	"REQUEUE_HOLD REQUEUE_FED RESIZING SIGNALING STAGE_OUT STOPPED "       \
	"RESV_DEL_HOLD SPECIAL_EXIT"
#define SQ_JS_REQUEUE                                                          \
	"RUNNING SUSPENDED COMPLETED CANCELLED FAILED TIMEOUT NODE_FAIL "      \
	"PREEMPTED BOOT_FAIL DEADLINE OUT_OF_MEMORY"

/* The state read_targets() gives an account (delaccount): EMPTY when
 * no user has an association in it, else "USERS carol,bob/gpu ..." */
#define SQ_ACCT_EMPTY "EMPTY"
/* ... and a user's association (deluser through slurmrestd, whose DELETE
 * cannot leave out the user's associations in other partitions): ALONE,
 * or "ALSO gpu,high". The CLI narrows with partition= and gives "". */
#define SQ_ASSOC_ALONE "ALONE"

/*
 * The action table:
 * X(enum suffix, name, kind, key, flags, inverse, states, help).
 * name is the `:` command and the --exec verb; kind the view whose rows
 * are the targets (SQ_KIND_JOBS, NODES, ACCOUNTS, ASSOCS, QOS); key the
 * default key in that view (0: none); inverse the action that undoes it
 * (NONE: none; with SQ_ACT_INV_PREV the same action with old values);
 * states the job states it applies to (NULL: any state; delaccount:
 * SQ_ACCT_EMPTY): targets read in another state before the action are
 * skipped, never acted on.
 * Arguments of each action are in sq_action_def.args (core/action/action.c).
 */
#define SQ_ACTIONS(X)                                                          \
	X(JOB_CANCEL, "cancel", JOBS, 'X', SQ_ACT_MUTATES, NONE, SQ_JS_ACTIVE, \
	  "cancel the jobs (scancel)")                                         \
	X(JOB_SIGNAL, "signal", JOBS, 'K', SQ_ACT_MUTATES, NONE,               \
	  "RUNNING SUSPENDED CONFIGURING STOPPED",                             \
	  "send a signal to every step of the jobs, e.g. signal USR1")         \
	X(JOB_HOLD, "hold", JOBS, 'H', SQ_ACT_MUTATES, JOB_RELEASE, "PENDING", \
	  "hold pending jobs (priority 0)")                                    \
	X(JOB_RELEASE, "release", JOBS, 'U', SQ_ACT_MUTATES, JOB_HOLD,         \
	  "PENDING REQUEUE_HOLD SPECIAL_EXIT", "release held jobs")            \
	X(JOB_REQUEUE, "requeue", JOBS, 'Q', SQ_ACT_MUTATES, NONE,             \
	  SQ_JS_REQUEUE, "requeue running jobs")                               \
	X(JOB_REQUEUE_HOLD, "requeuehold", JOBS, 0, SQ_ACT_MUTATES,            \
	  JOB_RELEASE, SQ_JS_REQUEUE, "requeue running jobs and hold them")    \
	X(JOB_SUSPEND, "suspend", JOBS, 'Z', SQ_ACT_MUTATES, JOB_RESUME,       \
	  "RUNNING", "suspend running jobs")                                   \
	X(JOB_RESUME, "resume", JOBS, 'W', SQ_ACT_MUTATES, JOB_SUSPEND,        \
	  "SUSPENDED", "resume suspended jobs")                                \
	X(JOB_UPDATE, "update", JOBS, 'E',                                     \
	  SQ_ACT_MUTATES | SQ_ACT_NEEDS_ARG | SQ_ACT_INV_PREV, JOB_UPDATE,     \
	  NULL,                                                                \
	  "change timelimit=, nice=, priority=, partition=, qos=, account= "   \
	  "or comment=")                                                       \
	X(NODE_DRAIN, "drain", NODES, 'D', SQ_ACT_MUTATES, NODE_RESUME, NULL,  \
	  "drain nodes: no new jobs (reason required)")                        \
	X(NODE_DOWN, "down", NODES, 'O', SQ_ACT_MUTATES, NODE_RESUME, NULL,    \
	  "set nodes DOWN: their jobs are killed (reason required)")           \
	X(NODE_RESUME, "resume", NODES, 'U', SQ_ACT_MUTATES | SQ_ACT_INV_PREV, \
	  NODE_DRAIN, NULL, "return drained or down nodes to service")         \
	X(NODE_REBOOT, "reboot", NODES, 'B', SQ_ACT_MUTATES,                   \
	  NODE_CANCEL_REBOOT, NULL,                                            \
	  "reboot nodes when idle, or asap (drains them first)")               \
	X(NODE_CANCEL_REBOOT, "cancelreboot", NODES, 'X', SQ_ACT_MUTATES,      \
	  NONE, NULL, "cancel a pending reboot")                               \
	X(NODE_REASON, "reason", NODES, 'E', SQ_ACT_MUTATES | SQ_ACT_INV_PREV, \
	  NODE_REASON, NULL, "change the reason of drained or down nodes")     \
	X(ACCT_ADD_ACCOUNT, "addaccount", ACCOUNTS, 'A',                       \
	  SQ_ACT_MUTATES | SQ_ACT_CREATES, ACCT_DELETE_ACCOUNT, NULL,          \
	  "add accounts: parent=, description=, organization=, fairshare=")    \
	X(ACCT_MODIFY_ACCOUNT, "modaccount", ACCOUNTS, 'E',                    \
	  SQ_ACT_MUTATES | SQ_ACT_NEEDS_ARG | SQ_ACT_INV_PREV,                 \
	  ACCT_MODIFY_ACCOUNT, NULL,                                           \
	  "change parent=, description=, organization= or fairshare=")         \
	X(ACCT_DELETE_ACCOUNT, "delaccount", ACCOUNTS, 'D', SQ_ACT_MUTATES,    \
	  ACCT_ADD_ACCOUNT, SQ_ACCT_EMPTY,                                     \
	  "delete accounts (they must have no users)")                         \
	X(ACCT_ADD_COORD, "addcoord", ACCOUNTS, 0, SQ_ACT_MUTATES,             \
	  ACCT_DEL_COORD, NULL, "make user= a coordinator of the accounts")    \
	X(ACCT_DEL_COORD, "delcoord", ACCOUNTS, 0, SQ_ACT_MUTATES,             \
	  ACCT_ADD_COORD, NULL, "remove user= as coordinator of the accounts") \
	X(ACCT_ADD_USER, "adduser", ASSOCS, 'A',                               \
	  SQ_ACT_MUTATES | SQ_ACT_CREATES, ACCT_REMOVE_USER, NULL,             \
	  "add users to account= (partition=, defaultaccount=)")               \
	X(ACCT_REMOVE_USER, "deluser", ASSOCS, 'D', SQ_ACT_MUTATES,            \
	  ACCT_ADD_USER, SQ_ASSOC_ALONE, "remove users' associations")         \
	X(ACCT_MODIFY_USER, "moduser", USERS, 'E',                             \
	  SQ_ACT_MUTATES | SQ_ACT_NEEDS_ARG | SQ_ACT_INV_PREV,                 \
	  ACCT_MODIFY_USER, NULL,                                              \
	  "change users' defaultaccount=, defaultqos=, adminlevel= or "        \
	  "defaultwckey=")                                                     \
	X(ACCT_SET_LIMIT, "setlimit", ASSOCS, 'E',                             \
	  SQ_ACT_MUTATES | SQ_ACT_NEEDS_ARG | SQ_ACT_INV_PREV, ACCT_SET_LIMIT, \
	  NULL,                                                                \
	  "set association limits: grptres= grpjobs= grpsubmit= maxjobs= "     \
	  "maxsubmit= maxtres= maxwall= qos= defaultqos= fairshare=")          \
	X(ACCT_CLEAR_LIMIT, "clearlimit", ASSOCS, 0,                           \
	  SQ_ACT_MUTATES | SQ_ACT_NO_TARGET | SQ_ACT_INV_PREV, ACCT_SET_LIMIT, \
	  NULL, "clear association limits by name, e.g. clearlimit maxjobs")   \
	X(QOS_SET, "setqos", QOS, 'E',                                         \
	  SQ_ACT_MUTATES | SQ_ACT_NEEDS_ARG | SQ_ACT_INV_PREV, QOS_SET, NULL,  \
	  "set QOS priority= and limits (also modqos)")                        \
	X(QOS_ADD, "addqos", QOS, 'A', SQ_ACT_MUTATES | SQ_ACT_CREATES,        \
	  QOS_DELETE, NULL, "add QOS with priority=, preempt= and limits")     \
	X(QOS_DELETE, "delqos", QOS, 'D', SQ_ACT_MUTATES, QOS_ADD, NULL,       \
	  "delete QOS (undo re-creates them with their settings)")             \
	X(JOB_SUBMIT, "submit", JOBS, 0,                                       \
	  SQ_ACT_MUTATES | SQ_ACT_CREATES | SQ_ACT_NO_TARGET |                 \
	      SQ_ACT_ANY_VIEW,                                                 \
	  JOB_CANCEL, NULL,                                                    \
	  "submit a batch script FILE with sbatch options (-p, -t, -J ...)")   \
	X(RESV_CREATE, "reserve", RESERVATIONS, 'A',                           \
	  SQ_ACT_MUTATES | SQ_ACT_CREATES, RESV_DELETE, NULL,                  \
	  "create a reservation: start= duration=|end= nodes=|partition= "     \
	  "users=|accounts= flags=")                                           \
	X(RESV_UPDATE, "reserve-update", RESERVATIONS, 'E',                    \
	  SQ_ACT_MUTATES | SQ_ACT_NEEDS_ARG | SQ_ACT_INV_PREV, RESV_UPDATE,    \
	  NULL,                                                                \
	  "change a reservation's start=, end=, duration=, nodes=, "           \
	  "users= or accounts=")                                               \
	X(RESV_DELETE, "reserve-delete", RESERVATIONS, 'D', SQ_ACT_MUTATES,    \
	  RESV_CREATE, NULL, "delete reservations")                            \
	X(RUNAWAY_FIX, "fix-runaway", RUNAWAY, 'F', SQ_ACT_MUTATES, NONE,      \
	  NULL,                                                                \
	  "fix runaway jobs in accounting: end time set, state COMPLETED "     \
	  "(sacctmgr fixes all at once; no undo)")

enum sq_action_type {
	SQ_ACTION_NONE = -1,
#define SQ_ACTION_ENUM(e, n, k, key, f, inv, st, h) SQ_ACTION_##e,
	SQ_ACTIONS(SQ_ACTION_ENUM)
#undef SQ_ACTION_ENUM
	    SQ_ACTION_COUNT
};

/* How a value is checked (core/base/validate.h) before it may reach argv. */
enum sq_arg_type {
	SQ_ARG_NAME,      /* ^[A-Za-z0-9_][A-Za-z0-9_.-]*$ */
	SQ_ARG_NAMELIST,  /* names joined by ',' */
	SQ_ARG_TEXT,      /* free text: no quotes, \, !, `, $, controls */
	SQ_ARG_NUMBER,    /* 0..n, or -1 to clear */
	SQ_ARG_INT,       /* signed (nice) */
	SQ_ARG_DURATION,  /* minutes or [D-]HH:MM:SS, -1 / UNLIMITED */
	SQ_ARG_TRES,      /* cpu=8,gres/gpu=2, or -1 */
	SQ_ARG_SIGNAL,    /* HUP, USR1, SIGTERM, 15 ... re-printed */
	SQ_ARG_FLAG,      /* a bare word equal to the key, e.g. asap */
	SQ_ARG_ENUM,      /* one of sq_arg_spec.choices */
	SQ_ARG_FAIRSHARE, /* a number or "parent" */
	SQ_ARG_LIMITNAME, /* a key of the setlimit table (clearlimit) */
	SQ_ARG_SBATCH,    /* an sbatch option value (core/action/submit.h) */
	SQ_ARG_RESVTIME,  /* now, now+N[minutes|hours|days],
			     YYYY-MM-DDTHH:MM[:SS] */
	SQ_ARG_RESVFLAGS, /* reservation flags: MAINT,IGNORE_JOBS
			   * (core/action/resv.h)
			   */
	SQ_ARG_RESVFLAGS_CHANGE, /* +MAINT,-IGNORE_JOBS (reserve-update) */
	SQ_ARG_NODELIST,         /* a host list: n1,gpu[01-04], or ALL */
	SQ_ARG_DECIMAL,          /* 0 or more, up to 6 decimals: 1.5 */
	SQ_ARG_SECONDS,          /* whole seconds (a QOS grace time) */
};

#define SQ_ARGF_REQUIRED 0x1 /* must be given */
#define SQ_ARGF_REST 0x2     /* bare words after the targets fill it */
#define SQ_ARGF_CLEAR 0x4    /* -1 clears the limit */

struct sq_arg_spec {
	const char *key;   /* as typed, lower case: "timelimit" */
	const char *slurm; /* the word on the Slurm command line */
	enum sq_arg_type type;
	unsigned flags;      /* SQ_ARGF_* */
	const char *choices; /* SQ_ARG_ENUM: "resume|down" */
	const char *help;
};

struct sq_action_def {
	enum sq_action_type type;
	const char *name;
	enum sq_kind kind;
	int key; /* default key, 0 none */
	unsigned flags;
	enum sq_action_type inverse;
	const char *states; /* job states it applies to, NULL: any */
	const char *help;
	const struct sq_arg_spec *args;
	size_t nargs;
	const char *usage; /* e.g. "drain NODE... reason=TEXT" */
};

/*
 * One request. Built by sq_action_parse() or sq_action_init() + _add_*;
 * then every target and value has passed its validator and job ids are
 * re-printed canonically. Strings are owned by the action
 * (sq_action_free()); backends only read it.
 *
 * Targets by kind: JOBS job ids ("123", "12_4"), NODES node names,
 * SUBMIT one script path (absolute; the script itself is read by the
 * parser into script, see core/action/submit.h),
 * ACCOUNTS account names, QOS QOS names, ASSOCS associations written
 * "ACCOUNT", "ACCOUNT/USER" or "ACCOUNT/USER/PARTITION".
 */
struct sq_action {
	enum sq_action_type type;
	const struct sq_action_def *def;
	const char *const *targets;
	size_t ntargets;
	/* key=value arguments, key canonical as in the spec, e.g.
	 * "reason=maintenance", "timelimit=60"; flags as "asap=yes" */
	const char *args[SQ_ACTION_MAX_ARGS];
	size_t nargs;
	/* submit: the batch script as read on the client (NULL otherwise),
	 * its length and SHA-256 (hex); owned by the action */
	char *script;
	size_t script_len;
	char script_sha256[65];
	/* private storage */
	char **tv_;
	size_t tcap_;
	char *av_[SQ_ACTION_MAX_ARGS];
};

/* Outcome of one target. */
enum sq_verify {
	SQ_VERIFY_UNCHECKED = -1, /* the effect cannot be seen (signal) */
	SQ_VERIFY_FAILED = 0,     /* re-read: the effect is not there */
	SQ_VERIFY_OK = 1,         /* re-read: the effect is there */
};

struct sq_target_result {
	char target[160];
	int ok;       /* 1: accepted and (if checkable) verified */
	int verified; /* enum sq_verify */
	char message[256];
};

/*
 * What a backend's act() reports. act() fills every field; the caller
 * owns the struct and frees it with sq_result_free().
 */
struct sq_result {
	int status;         /* exit status or HTTP status of the last call */
	char message[1024]; /* what the cluster said, one line */
	double ms;          /* duration, including the verification */
	size_t ntargets;
	size_t nfailed;                   /* targets with ok == 0 */
	struct sq_target_result *targets; /* ntargets entries, malloc'd */
	char inverse[1024]; /* a command line (this grammar) that undoes it,
			       "" when there is none */
	char created[64];   /* what it created: submit's new job id, "" */
};

/*
 * A target as read before an action (backend read_targets(), the same
 * for every backend): found 0 when the cluster does not know it, state
 * its job state ("RUNNING") or node state ("IDLE+DRAIN"), "" unknown.
 */
struct sq_target_state {
	int found;
	char state[48];
};

void sq_result_init(struct sq_result *r);
void sq_result_free(struct sq_result *r);
/* Allocate n target entries named after a->targets; -1 on ENOMEM. */
int sq_result_targets(struct sq_result *r, const struct sq_action *a);

/* --- the table ---------------------------------------------------------- */

const struct sq_action_def *sq_action_def(enum sq_action_type type);
/* The action of a name or alias ("delete", "noderesume") in a view kind
 * (-1: any; an ambiguous name then gives the first); NULL when unknown. */
const struct sq_action_def *sq_action_find(const char *name, int kind);
/* Spec of a key of an action, or NULL. */
const struct sq_arg_spec *sq_action_arg_spec(const struct sq_action_def *d,
					     const char *key);
/* The action bound to key in a view kind, or NULL. */
const struct sq_action_def *sq_action_for_key(int kind, int key);
/* The kinds (SQ_KIND_BIT mask) an action on rows of kind changes, to
 * fetch again after it: a node action the nodes and what is made of them
 * (partitions, node sets, GPUs); a job action also the queue and the
 * priorities; any other its own kind. */
unsigned sq_action_touched_kinds(int kind);

/* --- building and parsing --------------------------------------------- */

void sq_action_init(struct sq_action *a, enum sq_action_type type);
void sq_action_free(struct sq_action *a);
/* Validate (job ids re-printed) and append one target. */
int sq_action_add_target(struct sq_action *a, const char *target,
			 struct sq_err *err);
/* Validate and set key=value (replacing an earlier value of key). */
int sq_action_set_arg(struct sq_action *a, const char *key, const char *value,
		      struct sq_err *err);
/* Final checks: targets present, required args, at least one arg. */
int sq_action_check(const struct sq_action *a, struct sq_err *err);
/* Value of key, or NULL. */
const char *sq_action_arg(const struct sq_action *a, const char *key);
/* Argument arg ("key=value") split: its key into key (n bytes); its
 * value, or NULL when the key does not fit or there is no '='. */
const char *sq_action_arg_split(const char *arg, char *key, size_t n);

/*
 * Parse a command line of the shared grammar (`:` prompt, --exec):
 *
 *   VERB [WORD | KEY=VALUE]...
 *
 * VALUE may be "double" or 'single' quoted; a TEXT key not quoted takes
 * the rest of the line (`drain n2 reason=disk full`). Bare WORDs are
 * targets, unless targets are given (the TUI's tagged or cursor rows):
 * then they fill the action's rest argument (`:signal USR1`, `:drain disk
 * full`). FLAG keys are bare words (`reboot n2 asap`). For ASSOCS,
 * account=, user= and partition= name the association; a bare word is a
 * user of account= when that is given (`adduser bob account=chemistry`),
 * else ACCOUNT[/USER[/PARTITION]] (`setlimit chemistry grpjobs=5`).
 * view_kind (-1:
 * none) picks between actions of the same name (jobs or nodes resume).
 * On success *a is initialised and must be freed with sq_action_free().
 */
int sq_action_parse(const char *line, int view_kind, const char *const *targets,
		    size_t ntargets, struct sq_action *a, struct sq_err *err);

/*
 * sq_action_parse() with the reason templates of the configuration
 * (struct sq_conf.reasons, core/action/reason.h): a reason= value written @NAME
 * is the template's text, @@... is a literal "@...", and an unknown @NAME
 * is an error naming it and the defined names. The action holds the text,
 * so describe(), act() and the audit log see the text, never @NAME.
 * sq_action_parse() is this with reasons NULL (none defined).
 */
struct sq_reasons;
int sq_action_parse_with(const char *line, int view_kind,
			 const char *const *targets, size_t ntargets,
			 const struct sq_reasons *reasons, struct sq_action *a,
			 struct sq_err *err);

/* Write the action back as a command line of the grammar (inverse,
 * audit); a reason that starts with '@' is written @@ so that it parses
 * back as itself. Returns 0, or -1 when it does not fit. */
int sq_action_format(const struct sq_action *a, char *buf, size_t n);

/* Whether value v of spec s of action d is within what Slurm stores
 * (limits through sacctmgr up to INT_MAX, a job's 32-bit numbers,
 * 64-bit TRES counts, minutes); -1 with a message naming the range. */
int sq_action_value_range(const struct sq_action_def *d,
			  const struct sq_arg_spec *s, const char *v,
			  struct sq_err *err);
/* Fold the first n bytes of s to lower case (account and user names, as
 * sacctmgr stores them). */
void sq_action_fold(char *s, size_t n);

/* Split an ASSOCS target into its parts (bufs of 129 bytes each). */
int sq_action_assoc_split(const char *target, char *account, char *user,
			  char *partition);

#endif
