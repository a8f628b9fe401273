/*
 * cli_admin.c - which Slurm command serves each admin kind (accounts,
 * users, assocs, QOS, fairshare, events, GPUs, limits, reservations,
 * diag, config) and how their outputs combine. Every argv is fixed; the
 * only value taken from the cluster (the controller log path) is checked
 * against a path whitelist before it reaches a command line.
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

	sq_buf_init(&buf, SQ_CLI_OUT_LIMIT);
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

/* SlurmctldLogFile from `scontrol show config`, or "" */
static void
log_path(struct sq_cli *cli, char *path, size_t n)
{
	static const char *const argv[] = { "scontrol", "show", "config",
					    NULL };
	struct sq_snapshot *cfg = sq_snapshot_new(SQ_KIND_CONFIG, 0);
	struct sq_err e;
	size_t i;

	path[0] = '\0';
	if (cfg == NULL)
		return;
	if (run_into(cli, argv, sq_parse_config, cfg, &e) == 0) {
		for (i = 0; i < cfg->nrows; i++) {
			const struct sq_kv *kv = sq_snapshot_row(cfg, i);

			if (strcmp(kv->key, "SlurmctldLogFile") == 0 &&
			    safe_path(kv->value))
				snprintf(path, n, "%s", kv->value);
		}
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

static int
fetch_gpus(struct sq_cli *cli, struct sq_snapshot **out, struct sq_err *err)
{
	static const char *const nargv[] = { "scontrol", "-d",   "-o",
					     "show",     "node", NULL };
	const char *const jargv[] = {
		"squeue",           "-h", "-a", "-t", "R,S,CG", "-O",
		sq_cli_gpujobs_fmt, NULL
	};
	struct sq_snapshot *s;
	const char *note;
	double t0 = sq_util_now_ms();

	s = sq_snapshot_new(SQ_KIND_GPUS, 0);
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s->source = "scontrol -d show node + squeue tres-alloc";
	const char *const pargv[] = { "squeue", "-h", "-a", "-r",
				      "-t",     "PD", "-O", sq_cli_gpupend_fmt,
				      NULL };
	struct sq_err perr;
	int pend;

	if (run_into(cli, nargv, sq_parse_gpu_nodes, s, err) == -1 ||
	    run_into(cli, jargv, sq_parse_gpu_jobs, s, err) == -1) {
		sq_snapshot_unref(s);
		return -1;
	}
	/* the demand is a column of its own: when it cannot be read the
	 * rest stands and the demand says why */
	sq_err_clear(&perr);
	pend = run_into(cli, pargv, sq_parse_gpu_pending, s, &perr);
	/* gres/gpuutil exists from 23.02 and needs AutoDetect=nvml/rsmi */
	if (cli->major < 23 || (cli->major == 23 && cli->minor < 2))
		note = "not collected by this cluster (Slurm before 23.02 has "
		       "no gres/gpuutil)";
	else
		note = "no job on it reports GPU use (sstat gres/gpuutil)";
	if (sq_gpus_finish(s, note) == -1) {
		sq_snapshot_unref(s);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	if (pend == -1) {
		char why[300];

		snprintf(why, sizeof(why), "pending jobs not read: %.200s",
			 perr.msg);
		sq_gpus_pending_unknown(s, sq_snapshot_str(s, why));
	}
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

/* sdiag, then the controllers from `scontrol ping` (rows of section
 * "controller"); a ping that fails leaves a row saying why, not an error:
 * sdiag's figures stand alone (a recording made before has no ping) */
static int
fetch_diag(struct sq_cli *cli, struct sq_snapshot **out, struct sq_err *err)
{
	static const char *const sdiag[] = { "sdiag", NULL };
	static const char *const ping[] = { "scontrol", "ping", NULL };
	struct sq_err perr = { 0 };
	char why[300];

	if (simple(cli, SQ_KIND_DIAG, sdiag, sq_parse_sdiag, "sdiag", out,
		   err) == -1)
		return -1;
	(*out)->source = "sdiag, scontrol ping";
	if (run_into(cli, ping, sq_parse_scontrol_ping, *out, &perr) == 0)
		return 0;
	snprintf(why, sizeof(why), "not known: scontrol ping: %.200s",
		 perr.msg);
	sq_kv_add(*out, "controller", "controllers", why, &perr);
	return 0;
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

/* The accounting kinds read whole by one sacctmgr (sshare for the
 * shares) and one parser; sq_cli_fetch_admin has set *out to NULL. */
static int
fetch_accounting(struct sq_cli *cli, enum sq_kind kind,
		 struct sq_snapshot **out, struct sq_err *err)
{
	switch (kind) {
	case SQ_KIND_ASSOCS: {
		const char *const argv[] = { "sacctmgr",       "-n",    "-P",
					     "show",           "assoc", "tree",
					     sq_cli_assoc_fmt, NULL };

		return simple(cli, kind, argv, sq_parse_sacctmgr_assoc,
			      "sacctmgr show assoc tree", out, err);
	}
	case SQ_KIND_ACCOUNTS: {
		const char *const argv[] = { "sacctmgr",  "-n",
					     "-P",        "show",
					     "account",   "withassoc",
					     "withcoord", sq_cli_account_fmt,
					     NULL };

		return simple(cli, kind, argv, sq_parse_sacctmgr_account,
			      "sacctmgr show account", out, err);
	}
	case SQ_KIND_USERS: {
		const char *const argv[] = { "sacctmgr",  "-n",
					     "-P",        "show",
					     "user",      "withassoc",
					     "withcoord", sq_cli_user_fmt,
					     NULL };

		return simple(cli, kind, argv, sq_parse_sacctmgr_user,
			      "sacctmgr show user", out, err);
	}
	case SQ_KIND_QOS: {
		const char *const argv[] = { "sacctmgr", "-n",  "-P",
					     "show",     "qos", sq_cli_qos_fmt,
					     NULL };

		return simple(cli, kind, argv, sq_parse_sacctmgr_qos,
			      "sacctmgr show qos", out, err);
	}
	case SQ_KIND_SHARES: {
		const char *const argv[] = { "sshare", "-P", "-n",
					     "-a",     "-o", sq_cli_sshare_fmt,
					     NULL };

		return simple(cli, kind, argv, sq_parse_sshare, "sshare -a -o",
			      out, err);
	}
	default:
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s view is not available through the "
				  "CLI backends yet",
				  sq_kind_name(kind));
	}
}

/* The kinds read whole by one scontrol (sacctmgr show problem for the
 * problems) and one parser; sq_cli_fetch_admin has set *out to NULL. */
static int
fetch_listing(struct sq_cli *cli, enum sq_kind kind, struct sq_snapshot **out,
	      struct sq_err *err)
{
	switch (kind) {
	case SQ_KIND_LIMITS: {
		static const char *const argv[] = { "scontrol", "show",
						    "assoc_mgr",
						    "flags=assoc,qos", NULL };

		return simple(cli, kind, argv, sq_parse_assoc_mgr,
			      "scontrol show assoc_mgr", out, err);
	}
	case SQ_KIND_RESERVATIONS: {
		static const char *const argv[] = { "scontrol", "-o", "show",
						    "reservation", NULL };

		return simple(cli, kind, argv, sq_parse_reservations,
			      "scontrol -o show reservation", out, err);
	}
	case SQ_KIND_PROBLEMS: {
		static const char *const argv[] = {
			"sacctmgr",         "-n", "-P", "show", "problem",
			sq_cli_problem_fmt, NULL
		};

		return simple(cli, kind, argv, sq_parse_problems,
			      "sacctmgr show problem", out, err);
	}
	case SQ_KIND_LICENSES: {
		static const char *const argv[] = { "scontrol", "-o", "show",
						    "licenses", NULL };

		return simple(cli, kind, argv, sq_parse_licenses,
			      "scontrol -o show licenses", out, err);
	}
	case SQ_KIND_CONFIG: {
		static const char *const argv[] = { "scontrol", "show",
						    "config", NULL };

		return simple(cli, kind, argv, sq_parse_config,
			      "scontrol show config", out, err);
	}
	default:
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s view is not available through the "
				  "CLI backends yet",
				  sq_kind_name(kind));
	}
}

int
sq_cli_fetch_admin(struct sq_cli *cli, enum sq_kind kind,
		   struct sq_snapshot **out, struct sq_err *err)
{
	*out = NULL;
	switch (kind) {
	case SQ_KIND_ASSOCS:
	case SQ_KIND_ACCOUNTS:
	case SQ_KIND_USERS:
	case SQ_KIND_QOS:
	case SQ_KIND_SHARES:
		return fetch_accounting(cli, kind, out, err);
	case SQ_KIND_EVENTS:
		return fetch_events(cli, out, err);
	case SQ_KIND_GPUS:
		return fetch_gpus(cli, out, err);
	case SQ_KIND_GPUUSE:
		return sq_cli_fetch_gpuuse(cli, out, err);
	case SQ_KIND_HISTORY:
		return fetch_history(cli, out, err);
	case SQ_KIND_LIMITS:
	case SQ_KIND_RESERVATIONS:
	case SQ_KIND_PROBLEMS:
	case SQ_KIND_LICENSES:
	case SQ_KIND_CONFIG:
		return fetch_listing(cli, kind, out, err);
	case SQ_KIND_NODE_EVENTS:
		return fetch_node_events(cli, out, err);
	case SQ_KIND_RUNAWAY:
		return sq_cli_fetch_runaway(cli, out, err);
	case SQ_KIND_DBD:
		return fetch_dbd(cli, out, err);
	case SQ_KIND_DIAG:
		return fetch_diag(cli, out, err);
	default:
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s view is not available through the "
				  "CLI backends yet",
				  sq_kind_name(kind));
	}
}
