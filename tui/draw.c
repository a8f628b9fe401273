/*
 * draw.c - the screen: title line, the body (table, special view, text
 * pane or column chooser, or why there is nothing to show), the status
 * line (cluster, backend, data age, stale mark, last error, queries per
 * minute, spinner) and the message/prompt line. Widths come from wcwidth;
 * "terminal too small" below SQ_MIN_COLS x SQ_MIN_ROWS.
 */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "backends/backend.h"
#include "core/base/sanitize.h"
#include "tui/action_dialog.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/draw.h"
#include "tui/pane.h"
#include "tui/question.h"
#include "tui/table.h"
#include "tui/table_draw.h"
#include "tui/text.h"
#include "tui/views.h"
#include "tui/worker.h"

/* ------------------------------------------------------------ lines */

static void
fmt_age(long secs, char *buf, size_t n)
{
	if (secs < 0)
		secs = 0;
	if (secs < 120)
		snprintf(buf, n, "%lds", secs);
	else if (secs < 7200)
		snprintf(buf, n, "%ldm", secs / 60);
	else if (secs < 172800)
		snprintf(buf, n, "%ldh", secs / 3600);
	else
		snprintf(buf, n, "%ldd", secs / 86400);
}

static void
draw_title(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	int attr = sq_color_attr(app, SQ_ROLE_TITLE);
	char line[1024], part[512], age[64];
	size_t total = t->snap ? t->snap->nrows : 0;

	snprintf(line, sizeof(line), " squall  :%s  %zu/%zu%s",
		 t->vname[0] ? t->vname : t->def->name,
		 t->nrows ? t->cur + 1 : 0, t->nrows, t->pending ? "+" : "");
	if (t->nrows != total || t->pending) {
		snprintf(part, sizeof(part), " (of %zu)", total);
		strncat(line, part, sizeof(line) - strlen(line) - 1);
	}
	if (sq_filter_active(&t->filter)) {
		char safe[300];

		snprintf(part, sizeof(part), "  /%s",
			 sq_sanitize(t->filter.text, safe, sizeof(safe)));
		strncat(line, part, sizeof(line) - strlen(line) - 1);
	}
	if (t->sort >= 0) {
		snprintf(part, sizeof(part), "  sort:%s%s",
			 t->sort_desc ? "-" : "", t->def->cols[t->sort].id);
		strncat(line, part, sizeof(line) - strlen(line) - 1);
	}
	if (t->ops != NULL && t->ops->title != NULL &&
	    t->ops->title(t, age, sizeof(age))[0] != '\0') {
		/* the jobs view: its sprio (or rank) columns are older than
		 * the queue */
		snprintf(part, sizeof(part), "  %s", age);
		strncat(line, part, sizeof(line) - strlen(line) - 1);
	}
	if (t->ntags > 0) {
		snprintf(part, sizeof(part), "  tagged:%zu", t->ntags);
		strncat(line, part, sizeof(line) - strlen(line) - 1);
	}
	if (app->readonly)
		strncat(line, "  [read-only]", sizeof(line) - strlen(line) - 1);
	sq_put_fit(0, 0, app->cols, line, attr);
	if (app->cols > 60)
		sq_put(0, app->cols - 9, 9, "? help  ", attr);
}

