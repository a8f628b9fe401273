/*
 * model.h - the records squall shows, independent of where they came from.
 *
 * Every backend fills these from its own source (CLI text, JSON); views
 * read them. Strings point into the owning snapshot's arena and are never
 * NULL once a parser is done with a row ("" means unknown). Numbers use
 * SQ_NONE for "not set" and SQ_INFINITE for UNLIMITED/INFINITE.
 * Records of the accounting and admin kinds live in model_admin.h.
 */
#ifndef SQ_MODEL_H
#define SQ_MODEL_H

#include <stdint.h>
#include <time.h>

#include "core/base/none.h"

/* X(enum suffix, name, description) - the kinds of data a backend fetches */
#define SQ_KINDS(X)                                                            \
	X(PARTITIONS, "partitions", "partitions and their nodes")              \
	X(NODES, "nodes", "nodes, states, CPU/memory/GRES use")                \
	X(JOBS, "jobs", "the job queue")                                       \
	X(PRIO, "priority", "sprio factors of pending jobs")                   \
	X(PRIO_WEIGHTS, "weights", "the priority weights (sprio -w)")          \
	X(ACCOUNTS, "accounts", "accounts")                                    \
	X(USERS, "users", "users")                                             \
	X(ASSOCS, "assocs", "associations and limits")                         \
	X(QOS, "qos", "quality of service")                                    \
	X(SHARES, "fairshare", "the fairshare tree (sshare)")                  \
	X(EVENTS, "events", "preemption events")                               \
	X(RESERVATIONS, "reservations", "reservations")                        \
	X(DIAG, "diag", "controller statistics (sdiag)")                       \
	X(CONFIG, "config", "the running configuration")                       \
	X(GPUS, "gpus", "accelerators per node, partition, user, account")     \
	X(LIMITS, "limits", "limits in force and their usage (assoc_mgr)")     \
	X(SPEC, "spec", "the cluster spec against the live cluster")           \
	X(NODESETS, "nodesets", "nodes grouped by node set")                   \
	X(HISTORY, "history", "job runs from accounting in a window")          \
	X(WHATIF, "whatif", "pending jobs' priority under other weights")      \
	X(OVERVIEW, "overview", "the cluster at a glance")                     \
	X(CLUSTERS, "clusters", "every configured cluster at once")            \
	X(GPUUSE, "gpuuse", "live GPU use of running GPU jobs (sstat)")        \
	X(LICENSES, "licenses", "licenses: total, used, free, reserved")       \
	X(NODE_EVENTS, "node-events", "node drains and downs in a window")     \
	X(RPC, "rpc", "slurmctld RPCs by type and user, with rates (sdiag)")   \
	X(RUNAWAY, "runaway",                                                  \
	  "runaway jobs: running in slurmdbd, gone from slurmctld")            \
	X(DBD, "dbd", "slurmdbd's statistics (sacctmgr show stats)")           \
	X(PROBLEMS, "problems",                                                \
	  "accounts and users with problems (sacctmgr show problem)")          \
	X(METRICS, "metrics",                                                  \
	  "slurmctld's OpenMetrics: nodes, partitions, scheduler")             \
	X(PREEMPT_RUNS, "preempt-runs",                                        \
	  "accounting runs around the last day's preemptions (rest)")

enum sq_kind {
#define SQ_KIND_ENUM(e, n, d) SQ_KIND_##e,
	SQ_KINDS(SQ_KIND_ENUM)
#undef SQ_KIND_ENUM
	    SQ_KIND_COUNT
};

/* A set of kinds is a mask of these bits. */
#define SQ_KIND_BIT(k) (1u << (unsigned)(k))

/* Name of a kind ("jobs"); kind from a name, or -1. */
const char *sq_kind_name(enum sq_kind kind);
int sq_kind_from_name(const char *name);

struct sq_partition {
	const char *name;
	int is_default;       /* 1, 0, or -1: the source does not say */
	const char *state;    /* UP, DOWN, DRAIN, INACTIVE */
	const char *nodelist; /* n[1-4] */
	int64_t nodes_total;
	int64_t nodes_idle;
	int64_t cpus_total;
	int64_t cpus_alloc;
	int64_t gpus_total;
	int64_t gpus_alloc;
	int64_t priority_tier;
	int64_t priority_job_factor;
	const char *preempt_mode; /* OFF, REQUEUE, CANCEL, SUSPEND ... */
	int64_t max_time;         /* minutes, SQ_INFINITE, SQ_NONE */
	int64_t default_time;     /* minutes */
	const char *qos;          /* partition QOS or "" */
	const char *tres;         /* TRES=cpu=24,mem=48000M,... */
};

