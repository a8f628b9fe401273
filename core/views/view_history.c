/*
 * view_history.c - the history view: one row per run of a job that
 * accounting knows in the window (finished, and running or pending when
 * the window catches them), newest end first, with its exit code and
 * efficiency as seff reports it. Also which scope each history view
 * shows (one HISTORY snapshot holds every scope, like GPUS).
 */
#include <string.h>

#include "core/views/view_history_cols.h"

SQ_STR_FIELD(c_id, H, r->id)
SQ_STR_FIELD(c_user, H, r->user)
SQ_STR_FIELD(c_account, H, r->account)
SQ_STR_FIELD(c_part, H, r->partition)
SQ_STR_FIELD(c_qos, H, r->qos)
SQ_STR_FIELD(c_name, H, r->name)
SQ_STR_FIELD(c_state, H, r->state)
SQ_STR_FIELD(c_nodes, H, SQ_HR_RUN(r, nodelist, NULL))
SQ_STR_FIELD(c_tres, H, SQ_HR_RUN(r, tres, NULL))
SQ_INT_FIELD(c_exit, H, r->exit_code)
SQ_INT_FIELD(c_signal, H, r->signal)
SQ_INT_FIELD(c_cpus, H, r->alloc_cpus)
SQ_INT_FIELD(c_gpus, H, r->gpus)
SQ_INT_FIELD(c_nnodes, H, SQ_HR_RUN(r, nnodes, SQ_NONE))
SQ_INT_FIELD(c_reqmem, H, SQ_HR_RUN(r, req_mem, SQ_NONE))
SQ_INT_FIELD(c_allocmem, H, SQ_HR_RUN(r, alloc_mem, SQ_NONE))
SQ_INT_FIELD(c_maxrss, H, SQ_HR_RUN(r, max_rss, SQ_NONE))
SQ_INT_FIELD(c_run, H, r->run)
SQ_INT_FIELD(c_restarts, H, r->run - 1)
SQ_INT_FIELD(c_job, H, r->job_id)
SQ_INT_FIELD(c_nsteps, H, (long long)r->nsteps)
SQ_TIME_FIELD(c_submit, H, SQ_HR_RUN(r, submit, SQ_NONE))
SQ_TIME_FIELD(c_start, H, SQ_HR_RUN(r, start, SQ_NONE))
SQ_TIME_FIELD(c_end, H, SQ_HR_RUN(r, end, SQ_NONE))
SQ_DUR_FIELD(c_elapsed, H, r->elapsed)
SQ_PCT_FIELD(c_cpueff, r->cpu_eff)
SQ_PCT_FIELD(c_memeff, r->mem_eff)
SQ_HOURS_FIELD(c_gpuh, sq_history_gpu_hours(r))
SQ_HOURS_FIELD(c_gpuidleh, sq_history_gpu_idle_hours(r))

static int
c_totcpu_num(const void *rec, long long *v)
{
	const H *r = rec;

	*v = isnan(r->total_cpu) ? SQ_NONE : llround(r->total_cpu);
	return 0;
}

static const char *
c_totcpu(const void *rec, char *buf, size_t n)
{
	const H *r = rec;

	if (isnan(r->total_cpu))
		return NULL;
	snprintf(buf, n, "%.3f", r->total_cpu);
	return buf;
}

/* job_id sorts by the real job id, then the run */
static int
c_id_num(const void *rec, long long *v)
{
	const H *r = rec;

	*v = (long long)r->job_id * 1000 + (r->run > 999 ? 999 : r->run);
	return 0;
}

