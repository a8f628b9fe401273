/*
 * test_fetch_reads.c - what one fetch of a kind asks of the cluster
 * (issue 42 item 2): the commands or requests, in order, of the kinds
 * one Slurm question answers by several (HACKING.md, "One question,
 * several commands": the CLI's GPUS and DIAG, slurmrestd's NODES and
 * DIAG), with what the rows say when the optional one fails, and the
 * accounts and users slurmrestd reads without their associations: one
 * GET by the backend's fetch, the plan's completion one more (the
 * count a refresh makes did not grow). Through the CLI backend on a fake
 * transport answering from the 22.05 recording
 * (tests/fixtures/replay/22.05) and through the REST backend on a
 * slurmrestd played by a unix socket server answering from
 * tests/fixtures/rest/v0.0.38 (both recorded on the 22.05 testbed, see
 * their README).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/cli/cli.h"
#include "config.h"
#include "core/model/model_admin.h"
#include "session/plan.h"
#include "tests/unit/fake_backend.h"
#include "tests/unit/test_util.h"

#define REPLAY "replay/22.05/"

/* --- CLI ---------------------------------------------------------------- */

/* answer: h-events' script fake appends fixtures with it too */
static void
answer(struct sq_buf *out, const char *fixture)
{
	sq_fake_answer(out, fixture);
}

static int
has_word(const char *const argv[], const char *w)
{
	size_t i;

	for (i = 1; w != NULL && argv[i] != NULL; i++) {
		if (strcmp(argv[i], w) == 0)
			return 1;
	}
	return 0;
}

/* arg: the first word after argv[0] of a command that exits 1 ("ping",
 * "-r"), or NULL. */
static int
fake_run(void *arg, const char *const argv[], struct sq_buf *out,
	 struct sq_buf *errout)
{
	if (has_word(argv, arg)) {
		sq_buf_append(errout, "denied\n", 7);
		return 1;
	}
	if (strcmp(argv[0], "sdiag") == 0)
		answer(out, REPLAY "000051-sdiag.out");
	else if (strcmp(argv[0], "scontrol") == 0 && has_word(argv, "-d"))
		answer(out, REPLAY "000035-scontrol.out");
	else if (strcmp(argv[0], "squeue") == 0 && has_word(argv, "R,S,CG"))
		answer(out, REPLAY "000036-squeue.out");
	return 0;
}

/* the shared CLI fake (fake_backend.h) answering with fake_run */
#define bed sq_fake_bed

static void
bed_init(struct bed *t, const char *fail_word)
{
	sq_fake_bed_init(t, fake_run, (void *)fail_word);
}

/* Is there a row of section sec, key key whose value starts with v? */
static int
has_kv(const struct sq_snapshot *s, const char *sec, const char *key,
       const char *v)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(s, i);

		if (strcmp(kv->section, sec) == 0 &&
		    (key == NULL || strcmp(kv->key, key) == 0) &&
		    strncmp(kv->value, v, strlen(v)) == 0)
			return 1;
	}
	return 0;
}

/* GPUS: the nodes by GPU index, the jobs holding them, the demand, in
 * that order and nothing else; a demand that cannot be read is a note */
static void
test_cli_gpus(void **state)
{
	struct bed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	size_t i;
	int noted = 0;

	(void)state;
	bed_init(&t, NULL);
	sq_err_clear(&err);
	if (t.b.ops->fetch(&t.b, SQ_KIND_GPUS, &s, &err) != 0)
		fail_msg("gpus: %s", err.msg);
	assert_int_equal(t.f.n, 3);
	assert_string_equal(t.f.argv[0], "scontrol -d -o show node");
	assert_non_null(strstr(t.f.argv[1], "squeue -h -a -t R,S,CG -O "));
	assert_non_null(strstr(t.f.argv[2], "squeue -h -a -r -t PD -O "));
	assert_true(s->nrows > 0);
	assert_string_equal(s->source,
			    "scontrol -d show node + squeue tres-alloc");
	sq_snapshot_unref(s);

	bed_init(&t, "-r");
	assert_int_equal(t.b.ops->fetch(&t.b, SQ_KIND_GPUS, &s, &err), 0);
	assert_int_equal(t.f.n, 3);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_gpu *g = sq_snapshot_row(s, i);

		noted +=
		    g->pend_note != NULL &&
		    strncmp(g->pend_note, "pending jobs not read: ", 23) == 0;
	}
	assert_true(noted > 0);
	sq_snapshot_unref(s);

	/* the nodes cannot be read: no GPUs, and no command after */
	bed_init(&t, "-d");
	assert_int_equal(t.b.ops->fetch(&t.b, SQ_KIND_GPUS, &s, &err), -1);
	assert_null(s);
	assert_int_equal(t.f.n, 1);
}

