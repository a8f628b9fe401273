/*
 * history.h - finished (and still running) job runs from accounting
 * (sacct -D, REST /slurmdb/vX/jobs) with their steps and efficiency, the
 * per-user, per-account and per-node summaries of a time window, and the
 * window itself (`:since 2h`, `--since 2026-11-01`).
 *
 * One HISTORY snapshot holds rows of every scope, like GPUS: the run rows
 * that a parser adds, and the summary rows sq_history_finish() derives
 * from them; each history view shows one scope.
 */
#ifndef SQ_HISTORY_H
#define SQ_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/base/err.h"
#include "core/model/snapshot.h"

/* What a HISTORY row is. */
enum sq_hist_scope {
	SQ_HIST_RUN,     /* one run of one job (a requeued job has several) */
	SQ_HIST_USER,    /* a user's runs in the window */
	SQ_HIST_ACCOUNT, /* an account's runs */
	SQ_HIST_NODE,    /* runs that touched a node */
};

/* One step of a run (batch, extern, 0, 1 ...). Counts, seconds and KB in
 * 32 bits (sq_i32 saturates), as struct sq_job: a week of a big site
 * holds millions of steps. */
struct sq_hist_step {
	const char *step; /* the part after the '.' of the step id */
	const char *name;
	const char *state;
	const char *nodelist;
	int16_t exit_code; /* SQ_NONE when unknown */
	int16_t signal;
	int32_t elapsed; /* seconds */
	int32_t nodes;
	int32_t tasks;
	int32_t max_rss; /* KB, SQ_NONE when not recorded */
	/* the step's peaks (TRESUsageInMax gres/gpuutil, gres/gpumem):
	 * percent summed over its processes and devices, bytes; SQ_NONE
	 * when the step has no such item (nothing measured) */
	int32_t gpu_util;
	int64_t gpu_mem;
	double total_cpu; /* seconds (user + system), NAN when unknown */
};

/*
 * A HISTORY row. Run rows fill the job fields; summary rows fill the key
 * (user, account or node) and the counters, and hold the median
 * efficiencies of their runs in cpu_eff and mem_eff.
 * Efficiencies are fractions (0.5 = 50 %), NAN when unknown.
 * The fields only a run has and those only a summary has share their
 * memory (a week of a big site is a million runs): read a run's fields
 * of a run row only, a summary's of a summary row only. Counts, seconds,
 * MB and KB in 32 bits (sq_i32 saturates).
 */
struct sq_hist {
	enum sq_hist_scope scope;
	uint32_t job_id;
	const char *id; /* as sacct prints it: 12, 6_2 */
	const char *user;
	const char *account;
	const char *partition;
	const char *qos;
	const char *name;
	const char *state; /* COMPLETED, FAILED, CANCELLED ("by N" cut) */
	int32_t run;       /* 1 = the first run of this job in the window */
	int32_t exit_code; /* of the batch script; SQ_NONE when unknown */
	int32_t signal;
	int32_t elapsed; /* seconds */
	int32_t alloc_cpus;
	int32_t gpus;     /* accelerators allocated (any accelerator GRES) */
	int32_t gpu_idle; /* GPU peak under gpu-idle-below */
	uint32_t nsteps;  /* 0 in summary rows */
	double total_cpu; /* seconds, sum over the steps */
	double cpu_eff;
	double mem_eff;
	union {
		struct {                /* runs */
			int64_t submit; /* epoch or SQ_NONE */
			int64_t start;
			int64_t end;
			const char *nodelist;
			const char *tres; /* AllocTRES as printed */
			const struct sq_hist_step *steps; /* snapshot arena */
			/* GPU use (Slurm 23.02+, gres/gpuutil and
			 * gres/gpumem of the steps' TRESUsageInMax): the
			 * largest step peak, utilisation as a fraction of
			 * the allocated GPUs (Slurm's percent summed over
			 * devices and processes / gpus: 1.0 = every GPU
			 * busy), memory in bytes; NAN and SQ_NONE when
			 * none, gpu_note then says why ("" without GPUs) */
			double gpu_util_max;
			int64_t gpu_mem_max;
			const char *gpu_note; /* a literal */
			int32_t req_mem;      /* MB as requested (total) */
			int32_t alloc_mem;    /* MB, AllocTRES mem= */
			int32_t max_rss;      /* KB, max over the steps */
			int32_t nnodes;
		};
		struct { /* summary rows */
			const char *node;
			/* every run in exactly one counter: runs is their
			 * sum (other: DEADLINE, REVOKED, a state this
			 * build does not know) */
			int32_t runs;
			int32_t completed, failed, timeout, oom, cancelled;
			int32_t preempted, node_fail, requeued;
			int32_t active; /* running, pending */
			int32_t other;
			double cpu_hours;
			/* of the runs; a run's: sq_history_gpu_hours() */
			double gpu_hours, gpu_idle_hours;
			int64_t last_failure; /* node rows: end of the last
					       * failed run */
		};
	};
};

