/*
 * action.c - the action table (names, kinds, keys, arguments, usages,
 * inverses) and its lookups, an action's and a result's life (init, free).
 * Adding targets and argument values, each validated, is action_build.c;
 * the command grammar is action_parse.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/limit_keys.h"
#include "core/action/submit_opts.h"

#define END                                                                    \
	{                                                                      \
		NULL, NULL, 0, 0, NULL, NULL                                   \
	}
#define CLR SQ_ARGF_CLEAR

static const struct sq_arg_spec args_JOB_CANCEL[] = { END };
static const struct sq_arg_spec args_JOB_SIGNAL[] = {
	{ "sig", "--signal", SQ_ARG_SIGNAL, SQ_ARGF_REQUIRED | SQ_ARGF_REST,
	  NULL, "signal name or number: USR1, TERM, 10" },
	END
};
static const struct sq_arg_spec args_JOB_HOLD[] = { END };
static const struct sq_arg_spec args_JOB_RELEASE[] = { END };
static const struct sq_arg_spec args_JOB_REQUEUE[] = { END };
static const struct sq_arg_spec args_JOB_REQUEUE_HOLD[] = { END };
static const struct sq_arg_spec args_JOB_SUSPEND[] = { END };
static const struct sq_arg_spec args_JOB_RESUME[] = { END };
static const struct sq_arg_spec args_JOB_UPDATE[] = {
	{ "timelimit", "timelimit", SQ_ARG_DURATION, 0, NULL,
	  "minutes or [D-]HH:MM:SS" },
	{ "nice", "nice", SQ_ARG_INT, 0, NULL, "nice value (negative: admin)" },
	{ "priority", "priority", SQ_ARG_NUMBER, 0, NULL,
	  "fixed priority (admin)" },
	{ "partition", "partition", SQ_ARG_NAME, 0, NULL, "partition" },
	{ "qos", "qos", SQ_ARG_NAME, 0, NULL, "QOS" },
	{ "account", "account", SQ_ARG_NAME, 0, NULL, "account" },
	{ "comment", "comment", SQ_ARG_TEXT, 0, NULL, "comment" },
	END
};
static const struct sq_arg_spec args_NODE_DRAIN[] = {
	{ "reason", "reason", SQ_ARG_TEXT, SQ_ARGF_REQUIRED | SQ_ARGF_REST,
	  NULL, "why (shown by sinfo -R)" },
	END
};
static const struct sq_arg_spec args_NODE_DOWN[] = {
	{ "reason", "reason", SQ_ARG_TEXT, SQ_ARGF_REQUIRED | SQ_ARGF_REST,
	  NULL, "why (shown by sinfo -R)" },
	END
};
static const struct sq_arg_spec args_NODE_RESUME[] = { END };
static const struct sq_arg_spec args_NODE_REBOOT[] = {
	{ "asap", "ASAP", SQ_ARG_FLAG, 0, NULL,
	  "drain now and reboot as soon as the node is idle" },
	{ "nextstate", "nextstate", SQ_ARG_ENUM, 0, "resume|down",
	  "state after the reboot" },
	{ "reason", "reason", SQ_ARG_TEXT, SQ_ARGF_REST, NULL, "why" },
	END
};
static const struct sq_arg_spec args_NODE_CANCEL_REBOOT[] = { END };
static const struct sq_arg_spec args_NODE_REASON[] = {
	{ "reason", "reason", SQ_ARG_TEXT, SQ_ARGF_REQUIRED | SQ_ARGF_REST,
	  NULL, "the new reason" },
	END
};
#define ACCOUNT_ARGS                                                               \
	{ "parent", "parent", SQ_ARG_NAME, 0, NULL, "parent account" },            \
	    { "description", "description", SQ_ARG_TEXT, 0, NULL, "description" }, \
	    { "organization", "organization", SQ_ARG_TEXT, 0,                      \
	      NULL,           "organization" },                                    \
	{                                                                          \
		"fairshare", "fairshare", SQ_ARG_FAIRSHARE, 0, NULL,               \
		    "shares: a number or parent"                                   \
	}
static const struct sq_arg_spec args_ACCT_ADD_ACCOUNT[] = { ACCOUNT_ARGS, END };
static const struct sq_arg_spec args_ACCT_MODIFY_ACCOUNT[] = { ACCOUNT_ARGS,
							       END };
static const struct sq_arg_spec args_ACCT_DELETE_ACCOUNT[] = { END };
static const struct sq_arg_spec args_ACCT_ADD_COORD[] = {
	{ "user", "names", SQ_ARG_NAMELIST, SQ_ARGF_REQUIRED, NULL,
	  "users (comma-separated)" },
	END
};
static const struct sq_arg_spec args_ACCT_DEL_COORD[] = {
	{ "user", "names", SQ_ARG_NAMELIST, SQ_ARGF_REQUIRED, NULL,
	  "users (comma-separated)" },
	END
};
/* association and QOS limits: the vocabulary of core/action/limit_keys.h (the
 * setlimit and adduser keys of an association; deluser's undo re-creates
 * an association with them) */
