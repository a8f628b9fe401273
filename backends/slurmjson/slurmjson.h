/*
 * slurmjson.h - Slurm's JSON (slurmrestd responses, and `squeue --json`,
 * `sinfo --json` which share their shape) mapped into squall's records.
 *
 * One mapping serves v0.0.38 (22.05) and the data_parser family v0.0.39 to
 * v0.0.45 (26.05): numbers may be plain, null or {set,infinite,number};
 * states may be strings or string arrays; meta.Slurm or meta.slurm.
 * Unknown keys are ignored. errors[] and warnings[] are checked on every body.
 *
 * The interface takes raw bytes so callers need not include json-c. The
 * body is never modified; strings are copied into the snapshot's arena.
 * Functions never print and are safe on hostile input (malformed,
 * truncated or oversized bodies give -1 with an SQ_ERR_PARSE message).
 */
#ifndef SQ_SLURMJSON_H
#define SQ_SLURMJSON_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/base/err.h"
#include "core/model/snapshot.h"

/* What the envelope of a body said, beside the data. */
struct sq_sj_info {
	int api;             /* 38..45 from meta.plugin, 0 when unknown */
	char release[32];    /* Slurm release from meta, e.g. "22.05.8" */
	int nerrors;         /* entries in errors[] */
	int nwarnings;       /* entries in warnings[] */
	char warning[256];   /* the first warning's text, "" when none */
	int unchanged;       /* update_time answer: no changes, no data */
	int64_t last_update; /* "last_update" of the answer, or SQ_NONE */
};

/*
 * Parse a whole body and check its envelope. A non-empty errors[] gives -1
 * with SQ_ERR_COMMAND and the first error's text ("description (error
 * N)"); warnings are counted into info. info may be NULL.
 */
int sq_slurmjson_check(const char *body, size_t len, struct sq_sj_info *info,
		       struct sq_err *err);

/*
 * Parse a body and append the records of kind to s (whose kind must be
 * the same). now is the time used for running jobs' elapsed time.
 * Jobs that squeue hides by default (finished, not completing) are left
 * out. On an update_time answer without data, info->unchanged is set and
 * no row is added. Returns 0, or -1 with err set; rows added before a
 * failure stay in s, so callers drop s on error.
 */
int sq_slurmjson_parse(enum sq_kind kind, const char *body, size_t len,
		       time_t now, struct sq_snapshot *s,
		       struct sq_sj_info *info, struct sq_err *err);

/*
 * The same for a body that arrives in pieces (an HTTP transfer): feed each
 * piece as it comes, then end. The elements of the long lists ("jobs",
 * "nodes") are parsed and mapped as their bytes arrive (on a second
 * thread, a batch of them at a time), so memory stays near a few
 * batches; other kinds are kept and parsed at the end. The envelope (meta,
 * errors[], warnings[], last_update) is read at the end wherever it stood, with
 * the same checks and messages as sq_slurmjson_parse (errors[] win over a
 * record that cannot be read). feed returns -1 (and end the same error) once
 * the body is known to be malformed or too large (a malformed element may show
 * at a later feed, or at end): the caller may stop the transfer. The error is
 * the first in the body, however the pieces fell. s and info as for
 * sq_slurmjson_parse; rows added before a failure stay in s.
 */
struct sq_sj_stream;
struct sq_sj_stream *sq_slurmjson_stream_new(enum sq_kind kind, time_t now,
					     struct sq_snapshot *s,
					     struct sq_sj_info *info,
					     struct sq_err *err);
int sq_slurmjson_stream_feed(struct sq_sj_stream *st, const char *p, size_t n,
			     struct sq_err *err);
int sq_slurmjson_stream_end(struct sq_sj_stream *st, struct sq_err *err);
/* The most bytes kept whole (the envelope, one element, or all of a kind
 * without a per-element mapper): SQ_SJ_MAX_BODY unless set (tests). The
 * list's bytes as a whole have no bound. */
void sq_slurmjson_stream_limit(struct sq_sj_stream *st, size_t bytes);
/* The elements are parsed on a thread of their own, handed on in
 * batches of this many bytes (64 KiB unless set; tests: 1 hands on every
 * element, so even a small answer runs the thread). Before the first
 * feed. */
void sq_slurmjson_stream_batch(struct sq_sj_stream *st, size_t bytes);
void sq_slurmjson_stream_free(struct sq_sj_stream *st);

/* Does the mapping know this kind? */
int sq_slurmjson_supports(enum sq_kind kind);

/* The job state squeue prints from the words of a job's job_state (one
 * string before v0.0.39, the base state and its flags after): a flag
 * such as COMPLETING wins over the base state; an unknown word as it
 * is. */
const char *sq_slurmjson_job_state_word(const char *const *words, size_t n);

/* The longest body parsed whole, or part of a stream kept whole (bytes). */
#define SQ_SJ_MAX_BODY ((size_t)512 * 1024 * 1024)

#endif
