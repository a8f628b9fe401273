/*
 * test_exec_reads.c - how often an action reads its targets (issue 42):
 * the preview (session/exec.c sq_exec_preview) reads them once, and the
 * describe() it shows uses that read; a run (sq_exec_run) reads them
 * once before (sq_exec_check, whose read act() then uses, cut down to
 * the targets that run) and then only to verify. Through the CLI
 * backend on a fake transport that answers from the recorded outputs of
 * tests/fixtures/cli/22.05/actions and counts the commands, and through
 * the REST backend on a slurmrestd played by a unix socket server that
 * answers from tests/fixtures/verdicts/22.05 and counts the requests.
 * And REST reads an account with its association (its parent and
 * shares, as the CLI does): addaccount whose account came out under
 * another parent is not done (verdicts/22.05/acct/moved).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cli/actions.h"
#include "config.h"
#include "core/action/action.h"
#include "core/action/audit.h"
#include "session/exec.h"
#include "tests/unit/fake_backend.h"
#include "tests/unit/test_util.h"

#if SQ_HAVE_REST
#include <signal.h>
#endif

#define FIX "cli/22.05/actions/"

/* The cluster as the fake transport keeps it: job 177 is held once
 * `scontrol hold` ran; what was asked, counted. */
static struct cluster {
	int held;
	unsigned squeue, sacctmgr_show, other;
} cl;

static const char assoc_row[] =
    "sqa_fixture|bob|||1|cpu=4,mem=1G|||5|||01:00:00|normal|||||||\n";

static int
fake_run(void *arg, const char *const argv[], struct sq_buf *out,
	 struct sq_buf *errout)
{
	struct cluster *c = arg;

	(void)errout;
	if (strcmp(argv[0], "squeue") == 0) {
		c->squeue++;
		sq_fake_answer(out, c->held ? FIX "squeue_held.out"
					    : FIX "squeue_released.out");
	} else if (strcmp(argv[0], "sacctmgr") == 0 && argv[1] != NULL &&
		   argv[2] != NULL && argv[3] != NULL &&
		   strcmp(argv[3], "show") == 0) {
		/* the association as `show assoc` prints it (20 columns) */
		c->sacctmgr_show++;
		sq_buf_append(out, assoc_row, strlen(assoc_row));
	} else {
		c->other++;
		if (strcmp(argv[0], "scontrol") == 0 && argv[1] != NULL &&
		    strcmp(argv[1], "hold") == 0)
			c->held = 1;
	}
	return 0;
}

/* The shared CLI fake (fake_backend.h) on a cluster of its own. */
static void
bed_init(struct sq_fake_bed *t)
{
	memset(&cl, 0, sizeof(cl));
	sq_fake_bed_init(t, fake_run, &cl);
}

/* sq_exec_run of line on b with an audit log in a temporary directory;
 * the return value of sq_exec_run */
static int
run_on(struct sq_backend *b, const char *line, struct sq_result *res)
{
	char dir[] = "/tmp/sq_exec_reads.XXXXXX", path[128];
	struct sq_audit au;
	struct sq_action a;
	struct sq_err err;
	int rc;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/audit.log", dir);
	assert_int_equal(sq_audit_open(&au, path, &err), 0);
	sq_test_parse(line, -1, &a);
	sq_result_init(res);
	sq_err_clear(&err);
	rc = sq_exec_run(b, &au, &a, 0, line, res, &err);
	sq_action_free(&a);
	sq_audit_close(&au);
	unlink(path);
	rmdir(dir);
	return rc;
}

static int
run_line(struct sq_fake_bed *t, const char *line, struct sq_result *res)
{
	return run_on(&t->b, line, res);
}

static void
test_preview_reads_once(void **state)
{
	struct sq_fake_bed t;
	struct sq_action a;
	struct sq_err err;
	char desc[4096];
	size_t nrun = 0;

	(void)state;
	/* a job action: the check's squeue, and describe() reads nothing */
	bed_init(&t);
	sq_test_parse("hold 177", -1, &a);
	assert_int_equal(
	    sq_exec_preview(&t.b, &a, desc, sizeof(desc), &nrun, &err), 0);
	sq_action_free(&a);
	assert_int_equal(nrun, 1);
	assert_string_equal(desc, "scontrol hold 177");
	assert_int_equal(cl.squeue, 1);
	assert_int_equal(t.f.n, 1);

	/* clearlimit builds its command from the limits set now: the
	 * check's read serves describe() too (it read them again) */
	bed_init(&t);
	sq_test_parse("clearlimit account=sqa_fixture user=bob maxjobs", -1,
		      &a);
	assert_int_equal(
	    sq_exec_preview(&t.b, &a, desc, sizeof(desc), &nrun, &err), 0);
	sq_action_free(&a);
	assert_int_equal(nrun, 1);
	assert_non_null(strstr(desc, "sacctmgr -i modify user where "));
	assert_non_null(strstr(desc, "maxjobs=-1"));
	assert_int_equal(cl.sacctmgr_show, 1);
	assert_int_equal(t.f.n, 1);
}