#define LIMIT_SPEC_A(k, t, f, wa, wq, ca, cq, rest, ch, h)                     \
	{ k, wa, SQ_ARG_##t, f, ch, h },
#define LIMIT_SPEC_Q(k, t, f, wa, wq, ca, cq, rest, ch, h)                     \
	{ k, wq, SQ_ARG_##t, f, ch, h },
#define LIMIT_ARGS SQ_LIMITS_BOTH(LIMIT_SPEC_A) SQ_LIMITS_ASSOC(LIMIT_SPEC_A)
#define QOS_ARGS SQ_LIMITS_BOTH(LIMIT_SPEC_Q) SQ_LIMITS_QOS(LIMIT_SPEC_Q)
static const struct sq_arg_spec args_ACCT_ADD_USER[] = {
	{ "defaultaccount", "defaultaccount", SQ_ARG_NAME, 0, NULL,
	  "the user's default account" },
	LIMIT_ARGS END
};
static const struct sq_arg_spec args_ACCT_REMOVE_USER[] = { END };
/* moduser: the keys sacctmgr's modify user takes on the user (default
 * QOS it sets on every association of the user) */
static const struct sq_arg_spec args_ACCT_MODIFY_USER[] = {
	{ "defaultaccount", "defaultaccount", SQ_ARG_NAME, 0, NULL,
	  "default account (one the user has an association in)" },
	{ "defaultqos", "defaultqos", SQ_ARG_NAME, CLR, NULL,
	  "default QOS of every association of the user (-1 clears)" },
	{ "adminlevel", "adminlevel", SQ_ARG_ENUM, 0,
	  "none|operator|administrator", "None, Operator or Administrator" },
	{ "defaultwckey", "defaultwckey", SQ_ARG_NAME, 0, NULL,
	  "default WCKey" },
	END
};
static const struct sq_arg_spec args_ACCT_SET_LIMIT[] = { LIMIT_ARGS END };
static const struct sq_arg_spec args_ACCT_CLEAR_LIMIT[] = {
	{ "limits", "", SQ_ARG_LIMITNAME, SQ_ARGF_REQUIRED | SQ_ARGF_REST, NULL,
	  "limit names: grptres grpjobs grpsubmit maxjobs maxsubmit "
	  "maxtres maxwall" },
	END
};
static const struct sq_arg_spec args_QOS_SET[] = { QOS_ARGS END };
static const struct sq_arg_spec args_QOS_ADD[] = {
	QOS_ARGS{ "description", "description", SQ_ARG_TEXT, 0, NULL,
		  "description (sacctmgr's default: the name)" },
	END
};
static const struct sq_arg_spec args_QOS_DELETE[] = { END };

#define RESV_WHERE                                                             \
	{                                                                      \
		"nodes", "Nodes", SQ_ARG_NODELIST,                             \
		0,       NULL,    "nodes: n[1-2] or ALL"                       \
	},                                                                     \
	    { "partition", "PartitionName",                                    \
	      SQ_ARG_NAME, 0,                                                  \
	      NULL,        "partition (its nodes, without nodes=)" },          \
	    { "users", "Users", SQ_ARG_NAMELIST, 0, NULL, "users allowed" },   \
	{                                                                      \
		"accounts", "Accounts", SQ_ARG_NAMELIST, 0, NULL,              \
		    "accounts allowed"                                         \
	}
static const struct sq_arg_spec args_RESV_CREATE[] = {
	{ "start", "StartTime", SQ_ARG_RESVTIME, SQ_ARGF_REQUIRED, NULL,
	  "now, now+N[minutes|hours|days], YYYY-MM-DD[THH:MM[:SS]]" },
	{ "duration", "Duration", SQ_ARG_DURATION, 0, NULL,
	  "minutes, [D-]HH:MM:SS or UNLIMITED" },
	{ "end", "EndTime", SQ_ARG_RESVTIME, 0, NULL, "end time" },
	RESV_WHERE,
	{ "flags", "Flags", SQ_ARG_RESVFLAGS, 0, NULL,
	  "MAINT, IGNORE_JOBS, OVERLAP, FLEX, DAILY ..." },
	END
};
static const struct sq_arg_spec args_RESV_UPDATE[] = {
	{ "start", "StartTime", SQ_ARG_RESVTIME, 0, NULL, "new start" },
	{ "duration", "Duration", SQ_ARG_DURATION, 0, NULL, "new duration" },
	{ "end", "EndTime", SQ_ARG_RESVTIME, 0, NULL, "new end" },
	RESV_WHERE,
	{ "flags", "Flags", SQ_ARG_RESVFLAGS_CHANGE, 0, NULL,
	  "+MAINT,-IGNORE_JOBS: flags added (+) or taken away (-)" },
	END
};
static const struct sq_arg_spec args_RESV_DELETE[] = { END };
static const struct sq_arg_spec args_RUNAWAY_FIX[] = { END };

#define SUBMIT_SPEC(l, n, t, c, h) { n, "--" n, t, 0, c, h },
static const struct sq_arg_spec args_JOB_SUBMIT[] = { SQ_SUBMIT_OPTIONS(
    SUBMIT_SPEC) END };
#undef SUBMIT_SPEC

static const char usage_JOB_CANCEL[] = "cancel JOBID...";
static const char usage_JOB_SIGNAL[] = "signal JOBID... sig=SIGNAL";
static const char usage_JOB_HOLD[] = "hold JOBID...";
static const char usage_JOB_RELEASE[] = "release JOBID...";
static const char usage_JOB_REQUEUE[] = "requeue JOBID...";
static const char usage_JOB_REQUEUE_HOLD[] = "requeuehold JOBID...";
static const char usage_JOB_SUSPEND[] = "suspend JOBID...";
static const char usage_JOB_RESUME[] = "resume JOBID...";
static const char usage_JOB_UPDATE[] =
    "update JOBID... timelimit=|nice=|priority=|partition=|qos=|account=|"
    "comment=";
static const char usage_NODE_DRAIN[] = "drain NODE... reason=TEXT";
static const char usage_NODE_DOWN[] = "down NODE... reason=TEXT";
static const char usage_NODE_RESUME[] = "resume NODE...";
static const char usage_NODE_REBOOT[] =
    "reboot NODE... [asap] [nextstate=resume|down] [reason=TEXT]";
static const char usage_NODE_CANCEL_REBOOT[] = "cancelreboot NODE...";
static const char usage_NODE_REASON[] = "reason NODE... reason=TEXT";
static const char usage_ACCT_ADD_ACCOUNT[] =
    "addaccount NAME... [parent=] [description=] [organization=] "
    "[fairshare=]";
static const char usage_ACCT_MODIFY_ACCOUNT[] =
    "modaccount NAME... parent=|description=|organization=|fairshare=";
static const char usage_ACCT_DELETE_ACCOUNT[] = "delaccount NAME...";
static const char usage_ACCT_ADD_COORD[] = "addcoord ACCOUNT... user=USERS";
static const char usage_ACCT_DEL_COORD[] = "delcoord ACCOUNT... user=USERS";
static const char usage_ACCT_ADD_USER[] =
    "adduser USER... account=ACCOUNT [partition=] [defaultaccount=] "
    "[LIMIT=VALUE...]";
static const char usage_ACCT_REMOVE_USER[] =
    "deluser USER... account=ACCOUNT [partition=]";
static const char usage_ACCT_MODIFY_USER[] =
    "moduser USER... defaultaccount=|defaultqos=|adminlevel=|defaultwckey=";
static const char usage_ACCT_SET_LIMIT[] =
    "setlimit account=A [user=U] [partition=P] LIMIT=VALUE...";
static const char usage_ACCT_CLEAR_LIMIT[] =
    "clearlimit account=A [user=U] [partition=P] LIMIT...";
static const char usage_QOS_SET[] = "setqos QOS... LIMIT=VALUE...";
static const char usage_QOS_ADD[] = "addqos NAME... [KEY=VALUE...]";
static const char usage_QOS_DELETE[] = "delqos QOS...";
static const char usage_JOB_SUBMIT[] =
    "submit FILE [-p PART] [-A ACCT] [-q QOS] [-t TIME] [-J NAME] "
    "[sbatch options]";

static const char usage_RESV_CREATE[] =
    "reserve NAME start=TIME duration=TIME|end=TIME nodes=LIST|partition=P "
    "users=U|accounts=A [flags=MAINT,IGNORE_JOBS...]";
static const char usage_RESV_UPDATE[] =
    "reserve-update NAME... start=|end=|duration=|nodes=|partition=|users=|"
    "accounts=|flags=+MAINT,-IGNORE_JOBS";
static const char usage_RESV_DELETE[] = "reserve-delete NAME...";
static const char usage_RUNAWAY_FIX[] = "fix-runaway JOBID...";

#define NARGS(e) (sizeof(args_##e) / sizeof(args_##e[0]) - 1)

static const struct sq_action_def defs[SQ_ACTION_COUNT] = {
#define SQ_ACTION_DEF(e, n, k, key, f, inv, st, h)                             \
	{                                                                      \
		SQ_ACTION_##e,   n,  SQ_KIND_##k, key,      f,                 \
		SQ_ACTION_##inv, st, h,           args_##e, NARGS(e),          \
		usage_##e                                                      \
	},
	SQ_ACTIONS(SQ_ACTION_DEF)
#undef SQ_ACTION_DEF
};

/* Other names a `:` command may use, with the view kind they apply to. */
static const struct {
	const char *alias;
	enum sq_kind kind;
	enum sq_action_type type;
} aliases[] = {
	{ "delete", SQ_KIND_ACCOUNTS, SQ_ACTION_ACCT_DELETE_ACCOUNT },
	{ "delete", SQ_KIND_ASSOCS, SQ_ACTION_ACCT_REMOVE_USER },
	{ "noderesume", SQ_KIND_NODES, SQ_ACTION_NODE_RESUME },
	{ "undrain", SQ_KIND_NODES, SQ_ACTION_NODE_RESUME },
	{ "scancel", SQ_KIND_JOBS, SQ_ACTION_JOB_CANCEL },
	{ "kill", SQ_KIND_JOBS, SQ_ACTION_JOB_SIGNAL },
	{ "modify", SQ_KIND_ACCOUNTS, SQ_ACTION_ACCT_MODIFY_ACCOUNT },
	{ "modify", SQ_KIND_ASSOCS, SQ_ACTION_ACCT_SET_LIMIT },
	{ "modify", SQ_KIND_QOS, SQ_ACTION_QOS_SET },
	{ "setlimit", SQ_KIND_QOS, SQ_ACTION_QOS_SET },
	{ "modqos", SQ_KIND_QOS, SQ_ACTION_QOS_SET },
	{ "delete", SQ_KIND_QOS, SQ_ACTION_QOS_DELETE },
	{ "cancel-reboot", SQ_KIND_NODES, SQ_ACTION_NODE_CANCEL_REBOOT },
};

const struct sq_action_def *
sq_action_def(enum sq_action_type type)
{
	if ((unsigned)type >= SQ_ACTION_COUNT)
		return NULL;
	return &defs[type];
}

const struct sq_action_def *
sq_action_find(const char *name, int kind)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		if (strcmp(defs[i].name, name) == 0 &&
		    (kind < 0 || (int)defs[i].kind == kind))
			return &defs[i];
	}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strcmp(aliases[i].alias, name) == 0 &&
		    (kind < 0 || (int)aliases[i].kind == kind))
			return &defs[aliases[i].type];
	}
	return NULL;
}

