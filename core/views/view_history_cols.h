/*
 * view_history_cols.h - column helpers shared by the history views:
 * efficiencies as percentages ("94.47", as seff prints them) and CPU
 * hours. Included by the view_history*.c files only.
 */
#ifndef SQ_VIEW_HISTORY_COLS_H
#define SQ_VIEW_HISTORY_COLS_H

#include <math.h>
#include <stdio.h>

#include "core/analysis/history.h"
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define H struct sq_hist

/* A run's own fields and a summary's share memory (core/analysis/history.h):
 * read on the other kind of row, a field is none. */
#define SQ_HR_RUN(r, f, none) ((r)->scope == SQ_HIST_RUN ? (r)->f : (none))
#define SQ_HR_SUM(r, f, none) ((r)->scope != SQ_HIST_RUN ? (r)->f : (none))

/* x * scale rounded, the sort key of a scaled field; NAN: none. */
static inline long long
sq_hr_scaled_key(double x, double scale)
{
	return isnan(x) ? SQ_NONE : llround(x * scale);
}

/* x * scale with that many decimals; NAN: no text. */
static inline const char *
sq_hr_scaled_text(double x, double scale, int decimals, char *buf, size_t n)
{
	if (isnan(x))
		return NULL;
	snprintf(buf, n, "%.*f", decimals, x * scale);
	return buf;
}

static inline const char *
sq_hr_pct_text(double x, char *buf, size_t n)
{
	return sq_hr_scaled_text(x, 100, 2, buf, n);
}

static inline const char *
sq_hr_hours_text(double x, char *buf, size_t n)
{
	return sq_hr_scaled_text(x, 1, 1, buf, n);
}

/* A fraction shown as a percentage with two decimals; the value is in
 * hundredths of a percent. NAN: no value. */
#define SQ_PCT_FIELD(name, expr)                                               \
	SQ_KEYED_FIELD(name, H, sq_hr_scaled_key((expr), 10000),               \
		       sq_hr_pct_text, expr)

/* Hours with one decimal; the value in tenths of an hour. NAN: no
 * value. */
#define SQ_HOURS_FIELD(name, expr)                                             \
	SQ_KEYED_FIELD(name, H, sq_hr_scaled_key((expr), 10),                  \
		       sq_hr_hours_text, expr)

/* GPU utilisation peak as a percent of the allocated GPUs (one
 * decimal; the value in tenths of a percent), or why there is none. */
static inline int
sq_hist_gpu_util_num(const void *rec, long long *v)
{
	const H *r = rec;
	double x = SQ_HR_RUN(r, gpu_util_max, NAN);

	*v = isnan(x) ? SQ_NONE : llround(x * 1000);
	return 0;
}

static inline const char *
sq_hist_gpu_util(const void *rec, char *buf, size_t n)
{
	const H *r = rec;

	if (r->scope != SQ_HIST_RUN)
		return NULL;
	if (isnan(r->gpu_util_max))
		return r->gpu_note[0] != '\0' ? r->gpu_note : NULL;
	snprintf(buf, n, "%.1f", r->gpu_util_max * 100);
	return buf;
}

/* GPU memory peak: bytes (json), shown in K/M/G/T as sacct does. */
static inline int
sq_hist_gpu_mem_num(const void *rec, long long *v)
{
	*v = SQ_HR_RUN((const H *)rec, gpu_mem_max, SQ_NONE);
	return 0;
}

static inline const char *
sq_hist_gpu_mem(const void *rec, char *buf, size_t n)
{
	const H *r = rec;
	double v;
	int u = 0;

	if (r->scope != SQ_HIST_RUN)
		return NULL;
	if (r->gpu_mem_max == SQ_NONE)
		return r->gpus > 0 && r->gpu_note[0] != '\0' ? r->gpu_note
							     : NULL;
	for (v = (double)r->gpu_mem_max; v >= 1024 && u < 5; u++)
		v /= 1024;
	if (u == 0)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.*f%c", v < 10 ? 1 : 0, v, "KMGTP"[u - 1]);
	return buf;
}

/* The counters and figures of the user and account summaries: every
 * run is in exactly one outcome column (OK ... OTHER add up to RUNS). */
#define SQ_HIST_SUMMARY_FIELDS                                                 \
	SQ_HIST_OUTCOME_FIELDS                                                 \
	SQ_HOURS_FIELD(c_cpuh, SQ_HR_SUM(r, cpu_hours, NAN))                   \
	SQ_HOURS_FIELD(c_gpuh, SQ_HR_SUM(r, gpu_hours, NAN))                   \
	SQ_HOURS_FIELD(c_gpuidleh, SQ_HR_SUM(r, gpu_idle_hours, NAN))          \
	SQ_PCT_FIELD(c_cpueff, r->cpu_eff)                                     \
	SQ_PCT_FIELD(c_memeff, r->mem_eff)

