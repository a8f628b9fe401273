/*
 * action_undo.c - `:audit` (the log through core/action/audit.c, its one
 * reader, opened at its end, the inverses numbered) and `:undo` (the
 * newest inverse of this session on this cluster, or `:undo N` from
 * :audit on its own cluster; never in read-only mode).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "core/action/audit.h"
#include "core/base/sanitize.h"
#include "tui/action_dialog.h"
#include "tui/action_undo.h"
#include "tui/app.h"
#include "tui/pane.h"

int
sq_tui_action_audit(struct sq_app *app)
{
	struct sq_audit_entry *v = NULL;
	char path[1024], safe[1024], text[1400], label[512];
	struct sq_err err;
	size_t n = 0, i, k, page, line;

	if (sq_audit_default_path(path, sizeof(path), &err) == -1 ||
	    sq_audit_read(path, 500, &v, &n, &err) == -1) {
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	sq_pane_clear(&app->pane, "audit log (newest last)", SQ_PANE_MESSAGES);
	sq_sanitize(path, safe, sizeof(safe));
	sq_pane_add(&app->pane, SQ_ROLE_DIALOG_TITLE, 0, "%s", safe);
	if (n == 0)
		sq_pane_add(&app->pane, SQ_ROLE_NORMAL, 0, "(no actions yet)");
	for (i = 0; i < n; i++) {
		const struct sq_audit_entry *e = &v[i];
		int failed = strcmp(e->event, "refused") == 0 ||
			     (strcmp(e->event, "result") == 0 &&
			      strcmp(e->ok, "true") != 0);

		snprintf(
		    text, sizeof(text), "%.19s %-7s %-14.14s %-11s %-20s %s",
		    e->time, e->event, e->cluster, e->action, e->targets,
		    strcmp(e->event, "intent") == 0 ? e->command : e->message);
		sq_sanitize(text, safe, sizeof(safe));
		sq_pane_add(&app->pane,
			    failed ? SQ_ROLE_DANGER : SQ_ROLE_NORMAL, 8, "%s",
			    safe);
	}
	/* the inverses, numbered from the newest: `:undo N` offers one */
	for (i = n, k = 0; i-- > 0;) {
		const char *p = v[i].inverse;

		if (strcmp(v[i].event, "result") != 0 || *p == '\0')
			continue;
		if (k == 0)
			sq_pane_add(&app->pane, SQ_ROLE_DIALOG_TITLE, 0,
				    "undo (newest first; :undo N offers one, "
				    "on its own cluster):");
		for (line = 0; *p != '\0' && k < 99; line++) {
			size_t l = strcspn(p, "\n");

			sq_audit_undo_label_line(&v[i], line, label,
						 sizeof(label));
			snprintf(text, sizeof(text),
				 "#%-3zu %-14.14s %.19s %.*s  (%.300s)", ++k,
				 v[i].cluster, v[i].time, (int)l, p, label);
			sq_sanitize(text, safe, sizeof(safe));
			sq_pane_add(&app->pane, SQ_ROLE_NORMAL, 8, "%s", safe);
			p += l + (p[l] == '\n');
		}
	}
	free(v);
	/* opened at the end: the newest line on the last row */
	page = app->page > 2   ? (size_t)app->page - 2
	       : app->rows > 6 ? (size_t)app->rows - 6
			       : 1;
	app->pane.top = app->pane.n > page ? app->pane.n - page : 0;
	app->mode = SQ_MODE_PANE;
	app->dirty = 1;
	return 0;
}

/* :undo: the inverse of the newest action of this session on this
 * cluster (the audit log records both), never in read-only mode. */
/* Line k (1: newest) of the inverses in the audit log, as :audit numbers
 * them, and its cluster. -1 with a message when there is none. */
static int
audit_inverse(struct sq_app *app, size_t k, char *line, size_t n, char *cluster,
	      size_t cn, char *label, size_t ln)
{
	struct sq_audit_entry *v;
	struct sq_err err;
	size_t nv, i, j, c = 0;

	if (sq_audit_read(NULL, 500, &v, &nv, &err) == -1) {
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	for (i = nv; i-- > 0 && c < k;) {
		const char *p = v[i].inverse;

		if (strcmp(v[i].event, "result") != 0)
			continue;
		for (j = 0; *p != '\0' && c < k; j++) {
			size_t l = strcspn(p, "\n");

			if (++c == k) {
				snprintf(line, n, "%.*s", (int)l, p);
				snprintf(cluster, cn, "%s", v[i].cluster);
				sq_audit_undo_label_line(&v[i], j, label, ln);
			}
			p += l + (p[l] == '\n');
		}
	}
	free(v);
	if (c < k) {
		sq_app_message(app, 1, "undo: no #%zu in :audit", k);
		return -1;
	}
	return 0;
}

int
sq_tui_action_undo(struct sq_app *app, const char *arg)
{
	char first[1024], cl[64];
	struct sq_audit_undo u;
	struct sq_action a;
	struct sq_err err;
	size_t more;

	if (sq_action_readonly_check(
		NULL, "undo", app->readonly || app->cfg.readonly, &err) == -1) {
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	while (*arg == ' ')
		arg++;
	if (*arg != '\0') {
		/* an explicit choice from :audit, on its own cluster */
		char *end;
		unsigned long k = strtoul(arg, &end, 10);

		if (k == 0 || *end != '\0') {
			sq_app_message(app, 1,
				       "undo: N is a number from :audit");
			return -1;
		}
		if (audit_inverse(app, k, first, sizeof(first), cl, sizeof(cl),
				  u.label, sizeof(u.label)) == -1)
			return -1;
		if (strcmp(cl, app->cfg.name) != 0) {
			sq_app_message(app, 1,
				       "undo #%lu was on %s, not %s (:cluster "
				       "%s first)",
				       k, cl, app->cfg.name, cl);
			return -1;
		}
		if (sq_action_parse(first, -1, NULL, 0, &a, &err) == -1) {
			sq_app_message(app, 1, "undo: %s", err.msg);
			return -1;
		}
		return sq_tui_action_start_undo(app, &a, u.label);
	}
	if (sq_audit_last_undo(NULL, sq_audit_session(), app->cfg.name, &u,
			       &err) == -1) {
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	if (u.inverse[0] == '\0') {
		sq_app_message(app, 1,
			       "nothing to undo: no action of this session "
			       "on %s%s%.200s",
			       app->cfg.name, u.note[0] ? " (" : "", u.note);
		return -1;
	}
	/* several lines (targets that had different old values): the first
	 * now; the others are numbered in :audit */
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(u.inverse, "\n"),
		 u.inverse);
	for (more = 0; strchr(u.inverse, '\n') != NULL; more++)
		*strchr(u.inverse, '\n') = ' ';
	if (sq_action_parse(first, -1, NULL, 0, &a, &err) == -1) {
		sq_app_message(app, 1, "undo: %s", err.msg);
		return -1;
	}
	if (sq_tui_action_start_undo(app, &a, u.label) == -1)
		return -1;
	if (more > 0 || u.note[0] != '\0')
		sq_app_message(app, 0, "%s%s%s", u.note,
			       u.note[0] && more ? "; " : "",
			       more ? "undo: the first of several lines "
				      "(:audit numbers the others for :undo N)"
				    : "");
	return 0;
}
