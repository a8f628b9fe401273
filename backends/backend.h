/*
 * backend.h - the interface every way of reaching a cluster implements
 * (local CLI, CLI over ssh, slurmrestd, replay of a recording), and the
 * registry that finds one by name.
 *
 * Thread rules: a backend instance belongs to one worker thread; all ops
 * on it are called from that thread only, never from the UI thread.
 * Ownership: fetch() returns a new snapshot with one reference, which the
 * caller owns. NULL ops mean "unsupported": callers check caps() first.
 */
#ifndef SQ_BACKEND_H
#define SQ_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "core/action/action.h"
#include "core/base/buf.h"
#include "core/conf/cluster.h"
#include "core/base/err.h"
#include "core/model/live.h"
#include "core/model/model.h"
#include "core/analysis/outpath.h"
#include "core/model/snapshot.h"

/* Capability flags: what this backend can serve on this cluster. */
#define SQ_CAP_PARTITIONS (1u << 0)
#define SQ_CAP_NODES (1u << 1)
#define SQ_CAP_JOBS (1u << 2)
#define SQ_CAP_SPRIO (1u << 3)
#define SQ_CAP_ACCOUNTING (1u << 4) /* accounts, users, assocs, qos */
#define SQ_CAP_SHARES (1u << 5)
#define SQ_CAP_EVENTS (1u << 6)
#define SQ_CAP_RESERVATIONS (1u << 7)
#define SQ_CAP_DIAG (1u << 8)
#define SQ_CAP_CONFIG (1u << 9)
#define SQ_CAP_JOB_ACTIONS (1u << 10)
#define SQ_CAP_NODE_UPDATE (1u << 11)
#define SQ_CAP_ACCT_UPDATE (1u << 12)
/* pending jobs' priorities and ranks without the sprio factors */
#define SQ_CAP_PRIO_QUEUE (1u << 13)
#define SQ_CAP_LICENSES (1u << 14)
#define SQ_CAP_NODE_EVENTS (1u << 15) /* sacctmgr show event */
#define SQ_CAP_RUNAWAY (1u << 21)     /* sacctmgr show runawayjobs */
#define SQ_CAP_DBD (1u << 22)         /* sacctmgr show stats */
#define SQ_CAP_PROBLEMS (1u << 23)    /* sacctmgr show problem */

struct sq_backend;

/*
 * What read_targets() read of an action's targets, kept so that the
 * describe() and act() of that action do not read them again (a preview
 * reads them once, a run once before and then only to verify): the
 * backend's own full read (the CLI's struct sq_cli_state, with what
 * Slurm changes beyond the targets; REST's cluster name and one struct
 * sq_rest_state per target). Opaque outside the backend that made it.
 * ops: that backend (its read_free() frees it); n: the targets it holds,
 * in the action's order; data: the backend's. Whoever read_targets()
 * gave it to owns it and frees it with sq_targets_read_free(); describe()
 * and act() only borrow it.
 */
struct sq_targets_read {
	const struct sq_backend_ops *ops;
	size_t n;
	void *data;
};

/*
 * A kind a backend does not read itself: the fetch plan builds it from
 * kinds the backend does read, by a pure function of core/
 * (session/plan.c, the kind's .build and .build_from), and the backend
 * says in its words where the rows came from. Or (reads) a kind the
 * backend reads without columns another of its kinds has: its fetch()
 * reads the kind alone and the plan completes those rows by the same
 * build (the kind is then one of its own .build_from; slurmrestd's
 * accounts and users, from the associations). Static strings.
 */
struct sq_backend_built {
	const char *source;   /* the built rows' source line; NULL: not
				 built (or reads: the read's own) */
	const char *note;     /* what the rows lack, or NULL */
	const char *unserved; /* what the rows say of a value the backend
				 does not serve (the GPUs' use), or NULL */
	int reads;            /* fetch() reads the kind, the plan completes
				 it */
};

