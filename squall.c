/*
 * squall.c - entry point: command-line options, then batch mode
 * (--once) or the console. Keeps no state of its own beyond the options.
 */
#include <getopt.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "backends/backend.h"
#include "batch/batch.h"
#include "batch/output.h"
#include "session/exec.h"
#include "session/glance.h"
#include "core/conf/cluster.h"
#include "core/conf/conf.h"
#include "core/analysis/completing.h"
#include "core/analysis/rpc_share.h"
#include "core/analysis/gpuuse.h"
#include "core/analysis/node_flap.h"
#include "core/analysis/history.h"
#include "core/analysis/whatif.h"
#include "tui/tui.h"

enum {
	OPT_TOKEN_FILE = 256,
	OPT_READONLY,
	OPT_ONCE,
	OPT_EXEC,
	OPT_YES,
	OPT_VIEW,
	OPT_FORMAT,
	OPT_COLUMNS,
	OPT_SORT,
	OPT_FILTER,
	OPT_JOB,
	OPT_OUTPUT,
	OPT_FOLLOW,
	OPT_ACCEPT_NEW,
	OPT_INSECURE_HTTP,
	OPT_CA_FILE,
	OPT_SPEC,
	OPT_RECORD,
	OPT_REPLAY,
	OPT_SLURM_BINDIR,
	OPT_TIMEOUT,
	OPT_IDENTITY,
	OPT_KNOWN_HOSTS,
	OPT_SSH_CONFIG,
	OPT_SINCE,
	OPT_WEIGHTS,
	OPT_NODE,
};

static const struct option longopts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "host", required_argument, NULL, 'H' },
	{ "port", required_argument, NULL, 'p' },
	{ "user", required_argument, NULL, 'l' },
	{ "url", required_argument, NULL, 'u' },
	{ "token-file", required_argument, NULL, OPT_TOKEN_FILE },
	{ "cluster", required_argument, NULL, 'c' },
	{ "readonly", no_argument, NULL, OPT_READONLY },
	{ "refresh", required_argument, NULL, 'r' },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "exec", required_argument, NULL, OPT_EXEC },
	{ "yes", no_argument, NULL, OPT_YES },
	{ "view", required_argument, NULL, OPT_VIEW },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "columns", required_argument, NULL, OPT_COLUMNS },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "node", required_argument, NULL, OPT_NODE },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{ "accept-new-host-key", no_argument, NULL, OPT_ACCEPT_NEW },
	{ "insecure-http", no_argument, NULL, OPT_INSECURE_HTTP },
	{ "ca-file", required_argument, NULL, OPT_CA_FILE },
	{ "spec", required_argument, NULL, OPT_SPEC },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "slurm-bindir", required_argument, NULL, OPT_SLURM_BINDIR },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "identity", required_argument, NULL, OPT_IDENTITY },
	{ "known-hosts", required_argument, NULL, OPT_KNOWN_HOSTS },
	{ "ssh-config", required_argument, NULL, OPT_SSH_CONFIG },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "weights", required_argument, NULL, OPT_WEIGHTS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void
