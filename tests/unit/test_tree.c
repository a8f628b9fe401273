/*
 * test_tree.c - the account trees of the console (tui/view_tree.c): the
 * fairshare and assocs views arrange a recorded sshare / sacctmgr tree
 * (tests/fixtures/live/slurm-24.11/cli, recorded by `squall --record` on
 * the 24.11 testbed) as sacctmgr does: an account, its users, then its
 * sub-accounts; a filter keeps the matching rows and makes those whose
 * parent is filtered out roots; '-' folds an account (a leaf folds its
 * parent), '+' unfolds it; a sort orders siblings; a new snapshot of the
 * same tree arranges the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/model/model_admin.h"
#include "tests/unit/test_util.h"
#include "tui/app.h"
#include "tui/keys.h"
#include "tui/table.h"
#include "tui/views.h"

#define LIVE "live/slurm-24.11/cli/"

static struct sq_snapshot *
load(const char *rel, enum sq_kind kind,
     int (*fn)(char *, struct sq_snapshot *, struct sq_err *))
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	char *text = sq_test_fixture(rel, NULL);
	struct sq_err err;

	assert_non_null(s);
	assert_int_equal(fn(text, s, &err), 0);
	free(text);
	return s;
}

static const struct sq_view_def *
view(const char *name)
{
	size_t i;

	for (i = 0; sq_views[i] != NULL; i++) {
		if (strcmp(sq_views[i]->name, name) == 0)
			return sq_views[i];
	}
	fail_msg("no view %s", name);
	return NULL;
}

/* The rows as "depth account/user" (a '+' or '-' for a row with
 * children, folded or not), one a line. */
static const char *
dump(const struct sq_table *t)
{
	static char buf[4096];
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < t->nrows && o < sizeof(buf) - 80; i++) {
		const struct sq_table_row *r = &t->rows[i];
		const void *rec = sq_snapshot_row(t->snap, r->rec);
		const char *acct, *user;

		if (t->def->kind == SQ_KIND_SHARES) {
			acct = ((const struct sq_share *)rec)->account;
			user = ((const struct sq_share *)rec)->user;
		} else {
			acct = ((const struct sq_assoc *)rec)->account;
			user = ((const struct sq_assoc *)rec)->user;
		}
		o += (size_t)snprintf(
		    buf + o, sizeof(buf) - o, "%u %s/%s%s\n", r->depth, acct,
		    user,
		    r->flags & SQ_ROW_HASKIDS
			? (r->flags & SQ_ROW_FOLDED ? " +" : " -")
			: "");
	}
	return buf;
}

static size_t
row_of(const struct sq_table *t, const char *acct, const char *user)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct sq_share *s =
		    sq_snapshot_row(t->snap, t->rows[i].rec);

		if (strcmp(s->account, acct) == 0 && strcmp(s->user, user) == 0)
			return i;
	}
	fail_msg("no row %s/%s", acct, user);
	return 0;
}

static const char shares_tree[] = "0 root/ -\n"
				  "1 root/root\n"
				  "1 chemistry/ -\n"
				  "2 chemistry/bob\n"
				  "2 chemistry/carol\n"
				  "1 physics/ -\n"
				  "2 physics/alice\n"
				  "2 physics/opsadmin\n"
				  "2 astro/ -\n"
				  "3 astro/alice\n";

