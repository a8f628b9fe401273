/*
 * fuzz_cli.c - libFuzzer harness for the Slurm CLI text parsers
 * (backends/cli/parse_*.c) and what runs on their rows right after a
 * fetch: joins, ranks, why-pending, events, GPU totals, and every column
 * of every view. SQ_FUZZ_NAME (set by tests/fuzz/run) picks the parser.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/analysis/ctld_track.h"
#include "core/analysis/diag_trend.h"
#include "core/analysis/events.h"
#include "core/analysis/gpus.h"
#include "core/analysis/gpumap.h"
#include "core/analysis/gpuuse.h"
#include "core/analysis/history.h"
#include "core/model/join.h"
#include "core/analysis/rpc.h"
#include "core/analysis/whatif.h"
#include "core/analysis/why.h"
#include "tests/fuzz/fuzz.h"

#ifndef SQ_FUZZ_NAME
#error "build with -DSQ_FUZZ_NAME=\"squeue\" (see tests/fuzz/run)"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reference snapshots from the recorded fixtures. */
static struct sq_snapshot *ref_jobs, *ref_prio, *ref_limits, *ref_assocs;
static char *ref_parts_text, *ref_sacct_text;

static void
post_jobs(struct sq_snapshot *s)
{
	struct sq_snapshot *ev;
	size_t i;

	sq_jobs_join_prio(s, ref_prio);
	for (i = 0; i < s->nrows; i++) {
		struct sq_why w;
		char buf[2048];

		sq_why_compute(sq_snapshot_row(s, i), s, ref_limits, ref_assocs,
			       &w);
		sq_why_format(&w, buf, sizeof(buf));
		sq_fuzz_check_display(buf);
	}
	ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	SQ_FUZZ_CHECK(ev != NULL);
	SQ_FUZZ_CHECK(sq_events_from_restarts(ev, ref_jobs, s) >= 0);
	SQ_FUZZ_CHECK(sq_events_from_restarts(ev, NULL, s) >= 0);
	sq_events_finish(ev, s);
	sq_fuzz_render(ev);
	sq_snapshot_unref(ev);
}

static void
post_nodes(struct sq_snapshot *s)
{
	struct sq_snapshot *parts = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	char *text = strdup(ref_parts_text);
	struct sq_err err;

	SQ_FUZZ_CHECK(parts != NULL && text != NULL);
	SQ_FUZZ_CHECK(sq_parse_scontrol_partitions(text, parts, &err) == 0);
	sq_partitions_count(parts, s);
	sq_fuzz_render(parts);
	sq_snapshot_unref(parts);
	free(text);
}

static void
post_parts(struct sq_snapshot *s)
{
	struct sq_snapshot *nodes = sq_snapshot_new(SQ_KIND_NODES, 0);
	char *text = sq_fuzz_fixture("cli/22.05/sinfo_nodes.txt", NULL);
	struct sq_err err;

	SQ_FUZZ_CHECK(nodes != NULL);
	SQ_FUZZ_CHECK(sq_parse_sinfo_nodes(text, nodes, &err) == 0);
	sq_partitions_count(s, nodes);
	sq_snapshot_unref(nodes);
	free(text);
}

/* sdiag's RPC sections as the rpc views' rows: read twice into one
 * history (a rate), each built and rendered; the shares stay in 0..100;
 * then the diag view's rows with what changed first */
static void
post_rpc(struct sq_snapshot *s)
{
	struct sq_rpc_hist *h = sq_rpc_hist_new();
	struct sq_diag_hist *dh;
	struct sq_err err;
	int i;

	SQ_FUZZ_CHECK(h != NULL);
	for (i = 0; i < 2; i++) {
		struct sq_snapshot *r = NULL;
		size_t k;

		SQ_FUZZ_CHECK(sq_rpc_build(s, h, "root", &r, &err) == 0);
		for (k = 0; k < r->nrows; k++) {
			const struct sq_rpc *row = sq_snapshot_row(r, k);

			SQ_FUZZ_CHECK(row->count >= 0);
			SQ_FUZZ_CHECK(
			    !(row->share < 0 || row->share > 100.0001));
			SQ_FUZZ_CHECK(row->nrates >= 0 &&
				      row->nrates < SQ_RPC_KEEP);
		}
		sq_fuzz_render(r);
		sq_snapshot_unref(r);
	}
	SQ_FUZZ_CHECK(sq_rpc_hist_len(h) == 1);
	sq_rpc_hist_free(h);
	/* and the diag view's changed rows, twice into one history */
	dh = sq_diag_hist_new();
	SQ_FUZZ_CHECK(dh != NULL);
	for (i = 0; i < 2; i++) {
		struct sq_snapshot *d = NULL;

		SQ_FUZZ_CHECK(sq_diag_trend(s, dh, &d, &err) == 0);
		SQ_FUZZ_CHECK(d->nrows >= s->nrows);
		sq_fuzz_render(d);
		sq_snapshot_unref(d);
	}
	sq_diag_hist_free(dh);
}

