/*
 * resv.h - reservations as actions (reserve, reserve-update,
 * reserve-delete): their start and end times (scontrol's words: now,
 * now+N[unit], YYYY-MM-DD[THH:MM[:SS]]), their flags, and the impact of
 * a new or changed reservation on the jobs of its nodes (who runs past
 * its start, who can no longer finish before it, when the last running
 * job ends). Pure: the caller hands in the jobs, nodes and reservations
 * snapshots (session/impact.c fetches them on the worker).
 */
#ifndef SQ_RESV_H
#define SQ_RESV_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/action/action.h"
#include "core/base/buf.h"
#include "core/base/err.h"
#include "core/model/snapshot.h"

/* A start or end time scontrol reads: "now", "now+N" with N in seconds
 * or followed by seconds|minutes|hours|days|weeks (singular too), or
 * YYYY-MM-DD[THH:MM[:SS]]. 0, or -1 with err set. */
int sq_resv_valid_time(const char *s, struct sq_err *err);
/* The epoch of such a time at now (local time for a date); -1 when s is
 * not one. *relative: 1 when s is relative to now. */
int sq_resv_time(const char *s, time_t now, int64_t *out, int *relative);
/* An epoch as a time scontrol reads back: "2026-12-06T05:55:00" (local). */
void sq_resv_time_format(int64_t t, char *buf, size_t n);
/* A span of seconds as "2h05m", "3d04h", "45s" (a negative one: its
 * length). */
void sq_resv_span(int64_t s, char *buf, size_t n);
/* Flags that may be set: a comma-separated list of known names (case
 * folded to upper case into out). */
int sq_resv_valid_flags(const char *s, char *out, size_t n, struct sq_err *err);
/* Flags an update changes: "+MAINT,-IGNORE_JOBS" (a sign holds for the
 * names after it, as in scontrol; none: +), written into out with a sign
 * before every name, in upper case. */
int sq_resv_valid_flag_changes(const char *s, char *out, size_t n,
			       struct sq_err *err);
/* Is flag name one that may be given on create (not one Slurm adds
 * itself, such as SPEC_NODES)? */
int sq_resv_flag_settable(const char *name);

/*
 * The reservations view's columns: the time to its start ("in 2h05m",
 * "active, 1h10m left", "ended") and a strip over the next
 * SQ_RESV_STRIP_DAYS days from local midnight today, a character per
 * six hours: '#' reserved (any part of it), '.' free, '|' between days.
 */
#define SQ_RESV_STRIP_DAYS 7
#define SQ_RESV_STRIP_SLOTS 4
void sq_resv_starts_in(int64_t start, int64_t end, time_t now, char *buf,
		       size_t n);
void sq_resv_strip(int64_t start, int64_t end, time_t now, char *buf, size_t n);

/* reserve's words beyond each value: one target (the name), an end
 * (duration= or end=), nodes= or partition=, users= or accounts=. */
int sq_resv_check(const struct sq_action *a, struct sq_err *err);

/* Does a (reserve or reserve-update) have an impact to show? */
int sq_resv_impact_applies(const struct sq_action *a);

/*
 * The impact of reservation action a at now: the running jobs on its
 * nodes whose time limit ends after its start (and whether Slurm will
 * refuse it for them: no IGNORE_JOBS, MAINT or OVERLAP), the pending jobs
 * of its partitions that need longer than the time left to the start, the
 * end of the last running job there. jobs, nodes (for a partition= or
 * for the nodes' partitions) and resv (reserve-update: the reservation's
 * values not changed) may be NULL: said so. Lines appended to text;
 * summary (n bytes): the overlapping running jobs, "12 13" or "none".
 * Returns the number of overlapping running jobs, -1 when a's start or
 * end cannot be known.
 */
int sq_resv_impact(const struct sq_action *a, const struct sq_snapshot *jobs,
		   const struct sq_snapshot *nodes,
		   const struct sq_snapshot *resv, time_t now,
		   struct sq_buf *text, char *summary, size_t n);

/* resv_check.c: does a show in r, the reservation read back after it
 * (NULL: not found)? An enum sq_verify; msg says what was seen. */
struct sq_reservation;
int sq_resv_verify(const struct sq_action *a, const struct sq_reservation *r,
		   time_t now, char *msg, size_t n);
/* The arguments that undo a into inv (which has the target), from the
 * reservation before (a create's inverse needs none); -1 when none. */
int sq_resv_inverse_args(const struct sq_action *a,
			 const struct sq_reservation *before, time_t now,
			 struct sq_action *inv);
/* The inverse of a on target as a command line into buf ("" and -1 when
 * there is none): reserve-delete, reserve-update with the old values, or
 * reserve with the deleted one's. */
int sq_resv_inverse(const struct sq_action *a, const char *target,
		    const struct sq_reservation *before, time_t now, char *buf,
		    size_t n);

#endif
