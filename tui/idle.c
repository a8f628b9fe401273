/*
 * idle.c - a console nobody looks at costs the controller nothing: after
 * idle-pause seconds without a key the worker is told it needs no data
 * (any key resumes and refreshes at once), and while the terminal reports
 * that it lost focus (xterm focus events, DECSET 1004; tmux passes them
 * on with `focus-events on`) every kind refreshes at refresh-slow.
 */
#include <curses.h>

#include "core/base/util.h"
#include "tui/app.h"
#include "tui/idle.h"
#include "tui/keys.h"
#include "tui/worker.h"

/* key codes of the focus reports (above ncurses' own) */
#define SQ_KEY_FOCUS_IN (KEY_MAX + 21)
#define SQ_KEY_FOCUS_OUT (KEY_MAX + 22)

void
sq_idle_start(struct sq_app *app)
{
	app->last_key = sq_util_now_ms();
	app->paused = 0;
	app->unfocused = 0;
	if (!app->conf->num[SQ_OPT_FOCUS_EVENTS])
		return;
	define_key("\033[I", SQ_KEY_FOCUS_IN);
	define_key("\033[O", SQ_KEY_FOCUS_OUT);
	putp("\033[?1004h");
	fflush(stdout);
}

void
sq_idle_end(struct sq_app *app)
{
	if (!app->conf->num[SQ_OPT_FOCUS_EVENTS])
		return;
	putp("\033[?1004l");
	fflush(stdout);
}

void
sq_idle_intervals(const struct sq_app *app, int *fast, int *slow)
{
	*slow = (int)app->conf->num[SQ_OPT_REFRESH_SLOW];
	*fast = app->unfocused ? *slow : app->cfg.refresh;
}

static void
apply_intervals(struct sq_app *app)
{
	int fast, slow;

	if (app->worker == NULL)
		return;
	sq_idle_intervals(app, &fast, &slow);
	sq_worker_intervals(app->worker, fast, slow);
}

static void
resume(struct sq_app *app)
{
	app->paused = 0;
	sq_app_want(app);
	if (app->worker != NULL)
		sq_worker_refresh(app->worker,
				  SQ_KIND_BIT(sq_app_table(app)->def->kind));
	sq_app_message(app, 0, "resumed: refreshing");
}

int
sq_idle_key(struct sq_app *app, int rc, unsigned wc)
{
	if (rc == KEY_CODE_YES &&
	    (wc == SQ_KEY_FOCUS_IN || wc == SQ_KEY_FOCUS_OUT)) {
		app->unfocused = wc == SQ_KEY_FOCUS_OUT;
		apply_intervals(app);
		/* coming back is like a key: the data catches up now */
		if (!app->unfocused) {
			app->last_key = sq_util_now_ms();
			if (app->paused)
				resume(app);
			else if (app->worker != NULL)
				sq_worker_refresh(
				    app->worker,
				    SQ_KIND_BIT(sq_app_table(app)->def->kind));
		}
		app->dirty = 1;
		return 1;
	}
	app->last_key = sq_util_now_ms();
	if (app->paused) {
		resume(app);
		app->dirty = 1;
		return 1;
	}
	return 0;
}

void
sq_idle_tick(struct sq_app *app)
{
	long limit = (long)app->conf->num[SQ_OPT_IDLE_PAUSE];

	if (app->paused || limit <= 0 || app->worker == NULL)
		return;
	/* milliseconds of a monotonic clock: whole seconds of time() made
	 * the pause come up to a second early (and a clock step moved it) */
	if (sq_util_now_ms() - app->last_key < (double)limit * 1000.0)
		return;
	app->paused = 1;
	sq_app_want(app);
	sq_app_message(app, 0,
		       "paused: no key for %ld s, nothing is queried; "
		       "any key resumes",
		       limit);
	app->dirty = 1;
}