static void
draw_status(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	const struct sq_worker_status *st = &app->st;
	const struct sq_worker_kind *k = &st->kind[t->def->kind];
	int y = app->rows - 2, x = 0, attr = sq_color_attr(app, SQ_ROLE_STATUS);
	int sattr = sq_color_attr(app, SQ_ROLE_STALE);
	int eattr = sq_color_attr(app, SQ_ROLE_STATUS_ERROR);
	char buf[700], age[32];
	static const char spin[] = "|/-\\";
	time_t now = time(NULL);
	int interval =
	    sq_worker_interval(t->def->kind, app->cfg.refresh,
			       (int)app->conf->num[SQ_OPT_REFRESH_SLOW]);

	sq_clear(y, 0, app->cols, attr);
	if (st->busy) {
		snprintf(buf, sizeof(buf), " %c", spin[app->spin % 4]);
		x += sq_put(y, x, app->cols - x, buf, attr);
	}
	snprintf(buf, sizeof(buf), " %s %s%s%s ", app->cfg.name, st->backend,
		 st->version[0] ? " " : "", st->version);
	x += sq_put(y, x, app->cols - x, buf, attr);
	if (k->fetched > 0) {
		int stale =
		    k->error[0] != '\0' || now - k->fetched > 3L * interval + 5;

		fmt_age((long)(now - k->fetched), age, sizeof(age));
		snprintf(buf, sizeof(buf), "| %s%s ", stale ? "STALE " : "",
			 age);
		x += sq_put(y, x, app->cols - x, buf, stale ? sattr : attr);
	}
	/* slurmctld RPCs a minute, and slurmdbd's share when there is one */
	if (st->dbd_per_min > 0)
		snprintf(buf, sizeof(buf), "| %u q/min +%u dbd ",
			 st->queries_per_min, st->dbd_per_min);
	else
		snprintf(buf, sizeof(buf), "| %u q/min ", st->queries_per_min);
	x += sq_put(y, x, app->cols - x, buf, attr);
	if (app->paused) {
		x += sq_put(y, x, app->cols - x, "| PAUSED (idle): any key ",
			    sattr);
	} else if (app->unfocused) {
		snprintf(buf, sizeof(buf), "| unfocused: every %d s ",
			 (int)app->conf->num[SQ_OPT_REFRESH_SLOW]);
		x += sq_put(y, x, app->cols - x, buf, attr);
	}
	if (st->busy) {
		snprintf(buf, sizeof(buf), "| fetching %s %.0fs ",
			 sq_kind_name(st->busy_kind), st->busy_secs);
		x += sq_put(y, x, app->cols - x, buf, attr);
	}
	if (st->error[0] != '\0' && now - st->error_time < 300) {
		char safe[600];

		snprintf(buf, sizeof(buf), "| error: %s",
			 sq_sanitize(st->error, safe, sizeof(safe)));
		x += sq_put(y, x, app->cols - x, buf, eattr);
	} else if (t->snap != NULL && t->snap->note != NULL) {
		/* what the backend could not fill (empty sprio columns) */
		snprintf(buf, sizeof(buf), "| %s", t->snap->note);
		x += sq_put(y, x, app->cols - x, buf, attr);
	}
}

static void
draw_message(struct sq_app *app)
{
	int y = app->rows - 1, attr;
	char safe[600];

	if (app->prompt.active) {
		char line[600];
		int w, cx;

		attr = sq_color_attr(app, SQ_ROLE_PROMPT);
		snprintf(line, sizeof(line), "%c%s", app->prompt.kind,
			 sq_sanitize(app->prompt.buf, safe, sizeof(safe)));
		sq_put_fit(y, 0, app->cols, line, attr);
		/* the cursor: width of the text before it */
		snprintf(line, sizeof(line), "%c%.*s", app->prompt.kind,
			 (int)app->prompt.pos, app->prompt.buf);
		sq_sanitize(line, safe, sizeof(safe));
		w = sq_width(safe);
		cx = w < app->cols ? w : app->cols - 1;
		move(y, cx);
		return;
	}
	if (app->msg[0] != '\0') {
		attr = sq_color_attr(app, app->msg_error ? SQ_ROLE_STATUS_ERROR
							 : SQ_ROLE_NORMAL);
		sq_sanitize(app->msg, safe, sizeof(safe));
		/* an error cut at the width: where to read it whole */
		if (app->msg_error && sq_width(safe) > app->cols &&
		    app->cols > 30) {
			sq_put_fit(y, 0, app->cols - 12, safe, attr);
			sq_put(y, app->cols - 12, 12, " (:messages)", attr);
			return;
		}
		sq_put_fit(y, 0, app->cols, safe, attr);
		return;
	}
	sq_put_fit(y, 0, app->cols,
		   app->mode == SQ_MODE_TABLE
		       ? " :view /filter Enter detail Space tag s sort "
			 "c columns r refresh ? help q quit"
		       : " j/k scroll  1-9 follow a link  Esc close",
		   sq_color_attr(app, SQ_ROLE_NORMAL));
}

/* ------------------------------------------------------------ body */

static const char *
cap_needs(unsigned cap)
{
	if (cap & SQ_CAP_ACCOUNTING)
		return "the accounting database (sacctmgr, slurmdbd)";
	if (cap & SQ_CAP_SHARES)
		return "fairshare data (sshare)";
	if (cap & SQ_CAP_EVENTS)
		return "job accounting (sacct) or the controller log";
	if (cap & SQ_CAP_SPRIO)
		return "priority factors (sprio, multifactor priority)";
	if (cap & SQ_CAP_RESERVATIONS)
		return "reservations";
	if (cap & SQ_CAP_DIAG)
		return "controller statistics (sdiag)";
	if (cap & SQ_CAP_CONFIG)
		return "the running configuration";
	return "this kind of data";
}

