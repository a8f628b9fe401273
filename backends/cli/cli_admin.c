/*
 * cli_admin.c - which Slurm command serves each kind through the CLI
 * backends: one table, reads[], of kind -> commands -> parser (one
 * command for most, several for the kinds one question answers by
 * several), the arguments made at fetch time (sacct's delimiter nonce,
 * the history window, the controller log's path), what the rows say
 * when an optional command is not read, and the final step; or, for
 * the few whose reading is no list of commands (the nodes, GPU use,
 * runaway jobs), the kind's own read function. The table is the one
 * dispatch of the CLI's fetch. Every argv is fixed; the only value taken
 * from the cluster (the controller log path) is checked against a path
 * whitelist before it reaches a command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli_admin.h"
#include "backends/cli/stream.h"
#include "core/analysis/events.h"
#include "core/analysis/gpus.h"
#include "core/analysis/history.h"
#include "core/base/util.h"
#include "core/model/join.h"

typedef int (*parse_fn)(char *, struct sq_snapshot *, struct sq_err *);

/* Run argv and parse its output into s; exit status ok (not 0) means
 * no line (grep's 1): nothing parsed, not an error. */
static int
run_into(struct sq_cli *cli, const char *const argv[], parse_fn parse, int ok,
	 struct sq_snapshot *s, struct sq_err *err)
{
	struct sq_buf buf;
	int rc = -1;

	sq_buf_init(&buf, sq_cli_out_limit(cli));
	if (sq_cli_run(cli, argv, &buf, err) == -1) {
		if (ok != 0 && err->code == SQ_ERR_COMMAND &&
		    err->status == ok) {
			sq_err_clear(err);
			rc = 0;
		}
		goto done;
	}
	if (buf.data == NULL)
		sq_buf_append(&buf, "", 0);
	rc = parse(buf.data, s, err);
done:
	sq_buf_free(&buf);
	return rc;
}

#define CLI_STEPS 4
#define CLI_ARGV 20
#define CLI_MADE 2

/*
 * One fetch through reads[]: the step's argv with its arguments made
 * (made[]: their text), and what they told the finish (the history
 * window, its time, whether only a part of it is read).
 */
struct cli_fetch {
	struct sq_cli *cli;
	const char *argv[CLI_ARGV];
	char made[CLI_MADE][1100];
	struct sq_hist_window w;
	int64_t now;
	int part;
};

/*
 * One command of a kind of reads[]: its argv (an element that is one of
 * the arg_* placeholders below is made at fetch time), its parser into
 * the kind's one snapshot, or into one of its own that merge() then
 * joins to it (-1 on ENOMEM), the exit status that means no line (0:
 * none), the kind's source once it is read (NULL: unchanged), and, for
 * an optional command, note(): what the rows say of it after the
 * finish, read (why NULL) or not (why: its error; absent: an argument
 * could not be made and it did not run). NULL note: required, its
 * failure fails the fetch.
 */
struct cli_step {
	const char *const *argv;
	parse_fn parse;
	/* or parsed as it arrives (stream.h) */
	const struct sq_cli_lines *lines;
	int (*merge)(struct sq_snapshot *s, struct sq_snapshot *part);
	int ok_status;
	const char *source;
	void (*note)(struct sq_snapshot *s, const char *why, int absent);
};

/*
 * How the CLI reads a kind: the source line, the commands in order (argv
 * NULL ends them; several only where one Slurm question is answered by
 * commands no other kind runs: HACKING.md, "One question, several
 * commands"), then finish() over the rows (NULL: none; it may replace
 * them, -1 on ENOMEM). Or read(): the kind's own read function, where
 * its reading is no list of commands.
 */
struct cli_read {
	const char *source;
	struct cli_step steps[CLI_STEPS];
	int (*finish)(struct cli_fetch *f, struct sq_snapshot **s);
	int (*read)(struct sq_cli *cli, struct sq_snapshot **out,
		    struct sq_err *err);
};

/* --- arguments made at fetch time ---------------------------------- */

