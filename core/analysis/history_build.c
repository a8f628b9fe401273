/*
 * history_build.c - a HISTORY snapshot built from the runs and steps a
 * parser adds (core/analysis/history.h): steps attached to their runs,
 * efficiency as seff reports it, the runs of a job numbered, and the
 * per-user, per-account and per-node summaries (history_sum.c), computed
 * once per fetch (like gpus.c) into the same snapshot.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/history.h"
#include "core/model/model.h"

/* ---- building ---- */

void
sq_history_init(struct sq_hist_build *b, struct sq_snapshot *s)
{
	memset(b, 0, sizeof(*b));
	b->s = s;
}

void
sq_history_free(struct sq_hist_build *b)
{
	free(b->steps);
	free(b->parent);
	b->steps = NULL;
	b->parent = NULL;
	b->n = b->cap = 0;
}

struct sq_hist *
sq_history_add_run(struct sq_hist_build *b)
{
	struct sq_hist *h = sq_snapshot_add(b->s);

	if (h == NULL)
		return NULL;
	h->scope = SQ_HIST_RUN;
	h->id = h->user = h->account = h->partition = h->qos = h->name = "";
	h->state = h->nodelist = h->tres = "";
	h->run = 1;
	h->exit_code = h->signal = SQ_NONE;
	h->submit = h->start = h->end = h->elapsed = SQ_NONE;
	h->alloc_cpus = h->req_mem = h->alloc_mem = SQ_NONE;
	h->gpus = 0;
	h->nnodes = SQ_NONE;
	h->total_cpu = NAN;
	h->max_rss = SQ_NONE;
	h->cpu_eff = h->mem_eff = NAN;
	h->gpu_util_max = NAN;
	h->gpu_mem_max = SQ_NONE;
	h->gpu_note = "";
	return h;
}

struct sq_hist_step *
sq_history_add_step(struct sq_hist_build *b, size_t run)
{
	struct sq_hist_step *st;

	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 64;
		void *p = realloc(b->steps, nc * sizeof(*b->steps));

		if (p == NULL)
			return NULL;
		b->steps = p;
		p = realloc(b->parent, nc * sizeof(*b->parent));
		if (p == NULL)
			return NULL;
		b->parent = p;
		b->cap = nc;
	}
	b->parent[b->n] = run;
	st = &b->steps[b->n++];
	memset(st, 0, sizeof(*st));
	st->step = st->name = st->state = st->nodelist = "";
	st->exit_code = st->signal = st->elapsed = SQ_NONE;
	st->nodes = st->tasks = st->max_rss = SQ_NONE;
	st->gpu_util = st->gpu_mem = SQ_NONE;
	st->total_cpu = NAN;
	return st;
}

static struct sq_hist *
row(struct sq_snapshot *s, size_t i)
{
	return sq_snapshot_row(s, i);
}

/* Steps to their runs (one arena block, in parse order per run). */
static int
attach_steps(struct sq_hist_build *b)
{
	struct sq_snapshot *s = b->s;
	struct sq_hist_step *all;
	size_t *pos, i;

	if (b->n == 0)
		return 0;
	all = sq_arena_alloc(&s->arena, b->n * sizeof(*all));
	pos = calloc(s->nrows + 1, sizeof(*pos));
	if (all == NULL || pos == NULL) {
		free(pos);
		return -1;
	}
	for (i = 0; i < b->n; i++)
		if (b->parent[i] < s->nrows)
			pos[b->parent[i] + 1]++;
	for (i = 1; i <= s->nrows; i++)
		pos[i] += pos[i - 1];
	for (i = 0; i < s->nrows; i++) {
		row(s, i)->steps = all + pos[i];
		row(s, i)->nsteps = 0;
	}
	for (i = 0; i < b->n; i++) {
		struct sq_hist *h;

		if (b->parent[i] >= s->nrows)
			continue;
		h = row(s, b->parent[i]);
		all[pos[b->parent[i]] + h->nsteps++] = b->steps[i];
	}
	free(pos);
	return 0;
}