/* DIAG: sdiag, then scontrol ping; a ping that fails is a row saying
 * why */
static void
test_cli_diag(void **state)
{
	struct bed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	bed_init(&t, NULL);
	sq_err_clear(&err);
	if (t.b.ops->fetch(&t.b, SQ_KIND_DIAG, &s, &err) != 0)
		fail_msg("diag: %s", err.msg);
	assert_int_equal(t.f.n, 2);
	assert_string_equal(t.f.argv[0], "sdiag");
	assert_string_equal(t.f.argv[1], "scontrol ping");
	assert_string_equal(s->source, "sdiag, scontrol ping");
	assert_false(has_kv(s, "controller", "controllers", "not known"));
	sq_snapshot_unref(s);

	bed_init(&t, "ping");
	assert_int_equal(t.b.ops->fetch(&t.b, SQ_KIND_DIAG, &s, &err), 0);
	assert_int_equal(t.f.n, 2);
	assert_true(s->nrows > 1);
	assert_true(has_kv(s, "controller", "controllers",
			   "not known: scontrol ping: scontrol exited with "
			   "status 1: denied"));
	sq_snapshot_unref(s);
}

#if SQ_HAVE_REST
/* --- REST: slurmrestd 22.05 (v0.0.38) on a unix socket ------------------- */

/* a path answered 500, or NULL */
static const char *rest_fail;

/* /slurm/v0.0.38/X -> slurm_X.json, /slurmdb/... -> slurmdb_X */
static void
serve(struct sq_fake_rest *f, int c, const char *method, const char *path,
      const char *req)
{
	char file[600], *t;

	(void)f;
	(void)method;
	(void)req;
	if (rest_fail != NULL && strcmp(path, rest_fail) == 0) {
		sq_fake_rest_reply(c, "500 Internal Server Error",
				   "{\"errors\":[{\"error\":\"down\"}]}");
		return;
	}
	if (strncmp(path, "/slurm/v0.0.38/", 15) == 0)
		snprintf(file, sizeof(file), "rest/v0.0.38/slurm_%s.json",
			 path + 15);
	else if (strncmp(path, "/slurmdb/v0.0.38/", 17) == 0)
		snprintf(file, sizeof(file), "rest/v0.0.38/slurmdb_%s.json",
			 path + 17);
	else {
		sq_fake_rest_reply(c, "404 Not Found", "{\"errors\":[]}");
		return;
	}
	t = sq_test_fixture(file, NULL);
	sq_fake_rest_reply(c, "200 OK", t);
	free(t);
}

static void
rest_start(struct sq_fake_rest *f, struct sq_backend **b)
{
	rest_fail = NULL;
	sq_fake_rest_start(f, serve, NULL, b);
}

/* Does some node's partition list mark one with sinfo's '*'? */
static int
marked(const struct sq_snapshot *nodes)
{
	size_t i;

	for (i = 0; i < nodes->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(nodes, i);

		if (strchr(nd->partitions, '*') != NULL)
			return 1;
	}
	return 0;
}

/* NODES: GET /partitions once a connection (the default's '*'), then
 * /nodes; DIAG: /diag, then /ping, whose failure is a row */
