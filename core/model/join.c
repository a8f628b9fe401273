/*
 * join.c - cross-kind joins done by the worker before publishing:
 * partition totals from nodes, sprio ranks, and job -> sprio pointers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/join.h"
#include "core/model/model.h"

/* a + b for counts >= 0 from the cluster, saturated (no overflow) */
static int64_t
add_count(int64_t a, int64_t b)
{
	if (b <= 0)
		return a;
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* Is a node (by its comma-separated partition list) in partition p? */
static int
in_partition(const char *list, const char *p)
{
	size_t n = strlen(p);
	const char *s = list;

	while (*s != '\0') {
		size_t l = strcspn(s, ",");
		size_t m = l;

		if (m > 0 && s[m - 1] == '*')
			m--;
		if (m == n && strncmp(s, p, n) == 0)
			return 1;
		s += l;
		if (*s == ',')
			s++;
	}
	return 0;
}

static int
node_idle(const char *state)
{
	return strncmp(state, "idle", 4) == 0;
}

void
sq_partitions_count(struct sq_snapshot *parts, const struct sq_snapshot *nodes)
{
	size_t i, j;

	for (i = 0; i < parts->nrows; i++) {
		struct sq_partition *p = sq_snapshot_row(parts, i);
		int64_t n = 0, idle = 0, ca = 0, ct = 0, ga = 0, gt = 0;

		for (j = 0; j < nodes->nrows; j++) {
			const struct sq_node *nd = sq_snapshot_row(nodes, j);

			if (!in_partition(nd->partitions, p->name))
				continue;
			n++;
			idle += node_idle(nd->state);
			ca = add_count(ca, nd->cpus_alloc);
			ct = add_count(ct, nd->cpus_total);
			ga = add_count(ga, nd->gpus_alloc);
			gt = add_count(gt, nd->gpus_total);
		}
		if (p->nodes_total <= 0)
			p->nodes_total = n;
		p->nodes_idle = idle;
		p->cpus_alloc = ca;
		if (p->cpus_total <= 0)
			p->cpus_total = ct;
		p->gpus_alloc = ga;
		p->gpus_total = gt;
	}
}

static int
cmp_prio(const void *a, const void *b)
{
	const struct sq_prio *x = *(const struct sq_prio *const *)a;
	const struct sq_prio *y = *(const struct sq_prio *const *)b;
	/* parsers store a partition name once: mostly the same pointer */
	int c = x->partition == y->partition
		    ? 0
		    : strcmp(x->partition, y->partition);

	if (c != 0)
		return c;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	/* same priority: the smaller job id first here (sprio has no
	 * submit time, which Slurm compares first: core/analysis/why.c ranks
	 * one job in Slurm's own order) */
	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

void
sq_prio_rank(struct sq_snapshot *prio)
{
	struct sq_prio **v;
	size_t i;
	uint32_t r = 0;

	if (prio->nrows == 0)
		return;
	v = malloc(prio->nrows * sizeof(*v));
	if (v == NULL)
		return;
	for (i = 0; i < prio->nrows; i++)
		v[i] = sq_snapshot_row(prio, i);
	qsort(v, prio->nrows, sizeof(*v), cmp_prio);
	for (i = 0; i < prio->nrows; i++) {
		if (i == 0 || strcmp(v[i]->partition, v[i - 1]->partition) != 0)
			r = 0;
		v[i]->rank = ++r;
	}
	free(v);
}

/* The job's priority in one of its partitions: from prio_by_part
 * ("high=7346,low=2351") when it lists it, else the job's. */
static int64_t
part_prio(const struct sq_job *j, const char *part, size_t len)
{
	const char *p = sq_job_prio_by_part(j);

	while (p != NULL && *p != '\0') {
		if (strncmp(p, part, len) == 0 && p[len] == '=')
			return strtoll(p + len + 1, NULL, 10);
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return j->priority;
}

static int
add_prio(struct sq_snapshot *prio, const struct sq_job *j, const char *part,
	 size_t len)
{
	struct sq_prio *p = sq_snapshot_add(prio);

	if (p == NULL)
		return -1;
	p->job_id = j->job_id;
	p->user = sq_snapshot_str(prio, j->user);
	p->partition = sq_snapshot_strn(prio, part, len);
	p->priority = part_prio(j, part, len);
	p->site = p->age = p->fairshare = p->jobsize = SQ_NONE;
	p->partition_prio = p->qos = p->assoc = p->nice = SQ_NONE;
	p->tres = "";
	return 0;
}

int
sq_prio_from_jobs(struct sq_snapshot *prio, const struct sq_snapshot *jobs)
{
	size_t i;

	for (i = 0; jobs != NULL && i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);
		const char *p = j->partition;

		/* sprio skips jobs not yet eligible (begin time, dependency)
		 * and arrays at their task limit (24.11 recording) */
		if (strcmp(j->state, "PENDING") != 0 || j->priority <= 0 ||
		    strncmp(j->reason, "BeginTime", 9) == 0 ||
		    strncmp(j->reason, "Dependency", 10) == 0 ||
		    strcmp(j->reason, "JobArrayTaskLimit") == 0)
			continue;
		do {
			size_t l = strcspn(p, ",");

			if (add_prio(prio, j, p, l) == -1)
				return -1;
			p += l;
		} while (*p++ == ',');
	}
	sq_prio_rank(prio);
	return 0;
}

static int
cmp_id(const void *a, const void *b)
{
	const struct sq_prio *x = *(const struct sq_prio *const *)a;
	const struct sq_prio *y = *(const struct sq_prio *const *)b;

	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

void
sq_jobs_join_prio(struct sq_snapshot *jobs, struct sq_snapshot *prio)
{
	struct sq_prio **v;
	size_t i;

	if (prio == NULL)
		return;
	v = malloc((prio->nrows ? prio->nrows : 1) * sizeof(*v));
	if (v == NULL)
		return;
	for (i = 0; i < prio->nrows; i++)
		v[i] = sq_snapshot_row(prio, i);
	qsort(v, prio->nrows, sizeof(*v), cmp_id);
	for (i = 0; i < jobs->nrows; i++) {
		struct sq_job *j = sq_snapshot_row(jobs, i);
		size_t lo = 0, hi = prio->nrows, k;
		const struct sq_prio *best = NULL;

		j->prio = NULL;
		if (!sq_job_is_pending(j))
			continue;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (v[mid]->job_id < j->job_id)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* a job pending in several partitions has one sprio row
		 * each: prefer the one for the partition squeue shows */
		for (k = lo; k < prio->nrows && v[k]->job_id == j->job_id;
		     k++) {
			if (best == NULL ||
			    strcmp(v[k]->partition, j->partition) == 0)
				best = v[k];
		}
		j->prio = best;
	}
	free(v);
	sq_snapshot_unref(jobs->dep);
	jobs->dep = sq_snapshot_ref(prio);
}

const char *
sq_jobs_prio_age(const struct sq_snapshot *jobs, char *buf, size_t n)
{
	const struct sq_snapshot *p = jobs != NULL ? jobs->dep : NULL;

	if (n > 0)
		buf[0] = '\0';
	if (p == NULL || p->kind != SQ_KIND_PRIO ||
	    jobs->kind != SQ_KIND_JOBS || p->fetched + 2 >= jobs->fetched)
		return buf;
	snprintf(buf, n, "%s:%lds older",
		 p->source != NULL && strncmp(p->source, "sprio", 5) == 0
		     ? "sprio"
		     : "rank",
		 (long)(jobs->fetched - p->fetched));
	return buf;
}

int64_t
sq_prio_sum(const struct sq_prio *p)
{
	int64_t sum = 0;
	const int64_t f[] = { p->site,           p->age,
			      p->fairshare,      p->jobsize,
			      p->partition_prio, p->qos,
			      p->assoc };
	const char *t;
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i] != SQ_NONE && f[i] != SQ_INFINITE)
			sum += f[i];
	}
	if (p->nice != SQ_NONE && p->nice != SQ_INFINITE)
		sum -= p->nice;
	/* cpu=17,mem=0,gres/gpu=125 */
	for (t = p->tres; t != NULL && (t = strchr(t, '=')) != NULL; t++)
		sum += strtoll(t + 1, NULL, 10);
	return sum;
}