static void
post_prio(struct sq_snapshot *s)
{
	struct sq_snapshot *jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	char *text = sq_fuzz_fixture("cli/22.05/squeue.txt", NULL);
	struct sq_err err;
	size_t i;

	sq_prio_rank(s);
	SQ_FUZZ_CHECK(jobs != NULL);
	SQ_FUZZ_CHECK(sq_parse_squeue(text, jobs, &err) == 0);
	sq_jobs_join_prio(jobs, s);
	for (i = 0; i < jobs->nrows; i++) {
		struct sq_why w;
		char buf[2048];

		sq_why_compute(sq_snapshot_row(jobs, i), jobs, ref_limits,
			       ref_assocs, &w);
		sq_why_format(&w, buf, sizeof(buf));
		sq_fuzz_check_display(buf);
	}
	sq_fuzz_render(jobs);
	sq_snapshot_unref(jobs);
	free(text);
}

/* limits or assocs from the input, the rest from the fixtures */
static void
why_all(const struct sq_snapshot *limits, const struct sq_snapshot *assocs)
{
	size_t i;

	for (i = 0; i < ref_jobs->nrows; i++) {
		struct sq_why w;
		char buf[2048];

		sq_why_compute(sq_snapshot_row(ref_jobs, i), ref_jobs, limits,
			       assocs, &w);
		sq_why_format(&w, buf, sizeof(buf));
		sq_fuzz_check_display(buf);
	}
}

static void
post_limits(struct sq_snapshot *s)
{
	why_all(s, ref_assocs);
}

static void
post_assocs(struct sq_snapshot *s)
{
	why_all(ref_limits, s);
}

static void
post_events(struct sq_snapshot *s)
{
	sq_events_finish(s, ref_jobs);
}

/* log lines merged into the recorded accounting events */
static void
post_log(struct sq_snapshot *s)
{
	struct sq_snapshot *ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	char *text = strdup(ref_sacct_text);
	struct sq_err err;

	SQ_FUZZ_CHECK(ev != NULL && text != NULL);
	SQ_FUZZ_CHECK(sq_parse_sacct_events(text, ev, &err) == 0);
	SQ_FUZZ_CHECK(sq_events_merge(ev, s) == 0);
	sq_events_finish(ev, ref_jobs);
	sq_fuzz_render(ev);
	sq_snapshot_unref(ev);
	free(text);
}

static int
parse_version(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char v[32];
	int major = 0, minor = 0;

	(void)s;
	(void)err;
	if (sq_parse_version(text, v, sizeof(v), &major, &minor) == 0)
		SQ_FUZZ_CHECK(strlen(v) < sizeof(v));
	return 0;
}

/* scontrol -d -o show node, a NUL byte, then squeue -O gpujobs */
static int
parse_gpus(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *jobs = text + strlen(text);

	/* the input holds a NUL byte between the two outputs; text is a
	 * copy with one more NUL at the end, so jobs is always a string */
	jobs++;
	if (sq_parse_gpu_nodes(text, s, err) == -1)
		return -1;
	if (sq_parse_gpu_jobs(jobs, s, err) == -1)
		return -1;
	SQ_FUZZ_CHECK(sq_gpus_finish(s, "not collected") == 0);
	return 0;
}

/* scontrol -d -o show node, a NUL byte, then scontrol -o show partition
 * (parse_scnode.c): every row sinfo -N would show, in a shown partition,
 * its state a word, its figures not made up */
