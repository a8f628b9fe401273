/*
 * bench_table.c - make bench driver: what one keystroke costs in the
 * console's jobs view on a big queue. It loads a recording through the
 * real parsers, builds the console's state (struct sq_app, a table per
 * view) and runs the real code a key runs: the live filter of the '/'
 * prompt (sq_table_filter, PCRE2 JIT), a sort change (sq_table_sort), a
 * cursor move, a new snapshot (sq_table_set_snapshot), each followed by
 * the real full-screen redraw (sq_draw) into a curses screen on
 * /dev/null. A big table (SQ_TABLE_PARTIAL_MIN rows) shows its first
 * rows at the keystroke and makes the rest in idle slices, each followed
 * by a redraw as in the console's loop: those slices run after every
 * keystroke (a slower typist than this driver) and are reported apart
 * (rest: a slice; done: keystroke to all rows there). Prints
 * milliseconds as shell assignments; with BENCH_TRACE set, every step on
 * stderr too.
 *   bench_table ROWS COLS squeue.txt sprio.txt
 */
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli.h"
#include "core/conf/conf.h"
#include "core/model/join.h"
#include "core/base/util.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/draw.h"
#include "tui/table.h"
#include "tui/worker.h"
#include "tests/bench/bench_util.h"

static struct sq_snapshot *
load(const char *sqf, const char *spf)
{
	struct sq_snapshot *jobs, *prio;
	struct sq_err err;
	char *a = slurp(sqf), *b = slurp(spf);

	prio = sq_snapshot_new(SQ_KIND_PRIO, 0);
	jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	if (prio == NULL || jobs == NULL || sq_parse_sprio(b, prio, &err) ||
	    sq_parse_squeue(a, jobs, &err)) {
		fprintf(stderr, "parse: %s\n", err.msg);
		exit(1);
	}
	sq_prio_rank(prio);
	sq_jobs_join_prio(jobs, prio);
	sq_snapshot_unref(prio);
	free(a);
	free(b);
	return jobs;
}

static struct series s_filter = { .name = "filter" },
		     s_sort = { .name = "sort" }, s_draw = { .name = "redraw" },
		     s_key = { .name = "key" }, s_move = { .name = "move" },
		     s_snap = { .name = "snapshot" },
		     s_warm = { .name = "warm" },
		     s_slice = { .name = "warm_slice" },
		     s_rest = { .name = "rest" }, s_done = { .name = "done" };

/* BENCH_TRACE=1: every step on stderr (what it was, table ms, draw ms) */
static int tracing;
static char step[300];

/* One keystroke: the table work, then the redraw; both timed. */
static void
redraw(struct sq_app *app, double t0, struct series *work)
{
	double t1 = sq_util_now_ms(), t2;

	sq_draw(app);
	t2 = sq_util_now_ms();
	if (tracing)
		fprintf(stderr, "%-8s %-24s %9.2f %7.2f\n", work->name, step,
			t1 - t0, t2 - t1);
	add(work, t1 - t0);
	add(&s_draw, t2 - t1);
	if (work == &s_filter || work == &s_sort)
		add(&s_key, t2 - t0);
	/* the console's idle loop: the rest of a big table's rows, a
	 * slice and a redraw at a time */
	if (sq_app_table(app)->pending) {
		while (sq_app_table(app)->pending) {
			double s0 = sq_util_now_ms();

			sq_table_warm(sq_app_table(app), 4096);
			sq_draw(app);
			add(&s_rest, sq_util_now_ms() - s0);
		}
		add(&s_done, sq_util_now_ms() - t0);
		if (tracing)
			fprintf(stderr, "%-8s %-24s %9.2f\n", "done", step,
				sq_util_now_ms() - t0);
	}
}

/* Type pattern at the '/' prompt, one character at a time, then erase
 * it again: every prefix is a live filter, as in prompt.c. */
static void
type_filter(struct sq_app *app, const char *pattern)
{
	struct sq_table *t = sq_app_table(app);
	size_t n = strlen(pattern), i;
	char buf[256], err[300];

	app->prompt.active = 1;
	app->prompt.kind = '/';
	/* '/' opened the prompt: the console's idle loop makes the rows'
	 * text in slices before the first letter (app.c, sq_table_warm) */
	{
		double t0 = sq_util_now_ms(), t1;
		int more;

		do {
			double s0 = sq_util_now_ms();

			more = sq_table_warm(t, 4096);
			add(&s_slice, sq_util_now_ms() - s0);
		} while (more);
		t1 = sq_util_now_ms();
		if (t1 - t0 > 0.05)
			add(&s_warm, t1 - t0);
	}
	for (i = 1; i <= 2 * n; i++) {
		size_t l = i <= n ? i : 2 * n - i;
		double t0;

		snprintf(buf, sizeof(buf), "%.*s", (int)l, pattern);
		snprintf(app->prompt.buf, sizeof(app->prompt.buf), "%s", buf);
		app->prompt.len = app->prompt.pos = l;
		snprintf(step, sizeof(step), "/%s", buf);
		t0 = sq_util_now_ms();
		if (sq_table_filter(t, buf, err, sizeof(err)) == -1)
			fprintf(stderr, "filter %s: %s\n", buf, err);
		redraw(app, t0, &s_filter);
	}
	app->prompt.active = 0;
}

