/*
 * cli.h - the Slurm CLI layer shared by the local and ssh backends: argv
 * templates for each kind of data, the text parsers, and the transport
 * interface that actually runs a command (fork/exec here, an ssh exec
 * channel remotely).
 *
 * Parsers take the command's stdout as a writable NUL-terminated string
 * (they split it in place) and append rows to a snapshot; strings are
 * copied into the snapshot's arena. They never print.
 */
#ifndef SQ_CLI_H
#define SQ_CLI_H

#include <stddef.h>

#include "backends/backend.h"
#include "core/base/buf.h"
#include "core/base/err.h"
#include "core/analysis/history.h"
#include "core/model/snapshot.h"

/* Cap on one command's stdout without a backend (the 200,000-job queue
 * is ~20 MB); with one, `set max-output` (sq_cli_out_limit). */
#define SQ_CLI_OUT_LIMIT ((size_t)256 * 1024 * 1024)
#define SQ_CLI_ERR_LIMIT ((size_t)64 * 1024)

struct sq_transport_ops {
	const char *name;
	/*
	 * Run argv (argv[0] a Slurm command name, resolved by the transport)
	 * with LC_ALL=C SLURM_TIME_FORMAT=%s (and TZ=UTC0 when
	 * sq_shell_utc(argv[0]), core/base/validate.h) and without SQUEUE_* and
	 * similar format variables. Fills out and errout
	 * (caller-initialised), sets *status to the exit status (or
	 * 128+signal). Returns -1 only when the command could not be run at
	 * all (err says why), 0 otherwise.
	 */
	int (*run)(void *ctx, const char *const argv[], struct sq_buf *out,
		   struct sq_buf *errout, int *status, struct sq_err *err);
	void (*close)(void *ctx);
	/* run() with inlen bytes of in on the command's stdin, then EOF (in
	 * NULL: none); NULL when the transport cannot send one (replay) */
	int (*run_in)(void *ctx, const char *const argv[], const char *in,
		      size_t inlen, struct sq_buf *out, struct sq_buf *errout,
		      int *status, struct sq_err *err);
	/* nonzero: run() may be called from two threads at once (the nodes
	 * fetch runs its two commands together, fetch.c); 0 for ssh, whose
	 * one libssh session is not for two threads */
	int concurrent;
};

struct sq_cli_metrics;

struct sq_cli {
	const struct sq_transport_ops *tr;
	void *tr_ctx;
	struct sq_backend *b; /* for query counting */
	int major, minor;     /* Slurm version */
	/* nodes from sinfo -N, not scontrol show node: a replayed recording
	 * made before squall read scontrol (replay.c) */
	int nodes_sinfo;
	unsigned record_seq; /* commands written by --record so far */
	/* incremental history (core/analysis/history.h) */
	struct sq_hist_incr hist;
	/* the last GPUUSE result: its samples go on (core/analysis/gpuuse.h) */
	struct sq_snapshot *gpuuse_prev;
	/* slurmctld's metrics endpoint: its address and whether it
	 * answers (metrics.c), made at the first use */
	struct sq_cli_metrics *metrics;
	/* rows of each kind at its last fetch parsed as it arrived
	 * (stream.c): the next one's allocation */
	size_t rows_hint[SQ_KIND_COUNT];
};

/* The fixed format strings (shared with tests and fixture recording). */
extern const char sq_cli_squeue_fmt[];

/*
 * The squeue line squall runs carries a nonce as the suffix of its first
 * field ("JobArrayID:|sqn<16 hex>|"), new for every fetch, so a job name
 * holding a line break and a whole forged record cannot pass for a job
 * (the parser learns the nonce from the first line; see parse_squeue.c).
 */
#define SQ_CLI_NONCE_PREFIX "sqn"
#define SQ_CLI_NONCE_LEN 19 /* "sqn" and 16 hex digits */

/* A fresh nonce, "|sqn<16 hex>|" and its NUL (SQ_CLI_NONCE_LEN + 3
 * bytes) in out, from getrandom. 0, or -1 with err set. */
int sq_cli_nonce_new(char *out, struct sq_err *err);

/* Fill fmt (n bytes) with base (an squeue -O list whose first field is
 * "Name:|") and a fresh nonce (from getrandom) as that field's suffix;
 * the second for sq_cli_squeue_fmt. 0, or -1 with err set. */
int sq_cli_fmt_nonce(const char *base, char *fmt, size_t n, struct sq_err *err);
int sq_cli_squeue_fmt_nonce(char *fmt, size_t n, struct sq_err *err);

