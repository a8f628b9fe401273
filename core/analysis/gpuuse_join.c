/*
 * gpuuse_join.c - live GPU use joined where it shows: the jobs view's
 * gpu_util and gpu_mem cells (through each job's sq_job_more) and the
 * gpus views' util (per node, partition, user and account) and idle
 * (per user and account) cells.
 */
#include <stdio.h>
#include <string.h>

#include "core/analysis/gpuuse.h"
#include "core/base/gres.h"
#include "core/base/hostlist.h"
#include "core/model/model_admin.h"

static int
holds_gpus(const struct sq_job *j)
{
	const char *t = sq_job_tres_alloc(j);

	if (strcmp(j->state, "RUNNING") != 0)
		return 0;
	return (t != NULL && sq_gres_count(t, "gpu") > 0) ||
	       strstr(j->gres, "gpu") != NULL;
}

void
sq_jobs_join_gpuuse(struct sq_snapshot *jobs, struct sq_snapshot *use)
{
	size_t i;

	if (use == NULL)
		return;
	for (i = 0; i < jobs->nrows; i++) {
		struct sq_job *j = sq_snapshot_row(jobs, i);
		const struct sq_gpuuse *g;
		const struct sq_job_more *o = j->more;
		struct sq_job_more *m;
		char raw[16];

		/* only a running job holding GPUs has a use (a queue of a
		 * million jobs looks up its GPU jobs only) */
		if (!holds_gpus(j))
			continue;
		g = sq_gpuuse_find(use, j->id);
		/* squeue -O JobID prints an array task by its own id */
		if (g == NULL && j->job_id != 0) {
			snprintf(raw, sizeof(raw), "%u", (unsigned)j->job_id);
			g = sq_gpuuse_find(use, raw);
		}
		m = sq_arena_alloc(&jobs->arena, sizeof(*m));
		if (m == NULL)
			return;
		m->tres_alloc = o ? o->tres_alloc : NULL;
		m->prio_by_part = o ? o->prio_by_part : NULL;
		m->restart_cnt = o ? o->restart_cnt : 0;
		m->gpu = g;
		m->gpu_note = g != NULL ? NULL
			      : use->note != NULL
				  ? use->note
				  : "no GPU use reported for it (sstat)";
		j->more = m;
	}
	sq_snapshot_unref(jobs->dep_gpu);
	jobs->dep_gpu = sq_snapshot_ref(use);
}

struct acc {
	int64_t w, sum, idle, judged;
};

static int
type_ok(const struct sq_gpu *r, const struct sq_gpuuse *g)
{
	return strcmp(r->name, "gpu") == 0 &&
	       (r->type[0] == '\0' || strcmp(r->type, g->type) == 0);
}

/* The GPUs of g that r's row covers (0: none). */
static int64_t
share(const struct sq_gpu *r, const struct sq_gpuuse *g)
{
	long nn;

	if (!type_ok(r, g))
		return 0;
	switch (r->scope) {
	case SQ_GPU_NODE:
		if (!sq_hostlist_contains(g->nodelist, r->node))
			return 0;
		nn = sq_hostlist_count(g->nodelist);
		return nn > 1 ? (g->gpus + nn - 1) / nn : g->gpus;
	case SQ_GPU_PARTITION:
		return strcmp(r->partition, g->partition) == 0 ? g->gpus : 0;
	case SQ_GPU_USER:
		return strcmp(r->user, g->user) == 0 &&
			       strcmp(r->account, g->account) == 0
			   ? g->gpus
			   : 0;
	case SQ_GPU_ACCOUNT:
		return strcmp(r->account, g->account) == 0 ? g->gpus : 0;
	}
	return 0;
}

void
sq_gpus_join_use(struct sq_snapshot *gpus, const struct sq_snapshot *use)
{
	size_t i, k;

	if (use == NULL)
		return;
	for (i = 0; i < gpus->nrows; i++) {
		struct sq_gpu *r = sq_snapshot_row(gpus, i);
		struct acc a = { 0, 0, 0, 0 };
		const char *note = NULL;

		for (k = 0; k < use->nrows; k++) {
			const struct sq_gpuuse *g = sq_snapshot_row(use, k);
			int64_t n = share(r, g);

			if (n <= 0)
				continue;
			if (g->idle)
				a.idle += n;
			if (g->steps > 0)
				a.judged++;
			if (g->util == SQ_NONE) {
				if (g->note[0] != '\0')
					note = g->note;
				continue;
			}
			a.w += n;
			a.sum += n * g->util;
		}
		/* no job judged (no figure at all): no count, not a 0 */
		if ((r->scope == SQ_GPU_USER || r->scope == SQ_GPU_ACCOUNT) &&
		    a.judged > 0)
			r->idle = a.idle;
		if (a.w > 0) {
			r->util = (a.sum + a.w / 2) / a.w;
			r->util_note = "";
		} else if (use->note != NULL) {
			r->util_note = use->note;
		} else if (note != NULL) {
			r->util_note = note;
		}
	}
}
