/*
 * bench_parse.c - make bench driver: the model half of a refresh on a
 * recording (squeue -O and sprio -o text as the CLI backend reads them):
 * parse the queue, parse and rank sprio, join, exactly as the worker does
 * after a fetch; and the memory that costs. Prints shell assignments.
 *   bench_parse time RUNS squeue.txt sprio.txt
 *   bench_parse mem squeue.txt sprio.txt
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli.h"
#include "core/model/join.h"
#include "core/model/snapshot.h"
#include "core/base/util.h"
#include "tests/bench/bench_util.h"

static long
rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			kb = strtol(line + 6, NULL, 10);
	}
	fclose(f);
	return kb;
}

/* One refresh's model work on copies of the recorded text. */
static void
refresh(const char *sq, size_t sqn, const char *sp, size_t spn,
	struct sq_snapshot **jobs, struct sq_snapshot **prio, double *ms_jobs,
	double *ms_prio)
{
	char *a = malloc(sqn + 1), *b = malloc(spn + 1);
	struct sq_err err;
	double t0, t1, t2;

	if (a == NULL || b == NULL)
		exit(1);
	memcpy(a, sq, sqn + 1);
	memcpy(b, sp, spn + 1);
	t0 = sq_util_now_ms();
	*prio = sq_snapshot_new(SQ_KIND_PRIO, 0);
	if (*prio == NULL || sq_parse_sprio(b, *prio, &err) == -1) {
		fprintf(stderr, "sprio: %s\n", err.msg);
		exit(1);
	}
	sq_prio_rank(*prio);
	t1 = sq_util_now_ms();
	*jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	if (*jobs == NULL || sq_parse_squeue(a, *jobs, &err) == -1) {
		fprintf(stderr, "squeue: %s\n", err.msg);
		exit(1);
	}
	sq_jobs_join_prio(*jobs, *prio);
	t2 = sq_util_now_ms();
	*ms_jobs = t2 - t1;
	*ms_prio = t1 - t0;
	free(a);
	free(b);
}

int
main(int argc, char **argv)
{
	struct sq_snapshot *jobs, *prio;
	char *sq, *sp;
	size_t sqn, spn;
	double mj, mp;

	if (argc == 5 && strcmp(argv[1], "time") == 0) {
		int runs = atoi(argv[2]), i;
		double *tj, *tp;

		if (runs < 1)
			runs = 1;
		tj = calloc((size_t)runs, sizeof(*tj));
		tp = calloc((size_t)runs, sizeof(*tp));
		sq = slurp(argv[3]);
		sqn = strlen(sq);
		sp = slurp(argv[4]);
		spn = strlen(sp);
		if (tj == NULL || tp == NULL)
			return 1;
		for (i = 0; i < runs; i++) {
			refresh(sq, sqn, sp, spn, &jobs, &prio, &tj[i], &tp[i]);
			if (i == runs - 1)
				printf("jobs=%zu prio_rows=%zu\n", jobs->nrows,
				       prio->nrows);
			sq_snapshot_unref(jobs);
			sq_snapshot_unref(prio);
		}
		qsort(tj, (size_t)runs, sizeof(*tj), cmp_d);
		qsort(tp, (size_t)runs, sizeof(*tp), cmp_d);
		printf("parse_jobs_ms=%.1f parse_prio_ms=%.1f\n", tj[runs / 2],
		       tp[runs / 2]);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "mem") == 0) {
		long r0, r1;

		sq = slurp(argv[2]);
		sqn = strlen(sq);
		sp = slurp(argv[3]);
		spn = strlen(sp);
		r0 = rss_kb();
		refresh(sq, sqn, sp, spn, &jobs, &prio, &mj, &mp);
		r1 = rss_kb();
		printf("jobs=%zu prio_rows=%zu rss0_kb=%ld rss1_kb=%ld "
		       "jobs_bytes=%zu prio_bytes=%zu\n",
		       jobs->nrows, prio->nrows, r0, r1,
		       sq_snapshot_bytes(jobs), sq_snapshot_bytes(prio));
		sq_snapshot_unref(jobs);
		sq_snapshot_unref(prio);
		free(sq);
		free(sp);
		return 0;
	}
	fprintf(stderr, "usage: bench_parse time RUNS squeue.txt sprio.txt\n"
			"       bench_parse mem squeue.txt sprio.txt\n");
	return 2;
}
