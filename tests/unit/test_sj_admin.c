/*
 * test_sj_admin.c - slurmdbd's accounting records from JSON
 * (backends/slurmjson/sj_admin.c): the v0.0.38 associations, accounts,
 * users and QOS of the 22.05 testbed against `sacctmgr -P` recorded
 * beside them (tests/fixtures/rest/v0.0.38), the accounts and users
 * joined with their associations, and the seeded limits of a real 24.11
 * cluster through v0.0.40-42.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/slurmjson.h"
#include "core/base/parse.h"
#include "core/model/model_admin.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

/* Same order, depth, limits and QOS as `sacctmgr show assoc tree`. */
static void
test_v38_assocs(void **state)
{
	struct sq_snapshot *s = sq_test_sj_parse(
	    SQ_KIND_ASSOCS, "rest/v0.0.38/slurmdb_associations.json", NULL);
	char **l, *f[17];
	int n = sq_test_sj_lines("rest/v0.0.38/cli_sacctmgr_assoc.txt", &l), i;

	(void)state;
	assert_true(n > 5);
	assert_int_equal(s->nrows, n);
	for (i = 0; i < n; i++) {
		const struct sq_assoc *a = sq_snapshot_row(s, (size_t)i);
		const char *acct;

		assert_int_equal(sq_split(l[i], '|', f, 17), 17);
		acct = f[1];
		while (*acct == ' ')
			acct++;
		assert_string_equal(a->cluster, f[0]);
		assert_int_equal(a->depth, (int)(acct - f[1]));
		assert_string_equal(a->account, acct);
		assert_string_equal(a->user, f[2]);
		assert_string_equal(a->partition, f[3]);
		assert_string_equal(a->parent, f[4]);
		if (strcmp(f[5], "parent") == 0)
			assert_int_equal(a->shares, SQ_INFINITE);
		else
			assert_int_equal(a->shares, sq_test_sj_num(f[5]));
		assert_int_equal(a->priority, sq_test_sj_num(f[6]));
		assert_int_equal(a->grp_jobs, sq_test_sj_num(f[7]));
		assert_int_equal(a->grp_submit, sq_test_sj_num(f[8]));
		assert_string_equal(a->grp_tres, f[9]);
		assert_int_equal(a->grp_wall, sq_test_sj_secs(f[10]));
		assert_int_equal(a->max_jobs, sq_test_sj_num(f[11]));
		assert_int_equal(a->max_submit, sq_test_sj_num(f[12]));
		assert_string_equal(a->max_tres, f[13]);
		assert_int_equal(a->max_wall, sq_test_sj_secs(f[14]));
		assert_string_equal(a->qos, f[15]);
		assert_string_equal(a->default_qos, f[16]);
		assert_int_equal(a->id, SQ_NONE); /* v0.0.38 has no ids */
	}
	sq_test_sj_lines_free(l, n);
	sq_snapshot_unref(s);
}

static struct sq_snapshot *
joined(enum sq_kind kind, const char *rel)
{
	struct sq_snapshot *s = sq_test_sj_parse(kind, rel, NULL);
	struct sq_snapshot *a = sq_test_sj_parse(
	    SQ_KIND_ASSOCS, "rest/v0.0.38/slurmdb_associations.json", NULL);

	assert_int_equal(kind == SQ_KIND_ACCOUNTS
			     ? sq_accounts_join_assocs(s, a)
			     : sq_users_join_assocs(s, a),
			 0);
	sq_snapshot_unref(a);
	return s;
}

static void
test_v38_accounts(void **state)
{
	struct sq_snapshot *s =
	    joined(SQ_KIND_ACCOUNTS, "rest/v0.0.38/slurmdb_accounts.json");
	char **l, *f[6];
	int n = sq_test_sj_lines("rest/v0.0.38/cli_sacctmgr_account.txt", &l),
	    i;
	size_t own = 0;

	(void)state;
	for (i = 0; i < n; i++) {
		const struct sq_account *a;

		assert_int_equal(sq_split(l[i], '|', f, 6), 6);
		a = sq_test_sj_named(s, f[0]);
		assert_non_null(a);
		assert_string_equal(a->organization, f[4]);
		assert_string_equal(a->description, f[5]);
		if (f[2][0] == '\0') {
			assert_string_equal(a->parent, f[1]);
			assert_int_equal(a->shares, sq_test_sj_num(f[3]));
			own++;
		} else {
			assert_true(sq_admin_in_list(a->users, f[2]));
		}
	}
	assert_int_equal(s->nrows, own);
	sq_test_sj_lines_free(l, n);
	sq_snapshot_unref(s);
}

static void
test_v38_users(void **state)
{
	struct sq_snapshot *s =
	    joined(SQ_KIND_USERS, "rest/v0.0.38/slurmdb_users.json");
	char **l, *f[6];
	int n = sq_test_sj_lines("rest/v0.0.38/cli_sacctmgr_user.txt", &l), i;

	(void)state;
	for (i = 0; i < n; i++) {
		const struct sq_user *u;
		char *q, *save = NULL;

		assert_int_equal(sq_split(l[i], '|', f, 6), 6);
		u = sq_test_sj_named(s, f[0]);
		assert_non_null(u);
		assert_string_equal(u->default_account, f[1]);
		assert_string_equal(u->admin_level, f[2]);
		assert_true(sq_admin_in_list(u->accounts, f[3]));
		for (q = strtok_r(f[4], ",", &save); q != NULL;
		     q = strtok_r(NULL, ",", &save))
			assert_true(sq_admin_in_list(u->qos, q));
		if (strcmp(f[3], f[1]) == 0)
			assert_string_equal(u->default_qos, f[5]);
	}
	sq_test_sj_lines_free(l, n);
	sq_snapshot_unref(s);
}