static void
test_rest_composites(void **state)
{
	struct sq_fake_rest f;
	struct sq_backend *b;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	rest_start(&f, &b);
	sq_err_clear(&err);
	if (b->ops->fetch(b, SQ_KIND_NODES, &s, &err) != 0)
		fail_msg("nodes: %s", err.msg);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.req[0], "GET /slurm/v0.0.38/partitions");
	assert_string_equal(f.req[1], "GET /slurm/v0.0.38/nodes");
	assert_true(marked(s));
	sq_snapshot_unref(s);
	f.n = 0;
	assert_int_equal(b->ops->fetch(b, SQ_KIND_NODES, &s, &err), 0);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.req[0], "GET /slurm/v0.0.38/nodes");
	assert_true(marked(s));
	sq_snapshot_unref(s);

	sq_fake_rest_stop(&f, b);

	/* /nodes fails after /partitions answered: the default is known,
	 * the next read is /nodes alone (as fetch_nodes did) */
	rest_start(&f, &b);
	rest_fail = "/slurm/v0.0.38/nodes";
	assert_int_equal(b->ops->fetch(b, SQ_KIND_NODES, &s, &err), -1);
	assert_null(s);
	assert_int_equal(f.n, 2);
	f.n = 0;
	rest_fail = NULL;
	assert_int_equal(b->ops->fetch(b, SQ_KIND_NODES, &s, &err), 0);
	assert_int_equal(f.n, 1);
	assert_true(marked(s));
	sq_snapshot_unref(s);

	f.n = 0;
	if (b->ops->fetch(b, SQ_KIND_DIAG, &s, &err) != 0)
		fail_msg("diag: %s", err.msg);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.req[0], "GET /slurm/v0.0.38/diag");
	assert_string_equal(f.req[1], "GET /slurm/v0.0.38/ping");
	assert_false(has_kv(s, "controller", NULL, "not known"));
	assert_true(has_kv(s, "controller", NULL, ""));
	sq_snapshot_unref(s);
	f.n = 0;
	rest_fail = "/slurm/v0.0.38/ping";
	assert_int_equal(b->ops->fetch(b, SQ_KIND_DIAG, &s, &err), 0);
	assert_int_equal(f.n, 2);
	assert_true(has_kv(s, "controller", "controllers", "not known: "));
	sq_snapshot_unref(s);
	sq_fake_rest_stop(&f, b);
}

/* ACCOUNTS and USERS: the backend's fetch one GET, the plan's the GET
 * of the associations after it (two a refresh, as before the plan
 * completed them), the rows completed */
static void
test_rest_accounts(void **state)
{
	struct sq_fake_rest f;
	struct sq_backend *b;
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	size_t i;
	int parents = 0;

	(void)state;
	rest_start(&f, &b);
	sq_err_clear(&err);
	if (b->ops->fetch(b, SQ_KIND_ACCOUNTS, &s, &err) != 0)
		fail_msg("accounts: %s", err.msg);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.req[0], "GET /slurmdb/v0.0.38/accounts");
	sq_snapshot_unref(s);

	f.n = 0;
	if (sq_plan_fetch(b, SQ_KIND_ACCOUNTS, NULL, &s, &err) != 0)
		fail_msg("plan accounts: %s", err.msg);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.req[0], "GET /slurmdb/v0.0.38/accounts");
	assert_string_equal(f.req[1], "GET /slurmdb/v0.0.38/associations");
	assert_string_equal(s->source, "GET /slurmdb/v0.0.38/accounts");
	for (i = 0; i < s->nrows; i++)
		parents += ((const struct sq_account *)sq_snapshot_row(s, i))
			       ->parent[0] != '\0';
	assert_true(parents > 0);
	sq_snapshot_unref(s);

	f.n = 0;
	if (sq_plan_fetch(b, SQ_KIND_USERS, NULL, &s, &err) != 0)
		fail_msg("plan users: %s", err.msg);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.req[0], "GET /slurmdb/v0.0.38/users");
	assert_string_equal(f.req[1], "GET /slurmdb/v0.0.38/associations");
	sq_snapshot_unref(s);

	/* the associations cannot be read: no accounts, as before */
	f.n = 0;
	rest_fail = "/slurmdb/v0.0.38/associations";
	assert_int_equal(sq_plan_fetch(b, SQ_KIND_ACCOUNTS, NULL, &s, &err),
			 -1);
	assert_null(s);
	assert_non_null(strstr(err.msg, "associations"));
	sq_fake_rest_stop(&f, b);
}
#endif

