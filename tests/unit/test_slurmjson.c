/*
 * test_slurmjson.c - the envelope of a Slurm JSON answer
 * (backends/slurmjson/slurmjson.c): errors[] of the recorded v0.0.38 and
 * v0.0.40-42 answers (garbage token, unknown job, 401 as text), the
 * update_time answer with nothing changed (recorded from 24.11 and
 * 26.05), and hostile bodies (every truncation, bytes overwritten at
 * random, malformed, wrong types, a nesting bomb) that must fail cleanly.
 * The mappers have their own files: test_sj_ctld.c, test_sj_ctld_2605.c,
 * test_sj_admin.c, test_sj_ctld_admin.c, test_sj_diag.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/slurmjson.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

/* 24.11+ answer an update_time with nothing changed by an empty list,
 * "last_update": 0 and a warning (recorded from both live testbeds,
 * tests/fixtures/live/README.md); the same empty list with a
 * last_update of its own is a queue that became empty. */
static void
test_update_time_unchanged(void **state)
{
	static const char *const rels[] = {
		"live/slurm-24.11/rest/v0.0.42/slurm_jobs_unchanged.json",
		LIVE_2605 "rest/v0.0.45/slurm_jobs_unchanged.json",
	};
	static const char emptied[] =
	    "{\"jobs\":[],\"last_update\":{\"set\":true,\"infinite\":false,"
	    "\"number\":1796209146},\"warnings\":[{\"description\":\"x\"}],"
	    "\"errors\":[]}";
	struct sq_sj_info info;
	struct sq_snapshot *s;
	struct sq_err e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		s = sq_test_sj_parse(SQ_KIND_JOBS, rels[i], &info);
		assert_int_equal(info.unchanged, 1);
		assert_int_equal(s->nrows, 0);
		assert_non_null(strstr(info.warning, "No job changes"));
		sq_snapshot_unref(s);
	}
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	sq_err_clear(&e);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, emptied,
					    sizeof(emptied) - 1, NOW_2411, s,
					    &info, &e),
			 0);
	assert_int_equal(info.unchanged, 0);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
}

/* errors[] is checked whatever the HTTP status was. */
static void
test_v38_errors(void **state)
{
	size_t len;
	char *b;
	struct sq_err e;

	(void)state;
	b = sq_test_fixture("rest/v0.0.38/err_jobs_garbage_token.json", &len);
	e = sq_test_sj_fail(SQ_KIND_JOBS, b, len);
	assert_int_equal(e.code, SQ_ERR_COMMAND);
	assert_non_null(strstr(e.msg, "Unspecified error"));
	assert_non_null(strstr(e.msg, "error -1"));
	free(b);
	b = sq_test_fixture("rest/v0.0.38/err_qos_garbage_token.json", &len);
	assert_int_equal(sq_slurmjson_check(b, len, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "Protocol authentication error"));
	free(b);
	b = sq_test_fixture("rest/v0.0.38/err_job_999999.json", &len);
	e = sq_test_sj_fail(SQ_KIND_JOBS, b, len);
	assert_non_null(strstr(e.msg, "2017"));
	free(b);
	/* 401 comes as text/plain */
	b = sq_test_fixture("rest/v0.0.38/err_jobs_no_auth.txt", &len);
	e = sq_test_sj_fail(SQ_KIND_JOBS, b, len);
	assert_int_equal(e.code, SQ_ERR_PARSE);
	free(b);
}

static void
test_v4x_errors(void **state)
{
	static const char *const vers[] = { "v0.0.40", "v0.0.41", "v0.0.42",
					    NULL };
	int i;

	(void)state;
	for (i = 0; vers[i] != NULL; i++) {
		char rel[128], *b;
		size_t len;
		struct sq_err e;

		snprintf(rel, sizeof(rel),
			 "rest/%s/err_07_get_jobs_garbage_token.json", vers[i]);
		b = sq_test_fixture(rel, &len);
		e = sq_test_sj_fail(SQ_KIND_JOBS, b, len);
		assert_int_equal(e.code, SQ_ERR_COMMAND);
		assert_non_null(strstr(e.msg, "Protocol authentication error"));
		assert_non_null(strstr(e.msg, "1007"));
		free(b);
		snprintf(rel, sizeof(rel), "rest/%s/err_01_get_job_999999.json",
			 vers[i]);
		b = sq_test_fixture(rel, &len);
		e = sq_test_sj_fail(SQ_KIND_JOBS, b, len);
		assert_non_null(strstr(e.msg, "Invalid job id"));
		free(b);
	}
}

