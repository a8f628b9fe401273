/*
 * validate.h - whitelists for every value that goes into a command line
 * (local argv, a remote shell over ssh, an HTTP path), and the quoting of
 * remote arguments. Values are checked first and only then quoted: a value
 * that fails is refused, never escaped into shape.
 */
#ifndef SQ_VALIDATE_H
#define SQ_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/err.h"

/*
 * A job id: "123", "123_4", "123_[1-5]" or "123+1" (hetjob). Parsed to
 * integers and re-printed canonically into out; -1 when invalid.
 */
int sq_valid_jobid(const char *s, char *out, size_t n, struct sq_err *err);

/* A name (account, user, partition, QOS, node, reservation):
 * ^[A-Za-z0-9_][A-Za-z0-9_.-]*$, at most 128 bytes. */
int sq_valid_name(const char *s, struct sq_err *err);

/* A node list as Slurm writes it: names, ',', '[', ']', '-' digits. */
int sq_valid_nodelist(const char *s, struct sq_err *err);

/* Free text (reasons, comments): printable, at most 1024 bytes, and no
 * control characters, quotes, backslash, '!' or '`' or '$'. */
int sq_valid_text(const char *s, struct sq_err *err);

/* A TRES or limit value list: cpu=8,gres/gpu=2,mem=4G, or -1 to clear. */
int sq_valid_tres(const char *s, struct sq_err *err);

/* A non-negative integer or a Slurm duration (for limits). */
int sq_valid_number(const char *s, struct sq_err *err);
int sq_valid_duration(const char *s, struct sq_err *err);

/*
 * Append s single-quoted for a POSIX shell to b. Only call it with values
 * that passed a validator above; it refuses (returns -1) a value that
 * contains a quote or a control character anyway.
 */
int sq_shell_quote(struct sq_buf *b, const char *s);

/*
 * Join argv into one remote command line: "env LC_ALL=C
 * SLURM_TIME_FORMAT=%s 'arg0' 'arg1' ...". -1 when an argument cannot be
 * quoted safely.
 */
int sq_shell_join(struct sq_buf *b, const char *const argv[]);

#endif
