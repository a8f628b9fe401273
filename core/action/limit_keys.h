/*
 * limit_keys.h - the one vocabulary of limit keys: what setlimit,
 * adduser (associations) and setqos, addqos (QOS) take, each key with
 * the word sacctmgr takes for it, the column `sacctmgr show -P` prints,
 * the slurmrestd QOS field (v0.0.40+), its type and which of the two
 * accept it. Other spellings (sacctmgr's long words, squall's older keys)
 * are aliases of one key; a key one of the two does not take is refused
 * with the keys it does take.
 */
#ifndef SQ_LIMIT_KEYS_H
#define SQ_LIMIT_KEYS_H

#include <stddef.h>

#include "core/base/err.h"

/* which of the two take a key */
#define SQ_LIM_ASSOC 0x1
#define SQ_LIM_QOS 0x2

/*
 * X(key, type, flags, assoc word, qos word, assoc column, qos column,
 *   REST field of a QOS, choices, help). type is an SQ_ARG_* suffix
 * (NUMBER: a count up to 2^31-1; DURATION: minutes or [D-]HH:MM:SS;
 * SECONDS: seconds; TRES; NAMELIST; ENUM; DECIMAL; FAIRSHARE; NAME);
 * flags CLR when -1 clears it. Rows of both, of associations
 * only, of QOS only.
 */
#define SQ_LIMITS_BOTH(X)                                                      \
	X("grptres", TRES, CLR, "grptres", "grptres", "GrpTRES", "GrpTRES",    \
	  "limits.max.tres.total", NULL,                                       \
	  "TRES of all running jobs, e.g. cpu=64,gres/gpu=8")                  \
	X("grpjobs", NUMBER, CLR, "grpjobs", "grpjobs", "GrpJobs", "GrpJobs",  \
	  "limits.max.active_jobs.count", NULL,                                \
	  "running jobs of all users (and child accounts)")                    \
	X("grpsubmit", NUMBER, CLR, "grpsubmitjobs", "grpsubmitjobs",          \
	  "GrpSubmit", "GrpSubmit", "limits.max.jobs.count", NULL,             \
	  "queued and running jobs of all users")                              \
	X("maxtres", TRES, CLR, "maxtres", "maxtresperjob", "MaxTRES",         \
	  "MaxTRES", "limits.max.tres.per.job", NULL, "TRES per job")          \
	X("maxwall", DURATION, CLR, "maxwalldurationperjob",                   \
	  "maxwalldurationperjob", "MaxWall", "MaxWall",                       \
	  "limits.max.wall_clock.per.job", NULL, "wall time per job")
#define SQ_LIMITS_ASSOC(X)                                                     \
	X("maxjobs", NUMBER, CLR, "maxjobs", NULL, "MaxJobs", NULL, NULL,      \
	  NULL, "running jobs of the association (a user's: per user)")        \
	X("maxsubmit", NUMBER, CLR, "maxsubmitjobs", NULL, "MaxSubmit", NULL,  \
	  NULL, NULL, "queued and running jobs of the association")            \
	X("qos", NAMELIST, 0, "qos", NULL, "QOS", NULL, NULL, NULL,            \
	  "allowed QOS")                                                       \
	X("defaultqos", NAME, CLR, "defaultqos", NULL, "DefaultQOS", NULL,     \
	  NULL, NULL, "default QOS")                                           \
	X("fairshare", FAIRSHARE, 0, "fairshare", NULL, "Fairshare", NULL,     \
	  NULL, NULL, "shares: a number or parent")
#define SQ_LIMITS_QOS(X)                                                       \
	X("priority", NUMBER, 0, NULL, "priority", NULL, "Priority",           \
	  "priority", NULL, "QOS priority")                                    \
	X("preempt", NAMELIST, CLR, NULL, "preempt", NULL, "Preempt",          \
	  "preempt.list", NULL, "QOS this one may preempt")                    \
	X("preemptmode", ENUM, 0, NULL, "preemptmode", NULL, "PreemptMode",    \
	  "preempt.mode", "off|cancel|requeue|suspend|cluster",                \
	  "how it preempts")                                                   \
	X("usagefactor", DECIMAL, 0, NULL, "usagefactor", NULL, "UsageFactor", \
	  "usage_factor", NULL, "factor on the usage its jobs are charged")    \
	X("gracetime", SECONDS, 0, NULL, "gracetime", NULL, "GraceTime",       \
	  "limits.grace_time", NULL, "seconds a preempted job may run on")     \
	X("flags", NAMELIST, CLR, NULL, "flags", NULL, "Flags", "flags", NULL, \
	  "e.g. DenyOnLimit,NoDecay,NoReserve (-1: none)")                     \
	X("grpwall", DURATION, CLR, NULL, "grpwall", NULL, "GrpWall",          \
	  "limits.max.wall_clock.per.qos", NULL,                               \
	  "wall time of all running jobs")                                     \
	X("maxjobspu", NUMBER, CLR, NULL, "maxjobsperuser", NULL, "MaxJobsPU", \
	  "limits.max.jobs.active_jobs.per.user", NULL,                        \
	  "running jobs per user")                                             \
	X("maxsubmitpu", NUMBER, CLR, NULL, "maxsubmitjobsperuser", NULL,      \
	  "MaxSubmitPU", "limits.max.jobs.per.user", NULL,                     \
	  "queued and running jobs per user")                                  \
	X("maxtrespu", TRES, CLR, NULL, "maxtresperuser", NULL, "MaxTRESPU",   \
	  "limits.max.tres.per.user", NULL, "TRES per user")                   \
	X("maxjobspa", NUMBER, CLR, NULL, "maxjobsperaccount", NULL,           \
	  "MaxJobsPA", "limits.max.jobs.active_jobs.per.account", NULL,        \
	  "running jobs per account")                                          \
	X("maxsubmitpa", NUMBER, CLR, NULL, "maxsubmitjobsperaccount", NULL,   \
	  "MaxSubmitPA", "limits.max.jobs.per.account", NULL,                  \
	  "queued and running jobs per account")                               \
	X("maxtrespa", TRES, CLR, NULL, "maxtresperaccount", NULL,             \
	  "MaxTRESPA", "limits.max.tres.per.account", NULL,                    \
	  "TRES per account")

struct sq_limit_key {
	const char *key;
	const char *type; /* count, time, seconds, tres, names, choice,
			     factor, shares, name */
	int clears;       /* -1 clears it */
	unsigned scope;   /* SQ_LIM_* */
	const char *word_assoc, *word_qos;
	const char *col_assoc, *col_qos;
	const char *rest_qos;
	const char *choices;
	const char *help;
};

/* Every key, in the table's order; *n their count. */
const struct sq_limit_key *sq_limit_keys(size_t *n);
/* The key of a name or alias that scope (SQ_LIM_*) takes, or NULL. */
const struct sq_limit_key *sq_limit_find(const char *name, unsigned scope);
/* The canonical key of an alias in scope ("maxjobsperuser" ->
 * "maxjobspu"), or NULL when name is no alias there. */
const char *sq_limit_alias(const char *name, unsigned scope);
/* The keys scope takes, space-separated, into buf. */
void sq_limit_list(unsigned scope, char *buf, size_t n);
/* The column `sacctmgr show -P` prints for key in scope, or NULL. */
const char *sq_limit_column(const char *key, unsigned scope);
/* The error for a key scope does not take: which of the two does take
 * it, and every key scope accepts. Returns -1. */
int sq_limit_unknown(struct sq_err *err, const char *verb, const char *key,
		     unsigned scope);

#endif