/* GPU-hours of a row (a run's: gpus x elapsed) and of its idle runs (a
 * run's: all of them when it is idle). */
double sq_history_gpu_hours(const struct sq_hist *h);
double sq_history_gpu_idle_hours(const struct sq_hist *h);

/* Outcome of a state, for colours and counters. */
enum sq_hist_outcome {
	SQ_HIST_OK,      /* COMPLETED */
	SQ_HIST_WARN,    /* TIMEOUT, CANCELLED, PREEMPTED, REQUEUED ... */
	SQ_HIST_FAIL,    /* FAILED, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL */
	SQ_HIST_ACTIVE,  /* RUNNING, PENDING, SUSPENDED ... */
	SQ_HIST_UNKNOWN, /* anything else */
};
enum sq_hist_outcome sq_history_outcome(const char *state);

/*
 * The window: a relative one ("2h", "30m", "7d", "90s", "2w"; rel > 0
 * seconds) or an absolute start ("2026-11-01", "2026-11-01T08:00",
 * "2026-11-01T08:00:00"; local time of the host that reads accounting).
 * "" means the default, the last 24 hours. spec is the canonical text.
 */
struct sq_hist_window {
	int64_t rel;
	int year, mon, day, hour, min, sec;
	char spec[64];
};

#define SQ_HIST_DEFAULT_SINCE "24h"
#define SQ_HIST_MAX_REL ((int64_t)3660 * 86400) /* ten years */

int sq_history_window_parse(const char *spec, struct sq_hist_window *w,
			    struct sq_err *err);
/* The value of sacct -S: "now-7200seconds" or "2026-11-01T08:00:00". */
void sq_history_window_sacct(const struct sq_hist_window *w, char *buf,
			     size_t n);
/* The start as epoch seconds (REST start_time), given the time now. */
int64_t sq_history_window_start(const struct sq_hist_window *w, time_t now);

/* Helpers shared by the parsers: */
/* sacct TotalCPU ([D-][HH:]MM:SS[.mmm]) into seconds; -1 on garbage. */
int sq_history_cpu_time(const char *s, double *out);
/* A size with an optional K/M/G/T/P suffix (KB when none, as MaxRSS) into
 * KB; "" -> SQ_NONE; -1 on garbage. */
int sq_history_kb(const char *s, int64_t *out);
/* "3:0" -> exit 3, signal 0; "" -> SQ_NONE. -1 on garbage. */
int sq_history_exit(const char *s, int64_t *code, int64_t *sig);
/* Accelerators in a TRES string ("cpu=2,gres/gpu:a100=2,gres/gpu=2" is
 * 2): untyped counts, or the sum of the typed ones where there is none. */
int64_t sq_history_gpus(const char *tres);
/* A TRES usage size ("2G", "1953125K", "4096": K/M/G/T/P are powers of
 * 1024, none is bytes) into bytes; -1 on garbage. */
int sq_history_bytes(const char *s, int64_t *out);
/* gres/gpuutil (percent) and gres/gpumem (bytes) of a TRESUsageInMax
 * string; SQ_NONE for an absent item; -1 on a garbled value. */
int sq_history_gpu_usage(const char *tres, int64_t *util, int64_t *mem);
/* Runs with GPUs and no measured use: why, when the backend knows better
 * than "not measured" (Slurm before 23.02). why is a literal. */
void sq_history_gpu_none(struct sq_snapshot *s, const char *why);
#define SQ_HIST_GPU_OLD "Slurm < 23.02"
/*
 * The gpu-idle-below setting (percent, default 5): a run whose GPU
 * peak stayed under it is idle. Set by the front end (any thread), read
 * by sq_history_finish().
 */
void sq_history_idle_below_set(long pct);
long sq_history_idle_below(void);
/* mem= of a TRES string in MB, SQ_NONE when absent. */
int64_t sq_history_tres_mem(const char *tres);

/*
 * Building a HISTORY snapshot: a parser adds run rows (fields set to
 * "unknown") and the steps of a run row by its index; the steps wait in
 * the builder until sq_history_finish() attaches them, totals CPU and
 * max RSS over them, computes efficiency (as seff), numbers the runs of
 * requeued jobs and appends the user, account and node summary rows.
 * sq_history_free() after finish (or on failure). -1 on ENOMEM.
 */
