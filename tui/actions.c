/*
 * actions.c - cluster actions in the console: per-view keys and `:`
 * commands from the one action table (core/action/action.h), targets from the
 * tagged rows (else the cursor row; `*` for every row the filter shows,
 * tui/action_targets.c), read-only refusal, the arguments parsed and
 * checked, then the action handed to the dialog (tui/action_dialog.c);
 * the actions' lines of the help pane and their Tab completion. (`:audit`
 * and `:undo` are rows of the command table, tui/cmd.c.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "tui/action_dialog.h"
#include "tui/action_targets.h"
#include "tui/actions.h"
#include "tui/app.h"
#include "tui/pane.h"
#include "tui/table.h"

static int
view_kind(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);

	if (t == NULL)
		return -1;
	/* gpus-idle's rows are running jobs: the job actions apply */
	return t->def->kind == SQ_KIND_GPUUSE ? (int)SQ_KIND_JOBS
					      : (int)t->def->kind;
}

int
sq_tui_action_dispatch(struct sq_app *app, const char *line)
{
	struct sq_action a;
	struct sq_err err;
	char word[64], **targets = NULL, rest[1024];
	size_t n = strcspn(line, " \t"), nt, hidden = 0;
	int kind = view_kind(app), all = 0;
	const struct sq_action_def *d;

	if (n >= sizeof(word))
		n = sizeof(word) - 1;
	memcpy(word, line, n);
	word[n] = '\0';
	d = sq_action_find(word, kind);
	if (d == NULL && (d = sq_action_find(word, -1)) != NULL &&
	    (d->flags & SQ_ACT_ANY_VIEW))
		kind = -1; /* :submit works in every view */
	else if (d != NULL && !(d->flags & SQ_ACT_ANY_VIEW) &&
		 (int)d->kind != kind)
		d = NULL;
	if (d == NULL) {
		d = sq_action_find(word, -1);
		if (d != NULL)
			sq_app_message(app, 1,
				       "%s works in the %s view, not here",
				       word, sq_kind_name(d->kind));
		else
			sq_app_message(app, 1,
				       "unknown command: %s (try :help)", word);
		return -1;
	}
	if (sq_action_readonly_check(
		d, NULL, app->readonly || app->cfg.readonly, &err) == -1) {
		sq_action_init(&a, d->type);
		sq_tui_action_refused(app, &a, err.msg);
		sq_action_free(&a);
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	/* "*" as the first word: every row the current filter shows */
	snprintf(rest, sizeof(rest), "%s", line);
	{
		const char *p = line + n;

		while (*p == ' ' || *p == '\t')
			p++;
		if (p[0] == '*' && (p[1] == '\0' || p[1] == ' ')) {
			all = 1;
			snprintf(rest, sizeof(rest), "%s%s", word, p + 1);
		}
	}
	nt = (d->flags & SQ_ACT_CREATES)
		 ? 0
		 : sq_tui_action_targets(app, all, &targets, &hidden);
	if (!(d->flags & SQ_ACT_CREATES) && nt == 0) {
		sq_tui_action_targets_free(targets, nt);
		if (hidden > 0)
			sq_app_message(app, 1,
				       "%s: the %zu tagged row%s not visible "
				       "(filter); nothing run",
				       d->name, hidden,
				       hidden == 1 ? " is" : "s are");
		else
			sq_app_message(app, 1, "%s: no row selected", d->name);
		return -1;
	}
	if (sq_action_parse_with(rest, kind, (const char *const *)targets, nt,
				 &app->conf->reasons, &a, &err) == -1) {
		if (err.code == SQ_ERR_DENIED) {
			struct sq_action r;

			sq_action_init(&r, d->type);
			sq_tui_action_refused(app, &r, err.msg);
			sq_action_free(&r);
		}
		sq_tui_action_targets_free(targets, nt);
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	sq_tui_action_targets_free(targets, nt);
	return sq_tui_action_start(app, &a, hidden);
}

int
sq_tui_action_key(struct sq_app *app, int key, char *prompt, size_t n)
{
	const struct sq_action_def *d = sq_action_for_key(view_kind(app), key);
	struct sq_err err;
	size_t i;
	int needs_input = 0;

	if (d == NULL)
		return 0;
	if (sq_action_readonly_check(
		d, NULL, app->readonly || app->cfg.readonly, &err) == -1) {
		sq_app_message(app, 1, "%s", err.msg);
		return 1;
	}
	for (i = 0; i < d->nargs; i++) {
		if (d->args[i].flags & SQ_ARGF_REQUIRED)
			needs_input = 1;
	}
	if ((d->flags & (SQ_ACT_NEEDS_ARG | SQ_ACT_CREATES)) || needs_input) {
		/* the `:` prompt, pre-filled; Up recalls earlier reasons */
		snprintf(prompt, n, "%s ", d->name);
		return SQ_TUI_ACTION_PROMPT;
	}
	sq_tui_action_dispatch(app, d->name);
	return 1;
}

/* An action's help row: key, :usage, what it does, aligned by display
 * width (tui/pane.h). */
static void
help_row(struct sq_pane *p, const char *key, const char *use, const char *help,
	 const char *states)
{
	static const int w[] = { 3, 30 };
	char cmd[210], what[400];
	const char *cells[3] = { key, cmd, what };

	snprintf(cmd, sizeof(cmd), ":%s", use);
	snprintf(what, sizeof(what), "%s%s", help, states);
	sq_pane_row(p, SQ_ROLE_NORMAL, w, 3, cells);
}

void
sq_tui_action_help(struct sq_app *app, struct sq_pane *p)
{
	int kind = view_kind(app), ro = app->readonly || app->cfg.readonly;
	size_t i;
	int any = 0;

	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		const struct sq_action_def *d = sq_action_def(i);
		char key[8];

		if (((int)d->kind != kind && !(d->flags & SQ_ACT_ANY_VIEW)) ||
		    !sq_action_visible(d, ro))
			continue;
		if (!any)
			sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0,
				    "Actions in this view (tagged rows, else "
				    "the cursor row; `:%s *` for every "
				    "filtered row)",
				    d->name);
		any = 1;
		snprintf(key, sizeof(key), "%c", d->key ? d->key : ' ');
		/* the targets are the rows: "drain NODE... reason=TEXT" is
		 * typed ":drain reason=TEXT" (or ":drain TEXT") here */
		{
			char use[200];
			const char *u = d->usage + strlen(d->name);
			const char *dots = strstr(u, "...");

			if (dots != NULL && !(d->flags & SQ_ACT_CREATES))
				u = dots + 3;
			char states[128] = "";

			snprintf(use, sizeof(use), "%s%s", d->name, u);
			if (d->states != NULL) {
				strcpy(states, " (applies to ");
				sq_action_states_text(d, states + 13,
						      sizeof(states) - 14);
				strcat(states, ")");
			}
			help_row(p, key, use, d->help, states);
		}
	}
	if (ro)
		sq_pane_add(p, SQ_ROLE_NORMAL, 0,
			    "Read-only: no actions (:audit still works)");
}

int
sq_tui_action_complete(struct sq_app *app, const char *prefix, const char **out,
		       int max)
{
	int kind = view_kind(app), ro = app->readonly || app->cfg.readonly;
	int n = 0;
	size_t i, l = strlen(prefix);

	for (i = 0; i < SQ_ACTION_COUNT && n < max; i++) {
		const struct sq_action_def *d = sq_action_def(i);

		if (((int)d->kind == kind || (d->flags & SQ_ACT_ANY_VIEW)) &&
		    sq_action_visible(d, ro) &&
		    strncmp(d->name, prefix, l) == 0)
			out[n++] = d->name;
	}
	return n;
}

const struct sq_action_def *
sq_tui_action_named(struct sq_app *app, const char *name)
{
	const struct sq_action_def *d = sq_action_find(name, view_kind(app));

	return d != NULL ? d : sq_action_find(name, -1);
}
