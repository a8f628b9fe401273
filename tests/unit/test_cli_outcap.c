/*
 * test_cli_outcap.c - the cap on what one Slurm command may print
 * (backends/cli/cli.c sq_cli_out_limit, `set max-output`): a command
 * printing past it fails with a message naming the setting, and a
 * larger setting reads the whole output (a week of a big site's sacct
 * is over a gigabyte, more than the old fixed 256 MiB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/cli/cli.h"
#include "core/conf/conf.h"
#include "tests/unit/test_util.h"

#define PRINTS 17000000 /* bytes: past 16 MiB, within 32 */

/* sacct in dir: prints PRINTS bytes */
static void
fake_sacct(const char *dir, char *path, size_t n)
{
	FILE *fp;

	snprintf(path, n, "%s/sacct", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "#!/bin/sh\nexec head -c %d /dev/zero\n", PRINTS);
	fclose(fp);
	assert_int_equal(chmod(path, 0755), 0);
}

static int
run_capped(struct sq_cli *cli, struct sq_buf *out, struct sq_err *err)
{
	static const char *const argv[] = { "sacct", NULL };

	sq_buf_init(out, sq_cli_out_limit(cli));
	sq_err_clear(err);
	return sq_cli_run(cli, argv, out, err);
}

static void
test_cap_follows_max_output(void **state)
{
	char dir[] = "/tmp/sqtest-cap.XXXXXX", path[160];
	struct sq_backend b;
	struct sq_cli cli;
	struct sq_buf out;
	struct sq_err err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fake_sacct(dir, path, sizeof(path));
	memset(&b, 0, sizeof(b));
	memset(&cli, 0, sizeof(cli));
	cli.b = &b;
	cli.tr = &sq_transport_local;
	cli.tr_ctx = sq_transport_local_new(dir, 30);
	assert_non_null(cli.tr_ctx);

	/* 16 MiB: stopped, and the message says what raises it */
	b.cfg.max_output = 16;
	assert_int_equal(sq_cli_out_limit(&cli), (size_t)16 * 1024 * 1024);
	assert_int_equal(run_capped(&cli, &out, &err), -1);
	assert_non_null(strstr(err.msg, "printed more than 16777216 bytes"));
	assert_non_null(strstr(err.msg, "max-output"));
	sq_buf_free(&out);

	/* 32 MiB: the whole output */
	b.cfg.max_output = 32;
	assert_int_equal(run_capped(&cli, &out, &err), 0);
	assert_int_equal(out.len, PRINTS);
	sq_buf_free(&out);

	/* no backend, or none set: the built-in cap */
	b.cfg.max_output = 0;
	assert_int_equal(sq_cli_out_limit(&cli), SQ_CLI_OUT_LIMIT);
	assert_int_equal(sq_cli_out_limit(NULL), SQ_CLI_OUT_LIMIT);

	sq_transport_local.close(cli.tr_ctx);
	unlink(path);
	rmdir(dir);
}

/* `set max-output` reaches the cluster's settings, a cluster's own
 * max-output wins, and the range is enforced */
static void
test_setting_resolves(void **state)
{
	struct sq_conf c;
	struct sq_cluster_cfg cmd, out;
	struct sq_err err;

	(void)state;
	sq_conf_init(&c);
	sq_cluster_defaults(&cmd);
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_int_equal(out.max_output, SQ_MAX_OUTPUT_DEFAULT);
	assert_int_equal(sq_conf_exec(&c, "set max-output 2048", "f", 1, &err),
			 0);
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_int_equal(out.max_output, 2048);
	assert_int_equal(sq_conf_exec(&c, "set max-output 8", "f", 1, &err),
			 -1);
	assert_int_equal(
	    sq_conf_exec(&c, "cluster big backend=local max-output=8192", "f",
			 1, &err),
	    0);
	strcpy(cmd.name, "big");
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_int_equal(out.max_output, 8192);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap_follows_max_output),
		cmocka_unit_test(test_setting_resolves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
