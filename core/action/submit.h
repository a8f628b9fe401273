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

#include "core/action/action.h"
#include "core/base/err.h"
#include "core/action/submit_opts.h"

#define SQ_SUBMIT_MAX_SCRIPT ((size_t)1024 * 1024)

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
