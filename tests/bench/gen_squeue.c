/*
 * gen_squeue.c - writes a made-up queue of N jobs in the exact format of
 * `squeue -h -a -O <sq_cli_squeue_fmt>` (tests/fixtures/cli/22.05/
 * squeue.txt) and the matching `sprio -h -o <sq_cli_sprio_fmt>` lines, for
 * make bench. Deterministic (fixed seed): the same N gives the same bytes.
 * Shaped like a big site: ~70% pending, split job arrays, a few hundred
 * users, node lists as Slurm compresses them. Not part of squall.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/bench_rng.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(uint32_t n)
{
	return bench_rnd(&rng, n);
}

static const char *const parts[] = { "batch", "batch",   "batch", "short",
				     "long",  "gpu",     "gpu",   "highmem",
				     "debug", "preempt", NULL };
static const char *const qoses[] = { "normal", "normal", "normal",
				     "high",   "low",    "long" };
static const char *const reasons[] = {
	"Priority",
	"Priority",
	"Priority",
	"Resources",
	"Resources",
	"AssocMaxJobsLimit",
	"QOSMaxJobsPerUserLimit",
	"AssocGrpCPULimit",
	"Dependency",
	"BeginTime",
	"JobHeldUser",
	"ReqNodeNotAvail, "
	"UnavailableNodes:c[0007,0412]",
};
static const char *const stems[] = {
	"train-llm",     "sim",        "bwa-mem", "relion",        "gromacs",
	"vasp",          "wrf",        "cp2k",    "analysis",      "sweep",
	"nextflow-task", "jupyter",    "pytorch", "openfoam",      "lammps",
	"blast",         "star-align", "namd",    "snakejob.rule", "R-batch",
};

#define NUSERS 400
#define NACCTS 60
#define NNODES 2048

static void
fmt_dur(long s, char *buf, size_t n)
{
	long d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60, x = s % 60;

	if (d > 0)
		snprintf(buf, n, "%ld-%02ld:%02ld:%02ld", d, h, m, x);
	else if (h > 0)
		snprintf(buf, n, "%ld:%02ld:%02ld", h, m, x);
	else
		snprintf(buf, n, "%ld:%02ld", m, x);
}

/* A node list as Slurm prints it: c0123 or c[0123-0126] or
 * c[0007,0100-0101]. */
static void
fmt_nodes(int nodes, char *buf, size_t n)
{
	int first = (int)rnd(NNODES - 64);

	if (nodes == 1)
		snprintf(buf, n, "c%04d", first);
	else if (rnd(4) != 0)
		snprintf(buf, n, "c[%04d-%04d]", first, first + nodes - 1);
	else
		snprintf(buf, n, "c[%04d,%04d-%04d]", first, first + 7,
			 first + 7 + nodes - 2);
}

struct job {
	uint32_t id, array_id;
	const char *task; /* "" or "17" or "[40-99]" */
	int user, pending, held;
	const char *part, *qos, *reason;
	long prio, nodes, cpus, limit, used, submit, start, restarts;
	char gres[32], name[48], nodelist[48];
};

static void
line(FILE *q, FILE *p, const struct job *j, long now)
{
	char lim[32], used[32], jid[48], start[24], atid[16];
	const char *tres = j->gres[0] ? j->gres : "N/A";

	fmt_dur(j->limit, lim, sizeof(lim));
	fmt_dur(j->used, used, sizeof(used));
	if (j->array_id != 0)
		snprintf(jid, sizeof(jid), "%u_%s", j->array_id, j->task);
	else
		snprintf(jid, sizeof(jid), "%u", j->id);
	snprintf(atid, sizeof(atid), "%s", j->array_id ? j->task : "N/A");
	if (atid[0] == '[') /* squeue prints a range without brackets */
		snprintf(atid, sizeof(atid), "%.*s", (int)strlen(j->task) - 2,
			 j->task + 1);
	if (j->start > 0)
		snprintf(start, sizeof(start), "%ld", j->start);
	else
		snprintf(start, sizeof(start), "N/A");
	fprintf(
	    q,
	    "%s|%u|%u|%s|user%03d|acct%02d|%s|%s|%s|%s|%ld|%ld|%ld|%s|%s|%s|"
	    "%ld|%s|%s|%ld|%s|%s\n",
	    jid, j->id, j->array_id ? j->array_id : j->id, atid, j->user,
	    j->user % NACCTS, j->part, j->qos, j->pending ? "PD" : "R",
	    j->pending ? "PENDING" : "RUNNING", j->prio, j->nodes, j->cpus,
	    tres, lim, used, j->submit, start, j->nodelist, j->restarts,
	    j->pending ? j->reason : "None", j->name);
	if (j->pending && !j->held) {
		long age = (now - j->submit) / 60, fs = rnd(5000),
		     js = rnd(300);
		long pp = strcmp(j->part, "debug") == 0 ? 1000 : 5;
		long qp = strcmp(j->qos, "high") == 0 ? 2000 : 200;
		long tot = age + fs + js + pp + qp;

		fprintf(p,
			"%u|user%03d|%s|%ld|0|%ld|%ld|%ld|%ld|%ld|0|0|"
			"cpu=%ld,mem=0%s\n",
			j->array_id && j->task[0] == '[' ? j->array_id : j->id,
			j->user, j->part, tot, age, fs, js, pp, qp, j->cpus * 2,
			j->gres[0] ? ",gres/gpu=125" : "");
	}
}

