/*
 * test_fileread.c - unit tests of the local backend's file ops
 * (backends/cli/fileread.c): size and regions of a real file with pread,
 * reads past the end, and what is refused: a relative path, a control
 * character, a FIFO (it would block the worker), a directory.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/cli/fileread.h"
#include "core/base/buf.h"
#include "core/base/err.h"
#include "tests/unit/test_util.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/sq-fileread.XXXXXX");
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_regions(void **state)
{
	char path[128];
	struct sq_buf b;
	struct sq_err err;
	int64_t size = -1;
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/a b $(x).out", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("0123456789\nabcdef\n", fp);
	fclose(fp);
	assert_int_equal(sq_local_file_stat(NULL, path, &size, &err), 0);
	assert_int_equal(size, 18);
	sq_buf_init(&b, 0);
	assert_int_equal(sq_local_file_read(NULL, path, 11, 4, &b, &err), 0);
	assert_string_equal(sq_buf_str(&b), "abcd");
	/* appended, up to the end only */
	assert_int_equal(sq_local_file_read(NULL, path, 15, 100, &b, &err), 0);
	assert_string_equal(sq_buf_str(&b), "abcdef\n");
	sq_buf_reset(&b);
	assert_int_equal(sq_local_file_read(NULL, path, 18, 10, &b, &err), 0);
	assert_int_equal(b.len, 0);
	assert_int_equal(sq_local_file_read(NULL, path, 1000, 10, &b, &err), 0);
	assert_int_equal(b.len, 0);
	sq_buf_free(&b);
}

static void
test_refused(void **state)
{
	char path[128];
	struct sq_buf b;
	struct sq_err err;
	int64_t size;

	(void)state;
	sq_buf_init(&b, 0);
	assert_int_equal(sq_local_file_stat(NULL, "rel/x.out", &size, &err),
			 -1);
	assert_int_equal(sq_local_file_stat(NULL, "/tmp/a\nb", &size, &err),
			 -1);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(sq_local_file_read(NULL, path, 0, 10, &b, &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_int_equal(sq_local_file_stat(NULL, dir, &size, &err), -1);
	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_int_equal(sq_local_file_stat(NULL, path, &size, &err), -1);
	assert_non_null(strstr(err.msg, "No such file"));
	sq_buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
