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

#include "core/base/buf.h"
#include "core/base/err.h"

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

/* Free text (reasons, comments): well-formed UTF-8, at most 1024 bytes,
 * and no control characters (C0, DEL, C1), quotes, backslash, '!', '`'
 * or '$'. */
int sq_valid_text(const char *s, struct sq_err *err);

/* A TRES or limit value list: cpu=8,gres/gpu=2,mem=4G, or -1 to clear. */
int sq_valid_tres(const char *s, struct sq_err *err);

/* An absolute directory (e.g. the Slurm bin dir): letters, digits and
 * _.+-/ only, no ".." component, at most 255 bytes. */
int sq_valid_path(const char *s, struct sq_err *err);

/* A non-negative integer or a Slurm duration (for limits). */
int sq_valid_number(const char *s, struct sq_err *err);
int sq_valid_duration(const char *s, struct sq_err *err);

/*
 * Append s single-quoted for a POSIX shell to b. Only call it with values
 * that passed a validator above; it refuses (returns -1) a value that
 * contains a single quote, a control character or invalid UTF-8 anyway,
 * and '!' and backslash, which csh and fish see even inside quotes.
 */
int sq_shell_quote(struct sq_buf *b, const char *s);

/* The variables a remote command line unsets (NULL-terminated). */
extern const char *const sq_shell_unset_env[];

/*
 * 1 when cmd (a name or a path: its last part counts) runs with TZ=UTC0
 * besides: a command every time of whose output squall reads as epoch
 * seconds (SLURM_TIME_FORMAT=%s), so the zone changes no byte of it. With
 * TZ unset, glibc's strftime("%s") calls mktime, which stats
 * /etc/localtime at every call: squeue makes two a job, 20,000 stat calls
 * and ~50 ms at 10,000 jobs (make bench, part 2). Both transports.
 */
int sq_shell_utc(const char *cmd);

/*
 * Append argv as one remote command line to b:
 *   env -u SQUEUE_FORMAT -u ... LC_ALL=C SLURM_TIME_FORMAT=%s 'cmd' 'arg'...
 * (and TZ=UTC0 before 'cmd' when sq_shell_utc(cmd)). argv[0] is a plain
 * command name (sq_valid_name), which a non-empty bindir (sq_valid_path)
 * turns into 'bindir/cmd', or an absolute path (sq_valid_path) used as it
 * is. Returns -1, and leaves b as it was, when a part fails its check or
 * cannot be quoted safely.
 */
int sq_shell_join(struct sq_buf *b, const char *bindir,
		  const char *const argv[]);

#endif
