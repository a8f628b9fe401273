/*
 * bench_refresh.c - make bench driver: one full refresh of the job queue
 * (fetch + parse + model: the backend's fetch, then the join with sprio
 * the worker does) through any backend, side by side with a bare command
 * that fetches the same data to /dev/null (squeue, curl, ssh), runs
 * interleaved (the bare command first every other run). Prints shell
 * assignments (medians, in ms; each side's CPU too; pair_ratio, the
 * median of each run's squall/bare ratio: the two fetches of a run are
 * back to back, so a server whose answers drift from run to run moves
 * both sides of a pair alike; pairs, each run's squall/bare times in run
 * order, "s" where squall went first, "b" where the bare command did;
 * bare_peak_kb, the peak RSS of the biggest bare run; base_kb, this
 * process's RSS before its first timed fetch: its libraries, the backend).
 *   bench_refresh [-b backend] [-H host] [-p port] [-l user] [-u url]
 *                 [-T token-file] [-i identity] [-k known-hosts]
 *                 [-r replay-dir] [-n runs] [-t timeout] [-F]
 *                 [-K jobs|nodes|partitions] [-- bare command ...]
 *   -K: the kind fetched (jobs, the default, joined with sprio; nodes and
 *       partitions: the fetch alone, the nodes and partitions views')
 *   -F: every timed fetch on a newly opened backend (a first fetch: REST
 *       in full, without update_time), for a like-for-like ratio
 *   bench_refresh -f     (print squall's squeue -O, sprio -o and sinfo -O
 *                        formats, a line each)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/cli/cli.h"
#include "core/model/join.h"
#include "core/base/util.h"

/* VmHWM (peak) or VmRSS of this process, in kB */
static long
status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, strlen(key)) == 0)
			kb = strtol(line + strlen(key), NULL, 10);
	}
	fclose(f);
	return kb;
}

/* user + system CPU of this process (RUSAGE_SELF) or of its waited-for
 * children, in ms */
static double
cpu_ms(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru) == -1)
		return 0;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* the peak RSS of the biggest waited-for child (the bare command), kB */
static long
children_peak_kb(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) == -1)
		return -1;
	return ru.ru_maxrss;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The bare command, output to /dev/null, in the environment squall's
 * local transport gives Slurm commands. -1 when it failed. */
static double
bare(char **argv)
{
	double t0 = sq_util_now_ms();
	int status;
	pid_t pid = fork();

	if (pid == -1)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd == -1)
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		setenv("LC_ALL", "C", 1);
		setenv("SLURM_TIME_FORMAT", "%s", 1);
		/* squall's squeue runs so (sq_shell_utc); ssh and curl
		 * do not pass it on */
		setenv("TZ", "UTC0", 1);
		unsetenv("SQUEUE_FORMAT");
		unsetenv("SQUEUE_FORMAT2");
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) == -1 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return sq_util_now_ms() - t0;
}

/* One timed run of the bare command into tb[*nb] (and its CPU into
 * cb[*nb]): -1 when it failed. */
static int
run_bare(char **argv, double *tb, double *cb, int *nb)
{
	cb[*nb] = cpu_ms(RUSAGE_CHILDREN);
	tb[*nb] = bare(argv);
	cb[*nb] = cpu_ms(RUSAGE_CHILDREN) - cb[*nb];
	if (tb[*nb] < 0) {
		fprintf(stderr, "bench_refresh: %s failed\n", argv[0]);
		return -1;
	}
	(*nb)++;
	return 0;
}

