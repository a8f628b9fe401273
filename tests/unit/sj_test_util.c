/*
 * sj_test_util.c - helpers shared by the unit tests of
 * backends/slurmjson (sj_test_util.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/base/parse.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

struct sq_snapshot *
sq_test_sj_parse(enum sq_kind kind, const char *rel, struct sq_sj_info *info)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	struct sq_err err;
	size_t len;
	char *body = sq_test_fixture(rel, &len);
	int rc;

	assert_non_null(s);
	sq_err_clear(&err);
	rc = sq_slurmjson_parse(kind, body, len, NOW_2411, s, info, &err);
	if (rc != 0)
		fail_msg("%s: %s", rel, err.msg);
	free(body);
	return s;
}

/* Expect a parse failure; returns the error for more checks. */
struct sq_err
sq_test_sj_fail(enum sq_kind kind, const char *body, size_t len)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	struct sq_err err;

	sq_err_clear(&err);
	assert_int_equal(
	    sq_slurmjson_parse(kind, body, len, NOW_2411, s, NULL, &err), -1);
	assert_true(err.msg[0] != '\0');
	sq_snapshot_unref(s);
	return err;
}

const void *
sq_test_sj_named(const struct sq_snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const char *const *row = sq_snapshot_row(s, i);

		if (strcmp(*row, name) == 0) /* name is the first member */
			return row;
	}
	return NULL;
}

const void *
sq_test_sj_must(const struct sq_snapshot *s, const char *name)
{
	const void *row = sq_test_sj_named(s, name);

	if (row == NULL)
		fail_msg("%s: no such row", name);
	return row;
}

const struct sq_job *
sq_test_sj_job(const struct sq_snapshot *s, const char *id)
{
	return sq_test_sj_named(s, id); /* the id is a job's first member */
}

const struct sq_node *
sq_test_sj_node(const struct sq_snapshot *s, const char *name)
{
	return sq_test_sj_named(s, name);
}

const struct sq_partition *
sq_test_sj_part(const struct sq_snapshot *s, const char *name)
{
	return sq_test_sj_named(s, name);
}

const struct sq_kv *
sq_test_sj_kv(const struct sq_snapshot *s, const char *sec, const char *key)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(s, i);

		if (strcmp(kv->section, sec) == 0 && strcmp(kv->key, key) == 0)
			return kv;
	}
	return NULL;
}

int64_t
sq_test_sj_num(const char *s)
{
	int64_t v;

	assert_int_equal(sq_parse_int(s, &v), 0);
	return v;
}

int64_t
sq_test_sj_secs(const char *v)
{
	int64_t x;

	assert_int_equal(sq_admin_seconds(v, &x), 0);
	return x;
}

/* Fields of a sacctmgr -P line recorded next to the REST answers. */
int
sq_test_sj_lines(const char *rel, char ***out)
{
	char *txt = sq_test_fixture(rel, NULL);
	char *pos = txt, *line;
	char **v = calloc(256, sizeof(*v));
	int n = 0;

	assert_non_null(v);
	while ((line = sq_next_line(&pos)) != NULL && n < 255) {
		if (*line != '\0')
			v[n++] = strdup(line);
	}
	free(txt);
	*out = v;
	return n;
}

void
sq_test_sj_lines_free(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
sq_test_sj_same_partitions(const struct sq_snapshot *rest,
			   const struct sq_snapshot *cli, int has_default,
			   int has_preempt, int has_state)
{
	size_t i;

	assert_int_equal(rest->nrows, cli->nrows);
	for (i = 0; i < cli->nrows; i++) {
		const struct sq_partition *c = sq_snapshot_row(cli, i);
		const struct sq_partition *r = sq_test_sj_part(rest, c->name);

		assert_non_null(r);
		if (has_default)
			assert_int_equal(r->is_default, c->is_default);
		if (has_preempt)
			assert_string_equal(r->preempt_mode, c->preempt_mode);
		if (has_state)
			assert_string_equal(r->state, c->state);
		assert_string_equal(r->nodelist, c->nodelist);
		assert_int_equal(r->nodes_total, c->nodes_total);
		assert_int_equal(r->cpus_total, c->cpus_total);
		assert_int_equal(r->priority_tier, c->priority_tier);
		assert_int_equal(r->priority_job_factor,
				 c->priority_job_factor);
		assert_int_equal(r->max_time, c->max_time);
		assert_int_equal(r->default_time, c->default_time);
		assert_string_equal(r->qos, c->qos);
		assert_string_equal(r->tres, c->tres);
	}
}