struct sq_hist_build {
	struct sq_snapshot *s;
	struct sq_hist_step *steps;
	size_t *parent;
	size_t n, cap;
};
void sq_history_init(struct sq_hist_build *b, struct sq_snapshot *s);
struct sq_hist *sq_history_add_run(struct sq_hist_build *b);
struct sq_hist_step *sq_history_add_step(struct sq_hist_build *b, size_t run);
int sq_history_finish(struct sq_hist_build *b);
/* sq_history_finish in two halves: the runs of b (steps attached, their
 * efficiency and GPU use), which parts of one answer may do each on its
 * own; then the runs of s together (a job's runs numbered, the
 * summaries), once the parts' runs are one snapshot. -1 on ENOMEM. */
int sq_history_finish_runs(struct sq_hist_build *b);
int sq_history_finish_jobs(struct sq_snapshot *s);
/* The user, account and node summary rows of runs [0, nruns) appended
 * (core/analysis/history_sum.c, for sq_history_finish); -1 on ENOMEM,
 * or when prep fails. prep (NULL: none) is what the caller does to the
 * runs first, on its thread, while another reads their node lists: it
 * may change any field of a run but its node list. */
int sq_history_summarise(struct sq_snapshot *s, size_t nruns,
			 int (*prep)(struct sq_snapshot *s));
/* The node rows get a thread of their own from n runs on (16384; tests
 * set 0 or SIZE_MAX). */
void sq_history_summarise_thread_min(size_t n);
void sq_history_free(struct sq_hist_build *b);
/*
 * An incremental fetch (a console refreshing a long window): incr is the
 * finished result of a short window that ends now, prev the last whole
 * result. A new finished snapshot of incr's runs and those of prev that
 * incr lacks (the same job, start and end) and that ended at or after
 * window_start (SQ_NONE: no limit); prev's active runs are dropped, since
 * any still active is in incr. Runs are numbered and summed again.
 * NULL when out of memory.
 */
struct sq_snapshot *sq_history_merge(const struct sq_snapshot *incr,
				     const struct sq_snapshot *prev,
				     int64_t window_start);
/*
 * The runs of two answers for different questions (the rest backend's
 * preemption events: runs by state, runs around each event): a new
 * finished snapshot of a's runs and those of b that a lacks (the same
 * job, start and end), active or not. NULL when out of memory.
 */
struct sq_snapshot *sq_history_union(const struct sq_snapshot *a,
				     const struct sq_snapshot *b);
/*
 * A backend's incremental history refreshes (the local and ssh backends'
 * sacct, the rest backend's /slurmdb/ jobs): after one whole-window
 * fetch, the next ones ask only for runs active since the last fetch,
 * less an overlap (runs slurmdbd recorded late; SQUALL_HISTORY_OVERLAP
 * seconds, default SQ_HIST_OVERLAP), and merge them in; the whole window
 * again every SQ_HIST_FULL seconds or when the window changes. Zeroed
 * memory is a valid empty state; enabled is the backend's choice (a
 * replay serves recorded windows only).
 */
#define SQ_HIST_FULL 900
#define SQ_HIST_OVERLAP 300

struct sq_hist_incr {
	int enabled;
	struct sq_snapshot *prev; /* the last result, a reference */
	size_t prev_nrows;        /* its rows then (batch mode trims) */
	char spec[64];            /* its window */
	int64_t at, full;         /* when the last and the last whole fetch
				   * started (epoch) */
};

/*
 * Before a fetch of window w (spec) at time now: 1 and start filled with
 * a sacct -S / start_time value ("now-Nseconds") when only the runs since
 * the last fetch are to be read, else 0 and start the whole window.
 */
int sq_history_incr_start(const struct sq_hist_incr *h,
			  const struct sq_hist_window *w, int64_t now,
			  char *start, size_t n);
/*
 * After it: *s (the fetch's finished snapshot) replaced by the merge
 * with the last result when part, and kept for the next one. -1 on ENOMEM
 * (*s unchanged and still the caller's).
 */
int sq_history_incr_done(struct sq_hist_incr *h, const struct sq_hist_window *w,
			 int64_t now, int part, struct sq_snapshot **s);
void sq_history_incr_free(struct sq_hist_incr *h);

/* Keep only the rows of one scope (batch mode, before printing). */
void sq_history_keep(struct sq_snapshot *s, enum sq_hist_scope scope);
/* Scope shown by a history view ("history", "history-users" ...), or -1. */
int sq_history_view_scope(const char *view_name);

#endif