/* --- CLI: the kinds with arguments made at fetch time, own reads --------
 * (issue 42 item 2: every kind a row of the CLI's fetch table; their
 * argv byte for byte, what the rows say when an optional command is not
 * read). A fake of its own: answers by the start of the command line. */

struct rule {
	const char *prefix; /* of the command line, words joined by ' ' */
	const char *fixture;
	const char *text;
	int status; /* exits with it, "denied" on stderr */
};

/* A CLI backend of the given release (fake_backend.h) answering by
 * rules */
struct sbed {
	struct sq_fake_bed fb;
	const struct rule *rules;
};

/* The first rule whose prefix starts the command line (the bed recorded
 * it last) answers it */
static int
script_run(void *arg, const char *const argv[], struct sq_buf *out,
	   struct sq_buf *errout)
{
	const struct sbed *t = arg;
	const char *line = t->fb.f.argv[t->fb.f.n - 1];
	const struct rule *r;

	(void)argv;
	for (r = t->rules; r->prefix != NULL; r++) {
		if (strncmp(line, r->prefix, strlen(r->prefix)) != 0)
			continue;
		if (r->status != 0)
			sq_buf_append(errout, "denied\n", 7);
		else if (r->fixture != NULL)
			answer(out, r->fixture);
		else if (r->text != NULL)
			sq_buf_append(out, r->text, strlen(r->text));
		return r->status;
	}
	return 0;
}

static void
sbed_init(struct sbed *t, const struct rule *rules, int major, int minor)
{
	sq_fake_bed_init(&t->fb, script_run, t);
	t->fb.cli.major = major;
	t->fb.cli.minor = minor;
	t->rules = rules;
}

/* cmd matches "PREFIX|sqn<16 hex>|SUFFIX": a fresh nonce delimiter */
static void
assert_nonce_argv(const char *cmd, const char *prefix, const char *suffix)
{
	size_t i, np = strlen(prefix);

	if (strncmp(cmd, prefix, np) != 0 || strncmp(cmd + np, "|sqn", 4) != 0)
		fail_msg("not %s|sqn...: %s", prefix, cmd);
	for (i = 0; i < 16; i++) {
		if (strchr("0123456789abcdef", cmd[np + 4 + i]) == NULL)
			fail_msg("no nonce: %s", cmd);
	}
	if (cmd[np + 20] != '|' || strcmp(cmd + np + 21, suffix) != 0)
		fail_msg("not ...|%s: %s", suffix, cmd);
}

/* Does every event without a preemptor say note (and is there one)? */
static int
events_noted(const struct sq_snapshot *s, const char *note)
{
	size_t i;
	int n = 0;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_event *e = sq_snapshot_row(s, i);

		if (e->preemptor_job != 0)
			continue;
		if (e->note == NULL || strcmp(e->note, note) != 0)
			return 0;
		n++;
	}
	return n > 0;
}

#define LOG "/tmp/slurmtb/log/slurm/slurmctld.log"
#define EVENTS_SACCT "sacct -a -D -X -n -P --delimiter="
#define EVENTS_TAIL                                                            \
	" -s PR,RQ -S now-1days -E now -o JobIDRaw,JobID,User,Account,"        \
	"Partition,QOS,State,Start,End,NodeList,JobName"
#define EVENTS_GREP "/bin/grep -F -e preempted JobId= -- " LOG