/* Placeholders of an argv (compared by address, never run as text). */
static const char arg_delim[] = "--delimiter=<fresh nonce>";
static const char arg_squeue_fmt[] = "<sq_cli_squeue_fmt with its nonce>";
static const char arg_hist_start[] = "<the history window's start>";
static const char arg_event_start[] = "start=<the history window's start>";
static const char arg_ctld_log[] = "<SlurmctldLogFile>";

/* The history window of this fetch (the backend's cfg, which the
 * session sets: --since, :since); "" is the default. */
static const char *
since(const struct sq_cli *cli)
{
	return cli->b != NULL ? cli->b->cfg.history_since : "";
}

/* "--delimiter=|sqn<16 hex>|": sacct -P's separator, a fresh nonce (see
 * sq_cli_delim_learn) */
static int
make_delim(struct cli_fetch *f, char *arg, size_t n, struct sq_err *err)
{
	(void)f;
	if (n < sizeof("--delimiter=") + SQ_CLI_NONCE_LEN + 2)
		return sq_err_set(err, SQ_ERR_SYSTEM, "delimiter too long");
	memcpy(arg, "--delimiter=", sizeof("--delimiter=") - 1);
	return sq_cli_nonce_new(arg + sizeof("--delimiter=") - 1, err);
}

static int
make_squeue_fmt(struct cli_fetch *f, char *arg, size_t n, struct sq_err *err)
{
	(void)f;
	return sq_cli_squeue_fmt_nonce(arg, n, err);
}

/* sacct -S of the history: on a console's refresh only the runs active
 * since the last fetch (f->part), merged into it by the finish
 * (core/analysis/history.h): a day of a busy cluster is a long query */
static int
make_hist_start(struct cli_fetch *f, char *arg, size_t n, struct sq_err *err)
{
	if (sq_history_window_parse(since(f->cli), &f->w, err) == -1)
		return -1;
	f->now = (int64_t)time(NULL);
	f->part = sq_history_incr_start(&f->cli->hist, &f->w, f->now, arg, n);
	return 0;
}