static int
parse_scnodes(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	struct sq_snapshot *parts = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	char *ptext = text + strlen(text) + 1;
	size_t i;
	int rc = -1;

	SQ_FUZZ_CHECK(parts != NULL);
	if (sq_parse_scontrol_partitions(ptext, parts, err) == -1)
		goto done;
	if (sq_parse_scontrol_nodes(text, parts, 1, s, err) == -1)
		goto done;
	for (i = 0; i < s->nrows; i++) {
		const struct sq_node *n = sq_snapshot_row(s, i);

		SQ_FUZZ_CHECK(n->name != NULL && n->name[0] != '\0');
		SQ_FUZZ_CHECK(n->partitions != NULL &&
			      n->partitions[0] != '\0');
		SQ_FUZZ_CHECK(n->state != NULL && n->state[0] != '\0');
		SQ_FUZZ_CHECK(n->reason != NULL && n->gres != NULL &&
			      n->gres_used != NULL);
		SQ_FUZZ_CHECK(n->gpus_total >= 0 && n->gpus_alloc >= 0);
	}
	sq_partitions_count(parts, s);
	sq_fuzz_render(parts);
	rc = 0;
done:
	sq_snapshot_unref(parts);
	return rc;
}

/* The node map over fuzzed GRES: the rows' jobs on n3 holding what the
 * text says (as GresUsed and as each job's per-node GRES). */
static void
fuzz_gpumap(const struct sq_snapshot *s, const char *text)
{
	static struct sq_gpumap_gpu g[SQ_GPUMAP_MAX];
	struct sq_gpumap_job j[8];
	char gres[8][300];
	size_t i, n = s->nrows < 8 ? s->nrows : 8;
	int k, m;

	for (i = 0; i < n; i++) {
		const struct sq_gpuuse *u = sq_snapshot_row(s, i);

		snprintf(gres[i], sizeof(gres[i]), "n3 %.200s; n4 gpu:1(IDX:0)",
			 text);
		j[i].id = u->id;
		j[i].user = u->user;
		j[i].gres = i % 2 ? gres[i] : NULL;
		j[i].why = "not read";
	}
	m = sq_gpumap_build("n3", "gpu:a100:4,gpu:t4:2", text, j, n, s, g,
			    SQ_GPUMAP_MAX);
	SQ_FUZZ_CHECK(m >= 0 && m <= SQ_GPUMAP_MAX);
	for (k = 0; k < m; k++) {
		SQ_FUZZ_CHECK(g[k].index == k && g[k].note != NULL);
		SQ_FUZZ_CHECK(g[k].util == SQ_NONE ||
			      (g[k].util >= 0 && g[k].util <= 100));
	}
}

/* scontrol -d -o show node, a NUL byte, then squeue -r -t PD -O
 * <sq_cli_gpupend_fmt>: the demand is never negative */
static int
parse_gpu_pending(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pend = text + strlen(text) + 1;
	size_t i;

	s->fetched = 1800000000;
	if (sq_parse_gpu_nodes(text, s, err) == -1)
		return -1;
	if (sq_parse_gpu_pending(pend, s, err) == -1)
		return -1;
	SQ_FUZZ_CHECK(sq_gpus_finish(s, "") == 0);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_gpu *g = sq_snapshot_row(s, i);

		SQ_FUZZ_CHECK(g->pend_gpus >= 0 && g->pend_jobs >= 0);
		SQ_FUZZ_CHECK(g->pend_wait == SQ_NONE || g->pend_wait >= 0);
	}
	return 0;
}

/* squeue -O <sq_cli_gpuuse_fmt>, a NUL byte, then the batched sstat; its
 * lines that start "sstat: " are its stderr (the refused jobs) */
static int
parse_gpuuse(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *sstat = text + strlen(text) + 1;
	size_t n = strlen(sstat);
	char *out = calloc(1, n + 2), *ebuf = calloc(1, n + 2), *line, *sv;
	size_t oo = 0, eo = 0;
	struct sq_gpuuse_cfg cfg = { 5, 0 };
	int rc = -1;

	SQ_FUZZ_CHECK(out != NULL && ebuf != NULL);
	for (line = strtok_r(sstat, "\n", &sv); line != NULL;
	     line = strtok_r(NULL, "\n", &sv)) {
		int e = strncmp(line, "sstat: ", 7) == 0;
		size_t l = strlen(line), *at = e ? &eo : &oo;
		char *to = e ? ebuf : out;

		memcpy(to + *at, line, l);
		to[*at + l] = '\n';
		*at += l + 1;
	}
	if (sq_parse_gpuuse_jobs(text, s, err) == -1 ||
	    sq_parse_gpuuse_sstat(out, s, err) == -1)
		goto done;
	sq_gpuuse_finish(s, NULL, 1800000000, cfg, NULL);
	SQ_FUZZ_CHECK(sq_parse_gpuuse_sstat_err(ebuf, s, "refused") >= 0);
	fuzz_gpumap(s, ebuf);
	fuzz_gpumap(s, text);
	rc = 0;
done:
	free(out);
	free(ebuf);
	return rc;
}

