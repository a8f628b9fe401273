/*
 * test_validate.c - unit tests of core/base/validate.c: hostile values are
 * refused by every whitelist and never reach a joined remote command line;
 * job ids come back canonical; what the quoting lets through stays inert
 * when a real /bin/sh runs the joined line. And the local transport gives
 * squeue TZ=UTC0 as the joined line does (sq_shell_utc).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "backends/cli/cli.h"
#include "core/base/buf.h"
#include "core/base/err.h"
#include "core/base/validate.h"
#include "tests/unit/test_util.h"

static char big[4098]; /* 4 KB and one byte: past every limit */

/* Values an attacker (or a careless paste) may put in a field. */
static const char *hostile[] = {
	"$(touch /tmp/sq-pwned)",
	"`id`",
	"a;id",
	"a|id",
	"a&&id",
	"a'b",
	"a\"b",
	"a\\b",
	"a\nb",
	"a\rb",
	"a\tb",
	"\x1b[2J\x1b[31mred", /* ANSI escape */
	"a\xc2\x9b"
	"31m",          /* C1 CSI as UTF-8 */
	"a\x7f",        /* DEL */
	"\xff\xfe",     /* invalid UTF-8 */
	"\xc0\xaf",     /* overlong '/' */
	"\xed\xa0\x80", /* UTF-16 surrogate */
	"\xe2\x82",     /* truncated sequence */
	"a!b",
	"a b",
	"-oProxyCommand=id",
	"",
	NULL,
};

static void
fill_big(void)
{
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
}

static void
assert_all_refuse(const char *v)
{
	struct sq_err err;
	char out[64];

	sq_err_clear(&err);
	assert_int_equal(sq_valid_jobid(v, out, sizeof(out), &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
	assert_int_equal(sq_valid_name(v, &err), -1);
	assert_int_equal(sq_valid_nodelist(v, &err), -1);
	assert_int_equal(sq_valid_tres(v, &err), -1);
	assert_int_equal(sq_valid_number(v, &err), -1);
	assert_int_equal(sq_valid_duration(v, &err), -1);
	assert_int_equal(sq_valid_path(v, &err), -1);
}

static void
test_strict_validators_refuse_all(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; hostile[i] != NULL; i++)
		assert_all_refuse(hostile[i]);
	assert_true(i >= 20);
	fill_big();
	assert_all_refuse(big);
}

static void
test_text_refuses_shell_and_terminal_bytes(void **state)
{
	static const char *bad[] = {
		"$(touch /tmp/sq-pwned)",
		"`id`",
		"a'b",
		"a\"b",
		"a\\b",
		"a\nb",
		"a\rb",
		"a\tb",
		"\x1b[2J",
		"a\xc2\x9b"
		"31m",
		"a\x7f",
		"\xff\xfe",
		"\xc0\xaf",
		"\xed\xa0\x80",
		"\xe2\x82",
		"\xf4\x90\x80\x80", /* past U+10FFFF */
		"a!b",
		"cost $5",
		NULL,
	};
	struct sq_err err;
	size_t i;

	(void)state;
	for (i = 0; bad[i] != NULL; i++) {
		sq_err_clear(&err);
		assert_int_equal(sq_valid_text(bad[i], &err), -1);
		assert_int_equal(err.code, SQ_ERR_DENIED);
	}
	fill_big();
	assert_int_equal(sq_valid_text(big, &err), -1);
	big[1024] = '\0';
	assert_int_equal(sq_valid_text(big, &err), 0);
	/* ordinary reasons pass, UTF-8 included; ; and | are inert once
	 * quoted (see the round trip below) */
	assert_int_equal(sq_valid_text("disk replaced; rebooting", &err), 0);
	assert_int_equal(
	    sq_valid_text("GPU 3 f\xc3\xbcr Wartung | ticket 42", &err), 0);
	assert_int_equal(sq_valid_text("", &err), 0);
}

static void
test_good_values_pass(void **state)
{
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_valid_name("physics", &err), 0);
	assert_int_equal(sq_valid_name("gpu-a100.x_1", &err), 0);
	assert_int_equal(sq_valid_name("_svc", &err), 0);
	assert_int_equal(sq_valid_name(".hidden", &err), -1);
	assert_int_equal(sq_valid_name("-rf", &err), -1);
	assert_int_equal(sq_valid_name("caf\xc3\xa9", &err), -1);
	assert_int_equal(sq_valid_nodelist("n[1-4],gpu01", &err), 0);
	assert_int_equal(sq_valid_tres("cpu=8,gres/gpu:a100=2,mem=4G", &err),
			 0);
	assert_int_equal(sq_valid_tres("-1", &err), 0);
	assert_int_equal(sq_valid_tres("cpu=-1", &err), 0);
	assert_int_equal(sq_valid_tres("cpu=8,", &err), -1);
	assert_int_equal(sq_valid_tres("cpu=8,,mem=1", &err), -1);
	assert_int_equal(sq_valid_tres("cpu=8,mem", &err), -1);
	assert_int_equal(sq_valid_tres("cpu=", &err), -1);
	assert_int_equal(sq_valid_tres("=8", &err), -1);
	assert_int_equal(sq_valid_number("1000", &err), 0);
	assert_int_equal(sq_valid_duration("1-00:00:00", &err), 0);
	assert_int_equal(sq_valid_duration("UNLIMITED", &err), 0);
	assert_int_equal(sq_valid_path("/usr/bin", &err), 0);
	assert_int_equal(sq_valid_path("/opt/slurm-24.11/bin/", &err), 0);
	assert_int_equal(sq_valid_path("usr/bin", &err), -1);
	assert_int_equal(sq_valid_path("/opt/../bin", &err), -1);
	assert_int_equal(sq_valid_path("/opt/..", &err), -1);
	assert_int_equal(sq_valid_path("/opt/..x", &err), 0);
}

