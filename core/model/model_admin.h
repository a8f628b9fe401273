/*
 * model_admin.h - records of the accounting and admin kinds: accounts,
 * users, associations, QOS, fairshare, events, GPUs, limits in force,
 * reservations, diag and config. Same rules as model.h: strings in the
 * snapshot arena and never NULL ("" = unknown); integers SQ_NONE when not
 * set and SQ_INFINITE when unlimited; fractions are doubles, NAN when not
 * set and INFINITY for Slurm's "inf".
 */
#ifndef SQ_MODEL_ADMIN_H
#define SQ_MODEL_ADMIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"

/* A key/value row, used by diag and config (and as a fallback). */
struct sq_kv {
	const char *section; /* sdiag block ("main", "backfill", "rpc_type",
				"rpc_user"); "" for config */
	const char *key;
	const char *value;
};

/* Add a row of section (a literal) with key and value copied into s's
 * arena: 0, or -1 with err set (out of memory). */
int sq_kv_add(struct sq_snapshot *s, const char *section, const char *key,
	      const char *value, struct sq_err *err);

/*
 * One association (sacctmgr show assoc; REST /slurmdb/.../associations).
 * An account association has user ""; a user association has its account
 * in account and parent "" (its parent is that account's association).
 * TRES limits stay strings as Slurm prints them ("cpu=8,gres/gpu=6").
 * Times: max_wall and grp_wall in seconds.
 */
struct sq_assoc {
	const char *cluster;
	const char *account;
	const char *user;      /* "" for an account association */
	const char *partition; /* "" for all partitions */
	const char *parent;    /* parent account of an account association */
	int64_t id;            /* association id or SQ_NONE */
	int depth;             /* 0 = root; user rows one below their account */
	int64_t shares;        /* Fairshare raw; SQ_INFINITE for "parent" */
	int64_t priority;
	int64_t grp_jobs;
	int64_t grp_jobs_accrue;
	int64_t grp_submit;
	const char *grp_tres;
	const char *grp_tres_mins;
	const char *grp_tres_run_mins;
	int64_t grp_wall; /* seconds */
	int64_t max_jobs;
	int64_t max_jobs_accrue;
	int64_t max_submit;
	const char *max_tres; /* per job */
	const char *max_tres_per_node;
	const char *max_tres_mins; /* per job */
	int64_t max_wall;          /* per job, seconds */
	const char *qos;           /* comma-separated QOS names */
	const char *default_qos;
	int is_default; /* the user's default account */
};

/* One account (sacctmgr show account withcoord; REST /slurmdb/accounts). */
struct sq_account {
	const char *name;
	const char *description;
	const char *organization;
	const char *parent;       /* from its association; "" for root */
	const char *coordinators; /* comma-separated user names */
	const char *users; /* comma-separated users with an association */
	int64_t nusers;
	int64_t shares; /* of its account association, or SQ_NONE */
};

/* One user (sacctmgr show user withcoord withassoc; REST /slurmdb/users). */
struct sq_user {
	const char *name;
	const char *default_account;
	const char *default_wckey;
	const char *admin_level;    /* None, Operator, Administrator */
	const char *accounts;       /* comma-separated, from associations */
	const char *coordinator_of; /* comma-separated accounts */
	const char *qos;            /* union of the associations' QOS lists */
	const char *default_qos;
};

/* One QOS (sacctmgr show qos; REST /slurmdb/qos). Times in seconds. */
struct sq_qos {
	const char *name;
	const char *description;
	int64_t id;
	int64_t priority;
	const char *preempt;      /* QOS it may preempt, comma-separated */
	const char *preempt_mode; /* cluster, off, requeue, cancel ... */
	int64_t preempt_exempt_time;
	int64_t grace_time;
	const char *flags;
	double usage_factor;
	double usage_threshold;
	int64_t grp_jobs;
	int64_t grp_jobs_accrue;
	int64_t grp_submit;
	const char *grp_tres;
	const char *grp_tres_mins;
	const char *grp_tres_run_mins;
	int64_t grp_wall;
	int64_t max_jobs_pu; /* per user */
	int64_t max_jobs_pa; /* per account */
	int64_t max_submit_pu;
	int64_t max_submit_pa;
	const char *max_tres; /* per job */
	const char *max_tres_per_node;
	const char *max_tres_pu; /* per user */
	const char *max_tres_pa; /* per account */
	const char *max_tres_mins;
	int64_t max_wall; /* per job, seconds */
	const char *min_tres;
};