/* the rows' figures in range; joined into GPU rows */
static void
post_gpuuse(struct sq_snapshot *s)
{
	struct sq_snapshot *g = sq_snapshot_new(SQ_KIND_GPUS, 0);
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_gpuuse *u = sq_snapshot_row(s, i);

		SQ_FUZZ_CHECK(u->util == SQ_NONE ||
			      (u->util >= 0 && u->util <= 100));
		SQ_FUZZ_CHECK(u->util_max == SQ_NONE ||
			      (u->util_max >= 0 && u->util_max <= 100));
		SQ_FUZZ_CHECK(u->gpus > 0);
		SQ_FUZZ_CHECK(!u->idle || u->idle_min >= 0);
		SQ_FUZZ_CHECK(u->nsamples >= 1 &&
			      u->nsamples <= SQ_GPUUSE_SAMPLES);
	}
	SQ_FUZZ_CHECK(g != NULL);
	SQ_FUZZ_CHECK(sq_gpus_add_node(g, "n3", "gpu", "gpu:a100:4",
				       "gpu:a100:2(IDX:0-1)") == 0);
	SQ_FUZZ_CHECK(sq_gpus_finish(g, "none") == 0);
	sq_gpus_join_use(g, s);
	sq_fuzz_render(g);
	sq_snapshot_unref(g);
}

/* the what-if over fuzzed factors: today's recorded weights, then
 * fairshare 0 and a longer PriorityMaxAge (every row checked) */
static void
post_whatif(struct sq_snapshot *s)
{
	struct sq_whatif_weights old, given;
	struct sq_snapshot *d;
	struct sq_err err;
	size_t i;

	sq_whatif_weights_init(&old);
	old.w[SQ_WF_AGE] = 1000;
	old.w[SQ_WF_FAIRSHARE] = 10000;
	SQ_FUZZ_CHECK(sq_whatif_tres_parse("cpu=100,mem=10,gres/gpu=500",
					   old.tres, SQ_WHATIF_MAX_TRES,
					   &old.ntres) == 0);
	SQ_FUZZ_CHECK(sq_whatif_parse("", &given, &err) == 0);
	SQ_FUZZ_CHECK(sq_whatif_apply(s, &old, &given, "", 600, "", 10) == 0);
	SQ_FUZZ_CHECK(sq_whatif_parse("PriorityWeightFairshare=0 "
				      "PriorityMaxAge=20",
				      &given, &err) == 0);
	d = sq_whatif_derive(s, &given, "x", 3);
	SQ_FUZZ_CHECK(d != NULL);
	for (i = 0; i < d->nrows; i++) {
		const struct sq_whatif *r = sq_snapshot_row(d, i);

		SQ_FUZZ_CHECK(r->rank_new >= 1 && r->rank_new <= d->nrows);
		SQ_FUZZ_CHECK(r->priority_new >= 1);
	}
	sq_fuzz_render(d);
	sq_snapshot_unref(d);
}

struct target {
	const char *name;
	enum sq_kind kind;
	sq_fuzz_parse_fn parse;
	void (*post)(struct sq_snapshot *s);
};

/* which controller is in control, over two reads */
static void
post_ctld(struct sq_snapshot *s)
{
	struct sq_ctld_track t;

	memset(&t, 0, sizeof(t));
	(void)sq_ctld_track(s, &t, 1, NULL);
	(void)sq_ctld_track(s, &t, 2, NULL);
	(void)sq_ctld_in_control(s);
}

