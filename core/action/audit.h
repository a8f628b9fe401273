/*
 * audit.h - the audit log of actions: two JSON lines per action (intent,
 * then result; or one "refused" line) appended to
 * $XDG_STATE_HOME/squall/audit.log (~/.local/state/squall/audit.log),
 * a file of mode 0600 owned by the user. Never a token: anything shaped
 * like a JWT is replaced by "[redacted]" before it is written.
 *
 * The JSON writer lives here, in core, without json-c (DESIGN.md §2): the
 * format is flat and small, and both batch mode and the TUI write it.
 */
#ifndef SQ_AUDIT_H
#define SQ_AUDIT_H

#include <stddef.h>

#include "core/action/action.h"
#include "core/base/buf.h"
#include "core/base/err.h"

struct sq_audit {
	int fd; /* -1 when closed */
	char path[1024];
	char user[64];   /* the local user (getpwuid(geteuid())) */
	int repaired;    /* open() narrowed a wider mode to 0600 */
	unsigned long n; /* actions logged in this process */
};

/* One line. Strings may be NULL (written as null); result only for
 * "result" lines. */
struct sq_audit_rec {
	const char *event;   /* "intent", "result", "refused" */
	const char *id;      /* pairs an intent with its result */
	const char *session; /* NULL: sq_audit_session() */
	double time;         /* seconds since the epoch; 0: now */
	const char *user;
	const char *cluster;
	const char *backend;
	const struct sq_action *action;
	const char *command; /* describe(): the exact command or HTTP call */
	const struct sq_result *result;
	const char *message; /* refused: why */
	const char
	    *running; /* node actions: the jobs running on the
			 targets ("12(alice) 13(bob)", "none"), or NULL */
};

/* The log path from the environment: $XDG_STATE_HOME/squall/audit.log,
 * else $HOME/.local/state/squall/audit.log. */
int sq_audit_default_path(char *buf, size_t n, struct sq_err *err);

/*
 * Open (create) the log for appending: parent directories are made 0700;
 * the file must be a regular file owned by the user; a mode wider than
 * 0600 is narrowed (au->repaired set) and, when that fails, the log is
 * refused. path NULL: the default path.
 */
int sq_audit_open(struct sq_audit *au, const char *path, struct sq_err *err);
void sq_audit_close(struct sq_audit *au);

/* A fresh id for an intent/result pair: "<pid>-<time>-<n>". */
void sq_audit_new_id(struct sq_audit *au, char *buf, size_t n);

/* Append one line (one write(2) with O_APPEND). */
int sq_audit_append(struct sq_audit *au, const struct sq_audit_rec *r,
		    struct sq_err *err);

/* Format one line (JSON object + '\n') into b. Used by append and tests. */
int sq_audit_line(struct sq_buf *b, const struct sq_audit_rec *r);

/* Append s as a JSON string (quoted, escaped, invalid UTF-8 replaced,
 * JWT-shaped tokens redacted); NULL gives null. */
int sq_json_string(struct sq_buf *b, const char *s);

/* This process's session id ("<pid>-<start ms>"), on every line: :undo
 * offers only what this session did. */
const char *sq_audit_session(void);

/* One line read back; fields "" when absent; targets joined with ','. */
struct sq_audit_entry {
	char time[32];
	char event[16];
	char id[64];
	char session[64];
	char user[64];
	char cluster[64];
	char backend[16];
	char action[32];
	char targets[256];
	char args[1024]; /* the action's key=value arguments, joined by ',' */
	char command[1024];
	char message[1024];
	char inverse[1024];
	char ok[8];
};

/*
 * The one reader of the log (`:audit`, `:undo`, tests): the last max
 * lines of the log at path (NULL: default), oldest first, into *out
 * (malloc'd, *n entries; free()). 0 with *n == 0 when there is no log.
 */
int sq_audit_read(const char *path, size_t max, struct sq_audit_entry **out,
		  size_t *n, struct sq_err *err);

/* A top-level field of one line into buf: a string unescaped, an array
 * of strings joined with ',', a number or true/false as written, null
 * as "". Returns 1 when the key is there. */
int sq_audit_field(const char *line, const char *key, char *buf, size_t n);

/*
 * What `:undo` offers: the newest inverse of session and cluster (NULL:
 * any), labelled with what it undoes ("undo setlimit chem/carol maxjobs
 * 3 -> 5"); note says when newer actions of the session failed (they
 * changed nothing, so the undo offered is of an older action). inverse
 * "" when there is none.
 */
struct sq_audit_undo {
	char inverse[1024];
	char label[512];
	char note[256];
};
int sq_audit_last_undo(const char *path, const char *session,
		       const char *cluster, struct sq_audit_undo *u,
		       struct sq_err *err);
/* The label of the undo of entry e (a result line with an inverse). */
void sq_audit_undo_label(const struct sq_audit_entry *e, char *buf, size_t n);
/* The label of line k (0: the first) of e's inverse, with that line's own
 * targets and values ("undo setlimit a/y maxjobs 3 -> 7"). */
void sq_audit_undo_label_line(const struct sq_audit_entry *e, size_t k,
			      char *buf, size_t n);

#endif