static void
test_run_reads_once_before(void **state)
{
	struct sq_fake_bed t;
	struct sq_result res;

	(void)state;
	bed_init(&t);
	assert_int_equal(run_line(&t, "hold 177", &res), 0);
	assert_int_equal(res.ntargets, 1);
	assert_true(res.targets[0].ok);
	assert_int_equal(res.targets[0].verified, SQ_VERIFY_OK);
	assert_string_equal(res.inverse, "release 177");
	sq_result_free(&res);
	/* the read before, the hold, the read that verifies it */
	assert_int_equal(t.f.n, 3);
	assert_int_equal(cl.squeue, 2);
	assert_non_null(strstr(t.f.argv[0], "squeue -h -a -t all -j 177 "));
	assert_string_equal(t.f.argv[1], "scontrol hold 177");
	assert_non_null(strstr(t.f.argv[2], "squeue -h -a -t all -j 177 "));
}

static void
test_run_subset_reads_once_before(void **state)
{
	struct sq_fake_bed t;
	struct sq_result res;

	(void)state;
	/* 999 is not in the queue: left out; the read before, cut down to
	 * 177, is act()'s */
	bed_init(&t);
	assert_int_equal(run_line(&t, "hold 177 999", &res), -1);
	assert_int_equal(res.ntargets, 2);
	assert_true(res.targets[0].ok);
	assert_int_equal(res.targets[0].verified, SQ_VERIFY_OK);
	assert_false(res.targets[1].ok);
	assert_non_null(strstr(res.targets[1].message, "not found"));
	assert_string_equal(res.inverse, "release 177");
	sq_result_free(&res);
	assert_int_equal(t.f.n, 3);
	assert_int_equal(cl.squeue, 2);
	assert_non_null(strstr(t.f.argv[0], "squeue -h -a -t all -j 177,999 "));
	assert_string_equal(t.f.argv[1], "scontrol hold 177");
	assert_non_null(strstr(t.f.argv[2], "squeue -h -a -t all -j 177 "));
}

#if SQ_HAVE_REST
/* --- REST: slurmrestd 22.05 (v0.0.38) on a unix socket -------------------- */

/* Job 311 is pending, held once a POST {"hold": true} came; every other
 * job is unknown. What was asked, counted. */
static struct job311 {
	int held;
	int acct; /* sqvacct: 0 absent (acct/base), 1 added (acct/moved) */
	unsigned get_job, post, other;
} js;

static void
serve(struct sq_fake_rest *f, int c, const char *method, const char *path,
      const char *req)
{
	char *t;

	(void)f;
	if (strcmp(method, "GET") == 0 &&
	    strcmp(path, "/slurm/v0.0.38/job/311") == 0) {
		js.get_job++;
		t = sq_test_fixture(js.held ? "verdicts/22.05/job_held.json"
					    : "verdicts/22.05/job_pending.json",
				    NULL);
		sq_fake_rest_reply(c, "200 OK", t);
		free(t);
	} else if (strcmp(method, "GET") == 0 &&
		   strncmp(path, "/slurm/v0.0.38/job/", 19) == 0) {
		js.get_job++;
		sq_fake_rest_reply(c, "404 Not Found",
				   "{\"errors\":[{\"error\":\"Invalid job id "
				   "specified\"}]}");
	} else if (strcmp(method, "POST") == 0 &&
		   strcmp(path, "/slurm/v0.0.38/job/311") == 0) {
		js.post++;
		js.held = strstr(req, "\"hold\":true") != NULL ||
			  strstr(req, "\"hold\": true") != NULL;
		sq_fake_rest_reply(c, "200 OK", "{\"errors\":[]}");
	} else if (strcmp(method, "GET") == 0 &&
		   strcmp(path, "/slurmdb/v0.0.38/account/sqvacct") == 0 &&
		   !js.acct) {
		sq_fake_rest_reply(
		    c, "404 Not Found",
		    "{\"errors\":[{\"error\":\"Nothing found\"}]}");
	} else if (strcmp(method, "GET") == 0 &&
		   (strcmp(path, "/slurmdb/v0.0.38/account/sqvacct") == 0 ||
		    strncmp(path,
			    "/slurmdb/v0.0.38/associations?account=sqvacct&",
			    46) == 0)) {
		t = sq_test_fixture(strstr(path, "associations") != NULL
					? "verdicts/22.05/acct/moved/"
					  "account_assoc.json"
					: "verdicts/22.05/acct/moved/"
					  "account.json",
				    NULL);
		sq_fake_rest_reply(c, "200 OK", t);
		free(t);
	} else if (strcmp(method, "GET") == 0 &&
		   strcmp(path, "/slurmdb/v0.0.38/clusters") == 0) {
		sq_fake_rest_reply(c, "200 OK",
				   "{\"clusters\":[{\"name\":\"testbed\"}],"
				   "\"errors\":[]}");
	} else if (strcmp(method, "POST") == 0 &&
		   strncmp(path, "/slurmdb/v0.0.38/", 17) == 0) {
		js.post++;
		js.acct = 1;
		sq_fake_rest_reply(c, "200 OK", "{\"errors\":[]}");
	} else {
		js.other++;
		sq_fake_rest_reply(c, "404 Not Found", "{\"errors\":[]}");
	}
}

