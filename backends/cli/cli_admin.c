/*
 * cli_admin.c - which Slurm command serves each admin kind (accounts,
 * users, assocs, QOS, fairshare, events, GPUs, limits, reservations,
 * diag, config): a table of kind -> commands -> parser, reads[] (one
 * command for most, several for the kinds one question answers by
 * several), and by hand the kinds whose commands depend on the time
 * window or on each other (events, history, node events, slurmdbd's
 * statistics). Every argv is fixed; the only value taken from the
 * cluster (the controller log path) is checked against a path whitelist
 * before it reaches a command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli_admin.h"
#include "core/analysis/events.h"
#include "core/analysis/gpus.h"
#include "core/analysis/history.h"
#include "core/base/util.h"

/* Lines of the controller log read for preemption events. */
typedef int (*parse_fn)(char *, struct sq_snapshot *, struct sq_err *);

/* Run argv and parse its output into s. */
static int
run_into(struct sq_cli *cli, const char *const argv[], parse_fn parse,
	 struct sq_snapshot *s, struct sq_err *err)
{
	struct sq_buf buf;
	int rc = -1;

	sq_buf_init(&buf, sq_cli_out_limit(cli));
	if (sq_cli_run(cli, argv, &buf, err) == -1)
		goto done;
	if (buf.data == NULL)
		sq_buf_append(&buf, "", 0);
	rc = parse(buf.data, s, err);
done:
	sq_buf_free(&buf);
	return rc;
}

/* One command, one parser, a new snapshot. */
static int
simple(struct sq_cli *cli, enum sq_kind kind, const char *const argv[],
       parse_fn parse, const char *source, struct sq_snapshot **out,
       struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	double t0 = sq_util_now_ms();

	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s->source = source;
	if (run_into(cli, argv, parse, s, err) == -1) {
		sq_snapshot_unref(s);
		return -1;
	}
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	return 0;
}

/*
 * One command of a kind of reads[]: its argv, its parser into the
 * kind's one snapshot, and, for an optional command,
 * what the rows say when it fails (why: its error), after the finish
 * (NULL: required, its failure fails the fetch).
 */
struct cli_step {
	const char *const *argv;
	parse_fn parse;
	void (*unread)(struct sq_snapshot *s, const char *why);
};

#define CLI_STEPS 4

/*
 * How the CLI reads a kind: the source line, the commands in order (argv
 * NULL ends them; several only where one Slurm question is answered by
 * commands no other kind runs: HACKING.md, "One question, several
 * commands"), then finish() over the rows (NULL: none; -1 on ENOMEM).
 */
struct cli_read {
	const char *source;
	struct cli_step steps[CLI_STEPS];
	int (*finish)(const struct sq_cli *cli, struct sq_snapshot *s);
};

/* the GPU jobs' demand, when their squeue failed */
static void
gpus_pending_unread(struct sq_snapshot *s, const char *msg)
{
	char why[300];

	snprintf(why, sizeof(why), "pending jobs not read: %.200s", msg);
	sq_gpus_pending_unknown(s, sq_snapshot_str(s, why));
}

/* per-partition, user and account rows; the use's note by release */
static int
gpus_finish(const struct sq_cli *cli, struct sq_snapshot *s)
{
	/* gres/gpuutil exists from 23.02 and needs AutoDetect=nvml/rsmi */
	if (cli->major < 23 || (cli->major == 23 && cli->minor < 2))
		return sq_gpus_finish(s, "not collected by this cluster (Slurm "
					 "before 23.02 has no gres/gpuutil)");
	return sq_gpus_finish(
	    s, "no job on it reports GPU use (sstat gres/gpuutil)");
}

/* the controllers, when `scontrol ping` failed: sdiag's figures stand
 * alone (a recording made before has no ping) */