static const struct rule events_nomatch[] = {
	{ "sacct ", REPLAY "000022-sacct.out", NULL, 0 },
	{ "scontrol show config", REPLAY "000023-scontrol.out", NULL, 0 },
	{ "/bin/grep ", NULL, NULL, 1 },
	{ NULL, NULL, NULL, 0 },
};
static const struct rule events_grepfail[] = {
	{ "sacct ", REPLAY "000022-sacct.out", NULL, 0 },
	{ "scontrol show config", REPLAY "000023-scontrol.out", NULL, 0 },
	{ "/bin/grep ", NULL, NULL, 2 },
	{ NULL, NULL, NULL, 0 },
};
static const struct rule events_nolog[] = {
	{ "sacct ", REPLAY "000022-sacct.out", NULL, 0 },
	{ "scontrol show config", NULL, "SlurmctldPort = 6817\n", 0 },
	{ NULL, NULL, NULL, 0 },
};
static const struct rule events_log[] = {
	{ "sacct ", REPLAY "000022-sacct.out", NULL, 0 },
	{ "scontrol show config", REPLAY "000023-scontrol.out", NULL, 0 },
	{ "/bin/grep ", "cli/22.05/admin_slurmctld_preempt.log", NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};
static const struct rule events_nosacct[] = {
	{ "sacct ", NULL, NULL, 1 },
	{ NULL, NULL, NULL, 0 },
};

/* EVENTS: sacct with a fresh delimiter, the config for the log's path,
 * then grep of the log, whose exit 1 (no line) is a note, not an error;
 * the three reasons an event has no preemptor */
static void
test_cli_events(void **state)
{
	struct sbed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	sbed_init(&t, events_nomatch, 22, 5);
	sq_err_clear(&err);
	if (t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_EVENTS, &s, &err) != 0)
		fail_msg("events: %s", err.msg);
	assert_int_equal(t.fb.f.n, 3);
	assert_nonce_argv(t.fb.f.argv[0], EVENTS_SACCT, EVENTS_TAIL);
	assert_string_equal(t.fb.f.argv[1], "scontrol show config");
	assert_string_equal(t.fb.f.argv[2], EVENTS_GREP);
	assert_string_equal(s->source, "sacct -s PR,RQ + slurmctld log");
	assert_true(events_noted(s, "no preemptor: the controller log has no "
				    "line for it (rotated, or not a "
				    "preemption)"));
	sq_snapshot_unref(s);

	sbed_init(&t, events_grepfail, 22, 5);
	assert_int_equal(t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_EVENTS, &s, &err),
			 0);
	assert_int_equal(t.fb.f.n, 3);
	assert_string_equal(s->source, "sacct -s PR,RQ");
	assert_true(events_noted(s, "no preemptor: the controller log could "
				    "not be read: /bin/grep exited with "
				    "status 2: denied"));
	sq_snapshot_unref(s);

	/* no SlurmctldLogFile: no grep */
	sbed_init(&t, events_nolog, 22, 5);
	assert_int_equal(t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_EVENTS, &s, &err),
			 0);
	assert_int_equal(t.fb.f.n, 2);
	assert_string_equal(s->source, "sacct -s PR,RQ");
	assert_true(events_noted(s, "no preemptor: SlurmctldLogFile is not "
				    "set or not shown to this user"));
	sq_snapshot_unref(s);

	/* sacct fails: no events, nothing run after it */
	sbed_init(&t, events_nosacct, 22, 5);
	assert_int_equal(t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_EVENTS, &s, &err),
			 -1);
	assert_null(s);
	assert_int_equal(t.fb.f.n, 1);
}

/* EVENTS with the log's lines: the preemptors merged into sacct's rows */
static void
test_cli_events_log(void **state)
{
	struct sbed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	size_t i;
	int known = 0;

	(void)state;
	sbed_init(&t, events_log, 22, 5);
	sq_err_clear(&err);
	if (t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_EVENTS, &s, &err) != 0)
		fail_msg("events: %s", err.msg);
	assert_int_equal(t.fb.f.n, 3);
	assert_string_equal(s->source, "sacct -s PR,RQ + slurmctld log");
	for (i = 0; i < s->nrows; i++)
		known += ((const struct sq_event *)sq_snapshot_row(s, i))
			     ->preemptor_job != 0;
	/* the log's lines are days older than the window: none kept */
	assert_int_equal(known, 0);
	sq_snapshot_unref(s);
}