/* The shared slurmrestd (fake_backend.h) up with job 311 pending, and a
 * rest backend opened on it (*b). */
static void
rest_start(struct sq_fake_rest *f, struct sq_backend **b)
{
	memset(&js, 0, sizeof(js));
	sq_fake_rest_start(f, serve, NULL, b);
}

static void
test_rest_reads(void **state)
{
	struct sq_fake_rest f;
	struct sq_backend *b;
	struct sq_action a;
	struct sq_result res;
	struct sq_err err;
	char desc[4096];
	size_t nrun = 0;

	(void)state;
	/* the preview: one GET of the job */
	rest_start(&f, &b);
	sq_test_parse("hold 311", -1, &a);
	assert_int_equal(
	    sq_exec_preview(b, &a, desc, sizeof(desc), &nrun, &err), 0);
	sq_action_free(&a);
	assert_int_equal(nrun, 1);
	assert_non_null(strstr(desc, "POST /slurm/v0.0.38/job/311"));
	assert_int_equal(js.get_job, 1);
	assert_int_equal(f.n, 1);

	/* the run: one GET before, the POST, one GET to verify */
	f.n = 0;
	js.get_job = 0;
	assert_int_equal(run_on(b, "hold 311", &res), 0);
	assert_true(res.targets[0].ok);
	assert_int_equal(res.targets[0].verified, SQ_VERIFY_OK);
	assert_string_equal(res.inverse, "release 311");
	sq_result_free(&res);
	assert_int_equal(f.n, 3);
	assert_int_equal(js.get_job, 2);
	assert_string_equal(f.req[0], "GET /slurm/v0.0.38/job/311");
	assert_string_equal(f.req[1], "POST /slurm/v0.0.38/job/311");
	assert_string_equal(f.req[2], "GET /slurm/v0.0.38/job/311");

	/* 999999 is unknown: left out, the read cut down to 311 */
	f.n = 0;
	js.get_job = 0;
	js.held = 0;
	assert_int_equal(run_on(b, "hold 311 999999", &res), -1);
	assert_true(res.targets[0].ok);
	assert_int_equal(res.targets[0].verified, SQ_VERIFY_OK);
	assert_false(res.targets[1].ok);
	assert_non_null(strstr(res.targets[1].message, "not found"));
	assert_string_equal(res.inverse, "release 311");
	sq_result_free(&res);
	assert_int_equal(f.n, 4);
	assert_string_equal(f.req[0], "GET /slurm/v0.0.38/job/311");
	assert_string_equal(f.req[1], "GET /slurm/v0.0.38/job/999999");
	assert_string_equal(f.req[2], "POST /slurm/v0.0.38/job/311");
	assert_string_equal(f.req[3], "GET /slurm/v0.0.38/job/311");
	assert_int_equal(js.other, 0);
	sq_fake_rest_stop(&f, b);
}

/* An account read with its association: addaccount asked under physics
 * and found under chemistry (verdicts/22.05/acct/moved, sacctmgr modify
 * account set parent=chemistry) is not done, in the CLI's words
 * (test_verdicts_acct.c); without the association it would be "added". */
static void
test_rest_account_assoc(void **state)
{
	struct sq_fake_rest f;
	struct sq_backend *b;
	struct sq_result res;
	unsigned k, acct = 0, assoc = 0;

	(void)state;
	rest_start(&f, &b);
	/* not done: sq_exec_run says so (-1), the verify's words the CLI's */
	assert_int_equal(
	    run_on(b, "addaccount sqvacct parent=physics fairshare=2", &res),
	    -1);
	assert_int_equal(res.targets[0].verified, SQ_VERIFY_FAILED);
	assert_string_equal(res.targets[0].message,
			    "not as asked: parent is 'chemistry', not "
			    "'physics'");
	sq_result_free(&res);
	assert_true(js.post > 0);
	/* each read of the account once there, and only then, with its
	 * association */
	for (k = 0; k < f.n; k++) {
		if (strcmp(f.req[k], "GET /slurmdb/v0.0.38/account/sqvacct") ==
		    0)
			acct++;
		else if (strncmp(f.req[k],
				 "GET /slurmdb/v0.0.38/associations?account="
				 "sqvacct&",
				 46) == 0)
			assoc++;
	}
	assert_true(assoc > 0);
	assert_int_equal(acct, assoc + 1); /* the first: not there */
	sq_fake_rest_stop(&f, b);
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preview_reads_once),
		cmocka_unit_test(test_run_reads_once_before),
		cmocka_unit_test(test_run_subset_reads_once_before),
#if SQ_HAVE_REST
		cmocka_unit_test(test_rest_reads),
		cmocka_unit_test(test_rest_account_assoc),
#endif
	};

#if SQ_HAVE_REST
	signal(SIGPIPE, SIG_IGN);
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
