/*
 * plan.h - the fetch plan: for each kind of data a view shows, how the
 * backend fetches it (or, where the backend does not read it, which
 * kinds it is built from and by which pure function of core/: GPUs from
 * nodes and jobs for slurmrestd), which other kinds it joins (jobs with
 * sprio, partitions with nodes, events with the queue's restarts), which
 * rows a view of that kind keeps (its scope) and how often it is
 * refreshed. The plan is the one place that combines kinds; a backend
 * reads one kind a fetch. The
 * console's worker (tui/worker.c) and batch mode (batch/batch.c) both
 * fetch through sq_plan_fetch(); neither decides what a view needs.
 * The table is plan.c's plans[]: adding a view kind is one row there.
 * Pure functions and one fetch; any thread (the caller owns b).
 */
#ifndef SQ_PLAN_H
#define SQ_PLAN_H

#include "core/base/err.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"
#include "core/model/view.h"

struct sq_backend;

/* How often a kind is refreshed: every other kind's interval (the
 * slower one, DESIGN.md section 9; a row's default) or the queue's. */
enum sq_plan_interval { SQ_PLAN_SLOW, SQ_PLAN_FAST };

/* Which partners sq_plan_kinds() names. */
enum sq_plan_want {
	SQ_PLAN_EAGER = 0, /* the partners every row needs (console default) */
	SQ_PLAN_PRIO = 1,  /* with sprio (SQ_COL_PENDING columns shown) */
	SQ_PLAN_GPU = 2,   /* with live GPU use (SQ_COL_GPUUSE columns) */
	SQ_PLAN_QUEUE = 4, /* with the queue (SQ_COL_QUEUE columns) */
	SQ_PLAN_NODE_EVENTS = 8, /* with node events (SQ_COL_NODE_EVENTS) */
	SQ_PLAN_ALL = 15,        /* with every lazy one */
};

/*
 * Partners the caller already holds (the worker's published snapshots):
 * get(arg, kind) returns a new reference or NULL (none, or not wanted
 * now: then that join is left out). With no source sq_plan_fetch()
 * fetches every partner itself (batch mode).
 */
struct sq_plan_src {
	struct sq_snapshot *(*get)(void *arg, enum sq_kind kind);
	void *arg;
};

/*
 * Fetch kind through b, or build it from the kinds it is built from
 * where b does not read it (b->ops->built) or where the plan builds it
 * on every backend (the what-if, the batch overview), and join it with its
 * partners. Partners, of a join or a build, come from src when it holds
 * them, else are fetched now (src NULL: all of them). Every fetch,
 * partners' too, passes the capability check (b->ops->caps). *out is a
 * new snapshot (one reference), not yet published. 0, or -1 with err set
 * (a partner's failure counts only where the plan says it is needed).
 */
int sq_plan_fetch(struct sq_backend *b, enum sq_kind kind,
		  const struct sq_plan_src *src, struct sq_snapshot **out,
		  struct sq_err *err);

/* sq_plan_fetch() with no source, fetching of the lazy partners only
 * those want names (batch mode: the columns asked for). */
int sq_plan_fetch_want(struct sq_backend *b, enum sq_kind kind,
		       enum sq_plan_want want, struct sq_snapshot **out,
		       struct sq_err *err);

/* kind alone, without its joins, in batch mode: read by b or built by
 * the plan (a caller that joins it its own way: the batch overview's
 * GPUs, a job's limits). As sq_plan_fetch() otherwise. */
int sq_plan_fetch_plain(struct sq_backend *b, enum sq_kind kind,
			struct sq_snapshot **out, struct sq_err *err);

/* sq_plan_fetch_plain() where b's capabilities serve kind; where they
 * do not, -1 (SQ_ERR_UNSUPPORTED) without asking the backend why (an
 * optional read: a node action's impact). */
int sq_plan_fetch_served(struct sq_backend *b, enum sq_kind kind,
			 struct sq_snapshot **out, struct sq_err *err);

/* The kinds (SQ_KIND_BIT mask) to fetch for a view of kind: itself and
 * its partners (the lazy ones with SQ_PLAN_ALL). */
unsigned sq_plan_kinds(enum sq_kind kind, enum sq_plan_want want);

/* The lazy partners the shown columns (indices in v->cols) need:
 * SQ_PLAN_PRIO for SQ_COL_PENDING (sprio), SQ_PLAN_GPU for SQ_COL_GPUUSE
 * (sstat), SQ_PLAN_QUEUE for SQ_COL_QUEUE (squeue), SQ_PLAN_NODE_EVENTS
 * for SQ_COL_NODE_EVENTS (sacctmgr show event), else SQ_PLAN_EAGER. */
enum sq_plan_want sq_plan_want_cols(const struct sq_view_def *v,
				    const int *cols, int ncols);

/* The refresh interval of kind, seconds, with these settings. */
int sq_plan_interval(enum sq_kind kind, int fast, int slow);

/* The interval of kind when it is only joined into the kinds of want
 * (the events view's queue): the slowest of its own and theirs. */
int sq_plan_interval_joined(enum sq_kind kind, unsigned want, int fast,
			    int slow);

/* The fetch order: partners before the kinds that join them. Rank 0
 * goes first. */
int sq_plan_rank(enum sq_kind kind);

/*
 * Does row rec of v's snapshot belong to view v? Several views share a
 * kind and each shows one scope of it (gpus, gpus-users ...; history,
 * history-nodes ...). 1 for every row of a kind without scopes.
 */
int sq_plan_in_scope(const struct sq_view_def *v, const void *rec);

/* Keep only the rows of s that belong to v (before publishing: batch). */
void sq_plan_keep(const struct sq_view_def *v, struct sq_snapshot *s);
/* The rows of v's scope in s when v is a scoped view and they are one
 * run [*first, *first + *n) of s (none: 0 rows): 0, else -1. */
int sq_plan_scope_rows(const struct sq_view_def *v, const struct sq_snapshot *s,
		       size_t *first, size_t *n);

#endif
