/*
 * test_dbd.c - slurmdbd's statistics and problems: `sacctmgr show stats`
 * and `sacctmgr show problem` recorded on the 22.05, 24.11 and 26.05
 * testbeds (tests/fixtures/dbd, see its README), slurmrestd's GET
 * /slurmdb/vN/diag recorded from v0.0.38 to v0.0.45 (the same rows), the
 * degenerate inputs, and the diag view's times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/model/model_admin.h"
#include "core/model/view.h"
#include "tests/unit/test_util.h"

static const char *const releases[] = { "22.05", "24.11", "26.05" };

static const struct sq_kv *
kv(const struct sq_snapshot *s, const char *section, const char *key)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_kv *r = sq_snapshot_row(s, i);

		if (strcmp(r->section, section) == 0 &&
		    strcmp(r->key, key) == 0)
			return r;
	}
	return NULL;
}

static size_t
count(const struct sq_snapshot *s, const char *section)
{
	size_t i, n = 0;

	for (i = 0; i < s->nrows; i++)
		n += strcmp(
			 ((const struct sq_kv *)sq_snapshot_row(s, i))->section,
			 section) == 0;
	return n;
}

static struct sq_snapshot *
stats(const char *literal, const char *rel, int expect_rc)
{
	return sq_test_cli_parse(SQ_KIND_DBD, sq_parse_dbd_stats, rel, literal,
				 expect_rc);
}

/* every RPC line of the recording is a row with sacctmgr's figures */
static void
rpc_rows_match(const struct sq_snapshot *s, const char *rel)
{
	char *text = sq_test_fixture(rel, NULL), *line, *pos = text;
	size_t types = 0, users = 0;
	int by_user = 0;

	assert_non_null(text);
	while ((line = strsep(&pos, "\n")) != NULL) {
		char name[64], want[128];
		long long c, a, t;
		char *p = strchr(line, '(');

		if (strstr(line, "statistics by user") != NULL)
			by_user = 1;
		if (p == NULL || line[0] != '\t' ||
		    sscanf(strchr(p, ')') + 1,
			   " count:%lld ave_time:%lld total_time:%lld", &c, &a,
			   &t) != 3)
			continue;
		*p = '\0';
		sscanf(line, " %63s", name);
		snprintf(want, sizeof(want),
			 "count=%lld ave_time=%lld total_time=%lld", c, a, t);
		const struct sq_kv *r =
		    kv(s, by_user ? "dbd_user" : "dbd_type", name);
		if (r == NULL)
			fail_msg("%s: no row for %s", rel, name);
		assert_string_equal(r->value, want);
		by_user ? users++ : types++;
	}
	assert_int_equal(count(s, "dbd_type"), types);
	assert_int_equal(count(s, "dbd_user"), users);
	assert_true(types > 10);
	assert_true(users >= 3);
	free(text);
}

static void
test_stats_recorded(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		char rel[64];
		struct sq_snapshot *s;

		snprintf(rel, sizeof(rel), "dbd/%s/stats.txt", releases[i]);
		s = stats(NULL, rel, 0);
		assert_non_null(kv(s, "dbd", "stats output at"));
		assert_non_null(kv(s, "dbd", "Data since"));
		assert_non_null(kv(s, "dbd", "Internal DBD rollup: last ran"));
		assert_non_null(
		    kv(s, "dbd", "User RPC rollup call: Max cycle"));
		assert_non_null(kv(s, "dbd", "testbed Hour rollup: last ran"));
		assert_non_null(
		    kv(s, "dbd", "testbed Month rollup: Mean cycle"));
		assert_non_null(kv(s, "dbd_type", "DBD_FINI"));
		assert_non_null(kv(s, "dbd_user", "root"));
		assert_true(strtoll(kv(s, "dbd", "Data since")->value, NULL,
				    10) > 1700000000);
		rpc_rows_match(s, rel);
		sq_snapshot_unref(s);
	}
	/* 22.05's recording: the name longer than its column */
	{
		struct sq_snapshot *s = stats(NULL, "dbd/22.05/stats.txt", 0);

		assert_non_null(kv(s, "dbd_type", "DBD_REMOVE_ACCOUNT_COORDS"));
		assert_string_equal(
		    kv(s, "dbd", "Internal DBD rollup: last ran")->value,
		    "1796551200");
		assert_string_equal(
		    kv(s, "dbd", "testbed Hour rollup: Total cycles")->value,
		    "3");
		sq_snapshot_unref(s);
	}
}

