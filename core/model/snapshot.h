/*
 * snapshot.h - an immutable, reference-counted table of records of one kind.
 *
 * The worker thread creates a snapshot, fills rows and strings from its
 * arena, then publishes it; after that nobody writes to it. Readers take a
 * reference (sq_snapshot_ref) and drop it (sq_snapshot_unref) from any
 * thread. Rows are one contiguous array of fixed-size records.
 */
#ifndef SQ_SNAPSHOT_H
#define SQ_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/base/arena.h"
#include "core/model/model.h"

struct sq_snapshot {
	enum sq_kind kind;
	unsigned refs;   /* atomically updated */
	time_t fetched;  /* when the data was read */
	double fetch_ms; /* how long the fetch took */
	struct sq_arena arena;
	void *rows;
	size_t nrows;
	size_t rowsize;
	size_t cap;
	const char *source; /* e.g. "squeue -O" or "GET /slurm/v0.0.38/jobs" */
	const char *note;   /* one line on what the data lacks, or NULL */
	/* a snapshot rows point into (prio), or one this one comes with
	 * (held; PREEMPT_RUNS: the runs the events are), or NULL */
	struct sq_snapshot *dep;
	/* unique among the process's snapshots (from 1): what a cache of
	 * something made from the rows is keyed by (core/query/order.c) */
	uint64_t serial;
	struct sq_snapshot *dep_gpu; /* another (gpuuse), or NULL */
	/* a slice (sq_snapshot_slice): the snapshot whose rows these are
	 * (held; rows then not owned), else NULL */
	struct sq_snapshot *base;
};

/* New empty snapshot of a kind with one reference; NULL on ENOMEM. */
struct sq_snapshot *sq_snapshot_new(enum sq_kind kind, size_t rowsize);
/* Append a zeroed row and return it, NULL on ENOMEM. Only before publish. */
void *sq_snapshot_add(struct sq_snapshot *s);
/* Room for n more rows in one allocation (a parser that counted its
 * lines): no doubling, no slack. 0, or -1 on ENOMEM (nothing changed). */
int sq_snapshot_reserve(struct sq_snapshot *s, size_t n);
/* src's rows (of dst's kind) copied after dst's, and src's arena moved
 * into dst's, so that the strings the rows point at live as long as dst;
 * src keeps its rows, no strings. Parts of one parse made apart, before
 * publish. 0, or -1 on ENOMEM (nothing changed). */
int sq_snapshot_append(struct sq_snapshot *dst, struct sq_snapshot *src);
/* No room beyond the rows (a parser done adding them). */
void sq_snapshot_fit(struct sq_snapshot *s);
/* Row i (no bounds check beyond an assert). */
void *sq_snapshot_row(const struct sq_snapshot *s, size_t i);
struct sq_snapshot *sq_snapshot_ref(struct sq_snapshot *s);
/* Drop a reference; frees on the last one. NULL is ignored. */
void sq_snapshot_unref(struct sq_snapshot *s);
/* Arena copies used by parsers; never return NULL (ENOMEM gives ""). */
const char *sq_snapshot_str(struct sq_snapshot *s, const char *p);
const char *sq_snapshot_strn(struct sq_snapshot *s, const char *p, size_t n);
/* A job's struct sq_job_more for these values (strings already in s or
 * static): NULL when the strings are NULL and restarts 0, the shared
 * sq_job_more_none when they are "" and 0, else a copy in s's arena
 * (sq_job_more_none when out of memory). */
const struct sq_job_more *sq_snapshot_job_more(struct sq_snapshot *s,
					       const char *tres_alloc,
					       const char *prio_by_part,
					       int32_t restart_cnt);
/*
 * A snapshot of rows [first, first + n) of base, sharing them (and
 * base's strings, source and note; it holds a reference to base): what
 * a view of one scope shows of a snapshot holding several (history:
 * runs, then users, accounts, nodes). NULL on ENOMEM.
 */
struct sq_snapshot *sq_snapshot_slice(struct sq_snapshot *base, size_t first,
				      size_t n);
/* Bytes held by the snapshot (rows + arena). */
size_t sq_snapshot_bytes(const struct sq_snapshot *s);

/* Row size of a kind's record (snapshot_rowsize.c: it knows every record
 * type, whose headers include this one). */
size_t sq_kind_rowsize(enum sq_kind kind);

#endif