static void
test_fairshare(void **state)
{
	struct sq_table t;
	struct sq_app app;
	struct sq_snapshot *s, *s2;
	const struct sq_tui_view *hooks;
	char err[200];

	(void)state;
	memset(&app, 0, sizeof(app));
	s = load(LIVE "fairshare/000002-sshare.out", SQ_KIND_SHARES,
		 sq_parse_sshare);
	sq_table_init(&t, view("fairshare"));
	hooks = sq_tui_view_for(t.def);
	assert_non_null(hooks);
	sq_table_sort(&t, -1, 0);
	sq_table_set_snapshot(&t, s);
	assert_string_equal(dump(&t), shares_tree);

	/* '-' on physics: its users and astro hidden under it */
	sq_table_goto(&t, row_of(&t, "physics", ""));
	assert_int_equal(hooks->action(&app, &t, SQ_TA_FOLD), 1);
	assert_string_equal(dump(&t), "0 root/ -\n"
				      "1 root/root\n"
				      "1 chemistry/ -\n"
				      "2 chemistry/bob\n"
				      "2 chemistry/carol\n"
				      "1 physics/ +\n");
	assert_int_equal(t.rows[5].hidden, 3);
	/* the cursor stays on physics */
	assert_int_equal(t.cur, 5);
	/* '+' brings them back */
	assert_int_equal(hooks->action(&app, &t, SQ_TA_UNFOLD), 1);
	assert_string_equal(dump(&t), shares_tree);
	/* '-' on a leaf folds its account */
	sq_table_goto(&t, row_of(&t, "chemistry", "carol"));
	hooks->action(&app, &t, SQ_TA_FOLD);
	assert_non_null(strstr(dump(&t), "1 chemistry/ +\n1 physics/ -\n"));
	assert_int_equal(t.cur, row_of(&t, "chemistry", ""));
	sq_table_goto(&t, row_of(&t, "chemistry", ""));
	hooks->action(&app, &t, SQ_TA_UNFOLD);

	/* a filter: alice's rows; their accounts filtered out, roots */
	assert_int_equal(sq_table_filter(&t, "alice", err, sizeof(err)), 0);
	assert_string_equal(dump(&t), "0 physics/alice\n"
				      "0 astro/alice\n");
	/* astro and its user: astro's parent (physics) filtered out */
	assert_int_equal(sq_table_filter(&t, "astro", err, sizeof(err)), 0);
	assert_string_equal(dump(&t), "0 astro/ -\n"
				      "1 astro/alice\n");
	sq_table_filter(&t, "", err, sizeof(err));

	/* a new snapshot of the same tree: the same arrangement, the fold
	 * state kept by id */
	sq_table_goto(&t, row_of(&t, "astro", ""));
	hooks->action(&app, &t, SQ_TA_FOLD);
	s2 = load(LIVE "fairshare/000002-sshare.out", SQ_KIND_SHARES,
		  sq_parse_sshare);
	sq_table_set_snapshot(&t, s2);
	assert_non_null(strstr(dump(&t), "2 physics/opsadmin\n2 astro/ +\n"));
	assert_null(strstr(dump(&t), "astro/alice"));

	/* sorted by account, descending: siblings in that order (root's
	 * user row, physics, chemistry) */
	sq_table_goto(&t, 0);
	hooks->action(&app, &t, SQ_TA_UNFOLD);
	sq_table_goto(&t, row_of(&t, "astro", ""));
	hooks->action(&app, &t, SQ_TA_UNFOLD);
	sq_table_sort(&t, 0, 1);
	assert_non_null(strstr(dump(&t), "1 physics/ -\n"));
	assert_true(strstr(dump(&t), "1 physics/") <
		    strstr(dump(&t), "1 chemistry/"));
	assert_true(strstr(dump(&t), "1 root/root") <
		    strstr(dump(&t), "1 physics/"));
	sq_table_free(&t);
	sq_snapshot_unref(s);
	sq_snapshot_unref(s2);
}

static void
test_assocs(void **state)
{
	struct sq_table t;
	struct sq_snapshot *s;
	const char *d;

	(void)state;
	s = load(LIVE "assocs/000002-sacctmgr.out", SQ_KIND_ASSOCS,
		 sq_parse_sacctmgr_assoc);
	sq_table_init(&t, view("assocs"));
	sq_table_sort(&t, -1, 0);
	sq_table_set_snapshot(&t, s);
	d = dump(&t);
	/* as sacctmgr's tree: every row, root first, users under their
	 * accounts, sub-accounts after the users */
	assert_int_equal(t.nrows, s->nrows);
	assert_true(strncmp(d, "0 root/ -\n1 root/root\n", 22) == 0);
	assert_non_null(strstr(d, "1 chemistry/ -\n2 chemistry/bob\n"));
	assert_non_null(strstr(d, "1 physics/ -\n2 physics/alice\n"));
	assert_non_null(strstr(d, "2 astro/ -\n3 astro/alice\n"));
	sq_table_free(&t);
	sq_snapshot_unref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fairshare),
		cmocka_unit_test(test_assocs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