static const struct rule history_rules[] = {
	{ "sacct ", REPLAY "000027-sacct.out", NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};

/* HISTORY: one sacct with a fresh delimiter over the window of the
 * fetch (the backend's history_since) */
static void
test_cli_history(void **state)
{
	struct sbed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	sbed_init(&t, history_rules, 22, 5);
	snprintf(t.fb.b.cfg.history_since, sizeof(t.fb.b.cfg.history_since),
		 "2h");
	sq_err_clear(&err);
	if (t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_HISTORY, &s, &err) != 0)
		fail_msg("history: %s", err.msg);
	assert_int_equal(t.fb.f.n, 1);
	assert_nonce_argv(t.fb.f.argv[0], "sacct -a -D -n -P --delimiter=",
			  " -S now-7200seconds -E now -o "
			  "JobIDRaw,JobID,User,Account,Partition,QOS,State,"
			  "ExitCode,Submit,Start,End,ElapsedRaw,AllocCPUS,"
			  "ReqMem,AllocTRES,NNodes,NTasks,NodeList,TotalCPU,"
			  "MaxRSS,TRESUsageInMax,JobName");
	assert_string_equal(s->source, "sacct -D (history)");
	assert_true(s->nrows > 0);
	sq_snapshot_unref(s);

	/* a window that is none: an error before any command */
	sbed_init(&t, history_rules, 22, 5);
	snprintf(t.fb.b.cfg.history_since, sizeof(t.fb.b.cfg.history_since),
		 "x-y");
	assert_int_equal(t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_HISTORY, &s, &err),
			 -1);
	assert_int_equal(t.fb.f.n, 0);
}

static const struct rule node_event_rules[] = {
	{ "sacctmgr ", NULL, "n1|DOWN|root|1796194048|Unknown|maint\n", 0 },
	{ NULL, NULL, NULL, 0 },
};

/* NODE_EVENTS: sacctmgr show event with the window's start */
static void
test_cli_node_events(void **state)
{
	struct sbed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	sbed_init(&t, node_event_rules, 22, 5);
	snprintf(t.fb.b.cfg.history_since, sizeof(t.fb.b.cfg.history_since),
		 "3h");
	sq_err_clear(&err);
	if (t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_NODE_EVENTS, &s, &err) != 0)
		fail_msg("node events: %s", err.msg);
	assert_int_equal(t.fb.f.n, 1);
	assert_string_equal(t.fb.f.argv[0],
			    "sacctmgr -n -P show event event=node "
			    "start=now-10800seconds end=now "
			    "format=NodeName,State,User,Start,End,Reason");
	assert_string_equal(s->source, "sacctmgr show event");
	assert_int_equal(s->nrows, 1);
	sq_snapshot_unref(s);
}

static const struct rule dbd_rules[] = {
	{ "sacctmgr show stats", "dbd/22.05/stats.txt", NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};
static const struct rule dbd_denied[] = {
	{ "sacctmgr show stats", NULL, NULL, 1 },
	{ NULL, NULL, NULL, 0 },
};

/* DBD: sacctmgr show stats; its failure is one row saying why */
static void
test_cli_dbd(void **state)
{
	struct sbed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	sbed_init(&t, dbd_rules, 22, 5);
	sq_err_clear(&err);
	if (t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_DBD, &s, &err) != 0)
		fail_msg("dbd: %s", err.msg);
	assert_int_equal(t.fb.f.n, 1);
	assert_string_equal(t.fb.f.argv[0], "sacctmgr show stats");
	assert_true(s->nrows > 1);
	assert_false(has_kv(s, "dbd", NULL, "not known"));
	sq_snapshot_unref(s);

	sbed_init(&t, dbd_denied, 22, 5);
	assert_int_equal(t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_DBD, &s, &err), 0);
	assert_int_equal(t.fb.f.n, 1);
	assert_string_equal(s->source, "sacctmgr show stats");
	assert_int_equal(s->nrows, 1);
	assert_true(has_kv(s, "dbd", "slurmdbd statistics",
			   "not known: sacctmgr show stats: sacctmgr exited "
			   "with status 1: denied"));
	sq_snapshot_unref(s);
}

static const struct rule runaway_rules[] = {
	{ "sacctmgr -n -P show runawayjobs ", "runaway/22.05/list.txt", NULL,
	  0 },
	{ NULL, NULL, NULL, 0 },
};

/* RUNAWAY: its own read, one sacctmgr show runawayjobs (the fake has no
 * stdin: served as the replay is) */
