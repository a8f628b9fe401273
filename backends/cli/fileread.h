/*
 * fileread.h - the follow-a-job ops of the CLI backends (fileread.c): a
 * job's record and batch script through scontrol on both; an output
 * file's size and bytes with open/pread locally, with stat and dd on the
 * login node over ssh. Contracts: backends/backend.h.
 */
#ifndef SQ_CLI_FILEREAD_H
#define SQ_CLI_FILEREAD_H

#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"

int sq_cli_job_files(struct sq_backend *b, const char *jobid,
		     struct sq_jobfiles *out, struct sq_err *err);
int sq_cli_job_script(struct sq_backend *b, const char *jobid,
		      struct sq_buf *out, struct sq_err *err);
int sq_local_file_stat(struct sq_backend *b, const char *path, int64_t *size,
		       struct sq_err *err);
int sq_local_file_read(struct sq_backend *b, const char *path, int64_t off,
		       size_t len, struct sq_buf *out, struct sq_err *err);
int sq_remote_file_stat(struct sq_backend *b, const char *path, int64_t *size,
			struct sq_err *err);
int sq_remote_file_read(struct sq_backend *b, const char *path, int64_t off,
			size_t len, struct sq_buf *out, struct sq_err *err);

#endif