int
main(int argc, char **argv)
{
	struct sq_cluster_cfg cfg;
	struct sq_backend *b;
	struct sq_snapshot *prio = NULL, *jobs = NULL;
	struct sq_err err;
	char **bare_argv = NULL;
	double *tf, *tb, *cf, *cb, *pr, med;
	char source[200] = "", pairs[512] = "";
	unsigned q0;
	size_t rows = 0, bytes = 0;
	long base_kb;
	int runs = 5, i, c, nb = 0, full = 0, unchanged = 0;
	enum sq_kind kind = SQ_KIND_JOBS;
	unsigned qn = 0;

	sq_cluster_defaults(&cfg);
	snprintf(cfg.name, sizeof(cfg.name), "bench");
	while ((c = getopt(argc, argv, "b:H:p:l:u:T:i:k:r:n:t:fFK:")) != -1) {
		switch (c) {
		case 'b':
			snprintf(cfg.backend, sizeof(cfg.backend), "%s",
				 optarg);
			break;
		case 'H':
			snprintf(cfg.host, sizeof(cfg.host), "%s", optarg);
			break;
		case 'p':
			cfg.port = atoi(optarg);
			break;
		case 'l':
			snprintf(cfg.user, sizeof(cfg.user), "%s", optarg);
			break;
		case 'u':
			snprintf(cfg.url, sizeof(cfg.url), "%s", optarg);
			break;
		case 'T':
			snprintf(cfg.token_file, sizeof(cfg.token_file), "%s",
				 optarg);
			break;
		case 'i':
			snprintf(cfg.identity, sizeof(cfg.identity), "%s",
				 optarg);
			break;
		case 'k':
			snprintf(cfg.known_hosts, sizeof(cfg.known_hosts), "%s",
				 optarg);
			break;
		case 'r':
			snprintf(cfg.replay_dir, sizeof(cfg.replay_dir), "%s",
				 optarg);
			break;
		case 'n':
			runs = atoi(optarg);
			break;
		case 't':
			cfg.timeout = atoi(optarg);
			break;
		case 'F':
			full = 1;
			break;
		case 'K':
			if (strcmp(optarg, "nodes") == 0)
				kind = SQ_KIND_NODES;
			else if (strcmp(optarg, "partitions") == 0)
				kind = SQ_KIND_PARTITIONS;
			else if (strcmp(optarg, "jobs") != 0)
				return 2;
			break;
		case 'f':
			printf("%s\n%s\n%s\n", sq_cli_squeue_fmt,
			       sq_cli_sprio_fmt, sq_cli_sinfo_fmt);
			return 0;
		default:
			return 2;
		}
	}
	if (optind < argc)
		bare_argv = argv + optind;
	if (runs < 1)
		runs = 1;
	tf = calloc((size_t)runs, sizeof(*tf));
	tb = calloc((size_t)runs, sizeof(*tb));
	cf = calloc((size_t)runs, sizeof(*cf));
	cb = calloc((size_t)runs, sizeof(*cb));
	pr = calloc((size_t)runs, sizeof(*pr));
	if (tf == NULL || tb == NULL || cf == NULL || cb == NULL || pr == NULL)
		return 1;
	sq_backend_set_prompt(NULL);
	sq_err_clear(&err);
	b = sq_backend_open(&cfg, &err);
	if (b == NULL) {
		fprintf(stderr, "bench_refresh: %s\n", err.msg);
		return 1;
	}
	/* the worker joins the queue with the sprio rows it has */
	if (kind == SQ_KIND_JOBS && (b->ops->caps(b) & SQ_CAP_SPRIO)) {
		if (b->ops->fetch(b, SQ_KIND_PRIO, &prio, &err) == -1)
			prio = NULL;
	}
	/* one untimed round: connections, caches, page cache (with -F the
	 * bare command's only: every fetch is a first one there, and a
	 * 10,000-job answer costs slurmrestd a gigabyte it keeps; but a
	 * freshly started slurmrestd answers its first ones up to twice as
	 * slowly, which the first timed run must not pay) */
	if (!full && b->ops->fetch(b, kind, &jobs, &err) == -1) {
		fprintf(stderr, "bench_refresh: %s\n", err.msg);
		return 1;
	}
	if (!full)
		sq_snapshot_unref(jobs);
	if (bare_argv != NULL && bare(bare_argv) < 0) {
		fprintf(stderr, "bench_refresh: %s failed\n", bare_argv[0]);
		return 1;
	}
	q0 = b->queries;
	base_kb = status_kb("VmRSS:");
	for (i = 0; i < runs; i++) {
		double t0;

		/* -F: every timed fetch is a first one, in full (REST sends
		 * no update_time), on a backend opened before the clock */
		if (full && i > 0) {
			qn += b->queries - q0;
			sq_backend_close(b);
			b = sq_backend_open(&cfg, &err);
			if (b == NULL) {
				fprintf(stderr, "bench_refresh: %s\n", err.msg);
				return 1;
			}
			q0 = b->queries;
		}
		/* the bare command first every other run: a server whose
		 * time drifts from one answer to the next (slurmrestd) favours
		 * neither side */
		if (bare_argv != NULL && i % 2 == 1 &&
		    run_bare(bare_argv, tb, cb, &nb) == -1)
			return 1;
		t0 = sq_util_now_ms();
		cf[i] = cpu_ms(RUSAGE_SELF);

		if (b->ops->fetch(b, kind, &jobs, &err) == -1) {
			fprintf(stderr, "bench_refresh: %s\n", err.msg);
			return 1;
		}
		if (prio != NULL)
			sq_jobs_join_prio(jobs, prio);
		tf[i] = sq_util_now_ms() - t0;
		cf[i] = cpu_ms(RUSAGE_SELF) - cf[i];
		rows = jobs->nrows;
		bytes = sq_snapshot_bytes(jobs);
		/* "GET /slurm/v0.0.38/jobs", "squeue -O": no quotes in it */
		snprintf(source, sizeof(source), "%s", jobs->source);
		source[strcspn(source, "'")] = '\0';
		/* REST's update_time answered "nothing changed" */
		if (strstr(source, "(not modified)") != NULL)
			unchanged++;
		sq_snapshot_unref(jobs);
		if (bare_argv != NULL && i % 2 == 0 &&
		    run_bare(bare_argv, tb, cb, &nb) == -1)
			return 1;
		/* run i's pair: tb[i] is the bare run next to tf[i] */
		if (bare_argv != NULL) {
			size_t l = strlen(pairs);

			pr[i] = tb[i] > 0 ? tf[i] / tb[i] : 0;
			/* in run order, the first of the two first */
			snprintf(pairs + l, sizeof(pairs) - l, "%s%s%.0f/%.0f",
				 i > 0 ? " " : "", i % 2 == 1 ? "b" : "s",
				 tf[i], tb[i]);
		}
	}
	/* median() sorts: v[0] is the fastest afterwards */
	med = median(tf, runs);
	printf("rows=%zu runs=%d refresh_ms=%.1f refresh_min=%.1f "
	       "rpcs_per_refresh=%.1f snapshot_bytes=%zu source='%s' "
	       "peak_kb=%ld rss_kb=%ld base_kb=%ld unchanged=%d",
	       rows, runs, med, tf[0], (double)(qn + b->queries - q0) / runs,
	       bytes, source, status_kb("VmHWM:"), status_kb("VmRSS:"), base_kb,
	       unchanged);
	printf(" cpu_ms=%.1f", median(cf, runs));
	if (nb > 0) {
		med = median(tb, nb);
		printf(" bare_ms=%.1f bare_min=%.1f", med, tb[0]);
		printf(" bare_cpu_ms=%.1f", median(cb, nb));
		printf(" pair_ratio=%.3f", median(pr, runs));
		printf(" pairs='%s'", pairs);
		printf(" bare_peak_kb=%ld", children_peak_kb());
	}
	printf("\n");
	sq_snapshot_unref(prio);
	sq_backend_close(b);
	free(tf);
	free(tb);
	free(cf);
	free(cb);
	free(pr);
	return 0;
}
