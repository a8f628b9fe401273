/*
 * submit.h - `:submit FILE [sbatch options]`: the sbatch options an admin
 * may pass (a whitelist, each value validated), parsing the submit line,
 * reading the batch script on the client (size cap, "#!", no NUL) with
 * its SHA-256, and the sbatch words of a parsed action. The script is
 * data: it goes to sbatch's stdin or into a JSON body, never onto a
 * command line. Nothing here runs anything.
 */
#ifndef SQ_SUBMIT_H
#define SQ_SUBMIT_H

#include <stddef.h>

#include "core/action.h"
#include "core/err.h"

#define SQ_SUBMIT_MAX_SCRIPT ((size_t)1024 * 1024)

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

/* Check the value of an SQ_ARG_SBATCH option key ("mem", "array" ...). */
int sq_submit_check(const char *key, const char *v, struct sq_err *err);

/*
 * Parse what follows "submit" (rest, modified in place) into a, an action
 * initialised as SQ_ACTION_JOB_SUBMIT: one FILE and options written
 * -p debug, -pdebug, --partition=debug, --partition debug or
 * partition=debug; values may be "double" or 'single' quoted. An unknown
 * option is refused naming the allowed ones. Then FILE is read with
 * sq_submit_load() and its absolute path becomes the action's target.
 */
int sq_submit_parse(char *rest, struct sq_action *a, struct sq_err *err);

/*
 * Read a batch script: a regular file of at most SQ_SUBMIT_MAX_SCRIPT
 * bytes that starts with "#!" and holds no NUL byte. On success
 * *script (malloc'd, NUL-terminated), *len, sha256 (64 hex + NUL) and
 * abspath (realpath, n bytes) are set.
 */
int sq_submit_load(const char *path, char **script, size_t *len,
		   char sha256[65], char *abspath, size_t n,
		   struct sq_err *err);

/* SHA-256 of data as 64 lowercase hex digits and a NUL. */
void sq_sha256_hex(const void *data, size_t len, char out[65]);

/* The sbatch option of argument i of a submit action as one argv word
 * ("--partition=debug", "--hold"), into buf. -1 when it does not fit. */
int sq_submit_word(const struct sq_action *a, size_t i, char *buf, size_t n);

/* Short description of the script for previews and messages:
 * "/path/job.sh (123 bytes, sha256 0123abcd...)". */
void sq_submit_about(const struct sq_action *a, char *buf, size_t n);

/* The new job id in sbatch --parsable output ("123" or "123;cluster"),
 * into id (n bytes); -1 when there is none. */
int sq_submit_parse_parsable(const char *out, char *id, size_t n);

#endif
