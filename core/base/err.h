/*
 * err.h - error reports passed up from backends and parsers.
 *
 * Functions return 0 or -1 and fill a caller-owned struct sq_err; the
 * message is one line, safe to show on the status line or stderr.
 */
#ifndef SQ_ERR_H
#define SQ_ERR_H

#include <stddef.h>

enum sq_err_code {
	SQ_OK = 0,
	SQ_ERR_USAGE,       /* bad option or argument */
	SQ_ERR_CONNECT,     /* cannot reach the cluster or the daemon */
	SQ_ERR_COMMAND,     /* a Slurm command or request failed */
	SQ_ERR_PARSE,       /* output we could not understand */
	SQ_ERR_UNSUPPORTED, /* backend cannot serve this */
	SQ_ERR_DENIED,      /* refused by policy (read-only, validation) */
	SQ_ERR_SYSTEM,      /* errno-style failure */
};

struct sq_err {
	enum sq_err_code code;
	char msg[512];
	/* SQ_ERR_COMMAND: the exit status of the command that failed (its
	 * message says it too, for people); 0 otherwise */
	int status;
};

/* Clear an error report (status too). err may be NULL. */
void sq_err_clear(struct sq_err *err);

/*
 * Set code and a printf-style message; always returns -1 so callers can
 * write "return sq_err_set(err, ...)"; status is 0 again (a failed
 * command sets it after). err may be NULL.
 */
int sq_err_set(struct sq_err *err, enum sq_err_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Name of an error code, e.g. "parse". */
const char *sq_err_name(enum sq_err_code code);

#endif