/*
 * Efficiency as seff (Slurm contribs/seff/seff) reports it:
 *   CPU    = TotalCPU of the job (user + system, summed over its steps)
 *            / (Elapsed x AllocCPUS)            ("core-walltime")
 *   memory = the largest MaxRSS of any step / the memory allocated to the
 *            job (AllocTRES mem=, the total over its nodes).
 * seff since 21.08 takes a step's memory from TRESUsageInTot mem (the sum
 * of its tasks' peaks); for the one-task steps of most batch jobs that is
 * MaxRSS, which is what sacct and the REST API print for every version,
 * so MaxRSS is used. Unlike seff (which prints 0 %), a run without steps,
 * still running or pending has no efficiency (NAN).
 */
static void
efficiency(struct sq_hist *h)
{
	size_t i;
	double cpu = 0;
	int have_cpu = 0;
	int32_t rss = SQ_NONE;

	for (i = 0; i < h->nsteps; i++) {
		const struct sq_hist_step *st = &h->steps[i];

		if (!isnan(st->total_cpu)) {
			cpu += st->total_cpu;
			have_cpu = 1;
		}
		if (st->max_rss != SQ_NONE && st->max_rss > rss)
			rss = st->max_rss;
	}
	if (have_cpu)
		h->total_cpu = cpu;
	if (rss != SQ_NONE)
		h->max_rss = rss;
	h->cpu_eff = h->mem_eff = NAN;
	if (h->nsteps == 0 || sq_history_outcome(h->state) == SQ_HIST_ACTIVE)
		return;
	if (!isnan(h->total_cpu) && h->elapsed > 0 && h->alloc_cpus > 0)
		h->cpu_eff =
		    h->total_cpu / ((double)h->elapsed * h->alloc_cpus);
	if (h->max_rss != SQ_NONE && h->alloc_mem > 0)
		h->mem_eff = (double)h->max_rss / ((double)h->alloc_mem * 1024);
}

/*
 * A run that has not ended has no end and no exit code, and one not yet
 * started no start and no run time: slurmdbd's REST answer gives a
 * pending run start = end = the time of the query and a running one end
 * = that time (its window cut, JOBCOND_FLAG_NO_TRUNC unset), both exit
 * 0; sacct prints 0:0 for them. COMPLETING and STAGE_OUT runs have
 * ended. A running run keeps its elapsed time (up to the query).
 */
static void
unended(struct sq_hist *h)
{
	if (sq_history_outcome(h->state) != SQ_HIST_ACTIVE ||
	    strcmp(h->state, "COMPLETING") == 0 ||
	    strcmp(h->state, "STAGE_OUT") == 0)
		return;
	h->end = SQ_NONE;
	h->exit_code = h->signal = SQ_NONE;
	if (strcmp(h->state, "PENDING") == 0)
		h->start = h->elapsed = SQ_NONE;
}

/*
 * GPU use of a run: the largest step peak of gres/gpuutil (Slurm's
 * percent, summed over the processes and devices of the step) over the
 * run's GPUs, and of gres/gpumem; GPU-hours; idle when the peak stayed
 * under gpu-idle-below. A run without a measure keeps a note saying why
 * (one a backend set, sq_history_gpu_none, wins).
 */
static void
gpu_use(struct sq_hist *h, long idle_below)
{
	int64_t util = SQ_NONE, mem = SQ_NONE;
	size_t i;

	for (i = 0; i < h->nsteps; i++) {
		if (h->steps[i].gpu_util > util)
			util = h->steps[i].gpu_util;
		if (h->steps[i].gpu_mem > mem)
			mem = h->steps[i].gpu_mem;
	}
	h->gpu_util_max = NAN;
	h->gpu_mem_max = SQ_NONE;
	h->gpu_idle = 0;
	if (h->gpus <= 0) {
		h->gpu_note = "";
		return;
	}
	if (util != SQ_NONE) {
		h->gpu_util_max = (double)util / 100 / h->gpus;
		h->gpu_mem_max = mem;
		h->gpu_note = "";
		h->gpu_idle = h->gpu_util_max * 100 < (double)idle_below;
		return;
	}
	if (h->gpu_note[0] != '\0')
		return;
	if (sq_history_outcome(h->state) == SQ_HIST_ACTIVE)
		h->gpu_note = "after the run";
	else
		h->gpu_note = "not measured";
}

