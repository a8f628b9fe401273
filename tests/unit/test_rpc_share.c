/*
 * test_rpc_share.c - the overview's flag of one user above
 * `rpc-user-share` of slurmctld's RPCs, on sdiag recorded from 22.05
 * (tests/fixtures/rpc/sdiag-22.05.txt: root 13 of 15 RPCs, alice 2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/analysis/overview.h"
#include "core/analysis/rpc_share.h"
#include "tests/unit/test_util.h"

static struct sq_snapshot *
diag(void)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_DIAG, 0);
	char *text = sq_test_fixture("rpc/sdiag-22.05.txt", NULL);
	struct sq_err err;

	assert_non_null(s);
	assert_non_null(text);
	assert_int_equal(sq_parse_sdiag(text, s, &err), 0);
	free(text);
	return s;
}

/* The overview's "rpc user > N%" line, or NULL. */
static const struct sq_ov_row *
flag(const struct sq_snapshot *ov)
{
	size_t i;

	for (i = 0; i < ov->nrows; i++) {
		const struct sq_ov_row *r = sq_snapshot_row(ov, i);

		if (strncmp(r->key, "rpc user > ", 11) == 0)
			return r;
	}
	return NULL;
}

static void
test_top_user(void **state)
{
	struct sq_snapshot *d = diag();
	char user[64];
	long long top, total;

	(void)state;
	assert_int_equal(sq_rpc_top_user(d, user, sizeof(user), &top, &total),
			 0);
	assert_string_equal(user, "root");
	assert_int_equal(top, 13);
	assert_int_equal(total, 15);
	sq_snapshot_unref(d);
}

static void
test_overview_flag(void **state)
{
	struct sq_snapshot *d = diag(), *ov;
	struct sq_ov_input in;
	const struct sq_ov_row *r;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.diag = d;
	in.top = 5;
	/* root has 86%: above the default 50% */
	sq_rpc_user_share_set(50);
	ov = sq_overview_build(&in, 0);
	r = flag(ov);
	assert_non_null(r);
	assert_string_equal(r->section, "ctld");
	assert_string_equal(r->key, "rpc user > 50%");
	assert_string_equal(r->value, "root 86% of 15 RPCs");
	assert_string_equal(r->view, "rpc-users");
	sq_snapshot_unref(ov);
	/* not above 90%, and 0 never flags */
	sq_rpc_user_share_set(90);
	ov = sq_overview_build(&in, 0);
	assert_null(flag(ov));
	sq_snapshot_unref(ov);
	sq_rpc_user_share_set(0);
	ov = sq_overview_build(&in, 0);
	assert_null(flag(ov));
	sq_snapshot_unref(ov);
	sq_rpc_user_share_set(SQ_RPC_USER_SHARE_DEFAULT);
	sq_snapshot_unref(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_user),
		cmocka_unit_test(test_overview_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
