/*
 * test_util.c - fixture loading, CLI parsing of a fixture, overview rows
 * and action parsing for the unit tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/analysis/overview.h"
#include "core/base/err.h"
#include "core/model/snapshot.h"
#include "tests/unit/test_util.h"

char *
sq_test_fixture(const char *rel, size_t *len)
{
	const char *root = getenv("SQ_FIXTURES");
	char path[1024];
	FILE *fp;
	char *data;
	long n;

	snprintf(path, sizeof(path), "%s/%s", root ? root : "tests/fixtures",
		 rel);
	fp = fopen(path, "rb");
	if (fp == NULL) {
		fail_msg("fixture %s: cannot open", path);
		return NULL;
	}
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	data = malloc((size_t)n + 1);
	assert_non_null(data);
	if (fread(data, 1, (size_t)n, fp) != (size_t)n)
		fail_msg("fixture %s: short read", path);
	data[n] = '\0';
	fclose(fp);
	if (len != NULL)
		*len = (size_t)n;
	return data;
}

void
sq_test_parse(const char *line, int kind, struct sq_action *a)
{
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_action_parse(line, kind, NULL, 0, a, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
}

struct sq_snapshot *
sq_test_cli_parse(int kind,
		  int (*parse)(char *, struct sq_snapshot *, struct sq_err *),
		  const char *rel, const char *literal, int expect_rc)
{
	struct sq_snapshot *s = sq_snapshot_new((enum sq_kind)kind, 0);
	struct sq_err err;
	char *text;
	int rc;

	assert_non_null(s);
	text = rel ? sq_test_fixture(rel, NULL) : strdup(literal);
	assert_non_null(text);
	sq_err_clear(&err);
	rc = parse(text, s, &err);
	if (rc != expect_rc)
		fail_msg("%s: parse rc %d, expected %d (%s)",
			 rel ? rel : "literal", rc, expect_rc, err.msg);
	if (rc == -1)
		assert_true(strlen(err.msg) > 0);
	free(text);
	return s;
}

const struct sq_ov_row *
sq_test_ov_row(const struct sq_snapshot *ov, const char *id)
{
	size_t i;

	for (i = 0; i < ov->nrows; i++) {
		const struct sq_ov_row *r = sq_snapshot_row(ov, i);

		if (strcmp(r->id, id) == 0)
			return r;
	}
	return NULL;
}
