/*
 * output.h - batch mode's view of one job's output (output.c):
 * `squall --once --job ID --output stdout|stderr|script [--follow]`.
 */
#ifndef SQ_BATCH_OUTPUT_H
#define SQ_BATCH_OUTPUT_H

#include "core/conf/cluster.h"

/* How much of an output file is printed first: its last 256 KiB. */
#define SQ_OUTPUT_TAIL ((int64_t)256 * 1024)

/* Is what "stdout", "stderr" or "script"? 0, or -1 with one line on
 * stderr. */
int sq_batch_output_check(const char *what);

/*
 * Print job jobid's stdout or stderr (the last SQ_OUTPUT_TAIL bytes, a
 * line on stderr when there is more) or its batch script, escaped (core/
 * outpath.h). follow: keep printing what is appended until the job ends
 * or SIGINT. Returns the exit status: 0, 1 (one line on stderr) or 2.
 */
int sq_batch_output(const struct sq_cluster_cfg *cfg, const char *jobid,
		    const char *what, int follow);

#endif