static void
test_jobid_canonical(void **state)
{
	static const char *const cases[][2] = {
		{ "123", "123" },
		{ "000123", "123" },
		{ "123_4", "123_4" },
		{ "123_007", "123_7" },
		{ "123_[1-5]", "123_[1-5]" },
		{ "123_[01-05]", "123_[1-5]" },
		{ "123+1", "123+1" },
		{ "123+01", "123+1" },
		{ "4294967294", "4294967294" },
	};
	struct sq_err err;
	char out[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(out, 'X', sizeof(out));
		assert_int_equal(
		    sq_valid_jobid(cases[i][0], out, sizeof(out), &err), 0);
		assert_string_equal(out, cases[i][1]);
	}
	/* no room for the canonical form: refused, not cut */
	assert_int_equal(sq_valid_jobid("123456", out, 4, &err), -1);
}

static void
test_jobid_rejects(void **state)
{
	static const char *const bad[] = {
		"0",
		"-1",
		"+1",
		" 123",
		"123 ",
		"123;id",
		"123_",
		"123_[5-1]",
		"123_[1-5",
		"123_[1,3]",
		"1e3",
		"0x10",
		"4294967295",
		"99999999999999999999",
		"123_-1",
		"123+",
		"123+1001",
		"123\n",
		"\xef\xbc\x91",
		"123_[1-5]x",
		"123_4_5",
		"12 3",
		NULL,
	};
	struct sq_err err;
	char out[64];
	size_t i;

	(void)state;
	for (i = 0; bad[i] != NULL; i++) {
		strcpy(out, "untouched");
		assert_int_equal(sq_valid_jobid(bad[i], out, sizeof(out), &err),
				 -1);
		assert_int_equal(err.code, SQ_ERR_DENIED);
	}
	assert_int_equal(sq_valid_jobid(NULL, out, sizeof(out), &err), -1);
}

static void
test_join_layout(void **state)
{
	const char *const argv[] = { "squeue", "-h", "-O",
				     "JobID:|,Name:", NULL };
	static const char *const must_unset[] = {
		"SQUEUE_FORMAT", "SQUEUE_FORMAT2",
		"SINFO_FORMAT",  "SPRIO_FORMAT",
		"SACCT_FORMAT",  "SSHARE_FORMAT",
		"SQUEUE_SORT",   "SQUEUE_USERS",
		"SQUEUE_STATES", NULL,
	};
	/* squeue's times are all epoch: TZ=UTC0 spares glibc a stat of
	 * /etc/localtime per time printed (sq_shell_utc) */
	const char *tail = " LC_ALL=C SLURM_TIME_FORMAT=%s TZ=UTC0 'squeue' "
			   "'-h' '-O' 'JobID:|,Name:'";
	struct sq_buf b;
	const char *s;
	char pat[64];
	size_t i;

	(void)state;
	sq_buf_init(&b, 0);
	assert_int_equal(sq_shell_join(&b, NULL, argv), 0);
	s = sq_buf_str(&b);
	assert_memory_equal(s, "env -u ", 7);
	for (i = 0; must_unset[i] != NULL; i++) {
		snprintf(pat, sizeof(pat), " -u %s ", must_unset[i]);
		assert_non_null(strstr(s, pat));
	}
	assert_true(strlen(s) > strlen(tail));
	assert_string_equal(s + strlen(s) - strlen(tail), tail);

	/* an absolute bin dir prefixes the command, trailing '/' or not */
	sq_buf_reset(&b);
	assert_int_equal(sq_shell_join(&b, "/opt/slurm/bin/", argv), 0);
	assert_non_null(
	    strstr(sq_buf_str(&b), "%s TZ=UTC0 '/opt/slurm/bin/squeue' "));
	/* a template's absolute command stays as it is */
	sq_buf_reset(&b);
	{
		const char *const abs[] = { "/usr/bin/tail", "-n", "10", NULL };

		assert_int_equal(sq_shell_join(&b, "/opt/slurm/bin", abs), 0);
		assert_non_null(strstr(sq_buf_str(&b), "%s '/usr/bin/tail' "));
	}
	sq_buf_reset(&b);
	assert_int_equal(sq_shell_join(&b, "", argv), 0);
	assert_non_null(strstr(sq_buf_str(&b), "%s TZ=UTC0 'squeue' "));
	/* only squeue: other commands print local times too (sdiag) */
	sq_buf_reset(&b);
	{
		const char *const sinfo[] = { "sinfo", "-h", NULL };

		assert_int_equal(sq_shell_join(&b, NULL, sinfo), 0);
		assert_null(strstr(sq_buf_str(&b), "TZ="));
	}
	assert_true(sq_shell_utc("/usr/bin/squeue"));
	assert_false(sq_shell_utc("sdiag"));
	assert_false(sq_shell_utc("squeue2"));
	sq_buf_free(&b);
}