static void
diag_ping_unread(struct sq_snapshot *s, const char *msg)
{
	char why[300];
	struct sq_err e;

	snprintf(why, sizeof(why), "not known: scontrol ping: %.200s", msg);
	sq_kv_add(s, "controller", "controllers", why, &e);
}

static const char *const gpu_nodes_argv[] = { "scontrol", "-d",   "-o",
					      "show",     "node", NULL };
static const char *const gpu_jobs_argv[] = {
	"squeue", "-h", "-a", "-t", "R,S,CG", "-O", sq_cli_gpujobs_fmt, NULL
};
static const char *const gpu_pend_argv[] = {
	"squeue", "-h", "-a", "-r", "-t", "PD", "-O", sq_cli_gpupend_fmt, NULL
};
static const char *const sdiag_argv[] = { "sdiag", NULL };
static const char *const ping_argv[] = { "scontrol", "ping", NULL };
static const char *const assoc_argv[] = { "sacctmgr",       "-n",    "-P",
					  "show",           "assoc", "tree",
					  sq_cli_assoc_fmt, NULL };
static const char *const account_argv[] = { "sacctmgr",  "-n",
					    "-P",        "show",
					    "account",   "withassoc",
					    "withcoord", sq_cli_account_fmt,
					    NULL };
static const char *const user_argv[] = {
	"sacctmgr",      "-n", "-P", "show", "user", "withassoc", "withcoord",
	sq_cli_user_fmt, NULL
};
static const char *const qos_argv[] = { "sacctmgr", "-n",  "-P",
					"show",     "qos", sq_cli_qos_fmt,
					NULL };
static const char *const sshare_argv[] = { "sshare", "-P", "-n",
					   "-a",     "-o", sq_cli_sshare_fmt,
					   NULL };
static const char *const assoc_mgr_argv[] = { "scontrol", "show", "assoc_mgr",
					      "flags=assoc,qos", NULL };
static const char *const resv_argv[] = { "scontrol", "-o", "show",
					 "reservation", NULL };
static const char *const problem_argv[] = {
	"sacctmgr", "-n", "-P", "show", "problem", sq_cli_problem_fmt, NULL
};
static const char *const licenses_argv[] = { "scontrol", "-o", "show",
					     "licenses", NULL };
static const char *const config_argv[] = { "scontrol", "show", "config", NULL };

/* The kinds read by commands alone, by kind: one command and one parser
 * for most (the CLI's fetch table with fetch.c's switch), several for
 * the few one question answers by several (HACKING.md says why each
 * stays one fetch). */
static const struct cli_read reads[SQ_KIND_COUNT] = {
	/* the accounting kinds whole, by one sacctmgr (sshare) */
	[SQ_KIND_ASSOCS] = { "sacctmgr show assoc tree",
			     { { assoc_argv, sq_parse_sacctmgr_assoc, NULL } },
			     NULL },
	[SQ_KIND_ACCOUNTS] = { "sacctmgr show account",
			       { { account_argv, sq_parse_sacctmgr_account,
				   NULL } },
			       NULL },
	[SQ_KIND_USERS] = { "sacctmgr show user",
			    { { user_argv, sq_parse_sacctmgr_user, NULL } },
			    NULL },
	[SQ_KIND_QOS] = { "sacctmgr show qos",
			  { { qos_argv, sq_parse_sacctmgr_qos, NULL } },
			  NULL },
	[SQ_KIND_SHARES] = { "sshare -a -o",
			     { { sshare_argv, sq_parse_sshare, NULL } },
			     NULL },
	/* the listings, by one scontrol (sacctmgr show problem) */
	[SQ_KIND_LIMITS] = { "scontrol show assoc_mgr",
			     { { assoc_mgr_argv, sq_parse_assoc_mgr, NULL } },
			     NULL },
	[SQ_KIND_RESERVATIONS] = { "scontrol -o show reservation",
				   { { resv_argv, sq_parse_reservations,
				       NULL } },
				   NULL },
	[SQ_KIND_PROBLEMS] = { "sacctmgr show problem",
			       { { problem_argv, sq_parse_problems, NULL } },
			       NULL },
	[SQ_KIND_LICENSES] = { "scontrol -o show licenses",
			       { { licenses_argv, sq_parse_licenses, NULL } },
			       NULL },
	[SQ_KIND_CONFIG] = { "scontrol show config",
			     { { config_argv, sq_parse_config, NULL } },
			     NULL },
	/* the GPUs by index on each node, the running jobs holding them
	 * (TRES by index) and the pending jobs' demand */
	[SQ_KIND_GPUS] = { "scontrol -d show node + squeue tres-alloc",
			   { { gpu_nodes_argv, sq_parse_gpu_nodes, NULL },
			     { gpu_jobs_argv, sq_parse_gpu_jobs, NULL },
			     { gpu_pend_argv, sq_parse_gpu_pending,
			       gpus_pending_unread } },
			   gpus_finish },
	/* sdiag, then the controllers (rows of section "controller") */
	[SQ_KIND_DIAG] = { "sdiag, scontrol ping",
			   { { sdiag_argv, sq_parse_sdiag, NULL },
			     { ping_argv, sq_parse_scontrol_ping,
			       diag_ping_unread } },
			   NULL },
};

