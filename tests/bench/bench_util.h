/*
 * bench_util.h - what the make bench drivers share: a series of timings
 * with its percentiles printed as shell assignments, and a file read
 * whole. Static functions: each driver is one program (bench.mk).
 */
#ifndef SQ_BENCH_UTIL_H
#define SQ_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#define MAXS 4096

struct series {
	const char *name;
	double v[MAXS];
	int n;
};

static inline void
add(struct series *s, double ms)
{
	if (s->n < MAXS)
		s->v[s->n++] = ms;
}

static inline int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* p-th percentile, nearest rank */
static inline double
pct(struct series *s, double p)
{
	size_t k;

	if (s->n == 0)
		return 0;
	qsort(s->v, (size_t)s->n, sizeof(double), cmp_d);
	k = (size_t)(p / 100.0 * s->n + 0.999999);
	if (k < 1)
		k = 1;
	if (k > (size_t)s->n)
		k = (size_t)s->n;
	return s->v[k - 1];
}

static inline void
report(struct series *s)
{
	int n = s->n;
	double p50 = pct(s, 50), p99 = pct(s, 99), mx = pct(s, 100);

	printf("%s_n=%d %s_p50=%.2f %s_p99=%.2f %s_max=%.2f\n", s->name, n,
	       s->name, p50, s->name, p99, s->name, mx);
}

/* The whole of path (a file, or a pipe such as /dev/stdin: a recording
 * generated into the driver, never written to disk), NUL-terminated. */
static inline char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t n = 0, cap = 0, r;

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	do {
		if (cap - n < 65536 + 1) {
			cap = cap ? cap * 2 : 1 << 20;
			if ((p = realloc(p, cap)) == NULL)
				exit(1);
		}
		r = fread(p + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	if (ferror(f)) {
		perror(path);
		exit(1);
	}
	p[n] = '\0';
	fclose(f);
	return p;
}

#endif
