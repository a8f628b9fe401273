/*
 * test_sj_ctld_admin.c - the admin records slurmctld serves as JSON
 * (backends/slurmjson/sj_ctld_admin.c): reservations of v0.0.38 (22.05)
 * against the CLI parser on `scontrol -o show reservation` recorded
 * beside them, and of v0.0.40-42 (a real 24.11 cluster); the fairshare
 * tree of v0.0.40-42 against `sshare -a -l -P` of the same minute.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/parse.h"
#include "core/model/model_admin.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

/* The reservations of 24.11: the maintenance one of gpu02. */
static void
reservations_2411(const char *ver)
{
	char rel[128];
	struct sq_snapshot *s;
	const struct sq_reservation *r;

	snprintf(rel, sizeof(rel), "rest/%s/slurm_reservations.json", ver);
	s = sq_test_sj_parse(SQ_KIND_RESERVATIONS, rel, NULL);
	assert_int_equal(s->nrows, 2);
	r = sq_test_sj_named(s, "maint-gpu02");
	assert_non_null(r);
	assert_string_equal(r->nodes, "gpu02");
	assert_string_equal(r->flags, "MAINT,IGNORE_JOBS,SPEC_NODES");
	assert_int_equal(r->duration, 7200);
	sq_snapshot_unref(s);
}

/* v0.0.38 against the CLI parser on `scontrol -o show reservation`;
 * v0.0.40-42 of 24.11. */
static void
test_reservations(void **state)
{
	struct sq_snapshot *r = sq_test_sj_parse(
	    SQ_KIND_RESERVATIONS, "rest/v0.0.38/slurm_reservations.json", NULL);
	struct sq_snapshot *c = sq_snapshot_new(SQ_KIND_RESERVATIONS, 0);
	char *txt = sq_test_fixture("rest/v0.0.38/cli_scontrol_res.txt", NULL);
	struct sq_err err;
	size_t i;

	(void)state;
	assert_int_equal(sq_parse_reservations(txt, c, &err), 0);
	assert_int_equal(r->nrows, c->nrows);
	assert_true(c->nrows > 0);
	for (i = 0; i < c->nrows; i++) {
		const struct sq_reservation *x = sq_snapshot_row(c, i);
		const struct sq_reservation *y = sq_test_sj_named(r, x->name);

		assert_non_null(y);
		assert_int_equal(y->start_time, x->start_time);
		assert_int_equal(y->end_time, x->end_time);
		assert_int_equal(y->duration, x->duration);
		assert_string_equal(y->nodes, x->nodes);
		assert_int_equal(y->node_cnt, x->node_cnt);
		assert_int_equal(y->core_cnt, x->core_cnt);
		assert_string_equal(y->flags, x->flags);
		assert_string_equal(y->tres, x->tres);
		assert_string_equal(y->users, x->users);
		assert_string_equal(y->accounts, x->accounts);
		assert_string_equal(y->partition, x->partition);
		/* sq_test_sj_parse's "now" is long before these */
		assert_string_equal(y->state, "INACTIVE");
	}
	free(txt);
	sq_snapshot_unref(r);
	sq_snapshot_unref(c);
	reservations_2411("v0.0.40");
	reservations_2411("v0.0.41");
	reservations_2411("v0.0.42");
}

static void
check_double(double got, const char *want)
{
	double d;

	assert_int_equal(sq_admin_double(want, &d), 0);
	if (isnan(d))
		assert_true(isnan(got));
	else if (isinf(d))
		assert_true(isinf(got));
	else if (fabs(got - d) > 5e-6)
		fail_msg("%f != %s", got, want);
}

/* /shares against `sshare -a -l -P` of the same cluster and minute;
 * v0.0.40/41 write a bare Infinity, v0.0.42 a NO_VAL object. */
static void
shares_2411(const char *rel)
{
	struct sq_snapshot *s = sq_test_sj_parse(SQ_KIND_SHARES, rel, NULL);
	char **l, *f[11];
	int n = sq_test_sj_lines("rest/v0.0.40/sshare_a_l_P.txt", &l), i;

	/* line 0 is the header */
	assert_int_equal(s->nrows, n - 1);
	for (i = 1; i < n; i++) {
		const struct sq_share *r = sq_snapshot_row(s, (size_t)i - 1);
		const char *acct;

		assert_int_equal(sq_split(l[i], '|', f, 11), 11);
		acct = f[0];
		while (*acct == ' ')
			acct++;
		assert_int_equal(r->depth, (int)(acct - f[0]));
		assert_string_equal(r->account, acct);
		assert_string_equal(r->user, f[1]);
		assert_int_equal(r->raw_shares, sq_test_sj_num(f[2]));
		check_double(r->norm_shares, f[3]);
		assert_int_equal(r->raw_usage, sq_test_sj_num(f[4]));
		check_double(r->norm_usage, f[5]);
		check_double(r->effective_usage, f[6]);
		check_double(r->fairshare, f[7]);
		check_double(r->level_fs, f[8]);
		assert_string_equal(r->grp_tres_mins, f[9]);
		assert_string_equal(r->tres_run_mins, f[10]);
	}
	sq_test_sj_lines_free(l, n);
	sq_snapshot_unref(s);
}

static void
test_v4x_shares(void **state)
{
	(void)state;
	shares_2411("rest/v0.0.40/slurm_shares.json");
	shares_2411("rest/v0.0.41/slurm_shares.json");
	shares_2411("rest/v0.0.42/slurm_shares.json");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reservations),
		cmocka_unit_test(test_v4x_shares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
