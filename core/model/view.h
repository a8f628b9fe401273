/*
 * view.h - views as data: each view is a table of columns over the rows
 * of one kind. Batch mode, the TUI table widget, `?` help and the man page
 * all read these tables, so a column exists in one place only.
 *
 * Column ids are stable lower_snake names: they are the tsv header and the
 * JSON keys, and scripts depend on them.
 */
#ifndef SQ_VIEW_H
#define SQ_VIEW_H

#include <stddef.h>

#include "core/model/model.h"

enum sq_align { SQ_LEFT, SQ_RIGHT };

/* Column flags */
#define SQ_COL_NUM 0x1     /* numeric: JSON number, right aligned */
#define SQ_COL_HIDDEN 0x2  /* not among the default columns */
#define SQ_COL_PENDING 0x4 /* only meaningful for pending jobs */
/* a moment: num() is epoch seconds; text() ISO 8601 local time (tsv);
 * the console and the text table show it compact (core/query/when.h) */
#define SQ_COL_TIME 0x8
/* The colour role of the column's cells in the console (tui/colors.c
 * maps the value to a role), one of these in the SQ_COL_ROLE bits: */
#define SQ_COL_ROLE 0x70            /* mask */
#define SQ_COL_ROLE_JOB_STATE 0x10  /* RUNNING, PD, FAILED ... */
#define SQ_COL_ROLE_NODE_STATE 0x20 /* idle, mixed, drained, down* ... */
#define SQ_COL_ROLE_OUTCOME 0x30    /* a finished run: how it ended */
/* a GRES list ("gres:gpu:1", "gpu:a100:2(IDX:0-1),tpu:0"): a field filter
 * @col=gpu finds any GRES named gpu, @col=gpu:a100 one of that type */
#define SQ_COL_GRES 0x80
/* needs the jobs' live GPU use (sstat): the plan then fetches it */
#define SQ_COL_GPUUSE 0x100
/* needs the queue joined into another kind (the nodes' stuck COMPLETING
 * jobs): the plan then fetches it */
#define SQ_COL_QUEUE 0x200
/* needs the node events (sacctmgr show event): the plan then fetches them */
#define SQ_COL_NODE_EVENTS 0x400

struct sq_column {
	const char *id;    /* stable id, e.g. "job_id" */
	const char *title; /* header in the table, e.g. "JOBID" */
	const char *help;
	int width; /* preferred width in the TUI */
	enum sq_align align;
	/* Text of the cell; returns a pointer to buf or to a string owned
	 * by the record. Returns NULL for "no value" (JSON null, "" in tsv). */
	const char *(*text)(const void *rec, char *buf, size_t n);
	/* Numeric value for sorting and JSON, or NULL for text columns. */
	int (*num)(const void *rec, long long *v);
	unsigned flags;
};

struct sq_view_def {
	const char *name;
	const char *const *aliases; /* NULL-terminated, may be NULL */
	const char *help;
	enum sq_kind kind;
	const struct sq_column *cols;
	size_t ncols;
	const char *default_sort; /* column id, "-" prefix for descending */
	/* The console's default columns in their order, each with its fit
	 * priority (1 most important): "job_id:1,name:3,...". The console
	 * shows the most important ones that fit the terminal; from 7 on
	 * the columns of one priority go together, all or none. NULL: the
	 * columns without SQ_COL_HIDDEN, the first ones first. */
	const char *layout;
};

/* All views, NULL-terminated (view_registry.c). */
extern const struct sq_view_def *const sq_views[];

/* A view by name or alias; NULL when unknown. */
const struct sq_view_def *sq_view_find(const char *name);
/* Column of a view by id, or NULL. */
const struct sq_column *sq_view_column(const struct sq_view_def *v,
				       const char *id);

/* The console's default columns (def indices into idx, fit priorities
 * into prio, at most max); returns the count. */
int sq_view_layout(const struct sq_view_def *v, int *idx, int *prio, int max);
/* Is column i among the console's default columns? */
int sq_view_in_layout(const struct sq_view_def *v, size_t i);

/* Helpers for column text functions. */
const char *sq_col_int(long long v, char *buf, size_t n);
const char *sq_col_str(const char *s);

extern const struct sq_view_def sq_view_partitions;
extern const struct sq_view_def sq_view_nodes;
extern const struct sq_view_def sq_view_jobs;
extern const struct sq_view_def sq_view_priority;
extern const struct sq_view_def sq_view_overview;
extern const struct sq_view_def sq_view_clusters;

#endif