/* One row of the fairshare tree (sshare -l -a -P; REST /shares). */
struct sq_share {
	const char *account;
	const char *user;      /* "" for an account row */
	const char *partition; /* "" unless per-partition associations */
	const char *parent;    /* account above (from the tree); "" for root */
	int depth;             /* 0 = root (from sshare's indentation) */
	int64_t raw_shares;    /* SQ_NONE for root, SQ_INFINITE for "parent" */
	double norm_shares;
	int64_t raw_usage;
	double norm_usage;
	double effective_usage;
	double fairshare; /* NAN on account rows (sshare leaves it empty) */
	double level_fs;  /* INFINITY for "inf" */
	const char *grp_tres_mins;
	const char *tres_run_mins;
};

/*
 * One preemption (or requeue) of one job run. time is when the run ended
 * (sacct End, log time, or the refresh that saw restart_cnt grow); jobs
 * are real job ids; preemptor_job is 0 when no source knows it.
 */
struct sq_event {
	int64_t time; /* epoch */
	uint32_t victim_job;
	const char *victim_id; /* as squeue prints it (12, 6_2) */
	const char *victim_user;
	const char *victim_account;
	const char *victim_partition;
	const char *victim_qos;
	const char *nodelist;
	int64_t run_start; /* start of the preempted run, or SQ_NONE */
	uint32_t preemptor_job;
	const char *preemptor_user;
	const char *preemptor_partition;
	const char *mode;   /* REQUEUE, CANCEL, SUSPEND, or "" unknown */
	const char *state;  /* PREEMPTED, REQUEUED (manual), or "" */
	int64_t restarts;   /* victim's restart count when seen, or SQ_NONE */
	const char *source; /* "sacct", "log", "restarts" or a '+' join */
	const char *note;   /* why the preemptor is not known, or "" */
};

/* What a GPU row aggregates over. */
enum sq_gpu_scope {
	SQ_GPU_NODE,
	SQ_GPU_PARTITION,
	SQ_GPU_USER,
	SQ_GPU_ACCOUNT,
};

/*
 * One accelerator count: per (scope key, GRES name, type). A GPUS
 * snapshot holds rows of every scope; each gpus view shows one scope.
 * total/idle are SQ_NONE in the user and account scopes; util is a
 * percentage, or SQ_NONE with util_note saying why.
 */
struct sq_gpu {
	enum sq_gpu_scope scope;
	const char *node;      /* SQ_GPU_NODE */
	const char *partition; /* SQ_GPU_PARTITION; partitions of a node */
	const char *user;      /* SQ_GPU_USER */
	const char *account;   /* SQ_GPU_USER, SQ_GPU_ACCOUNT */
	const char *name;      /* gpu, tpu, shard, mps ... */
	const char *type;      /* a100, t4, or "" (untyped) */
	int64_t total;
	int64_t alloc;
	int64_t idle;
	int64_t jobs; /* jobs holding some (alloc > 0 scopes) */
	int64_t util; /* percent, SQ_NONE when not collected */
	const char *util_note;
	/* pending demand (user, account and partition rows): GPUs asked
	 * for by pending jobs (each array task counts), those jobs, the
	 * oldest one's SubmitTime (epoch) and its wait at the fetch in
	 * seconds; pend_gpus SQ_NONE when unknown, pend_note says why */
	int64_t pend_gpus, pend_jobs, pend_since, pend_wait;
	const char *pend_note;
};

/*
 * One limit in force with its current usage (scontrol show assoc_mgr
 * flags=assoc,qos). Only limits that are set become rows.
 * scope "assoc": cluster/account/user/partition name the association,
 * parent its parent account (account associations).
 * scope "qos": qos names the QOS; account or user is set for the per
 * account (…PA) and per user (…PU) limits.
 * Time limits in minutes (as assoc_mgr prints them).
 */
