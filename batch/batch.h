/*
 * batch.h - batch mode (`squall --once`): fetch one view through a backend
 * and print it as a table, tsv or JSON on stdout, then exit.
 */
#ifndef SQ_BATCH_H
#define SQ_BATCH_H

#include <stdint.h>
#include <stdio.h>

#include "core/conf/cluster.h"
#include "core/model/snapshot.h"
#include "core/model/view.h"

enum sq_format { SQ_FMT_TABLE, SQ_FMT_TSV, SQ_FMT_JSON };

/* Parse "table", "tsv" or "json"; -1 when unknown. */
int sq_format_from_name(const char *name);

/*
 * Fetch view (with what it joins: sprio for jobs, nodes for partitions)
 * and print it. columns is a comma-separated list of column ids, NULL
 * for all, or "help" (sq_batch_columns, nothing fetched); sort
 * "[-]column" ("-" descending), "none" (as the cluster returned them) or
 * NULL (the view's default sort, as in the console); filter the
 * console's '/' filter (core/query/filter.h: a regex over the printed cells,
 * or "@column=value" terms; '!' inverts) or NULL for every row.
 * Returns the exit status: 0, 1 (cluster or command failure, reason on
 * stderr), 2 (usage) or, for the spec view, SQ_BATCH_DRIFT when a printed
 * item differs from the live cluster (sq_batch_spec_drift).
 */
int sq_batch_run(const struct sq_cluster_cfg *cfg, const char *view,
		 enum sq_format fmt, const char *columns, const char *sort,
		 const char *filter);

/*
 * Print one job of the queue (id as squeue prints it, or the job id)
 * with every jobs column and, when it is pending, why: rank, the job
 * ahead, and the limit that holds it (core/analysis/why.h). Exit status as
 * above.
 */
int sq_batch_job(const struct sq_cluster_cfg *cfg, const char *jobid,
		 enum sq_format fmt);

/*
 * Is filter (NULL or "": none) a valid --filter for view v? 0, or -1 with
 * "squall: --filter 'PATTERN': reason" on stderr. Batch mode and the
 * console both check before they connect.
 */
/* --once --node NAME: the node's GPUs one by one (batch_node.c). */
int sq_batch_node(const struct sq_cluster_cfg *cfg, const char *node,
		  enum sq_format fmt);

int sq_batch_filter_check(const struct sq_view_def *v, const char *filter);

/*
 * `--columns help`: print the view's columns, one a line: id, header,
 * '*' when the console shows it by default, meaning; then the default
 * sort. Needs no cluster.
 */
void sq_batch_columns(FILE *fp, const struct sq_view_def *v);

/* The exit status of `--once --view spec` when the cluster drifted. */
#define SQ_BATCH_DRIFT 3

/*
 * The rows of s that filter keeps (core/query/filter.h, over the columns
 * printed): *order their indexes (NULL when every row is kept, in
 * order; free it), *n their number. 0, or -1 (said on stderr).
 */
int sq_batch_kept(const struct sq_view_def *v, const struct sq_snapshot *s,
		  const char *columns, const char *filter, uint32_t **order,
		  size_t *n);

/*
 * A spec snapshot's printed rows (the filter's) that drift (differs,
 * missing, extra; core/spec/spec.h), counted on stderr: 0 when none, else
 * SQ_BATCH_DRIFT; 2 on a bad filter. unknown items (not visible to
 * Slurm) do not count.
 */
int sq_batch_spec_drift(const struct sq_view_def *v,
			const struct sq_snapshot *s, const char *columns,
			const char *filter);

/*
 * `--once --view clusters`: every configured cluster fetched in parallel
 * (session/glance.h), printed like any view. Exit status 0, or 1 when a
 * cluster failed (its row says why).
 */
int sq_clusters_batch(const struct sq_view_def *v, enum sq_format fmt,
		      const char *columns, const char *sort,
		      const char *filter);

/* Print rows of a snapshot through a view's columns (used by tests). */
int sq_batch_print(FILE *fp, const struct sq_view_def *v,
		   const struct sq_snapshot *s, enum sq_format fmt,
		   const char *columns, const char *sort, const char *filter);

#endif