/* Every prefix cut before the closing brace must fail, never crash. */
static void
cut_everywhere(enum sq_kind kind, const char *rel)
{
	size_t len, last, k, step;
	char *b = sq_test_fixture(rel, &len);

	last = len;
	while (last > 0 && b[last - 1] != '}')
		last--;
	assert_true(last > 1);
	step = last / 61 + 1;
	for (k = 0; k < last - 1; k += step)
		(void)sq_test_sj_fail(kind, b, k ? k : 1);
	(void)sq_test_sj_fail(kind, b, last - 1);
	free(b);
}

static void
test_truncated(void **state)
{
	(void)state;
	cut_everywhere(SQ_KIND_JOBS, "rest/v0.0.38/slurm_jobs.json");
	cut_everywhere(SQ_KIND_NODES, "rest/v0.0.38/slurm_nodes.json");
	cut_everywhere(SQ_KIND_PARTITIONS,
		       "rest/v0.0.38/slurm_partitions.json");
	cut_everywhere(SQ_KIND_DIAG, "rest/v0.0.38/slurm_diag.json");
	cut_everywhere(SQ_KIND_JOBS, "rest/v0.0.42/slurm_jobs.json");
	cut_everywhere(SQ_KIND_NODES, "rest/v0.0.42/slurm_nodes.json");
}

/* Bytes overwritten at pseudo-random places: any result is fine as long
 * as it is a clean one (0 with readable rows, or -1 with a message). */
static void
test_corrupted(void **state)
{
	static const char junk[] = "\"{}[],:\\\x01\xff 0-9eE";
	static const char *const files[] = { "rest/v0.0.38/slurm_jobs.json",
					     "rest/v0.0.42/slurm_jobs.json",
					     "rest/v0.0.42/slurm_nodes.json",
					     NULL };
	unsigned seed = 12345;
	int f, round;

	(void)state;
	for (f = 0; files[f] != NULL; f++) {
		size_t len;
		char *orig = sq_test_fixture(files[f], &len);
		char *b = malloc(len + 1);
		enum sq_kind kind =
		    strstr(files[f], "nodes") ? SQ_KIND_NODES : SQ_KIND_JOBS;

		assert_non_null(b);
		for (round = 0; round < 40; round++) {
			struct sq_snapshot *s = sq_snapshot_new(kind, 0);
			struct sq_err err;
			size_t i, hits = 1 + round % 5;
			int rc;

			memcpy(b, orig, len + 1);
			for (i = 0; i < hits; i++) {
				seed = seed * 1103515245u + 12345u;
				b[(seed >> 8) % len] =
				    junk[(seed >> 4) % (sizeof(junk) - 1)];
			}
			sq_err_clear(&err);
			rc = sq_slurmjson_parse(kind, b, len, NOW_2411, s, NULL,
						&err);
			if (rc == -1) {
				assert_true(err.msg[0] != '\0');
			} else {
				for (i = 0; i < s->nrows; i++) {
					if (kind == SQ_KIND_JOBS) {
						const struct sq_job *j =
						    sq_snapshot_row(s, i);
						assert_non_null(j->id);
						assert_non_null(j->state);
						assert_non_null(j->name);
					} else {
						const struct sq_node *n =
						    sq_snapshot_row(s, i);
						assert_non_null(n->state);
						assert_non_null(n->partitions);
					}
				}
			}
			sq_snapshot_unref(s);
		}
		free(b);
		free(orig);
	}
}

