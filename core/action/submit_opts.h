/*
 * submit_opts.h - the sbatch options `:submit` passes on (a whitelist)
 * and the checks of their values, each of which reaches sbatch's command
 * line. Used by the action checks (core/action/action.c) and the submit grammar
 * (core/action/submit.c); the SQ_ARG_* types are core/action/action.h's.
 */
#ifndef SQ_SUBMIT_OPTS_H
#define SQ_SUBMIT_OPTS_H

#include "core/base/err.h"

/*
 * X(short letter or 0, long name, SQ_ARG_* type, choices, help): the sbatch
 * options :submit passes on. The long name is the action's key ("time",
 * "job-name"); SQ_ARG_SBATCH values are checked by sq_submit_check().
 */
#define SQ_SUBMIT_OPTIONS(X)                                                   \
	X('p', "partition", SQ_ARG_NAMELIST, NULL, "partition(s)")             \
	X('A', "account", SQ_ARG_NAME, NULL, "account")                        \
	X('q', "qos", SQ_ARG_NAME, NULL, "QOS")                                \
	X('t', "time", SQ_ARG_DURATION, NULL,                                  \
	  "time limit: minutes or [D-]HH:MM:SS")                               \
	X('J', "job-name", SQ_ARG_SBATCH, NULL, "job name")                    \
	X('N', "nodes", SQ_ARG_SBATCH, NULL, "nodes: N or MIN-MAX")            \
	X('n', "ntasks", SQ_ARG_NUMBER, NULL, "tasks")                         \
	X('c', "cpus-per-task", SQ_ARG_NUMBER, NULL, "CPUs per task")          \
	X(0, "mem", SQ_ARG_SBATCH, NULL, "memory per node: 4000, 4G")          \
	X(0, "mem-per-cpu", SQ_ARG_SBATCH, NULL, "memory per CPU: 500M, 2G")   \
	X(0, "gres", SQ_ARG_SBATCH, NULL, "generic resources: gpu:1")          \
	X('G', "gpus", SQ_ARG_SBATCH, NULL, "GPUs: [type:]count")              \
	X('a', "array", SQ_ARG_SBATCH, NULL, "array indexes: 0-9%2, 1,3,5")    \
	X('o', "output", SQ_ARG_SBATCH, NULL, "stdout file (%j: job id)")      \
	X('e', "error", SQ_ARG_SBATCH, NULL, "stderr file (%j: job id)")       \
	X('H', "hold", SQ_ARG_FLAG, NULL, "submit it held")                    \
	X(0, "nice", SQ_ARG_INT, NULL, "nice value")                           \
	X('D', "chdir", SQ_ARG_SBATCH, NULL, "working directory (absolute)")   \
	X('w', "nodelist", SQ_ARG_SBATCH, NULL, "nodes it must run on")        \
	X('x', "exclude", SQ_ARG_SBATCH, NULL, "nodes it must not run on")     \
	X('b', "begin", SQ_ARG_SBATCH, NULL,                                   \
	  "start no earlier than: now+1hour, 2026-12-01T08:00, 16:00")         \
	X('d', "dependency", SQ_ARG_SBATCH, NULL,                              \
	  "afterok:ID[:ID], afterany:ID, singleton ...")                       \
	X(0, "comment", SQ_ARG_TEXT, NULL, "comment")                          \
	X(0, "export", SQ_ARG_ENUM, "none|all",                                \
	  "environment passed on: NONE or ALL")                                \
	X(0, "reservation", SQ_ARG_NAME, NULL, "reservation")                  \
	X(0, "exclusive", SQ_ARG_FLAG, NULL, "whole nodes")

/* Check the value of an SQ_ARG_SBATCH option key ("mem", "array" ...):
 * 0, or -1 with err (SQ_ERR_DENIED). */
int sq_submit_check(const char *key, const char *v, struct sq_err *err);

#endif
