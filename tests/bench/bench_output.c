/*
 * bench_output.c - make bench, part 6: the output pane's first screen on
 * a big log. Writes FILE (default 200 MiB of text lines) when it is not
 * there, then times what opening the pane does through the local
 * backend: stat, read the last 64 KiB (pread), escape, split into lines;
 * and the RSS it adds. Prints "first_screen_ms N" and "rss_kib N" (medians
 * and maxima of 5 runs); never the file's bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "backends/cli/fileread.h"
#include "core/base/buf.h"
#include "core/analysis/outpath.h"
#include "core/base/util.h"

#define TAIL (64 * 1024)
#define RUNS 5

static int
make_log(const char *path, long mib)
{
	FILE *fp = fopen(path, "w");
	long i;

	if (fp == NULL)
		return -1;
	for (i = 0; ftell(fp) < mib * 1024 * 1024; i++)
		fprintf(fp,
			"%012ld step=%06ld loss=0.%08ld \033[32mok\033[0m ..\n",
			i, i % 999999, (i * 7919) % 100000000);
	return fclose(fp);
}

static long
rss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/squall-bench-200m.log";
	double ms[RUNS];
	long before = rss_kib(), lines = 0;
	int r;

	if (access(path, R_OK) != 0 && make_log(path, 200) == -1) {
		perror(path);
		return 1;
	}
	for (r = 0; r < RUNS; r++) {
		struct sq_buf raw, esc;
		struct sq_err err;
		int64_t size;
		double t0 = sq_util_now_ms();
		size_t i;

		sq_buf_init(&raw, 0);
		sq_buf_init(&esc, 0);
		if (sq_local_file_stat(NULL, path, &size, &err) == -1 ||
		    sq_local_file_read(NULL, path,
				       size > TAIL ? size - TAIL : 0, TAIL,
				       &raw, &err) == -1) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		sq_text_escape(sq_buf_str(&raw), raw.len, 0, &esc);
		for (lines = 0, i = 0; i < esc.len; i++)
			lines += esc.data[i] == '\n';
		ms[r] = sq_util_now_ms() - t0;
		sq_buf_free(&raw);
		sq_buf_free(&esc);
	}
	qsort(ms, RUNS, sizeof(ms[0]), cmp);
	printf("first_screen_ms %.2f\n", ms[RUNS / 2]);
	printf("rss_kib %ld\n", rss_kib() - before);
	printf("lines %ld\n", lines);
	return 0;
}
