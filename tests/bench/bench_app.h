/*
 * bench_app.h - the console's real state for the keystroke drivers of
 * make bench: a curses screen of ROWS x COLS whose output goes nowhere, a
 * struct sq_app with a table per view, and a keystroke's work timed with
 * its redraw. Static functions: each driver is one program (bench.mk).
 */
#ifndef SQ_BENCH_APP_H
#define SQ_BENCH_APP_H

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conf/conf.h"
#include "core/base/util.h"
#include "tests/bench/bench_util.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/draw.h"
#include "tui/table.h"
#include "tui/worker.h"

/* A terminal of rows x cols (as text) on /dev/null. */
static inline SCREEN *
bench_screen(const char *rows, const char *cols)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr;

	setenv("LINES", rows, 1);
	setenv("COLUMNS", cols, 1);
	if (getenv("TERM") == NULL || *getenv("TERM") == '\0')
		setenv("TERM", "xterm-256color", 1);
	if (out == NULL || in == NULL)
		exit(1);
	scr = newterm(NULL, out, in);
	if (scr == NULL) {
		fprintf(stderr, "newterm failed\n");
		exit(1);
	}
	return scr;
}

/* The work of a keystroke begun at t0: the rest of a big table's rows
 * (the idle slices, all at once), then the full redraw; timed into
 * work. */
static inline void
timed_draw(struct sq_app *app, double t0, struct series *work)
{
	while (sq_app_table(app)->pending)
		sq_table_warm(sq_app_table(app), 1 << 20);
	sq_draw(app);
	add(work, sq_util_now_ms() - t0);
}

/* The index of column id in t's view. */
static inline int
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

/* The console's state with a table per view, view shown, on the
 * curses screen made first (bench_screen). */
static inline struct sq_app *
bench_app(const char *view)
{
	struct sq_conf *conf = calloc(1, sizeof(*conf));
	struct sq_app *app = calloc(1, sizeof(*app));
	size_t i;

	if (conf == NULL || app == NULL)
		exit(1);
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
		exit(1);
	for (i = 0; i < app->ntables; i++) {
		sq_table_init(&app->tables[i], sq_views[i]);
		if (strcmp(sq_views[i]->name, view) == 0)
			app->view = (int)i;
	}
	sq_colors_apply(app);
	getmaxyx(stdscr, app->rows, app->cols);
	return app;
}

typedef int (*bench_parse_fn)(char *, struct sq_snapshot *, struct sq_err *);

/* The parse of the file at path runs times (a fresh copy each time: a
 * parser writes into its input), timed into ps, and reading the same
 * bytes as often (a copy and a pass over them), into rs; the last
 * snapshot; *bytes: the file's size. */
static inline struct sq_snapshot *
bench_parse(const char *path, enum sq_kind kind, bench_parse_fn fn, int runs,
	    struct series *ps, struct series *rs, size_t *bytes)
{
	char *text = slurp(path);
	size_t len = strlen(text);
	struct sq_snapshot *s = NULL;
	int run;

	*bytes = len;
	for (run = 0; run < runs; run++) {
		char *a = malloc(len + 1), *b = malloc(len + 1);
		struct sq_err err;
		double t0 = sq_util_now_ms();
		size_t i, nl = 0;

		if (a == NULL || b == NULL)
			exit(1);
		memcpy(b, text, len + 1);
		for (i = 0; i < len; i++)
			nl += b[i] == '\n';
		add(rs, sq_util_now_ms() - t0);
		free(b);
		if (nl == 0) {
			fprintf(stderr, "%s: no lines\n", path);
			exit(1);
		}
		memcpy(a, text, len + 1);
		sq_snapshot_unref(s);
		s = sq_snapshot_new(kind, 0);
		t0 = sq_util_now_ms();
		if (s == NULL || fn(a, s, &err) == -1) {
			fprintf(stderr, "%s: %s\n", path,
				s ? err.msg : "memory");
			exit(1);
		}
		add(ps, sq_util_now_ms() - t0);
		free(a);
	}
	free(text);
	return s;
}

/* Type pattern at the '/' prompt a letter at a time, then erase it:
 * every prefix a live filter, each keystroke timed with its redraw into
 * work. '/' opened the prompt first: the console's idle loop makes the
 * rows' text before the first letter (not timed). */
static inline void
bench_type(struct sq_app *app, struct sq_table *t, const char *pattern,
	   struct series *work)
{
	size_t n = strlen(pattern), k;
	char buf[64], err[200];

	while (sq_table_warm(t, 4096))
		;
	for (k = 1; k <= 2 * n; k++) {
		size_t l = k <= n ? k : 2 * n - k;
		double t0;

		snprintf(buf, sizeof(buf), "%.*s", (int)l, pattern);
		t0 = sq_util_now_ms();
		sq_table_filter(t, buf, err, sizeof(err));
		timed_draw(app, t0, work);
	}
}

/* Sort by each column id of sorts ("-id": descending), each timed with
 * its redraw into work. */
static inline void
bench_sorts(struct sq_app *app, struct sq_table *t, const char *const *sorts,
	    size_t n, struct series *work)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *c = sorts[i];
		double t0 = sq_util_now_ms();

		sq_table_sort(t, col(t, c + (*c == '-')), *c == '-');
		timed_draw(app, t0, work);
	}
}

#endif
