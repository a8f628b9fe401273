/*
 * app.c - the calls every part of the console makes on its state
 * (tui/app.h): the current view's table, the message line, what the
 * worker should fetch for the screen, taking the worker's newest data
 * into a table, switching views, refreshing. UI thread only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/base/util.h"
#include "session/plan.h"
#include "tui/app.h"
#include "tui/keys.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/views.h"
#include "tui/worker.h"

struct sq_table *
sq_app_table(struct sq_app *app)
{
	return &app->tables[app->view];
}

/* Keep an error whole for :messages: the same one again only moves its
 * time; the configuration's own (": ... (:messages)") are there already. */
static void
log_error(struct sq_app_errs *e, const char *text)
{
	size_t last = (e->total + SQ_APP_ERRS - 1) % SQ_APP_ERRS, l;
	static const char conf_tail[] = "(:messages)";

	l = strlen(text);
	if (l >= sizeof(conf_tail) - 1 &&
	    strcmp(text + l - (sizeof(conf_tail) - 1), conf_tail) == 0)
		return;
	if (e->total > 0 && strcmp(e->text[last], text) == 0) {
		e->when[last] = time(NULL);
		return;
	}
	last = e->total % SQ_APP_ERRS;
	snprintf(e->text[last], sizeof(e->text[last]), "%s", text);
	e->when[last] = time(NULL);
	e->total++;
}

void
sq_app_message(struct sq_app *app, int error, const char *fmt, ...)
{
	char full[sizeof(app->errs.text[0])];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(full, sizeof(full), fmt, ap);
	va_end(ap);
	sq_util_copy(app->msg, sizeof(app->msg), full);
	if (error)
		log_error(&app->errs, full);
	app->msg_error = error;
	app->msg_time = time(NULL);
	app->dirty = 1;
}

int
sq_app_view_index(const struct sq_view_def *def)
{
	int i;

	for (i = 0; sq_views[i] != NULL; i++) {
		if (sq_views[i] == def)
			return i;
	}
	return -1;
}

void
sq_app_take_snapshot(struct sq_app *app, struct sq_table *t)
{
	struct sq_snapshot *s;

	if (app->worker == NULL)
		return;
	s = sq_worker_get(app->worker, t->def->kind);
	if (s != t->given && s != NULL)
		sq_table_set_snapshot(t, s);
	sq_snapshot_unref(s);
}

void
sq_app_sync(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);

	if (app->worker == NULL)
		return;
	if (t->ops != NULL && t->ops->sync != NULL)
		t->ops->sync(app, t);
	else
		sq_app_take_snapshot(app, t);
}

void
sq_app_want(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	unsigned want, plan, partners;

	if (app->worker == NULL)
		return;
	if (app->paused) {
		sq_worker_want(app->worker, 0, 0);
		return;
	}
	/* the plan's lazy partners (sprio) when a column shows them */
	plan = sq_plan_kinds(t->def->kind,
			     sq_plan_want_cols(t->def, t->cols, t->ncols));
	want = plan;
	if (t->ops != NULL && t->ops->want != NULL)
		want = t->ops->want(app, t, want);
	/* the plan's partners are only joined; what the want hook adds
	 * and what the detail pane shows are shown */
	partners = plan & ~SQ_KIND_BIT(t->def->kind);
	if (app->mode == SQ_MODE_PANE && app->pane.kind == SQ_PANE_DETAIL &&
	    t->ops != NULL) {
		want |= t->ops->detail_kinds;
		partners &= ~t->ops->detail_kinds;
	}
	sq_worker_want(app->worker, want, partners);
}

int
sq_app_show_view(struct sq_app *app, const char *name, const char *filter)
{
	const struct sq_view_def *def = sq_view_find(name);
	int i;

	if (def == NULL) {
		sq_app_message(app, 1, "no view called '%s' (:help lists them)",
			       name);
		return -1;
	}
	i = sq_app_view_index(def);
	if (i < 0)
		return -1;
	if (i != app->view) {
		if (app->nhistory == 32) {
			memmove(app->history, app->history + 1,
				31 * sizeof(app->history[0]));
			app->nhistory--;
		}
		app->history[app->nhistory++] = app->view;
		app->view = i;
	}
	app->mode = SQ_MODE_TABLE;
	sq_app_sync(app);
	if (filter != NULL) {
		char err[300];

		if (sq_table_filter(sq_app_table(app), filter, err,
				    sizeof(err)) == -1)
			sq_app_message(app, 1, "%s", err);
		else
			sq_table_goto(sq_app_table(app), 0);
	}
	sq_app_want(app);
	app->dirty = 1;
	return 0;
}

void
sq_app_refresh(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);

	app->dirty = 1;
	if (t->ops != NULL && t->ops->action != NULL &&
	    t->ops->action(app, t, SQ_TA_REFRESH))
		return;
	if (app->worker != NULL) {
		sq_app_want(app);
		sq_worker_refresh(app->worker, SQ_KIND_BIT(t->def->kind));
	}
	sq_app_message(app, 0, "refreshing %s", t->def->name);
}
