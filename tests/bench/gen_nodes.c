/*
 * gen_nodes.c - writes a made-up big cluster of N nodes in the exact
 * format of `sinfo -h -N -O <sq_cli_sinfo_fmt>` (a line per node and
 * partition, sorted by node as sinfo sorts them; the fields as
 * tests/fixtures/live/slurm-24.11/cli/nodes records them, with User and
 * TimeStamp), for make bench. Deterministic (fixed seed). Shaped like a
 * big site: 36 partitions over node pools, a fifth of the nodes with 4 or
 * 8 GPUs of two types, every node also in a preempt partition or two, a
 * few percent drained or down with a reason, who set it and when. Not part
 * of squall.
 *   gen_nodes N > sinfo.txt
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/bench_rng.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint32_t
rnd(uint32_t n)
{
	return bench_rnd(&rng, n);
}

#define NPARTS 36

static const char *const states[] = {
	"allocated", "allocated", "allocated", "mixed",    "mixed", "mixed",
	"idle",      "idle",      "drained",   "draining", "down",  "allocated",
};

static const char *const reasons[] = {
	"disk failure, ticket 4711", "kernel upgrade", "Not responding",
	"GPU ECC errors (xid 48)",   "memory test",
};

static void
line(long i, const char *part, const char *state, int gpus, int used,
     const char *type, int alloc, int cpus, int reason)
{
	printf("c%05ld|%s|%s|%d/%d/0/%d|%d|%d|", i, state, part, alloc,
	       cpus - alloc, cpus, cpus * 4000, alloc * 4000);
	if (gpus > 0)
		printf("gpu:%s:%d(S:0-1)|", type, gpus);
	else
		printf("(null)|");
	if (gpus > 0 && used > 0)
		printf("gpu:%s:%d(IDX:0-%d)|", type, used, used - 1);
	else if (gpus > 0)
		printf("gpu:%s:0(IDX:N/A)|", type);
	else
		printf("gpu:0|");
	if (reason >= 0)
		printf("root|%ld|%s\n", 1796190000L + i % 86400,
		       reasons[reason]);
	else
		printf("Unknown|Unknown|none\n");
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, i;

	if (n <= 0 || n > 999999) {
		fprintf(stderr, "usage: gen_nodes N (1..999999)\n");
		return 2;
	}
	for (i = 1; i <= n; i++) {
		/* pools of consecutive nodes: partition p holds nodes of
		 * pool p; the last pools are GPU nodes */
		int pool = (int)((i - 1) * NPARTS / n);
		int gpu = pool >= NPARTS - 7, cpus = gpu ? 64 : 128;
		int gpus = gpu ? (pool % 2 ? 8 : 4) : 0;
		const char *type = pool % 3 ? "a100" : "h100";
		const char *state =
		    states[rnd(sizeof(states) / sizeof(*states))];
		int alloc = 0, used = 0, reason = -1;
		char part[32];

		if (state[0] == 'a')
			alloc = cpus;
		else if (state[0] == 'm')
			alloc = 1 + (int)rnd((uint32_t)cpus - 1);
		if (state[0] == 'd') {
			reason = (int)rnd(sizeof(reasons) / sizeof(*reasons));
			alloc = strcmp(state, "draining") == 0 ? cpus / 2 : 0;
		}
		if (gpus > 0 && alloc > 0)
			used = 1 + (int)rnd((uint32_t)gpus);
		snprintf(part, sizeof(part), "%s%02d", gpu ? "gpu" : "cpu",
			 pool);
		/* sinfo's lines of a node: its partitions in its order */
		if (pool == 0)
			line(i, "cpu00*", state, gpus, used, type, alloc, cpus,
			     reason);
		else
			line(i, part, state, gpus, used, type, alloc, cpus,
			     reason);
		line(i, gpu ? "gpu-preempt" : "preempt", state, gpus, used,
		     type, alloc, cpus, reason);
		if (i % 4 == 0)
			line(i, "scavenger", state, gpus, used, type, alloc,
			     cpus, reason);
	}
	return 0;
}