const struct sq_arg_spec *
sq_action_arg_spec(const struct sq_action_def *d, const char *key)
{
	const char *alias;
	size_t i;

	if (d == NULL || key == NULL)
		return NULL;
	for (i = 0; i < d->nargs; i++) {
		if (strcmp(d->args[i].key, key) == 0)
			return &d->args[i];
	}
	/* another spelling of a limit key (limit_keys.h) */
	alias = d->kind == SQ_KIND_QOS      ? sq_limit_alias(key, SQ_LIM_QOS)
		: d->kind == SQ_KIND_ASSOCS ? sq_limit_alias(key, SQ_LIM_ASSOC)
					    : NULL;
	return alias != NULL ? sq_action_arg_spec(d, alias) : NULL;
}

const struct sq_action_def *
sq_action_for_key(int kind, int key)
{
	size_t i;

	if (key == 0)
		return NULL;
	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		if ((int)defs[i].kind == kind && defs[i].key == key)
			return &defs[i];
	}
	return NULL;
}

/* --- results ------------------------------------------------------------ */

void
sq_result_init(struct sq_result *r)
{
	memset(r, 0, sizeof(*r));
}

void
sq_result_free(struct sq_result *r)
{
	if (r == NULL)
		return;
	free(r->targets);
	r->targets = NULL;
	r->ntargets = 0;
}

