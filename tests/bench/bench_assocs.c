/*
 * bench_assocs.c - make bench driver: a big site's account tree (issue
 * 44). Loads `sacctmgr show assoc tree` and `sshare -a` recordings
 * (gen_assocs.c) through the real parsers, then in the console's real
 * state times what a keystroke runs in the fairshare and assocs views:
 * the live filter of '/', folding and unfolding a department ('-', '+'),
 * a sort change, each with the full redraw. Prints shell assignments:
 * each parse against reading the same bytes, the memory an association
 * costs, the keystrokes' percentiles.
 *   bench_assocs ROWS COLS assoc.txt sshare.txt
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/model/model_admin.h"
#include "tests/bench/bench_app.h"
#include "tests/bench/bench_util.h"
#include "tui/keys.h"
#include "tui/views.h"

static struct series s_filter = { .name = "assocs_filter" },
		     s_first = { .name = "assocs_first" },
		     s_fold = { .name = "assocs_fold" },
		     s_sort = { .name = "assocs_sort" },
		     s_parse_a = { .name = "assocs_parse" },
		     s_parse_s = { .name = "shares_parse" },
		     s_read_a = { .name = "assocs_read" },
		     s_read_s = { .name = "shares_read" };

/* the row of account name at the top of the tree's rows, or 0 */
static size_t
row_of(const struct sq_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const void *rec = sq_snapshot_row(t->snap, t->rows[i].rec);
		const char *acct =
		    t->def->kind == SQ_KIND_SHARES
			? ((const struct sq_share *)rec)->account
			: ((const struct sq_assoc *)rec)->account;
		const char *user = t->def->kind == SQ_KIND_SHARES
				       ? ((const struct sq_share *)rec)->user
				       : ((const struct sq_assoc *)rec)->user;

		if (strcmp(acct, name) == 0 && user[0] == '\0')
			return i;
	}
	return 0;
}

static void
keys(struct sq_app *app, const char *view, struct sq_snapshot *snap)
{
	static const char *const patterns[] = { "user004711", "grp42", "dept07",
						"gpu", "!normal" };
	static const char *const depts[] = { "dept03", "dept42", "dept97" };
	struct sq_table *t;
	const struct sq_tui_view *hooks;
	size_t i, v;
	int round;

	for (v = 0; v < app->ntables; v++) {
		if (strcmp(app->tables[v].def->name, view) == 0)
			app->view = (int)v;
	}
	t = sq_app_table(app);
	hooks = sq_tui_view_for(t->def);
	sq_table_set_snapshot(t, snap);
	timed_draw(app, sq_util_now_ms(), &s_first);
	/* a big snapshot's sort orders, made on the sort thread while the
	 * console goes on (as a person reads the screen): bench_table.c */
	printf("%s_sorts_ms=%.2f\n", t->def->name, sq_table_sorts_wait(t));
	for (round = 0; round < 3; round++) {
		for (i = 0; i < sizeof(patterns) / sizeof(*patterns); i++)
			bench_type(app, t, patterns[i], &s_filter);
		for (i = 0; i < sizeof(depts) / sizeof(*depts); i++) {
			int a;

			for (a = 0; a < 2; a++) {
				double t0;

				sq_table_goto(t, row_of(t, depts[i]));
				t0 = sq_util_now_ms();
				hooks->action(app, t,
					      a ? SQ_TA_UNFOLD : SQ_TA_FOLD);
				timed_draw(app, t0, &s_fold);
			}
		}
		for (i = 0; i < 2; i++) {
			double t0 = sq_util_now_ms();

			sq_table_sort(t, i, round % 2);
			timed_draw(app, t0, &s_sort);
		}
	}
}

int
main(int argc, char **argv)
{
	struct sq_app *app;
	struct sq_snapshot *assocs, *shares;
	SCREEN *scr;
	size_t ab, sb;

	if (argc != 5) {
		fprintf(stderr, "usage: bench_assocs ROWS COLS assoc.txt "
				"sshare.txt\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	assocs = bench_parse(argv[3], SQ_KIND_ASSOCS, sq_parse_sacctmgr_assoc,
			     5, &s_parse_a, &s_read_a, &ab);
	shares = bench_parse(argv[4], SQ_KIND_SHARES, sq_parse_sshare, 5,
			     &s_parse_s, &s_read_s, &sb);
	printf("assocs=%zu assocs_bytes=%zu assocs_per_row=%zu shares=%zu "
	       "shares_bytes=%zu shares_per_row=%zu\n",
	       assocs->nrows, ab, sq_snapshot_bytes(assocs) / assocs->nrows,
	       shares->nrows, sb, sq_snapshot_bytes(shares) / shares->nrows);
	scr = bench_screen(argv[1], argv[2]);
	app = bench_app("fairshare");
	keys(app, "fairshare", shares);
	keys(app, "assocs", assocs);
	endwin();
	delscreen(scr);
	report(&s_parse_a);
	report(&s_read_a);
	report(&s_parse_s);
	report(&s_read_s);
	report(&s_first);
	report(&s_filter);
	report(&s_fold);
	report(&s_sort);
	return 0;
}