/* A kind of reads[]: its commands into one snapshot, in order. */
static int
fetch_read(struct sq_cli *cli, enum sq_kind kind, struct sq_snapshot **out,
	   struct sq_err *err)
{
	const struct cli_read *c = &reads[kind];
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	struct sq_err why[CLI_STEPS];
	int failed[CLI_STEPS];
	double t0 = sq_util_now_ms();
	size_t i, n;

	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s->source = c->source;
	for (n = 0; n < CLI_STEPS && c->steps[n].argv != NULL; n++) {
		const struct cli_step *st = &c->steps[n];

		sq_err_clear(&why[n]);
		failed[n] = run_into(cli, st->argv, st->parse, s,
				     st->unread != NULL ? &why[n] : err) == -1;
		if (failed[n] && st->unread == NULL) {
			sq_snapshot_unref(s);
			return -1;
		}
	}
	if (c->finish != NULL && c->finish(cli, s) == -1) {
		sq_snapshot_unref(s);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		if (failed[i])
			c->steps[i].unread(s, why[i].msg);
	}
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	return 0;
}

/* An absolute path of plain characters, without "..". */
static int
safe_path(const char *p)
{
	const char *c;

	if (p[0] != '/' || strlen(p) > 1024 || strstr(p, "..") != NULL)
		return 0;
	for (c = p; *c != '\0'; c++) {
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr("/._-+", *c)))
			return 0;
	}
	return 1;
}

/* SlurmctldLogFile from the CONFIG kind's read (reads[], `scontrol show
 * config`), or "" */
static void
log_path(struct sq_cli *cli, char *path, size_t n)
{
	struct sq_snapshot *cfg = NULL;
	struct sq_err e;
	size_t i;

	path[0] = '\0';
	if (fetch_read(cli, SQ_KIND_CONFIG, &cfg, &e) == -1)
		return;
	for (i = 0; i < cfg->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(cfg, i);

		if (strcmp(kv->key, "SlurmctldLogFile") == 0 &&
		    safe_path(kv->value))
			snprintf(path, n, "%s", kv->value);
	}
	sq_snapshot_unref(cfg);
}

/* "--delimiter=|sqn<16 hex>|": sacct -P's separator, a fresh nonce (see
 * sq_cli_delim_learn) */
#define SQ_CLI_DELIM_ARG (sizeof("--delimiter=") + SQ_CLI_NONCE_LEN + 2)

static int
delim_arg(char *arg, struct sq_err *err)
{
	memcpy(arg, "--delimiter=", sizeof("--delimiter=") - 1);
	return sq_cli_nonce_new(arg + sizeof("--delimiter=") - 1, err);
}

