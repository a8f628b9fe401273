/*
 * outpath.h - where a batch job writes its output: the StdOut/StdErr of
 * `scontrol show job -o` with Slurm's filename patterns expanded as slurmd
 * expands them, and the escaping that shows a file's bytes as text.
 * Pure functions: no I/O, nothing printed.
 */
#ifndef SQ_OUTPATH_H
#define SQ_OUTPATH_H

#include <stddef.h>

#include "core/base/buf.h"
#include "core/base/err.h"

#define SQ_OUTPATH_MAX 4096

/* What the patterns need: strings as scontrol prints them ("" unknown). */
struct sq_outpath_job {
	const char *job_id;        /* JobId=12 */
	const char *array_job_id;  /* ArrayJobId=, "" when not an array */
	const char *array_task_id; /* ArrayTaskId=, "" when not an array */
	const char *user;          /* the name of UserId=alice(1001) */
	const char *name;          /* JobName= */
	const char *node;          /* BatchHost= (%N) */
	const char *work_dir;      /* WorkDir= (relative paths) */
};

/*
 * Expand pattern into out (n bytes) as slurmd does for a batch step: a
 * relative path is taken from work_dir; a path holding a backslash is not
 * expanded (the backslashes are dropped); %% is '%'; %A (the array job id,
 * else the job id), %a (the task id; 4294967294 outside an array, as
 * Slurm writes), %j and %J (the job id), %s ("batch"), %n and %t ("0"),
 * %u, %x, %N (the batch host); a width between % and a numeric one pads
 * with zeros (at most 10); an unknown one is kept with its '%' (%b on
 * 22.05). 0, or -1 when it does not fit.
 */
int sq_outpath_expand(const char *pattern, const struct sq_outpath_job *j,
		      char *out, size_t n);

/* The job's files and state from one `scontrol show job -o` record. */
struct sq_jobfiles {
	char job_id[32];
	char state[32];     /* JobState=RUNNING */
	char node[256];     /* BatchHost=, "" before it starts */
	char nodelist[256]; /* NodeList= */
	char user[64];
	char stdout_path[SQ_OUTPATH_MAX]; /* expanded, "" when none */
	char stderr_path[SQ_OUTPATH_MAX];
};

/*
 * Fill jf from the first record of text (scontrol show job -o ID). Values
 * may hold spaces (WorkDir, StdOut): a value ends where the next " Key="
 * begins. 0, or -1 with err when there is no JobId.
 */
int sq_jobfiles_parse(const char *text, struct sq_jobfiles *jf,
		      struct sq_err *err);

/* Is a job in this state still writing (pending, running, suspended,
 * configuring, completing ...)? */
int sq_jobfiles_active(const char *state);

/* Has a job in this state not started its batch script yet (pending,
 * requeued, configuring: its output files need not exist)? */
int sq_jobfiles_waiting(const char *state);

/*
 * What to say when a waiting job's output file is not there yet, into
 * buf (n bytes): "job 12 has not started (PENDING): its stdout will be
 * written to /home/alice/slurm-12.out". Returns buf.
 */
const char *sq_jobfiles_not_started(const char *jobid, const char *state,
				    const char *what, const char *path,
				    char *buf, size_t n);

/*
 * Append bytes p[0..n) to out as text safe for a terminal: printable
 * ASCII, tab, newline and well-formed UTF-8 of printable characters as
 * they are; every other byte as \xNN, a carriage return as \r. When more
 * is to come (final 0), an incomplete UTF-8 sequence at the end is left
 * for the next call. Returns how many bytes of p were used, or (size_t)-1
 * when out is full.
 */
size_t sq_text_escape(const char *p, size_t n, int final, struct sq_buf *out);

#endif