int
main(int argc, char **argv)
{
	long n, i = 0, now = 1795990000;
	uint32_t next_id = 4100000;
	FILE *q, *p;

	if (argc != 4) {
		fprintf(stderr, "usage: gen_squeue N squeue.txt sprio.txt\n");
		return 2;
	}
	n = strtol(argv[1], NULL, 10);
	q = fopen(argv[2], "w");
	p = fopen(argv[3], "w");
	if (n < 0 || q == NULL || p == NULL) {
		perror("gen_squeue");
		return 1;
	}
	while (i < n) {
		struct job j;
		long tasks = 1, t, running;
		int stem = (int)rnd(sizeof(stems) / sizeof(stems[0]));

		memset(&j, 0, sizeof(j));
		j.user = (int)rnd(NUSERS);
		j.part = parts[rnd(10)];
		j.qos = qoses[rnd(6)];
		j.submit = now - rnd(7 * 86400);
		j.limit = rnd(8) == 0 ? 7 * 86400 : (1 + rnd(48)) * 1800;
		j.nodes = rnd(10) == 0 ? 2 + rnd(15) : 1;
		j.cpus = j.nodes * (1 + rnd(4)) * 4;
		if (strcmp(j.part, "gpu") == 0)
			snprintf(j.gres, sizeof(j.gres), "gres:gpu:a100:%u",
				 1 + rnd(4));
		if (rnd(3) == 0)
			snprintf(j.name, sizeof(j.name), "%s", stems[stem]);
		else
			snprintf(j.name, sizeof(j.name), "%s_%u", stems[stem],
				 rnd(100000));
		/* one job in ten is an array of up to 500 split tasks */
		if (rnd(10) == 0)
			tasks = 2 + rnd(499);
		if (tasks > n - i)
			tasks = n - i;
		running =
		    tasks == 1 ? (rnd(10) < 3) : rnd((uint32_t)tasks / 2 + 1);
		for (t = 0; t < tasks; t++) {
			char task[16];

			j.id = next_id++;
			j.array_id = tasks > 1 ? (uint32_t)(j.id - t) : 0;
			snprintf(task, sizeof(task), "%ld", t + 1);
			j.task = task;
			j.pending = t >= running;
			j.reason = reasons[rnd(12)];
			j.held = strcmp(j.reason, "JobHeldUser") == 0;
			j.prio = j.held ? 0 : 1000 + rnd(20000);
			j.restarts = rnd(50) == 0 ? 1 + rnd(3) : 0;
			if (j.pending) {
				j.used = 0;
				j.start = rnd(3) == 0 ? now + rnd(86400) : 0;
				j.nodelist[0] = '\0';
			} else {
				/* started after submission, within its limit */
				j.used = rnd((uint32_t)j.limit);
				if (j.used > now - j.submit)
					j.used = now - j.submit;
				j.start = now - j.used;
				fmt_nodes((int)j.nodes, j.nodelist,
					  sizeof(j.nodelist));
			}
			line(q, p, &j, now);
			i++;
		}
	}
	if (fclose(q) != 0 || fclose(p) != 0) {
		perror("gen_squeue");
		return 1;
	}
	return 0;
}