static void
test_stats_degenerate(void **state)
{
	struct sq_snapshot *s;

	(void)state;
	sq_snapshot_unref(stats("", NULL, -1));
	sq_snapshot_unref(stats("\n\n***\n", NULL, -1));
	/* words only, lines without a time or a parenthesis */
	s = stats("Remote Procedure Call statistics by user\n"
		  "\tno parenthesis here\n\t(\n\t( 1)\n"
		  "Day   last ran (x)\n\tLast cycle: 3\n"
		  "Cluster 'unterminated\nHour last ran 1 (12)\n"
		  "\tMax cycle:\n",
		  NULL, 0);
	assert_null(kv(s, "dbd_user", "no"));
	assert_non_null(kv(s, "dbd", "unterminated Hour rollup: last ran"));
	assert_string_equal(
	    kv(s, "dbd", "unterminated Hour rollup: Max cycle")->value, "");
	sq_snapshot_unref(s);
}

static struct sq_snapshot *
problems(const char *literal, const char *rel, int expect_rc)
{
	return sq_test_cli_parse(SQ_KIND_PROBLEMS, sq_parse_problems, rel,
				 literal, expect_rc);
}

static void
test_problems(void **state)
{
	struct sq_snapshot *s;
	const struct sq_problem *p;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "dbd/%s/problem.txt", releases[i]);
		s = problems(NULL, rel, 0);
		assert_int_equal(s->nrows, 0);
		sq_snapshot_unref(s);
	}
	/* recorded with an account without users and a user without a
	 * uid: the user's row has no cluster and no account */
	s = problems(NULL, "dbd/22.05/problem-rows.txt", 0);
	assert_int_equal(s->nrows, 2);
	p = sq_snapshot_row(s, 0);
	assert_string_equal(p->cluster, "testbed");
	assert_string_equal(p->account, "sqrec-empty");
	assert_string_equal(p->user, "");
	assert_string_equal(p->problem, "Account has no users");
	p = sq_snapshot_row(s, 1);
	assert_string_equal(p->cluster, "");
	assert_string_equal(p->account, "");
	assert_string_equal(p->user, "sqrec-nouid");
	assert_string_equal(p->problem, "User does not have a uid");
	sq_snapshot_unref(s);
	/* a '|' in the problem stays in it; short lines and no problem
	 * are errors */
	s = problems("c|a|u|odd | words\n", NULL, 0);
	assert_string_equal(
	    ((const struct sq_problem *)sq_snapshot_row(s, 0))->problem,
	    "odd | words");
	sq_snapshot_unref(s);
	sq_snapshot_unref(problems("c|a|u\n", NULL, -1));
	sq_snapshot_unref(problems("c|a|u|\n", NULL, -1));
	sq_snapshot_unref(problems("\n\n", NULL, 0));
}

static struct sq_snapshot *
rest(const char *rel)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_DBD, 0);
	struct sq_sj_info info;
	struct sq_err err;
	size_t len;
	char *body = sq_test_fixture(rel, &len);

	assert_non_null(s);
	assert_non_null(body);
	sq_err_clear(&err);
	if (sq_slurmjson_parse(SQ_KIND_DBD, body, len, time(NULL), s, &info,
			       &err) != 0)
		fail_msg("%s: %s", rel, err.msg);
	free(body);
	return s;
}