struct sq_limit {
	const char *scope; /* "assoc" or "qos" */
	const char *cluster;
	const char *account;
	const char *user;
	const char *partition;
	const char *parent;
	const char *qos;
	int64_t id;        /* association id or QOS id */
	const char *limit; /* GrpJobs, GrpTRES, MaxJobs, MaxTRESPU ... */
	const char *tres;  /* "gres/gpu" for TRES limits, else "" */
	int64_t value;
	int64_t used; /* SQ_NONE when not reported */
};

/* One reservation (scontrol -o show reservation; REST /reservations). */
struct sq_reservation {
	const char *name;
	const char *state; /* ACTIVE, INACTIVE */
	int64_t start_time;
	int64_t end_time;
	int64_t duration; /* seconds */
	const char *nodes;
	int64_t node_cnt;
	int64_t core_cnt;
	const char *features;
	const char *partition;
	const char *flags;
	const char *tres;
	const char *users;
	const char *groups;
	const char *accounts;
	const char *licenses;
	const char *burst_buffer;
	const char *max_start_delay;
};

/* One license (scontrol -o show licenses; REST /licenses). */
struct sq_license {
	const char *name;
	int64_t total;
	int64_t used;
	int64_t free;
	int64_t reserved;   /* held by reservations; SQ_NONE when not served */
	const char *remote; /* "yes" for a license from slurmdbd, else "no" */
};

/* One node event of accounting (sacctmgr show event event=node): the
 * node was in state from start to end (SQ_NONE: still open). */
struct sq_node_event {
	const char *node;
	const char *state; /* DRAIN, DOWN ... as sacctmgr prints it */
	const char *reason;
	const char *set_by; /* the user who set it, without "(uid)" */
	int64_t start;
	int64_t end;
	int64_t duration; /* seconds, to now while open */
};

/* One runaway job (sacctmgr show runawayjobs): slurmdbd has it with no
 * end time while slurmctld no longer knows it. Times are epochs, SQ_NONE
 * when unset (sacctmgr prints "Unknown" or 0). */
struct sq_runaway {
	uint32_t id;
	const char *name;
	const char *partition;
	const char *cluster;
	const char *state; /* the state slurmdbd keeps: RUNNING, PENDING ... */
	int64_t submit;
	int64_t start;
	int64_t end;
};

/* One problem sacctmgr show problem reports in accounting: an account
 * without users or associations, a user without a default account,
 * associations or uid. account or user "" where the problem has none. */
struct sq_problem {
	const char *cluster;
	const char *account;
	const char *user;
	const char *problem; /* Slurm's words: "Account has no users" ... */
};

/* Row size of an admin kind (0 when the kind is not an admin kind). */
size_t sq_admin_rowsize(enum sq_kind kind);

/* A fraction as Slurm prints it: "" and none-words -> NAN, "inf" ->
 * INFINITY. -1 on garbage. */
int sq_admin_double(const char *s, double *out);
/* A Slurm duration or "" into seconds (SQ_NONE, SQ_INFINITE). */
int sq_admin_seconds(const char *s, int64_t *out);
/* Is item one of the entries of the comma-separated list? */
int sq_admin_in_list(const char *list, const char *item);
/*
 * Add the comma-separated items of add to the list held in *list (an
 * arena string of s), skipping duplicates; *list is replaced by a new
 * arena string. -1 on ENOMEM.
 */
int sq_admin_list_add(struct sq_snapshot *s, const char **list,
		      const char *add);

/*
 * Accounts and users read without their associations (slurmrestd's GET
 * /accounts and /users carry only names from v0.0.40 on), completed
 * from an associations snapshot by the fetch plan (session/plan.c): an
 * account's parent, shares and users; a user's accounts, QOS, default
 * QOS and (where empty) default account. -1 on ENOMEM.
 */
int sq_accounts_join_assocs(struct sq_snapshot *accounts,
			    const struct sq_snapshot *assocs);
int sq_users_join_assocs(struct sq_snapshot *users,
			 const struct sq_snapshot *assocs);

#endif