static const struct target targets[] = {
	{ "squeue", SQ_KIND_JOBS, sq_parse_squeue, post_jobs },
	{ "sinfo_nodes", SQ_KIND_NODES, sq_parse_sinfo_nodes, post_nodes },
	{ "scontrol_nodes", SQ_KIND_NODES, parse_scnodes, NULL },
	{ "sprio", SQ_KIND_PRIO, sq_parse_sprio, post_prio },
	{ "sprio_weights", SQ_KIND_PRIO_WEIGHTS, sq_parse_sprio_weights, NULL },
	{ "sprio_norm", SQ_KIND_WHATIF, sq_parse_sprio_norm, post_whatif },
	{ "scontrol_partitions", SQ_KIND_PARTITIONS,
	  sq_parse_scontrol_partitions, post_parts },
	{ "sacctmgr_assoc", SQ_KIND_ASSOCS, sq_parse_sacctmgr_assoc,
	  post_assocs },
	{ "sacctmgr_account", SQ_KIND_ACCOUNTS, sq_parse_sacctmgr_account,
	  NULL },
	{ "sacctmgr_user", SQ_KIND_USERS, sq_parse_sacctmgr_user, NULL },
	{ "sacctmgr_qos", SQ_KIND_QOS, sq_parse_sacctmgr_qos, NULL },
	{ "sshare", SQ_KIND_SHARES, sq_parse_sshare, NULL },
	{ "sacct_events", SQ_KIND_EVENTS, sq_parse_sacct_events, post_events },
	{ "events_log", SQ_KIND_EVENTS, sq_parse_events_log, post_log },
	{ "sdiag", SQ_KIND_DIAG, sq_parse_sdiag, NULL },
	{ "sdiag_rpc", SQ_KIND_DIAG, sq_parse_sdiag, post_rpc },
	{ "config", SQ_KIND_CONFIG, sq_parse_config, NULL },
	{ "reservations", SQ_KIND_RESERVATIONS, sq_parse_reservations, NULL },
	{ "licenses", SQ_KIND_LICENSES, sq_parse_licenses, NULL },
	{ "runaway", SQ_KIND_RUNAWAY, sq_parse_runaway, NULL },
	{ "dbd_stats", SQ_KIND_DBD, sq_parse_dbd_stats, NULL },
	{ "problems", SQ_KIND_PROBLEMS, sq_parse_problems, NULL },
	{ "assoc_mgr", SQ_KIND_LIMITS, sq_parse_assoc_mgr, post_limits },
	{ "gpus", SQ_KIND_GPUS, parse_gpus, NULL },
	{ "gpuuse", SQ_KIND_GPUUSE, parse_gpuuse, post_gpuuse },
	{ "gpu_pending", SQ_KIND_GPUS, parse_gpu_pending, NULL },
	{ "version", SQ_KIND_CONFIG, parse_version, NULL },
	{ "sacct_history", SQ_KIND_HISTORY, sq_parse_sacct_history,
	  sq_fuzz_history },
	{ "scontrol_ping", SQ_KIND_DIAG, sq_parse_scontrol_ping, post_ctld },
};

static const struct target *target;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (strcmp(targets[i].name, SQ_FUZZ_NAME) == 0)
			target = &targets[i];
	SQ_FUZZ_CHECK(target != NULL);
	ref_jobs = sq_fuzz_parse_fixture(SQ_KIND_JOBS, sq_parse_squeue,
					 "cli/22.05/squeue.txt");
	ref_prio = sq_fuzz_parse_fixture(SQ_KIND_PRIO, sq_parse_sprio,
					 "cli/22.05/sprio.txt");
	sq_prio_rank(ref_prio);
	sq_jobs_join_prio(ref_jobs, ref_prio);
	ref_limits = sq_fuzz_parse_fixture(SQ_KIND_LIMITS, sq_parse_assoc_mgr,
					   "cli/22.05/admin_assoc_mgr.txt");
	ref_assocs =
	    sq_fuzz_parse_fixture(SQ_KIND_ASSOCS, sq_parse_sacctmgr_assoc,
				  "cli/22.05/admin_sacctmgr_assoc.txt");
	ref_parts_text =
	    sq_fuzz_fixture("cli/22.05/scontrol_partition.txt", NULL);
	ref_sacct_text = sq_fuzz_fixture("cli/22.05/sacct_events.txt", NULL);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sq_snapshot *s = sq_snapshot_new(target->kind, 0);
	char *text = malloc(size + 2);
	struct sq_err err;

	SQ_FUZZ_CHECK(s != NULL && text != NULL);
	if (target->kind == SQ_KIND_HISTORY &&
	    sq_fuzz_range_names(data, size) > SQ_FUZZ_MAX_ROW_NAMES) {
		sq_snapshot_unref(s);
		free(text);
		return 0;
	}
	if (size > 0)
		memcpy(text, data, size);
	text[size] = text[size + 1] = '\0';
	sq_err_clear(&err);
	if (target->parse(text, s, &err) == 0) {
		if (target->post != NULL)
			target->post(s);
		sq_fuzz_render(s);
	} else {
		/* a failure always says why */
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
	}
	sq_fuzz_check_display(err.msg);
	sq_snapshot_unref(s);
	free(text);
	return 0;
}