static void
test_join_refuses(void **state)
{
	static const char *const bad_args[] = {
		"a'b",          "a\nb",  "\x1b[2J", "a\xc2\x9b", "\xff",
		"\xed\xa0\x80", "a\x7f", "a!b",     "a\\b",      NULL,
	};
	static const char *const bad_cmds[] = {
		"/bin/s h", "/opt/../bin/sh", "bin/sh", "sh;id",
		"sq ueue",  "$(id)",          "-c",     "",
		NULL,
	};
	static const char *const bad_dirs[] = {
		"bin",       "/opt/../bin", "/opt/bin;id", "/opt/$(id)",
		"/opt/b'in", "/opt/bin\n",  NULL,
	};
	struct sq_buf b;
	size_t i;

	(void)state;
	sq_buf_init(&b, 0);
	sq_buf_append(&b, "KEEP", 4);
	for (i = 0; bad_args[i] != NULL; i++) {
		const char *argv[] = { "scontrol", "update", bad_args[i],
				       NULL };

		assert_int_equal(sq_shell_join(&b, NULL, argv), -1);
		assert_string_equal(sq_buf_str(&b), "KEEP");
		assert_int_equal(sq_shell_quote(&b, bad_args[i]), -1);
	}
	for (i = 0; bad_cmds[i] != NULL; i++) {
		const char *argv[] = { bad_cmds[i], "-h", NULL };

		assert_int_equal(sq_shell_join(&b, NULL, argv), -1);
		assert_string_equal(sq_buf_str(&b), "KEEP");
	}
	for (i = 0; bad_dirs[i] != NULL; i++) {
		const char *argv[] = { "squeue", NULL };

		assert_int_equal(sq_shell_join(&b, bad_dirs[i], argv), -1);
		assert_string_equal(sq_buf_str(&b), "KEEP");
	}
	{
		const char *argv[] = { NULL };

		assert_int_equal(sq_shell_join(&b, NULL, argv), -1);
	}
	sq_buf_free(&b);
}

/* Run a joined line with /bin/sh (what sshd does with it) and read back
 * its stdout. */
static char *
run_sh(const char *line)
{
	struct sq_buf out;
	char chunk[4096];
	size_t n;
	FILE *fp = popen(line, "r");

	assert_non_null(fp);
	sq_buf_init(&out, 0);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		sq_buf_append(&out, chunk, n);
	assert_int_equal(pclose(fp), 0);
	if (out.data == NULL)
		sq_buf_append(&out, "", 0);
	return out.data;
}

static void
test_join_round_trip_is_inert(void **state)
{
	char canary[40], sub[64], tick[64];
	const char *vals[] = {
		NULL, /* $(touch canary), filled below */
		NULL, /* `touch canary` */
		"a;b",   "a|b", "a && b", "*",    "~",      "#x",
		"{a,b}", ">x",  "\"q\"",  "%s%n", "a  b  ", "f\xc3\xbcr",
		"$HOME", "-n",  "--",     "",
	};
	const char *argv[2 + sizeof(vals) / sizeof(vals[0]) + 1];
	struct sq_buf b, want;
	size_t i, n = sizeof(vals) / sizeof(vals[0]);
	char *got;

	(void)state;
	snprintf(canary, sizeof(canary), "/tmp/sq-canary-%ld", (long)getpid());
	unlink(canary);
	snprintf(sub, sizeof(sub), "$(touch %s)", canary);
	vals[0] = sub;
	snprintf(tick, sizeof(tick), "`touch %s`", canary);
	vals[1] = tick;
	argv[0] = "printf";
	argv[1] = "[%s]"; /* no backslash: refused, as csh and fish see it */
	sq_buf_init(&want, 0);
	for (i = 0; i < n; i++) {
		argv[2 + i] = vals[i];
		sq_buf_printf(&want, "[%s]", vals[i]);
	}
	argv[2 + n] = NULL;
	sq_buf_init(&b, 0);
	assert_int_equal(sq_shell_join(&b, NULL, argv), 0);
	got = run_sh(sq_buf_str(&b));
	assert_string_equal(got, sq_buf_str(&want));
	assert_int_equal(access(canary, F_OK), -1);
	free(got);
	sq_buf_free(&b);
	sq_buf_free(&want);
}

