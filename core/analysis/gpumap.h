/*
 * gpumap.h - a node's GPUs one by one (the nodes view's detail pane and
 * its batch form): each GPU's index and type from the node's Gres and
 * GresUsed (IDX), the job holding it from the jobs' per-node GRES as
 * `scontrol -d show job` gives them ("n3 gpu:a100:2(IDX:0-1)"), and that
 * job's measured use from the GPUUSE rows, or why there is none.
 */
#ifndef SQ_GPUMAP_H
#define SQ_GPUMAP_H

#include <stddef.h>
#include <stdint.h>

#include "core/model/snapshot.h"

/* GPUs of one node a map shows at most. */
#define SQ_GPUMAP_MAX 256

/* A running job on the node with the GRES it holds per node, as
 * sq_live.gpus ("n3 gpu:a100:2(IDX:0-1); n4 gpu:a100:1(IDX:0)"), or
 * NULL when they could not be read (why: its reason, or NULL). */
struct sq_gpumap_job {
	const char *id;
	const char *user;
	const char *gres;
	const char *why;
};

/* One GPU. job and user NULL: free (or held by a job not read: note). */
struct sq_gpumap_gpu {
	int index;     /* Slurm's GRES index on the node (IDX) */
	char type[64]; /* a100, or "" */
	int used;      /* GresUsed has its index */
	const char *job, *user;
	int more;     /* other jobs holding it too (shared) */
	int64_t util; /* its job's use (% of the job's GPUs), or SQ_NONE */
	int64_t job_gpus;
	const char *note; /* why util is SQ_NONE, or "" */
};

/*
 * Indices of name ("gpu") in a GRES list with "(IDX:0-1,3)" suffixes
 * ("gpu:a100:2(IDX:0-1),gpu:t4:0(IDX:N/A)"): sets mark[i] (max marks)
 * and, when types is not NULL, copies each one's type (64 bytes a row).
 * Returns how many were set, or -1 when an IDX is unreadable.
 */
int sq_gpumap_idx(const char *gres, const char *name, unsigned char *mark,
		  char (*types)[64], int max);

/* The GRES of node in a per-node list as sq_live.gpus gives it, copied
 * to out ("gpu:a100:2(IDX:0-1)"); 0, or -1 when the node is not in it. */
int sq_gpumap_node_gres(const char *list, const char *node, char *out,
			size_t n);

/*
 * The map of node: gres and gres_used as scontrol shows them; jobs the
 * running jobs on it; use the GPUUSE snapshot (NULL: not read yet).
 * Fills out (max rows) in index order; returns the count (0: the node
 * has no GPU).
 */
int sq_gpumap_build(const char *node, const char *gres, const char *gres_used,
		    const struct sq_gpumap_job *jobs, size_t njobs,
		    const struct sq_snapshot *use, struct sq_gpumap_gpu *out,
		    int max);

/* The map as text lines (a header, one line a GPU): fn(arg, line). */
int sq_gpumap_lines(const struct sq_gpumap_gpu *g, int n,
		    void (*fn)(void *arg, const char *line), void *arg);

#endif