/* Why the view has no rows to show, or NULL when it has. */
static int
draw_empty(struct sq_app *app, struct sq_table *t, int y, int h)
{
	const struct sq_worker_status *st = &app->st;
	const struct sq_worker_kind *k = &st->kind[t->def->kind];
	char msg[900], safe[700];
	unsigned need = sq_kind_cap(t->def->kind);
	int attr = sq_color_attr(app, SQ_ROLE_NORMAL), i;

	if (t->snap != NULL && t->nrows > 0)
		return 0;
	msg[0] = '\0';
	if (st->state != SQ_WORKER_READY && t->snap == NULL) {
		if (st->state == SQ_WORKER_FAILED)
			snprintf(msg, sizeof(msg),
				 "Cannot connect to %s (%s): %s. Retrying; "
				 "r retries now.",
				 app->cfg.name, st->backend,
				 sq_sanitize(st->error, safe, sizeof(safe)));
		else
			snprintf(msg, sizeof(msg), "Connecting to %s (%s)...",
				 app->cfg.name, st->backend);
	} else if (k->unsupported && t->snap == NULL) {
		/* the backend's own reason */
		snprintf(msg, sizeof(msg), "The %s view is not available: %s",
			 t->def->name,
			 sq_sanitize(k->error, safe, sizeof(safe)));
		attr = sq_color_attr(app, SQ_ROLE_DANGER);
	} else if ((st->caps & need) != need && t->snap == NULL &&
		   !(st->busy && st->busy_kind == t->def->kind)) {
		snprintf(msg, sizeof(msg),
			 "The %s backend cannot serve the %s view on this "
			 "cluster: it needs %s.",
			 st->backend, t->def->name,
			 cap_needs(need & ~st->caps));
		attr = sq_color_attr(app, SQ_ROLE_DANGER);
	} else if (k->error[0] != '\0' && t->snap == NULL) {
		snprintf(msg, sizeof(msg),
			 "Could not read the %s view: %s. Retrying; r "
			 "retries now.",
			 t->def->name,
			 sq_sanitize(k->error, safe, sizeof(safe)));
		attr = sq_color_attr(app, SQ_ROLE_STATUS_ERROR);
	} else if (t->snap == NULL && st->busy &&
		   st->busy_kind != t->def->kind) {
		snprintf(msg, sizeof(msg),
			 "Loading %s: waiting for the %s fetch to finish "
			 "(%.0f s so far; one call at a time).",
			 t->def->name, sq_kind_name(st->busy_kind),
			 st->busy_secs);
	} else if (t->snap == NULL) {
		snprintf(msg, sizeof(msg), "Loading %s...", t->def->name);
	} else if (t->snap->nrows == 0) {
		snprintf(msg, sizeof(msg), "No %s.", t->def->name);
	} else {
		snprintf(msg, sizeof(msg),
			 "No row matches the filter /%s (Esc clears it).",
			 sq_sanitize(t->filter.text, safe, sizeof(safe)));
	}
	/* wrap the message over the body */
	for (i = 0; i < h; i++)
		sq_clear(y + i, 0, app->cols, sq_color_attr(app, 0));
	{
		const char *p = msg;
		int row = y + 1, w = app->cols - 4;

		while (*p != '\0' && row < y + h) {
			int len = (int)strlen(p), cut = len;

			if (sq_width(p) > w) {
				cut = w < len ? w : len;
				while (cut > 0 && p[cut] != ' ')
					cut--;
				if (cut == 0)
					cut = w < len ? w : len;
			}
			snprintf(safe, sizeof(safe), "%.*s", cut, p);
			sq_put(row++, 2, w, safe, attr);
			p += cut;
			while (*p == ' ')
				p++;
		}
	}
	return 1;
}