static int
fetch_events(struct sq_cli *cli, struct sq_snapshot **out, struct sq_err *err)
{
	char delim[SQ_CLI_DELIM_ARG];
	const char *const argv[] = {
		"sacct",     "-a",  "-D",  "-X",    "-n",
		"-P",        delim, "-s",  "PR,RQ", "-S",
		"now-1days", "-E",  "now", "-o",    sq_cli_sacct_events_fmt,
		NULL
	};
	struct sq_snapshot *s, *log;
	char path[1100], whybuf[300];
	const char *why = "no preemptor: the controller log was not read";
	double t0 = sq_util_now_ms();

	if (delim_arg(delim, err) == -1)
		return -1;
	if (simple(cli, SQ_KIND_EVENTS, argv, sq_parse_sacct_events,
		   "sacct -s PR,RQ", &s, err) == -1)
		return -1;
	/* the controller log, when this user may read it: optional. grep
	 * streams the whole file, however long, and passes on only the
	 * preemption lines (memory bounds the output, not a line count);
	 * events before the window's start are dropped */
	log_path(cli, path, sizeof(path));
	log = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	if (path[0] == '\0') {
		why = "no preemptor: SlurmctldLogFile is not set or not "
		      "shown to this user";
	} else if (log != NULL) {
		const char *const gargv[] = { "/bin/grep", "-F",
					      "-e",        "preempted JobId=",
					      "--",        path,
					      NULL };
		struct sq_err e;
		int rc;

		sq_err_clear(&e);
		rc = run_into(cli, gargv, sq_parse_events_log, log, &e);
		/* grep exits 1 when no line matches: none */
		if (rc == -1 && e.code == SQ_ERR_COMMAND && e.status == 1)
			rc = 0;
		if (rc == 0) {
			sq_events_since(log, (int64_t)time(NULL) - 86400);
			if (sq_events_merge(s, log) == -1) {
				sq_snapshot_unref(log);
				sq_snapshot_unref(s);
				return sq_err_set(err, SQ_ERR_SYSTEM,
						  "out of memory");
			}
			s->source = "sacct -s PR,RQ + slurmctld log";
			why = "no preemptor: the controller log has no line "
			      "for it (rotated, or not a preemption)";
		} else {
			snprintf(whybuf, sizeof(whybuf),
				 "no preemptor: the controller log could not "
				 "be read: %.200s",
				 e.msg);
			why = whybuf;
		}
	}
	sq_snapshot_unref(log);
	sq_events_finish(s, NULL);
	sq_events_note_unknown(s, why);
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	return 0;
}

/* The history window of this fetch (the backend's cfg, which the
 * session sets: --since, :since); "" is the default. */
static const char *
since(const struct sq_cli *cli)
{
	return cli->b != NULL ? cli->b->cfg.history_since : "";
}

/*
 * Runs and steps of the window in one sacct (one slurmdbd query). On a
 * console's refresh only those active since the last fetch, merged into
 * it (core/analysis/history.h): a day of a busy cluster is a long query.
 */