int
sq_result_targets(struct sq_result *r, const struct sq_action *a)
{
	size_t i, n = a->ntargets ? a->ntargets : 1;

	free(r->targets);
	r->targets = calloc(n, sizeof(*r->targets));
	if (r->targets == NULL) {
		r->ntargets = 0;
		return -1;
	}
	r->ntargets = n;
	for (i = 0; i < n; i++) {
		snprintf(r->targets[i].target, sizeof(r->targets[i].target),
			 "%s", a->ntargets ? a->targets[i] : "");
		r->targets[i].verified = SQ_VERIFY_UNCHECKED;
	}
	return 0;
}

unsigned
sq_action_touched_kinds(int kind)
{
	const unsigned nodes =
	    SQ_KIND_BIT(SQ_KIND_NODES) | SQ_KIND_BIT(SQ_KIND_PARTITIONS) |
	    SQ_KIND_BIT(SQ_KIND_NODESETS) | SQ_KIND_BIT(SQ_KIND_GPUS);

	if (kind == SQ_KIND_NODES)
		return nodes;
	/* a reservation changes what the nodes and the queue say */
	if (kind == SQ_KIND_RESERVATIONS)
		return nodes | SQ_KIND_BIT(SQ_KIND_RESERVATIONS) |
		       SQ_KIND_BIT(SQ_KIND_JOBS);
	/* a job started, ended or moved frees or takes nodes and GPUs */
	if (kind == SQ_KIND_JOBS || kind == SQ_KIND_PRIO)
		return nodes | SQ_KIND_BIT(SQ_KIND_JOBS) |
		       SQ_KIND_BIT(SQ_KIND_PRIO);
	if (kind < 0 || kind >= SQ_KIND_COUNT)
		return 0;
	return SQ_KIND_BIT((unsigned)kind);
}

/* --- building ----------------------------------------------------------- */

void
sq_action_init(struct sq_action *a, enum sq_action_type type)
{
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->def = sq_action_def(type);
}

void
sq_action_free(struct sq_action *a)
{
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < a->ntargets && a->tv_ != NULL; i++)
		free(a->tv_[i]);
	free(a->tv_);
	for (i = 0; i < SQ_ACTION_MAX_ARGS; i++)
		free(a->av_[i]);
	free(a->script);
	memset(a, 0, sizeof(*a));
	a->type = SQ_ACTION_NONE;
}