static const struct sq_column cols[] = {
	{ "job_id", "JOBID", "job id as sacct prints it (6_2 for array tasks)",
	  8, SQ_LEFT, c_id, c_id_num, 0 },
	{ "user", "USER", "user", 8, SQ_LEFT, c_user, NULL, 0 },
	{ "account", "ACCOUNT", "account", 9, SQ_LEFT, c_account, NULL, 0 },
	{ "partition", "PARTITION", "partition", 9, SQ_LEFT, c_part, NULL, 0 },
	{ "state", "STATE", "how the run ended (CANCELLED without 'by UID')",
	  10, SQ_LEFT, c_state, NULL, SQ_COL_ROLE_OUTCOME },
	{ "exit_code", "EXIT", "exit code of the batch script", 4, SQ_RIGHT,
	  c_exit, c_exit_num, SQ_NUM },
	{ "start", "START", "start of the run", 19, SQ_LEFT, c_start,
	  c_start_num, SQ_NUM | SQ_COL_TIME },
	{ "end", "END", "end of the run", 19, SQ_LEFT, c_end, c_end_num,
	  SQ_NUM | SQ_COL_TIME },
	{ "elapsed", "ELAPSED", "run time (seconds in json)", 9, SQ_RIGHT,
	  c_elapsed, c_elapsed_num, SQ_NUM },
	{ "alloc_cpus", "CPUS", "allocated CPUs", 4, SQ_RIGHT, c_cpus,
	  c_cpus_num, SQ_NUM },
	{ "cpu_efficiency", "CPU%",
	  "TotalCPU / (Elapsed x AllocCPUS), percent (seff)", 6, SQ_RIGHT,
	  c_cpueff, c_cpueff_num, 0 },
	{ "mem_efficiency", "MEM%",
	  "largest step MaxRSS / allocated memory, percent (seff)", 6, SQ_RIGHT,
	  c_memeff, c_memeff_num, 0 },
	{ "gpus", "GPUS", "accelerators allocated", 4, SQ_RIGHT, c_gpus,
	  c_gpus_num, SQ_NUM },
	{ "gpu_util_max", "GPU%PEAK",
	  "GPU use peak, percent of the allocated GPUs (Slurm's gres/gpuutil "
	  "peak, summed over devices, / GPUS), or why none",
	  8, SQ_RIGHT, sq_hist_gpu_util, sq_hist_gpu_util_num, 0 },
	{ "gpu_mem_max", "GPUMEM_PEAK",
	  "GPU memory peak (gres/gpumem; bytes in json), or why none", 11,
	  SQ_RIGHT, sq_hist_gpu_mem, sq_hist_gpu_mem_num, SQ_NUM },
	{ "gpu_hours", "GPU_H", "GPUS x elapsed, hours", 6, SQ_RIGHT, c_gpuh,
	  c_gpuh_num, SQ_HID },
	{ "gpu_idle_hours", "IDLE_GPU_H",
	  "GPU_H when the GPU use peak stayed under gpu-idle-below", 10,
	  SQ_RIGHT, c_gpuidleh, c_gpuidleh_num, SQ_HID },
	{ "nodes", "NODES", "nodes of the run", 10, SQ_LEFT, c_nodes, NULL, 0 },
	{ "name", "NAME", "job name", 12, SQ_LEFT, c_name, NULL, SQ_HID },
	{ "qos", "QOS", "QOS", 8, SQ_LEFT, c_qos, NULL, SQ_HID },
	{ "job", "JOBIDRAW", "the real job id", 8, SQ_RIGHT, c_job, c_job_num,
	  SQ_NUM | SQ_HID },
	{ "run", "RUN", "run of the job in the window (1 = first)", 3, SQ_RIGHT,
	  c_run, c_run_num, SQ_NUM | SQ_HID },
	{ "restarts", "RESTARTS", "earlier runs of this job in the window", 3,
	  SQ_RIGHT, c_restarts, c_restarts_num, SQ_NUM | SQ_HID },
	{ "signal", "SIG", "signal that ended the batch script", 3, SQ_RIGHT,
	  c_signal, c_signal_num, SQ_NUM | SQ_HID },
	{ "submit", "SUBMIT", "submit time", 19, SQ_LEFT, c_submit,
	  c_submit_num, SQ_NUM | SQ_HID | SQ_COL_TIME },
	{ "total_cpu", "TOTALCPU", "CPU seconds used (user + system)", 9,
	  SQ_RIGHT, c_totcpu, c_totcpu_num, SQ_HID },
	{ "max_rss", "MAXRSS", "largest step MaxRSS, KB", 8, SQ_RIGHT, c_maxrss,
	  c_maxrss_num, SQ_NUM | SQ_HID },
	{ "req_mem", "REQMEM", "memory requested, MB", 7, SQ_RIGHT, c_reqmem,
	  c_reqmem_num, SQ_NUM | SQ_HID },
	{ "alloc_mem", "ALLOCMEM", "memory allocated (AllocTRES mem=), MB", 8,
	  SQ_RIGHT, c_allocmem, c_allocmem_num, SQ_NUM | SQ_HID },
	{ "nnodes", "NNODES", "number of nodes", 3, SQ_RIGHT, c_nnodes,
	  c_nnodes_num, SQ_NUM | SQ_HID },
	{ "steps", "STEPS", "steps recorded", 3, SQ_RIGHT, c_nsteps,
	  c_nsteps_num, SQ_NUM | SQ_HID },
	{ "tres", "TRES", "AllocTRES", 20, SQ_LEFT, c_tres, NULL, SQ_HID },
};

static const char *const aliases[] = { "hist", "sacct", "finished", NULL };

const struct sq_view_def sq_view_history = {
	.name = "history",
	.aliases = aliases,
	.help = "job runs in the window (:since): state, exit code, efficiency",
	.kind = SQ_KIND_HISTORY,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "-end",
};

int
sq_history_view_scope(const char *view_name)
{
	if (strcmp(view_name, sq_view_history.name) == 0)
		return SQ_HIST_RUN;
	if (strcmp(view_name, sq_view_history_users.name) == 0)
		return SQ_HIST_USER;
	if (strcmp(view_name, sq_view_history_accounts.name) == 0)
		return SQ_HIST_ACCOUNT;
	if (strcmp(view_name, sq_view_history_nodes.name) == 0)
		return SQ_HIST_NODE;
	return -1;
}