static void
draw_pane(struct sq_app *app, int y, int h)
{
	struct sq_pane *p = &app->pane;
	int row = y + 1, w = app->cols - 2, i;
	size_t li;

	for (i = 0; i < h; i++)
		sq_clear(y + i, 0, app->cols,
			 sq_color_attr(app, SQ_ROLE_DIALOG));
	sq_put_fit(y, 0, app->cols, p->title,
		   sq_color_attr(app, SQ_ROLE_DIALOG_TITLE));
	app->page = h - 1;
	if (p->top >= p->n)
		p->top = p->n ? p->n - 1 : 0;
	for (li = p->top; li < p->n && row < y + h; li++) {
		const struct sq_pane_line *l = &p->lines[li];
		const char *s = l->text;
		int attr = sq_color_attr(app, l->role), first = 1;

		/* lines that wrap take more rows: PgDn moves by the lines
		 * shown whole before the last one drawn (pane_key: page - 2),
		 * so that none is skipped and the next page starts with it */
		if (li > p->top)
			app->page = (int)(li - p->top) + 2;
		if (*s == '\0')
			row++;
		while (*s != '\0' && row < y + h) {
			int ind = first ? 0 : l->indent, used;
			char piece[1024];
			int len = (int)strlen(s), cut = len;

			/* cut at a blank that fits, else hard */
			if (sq_width(s) > w - ind) {
				int cw = 0, k = 0, lastsp = -1;

				while (s[k] != '\0') {
					int b = (int)mblen(s + k, MB_CUR_MAX);
					char one[8];

					if (b <= 0)
						b = 1;
					snprintf(one, sizeof(one), "%.*s", b,
						 s + k);
					if (cw + sq_width(one) > w - ind)
						break;
					cw += sq_width(one);
					if (s[k] == ' ')
						lastsp = k;
					k += b;
				}
				cut = lastsp > 0 ? lastsp : (k > 0 ? k : 1);
			}
			snprintf(piece, sizeof(piece), "%.*s", cut, s);
			used = sq_put(row, 1 + ind, w - ind, piece, attr);
			(void)used;
			s += cut;
			while (*s == ' ')
				s++;
			row++;
			first = 0;
		}
	}
}

static void
draw_chooser(struct sq_app *app, int y, int h)
{
	struct sq_colchooser *ch = &app->chooser;
	struct sq_table *t = sq_app_table(app);
	int i, top = 0, rows = h - 2;
	char line[512];

	for (i = 0; i < h; i++)
		sq_clear(y + i, 0, app->cols,
			 sq_color_attr(app, SQ_ROLE_DIALOG));
	snprintf(line, sizeof(line),
		 " Columns of %s: Space shows/hides, J/K move, Enter "
		 "applies, Esc cancels",
		 t->def->name);
	sq_put_fit(y, 0, app->cols, line,
		   sq_color_attr(app, SQ_ROLE_DIALOG_TITLE));
	app->page = rows;
	if (rows < 1)
		return;
	if (ch->cur >= rows)
		top = ch->cur - rows + 1;
	for (i = 0; i < rows && top + i < ch->n; i++) {
		const struct sq_column *c = &t->def->cols[ch->order[top + i]];
		int attr =
		    sq_color_attr(app, top + i == ch->cur ? SQ_ROLE_SELECTION
							  : SQ_ROLE_DIALOG);

		snprintf(line, sizeof(line), " [%c] %-16s %-10s %s",
			 ch->on[top + i] ? 'x' : ' ', c->id, c->title, c->help);
		sq_put_fit(y + 1 + i, 0, app->cols, line, attr);
	}
}

void
sq_draw(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	int body_y = 1, body_h = app->rows - 3;

	getmaxyx(stdscr, app->rows, app->cols);
	body_h = app->rows - 3;
	app->too_small = app->cols < SQ_MIN_COLS || app->rows < SQ_MIN_ROWS;
	erase();
	if (app->too_small) {
		char msg[128];

		sq_put(0, 0, app->cols, "terminal too small", A_BOLD);
		snprintf(msg, sizeof(msg), "%dx%d, need %dx%d", app->cols,
			 app->rows, SQ_MIN_COLS, SQ_MIN_ROWS);
		if (app->rows > 1)
			sq_put(1, 0, app->cols, msg, A_NORMAL);
		if (app->rows > 2)
			sq_put(2, 0, app->cols, "q quits", A_NORMAL);
		refresh();
		return;
	}
	curs_set(app->prompt.active ? 1 : 0);
	draw_title(app);
	if (app->mode == SQ_MODE_PANE) {
		draw_pane(app, body_y, body_h);
	} else if (app->mode == SQ_MODE_COLUMNS) {
		draw_chooser(app, body_y, body_h);
	} else if (!draw_empty(app, t, body_y, body_h)) {
		int used = -1;

		if (t->mode != 0 && t->ops != NULL && t->ops->draw_body != NULL)
			used = t->ops->draw_body(app, t, body_y, 0, body_h,
						 app->cols);
		if (used < 0)
			sq_table_draw(app, t, body_y, 0, body_h, app->cols);
		else
			app->page = used;
	}
	draw_status(app);
	draw_message(app);
	if (app->st.question != 0)
		sq_question_draw(app);
	sq_tui_action_draw(app);
	refresh();
}