static int
fetch_history(struct sq_cli *cli, struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_hist_window w;
	struct sq_snapshot *s;
	char start[80];
	int64_t now = (int64_t)time(NULL);
	int part;

	/* the session's window, set with the fetch (--since, :since) */
	if (sq_history_window_parse(since(cli), &w, err) == -1)
		return -1;
	part = sq_history_incr_start(&cli->hist, &w, now, start, sizeof(start));
	{
		char delim[SQ_CLI_DELIM_ARG];
		const char *const argv[] = {
			"sacct", "-a",  "-D", "-n",
			"-P",    delim, "-S", start,
			"-E",    "now", "-o", sq_cli_sacct_history_fmt,
			NULL
		};

		if (delim_arg(delim, err) == -1 ||
		    simple(cli, SQ_KIND_HISTORY, argv, sq_parse_sacct_history,
			   "sacct -D (history)", &s, err) == -1)
			return -1;
	}
	if (sq_history_incr_done(&cli->hist, &w, now, part, &s) == -1) {
		sq_snapshot_unref(s);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	/* gres/gpuutil exists from 23.02 (a replay knows its version too) */
	if (cli->major > 0 &&
	    (cli->major < 23 || (cli->major == 23 && cli->minor < 2)))
		sq_history_gpu_none(s, SQ_HIST_GPU_OLD);
	*out = s;
	return 0;
}

/* Node events of the history window (--since, :since), one sacctmgr;
 * Reason last: a '|' in it stays in it. */
static int
fetch_node_events(struct sq_cli *cli, struct sq_snapshot **out,
		  struct sq_err *err)
{
	struct sq_hist_window w;
	char start[80], startarg[96];
	const char *const argv[] = {
		"sacctmgr", "-n",      "-P",
		"show",     "event",   "event=node",
		startarg,   "end=now", sq_cli_node_event_fmt,
		NULL
	};

	if (sq_history_window_parse(since(cli), &w, err) == -1)
		return -1;
	sq_history_window_sacct(&w, start, sizeof(start));
	snprintf(startarg, sizeof(startarg), "start=%s", start);
	return simple(cli, SQ_KIND_NODE_EVENTS, argv, sq_parse_node_events,
		      "sacctmgr show event", out, err);
}

unsigned
sq_cli_admin_caps(const struct sq_cli *cli)
{
	(void)cli;
	return SQ_CAP_ACCOUNTING | SQ_CAP_SHARES | SQ_CAP_EVENTS |
	       SQ_CAP_RESERVATIONS | SQ_CAP_DIAG | SQ_CAP_CONFIG |
	       SQ_CAP_LICENSES | SQ_CAP_NODE_EVENTS | SQ_CAP_RUNAWAY |
	       SQ_CAP_DBD | SQ_CAP_PROBLEMS;
}

/* slurmdbd's statistics: sacctmgr show stats. A failed read (slurmdbd
 * down, a user without the privilege) is a row saying why, not an
 * error: the diag view joins these rows under sdiag's. */
static int
fetch_dbd(struct sq_cli *cli, struct sq_snapshot **out, struct sq_err *err)
{
	static const char *const argv[] = { "sacctmgr", "show", "stats", NULL };
	struct sq_err e = { 0 };
	char why[300];

	if (simple(cli, SQ_KIND_DBD, argv, sq_parse_dbd_stats,
		   "sacctmgr show stats", out, &e) == 0)
		return 0;
	*out = sq_snapshot_new(SQ_KIND_DBD, 0);
	if (*out == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	(*out)->source = "sacctmgr show stats";
	snprintf(why, sizeof(why), "not known: sacctmgr show stats: %.200s",
		 e.msg);
	sq_kv_add(*out, "dbd", "slurmdbd statistics", why, &e);
	return 0;
}

int
sq_cli_fetch_admin(struct sq_cli *cli, enum sq_kind kind,
		   struct sq_snapshot **out, struct sq_err *err)
{
	*out = NULL;
	if ((unsigned)kind < SQ_KIND_COUNT && reads[kind].source != NULL)
		return fetch_read(cli, kind, out, err);
	switch (kind) {
	case SQ_KIND_EVENTS:
		return fetch_events(cli, out, err);
	case SQ_KIND_GPUUSE:
		return sq_cli_fetch_gpuuse(cli, out, err);
	case SQ_KIND_HISTORY:
		return fetch_history(cli, out, err);
	case SQ_KIND_NODE_EVENTS:
		return fetch_node_events(cli, out, err);
	case SQ_KIND_RUNAWAY:
		return sq_cli_fetch_runaway(cli, out, err);
	case SQ_KIND_DBD:
		return fetch_dbd(cli, out, err);
	default:
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s view is not available through the "
				  "CLI backends yet",
				  sq_kind_name(kind));
	}
}
