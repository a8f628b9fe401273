/*
 * help.c - text panes and the ones built from tables: `?`/`:help` (every
 * key of the live key map with its action's help, the view's action keys,
 * the commands, the views and this view's columns) and `:messages` (the
 * configuration errors). Nothing here is written by hand twice.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action.h"
#include "core/action_policy.h"
#include "tui/actions.h"
#include "core/sanitize.h"
#include "tui/app.h"
#include "tui/cmd.h"

void
sq_pane_free(struct sq_pane *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->lines[i].text);
	free(p->lines);
	p->lines = NULL;
	p->n = p->cap = 0;
}

void
sq_pane_clear(struct sq_pane *p, const char *title, int kind)
{
	sq_pane_free(p);
	snprintf(p->title, sizeof(p->title), " %s", title);
	p->top = 0;
	p->kind = kind;
	p->nlinks = 0;
	p->row_id[0] = '\0';
}

void
sq_pane_add(struct sq_pane *p, int role, int indent, const char *fmt, ...)
{
	va_list ap;
	char buf[2048];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 64;
		struct sq_pane_line *l = realloc(p->lines, nc * sizeof(*l));

		if (l == NULL)
			return;
		p->lines = l;
		p->cap = nc;
	}
	p->lines[p->n].text = strdup(buf);
	if (p->lines[p->n].text == NULL)
		return;
	p->lines[p->n].role = role;
	p->lines[p->n].indent = indent;
	p->n++;
}

static int
hidden_binding(const struct sq_app *app, const char *name)
{
	const struct sq_action_def *d;

	if (name[0] == ':' || sq_ta_from_name(name) != SQ_TA_NONE)
		return 0;
	d = sq_action_find(name, -1);
	return d != NULL && !sq_action_visible(d, app->readonly);
}

void
sq_help_open(struct sq_app *app)
{
	struct sq_pane *p = &app->pane;
	struct sq_table *t = sq_app_table(app);
	char keys[128];
	size_t i;
	int a, j;

	sq_pane_clear(p, "squall help (j/k scroll, Esc closes)", SQ_PANE_HELP);
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Keys");
	for (a = 0; a < SQ_TA_COUNT; a++) {
		sq_keymap_keys_of(&app->keymap, sq_ta_name(a), keys,
				  sizeof(keys));
		sq_pane_add(p, SQ_ROLE_DIALOG, 34, "  %-20s %-11s %s",
			    keys[0] ? keys : "(unbound)", sq_ta_name(a),
			    sq_ta_help(a));
	}
	/* bindings to commands and cluster actions (config `bind`) */
	for (i = 0; i < app->keymap.n; i++) {
		const struct sq_keybind *b = &app->keymap.b[i];
		char kn[32];

		if (b->action != SQ_TA_NONE || hidden_binding(app, b->name))
			continue;
		sq_pane_add(p, SQ_ROLE_DIALOG, 24, "  %-20s %s",
			    sq_key_name(b->key, kn, sizeof(kn)), b->name);
	}
	sq_tui_action_help(app, p);
	sq_pane_add(p, SQ_ROLE_DIALOG, 24, "  %-20s %s", "o, O, b",
		    "jobs, history: the job's stdout, stderr or batch script, "
		    "following the file (k pauses, G resumes, / searches)");
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0,
		    "Commands (type : first; Tab completes)");
	for (j = 0; sq_cmds[j].name != NULL; j++) {
		char name[64];

		snprintf(name, sizeof(name), "%s%s%s", sq_cmds[j].name,
			 sq_cmds[j].aliases ? ", " : "",
			 sq_cmds[j].aliases ? sq_cmds[j].aliases : "");
		sq_pane_add(p, SQ_ROLE_DIALOG, 24, "  %-28s %s", name,
			    sq_cmds[j].help);
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
		sq_pane_add(p, SQ_ROLE_DIALOG, 24, "  %-12s %-14s %s", v->name,
			    al, v->help ? v->help : "");
	}
	for (j = 0; j < (int)app->conf->views.n; j++) {
		const struct sq_saved_view *sv = &app->conf->views.v[j];
		char f[1100];

		if (sv->custom)
			sq_pane_add(p, SQ_ROLE_DIALOG, 24,
				    "  %-12s %-14s saved view of %s %s%s",
				    sv->name, "", sv->of->name,
				    sv->filter[0] ? "filtered " : "",
				    sq_sanitize(sv->filter, f, sizeof(f)));
	}
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0,
		    "Columns of %s (:columns, :sort, /@column=value)",
		    t->def->name);
	for (i = 0; i < t->def->ncols; i++)
		sq_pane_add(p, SQ_ROLE_DIALOG, 24, "  %-18s %-9s %s",
			    t->def->cols[i].id, t->def->cols[i].title,
			    t->def->cols[i].help ? t->def->cols[i].help : "");
	app->mode = SQ_MODE_PANE;
	app->dirty = 1;
}

void
sq_messages_open(struct sq_app *app)
{
	struct sq_pane *p = &app->pane;
	size_t i;

	sq_pane_clear(p, "configuration messages (Esc closes)",
		      SQ_PANE_MESSAGES);
	if (app->conf->nmsgs_total == 0)
		sq_pane_add(p, SQ_ROLE_DIALOG, 0, "No errors.");
	if (app->conf->nmsgs_total > app->conf->nmsgs)
		sq_pane_add(p, SQ_ROLE_DIALOG, 0, "(%zu older ones dropped)",
			    app->conf->nmsgs_total - app->conf->nmsgs);
	for (i = 0; i < app->conf->nmsgs; i++)
		sq_pane_add(p, SQ_ROLE_STATUS_ERROR, 2, "%s",
			    app->conf->msgs[i].text);
	app->mode = SQ_MODE_PANE;
	app->dirty = 1;
}