static void
test_malformed(void **state)
{
	struct sq_snapshot *s;
	struct sq_sj_info info;
	struct sq_err e;
	char *deep;
	const struct sq_job *j;
	static const char wrong_types[] =
	    "{\"jobs\":[{\"job_id\":5,\"job_state\":{\"a\":1},"
	    "\"name\":[1,{\"x\":2}],\"time_limit\":\"zz\","
	    "\"array_job_id\":{\"set\":true,\"number\":{\"n\":1}},"
	    "\"priority\":1e300,\"nodes\":null,\"user_name\":7,"
	    "\"array_task_string\":[\"x\"],\"cpus\":-3}]}";
	static const char warn_only[] =
	    "{\"meta\":{},\"errors\":[],\"warnings\":[{\"description\":"
	    "\"No job changes since update_time\",\"source\":\"x\"}]}";
	static const char err_200[] =
	    "{\"jobs\":[],\"errors\":[{\"description\":\"boom\","
	    "\"error_number\":42,\"error\":\"Bad thing\"}]}";
	size_t n = 100000;

	(void)state;
	e = sq_test_sj_fail(SQ_KIND_JOBS, NULL, 0);
	e = sq_test_sj_fail(SQ_KIND_JOBS, "", 0);
	e = sq_test_sj_fail(SQ_KIND_JOBS, "[]", 2);
	assert_non_null(strstr(e.msg, "not an object"));
	e = sq_test_sj_fail(SQ_KIND_JOBS, "\"x\"", 3);
	e = sq_test_sj_fail(SQ_KIND_JOBS, "{\"jobs\":5}", 10);
	assert_non_null(strstr(e.msg, "'jobs'"));
	e = sq_test_sj_fail(SQ_KIND_JOBS, "{\"jobs\":[1,2]}", 14);
	e = sq_test_sj_fail(SQ_KIND_JOBS, "{\"jobs\":[{\"job_id\":\"abc\"}]}",
			    27);
	assert_non_null(strstr(e.msg, "job_id"));
	e = sq_test_sj_fail(SQ_KIND_JOBS, "{\"jobs\":[]} x", 13);
	assert_non_null(strstr(e.msg, "garbage"));
	e = sq_test_sj_fail(SQ_KIND_JOBS, "{\"jobs\":[]}\0xx", 14);
	e = sq_test_sj_fail(SQ_KIND_JOBS, "{\"errors\":\"x\",\"jobs\":[]}", 24);
	e = sq_test_sj_fail(SQ_KIND_NODES, "{\"nodes\":[{\"name\":\"\"}]}", 23);
	e = sq_test_sj_fail(SQ_KIND_JOBS, err_200, sizeof(err_200) - 1);
	assert_int_equal(e.code, SQ_ERR_COMMAND);
	assert_string_equal(e.msg, "boom (Bad thing, error 42)");
	/* a nesting bomb stops at the depth limit */
	deep = malloc(n);
	assert_non_null(deep);
	memset(deep, '[', n);
	e = sq_test_sj_fail(SQ_KIND_JOBS, deep, n);
	free(deep);
	/* wrong types read as "not set" */
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, wrong_types,
					    sizeof(wrong_types) - 1, NOW_2411,
					    s, NULL, &e),
			 0);
	assert_int_equal(s->nrows, 1);
	j = sq_snapshot_row(s, 0);
	assert_string_equal(j->id, "5");
	assert_string_equal(j->state, "");
	assert_string_equal(j->user, "7");
	assert_int_equal(j->time_limit, SQ_NONE);
	assert_int_equal(j->priority, SQ_NONE);
	sq_snapshot_unref(s);
	/* update_time answer without data */
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, warn_only,
					    sizeof(warn_only) - 1, NOW_2411, s,
					    &info, &e),
			 0);
	assert_int_equal(info.unchanged, 1);
	assert_int_equal(info.nwarnings, 1);
	assert_string_equal(info.warning, "No job changes since update_time");
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
	/* a kind without a mapping is refused, not guessed */
	s = sq_snapshot_new(SQ_KIND_PRIO, 0);
	assert_int_equal(
	    sq_slurmjson_parse(SQ_KIND_PRIO, "{}", 2, 0, s, NULL, &e), -1);
	assert_int_equal(e.code, SQ_ERR_UNSUPPORTED);
	sq_snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v38_errors),
		cmocka_unit_test(test_update_time_unchanged),
		cmocka_unit_test(test_v4x_errors),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupted),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