static void
test_join_drops_user_formats(void **state)
{
	/* what a user's profile may set to change what the commands print */
	static const char *const user_vars[] = {
		"SQUEUE_FORMAT", "SQUEUE_FORMAT2",
		"SQUEUE_SORT",   "SQUEUE_USERS",
		"SQUEUE_STATES", "SQUEUE_PARTITION",
		"SINFO_FORMAT",  "SINFO_SORT",
		"SPRIO_FORMAT",  "SACCT_FORMAT",
		"SSHARE_FORMAT", "SCONTROL_ALL",
		"SLURM_JWT",     NULL,
	};
	const char *const argv[] = { "printenv", NULL };
	struct sq_buf b;
	size_t i;
	char *got, pat[64];

	(void)state;
	for (i = 0; user_vars[i] != NULL; i++)
		setenv(user_vars[i], "%i %hostile", 1);
	setenv("LC_ALL", "de_DE.UTF-8", 1);
	setenv("SLURM_TIME_FORMAT", "relative", 1);
	setenv("SLURM_CONF", "/etc/slurm/other.conf", 1);
	sq_buf_init(&b, 0);
	assert_int_equal(sq_shell_join(&b, NULL, argv), 0);
	got = run_sh(sq_buf_str(&b));
	for (i = 0; user_vars[i] != NULL; i++) {
		snprintf(pat, sizeof(pat), "%s=", user_vars[i]);
		if (strncmp(got, pat, strlen(pat)) == 0)
			fail_msg("%s reached the command", user_vars[i]);
		snprintf(pat, sizeof(pat), "\n%s=", user_vars[i]);
		if (strstr(got, pat) != NULL)
			fail_msg("%s reached the command", user_vars[i]);
	}
	assert_non_null(strstr(got, "LC_ALL=C\n"));
	assert_non_null(strstr(got, "SLURM_TIME_FORMAT=%s\n"));
	/* SLURM_CONF names the cluster the admin means: kept */
	assert_non_null(strstr(got, "SLURM_CONF=/etc/slurm/other.conf\n"));
	free(got);
	sq_buf_free(&b);
}

/* The local transport: squeue (all its times epoch) runs with TZ=UTC0
 * whatever TZ squall has; any other command keeps squall's TZ. */
static void
test_local_tz(void **state)
{
	static const char *const cmds[] = { "squeue", "sinfo" };
	static const char *const want[] = { "UTC0\n", "Europe/Paris\n" };
	char dir[] = "/tmp/sqtest-tz.XXXXXX", path[160];
	void *tr;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("TZ", "Europe/Paris", 1);
	tr = sq_transport_local_new(dir, 5);
	assert_non_null(tr);
	for (i = 0; i < 2; i++) {
		const char *const argv[] = { cmds[i], NULL };
		struct sq_buf out, errout;
		struct sq_err err;
		int status = -1;
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s", dir, cmds[i]);
		fp = fopen(path, "w");
		assert_non_null(fp);
		fputs("#!/bin/sh\nprintenv TZ\n", fp);
		fclose(fp);
		assert_int_equal(chmod(path, 0700), 0);
		sq_buf_init(&out, 4096);
		sq_buf_init(&errout, 4096);
		assert_int_equal(sq_transport_local.run(tr, argv, &out, &errout,
							&status, &err),
				 0);
		assert_int_equal(status, 0);
		assert_string_equal(sq_buf_str(&out), want[i]);
		sq_buf_free(&out);
		sq_buf_free(&errout);
		unlink(path);
	}
	sq_transport_local.close(tr);
	unsetenv("TZ");
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict_validators_refuse_all),
		cmocka_unit_test(test_text_refuses_shell_and_terminal_bytes),
		cmocka_unit_test(test_good_values_pass),
		cmocka_unit_test(test_jobid_canonical),
		cmocka_unit_test(test_jobid_rejects),
		cmocka_unit_test(test_join_layout),
		cmocka_unit_test(test_join_refuses),
		cmocka_unit_test(test_join_round_trip_is_inert),
		cmocka_unit_test(test_join_drops_user_formats),
		cmocka_unit_test(test_local_tz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