/* The runs and their outcome counters (the node summary has them too). */
#define SQ_HIST_OUTCOME_FIELDS                                                 \
	SQ_INT_FIELD(c_runs, H, SQ_HR_SUM(r, runs, SQ_NONE))                   \
	SQ_INT_FIELD(c_completed, H, SQ_HR_SUM(r, completed, SQ_NONE))         \
	SQ_INT_FIELD(c_failed, H, SQ_HR_SUM(r, failed, SQ_NONE))               \
	SQ_INT_FIELD(c_timeout, H, SQ_HR_SUM(r, timeout, SQ_NONE))             \
	SQ_INT_FIELD(c_oom, H, SQ_HR_SUM(r, oom, SQ_NONE))                     \
	SQ_INT_FIELD(c_cancelled, H, SQ_HR_SUM(r, cancelled, SQ_NONE))         \
	SQ_INT_FIELD(c_preempted, H, SQ_HR_SUM(r, preempted, SQ_NONE))         \
	SQ_INT_FIELD(c_nodefail, H, SQ_HR_SUM(r, node_fail, SQ_NONE))          \
	SQ_INT_FIELD(c_requeued, H, SQ_HR_SUM(r, requeued, SQ_NONE))           \
	SQ_INT_FIELD(c_active, H, SQ_HR_SUM(r, active, SQ_NONE))               \
	SQ_INT_FIELD(c_other, H, SQ_HR_SUM(r, other, SQ_NONE))

/* The outcome columns, in this order; their sum is RUNS. */
#define SQ_HIST_OUTCOME_COLS                                                   \
	{ "completed", "OK",        "COMPLETED",     5,                        \
	  SQ_RIGHT,    c_completed, c_completed_num, SQ_NUM },                 \
	    { "failed",                                                        \
	      "FAILED",                                                        \
	      "FAILED (and BOOT_FAIL)",                                        \
	      6,                                                               \
	      SQ_RIGHT,                                                        \
	      c_failed,                                                        \
	      c_failed_num,                                                    \
	      SQ_NUM },                                                        \
	    { "timeout", "TIMEOUT", "TIMEOUT",     7,                          \
	      SQ_RIGHT,  c_timeout, c_timeout_num, SQ_NUM },                   \
	    { "oom",    "OOM", "OUT_OF_MEMORY", 4,                             \
	      SQ_RIGHT, c_oom, c_oom_num,       SQ_NUM },                      \
	    { "cancelled", "CANCEL",    "CANCELLED",     6,                    \
	      SQ_RIGHT,    c_cancelled, c_cancelled_num, SQ_NUM },             \
	    { "preempted", "PREEMPT",   "PREEMPTED",     7,                    \
	      SQ_RIGHT,    c_preempted, c_preempted_num, SQ_NUM },             \
	    { "node_fail", "NODEFAIL", "NODE_FAIL",    8,                      \
	      SQ_RIGHT,    c_nodefail, c_nodefail_num, SQ_NUM },               \
	    { "requeued",                                                      \
	      "REQUEUED",                                                      \
	      "REQUEUED (a run ended by a requeue)",                           \
	      8,                                                               \
	      SQ_RIGHT,                                                        \
	      c_requeued,                                                      \
	      c_requeued_num,                                                  \
	      SQ_NUM },                                                        \
	    { "active",                                                        \
	      "ACTIVE",                                                        \
	      "still running or pending",                                      \
	      6,                                                               \
	      SQ_RIGHT,                                                        \
	      c_active,                                                        \
	      c_active_num,                                                    \
	      SQ_NUM },                                                        \
	{                                                                      \
		"other", "OTHER", "any other end (DEADLINE, REVOKED ...)", 5,  \
		    SQ_RIGHT, c_other, c_other_num, SQ_NUM                     \
	}

#define SQ_HIST_SUMMARY_COLS                                                   \
	{ "runs",     "RUNS", "job runs in the window", 5, SQ_RIGHT, c_runs,   \
	  c_runs_num, SQ_NUM },                                                \
	    SQ_HIST_OUTCOME_COLS,                                              \
	    { "cpu_hours", "CPU_H",  "Elapsed x AllocCPUS, hours",             \
	      8,           SQ_RIGHT, c_cpuh,                                   \
	      c_cpuh_num,  0 },                                                \
	    { "gpu_hours", "GPU_H",  "Elapsed x accelerators, hours",          \
	      7,           SQ_RIGHT, c_gpuh,                                   \
	      c_gpuh_num,  0 },                                                \
	    { "gpu_idle_hours",                                                \
	      "IDLE_GPU_H",                                                    \
	      "GPU-hours of runs whose GPU use peak stayed under "             \
	      "gpu-idle-below",                                                \
	      10,                                                              \
	      SQ_RIGHT,                                                        \
	      c_gpuidleh,                                                      \
	      c_gpuidleh_num,                                                  \
	      0 },                                                             \
	    { "cpu_efficiency",                                                \
	      "CPU%",                                                          \
	      "median CPU efficiency of the runs",                             \
	      6,                                                               \
	      SQ_RIGHT,                                                        \
	      c_cpueff,                                                        \
	      c_cpueff_num,                                                    \
	      0 },                                                             \
	{                                                                      \
		"mem_efficiency", "MEM%",                                      \
		    "median memory efficiency of the runs", 6, SQ_RIGHT,       \
		    c_memeff, c_memeff_num, 0                                  \
	}

#endif