/* sacctmgr show event's start=, the whole window */
static int
make_event_start(struct cli_fetch *f, char *arg, size_t n, struct sq_err *err)
{
	struct sq_hist_window w;
	char start[80];

	if (sq_history_window_parse(since(f->cli), &w, err) == -1)
		return -1;
	sq_history_window_sacct(&w, start, sizeof(start));
	snprintf(arg, n, "start=%s", start);
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

static int fetch_read(struct sq_cli *cli, enum sq_kind kind,
		      struct sq_snapshot **out, struct sq_err *err);

/* SlurmctldLogFile from the CONFIG kind's read (reads[], `scontrol show
 * config`), checked by safe_path(); 1 (absent) where there is none */
static int
make_ctld_log(struct cli_fetch *f, char *arg, size_t n, struct sq_err *err)
{
	struct sq_snapshot *cfg = NULL;
	struct sq_err e;
	size_t i;

	arg[0] = '\0';
	if (fetch_read(f->cli, SQ_KIND_CONFIG, &cfg, &e) == 0) {
		for (i = 0; i < cfg->nrows; i++) {
			const struct sq_kv *kv = sq_snapshot_row(cfg, i);

			if (strcmp(kv->key, "SlurmctldLogFile") == 0 &&
			    safe_path(kv->value))
				snprintf(arg, n, "%s", kv->value);
		}
		sq_snapshot_unref(cfg);
	}
	if (arg[0] != '\0')
		return 0;
	sq_err_set(err, SQ_ERR_UNSUPPORTED,
		   "SlurmctldLogFile is not set or not shown to this user");
	return 1;
}

static const struct {
	const char *ph;
	int (*make)(struct cli_fetch *f, char *arg, size_t n,
		    struct sq_err *err);
} made_args[] = {
	{ arg_delim, make_delim },
	{ arg_squeue_fmt, make_squeue_fmt },
	{ arg_hist_start, make_hist_start },
	{ arg_event_start, make_event_start },
	{ arg_ctld_log, make_ctld_log },
};

/* f->argv: the step's argv, its placeholders made. 0, 1 where one is
 * absent (err says why), -1 on error. */
static int
make_argv(struct cli_fetch *f, const char *const *argv, struct sq_err *err)
{
	size_t i, j, k = 0;
	int rc;

	for (i = 0; argv[i] != NULL && i < CLI_ARGV - 1; i++) {
		f->argv[i] = argv[i];
		for (j = 0; j < sizeof(made_args) / sizeof(made_args[0]); j++) {
			if (argv[i] != made_args[j].ph)
				continue;
			if (k == CLI_MADE)
				return sq_err_set(err, SQ_ERR_SYSTEM,
						  "too many arguments to make");
			rc = made_args[j].make(f, f->made[k],
					       sizeof(f->made[k]), err);
			if (rc != 0)
				return rc;
			f->argv[i] = f->made[k++];
		}
	}
	f->argv[i] = NULL;
	return 0;
}

/* --- what the rows say, the final steps ----------------------------- */

/* the GPU jobs' demand, when their squeue failed */
static void
gpus_pending_note(struct sq_snapshot *s, const char *msg, int absent)
{
	char why[300];

	(void)absent;
	if (msg == NULL)
		return;
	snprintf(why, sizeof(why), "pending jobs not read: %.200s", msg);
	sq_gpus_pending_unknown(s, sq_snapshot_str(s, why));
}

/* per-partition, user and account rows; the use's note by release */
static int
gpus_finish(struct cli_fetch *f, struct sq_snapshot **s)
{
	const struct sq_cli *cli = f->cli;

	/* gres/gpuutil exists from 23.02 and needs AutoDetect=nvml/rsmi */
	if (cli->major < 23 || (cli->major == 23 && cli->minor < 2))
		return sq_gpus_finish(*s,
				      "not collected by this cluster (Slurm "
				      "before 23.02 has no gres/gpuutil)");
	return sq_gpus_finish(
	    *s, "no job on it reports GPU use (sstat gres/gpuutil)");
}

/* the controllers, when `scontrol ping` failed: sdiag's figures stand
 * alone (a recording made before has no ping) */
static void
diag_ping_note(struct sq_snapshot *s, const char *msg, int absent)
{
	char why[300];
	struct sq_err e;

	(void)absent;
	if (msg == NULL)
		return;
	snprintf(why, sizeof(why), "not known: scontrol ping: %.200s", msg);
	sq_kv_add(s, "controller", "controllers", why, &e);
}

/* slurmdbd's statistics, when sacctmgr show stats failed (slurmdbd
 * down, a user without the privilege): a row saying why, not an error
 * (the diag view joins these rows under sdiag's) */
static void
dbd_note(struct sq_snapshot *s, const char *msg, int absent)
{
	char why[300];
	struct sq_err e;

	(void)absent;
	if (msg == NULL)
		return;
	snprintf(why, sizeof(why), "not known: sacctmgr show stats: %.200s",
		 msg);
	sq_kv_add(s, "dbd", "slurmdbd statistics", why, &e);
}

/* the controller log's preemption lines, from the window's start (a day)
 * on, into sacct's events */
static int
events_log_merge(struct sq_snapshot *s, struct sq_snapshot *log)
{
	sq_events_since(log, (int64_t)time(NULL) - 86400);
	return sq_events_merge(s, log);
}

static int
events_finish(struct cli_fetch *f, struct sq_snapshot **s)
{
	(void)f;
	sq_events_finish(*s, NULL);
	return 0;
}

/* why an event has no preemptor, by what became of the controller log */
static void
events_log_note(struct sq_snapshot *s, const char *msg, int absent)
{
	char why[300];

	if (msg == NULL)
		snprintf(why, sizeof(why), "%s",
			 "no preemptor: the controller log has no line for it "
			 "(rotated, or not a preemption)");
	else if (absent)
		snprintf(why, sizeof(why), "no preemptor: %.200s", msg);
	else
		snprintf(why, sizeof(why),
			 "no preemptor: the controller log could not be read: "
			 "%.200s",
			 msg);
	sq_events_note_unknown(s, why);
}

/* the window's runs merged into the last fetch's where only a part was
 * read; their GPU peaks unknown before 23.02 (gres/gpuutil; a replay
 * knows its version too) */
static int
history_finish(struct cli_fetch *f, struct sq_snapshot **s)
{
	const struct sq_cli *cli = f->cli;

	if (sq_history_incr_done(&f->cli->hist, &f->w, f->now, f->part, s) ==
	    -1)
		return -1;
	if (cli->major > 0 &&
	    (cli->major < 23 || (cli->major == 23 && cli->minor < 2)))
		sq_history_gpu_none(*s, SQ_HIST_GPU_OLD);
	return 0;
}

static int
prio_finish(struct cli_fetch *f, struct sq_snapshot **s)
{
	(void)f;
	sq_prio_rank(*s);
	return 0;
}

/* --- the commands ---------------------------------------------------- */

static const char *const jobs_argv[] = { "squeue", "-h",           "-a",
					 "-O",     arg_squeue_fmt, NULL };
static const char *const partitions_argv[] = { "scontrol", "-o", "show",
					       "partition", NULL };
static const char *const prio_argv[] = { "sprio", "-h", "-o", sq_cli_sprio_fmt,
					 NULL };
static const char *const whatif_argv[] = {
	"sprio", "-n", "-h", "-o", sq_cli_sprio_norm_fmt, NULL
};
static const char *const weights_argv[] = { "sprio",          "-w", "-h", "-o",
					    sq_cli_sprio_fmt, NULL };
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
static const char *const dbd_argv[] = { "sacctmgr", "show", "stats", NULL };
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
/* sacct's preempted and requeued runs of the last day */
static const char *const events_argv[] = {
	"sacct",     "-a",      "-D",  "-X",    "-n",
	"-P",        arg_delim, "-s",  "PR,RQ", "-S",
	"now-1days", "-E",      "now", "-o",    sq_cli_sacct_events_fmt,
	NULL
};
/* the controller log's preemption lines: grep streams the whole file,
 * however long, and passes on only those (memory bounds the output, not
 * a line count) */
static const char *const events_log_argv[] = {
	"/bin/grep", "-F", "-e", "preempted JobId=", "--", arg_ctld_log, NULL
};
/* runs and steps of the window in one sacct (one slurmdbd query) */
static const char *const history_argv[] = {
	"sacct", "-a",           "-D", "-n",  "-P", arg_delim,
	"-S",    arg_hist_start, "-E", "now", "-o", sq_cli_sacct_history_fmt,
	NULL
};
/* node events of the window; Reason last: a '|' in it stays in it */
static const char *const node_events_argv[] = { "sacctmgr",
						"-n",
						"-P",
						"show",
						"event",
						"event=node",
						arg_event_start,
						"end=now",
						sq_cli_node_event_fmt,
						NULL };

/* one command of a step list: argv and its parser; a kind read by that
 * one command alone, named src */
#define STEP(a, p)                                                             \
	{                                                                      \
		.argv = (a), .parse = (p)                                      \
	}
#define ONE(src, a, p)                                                         \
	{                                                                      \
		.source = (src), .steps = { STEP(a, p) }                       \
	}

/* Every kind the CLI reads, by kind: one command and one parser for
 * most, several for the few one question answers by several (HACKING.md
 * says why each stays one fetch), the kind's own read for the rest. */

static const struct cli_read reads[SQ_KIND_COUNT] = {
	/* the queue, partitions and priorities (the nodes: fetch.c, from
	 * scontrol show partition and node, or sinfo -N) */
	[SQ_KIND_JOBS] = { .source = "squeue -O",
			   .steps = { { .argv = jobs_argv,
					.lines = &sq_squeue_lines } } },
	[SQ_KIND_NODES] = { .read = sq_cli_fetch_nodes },
	[SQ_KIND_PARTITIONS] =
	    ONE("scontrol -o show partition", partitions_argv,
		sq_parse_scontrol_partitions),
	[SQ_KIND_PRIO] = { .source = "sprio -o",
			   .steps = { STEP(prio_argv, sq_parse_sprio) },
			   .finish = prio_finish },
	[SQ_KIND_WHATIF] = ONE("sprio -n -o", whatif_argv, sq_parse_sprio_norm),
	[SQ_KIND_PRIO_WEIGHTS] =
	    ONE("sprio -w", weights_argv, sq_parse_sprio_weights),
	/* the accounting kinds whole, by one sacctmgr (sshare) */
	[SQ_KIND_ASSOCS] = ONE("sacctmgr show assoc tree", assoc_argv,
			       sq_parse_sacctmgr_assoc),
	[SQ_KIND_ACCOUNTS] = ONE("sacctmgr show account", account_argv,
				 sq_parse_sacctmgr_account),
	[SQ_KIND_USERS] =
	    ONE("sacctmgr show user", user_argv, sq_parse_sacctmgr_user),
	[SQ_KIND_QOS] =
	    ONE("sacctmgr show qos", qos_argv, sq_parse_sacctmgr_qos),
	[SQ_KIND_SHARES] = ONE("sshare -a -o", sshare_argv, sq_parse_sshare),
	/* the listings, by one scontrol (sacctmgr show problem) */
	[SQ_KIND_LIMITS] =
	    ONE("scontrol show assoc_mgr", assoc_mgr_argv, sq_parse_assoc_mgr),
	[SQ_KIND_RESERVATIONS] = ONE("scontrol -o show reservation", resv_argv,
				     sq_parse_reservations),
	[SQ_KIND_PROBLEMS] =
	    ONE("sacctmgr show problem", problem_argv, sq_parse_problems),
	[SQ_KIND_LICENSES] =
	    ONE("scontrol -o show licenses", licenses_argv, sq_parse_licenses),
	[SQ_KIND_CONFIG] =
	    ONE("scontrol show config", config_argv, sq_parse_config),
	/* the GPUs by index on each node, the running jobs holding them
	 * (TRES by index) and the pending jobs' demand */
	[SQ_KIND_GPUS] = { .source =
			       "scontrol -d show node + squeue tres-alloc",
			   .steps = { STEP(gpu_nodes_argv, sq_parse_gpu_nodes),
				      STEP(gpu_jobs_argv, sq_parse_gpu_jobs),
				      { .argv = gpu_pend_argv,
					.parse = sq_parse_gpu_pending,
					.note = gpus_pending_note } },
			   .finish = gpus_finish },
	/* the running GPU jobs' squeue, then one sstat of all of them
	 * (fetch_gpuuse.c: its argv holds their ids) */
	[SQ_KIND_GPUUSE] = { .read = sq_cli_fetch_gpuuse },
	/* sdiag, then the controllers (rows of section "controller") */
	[SQ_KIND_DIAG] = { .source = "sdiag, scontrol ping",
			   .steps = { STEP(sdiag_argv, sq_parse_sdiag),
				      { .argv = ping_argv,
					.parse = sq_parse_scontrol_ping,
					.note = diag_ping_note } } },
	/* slurmdbd's statistics, or a row saying why not */
	[SQ_KIND_DBD] = { .source = "sacctmgr show stats",
			  .steps = { { .argv = dbd_argv,
				       .parse = sq_parse_dbd_stats,
				       .note = dbd_note } } },
	/* sacct's preempted and requeued runs, then the controller log's
	 * preemption lines (grep exits 1 where none), whose path comes
	 * from `scontrol show config` (the CONFIG row, read for one value
	 * that make_ctld_log checks before it reaches grep's argv) */
	[SQ_KIND_EVENTS] = { .source = "sacct -s PR,RQ",
			     .steps = { STEP(events_argv,
					     sq_parse_sacct_events),
					{ .argv = events_log_argv,
					  .parse = sq_parse_events_log,
					  .merge = events_log_merge,
					  .ok_status = 1,
					  .source =
					      "sacct -s PR,RQ + slurmctld log",
					  .note = events_log_note } },
			     .finish = events_finish },
	[SQ_KIND_HISTORY] = { .source = "sacct -D (history)",
			      .steps = { STEP(history_argv,
					      sq_parse_sacct_history) },
			      .finish = history_finish },
	[SQ_KIND_NODE_EVENTS] =
	    ONE("sacctmgr show event", node_events_argv, sq_parse_node_events),
	/* sacctmgr show runawayjobs answered N on its stdin
	 * (fetch_runaway.c) */
	[SQ_KIND_RUNAWAY] = { .read = sq_cli_fetch_runaway },
};

#undef ONE
#undef STEP

/* One step of a fetch: its argv made, run, parsed into s (or apart,
 * then merged). 0 read, 1 absent, -1 failed (err says why). */
static int
run_step(struct cli_fetch *f, const struct cli_step *st, struct sq_snapshot *s,
	 struct sq_err *err)
{
	struct sq_snapshot *part = s;
	int rc = make_argv(f, st->argv, err);

	if (rc != 0)
		return rc;
	if (st->merge != NULL && (part = sq_snapshot_new(s->kind, 0)) == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	if (st->lines != NULL)
		rc = sq_cli_run_lines(f->cli, f->argv, st->lines, NULL, part,
				      err);
	else
		rc = run_into(f->cli, f->argv, st->parse, st->ok_status, part,
			      err);
	if (rc == 0 && st->merge != NULL && st->merge(s, part) == -1)
		rc = sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	if (part != s)
		sq_snapshot_unref(part);
	if (rc == 0 && st->source != NULL)
		s->source = st->source;
	return rc;
}

/* A kind of reads[]: its commands into one snapshot, in order, the
 * finish, then what the rows say of the optional ones. */
static int
fetch_read(struct sq_cli *cli, enum sq_kind kind, struct sq_snapshot **out,
	   struct sq_err *err)
{
	const struct cli_read *c = &reads[kind];
	struct cli_fetch f;
	struct sq_snapshot *s;
	struct sq_err why[CLI_STEPS];
	int rc[CLI_STEPS];
	double t0 = sq_util_now_ms();
	size_t i, n;

	if (c->read != NULL)
		return c->read(cli, out, err);
	s = sq_snapshot_new(kind, 0);
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	memset(&f, 0, sizeof(f));
	f.cli = cli;
	s->source = c->source;
	for (n = 0; n < CLI_STEPS && c->steps[n].argv != NULL; n++) {
		const struct cli_step *st = &c->steps[n];

		sq_err_clear(&why[n]);
		rc[n] = run_step(&f, st, s, st->note != NULL ? &why[n] : err);
		if (rc[n] != 0 && st->note == NULL)
			goto fail;
	}
	s->fetch_ms = sq_util_now_ms() - t0;
	if (c->finish != NULL && c->finish(&f, &s) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < n; i++) {
		if (c->steps[i].note != NULL)
			c->steps[i].note(s, rc[i] != 0 ? why[i].msg : NULL,
					 rc[i] == 1);
	}
	*out = s;
	return 0;
fail:
	sq_snapshot_unref(s);
	return -1;
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

int
sq_cli_fetch_read(struct sq_cli *cli, enum sq_kind kind,
		  struct sq_snapshot **out, struct sq_err *err)
{
	*out = NULL;
	if ((unsigned)kind < SQ_KIND_COUNT &&
	    (reads[kind].source != NULL || reads[kind].read != NULL))
		return fetch_read(cli, kind, out, err);
	return sq_err_set(err, SQ_ERR_UNSUPPORTED,
			  "the %s view is not available through the "
			  "CLI backends yet",
			  sq_kind_name(kind));
}
