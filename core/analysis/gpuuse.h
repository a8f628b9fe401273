/*
 * gpuuse.h - live GPU use of the running jobs that hold GPUs (the GPUUSE
 * kind): Slurm's gres/gpuutil and gres/gpumem of each job's steps as sstat
 * reports them, normalised to the job's allocated GPUs, with the samples
 * squall keeps across refreshes to judge "idle for N minutes".
 */
#ifndef SQ_GPUUSE_H
#define SQ_GPUUSE_H

#include <stdint.h>

#include "core/model/snapshot.h"

/* Samples kept per job (one a refresh-slow: two hours at 60 s). */
#define SQ_GPUUSE_SAMPLES 120
/* A job's GPUs are counted up to this many. */
#define SQ_GPUUSE_MAX_GPUS 1000000

/*
 * One running job holding GPUs. util is the last sample's gres/gpuutil
 * summed over the job's running steps, divided by its allocated GPUs and
 * capped at 100 (Slurm sums cu_occupancy over processes and devices);
 * mem the last gres/gpumem summed over the steps, in bytes; util_max and
 * mem_max the same of the steps' TRESUsageInMax (the peaks since each
 * step started). SQ_NONE where sstat gave no figure; note says why.
 */
struct sq_gpuuse {
	uint32_t job_id;
	const char *id; /* as squeue prints it (12, 13_4) */
	const char *user;
	const char *account;
	const char *partition;
	const char *nodelist;
	const char *type; /* gpu type of the allocation (a100) or "" */
	int64_t gpus;     /* allocated GPUs */
	int64_t start_time;
	int64_t run_s; /* run time at the fetch, seconds, or SQ_NONE */
	int64_t util, mem, util_max, mem_max;
	int steps;         /* sstat lines of the job */
	int64_t idle_min;  /* minutes under gpu-idle-below, SQ_NONE: busy */
	int64_t wasted_mh; /* GPU-minutes idle: gpus * idle_min */
	int idle;          /* listed by gpus-idle */
	const char *note;  /* why util is SQ_NONE, or "" */
	int nsamples;
	int64_t sample_at[SQ_GPUUSE_SAMPLES];   /* oldest first */
	int16_t sample_util[SQ_GPUUSE_SAMPLES]; /* -1: no figure */
};

/* A job's row from squeue: id, user, account, partition, start time
 * (epoch or SQ_NONE), nodelist and allocated TRES; jobs without GPUs
 * add nothing. -1 on ENOMEM. */
int sq_gpuuse_add_job(struct sq_snapshot *s, const char *id, const char *user,
		      const char *account, const char *partition,
		      int64_t start_time, const char *nodelist,
		      const char *tres_alloc);
/* Order the rows by id, so that sq_gpuuse_find is a binary search (the
 * parser does it once the jobs are in, before their steps). */
void sq_gpuuse_sort(struct sq_snapshot *s);
/* Row of a job id ("12", "13_4" or its raw id), or NULL. */
struct sq_gpuuse *sq_gpuuse_find(const struct sq_snapshot *s, const char *id);
/*
 * One sstat step's usage (the job id part of JobID before the '.'):
 * the gres/gpuutil and gres/gpumem items of its TRESUsageInTot (the last
 * sample, all tasks) and TRESUsageInMax. Adds to the job's sums. 0, or
 * 1 when the step's job has no row.
 */
int sq_gpuuse_add_step(struct sq_snapshot *s, const char *jobid,
		       const char *tres_max, const char *tres_tot);
/* Value of a TRES item ("gres/gpuutil") in a TRES string, sizes with a
 * unit (2G, 1953125K) in bytes; SQ_NONE when absent or unreadable. */
int64_t sq_gpuuse_tres(const char *tres, const char *item);

/* Settings of the idle judgement (`set gpu-idle-below`, `gpu-idle-after`). */
struct sq_gpuuse_cfg {
	int below; /* percent */
	int after; /* minutes */
};
#define SQ_GPUUSE_BELOW_DEFAULT 5
#define SQ_GPUUSE_AFTER_DEFAULT 30
/* The settings every backend reads (thread safe; the console's `set`). */
void sq_gpuuse_cfg_set(int below, int after);
struct sq_gpuuse_cfg sq_gpuuse_cfg_get(void);

/*
 * After the steps: normalise, take the samples of prev (the last result,
 * or NULL), add this one (at now), and judge each job's idleness: under
 * cfg.below now and since its oldest consecutive sample under it, or
 * since its start when its peak (Max) stayed under it; idle when that
 * lasted cfg.after minutes. note_all (a literal) is every row's note
 * when there is no figure at all (Slurm before 23.02), else NULL.
 */
void sq_gpuuse_finish(struct sq_snapshot *s, const struct sq_snapshot *prev,
		      int64_t now, struct sq_gpuuse_cfg cfg,
		      const char *note_all);
/* Scope of a row and of a view: 1 for gpus-idle (idle rows), -1 else. */
int sq_gpuuse_view_scope(const char *view_name);
int sq_gpuuse_row_scope(const void *rec);
void sq_gpuuse_keep(struct sq_snapshot *s, int scope);

/* What the rest backend's GPUUSE snapshot says (its note). */
#define SQ_GPUUSE_REST_NOTE                                                    \
	"not collected through slurmrestd (it serves no live step usage): "    \
	"use the local or ssh backend"

/*
 * Joins (core/analysis/gpuuse_join.c), before the target is published:
 * each running job of jobs holding GPUs gets its GPUUSE row (or the
 * reason there is none) in its sq_job_more; jobs keeps a reference to use.
 */
void sq_jobs_join_gpuuse(struct sq_snapshot *jobs, struct sq_snapshot *use);
/*
 * The util and idle cells of a GPUS snapshot from the jobs on its rows:
 * util is the mean of the measured jobs' util weighted by their GPUs
 * (node rows: the jobs whose nodelist has the node, their GPUs spread
 * evenly over their nodes; user, account and partition rows: their
 * jobs); user and account rows' idle is the GPUs of their jobs that
 * gpus-idle lists. Rows without a measured job keep util SQ_NONE and
 * get use's note, or why.
 */
void sq_gpus_join_use(struct sq_snapshot *gpus, const struct sq_snapshot *use);

/* Bytes as a GPU memory cell: 4.0G, 512M, 96K, 12. */
const char *sq_gpuuse_fmt_mem(int64_t bytes, char *buf, size_t n);
/* A percent cell: "37%", or NULL when v is SQ_NONE. */
const char *sq_gpuuse_fmt_pct(int64_t v, char *buf, size_t n);

#endif