static void
test_cli_runaway(void **state)
{
	struct sbed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	sbed_init(&t, runaway_rules, 22, 5);
	sq_err_clear(&err);
	if (t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_RUNAWAY, &s, &err) != 0)
		fail_msg("runaway: %s", err.msg);
	assert_int_equal(t.fb.f.n, 1);
	assert_string_equal(t.fb.f.argv[0],
			    "sacctmgr -n -P show runawayjobs "
			    "format=ID,Cluster,Partition,State,Submit,Start,"
			    "End,Name");
	assert_string_equal(s->source, "sacctmgr show runawayjobs");
	assert_int_equal(s->nrows, 1);
	sq_snapshot_unref(s);
}

static const struct rule gpuuse_rules[] = {
	{ "squeue -h -a -t R -O ", "cli/gpuuse/squeue.txt", NULL, 0 },
	{ "sstat -a -n -P -j ", "cli/gpuuse/sstat.txt", NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};

/* GPUUSE: its own read, one squeue and, from 23.02, one sstat of all the
 * GPU jobs; before, no sstat and a note */
static void
test_cli_gpuuse(void **state)
{
	struct sbed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	sbed_init(&t, gpuuse_rules, 22, 5);
	sq_err_clear(&err);
	if (t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_GPUUSE, &s, &err) != 0)
		fail_msg("gpuuse: %s", err.msg);
	assert_int_equal(t.fb.f.n, 1);
	assert_string_equal(t.fb.f.argv[0],
			    "squeue -h -a -t R -O JobID:|,UserName:|,"
			    "Account:|,Partition:|,StartTime:|,NodeList:|,"
			    "tres-alloc:");
	assert_non_null(s->note);
	assert_non_null(strstr(s->note, "before 23.02"));
	sq_snapshot_unref(s);
	sq_snapshot_unref(t.fb.cli.gpuuse_prev);

	sbed_init(&t, gpuuse_rules, 24, 11);
	assert_int_equal(t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_GPUUSE, &s, &err),
			 0);
	assert_int_equal(t.fb.f.n, 2);
	assert_non_null(strstr(t.fb.f.argv[1], "sstat -a -n -P -j "));
	assert_non_null(strstr(t.fb.f.argv[1],
			       " -o JobID,TRESUsageInAve,TRESUsageInMax,"
			       "TRESUsageInTot"));
	assert_true(s->nrows > 0);
	sq_snapshot_unref(s);
	sq_snapshot_unref(t.fb.cli.gpuuse_prev);
}

/* The queue, partitions and sprio: rows of the same table; a kind
 * without one is refused before any command */
static void
test_cli_table_rest(void **state)
{
	static const struct rule none[] = { { NULL, NULL, NULL, 0 } };
	struct sbed t;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	(void)state;
	sbed_init(&t, none, 22, 5);
	sq_err_clear(&err);
	assert_int_equal(
	    t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_PARTITIONS, &s, &err), 0);
	assert_string_equal(t.fb.f.argv[0], "scontrol -o show partition");
	assert_string_equal(s->source, "scontrol -o show partition");
	sq_snapshot_unref(s);
	assert_int_equal(t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_JOBS, &s, &err), 0);
	assert_non_null(
	    strstr(t.fb.f.argv[1], "squeue -h -a -O JobArrayID:|sqn"));
	assert_string_equal(s->source, "squeue -O");
	sq_snapshot_unref(s);
	assert_int_equal(
	    t.fb.b.ops->fetch(&t.fb.b, SQ_KIND_PREEMPT_RUNS, &s, &err), -1);
	assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
	assert_int_equal(t.fb.f.n, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_gpus),
		cmocka_unit_test(test_cli_diag),
#if SQ_HAVE_REST
		cmocka_unit_test(test_rest_composites),
		cmocka_unit_test(test_rest_accounts),
#endif
		cmocka_unit_test(test_cli_events),
		cmocka_unit_test(test_cli_events_log),
		cmocka_unit_test(test_cli_history),
		cmocka_unit_test(test_cli_node_events),
		cmocka_unit_test(test_cli_dbd),
		cmocka_unit_test(test_cli_runaway),
		cmocka_unit_test(test_cli_gpuuse),
		cmocka_unit_test(test_cli_table_rest),
	};

	setenv("SQUALL_CONFIG", "/dev/null", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
