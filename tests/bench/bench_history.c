/*
 * bench_history.c - make bench driver: a week of a big site's accounting
 * (issue 44). Loads a `sacct -D` recording of N runs (gen_sacct.c)
 * through the real parser, which also builds the per-user, per-account
 * and per-node rows (core/analysis/history_build.c), then in the console's real
 * state times the first screen of history, history-users and
 * history-accounts, and what a keystroke runs in the history view (the
 * live filter of '/', a sort change) with the full redraw. Prints shell
 * assignments: the parse against reading the same bytes, the memory a run
 * costs, the percentiles.
 *   bench_history ROWS COLS sacct.txt
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/analysis/history.h"
#include "tests/bench/bench_app.h"
#include "tests/bench/bench_util.h"

static struct series s_parse = { .name = "hist_parse" },
		     s_read = { .name = "hist_read" },
		     s_first = { .name = "hist_first" },
		     s_rollup = { .name = "hist_rollup" },
		     s_filter = { .name = "hist_filter" },
		     s_sort = { .name = "hist_sort" };

static struct sq_table *
show(struct sq_app *app, const char *view)
{
	size_t v;

	for (v = 0; v < app->ntables; v++) {
		if (strcmp(app->tables[v].def->name, view) == 0)
			app->view = (int)v;
	}
	return sq_app_table(app);
}

int
main(int argc, char **argv)
{
	static const char *const patterns[] = { "user0042", "acct07", "FAILED",
						"c01234", "train" };
	static const char *const sorts[] = { "user", "state", "elapsed",
					     "-start", "account" };
	static const char *const rollups[] = { "history-users",
					       "history-accounts" };
	struct sq_app *app;
	struct sq_snapshot *s;
	struct sq_table *t;
	SCREEN *scr;
	size_t len, runs = 0, i;
	int round;

	if (argc != 4) {
		fprintf(stderr, "usage: bench_history ROWS COLS sacct.txt\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	s = bench_parse(argv[3], SQ_KIND_HISTORY, sq_parse_sacct_history, 5,
			&s_parse, &s_read, &len);
	for (i = 0; i < s->nrows; i++)
		runs +=
		    ((const struct sq_hist *)sq_snapshot_row(s, i))->scope ==
		    SQ_HIST_RUN;
	printf("hist_runs=%zu hist_rows=%zu hist_bytes=%zu hist_per_run=%zu\n",
	       runs, s->nrows, len, sq_snapshot_bytes(s) / (runs ? runs : 1));
	scr = bench_screen(argv[1], argv[2]);
	app = bench_app("history");
	/* the rollup views' first screens (their rows are in the snapshot:
	 * this is the table of one scope out of it, sorted, drawn) */
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 2; i++) {
			double t0 = sq_util_now_ms();

			t = show(app, rollups[i]);
			sq_table_set_snapshot(t, s);
			timed_draw(app, t0, &s_rollup);
		}
	}
	t = show(app, "history");
	{
		double t0 = sq_util_now_ms();

		sq_table_set_snapshot(t, s);
		timed_draw(app, t0, &s_first);
		printf("hist_sorts_ms=%.2f\n", sq_table_sorts_wait(t));
	}
	for (round = 0; round < 2; round++) {
		for (i = 0; i < sizeof(patterns) / sizeof(*patterns); i++)
			bench_type(app, t, patterns[i], &s_filter);
		bench_sorts(app, t, sorts, sizeof(sorts) / sizeof(*sorts),
			    &s_sort);
	}
	endwin();
	delscreen(scr);
	report(&s_parse);
	report(&s_read);
	report(&s_rollup);
	report(&s_first);
	report(&s_filter);
	report(&s_sort);
	return 0;
}
