/*
 * test_exec_reads.c - how often an action reads its targets (issue 42):
 * the preview (session/exec.c sq_exec_preview) reads them once, and the
 * describe() it shows uses that read; a run (sq_exec_run) reads them
 * once before (sq_exec_check, whose read act() then uses, cut down to
 * the targets that run) and then only to verify. Through the CLI
 * backend on a fake transport that answers from the recorded outputs of
 * tests/fixtures/cli/22.05/actions and counts the commands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cli/actions.h"
#include "core/action/action.h"
#include "core/action/audit.h"
#include "session/exec.h"
#include "tests/unit/test_util.h"

#define FIX "cli/22.05/actions/"

/* The cluster as the fake transport keeps it: job 177 is held once
 * `scontrol hold` ran. */
struct fake {
	int held;
	unsigned squeue, sacctmgr_show, other;
	char argv[32][512]; /* every command, as one line */
	unsigned n;
};

static const char assoc_row[] =
    "sqa_fixture|bob|||1|cpu=4,mem=1G|||5|||01:00:00|normal|||||||\n";

static void
answer(struct sq_buf *out, const char *fixture)
{
	char *t = sq_test_fixture(fixture, NULL);

	sq_buf_append(out, t, strlen(t));
	free(t);
}

static int
fake_run(void *ctx, const char *const argv[], struct sq_buf *out,
	 struct sq_buf *errout, int *status, struct sq_err *err)
{
	struct fake *f = ctx;
	size_t i, off = 0;

	(void)errout;
	(void)err;
	*status = 0;
	if (f->n < 32) {
		for (i = 0; argv[i] != NULL && off < sizeof(f->argv[0]) - 1;
		     i++)
			off += (size_t)snprintf(f->argv[f->n] + off,
						sizeof(f->argv[0]) - off,
						"%s%s", i ? " " : "", argv[i]);
		f->n++;
	}
	if (strcmp(argv[0], "squeue") == 0) {
		f->squeue++;
		answer(out, f->held ? FIX "squeue_held.out"
				    : FIX "squeue_released.out");
	} else if (strcmp(argv[0], "sacctmgr") == 0 && argv[1] != NULL &&
		   argv[2] != NULL && argv[3] != NULL &&
		   strcmp(argv[3], "show") == 0) {
		/* the association as `show assoc` prints it (20 columns) */
		f->sacctmgr_show++;
		sq_buf_append(out, assoc_row, strlen(assoc_row));
	} else {
		f->other++;
		if (strcmp(argv[0], "scontrol") == 0 && argv[1] != NULL &&
		    strcmp(argv[1], "hold") == 0)
			f->held = 1;
	}
	return 0;
}

static void
fake_close(void *ctx)
{
	(void)ctx;
}

static const struct sq_transport_ops fake_tr = { "fake", fake_run, fake_close,
						 NULL };

struct bed {
	struct sq_backend b;
	struct sq_cli cli;
	struct fake f;
};

static void
bed_init(struct bed *t)
{
	memset(t, 0, sizeof(*t));
	t->cli.tr = &fake_tr;
	t->cli.tr_ctx = &t->f;
	t->cli.b = &t->b;
	t->cli.major = 22;
	t->cli.minor = 5;
	t->b.ops = &sq_backend_local;
	t->b.priv = &t->cli;
}

/* sq_exec_run of line with an audit log in a temporary directory; the
 * return value of sq_exec_run */
static int
run_line(struct bed *t, const char *line, struct sq_result *res)
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
	rc = sq_exec_run(&t->b, &au, &a, 0, line, res, &err);
	sq_action_free(&a);
	sq_audit_close(&au);
	unlink(path);
	rmdir(dir);
	return rc;
}

static void
test_preview_reads_once(void **state)
{
	struct bed t;
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
	assert_int_equal(t.f.squeue, 1);
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
	assert_int_equal(t.f.sacctmgr_show, 1);
	assert_int_equal(t.f.n, 1);
}

static void
test_run_reads_once_before(void **state)
{
	struct bed t;
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
	assert_int_equal(t.f.squeue, 2);
	assert_non_null(strstr(t.f.argv[0], "squeue -h -a -t all -j 177 "));
	assert_string_equal(t.f.argv[1], "scontrol hold 177");
	assert_non_null(strstr(t.f.argv[2], "squeue -h -a -t all -j 177 "));
}

static void
test_run_subset_reads_once_before(void **state)
{
	struct bed t;
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
	assert_int_equal(t.f.squeue, 2);
	assert_non_null(strstr(t.f.argv[0], "squeue -h -a -t all -j 177,999 "));
	assert_string_equal(t.f.argv[1], "scontrol hold 177");
	assert_non_null(strstr(t.f.argv[2], "squeue -h -a -t all -j 177 "));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preview_reads_once),
		cmocka_unit_test(test_run_reads_once_before),
		cmocka_unit_test(test_run_subset_reads_once_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