usage(FILE *fp)
{
	fprintf(fp,
		"usage: squall [options]\n"
		"       squall --once --view VIEW [--format table|tsv|json] "
		"[--columns LIST]\n"
		"                     [--sort [-]COLUMN|none] "
		"[--filter PATTERN]\n"
		"\n"
		"A terminal console for Slurm clusters.\n"
		"\n"
		"Connection:\n"
		"  -b, --backend NAME     local, ssh or rest (built in: %s)\n"
		"  -H, --host HOST        ssh: login node\n"
		"  -p, --port PORT        ssh: port\n"
		"  -l, --user USER        ssh/rest: user name\n"
		"  -u, --url URL          rest: http(s)://host:port or "
		"unix:/path\n"
		"      --token-file FILE  rest: JWT file (mode 0600)\n"
		"  -c, --cluster NAME     a cluster from the config file\n"
		"      --slurm-bindir DIR where the Slurm commands are\n"
		"      --timeout SEC      per command or request [30]\n"
		"      --accept-new-host-key  ssh: trust an unknown host key "
		"(batch)\n"
		"      --identity FILE    ssh: also try this private key\n"
		"      --known-hosts FILE ssh: known_hosts file instead of "
		"~/.ssh/known_hosts\n"
		"      --ssh-config FILE  ssh: config file instead of "
		"~/.ssh/config\n"
		"      --insecure-http    rest: allow http:// off loopback\n"
		"      --ca-file FILE     rest: CA certificates (PEM) for "
		"https\n"
		"Behaviour:\n"
		"      --readonly         refuse every action\n"
		"  -r, --refresh SEC      queue refresh interval [10]\n"
		"      --spec FILE        cluster spec to compare with\n"
		"      --record DIR       keep every command's output in DIR\n"
		"      --replay DIR       show a recorded session, no cluster\n"
		"Batch mode:\n"
		"      --once             print one view and exit\n"
		"      --exec 'ACTION [TARGET...] [KEY=VALUE...]'\n"
		"                         run one action, e.g. 'cancel 123', "
		"'drain n2 reason=disk',\n"
		"                         'setlimit account=chem user=bob "
		"maxjobs=5'; shows the\n"
		"                         command, asks y/N, verifies, audits; "
		"exit 0 when every\n"
		"                         target was done and verified\n"
		"      --yes              --exec without asking (scripts)\n"
		"Views (the console opens with it; --once prints it):\n"
		"      --view VIEW        partitions, nodes, jobs, priority, "
		"accounts,\n"
		"                         users, assocs, qos, fairshare, "
		"events, history,\n"
		"                         history-users, history-accounts, "
		"history-nodes, gpus,\n"
		"                         gpus-partitions, gpus-users, "
		"gpus-accounts,\n"
		"                         limits, reservations, diag, "
		"config,\n"
		"                         spec, nodesets (need or use "
		"--spec),\n"
		"                         overview, clusters, licenses, "
		"node-events,\n"
		"                         rpc-types, rpc-users, runaway,\n"
		"                         problems\n"
		"      --format FMT       --once: table (default), tsv or "
		"json\n"
		"      --columns LIST     --once: comma-separated column ids "
		"(help: list\n"
		"                         the view's columns)\n"
		"      --sort [-]COLUMN   --once: order rows by a column "
		"(- descending;\n"
		"                         none: as fetched; default: the "
		"view's)\n"
		"      --filter PATTERN   only rows it matches, as the "
		"console's /:\n"
		"                         a regex, @column=value terms, "
		"! inverts\n"
		"      --since SPEC       history window: 30m, 2h, 7d, "
		"2026-11-01[THH:MM] [24h]\n"
		"      --job ID           --once: one job in detail and why it "
		"pends\n"
		"      --weights W        whatif view: KEY=VALUE priority "
		"weights as slurm.conf\n"
		"                         spells them, or 'spec' (--spec "
		"FILE's config map)\n"
		"      --node NAME        --once: the node's GPUs one by one "
		"(job, user, use)\n"
		"      --output WHAT      --job: print its stdout, stderr or "
		"script\n"
		"      --follow           --output: keep printing as it grows\n"
		"\n"
		"  -h, --help             this help\n"
		"  -V, --version          print the version\n"
		"\n"
		"Exit status: 0 success, 1 cluster or command failure, "
		"2 usage error.\n"
		"See squall(1).\n",
		sq_backend_names());
}

static int
copy_opt(char *dst, size_t n, const char *val, const char *what)
{
	if (strlen(val) >= n) {
		fprintf(stderr, "squall: %s is too long\n", what);
		return -1;
	}
	memcpy(dst, val, strlen(val) + 1);
	return 0;
}