struct sq_backend_ops {
	const char *name;
	/* Indexed by kind: the kinds the plan builds for this backend (a
	 * source set; fetch() refuses them) or completes (reads set;
	 * fetch() reads them partly), or NULL: fetch() reads every kind it
	 * serves whole. Static, so readable before open(). */
	const struct sq_backend_built *built;
	/* Connect and detect the Slurm version; fills b->priv. */
	int (*open)(struct sq_backend *b, const struct sq_cluster_cfg *cfg,
		    struct sq_err *err);
	/* Release everything open() made. Safe after a failed open(). */
	void (*close)(struct sq_backend *b);
	/* SQ_CAP_* flags; valid after open(). */
	unsigned (*caps)(struct sq_backend *b);
	/* Read one kind of data into a new snapshot (*out, owned by caller). */
	int (*fetch)(struct sq_backend *b, enum sq_kind kind,
		     struct sq_snapshot **out, struct sq_err *err);
	/* Write the exact command line or HTTP call of an action into buf
	 * (never a secret). Returns 0, or -1 if the action is unsupported.
	 * read: what read_targets() read of act's targets (borrowed, not
	 * freed), or NULL: describe() then reads what it needs itself (it
	 * does so too when read->n is not act->ntargets). */
	int (*describe)(struct sq_backend *b, const struct sq_action *act,
			const struct sq_targets_read *read, char *buf,
			size_t len);
	/* Read every target of an action before it runs into out
	 * (act->ntargets entries): found or not, and its state. -1 with
	 * err when they could not be read (the action then runs without
	 * the check). NULL: the backend cannot read them. read NULL: the
	 * read is dropped; else on 0 *read is a new struct sq_targets_read
	 * of all it read (or NULL when the backend keeps none), which the
	 * caller owns and frees with sq_targets_read_free() after handing
	 * it to describe() or act() of the same action; on -1 *read is
	 * NULL. */
	int (*read_targets)(struct sq_backend *b, const struct sq_action *act,
			    struct sq_target_state *out,
			    struct sq_targets_read **read, struct sq_err *err);
	/* Free what read_targets() gave (never NULL here: callers use
	 * sq_targets_read_free()). Required when read_targets() gives
	 * one. */
	void (*read_free)(struct sq_targets_read *read);
	/* Keep, in place, the targets i < read->n with keep[i] != 0, in
	 * their order, and free the others: read is then what
	 * read_targets() would have read of sq_action_subset(act, keep)
	 * (core/action/action.h). Required when read_targets() gives a
	 * read. */
	void (*read_cut)(struct sq_targets_read *read,
			 const unsigned char *keep);
	/* Run an action. 0 when the cluster accepted it. read: as
	 * describe()'s; act() reads the targets before itself only when it
	 * is NULL (or not of act's count). The read after, which verifies,
	 * is always act()'s own. */
	int (*act)(struct sq_backend *b, const struct sq_action *act,
		   const struct sq_targets_read *read, struct sq_result *res,
		   struct sq_err *err);
	/* Live usage of the running steps of job jobid (a validated id;
	 * sstat) into *out. 0 with out->n rows, or 0 with out->n == 0 and
	 * out->note saying why there are none (not permitted, no running
	 * step); -1 with err when it could not be asked. NULL: the backend
	 * has no such data (slurmrestd 22.05 has no sstat). */
	int (*job_live)(struct sq_backend *b, const char *jobid,
			struct sq_live *out, struct sq_err *err);
	/*
	 * The GPUs (GRES by index) a running job holds on each node, as
	 * `scontrol -d show job` gives them ("n3 gpu:a100:2(IDX:0-1); n4
	 * ..."), into out (n bytes; "" when it holds none); jobid is
	 * validated here. -1 with err when it could not be asked. NULL:
	 * the backend cannot tell (core/analysis/gpumap.h, a node's detail
	 * pane).
	 */
	int (*job_gres)(struct sq_backend *b, const char *jobid, char *out,
			size_t n, struct sq_err *err);
	/*
	 * A job's output (follow a job; worker thread, like every op).
	 * job_files: `scontrol show job -o ID` of jobid (validated here)
	 * into *out (caller's), StdOut/StdErr expanded
	 * (core/analysis/outpath.h). job_script: the batch script appended to
	 * out (caller-initialised; its limit bounds it). file_stat: the size of
	 * path. file_read: at most len bytes of path from byte off appended to
	 * out (fewer at the end, none past it). path is absolute; it is never
	 * put on a command line unquoted. All: 0, or -1 with err in Slurm's or
	 * the system's words ("Invalid job id specified", "Permission denied").
	 * NULL: unsupported (slurmrestd has no file access;
	 * sq_backend_file_note() says so in one line).
	 */
	int (*job_files)(struct sq_backend *b, const char *jobid,
			 struct sq_jobfiles *out, struct sq_err *err);
	int (*job_script)(struct sq_backend *b, const char *jobid,
			  struct sq_buf *out, struct sq_err *err);
	int (*file_stat)(struct sq_backend *b, const char *path, int64_t *size,
			 struct sq_err *err);
	int (*file_read)(struct sq_backend *b, const char *path, int64_t off,
			 size_t len, struct sq_buf *out, struct sq_err *err);
	/*
	 * slurmctld's OpenMetrics endpoint (Slurm 25.11+ with
	 * MetricsType=metrics/openmetrics): GET path ("/metrics/nodes") on
	 * the controller's own port, the body into out (caller's). 0 when
	 * served (HTTP 200 with a body); -1 with err saying why not, in
	 * words the overview shows: the release has none, not served (no
	 * MetricsType: an empty answer), refused (401/403: MetricsAuthUsers
	 * or PrivateData want a JWT, which squall does not send here), a
	 * standby's 303, unreachable. The first call finds the address
	 * (slurm.conf, else `scontrol show config`, once per connection);
	 * a refusal is kept
	 * for the connection. NULL: this backend does not read it (ssh and
	 * slurmrestd: backends/cli/metrics.c says why).
	 */
	int (*metrics)(struct sq_backend *b, const char *path,
		       struct sq_buf *out, struct sq_err *err);
};