static void
test_rest(void **state)
{
	static const char *const rels[] = {
		"rest/v0.0.38/slurmdb_diag.json",
		"live/slurm-24.11/rest/v0.0.40/slurmdb_diag.json",
		"live/slurm-24.11/rest/v0.0.41/slurmdb_diag.json",
		"live/slurm-24.11/rest/v0.0.42/slurmdb_diag.json",
		"live/slurm-26.05/rest/v0.0.43/slurmdb_diag.json",
		"live/slurm-26.05/rest/v0.0.45/slurmdb_diag.json",
	};
	struct sq_snapshot *s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		s = rest(rels[i]);
		assert_non_null(kv(s, "dbd", "Data since"));
		assert_non_null(kv(s, "dbd_type", "DBD_FINI"));
		assert_non_null(kv(s, "dbd_user", "root"));
		assert_non_null(
		    strstr(kv(s, "dbd_user", "root")->value, "ave_time="));
		sq_snapshot_unref(s);
	}
	/* v0.0.38: the rollups' list; v0.0.41+: hourly/daily/monthly */
	s = rest("rest/v0.0.38/slurmdb_diag.json");
	assert_string_equal(
	    kv(s, "dbd", "Internal DBD rollup: Mean cycle")->value, "35");
	assert_string_equal(kv(s, "dbd_user", "root")->value,
			    "count=1977 ave_time=1047 total_time=2071520");
	sq_snapshot_unref(s);
	s = rest("live/slurm-26.05/rest/v0.0.45/slurmdb_diag.json");
	/* "hourly" is sacctmgr's internal rollup, "daily" its user RPC
	 * one; "monthly" is not printed */
	assert_string_equal(
	    kv(s, "dbd", "Internal DBD rollup: last ran")->value, "1796194800");
	assert_string_equal(
	    kv(s, "dbd", "Internal DBD rollup: Total cycles")->value, "2");
	assert_string_equal(
	    kv(s, "dbd", "Internal DBD rollup: Mean cycle")->value, "45681");
	assert_string_equal(
	    kv(s, "dbd", "User RPC rollup call: last ran")->value, "never");
	assert_null(kv(s, "dbd", "Month rollup: last ran"));
	sq_snapshot_unref(s);
}

/* a uid without a user name (uid 4242, no passwd entry, made one
 * slurmdbd RPC on the 22.05 testbed): sacctmgr prints "nobody (4242)",
 * slurmrestd "user": null; rpc-users names such a uid from sdiag by its
 * number, so does the CLI's dbd_user; REST has no uid: one row saying so */
static void
test_unnamed_user(void **state)
{
	struct sq_snapshot *s;

	(void)state;
	s = stats(NULL, "dbd/22.05/stats-unnamed.txt", 0);
	assert_string_equal(kv(s, "dbd_user", "4242")->value,
			    "count=3 ave_time=217 total_time=653");
	assert_null(kv(s, "dbd_user", "nobody"));
	assert_non_null(kv(s, "dbd_user", "root"));
	sq_snapshot_unref(s);
	/* nobody itself (65534) keeps its name */
	s = stats("Remote Procedure Call statistics by user\n"
		  "\tnobody              (     65534) count:1 ave_time:2 "
		  "total_time:2\n"
		  "\tnobodyelse          (      4243) count:1 ave_time:2 "
		  "total_time:2\n",
		  NULL, 0);
	assert_non_null(kv(s, "dbd_user", "nobody"));
	assert_non_null(kv(s, "dbd_user", "nobodyelse"));
	assert_null(kv(s, "dbd_user", "4243"));
	sq_snapshot_unref(s);
	s = rest("dbd/22.05/slurmdb_diag-unnamed.json");
	assert_string_equal(kv(s, "dbd_user", "(no user name)")->value,
			    "count=3 ave_time=217 total_time=653");
	assert_non_null(kv(s, "dbd_user", "root"));
	assert_int_equal(count(s, "dbd_user"), 5);
	sq_snapshot_unref(s);
}

/* the diag view shows slurmdbd's moments as times */
static void
test_view_times(void **state)
{
	const struct sq_view_def *v = sq_view_find("diag");
	struct sq_kv r = { "dbd", "testbed Hour rollup: last ran",
			   "1796551200" };
	char buf[64];
	const char *got;

	(void)state;
	assert_non_null(v);
	got = v->cols[2].text(&r, buf, sizeof(buf));
	assert_non_null(got);
	assert_non_null(strchr(got, 'T'));
	r.key = "testbed Hour rollup: Last cycle";
	got = v->cols[2].text(&r, buf, sizeof(buf));
	assert_string_equal(got, "1796551200");
	r.key = "Day rollup: last ran";
	r.value = "never";
	assert_string_equal(v->cols[2].text(&r, buf, sizeof(buf)), "never");
	assert_non_null(sq_view_find("problems"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_recorded),
		cmocka_unit_test(test_stats_degenerate),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_rest),
		cmocka_unit_test(test_unnamed_user),
		cmocka_unit_test(test_view_times),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