static int
col(const struct sq_table *t, const char *id)
{
	size_t i;

	for (i = 0; i < t->def->ncols; i++) {
		if (strcmp(t->def->cols[i].id, id) == 0)
			return (int)i;
	}
	fprintf(stderr, "no column %s\n", id);
	exit(1);
}

int
main(int argc, char **argv)
{
	static const char *const patterns[] = {
		"user12", "gpu", "Resources", "!PENDING",
		"a100:2", "c01", "train-llm", "acct03.*batch",
	};
	static const char *const sorts[] = {
		"priority", "user",     "state",    "time_used", "job_id",
		"name",     "prio_age", "nodelist", "partition", "-priority",
	};
	struct sq_conf *conf;
	struct sq_app *app;
	struct sq_snapshot *jobs, *jobs2;
	struct sq_table *t;
	SCREEN *scr;
	FILE *out, *in;
	size_t i;
	int round, k;
	char env[64];

	if (argc != 5) {
		fprintf(stderr,
			"usage: bench_table ROWS COLS squeue.txt sprio.txt\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	tracing =
	    getenv("BENCH_TRACE") != NULL && *getenv("BENCH_TRACE") != '\0';
	jobs = load(argv[3], argv[4]);
	jobs2 = load(argv[3], argv[4]);
	conf = calloc(1, sizeof(*conf));
	app = calloc(1, sizeof(*app));
	if (conf == NULL || app == NULL)
		return 1;
	sq_conf_init(conf);
	app->conf = conf;
	snprintf(app->cfg.name, sizeof(app->cfg.name), "bench");
	app->cfg.refresh = 10;
	app->utf8 = 1;
	app->st.state = SQ_WORKER_READY;
	snprintf(app->st.backend, sizeof(app->st.backend), "local");
	for (app->ntables = 0; sq_views[app->ntables] != NULL;)
		app->ntables++;
	app->tables = calloc(app->ntables, sizeof(*app->tables));
	if (app->tables == NULL)
		return 1;
	for (i = 0; i < app->ntables; i++) {
		sq_table_init(&app->tables[i], sq_views[i]);
		if (strcmp(sq_views[i]->name, "jobs") == 0)
			app->view = (int)i;
	}
	/* a terminal of ROWS x COLS whose output goes nowhere */
	snprintf(env, sizeof(env), "%s", argv[1]);
	setenv("LINES", env, 1);
	snprintf(env, sizeof(env), "%s", argv[2]);
	setenv("COLUMNS", env, 1);
	if (getenv("TERM") == NULL || *getenv("TERM") == '\0')
		setenv("TERM", "xterm-256color", 1);
	out = fopen("/dev/null", "w");
	in = fopen("/dev/null", "r");
	if (out == NULL || in == NULL)
		return 1;
	scr = newterm(NULL, out, in);
	if (scr == NULL) {
		fprintf(stderr, "newterm failed\n");
		return 1;
	}
	sq_colors_apply(app);
	getmaxyx(stdscr, app->rows, app->cols);
	t = sq_app_table(app);

	/* the first snapshot, then a redraw */
	{
		double t0 = sq_util_now_ms();

		snprintf(step, sizeof(step), "first snapshot");
		sq_table_set_snapshot(t, jobs);
		redraw(app, t0, &s_snap);
		/* a big snapshot's sort orders, made on the sort thread
		 * while the console goes on (seconds before a first sort
		 * key, as a person reads the screen) */
		printf("sorts_ms=%.2f\n", sq_table_sorts_wait(t));
	}
	for (round = 0; round < 3; round++) {
		for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
			type_filter(app, patterns[i]);
		for (i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++) {
			const char *s = sorts[i];
			double t0 = sq_util_now_ms();

			snprintf(step, sizeof(step), "sort %s", s);
			sq_table_sort(t, col(t, s + (*s == '-')), *s == '-');
			redraw(app, t0, &s_sort);
		}
		/* j, PgDn, G, g */
		for (k = 0; k < 40; k++) {
			double t0 = sq_util_now_ms();

			if (k % 10 == 9)
				sq_table_goto(t, k % 20 == 9 ? t->nrows : 0);
			else
				sq_table_move(t, k % 2 ? 1 : app->page);
			redraw(app, t0, &s_move);
		}
		/* the worker publishes a new queue: with and without filter */
		for (k = 0; k < 4; k++) {
			char err[200];
			double t0;

			sq_table_filter(t, k % 2 ? "Resources" : "", err,
					sizeof(err));
			snprintf(step, sizeof(step), "snapshot, /%s",
				 k % 2 ? "Resources" : "");
			t0 = sq_util_now_ms();
			sq_table_set_snapshot(t,
					      (k + round) % 2 ? jobs : jobs2);
			redraw(app, t0, &s_snap);
		}
	}
	printf("rows=%d cols=%d jobs=%zu\n", app->rows, app->cols, jobs->nrows);
	report(&s_filter);
	report(&s_sort);
	report(&s_draw);
	report(&s_key);
	report(&s_move);
	report(&s_snap);
	report(&s_warm);
	report(&s_slice);
	report(&s_rest);
	report(&s_done);
	endwin();
	delscreen(scr);
	for (i = 0; i < app->ntables; i++)
		sq_table_free(&app->tables[i]);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(jobs2);
	free(app->tables);
	free(app);
	free(conf);
	return 0;
}
