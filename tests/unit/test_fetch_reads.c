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
	};

	setenv("SQUALL_CONFIG", "/dev/null", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