struct sq_node {
	const char *name;
	const char
	    *state; /* long state as sinfo prints it: "idle", "drained" */
	const char *partitions; /* comma-separated; default marked with '*' */
	int64_t cpus_alloc;
	int64_t cpus_idle;
	int64_t cpus_total;
	int64_t mem_total;     /* MB */
	int64_t mem_alloc;     /* MB */
	const char *gres;      /* configured: gpu:a100:4 */
	const char *gres_used; /* gpu:a100:2(IDX:0-1) */
	int64_t gpus_total;
	int64_t gpus_alloc;
	const char *reason;
	/* who set the reason and when (sinfo User/TimeStamp, REST
	 * reason_set_by_user/reason_changed_at): "" and SQ_NONE unknown */
	const char *reason_by;
	int64_t reason_at;
	/* its jobs COMPLETING beyond `completing-stuck`
	 * (core/analysis/completing.h, joined from the queue when the column
	 * shows it; 0 otherwise) */
	int32_t stuck_cg;
	/* down/drain events in the history window, and in the last
	 * flap-hours, joined from node-events (core/analysis/node_flap.h) only
	 * when a column or the detail pane shows them: events_known 0 else */
	int events_known;
	int flapping; /* events_recent >= flap-events */
	int64_t events;
	int64_t events_recent;
};

/* Weighted sprio factors of one pending job. */
struct sq_prio {
	uint32_t job_id;
	uint32_t rank; /* 1 = next to start in its partition */
	const char *user;
	const char *partition;
	int64_t priority;
	int64_t site;
	int64_t age;
	int64_t fairshare;
	int64_t jobsize;
	int64_t partition_prio;
	int64_t qos;
	int64_t assoc;
	int64_t nice;
	const char *tres; /* cpu=17,mem=0,gres/gpu=125 */
};

struct sq_job {
	const char *id;         /* as squeue prints it: 12, 13_4, 13_[5-20] */
	uint32_t job_id;        /* the real job id */
	uint32_t array_job_id;  /* 0 when not part of an array */
	const char *array_task; /* "" or "4" or "[5-20]" */
	const char *name;
	const char *user;
	const char *account;
	const char *partition;
	const char *qos;
	const char *state;         /* PENDING, RUNNING, ... */
	const char *state_compact; /* PD, R, ... */
	const char *reason;
	int64_t priority;
	/* 32 bits where they are enough: 16 bytes a job at a million jobs
	 * (sq_i32 stores a larger value as INT32_MAX) */
	int32_t nodes;
	int32_t cpus;
	const char *gres;   /* TRES per node, e.g. gres:gpu:a100:2 */
	int32_t time_limit; /* seconds; SQ_INFINITE; SQ_NONE */
	int32_t time_used;  /* seconds (68 years at most) */
	/* what few jobs have, beside the row (sq_job_tres_alloc ...):
	 * NULL when none of it is known; sq_snapshot_job_more makes it */
	const struct sq_job_more *more;
	int64_t submit_time; /* epoch seconds or SQ_NONE */
	int64_t start_time;
	const char *nodelist;
	const struct sq_prio *prio; /* joined sprio row, NULL when none */
};

/* The fields of a job that most jobs have empty, out of struct sq_job
 * (160 bytes a job, not 176, at a million jobs). */
struct sq_job_more {
	const char *tres_alloc;   /* "cpu=2,...,gres/gpu:a100=2", or "" */
	const char *prio_by_part; /* "high=7346,low=2351" (REST v0.0.42+) */
	int32_t restart_cnt;
	/* joined live GPU use (core/analysis/gpuuse.h), NULL when none;
	 * gpu_note why a running job holding GPUs has none (NULL: nothing to
	 * say) */
	const struct sq_gpuuse *gpu;
	const char *gpu_note;
};

/* All of it empty: "", "", 0 (what the CLI backend knows of most jobs). */
extern const struct sq_job_more sq_job_more_none;

/* A job's tres_alloc and prio_by_part (NULL when unknown), restart_cnt
 * (0 when unknown). */
const char *sq_job_tres_alloc(const struct sq_job *j);
const char *sq_job_prio_by_part(const struct sq_job *j);
int32_t sq_job_restarts(const struct sq_job *j);

/* v for a 32-bit field of struct sq_job: INT32_MAX when larger, SQ_NONE
 * when below INT32_MIN. */
int32_t sq_i32(int64_t v);

/* The weights line of sprio -w. */
struct sq_prio_weights {
	int64_t site, age, fairshare, jobsize, partition, qos, assoc, nice;
	const char *tres;
};

/* Is a state string one of the pending ones? */
int sq_job_is_pending(const struct sq_job *job);
/* Does arg ("33_2": array job id, task id) name a task of j, an array
 * row whose task list (array_task "1-8", "[1-3,7%2]") holds it? */
int sq_job_has_task(const struct sq_job *j, const char *arg);

#endif
