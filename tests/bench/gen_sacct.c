/*
 * gen_sacct.c - writes a made-up week of a big site's accounting, N job
 * runs and their batch steps, in the exact format of `sacct -a -D -n -P
 * --delimiter=<nonce> -o <sq_cli_sacct_history_fmt>` (22 fields; the
 * shape of tests/fixtures/live/slurm-24.11/cli/history), for make bench:
 * 2,000 users in 200 accounts, 36 partitions over 50,000 nodes, mostly
 * COMPLETED with the usual failures, timeouts, cancels and requeues (a
 * requeued job's earlier run as its own line, -D), a fifth of the runs
 * with GPUs and their steps' GPU peaks (TRESUsageInMax). Deterministic.
 * Not part of squall.
 *   gen_sacct N > sacct.txt
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/bench_rng.h"

#define D "|sqn0123456789abcdef|"

static uint64_t rng = 0x5851f42d4c957f2dULL;

static uint32_t
rnd(uint32_t n)
{
	return bench_rnd(&rng, n);
}

static const char *const states[] = {
	"COMPLETED",         "COMPLETED",     "COMPLETED", "COMPLETED",
	"COMPLETED",         "COMPLETED",     "FAILED",    "TIMEOUT",
	"CANCELLED by 1234", "OUT_OF_MEMORY", "NODE_FAIL", "COMPLETED",
	"PREEMPTED",         "COMPLETED",
};

static const char *const names[] = { "train-llm", "md-run",     "postproc",
				     "bash",      "sim",        "array-task",
				     "eval",      "interactive" };

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, i;
	long t0 = 1796000000L; /* a week before the end */

	if (n <= 0 || n > 20000000) {
		fprintf(stderr, "usage: gen_sacct N (1..20000000)\n");
		return 2;
	}
	for (i = 1; i <= n; i++) {
		long id = 100000 + i, user = rnd(2000), node = rnd(50000);
		int part = (int)rnd(36), gpu = part >= 29;
		int cpus = 1 << rnd(7), gpus = gpu ? 1 + (int)rnd(8) : 0;
		const char *st = states[rnd(sizeof(states) / sizeof(*states))];
		long submit = t0 + (i * 604800L) / n,
		     start = submit + rnd(7200);
		long el = 60 + rnd(86400), end = start + el;
		char tres[128], usage[128];

		snprintf(tres, sizeof(tres),
			 gpu ? "billing=%d,cpu=%d,gres/gpu=%d,mem=%dG,node=1"
			     : "billing=%d,cpu=%d,mem=%dG,node=1",
			 cpus, cpus, gpu ? gpus : cpus * 4, cpus * 4);
		if (gpu)
			snprintf(usage, sizeof(usage),
				 "cpu=00:%02u:00,gres/gpumem=%uM,"
				 "gres/gpuutil=%u,mem=%uM",
				 rnd(60), rnd(80000), rnd(100 * (unsigned)gpus),
				 rnd(64000));
		else
			snprintf(usage, sizeof(usage), "cpu=00:%02u:00,mem=%uM",
				 rnd(60), rnd(64000));
		/* a preempted job's earlier run (-D): requeued, then this */
		if (st[0] == 'P')
			printf("%ld" D "%ld" D "user%04ld" D "acct%03ld" D
			       "p%02d" D "normal" D "REQUEUED" D "0:0" D "%ld" D
			       "%ld" D "%ld" D "%ld" D "%d" D "%dG" D "%s" D
			       "1" D "" D "c%05ld" D "00:10.000" D "" D "" D
			       "%s\n",
			       id, id, user, user % 200, part, submit, start,
			       start + 600, 600L, cpus, cpus * 4, tres, node,
			       names[i % 8]);
		printf("%ld" D "%ld" D "user%04ld" D "acct%03ld" D "p%02d" D
		       "normal" D "%s" D "%d:0" D "%ld" D "%ld" D "%ld" D
		       "%ld" D "%d" D "%dG" D "%s" D "1" D "" D "c%05ld" D
		       "%02ld:%02ld:00" D "" D "" D "%s\n",
		       id, id, user, user % 200, part, st, st[0] == 'F', submit,
		       start, end, el, cpus, cpus * 4, tres, node,
		       el / 3600 % 24, el / 60 % 60, names[i % 8]);
		printf("%ld.batch" D "%ld.batch" D "" D "acct%03ld" D "" D "" D
		       "%s" D "%d:0" D "%ld" D "%ld" D "%ld" D "%ld" D "%d" D
		       "" D "cpu=%d,mem=%dG,node=1" D "1" D "1" D "c%05ld" D
		       "%02ld:%02ld:00" D "%uK" D "%s" D "batch\n",
		       id, id, user % 200,
		       strncmp(st, "CANCELLED", 9) == 0 ? "CANCELLED" : st,
		       st[0] == 'F', start, start, end, el, cpus, cpus,
		       cpus * 4, node, el / 3600 % 24, el / 60 % 60,
		       rnd(4000000), usage);
	}
	return 0;
}