/*
 * One line of such output. nonce (SQ_CLI_NONCE_LEN + 3 bytes, "" at
 * first) is learnt from the first line (first != 0): squeue's own, always.
 * 1: the line has the nonce after its first field, now taken out; -1: it
 * has not (the rest of a name or comment with a line break, or cut
 * output); 0: the output has no nonce (text of older versions).
 */
int sq_cli_nonce_line(char *line, char *nonce, int first);

/* Take every "|sqn<16 hex>|" in s back to "|": a recorded squeue argv
 * then matches whatever nonce it was recorded with, or none (recordings
 * of older versions, generated ones); for the replay backend. */
void sq_cli_nonce_mask(char *s);

/*
 * sacct runs with -P --delimiter=<a fresh nonce>: every field separator
 * is the nonce, so a job name (the last field) holding a line break and
 * a forged record makes a line without it, never a record.
 * sq_cli_delim_learn: the separator of output whose first line is line
 * (the nonce after the first field, the JobIDRaw: 12, 12.batch, 12+1.0)
 * into delim (SQ_CLI_NONCE_LEN + 3 bytes); 1, or 0 and "|" for text
 * without one (older recordings). sq_cli_split_delim: sq_split by that
 * separator.
 */
int sq_cli_delim_learn(const char *line, char *delim);
int sq_cli_split_delim(char *line, const char *delim, char **f, int max);
/* The same fields of a line of len bytes (no NUL in them), their lengths
 * into fl: no pass over a field after the split (a big history's two
 * million lines). */
int sq_cli_split_len(char *line, size_t len, const char *delim, char **f,
		     size_t *fl, int max);
extern const char sq_cli_sinfo_fmt[];
extern const char sq_cli_sprio_fmt[];
extern const char sq_cli_sprio_norm_fmt[];

/* The cap on one command's stdout: the cluster's max-output, or
 * SQ_CLI_OUT_LIMIT without a backend (cli may be NULL). */
size_t sq_cli_out_limit(const struct sq_cli *cli);

/* Run argv through the transport and check the exit status; on failure err
 * carries the first line of stderr. */
int sq_cli_run(struct sq_cli *cli, const char *const argv[], struct sq_buf *out,
	       struct sq_err *err);
/* The same with its stderr kept in ebuf (caller's, initialised), which
 * a command that exits 0 may still fill (sstat's refusals). */
int sq_cli_run_err(struct sq_cli *cli, const char *const argv[],
		   struct sq_buf *out, struct sq_buf *ebuf, struct sq_err *err);
/* sq_cli_run() with inlen bytes of in on the command's stdin: sbatch's
 * batch script, sacctmgr's "N" (the transport's run_in; refused where it
 * has none). Neither recorded (--record: the replay cannot send a stdin;
 * the runaway listing records itself) nor refused for output past out's
 * limit: sbatch has acted by then, its caller reads what came. */
int sq_cli_run_in(struct sq_cli *cli, const char *const argv[], const char *in,
		  size_t inlen, struct sq_buf *out, struct sq_err *err);

/* Free the metrics endpoint's state (metrics.c). */
void sq_cli_metrics_free(struct sq_cli_metrics *m);

/*
 * --record: write argv's output to the record directory (created 0700) and
 * a line "seq<TAB>status<TAB>file<TAB>argv0<TAB>argv1..." to its index.tsv.
 * Failures to record never fail the command. The replay backend
 * (backends/replay/) serves these files back.
 */
void sq_cli_record(struct sq_cli *cli, const char *const argv[], int status,
		   const struct sq_buf *out);

/* Detect the Slurm version with `sinfo -V`. */
int sq_cli_detect_version(struct sq_cli *cli, char *version, size_t n,
			  struct sq_err *err);

/* What argv costs the cluster: slurmctld RPCs and slurmdbd queries
 * (cost.c; measured on 22.05 with sdiag). */
void sq_cli_cost(const char *const argv[], unsigned *ctld, unsigned *dbd);

/* Seconds command cmd may run, given the configured timeout: sacct reads
 * the accounting of a whole window from slurmdbd (161,000 runs of a day
 * took 24 s on the testbed), so it gets four times as long, at most ten
 * minutes; the others base. */
int sq_cli_timeout(const char *cmd, int base);

/* The op closing every backend made of the CLI layer (b->priv is a
 * struct sq_cli owning its transport); caps and fetch: fetch.h. */