static int
cmp_run(const void *a_, const void *b_)
{
	const struct sq_hist *a = *(const struct sq_hist *const *)a_;
	const struct sq_hist *b = *(const struct sq_hist *const *)b_;

	if (a->job_id != b->job_id)
		return a->job_id < b->job_id ? -1 : 1;
	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The runs of job id from row i on (a chain through next[]), sorted by
 * cmp_run (submit, start, row) and numbered 1, 2, 3 ... */
static int
number_job(struct sq_snapshot *s, const uint32_t *next, size_t i, size_t k)
{
	struct sq_hist *one[8], **v = k <= 8 ? one : malloc(k * sizeof(*v));
	size_t j;

	if (v == NULL)
		return -1;
	for (j = 0; j < k; j++, i = next[i])
		v[j] = row(s, i);
	qsort(v, k, sizeof(*v), cmp_run);
	for (j = 0; j < k; j++)
		v[j]->run = (int32_t)(j + 1);
	if (v != one)
		free(v);
	return 0;
}

/*
 * 1, 2, 3 ... for the runs of one job, oldest first (by submit, then
 * start, then row order): the rows of each job id chained by a hash of
 * the ids, only a job with several runs sorted (a sort of every run by
 * its job id was a tenth of a big history's summaries). Job id 0: 1.
 */
static int
number_runs(struct sq_snapshot *s)
{
	size_t n = s->nrows, cap = 64, i, j;
	uint32_t *next, *slot, *cnt, lo = UINT32_MAX, hi = 0;
	int direct;
	int rc = -1;

	if (n == 0)
		return 0;
	if (n >= UINT32_MAX)
		return -1;
	while (cap < 2 * n)
		cap *= 2;
	for (i = 0; i < n; i++) {
		uint32_t id = row(s, i)->job_id;

		if (id != 0 && id < lo)
			lo = id;
		if (id > hi)
			hi = id;
	}
	/* ids within cap of each other (a week's): a slot per id, in the
	 * ids' order as sacct prints them, no probe out of the cache */
	direct = hi >= lo && hi - lo < cap;
	next = malloc(n * sizeof(*next));
	cnt = calloc(n, sizeof(*cnt));
	slot = calloc(cap, 2 * sizeof(*slot)); /* first row + 1, last */
	if (next == NULL || cnt == NULL || slot == NULL)
		goto done;
	for (i = 0; i < n; i++) {
		uint32_t id = row(s, i)->job_id;

		row(s, i)->run = 1;
		next[i] = (uint32_t)-1;
		if (id == 0)
			continue;
		for (j = direct ? id - lo : (id * 0x9e3779b1u) & (cap - 1);
		     slot[2 * j] != 0 && row(s, slot[2 * j] - 1)->job_id != id;
		     j = (j + 1) & (cap - 1))
			;
		if (slot[2 * j] == 0) {
			slot[2 * j] = (uint32_t)i + 1;
		} else {
			next[slot[2 * j + 1]] = (uint32_t)i;
			cnt[slot[2 * j] - 1]++;
		}
		slot[2 * j + 1] = (uint32_t)i;
	}
	for (i = 0; i < n; i++)
		if (cnt[i] > 0 && number_job(s, next, i, cnt[i] + 1) == -1)
			goto done;
	rc = 0;
done:
	free(next);
	free(cnt);
	free(slot);
	return rc;
}

int
sq_history_finish_runs(struct sq_hist_build *b)
{
	struct sq_snapshot *s = b->s;
	size_t i;
	long idle_below = sq_history_idle_below();

	if (attach_steps(b) == -1)
		return -1;
	for (i = 0; i < s->nrows; i++) {
		efficiency(row(s, i));
		gpu_use(row(s, i), idle_below);
	}
	return 0;
}

/* The runs of each job numbered, then the ends of those not ended
 * cleared (sq_history_summarise's prep); -1 on ENOMEM. */
static int
number_and_end(struct sq_snapshot *s)
{
	size_t i;

	if (number_runs(s) == -1)
		return -1;
	for (i = 0; i < s->nrows; i++)
		unended(row(s, i));
	return 0;
}

int
sq_history_finish_jobs(struct sq_snapshot *s)
{
	int rc;

	/* numbered by the start sacct gave (unended clears a pending's) */
	rc = sq_history_summarise(s, s->nrows, number_and_end);
	sq_snapshot_fit(s);
	return rc;
}

int
sq_history_finish(struct sq_hist_build *b)
{
	if (sq_history_finish_runs(b) == -1)
		return -1;
	return sq_history_finish_jobs(b->s);
}
