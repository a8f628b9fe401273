/*
 * saved.c - saved views in the console (core/conf/saved_view.h): the `view`
 * lines of the config applied to the tables at start and when run at the
 * `:` prompt, `:NAME` of a view defined with of=, and `:w` (`:write`),
 * which writes the current view's columns, sort and filter into the
 * config file.
 */
#include <stdio.h>
#include <string.h>

#include "core/conf/saved_view.h"
#include "tui/app.h"
#include "tui/saved.h"
#include "tui/table.h"

static struct sq_table *
table_of(struct sq_app *app, const struct sq_view_def *d)
{
	size_t i;

	for (i = 0; i < app->ntables; i++) {
		if (app->tables[i].def == d)
			return &app->tables[i];
	}
	return NULL;
}

/* sort by "[-]ID"; "none" or "" for the snapshot's order */
static void
sort_by(struct sq_table *t, const char *s)
{
	int desc = s != NULL && *s == '-', col = -1;
	size_t i;

	for (i = 0; s != NULL && i < t->def->ncols; i++) {
		if (strcmp(t->def->cols[i].id, s + desc) == 0)
			col = (int)i;
	}
	sq_table_sort(t, col, col >= 0 ? desc : 0);
}

static void
apply(struct sq_app *app, struct sq_table *t, const struct sq_saved_view *v)
{
	char err[300];

	if (v->has & SQ_SAVED_COLUMNS) {
		if (sq_table_set_columns(t, v->columns, err, sizeof(err)) == -1)
			sq_app_message(app, 1, "view %s: %s", v->name, err);
	}
	if (v->has & SQ_SAVED_SORT)
		sort_by(t, v->sort);
	if (v->has & SQ_SAVED_FILTER) {
		if (sq_table_filter(t, v->filter, err, sizeof(err)) == -1)
			sq_app_message(app, 1, "view %s: %s", v->name, err);
	}
}

void
sq_saved_apply_all(struct sq_app *app)
{
	const struct sq_saved_views *sv = &app->conf->views;
	size_t i;

	for (i = 0; i < sv->n; i++) {
		struct sq_table *t = table_of(app, sv->v[i].of);

		if (t == NULL)
			continue;
		if (!sv->v[i].custom && t->vname[0] == '\0')
			apply(app, t, &sv->v[i]);
		else if (sv->v[i].custom &&
			 strcmp(t->vname, sv->v[i].name) == 0)
			apply(app, t, &sv->v[i]);
	}
}

int
sq_saved_open(struct sq_app *app, const char *name, const char *filter)
{
	const struct sq_saved_view *v = sq_saved_find(&app->conf->views, name);
	struct sq_table *t;

	if (v == NULL || !v->custom)
		return 1;
	if (sq_app_show_view(app, v->of->name, NULL) == -1)
		return -1;
	t = sq_app_table(app);
	if (strcmp(t->vname, v->name) != 0) {
		/* from the view's own settings, not another's */
		sq_table_default_columns(t);
		sort_by(t, t->def->default_sort);
		snprintf(t->vname, sizeof(t->vname), "%s", v->name);
	}
	apply(app, t, v);
	if (filter != NULL && *filter != '\0') {
		char err[300];

		if (sq_table_filter(t, filter, err, sizeof(err)) == -1)
			sq_app_message(app, 1, "%s", err);
	}
	sq_app_want(app);
	return 0;
}

void
sq_saved_leave(struct sq_app *app, const char *name)
{
	const struct sq_view_def *d = sq_view_find(name);
	const struct sq_saved_view *v;
	struct sq_table *t = d ? table_of(app, d) : NULL;
	char err[64];

	if (t == NULL || t->vname[0] == '\0')
		return;
	t->vname[0] = '\0';
	sq_table_default_columns(t);
	sort_by(t, t->def->default_sort);
	sq_table_filter(t, "", err, sizeof(err));
	v = sq_saved_find(&app->conf->views, d->name);
	if (v != NULL)
		apply(app, t, v);
}

int
sq_saved_write(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	const struct sq_saved_view *old;
	struct sq_saved_views *sv = &app->conf->views;
	struct sq_saved_view v;
	char path[1024], line[1400];
	struct sq_err err;

	memset(&v, 0, sizeof(v));
	snprintf(v.name, sizeof(v.name), "%s",
		 t->vname[0] ? t->vname : t->def->name);
	v.of = t->def;
	v.custom = t->vname[0] != '\0';
	v.has = SQ_SAVED_COLUMNS | SQ_SAVED_SORT | SQ_SAVED_FILTER;
	sq_table_columns_text(t, v.columns, sizeof(v.columns));
	if (t->sort >= 0)
		snprintf(v.sort, sizeof(v.sort), "%s%s",
			 t->sort_desc ? "-" : "", t->def->cols[t->sort].id);
	else
		snprintf(v.sort, sizeof(v.sort), "none");
	if (sq_filter_active(&t->filter))
		snprintf(v.filter, sizeof(v.filter), "%s", t->filter.text);
	sq_saved_line(&v, line, sizeof(line));
	if (sq_saved_conf_path(path, sizeof(path), &err) == -1 ||
	    sq_saved_write_file(path, line, &err) == -1) {
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	old = sq_saved_find(sv, v.name);
	if (old != NULL)
		sv->v[old - sv->v] = v;
	else if (sv->n < SQ_SAVED_MAX)
		sv->v[sv->n++] = v;
	sq_app_message(app, 0, "wrote \"%s\" to %s", line, path);
	return 0;
}

int
sq_saved_command(struct sq_app *app, const char *line)
{
	struct sq_err e;

	if (sq_conf_exec(app->conf, line, "<prompt>", 0, &e) == -1) {
		sq_app_message(app, 1, "%s", e.msg);
		return -1;
	}
	app->conf->changed &= ~SQ_CONF_CH_VIEWS;
	sq_saved_apply_all(app);
	sq_app_want(app);
	app->dirty = 1;
	return 0;
}