static int
int_opt(const char *val, int lo, int hi, int *out, const char *what)
{
	char *end;
	long v = strtol(val, &end, 10);

	if (end == val || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "squall: %s must be a number from %d to %d\n",
			what, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/*
 * The console: --view opens it on that view (instead of the `view`
 * option's), --filter filters that view. A bad filter is a usage error
 * here, before the screen is taken.
 */
static int
tui_main(struct sq_conf *conf, const struct sq_cluster_cfg *cfg,
	 const char *view, const char *filter)
{
	const struct sq_view_def *v;

	if (view != NULL) {
		v = sq_view_find(view);
		snprintf(conf->str[SQ_OPT_VIEW], sizeof(conf->str[0]), "%s",
			 v->name);
	}
	v = sq_view_find(conf->str[SQ_OPT_VIEW]);
	if (v != NULL && sq_batch_filter_check(v, filter) == -1)
		return 2;
	return sq_tui_run(conf, cfg, filter);
}

/* What the command line asks for besides the connection (cfg). */
struct args {
	struct sq_cluster_cfg cfg;
	const char *view, *columns, *job, *sort, *filter, *output;
	const char *node; /* --node */
	const char *exec_line, *since, *weights;
	int follow, once, fmt, yes;
};

/* A connection option (-b, -H, -p ... --timeout) into cfg: 1 when c was
 * one; *bad set after saying what is wrong with its value. */
static int
conn_opt(struct sq_cluster_cfg *cfg, int c, const char *arg, int *bad)
{
	switch (c) {
	case 'b':
		*bad |= copy_opt(cfg->backend, sizeof(cfg->backend), arg,
				 "--backend");
		return 1;
	case 'H':
		*bad |= copy_opt(cfg->host, sizeof(cfg->host), arg, "--host");
		return 1;
	case 'p':
		*bad |= int_opt(arg, 1, 65535, &cfg->port, "--port");
		return 1;
	case 'l':
		*bad |= copy_opt(cfg->user, sizeof(cfg->user), arg, "--user");
		return 1;
	case 'u':
		*bad |= copy_opt(cfg->url, sizeof(cfg->url), arg, "--url");
		return 1;
	case OPT_TOKEN_FILE:
		*bad |= copy_opt(cfg->token_file, sizeof(cfg->token_file), arg,
				 "--token-file");
		return 1;
	case 'c':
		*bad |=
		    copy_opt(cfg->name, sizeof(cfg->name), arg, "--cluster");
		return 1;
	case OPT_READONLY:
		cfg->readonly = 1;
		return 1;
	case 'r':
		*bad |= int_opt(arg, 1, 86400, &cfg->refresh, "--refresh");
		return 1;
	case OPT_ACCEPT_NEW:
		cfg->accept_new_host_key = 1;
		return 1;
	case OPT_INSECURE_HTTP:
		cfg->insecure_http = 1;
		return 1;
	case OPT_CA_FILE:
		*bad |= copy_opt(cfg->ca_file, sizeof(cfg->ca_file), arg,
				 "--ca-file");
		return 1;
	case OPT_RECORD:
		*bad |= copy_opt(cfg->record_dir, sizeof(cfg->record_dir), arg,
				 "--record");
		return 1;
	case OPT_REPLAY:
		*bad |= copy_opt(cfg->replay_dir, sizeof(cfg->replay_dir), arg,
				 "--replay");
		*bad |= copy_opt(cfg->backend, sizeof(cfg->backend), "replay",
				 "--replay");
		return 1;
	case OPT_SPEC:
		*bad |= copy_opt(cfg->spec, sizeof(cfg->spec), arg, "--spec");
		return 1;
	case OPT_SLURM_BINDIR:
		*bad |= copy_opt(cfg->slurm_bindir, sizeof(cfg->slurm_bindir),
				 arg, "--slurm-bindir");
		return 1;
	case OPT_IDENTITY:
		*bad |= copy_opt(cfg->identity, sizeof(cfg->identity), arg,
				 "--identity");
		return 1;
	case OPT_KNOWN_HOSTS:
		*bad |= copy_opt(cfg->known_hosts, sizeof(cfg->known_hosts),
				 arg, "--known-hosts");
		return 1;
	case OPT_SSH_CONFIG:
		*bad |= copy_opt(cfg->ssh_config, sizeof(cfg->ssh_config), arg,
				 "--ssh-config");
		return 1;
	case OPT_TIMEOUT:
		*bad |= int_opt(arg, 1, 3600, &cfg->timeout, "--timeout");
		return 1;
	default:
		return 0;
	}
}

/* --since and --weights, checked now (a "spec" weight once --spec is
 * known). */
static void
window_opts(struct args *a, int c, const char *arg, int *bad)
{
	struct sq_err err;

	if (c == OPT_SINCE) {
		struct sq_hist_window hw;

		if (sq_history_window_parse(arg, &hw, &err) == -1) {
			fprintf(stderr, "squall: --since: %s\n", err.msg);
			*bad = 1;
		}
		a->since = arg;
	} else {
		struct sq_whatif_weights ww;

		if (strcmp(arg, "spec") != 0 &&
		    sq_whatif_parse(arg, &ww, &err) == -1) {
			fprintf(stderr, "squall: --weights: %s\n", err.msg);
			*bad = 1;
		}
		a->weights = arg;
	}
}

/* A mode or output option (--once, --exec, --view ...): 1 when c was
 * one; *bad set after saying what is wrong with its value. */
static int
mode_opt(struct args *a, int c, const char *arg, int *bad)
{
	switch (c) {
	case OPT_ONCE:
		a->once = 1;
		return 1;
	case OPT_EXEC:
		a->exec_line = arg;
		return 1;
	case OPT_YES:
		a->yes = 1;
		return 1;
	case OPT_VIEW:
		a->view = arg;
		return 1;
	case OPT_FORMAT:
		a->fmt = sq_format_from_name(arg);
		if (a->fmt < 0) {
			fprintf(stderr, "squall: --format must be table, tsv "
					"or json\n");
			*bad = 1;
		}
		return 1;
	case OPT_COLUMNS:
		a->columns = arg;
		return 1;
	case OPT_SORT:
		a->sort = arg;
		return 1;
	case OPT_FILTER:
		a->filter = arg;
		return 1;
	case OPT_JOB:
		a->job = arg;
		return 1;
	case OPT_NODE:
		a->node = arg;
		return 1;
	case OPT_OUTPUT:
		a->output = arg;
		return 1;
	case OPT_FOLLOW:
		a->follow = 1;
		return 1;
	case OPT_SINCE:
	case OPT_WEIGHTS:
		window_opts(a, c, arg, bad);
		return 1;
	default:
		return 0;
	}
}

/* The command line into a: -1 to go on, else the exit status (0 after
 * --help or --version, 2 on a usage error). */
static int
parse_args(int argc, char **argv, struct args *a)
{
	int c, bad = 0;

	while ((c = getopt_long(argc, argv, "b:H:p:l:u:c:r:hV", longopts,
				NULL)) != -1) {
		if (conn_opt(&a->cfg, c, optarg, &bad) ||
		    mode_opt(a, c, optarg, &bad))
			continue;
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'V') {
			printf("squall %s\n", SQ_VERSION);
			return 0;
		}
		bad = 1;
	}
	if (optind < argc) {
		fprintf(stderr, "squall: unexpected argument '%s'\n",
			argv[optind]);
		bad = 1;
	}
	if (!bad && a->view != NULL && sq_view_find(a->view) == NULL) {
		fprintf(stderr, "squall: unknown view '%s'\n", a->view);
		bad = 1;
	}
	if (bad) {
		fprintf(stderr, "Try 'squall --help'.\n");
		return 2;
	}
	return -1;
}

/* The config files: `set` options and the cluster of -c NAME, resolved
 * into a->cfg with the history window and the weights. 0, or 2. */
static int
load_conf(struct sq_conf *conf, struct args *a, const char *argv0)
{
	struct sq_cluster_cfg resolved;
	struct sq_hist_window hw;
	struct sq_err err;
	char buf[64];
	size_t i;

	sq_conf_init(conf);
	sq_tui_conf_setup(conf, argv0);
	sq_conf_load_default(conf, SQ_SYSCONFDIR);
	if (sq_conf_resolve_cluster(conf, &a->cfg, &resolved, &err) == -1) {
		fprintf(stderr, "squall: %s\n", err.msg);
		return 2;
	}
	a->cfg = resolved;
	sq_clusters_configure(conf, &a->cfg); /* the clusters view's list */
	/* the history window: --since, else `set history-since` */
	if (sq_history_window_parse(
		a->since
		    ? a->since
		    : sq_conf_get(conf, SQ_OPT_HISTORY_SINCE, buf, sizeof(buf)),
		&hw, &err) == 0)
		snprintf(a->cfg.history_since, sizeof(a->cfg.history_since),
			 "%s", hw.spec);
	/* gpus-idle's judgement (core/analysis/gpuuse.h) */
	sq_gpuuse_cfg_set((int)conf->num[SQ_OPT_GPU_IDLE_BELOW],
			  (int)conf->num[SQ_OPT_GPU_IDLE_AFTER]);
	/* the overview's and nodes view's stuck COMPLETING jobs */
	sq_completing_stuck_set((int)conf->num[SQ_OPT_COMPLETING_STUCK]);
	/* the overview's flag of one user loading slurmctld */
	sq_rpc_user_share_set((int)conf->num[SQ_OPT_RPC_USER_SHARE]);
	/* the nodes view's flapping mark (core/analysis/node_flap.h) */
	sq_flap_cfg_set((int)conf->num[SQ_OPT_FLAP_EVENTS],
			(int)conf->num[SQ_OPT_FLAP_HOURS]);
	if (a->weights != NULL &&
	    copy_opt(a->cfg.weights, sizeof(a->cfg.weights), a->weights,
		     "--weights") != 0)
		return 2;
	if (a->once || a->exec_line != NULL) {
		for (i = 0; i < conf->nmsgs; i++)
			fprintf(stderr, "squall: %s\n", conf->msgs[i].text);
	}
	return 0;
}

/* Batch mode (--once, --job, --output), --exec, or the console. */
static int
run(struct sq_conf *conf, const struct args *a)
{
	if ((a->output != NULL || a->follow) && (!a->once || a->job == NULL)) {
		fprintf(stderr, "squall: --output and --follow go with --once "
				"--job ID\n");
		return 2;
	}
	if (a->output != NULL && sq_batch_output_check(a->output) == -1)
		return 2;
	if (a->once && a->job != NULL && a->output != NULL)
		return sq_batch_output(&a->cfg, a->job, a->output, a->follow);
	if (a->once && a->job != NULL) {
		if (a->view != NULL && sq_view_find(a->view) != &sq_view_jobs) {
			fprintf(stderr,
				"squall: --job works with the jobs view\n");
			return 2;
		}
		return sq_batch_job(&a->cfg, a->job, (enum sq_format)a->fmt);
	}
	if (a->once && a->node != NULL)
		return sq_batch_node(&a->cfg, a->node, (enum sq_format)a->fmt);
	if (a->exec_line != NULL)
		return sq_exec_main(&a->cfg, &conf->reasons, a->exec_line,
				    a->yes);
	if (a->once)
		return sq_batch_run(&a->cfg, a->view ? a->view : "jobs",
				    (enum sq_format)a->fmt, a->columns, a->sort,
				    a->filter);
	return tui_main(conf, &a->cfg, a->view, a->filter);
}

int
main(int argc, char **argv)
{
	static struct sq_conf conf;
	static struct args a;
	int rc;

#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	/*
	 * A fixed mmap threshold: the big transient buffers of a refresh
	 * (command output, sort keys) are mapped and go back to the system
	 * when freed. glibc's default raises the threshold after the first
	 * such free and keeps them on the heap: 70 bytes a job at 100,000.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
	sq_cluster_defaults(&a.cfg);
	a.fmt = SQ_FMT_TABLE;
	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	rc = load_conf(&conf, &a, argv[0]);
	if (rc != 0)
		return rc;
	return run(&conf, &a);
}