struct sq_backend {
	const struct sq_backend_ops *ops;
	struct sq_cluster_cfg cfg;
	char version[32];     /* Slurm version, e.g. "22.05.8" */
	unsigned queries;     /* slurmctld RPCs so far (as sdiag counts) */
	unsigned dbd_queries; /* slurmdbd queries so far (sacct ...) */
	void *priv;
};

/* The ops of a backend by name, or NULL when unknown or not built in. */
const struct sq_backend_ops *sq_backend_find(const char *name);
/* Space-separated names of the built-in backends. */
const char *sq_backend_names(void);

/* Allocate and open a backend for cfg; NULL with err set on failure. */
struct sq_backend *sq_backend_open(const struct sq_cluster_cfg *cfg,
				   struct sq_err *err);
void sq_backend_close(struct sq_backend *b);

/*
 * Questions a backend may ask the user while it connects: an unknown ssh
 * host key (confirm; the question holds the SHA256 fingerprint), a
 * password, passphrase or keyboard-interactive answer (ask: write a
 * NUL-terminated answer of at most n bytes into buf; echo 0 means a
 * secret). Both return 1 for yes/answered, 0 for no/cancelled. A NULL
 * member means batch mode: the backend refuses instead of asking.
 * Set it before opening backends; the members are called on the worker
 * thread, so the console must hand the question to its UI thread and wait.
 */
struct sq_prompt {
	int (*confirm)(void *arg, const char *question);
	int (*ask)(void *arg, const char *prompt, int echo, char *buf,
		   size_t n);
	void *arg;
};
void sq_backend_set_prompt(const struct sq_prompt *p); /* NULL: batch */
const struct sq_prompt *sq_backend_prompt(void);

/* Why b cannot show a job's output or script (one line), or NULL when
 * it can: what="script" asks about job_script, else the files. */
const char *sq_backend_file_note(const struct sq_backend *b, const char *what);

/* Free r (NULL is fine) with the read_free() of the backend that made
 * it. */
void sq_targets_read_free(struct sq_targets_read *r);
/* r cut down to the targets of keep (r->ops's read_cut()); r NULL is
 * fine. */
void sq_targets_read_cut(struct sq_targets_read *r, const unsigned char *keep);

/* Which SQ_CAP_* a kind needs. */
unsigned sq_kind_cap(enum sq_kind kind);

/* How b's ops build (or complete) kind, or NULL when fetch() reads it
 * whole (above). */
const struct sq_backend_built *sq_backend_built(const struct sq_backend *b,
						enum sq_kind kind);

/* b's fetch() of kind (one b reads, not one the plan builds: use
 * session/plan.h for those), or -1 with SQ_ERR_UNSUPPORTED ("the NAME backend
 * cannot read KIND") when b's caps lack it; *out NULL then. Thread: b's. */
int sq_backend_fetch_kind(struct sq_backend *b, enum sq_kind kind,
			  struct sq_snapshot **out, struct sq_err *err);

/* The backends (defined in their folders). */
extern const struct sq_backend_ops sq_backend_local;
extern const struct sq_backend_ops sq_backend_ssh;
extern const struct sq_backend_ops sq_backend_rest;
extern const struct sq_backend_ops sq_backend_replay;

#endif
