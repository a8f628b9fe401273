/*
 * live.h - the live usage of a running job through the CLI backends
 * (live.c): `sstat -a -n -P -j ID -o ...`, its parser, and what its
 * stderr says when the user may not see the job's steps.
 */
#ifndef SQ_CLI_LIVE_H
#define SQ_CLI_LIVE_H

#include <stddef.h>

#include "backends/backend.h"
#include "core/base/err.h"
#include "core/model/live.h"

/* Parse sstat -n -P output (fields sq_live_sstat_fields) into out (its
 * rows appended; text is modified). -1 on a line with the wrong field
 * count. */
int sq_cli_parse_sstat(char *text, struct sq_live *out, struct sq_err *err);

/* The note for an sstat that printed no rows, from its stderr. */
void sq_cli_sstat_note(const char *errtext, char *note, size_t n);

/* The GPUs a job holds from `scontrol -d show job ID`: its
 * "Nodes=n3 ... GRES=gpu:a100:2(IDX:0-1)" lines as "n3
 * gpu:a100:2(IDX:0-1)", joined with "; ", into out ("" when none). */
void sq_cli_parse_job_gres(const char *text, char *out, size_t n);

/* The job_gres op of the local and ssh backends: scontrol -d show job. */
int sq_cli_job_gres(struct sq_backend *b, const char *jobid, char *out,
		    size_t n, struct sq_err *err);
/* The job_live op of the local and ssh backends. */
int sq_cli_job_live(struct sq_backend *b, const char *jobid,
		    struct sq_live *out, struct sq_err *err);

#endif