static void
test_v38_qos(void **state)
{
	struct sq_snapshot *s = sq_test_sj_parse(
	    SQ_KIND_QOS, "rest/v0.0.38/slurmdb_qos.json", NULL);
	char **l, *f[13];
	int n = sq_test_sj_lines("rest/v0.0.38/cli_sacctmgr_qos.txt", &l), i;
	double d;

	(void)state;
	assert_int_equal(s->nrows, n);
	for (i = 0; i < n; i++) {
		const struct sq_qos *q;

		assert_int_equal(sq_split(l[i], '|', f, 13), 13);
		q = sq_test_sj_named(s, f[0]);
		assert_non_null(q);
		assert_int_equal(q->id, sq_test_sj_num(f[1]));
		assert_int_equal(q->priority, sq_test_sj_num(f[2]));
		assert_string_equal(q->preempt, f[3]);
		assert_string_equal(q->preempt_mode, f[4]);
		assert_int_equal(q->grace_time, sq_test_sj_secs(f[5]));
		assert_int_equal(sq_admin_double(f[6], &d), 0);
		assert_true(fabs(q->usage_factor - d) < 1e-6);
		assert_string_equal(q->grp_tres, f[7]);
		assert_string_equal(q->max_tres_pu, f[8]);
		assert_int_equal(q->max_jobs_pu, sq_test_sj_num(f[9]));
		assert_int_equal(q->max_submit_pu, sq_test_sj_num(f[10]));
		assert_int_equal(q->max_wall, sq_test_sj_secs(f[11]));
		assert_string_equal(q->description, f[12]);
	}
	sq_test_sj_lines_free(l, n);
	sq_snapshot_unref(s);
}

/* The 24.11 accounting answers: the seeded limits come through. */
static void
accounting_2411(const char *ver)
{
	char rel[128], rel2[128];
	struct sq_snapshot *s, *a;
	const struct sq_assoc *x;
	const struct sq_qos *q;
	const struct sq_account *ac;
	const struct sq_user *u;
	size_t i;
	int found = 0;

	snprintf(rel, sizeof(rel), "rest/%s/slurmdb_associations.json", ver);
	a = sq_test_sj_parse(SQ_KIND_ASSOCS, rel, NULL);
	for (i = 0; i < a->nrows; i++) {
		x = sq_snapshot_row(a, i);
		if (strcmp(x->account, "bio") == 0 && x->user[0] == '\0') {
			assert_string_equal(x->grp_tres, "gres/gpu=4");
			assert_string_equal(x->parent, "root");
			assert_int_equal(x->shares, 40);
			assert_int_equal(x->depth, 1);
			assert_int_equal(x->max_jobs, SQ_NONE);
			found++;
		}
		if (strcmp(x->user, "vic") == 0) {
			assert_int_equal(x->max_jobs, 2);
			assert_int_equal(x->depth, 3); /* root/bio/bio-lab */
			found++;
		}
	}
	assert_int_equal(found, 2);
	x = sq_snapshot_row(a, 0);
	assert_string_equal(x->account, "root");
	assert_int_equal(x->depth, 0);
	snprintf(rel, sizeof(rel), "rest/%s/slurmdb_qos.json", ver);
	s = sq_test_sj_parse(SQ_KIND_QOS, rel, NULL);
	q = sq_test_sj_named(s, "low");
	assert_non_null(q);
	assert_string_equal(q->max_tres_pu, "cpu=8");
	assert_int_equal(q->priority, 10);
	assert_string_equal(q->preempt_mode, "cluster");
	assert_int_equal(q->max_jobs_pu, SQ_NONE);
	q = sq_test_sj_named(s, "high");
	assert_int_equal(q->max_wall, 4 * 3600);
	sq_snapshot_unref(s);
	snprintf(rel2, sizeof(rel2),
		 "rest/%s/slurmdb_accounts_with_assocs.json", ver);
	s = sq_test_sj_parse(SQ_KIND_ACCOUNTS, rel2, NULL);
	assert_int_equal(sq_accounts_join_assocs(s, a), 0);
	ac = sq_test_sj_named(s, "bio-lab");
	assert_non_null(ac);
	assert_string_equal(ac->parent, "bio");
	assert_int_equal(ac->shares, 10);
	assert_true(sq_admin_in_list(ac->users, "vic"));
	sq_snapshot_unref(s);
	snprintf(rel2, sizeof(rel2), "rest/%s/slurmdb_users_with_assocs.json",
		 ver);
	s = sq_test_sj_parse(SQ_KIND_USERS, rel2, NULL);
	assert_int_equal(sq_users_join_assocs(s, a), 0);
	u = sq_test_sj_named(s, "opsy");
	assert_non_null(u);
	assert_string_equal(u->admin_level, "Administrator");
	assert_string_equal(u->default_account, "astro");
	u = sq_test_sj_named(s, "wes");
	assert_true(sq_admin_in_list(u->accounts, "bio"));
	assert_true(sq_admin_in_list(u->accounts, "astro"));
	sq_snapshot_unref(s);
	sq_snapshot_unref(a);
}

static void
test_v4x_accounting(void **state)
{
	(void)state;
	accounting_2411("v0.0.40");
	accounting_2411("v0.0.41");
	accounting_2411("v0.0.42");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v38_assocs),
		cmocka_unit_test(test_v38_accounts),
		cmocka_unit_test(test_v38_users),
		cmocka_unit_test(test_v38_qos),
		cmocka_unit_test(test_v4x_accounting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
