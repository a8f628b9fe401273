/*
 * bench_gpuuse.c - make bench, part 8: what a GPU use refresh costs squall
 * once the commands answered: N running GPU jobs (default 10,000) as the
 * CLI backend reads them (squeue -O <sq_cli_gpuuse_fmt>, then one batched
 * sstat of their steps in the shape recorded on 24.11, two steps a job),
 * parsed, normalised and judged against the previous refresh's samples.
 * Prints shell assignments: gpuuse_ms (median of RUNS), gpuuse_rows.
 *   bench_gpuuse [N] [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli_admin.h"
#include "core/base/buf.h"
#include "core/analysis/gpuuse.h"
#include "core/model/snapshot.h"
#include "core/base/util.h"

static void
gen(long n, struct sq_buf *sq, struct sq_buf *st)
{
	static const char usage[] =
	    "cpu=00:00:00,energy=0,fs/disk=12641,gres/gpumem=%dG,"
	    "gres/gpuutil=%d,mem=3560K,pages=0,vmem=5700K";
	char line[1024], u1[256], u2[256];
	long i;
	int k;

	for (i = 0; i < n; i++) {
		int gpus = 1 + (int)(i % 4), use = (int)(i * 37 % 101);

		k = snprintf(line, sizeof(line),
			     "%ld|user%ld|acct%ld|gpu|1796524832|g%ld|cpu=1,"
			     "mem=500M,node=1,billing=1,gres/gpu=%d,"
			     "gres/gpu:a100=%d\n",
			     1000 + i, i % 500, i % 40, i % 5000, gpus, gpus);
		if (sq_buf_append(sq, line, (size_t)k) == -1)
			exit(1);
		snprintf(u1, sizeof(u1), usage, gpus, use * gpus);
		snprintf(u2, sizeof(u2), usage, 2 * gpus, 100 * gpus);
		k = snprintf(line, sizeof(line), "%ld.batch|%s|%s|%s\n",
			     1000 + i, u1, u2, u1);
		if (sq_buf_append(st, line, (size_t)k) == -1)
			exit(1);
		k = snprintf(line, sizeof(line), "%ld.0|%s|%s|%s\n", 1000 + i,
			     u1, u2, u1);
		if (sq_buf_append(st, line, (size_t)k) == -1)
			exit(1);
	}
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000;
	int runs = argc > 2 ? atoi(argv[2]) : 5, r;
	struct sq_buf sq, st;
	struct sq_snapshot *prev = NULL;
	struct sq_gpuuse_cfg cfg = { SQ_GPUUSE_BELOW_DEFAULT,
				     SQ_GPUUSE_AFTER_DEFAULT };
	double *ms = calloc((size_t)runs, sizeof(*ms));
	size_t rows = 0;

	if (ms == NULL || runs < 1)
		return 1;
	sq_buf_init(&sq, 0);
	sq_buf_init(&st, 0);
	gen(n, &sq, &st);
	for (r = 0; r < runs; r++) {
		/* the parsers cut their input: a fresh copy each run */
		char *a = strdup(sq_buf_str(&sq)), *b = strdup(sq_buf_str(&st));
		struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
		struct sq_err err;
		double t0;

		if (a == NULL || b == NULL || s == NULL)
			return 1;
		t0 = sq_util_now_ms();
		if (sq_parse_gpuuse_jobs(a, s, &err) == -1 ||
		    sq_parse_gpuuse_sstat(b, s, &err) == -1) {
			fprintf(stderr, "bench_gpuuse: %s\n", err.msg);
			return 1;
		}
		sq_gpuuse_finish(s, prev, 1796524832 + 60 * (r + 1), cfg, NULL);
		ms[r] = sq_util_now_ms() - t0;
		rows = s->nrows;
		sq_snapshot_unref(prev);
		prev = s;
		free(a);
		free(b);
	}
	qsort(ms, (size_t)runs, sizeof(*ms), cmp_d);
	printf("gpuuse_ms=%.2f\ngpuuse_rows=%zu\ngpuuse_bytes=%zu\n",
	       ms[runs / 2], rows, sq.len + st.len);
	sq_snapshot_unref(prev);
	sq_buf_free(&sq);
	sq_buf_free(&st);
	free(ms);
	return 0;
}