void sq_cli_backend_close(struct sq_backend *b);

/* The open op of such a backend on transport tr: the struct sq_cli in
 * b->priv, the transport's context that tr_new makes of cfg (NULL, err
 * set, when it cannot), then the Slurm version (`sinfo -V`). */
int sq_cli_backend_open(struct sq_backend *b, const struct sq_cluster_cfg *cfg,
			const struct sq_transport_ops *tr,
			void *(*tr_new)(const struct sq_cluster_cfg *cfg,
					struct sq_err *err),
			struct sq_err *err);

/* The ops the backends running the Slurm commands (local, ssh) share, in
 * their struct sq_backend_ops after .name and .open; each adds how it
 * reads files (and the local one slurmctld's metrics). */
#define SQ_CLI_BACKEND_OPS                                                     \
	.close = sq_cli_backend_close, .caps = sq_cli_backend_caps,            \
	.fetch = sq_cli_backend_fetch, .describe = sq_cli_describe,            \
	.read_targets = sq_cli_read_targets,                                   \
	.read_free = sq_cli_targets_read_free,                                 \
	.read_cut = sq_cli_targets_read_cut, .act = sq_cli_act,                \
	.job_live = sq_cli_job_live, .job_gres = sq_cli_job_gres,              \
	.job_files = sq_cli_job_files, .job_script = sq_cli_job_script

/* Parsers (text is modified in place). */
int sq_parse_version(const char *text, char *version, size_t n, int *major,
		     int *minor);
int sq_parse_squeue(char *text, struct sq_snapshot *s, struct sq_err *err);
int sq_parse_sinfo_nodes(char *text, struct sq_snapshot *s, struct sq_err *err);
/* sinfo -N's partition list of a node: list (comma-separated, the default
 * marked '*' first, then by name) with part inserted, into out. */
void sq_cli_parts_join(char *out, size_t n, const char *list, const char *part);
/* nd's reason_by/reason_at from sinfo's User and TimeStamp (or scontrol's
 * [user@time]): "" and SQ_NONE for "Unknown", none, or no reason. */
void sq_cli_reason_by_at(struct sq_snapshot *s, struct sq_node *nd,
			 const char *user, const char *stamp);

/* One line of `scontrol -o show node`, split in place (parse_scnode.c):
 * the fields squall reads; "" (NULL for the numbers) when absent. */
struct sq_scnode {
	const char *name, *parts, *gres, *used, *state;
	const char *cpu_alloc, *cpu_tot, *mem, *mem_alloc;
	const char *reason, *reason_by, *reason_stamp;
};
/* 0 a node, 1 nothing ("No nodes in the system", empty), -1 not a node
 * line or no name. */
int sq_scnode_line(char *line, struct sq_scnode *n);
/* What the nodes' line parser reads besides the text (stream.h,
 * sq_scnode_lines): the partitions and whether MIXED+PLANNED is marked. */
struct sq_scnode_ctx {
	const struct sq_snapshot *parts;
	int planned_mark;
};
/* The NODES kind from `scontrol -d -o show node`, as sinfo -N gives it:
 * parts is `scontrol -o show partition`'s snapshot (the partitions sinfo
 * shows, and the default); planned_mark: "mixed-" for MIXED+PLANNED
 * (as sinfo prints it, core/model/node_state.h). */
int sq_parse_scontrol_nodes(char *text, const struct sq_snapshot *parts,
			    int planned_mark, struct sq_snapshot *s,
			    struct sq_err *err);
int sq_parse_sprio(char *text, struct sq_snapshot *s, struct sq_err *err);
int sq_parse_sprio_norm(char *text, struct sq_snapshot *s, struct sq_err *err);
int sq_parse_sprio_weights(char *text, struct sq_snapshot *s,
			   struct sq_err *err);
int sq_parse_scontrol_partitions(char *text, struct sq_snapshot *s,
				 struct sq_err *err);

/* The local transport (fork/exec, no shell). */
extern const struct sq_transport_ops sq_transport_local;
void *sq_transport_local_new(const char *bindir, int timeout);
/* run() with inlen bytes of in on the command's stdin, then EOF (in NULL:
 * /dev/null): the batch script of sbatch. */
int sq_transport_local_run_in(void *ctx, const char *const argv[],
			      const char *in, size_t inlen, struct sq_buf *out,
			      struct sq_buf *errout, int *status,
			      struct sq_err *err);

#endif
