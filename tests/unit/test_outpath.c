/*
 * test_outpath.c - unit tests of core/analysis/outpath.c: the StdOut/StdErr of
 * recorded `scontrol show job -o` records expand to the very names slurmd
 * 22.05 gave the files (tests/fixtures/cli/22.05/outpath/README.md), the
 * patterns one by one, and the escaping of file bytes for a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/buf.h"
#include "core/base/err.h"
#include "core/analysis/outpath.h"
#include "tests/unit/test_util.h"

#define FIX "tests/fixtures/cli/22.05/outpath/"

static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *s = calloc(1, 65536);
	size_t n;

	assert_non_null(fp);
	assert_non_null(s);
	n = fread(s, 1, 65535, fp);
	s[n] = '\0';
	fclose(fp);
	return s;
}

static void
test_array_task_as_slurmd(void **state)
{
	struct sq_jobfiles jf;
	struct sq_err err;
	char *t = slurp(FIX "array_task_running.txt");

	(void)state;
	assert_int_equal(sq_jobfiles_parse(t, &jf, &err), 0);
	assert_string_equal(jf.job_id, "18");
	assert_string_equal(jf.state, "RUNNING");
	assert_string_equal(jf.node, "n1");
	assert_string_equal(jf.user, "alice");
	assert_string_equal(
	    jf.stdout_path,
	    "/tmp/h_output/r-17_1-001-18-alice-fx name-%-5q.out");
	assert_string_equal(jf.stderr_path, "/tmp/h_output/r-17.1.err");
	free(t);
}

static void
test_plain_and_pending(void **state)
{
	struct sq_jobfiles jf;
	struct sq_err err;
	char *t = slurp(FIX "plain_done.txt");

	(void)state;
	assert_int_equal(sq_jobfiles_parse(t, &jf, &err), 0);
	assert_string_equal(jf.stdout_path,
			    "/tmp/h_output/f-4294967294-8-8.out");
	assert_false(sq_jobfiles_active(jf.state));
	assert_false(sq_jobfiles_waiting(jf.state));
	assert_false(sq_jobfiles_waiting("RUNNING"));
	assert_false(sq_jobfiles_waiting("COMPLETING"));
	assert_true(sq_jobfiles_waiting("REQUEUE_HOLD"));
	free(t);
	t = slurp(FIX "array_pending.txt");
	assert_int_equal(sq_jobfiles_parse(t, &jf, &err), 0);
	assert_true(sq_jobfiles_active(jf.state));
	/* not started: its file need not exist yet, and the pane and
	 * --output say where it will be (issue 41) */
	assert_true(sq_jobfiles_waiting(jf.state));
	{
		char msg[200];

		assert_string_equal(
		    sq_jobfiles_not_started("9_4294967294", jf.state, "stdout",
					    "/tmp/x.out", msg, sizeof(msg)),
		    "job 9_4294967294 has not started (PENDING): its stdout "
		    "will be written to /tmp/x.out");
	}
	assert_string_equal(jf.node, "");
	assert_string_equal(jf.stdout_path,
			    "/tmp/h_output/g-9_4294967294-4294967294-.out");
	free(t);
}

static void
test_patterns(void **state)
{
	const struct sq_outpath_job arr = { "18",         "17",    "1",
					    "alice",      "a b c", "n3",
					    "/home/alice" };
	const struct sq_outpath_job one = {
		"42", "", "", "bob", "x", "", "/w/"
	};
	const struct {
		const struct sq_outpath_job *j;
		const char *pat, *want;
	} c[] = {
		{ &arr, "%A_%a.out", "/home/alice/17_1.out" },
		{ &arr, "/o/%3a-%4A-%j", "/o/001-0017-18" },
		{ &arr, "/o/%u.%x.%N", "/o/alice.a b c.n3" },
		{ &arr, "/o/%%j%%", "/o/%j%" },
		{ &arr, "/o/%J.%s.%n.%t", "/o/18.batch.0.0" },
		{ &arr, "/o/%b%q%", "/o/%b%q%" },
		{ &arr, "/o/%12a", "/o/0000000001" },
		{ &arr, "/o/%12z", "/o/2z" },
		{ &arr, "/o/%5q", "/o/5q" },
		{ &arr, "/o/a\\%j\\b", "/o/a%jb" },
		{ &one, "%A-%a.out", "/w/42-4294967294.out" },
		{ &one, "/abs/%x", "/abs/x" },
	};
	char out[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(
		    sq_outpath_expand(c[i].pat, c[i].j, out, sizeof(out)), 0);
		if (strcmp(out, c[i].want) != 0)
			fail_msg("%s: got '%s', want '%s'", c[i].pat, out,
				 c[i].want);
	}
	assert_int_equal(sq_outpath_expand("/%j%j%j%j", &arr, out, 8), -1);
}

static void
test_parse_refuses(void **state)
{
	struct sq_jobfiles jf;
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_jobfiles_parse("", &jf, &err), -1);
	assert_int_equal(sq_jobfiles_parse("slurm_load_jobs error: Invalid "
					   "job id specified",
					   &jf, &err),
			 -1);
	/* a value running to the end, keys with spaces around */
	assert_int_equal(
	    sq_jobfiles_parse("JobId=5 StdOut=/a b/c=d e", &jf, &err), 0);
	assert_string_equal(jf.stdout_path, "/a b/c=d e");
	assert_string_equal(jf.stderr_path, "");
}

static void
escape(const char *in, size_t n, int final, const char *want, size_t used)
{
	struct sq_buf b;

	sq_buf_init(&b, 0);
	assert_int_equal(sq_text_escape(in, n, final, &b), used);
	assert_string_equal(sq_buf_str(&b), want);
	sq_buf_free(&b);
}

static void
test_escape(void **state)
{
	(void)state;
	escape("a\tb\n", 4, 1, "a\tb\n", 4);
	escape("\x1b[2J\x1b]0;x\x07", 10, 1, "\\x1b[2J\\x1b]0;x\\x07", 10);
	escape("100%\r", 5, 1, "100%\\r", 5);
	escape("\xc3\xa9t\xc3\xa9", 5, 1, "\xc3\xa9t\xc3\xa9", 5);
	/* C1 controls (CSI as U+009B), overlong and invalid bytes */
	escape("\xc2\x9b"
	       "2J",
	       4, 1, "\\xc2\\x9b2J", 4);
	escape("\xc0\xaf\xff", 3, 1, "\\xc0\\xaf\\xff", 3);
	/* a right-to-left override */
	escape("\xe2\x80\xae", 3, 1, "\\xe2\\x80\\xae", 3);
	/* a cut sequence waits for the next chunk, unless it is the end */
	escape("ab\xe2\x82", 4, 0, "ab", 2);
	escape("ab\xe2\x82", 4, 1, "ab\\xe2\\x82", 4);
	escape("\0x", 2, 1, "\\x00x", 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_task_as_slurmd),
		cmocka_unit_test(test_plain_and_pending),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_parse_refuses),
		cmocka_unit_test(test_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
