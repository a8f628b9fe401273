/*
 * help.c - the text panes built from tables: `?`/`:help` (every
 * key of the live key map with its action's help, the view's action keys,
 * the commands, the views and this view's columns) and `:messages` (the
 * session's errors whole, then the configuration's). Nothing here is written by
 * hand twice.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "tui/actions.h"
#include "tui/app.h"
#include "tui/cmd_def.h"
#include "tui/help.h"
#include "tui/keys.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/text.h"
#include "core/base/sanitize.h"

static int
hidden_binding(const struct sq_app *app, const char *name)
{
	const struct sq_action_def *d;

	if (name[0] == ':' || sq_ta_from_name(name) != SQ_TA_NONE)
		return 0;
	d = sq_action_find(name, -1);
	return d != NULL && !sq_action_visible(d, app->readonly);
}

/* A help row: the cells a, b (NULL: two columns only) and c aligned in
 * the columns w gives (tui/pane.h), by display width. */
static void
row3(struct sq_pane *p, const int *w, const char *a, const char *b,
     const char *c)
{
	const char *cells[3] = { a, b, c };

	sq_pane_row(p, SQ_ROLE_DIALOG, w, c != NULL ? 3 : 2, cells);
}

/* The columns section: as wide as the view's ids and headers (capped). */
static void
col_widths(const struct sq_view_def *v, int *w)
{
	size_t i;
	int k;

	w[0] = 12;
	w[1] = 6;
	for (i = 0; i < v->ncols; i++) {
		k = sq_width(v->cols[i].id);
		if (k > w[0] && k <= 24)
			w[0] = k;
		k = sq_width(v->cols[i].title);
		if (k > w[1] && k <= 16)
			w[1] = k;
	}
}

void
sq_help_open(struct sq_app *app, const struct sq_cmd_def *cmds)
{
	static const int key_w[] = { 20, 11 }, cmd_w[] = { 28 },
			 view_w[] = { 12, 14 };
	struct sq_pane *p = &app->pane;
	struct sq_table *t = sq_app_table(app);
	char keys[128];
	int col_w[2];
	size_t i;
	int a, j;

	sq_pane_clear(p, "squall help (j/k scroll, Esc closes)", SQ_PANE_HELP);
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Keys");
	for (a = 0; a < SQ_TA_COUNT; a++) {
		sq_keymap_keys_of(&app->keymap, sq_ta_name(a), keys,
				  sizeof(keys));
		row3(p, key_w, keys[0] ? keys : "(unbound)", sq_ta_name(a),
		     sq_ta_help(a));
	}
	/* bindings to commands and cluster actions (config `bind`) */
	for (i = 0; i < app->keymap.n; i++) {
		const struct sq_keybind *b = &app->keymap.b[i];
		char kn[32];

		if (b->action != SQ_TA_NONE || hidden_binding(app, b->name))
			continue;
		row3(p, key_w, sq_key_name(b->key, kn, sizeof(kn)), b->name,
		     "");
	}
	row3(p, key_w, "o, O, b", "",
	     "jobs, history: the job's stdout, stderr or batch script, "
	     "following the file (k pauses, G resumes, / searches)");
	sq_tui_action_help(app, p);
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0,
		    "Commands (type : first; Tab completes)");
	for (j = 0; cmds[j].name != NULL; j++) {
		char name[64];

		if ((app->readonly || app->cfg.readonly) &&
		    (cmds[j].flags & SQ_CMD_CHANGES))
			continue;
		snprintf(name, sizeof(name), "%s%s%s", cmds[j].name,
			 cmds[j].aliases ? ", " : "",
			 cmds[j].aliases ? cmds[j].aliases : "");
		row3(p, cmd_w, name, cmds[j].help, NULL);
	}
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Views (:name or an alias)");
	for (j = 0; sq_views[j] != NULL; j++) {
		const struct sq_view_def *v = sq_views[j];
		char al[128] = "";
		size_t o = 0;
		int k;

		for (k = 0; v->aliases != NULL && v->aliases[k] != NULL; k++) {
			int w = snprintf(al + o, sizeof(al) - o, "%s%s",
					 k ? "," : "", v->aliases[k]);

			if (w < 0 || (size_t)w >= sizeof(al) - o)
				break;
			o += (size_t)w;
		}
		row3(p, view_w, v->name, al, v->help ? v->help : "");
	}
	for (j = 0; j < (int)app->conf->views.n; j++) {
		const struct sq_saved_view *sv = &app->conf->views.v[j];
		char f[1100], what[1300];

		if (!sv->custom)
			continue;
		snprintf(what, sizeof(what), "saved view of %s %s%s",
			 sv->of->name, sv->filter[0] ? "filtered " : "",
			 sq_sanitize(sv->filter, f, sizeof(f)));
		row3(p, view_w, sq_sanitize(sv->name, f, sizeof(f)), "", what);
	}
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0,
		    "Columns of %s (:columns, :sort, /@column=value)",
		    t->def->name);
	col_widths(t->def, col_w);
	for (i = 0; i < t->def->ncols; i++)
		row3(p, col_w, t->def->cols[i].id, t->def->cols[i].title,
		     t->def->cols[i].help ? t->def->cols[i].help : "");
	app->mode = SQ_MODE_PANE;
	app->dirty = 1;
}

/* The errors the message line showed this session, whole, oldest first. */
static void
session_errors(struct sq_app *app, struct sq_pane *p)
{
	const struct sq_app_errs *e = &app->errs;
	size_t n = e->total < SQ_APP_ERRS ? e->total : SQ_APP_ERRS, i, k;
	char when[16], safe[sizeof(e->text[0]) * 2];
	struct tm tm;

	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "This session (oldest first)");
	if (e->total > n)
		sq_pane_add(p, SQ_ROLE_DIALOG, 0, "(%zu older ones dropped)",
			    e->total - n);
	for (i = 0; i < n; i++) {
		k = (e->total - n + i) % SQ_APP_ERRS;
		if (localtime_r(&e->when[k], &tm) == NULL ||
		    strftime(when, sizeof(when), "%H:%M:%S", &tm) == 0)
			snprintf(when, sizeof(when), "?");
		sq_pane_add(p, SQ_ROLE_STATUS_ERROR, 11, "%-9s %s", when,
			    sq_sanitize(e->text[k], safe, sizeof(safe)));
	}
}

void
sq_messages_open(struct sq_app *app)
{
	struct sq_pane *p = &app->pane;
	size_t i;

	sq_pane_clear(p, "error messages (Esc closes)", SQ_PANE_MESSAGES);
	if (app->conf->nmsgs_total == 0 && app->errs.total == 0)
		sq_pane_add(p, SQ_ROLE_DIALOG, 0, "No errors.");
	if (app->errs.total > 0)
		session_errors(app, p);
	if (app->conf->nmsgs_total > 0)
		sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Configuration");
	if (app->conf->nmsgs_total > app->conf->nmsgs)
		sq_pane_add(p, SQ_ROLE_DIALOG, 0, "(%zu older ones dropped)",
			    app->conf->nmsgs_total - app->conf->nmsgs);
	for (i = 0; i < app->conf->nmsgs; i++)
		sq_pane_add(p, SQ_ROLE_STATUS_ERROR, 2, "%s",
			    app->conf->msgs[i].text);
	app->mode = SQ_MODE_PANE;
	app->dirty = 1;
}
