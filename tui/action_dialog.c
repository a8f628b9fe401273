/*
 * action_dialog.c - a cluster action on its way through the console:
 * policy and read-only refusal (audited), the backend's describe() on the
 * worker thread, the preview dialog (y confirms; Enter, n and Esc answer
 * No; more than 10 targets need the count typed), the run on the worker
 * (audit intent and result lines, session/exec.c), the result on the
 * message line or in a pane for a bulk action's failures, a refresh of
 * what the action touched (now and twice as Slurm settles), and a new
 * job's row found for :submit.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "core/action/audit.h"
#include "core/model/model_admin.h"
#include "core/base/sanitize.h"
#include "session/exec.h"
#include "session/impact.h"
#include "tui/action_dialog.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/keys.h"
#include "tui/live.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/text.h"
#include "tui/worker.h"

/* After an action: fetched again at once, then SETTLE_TIMES more times,
 * SETTLE_FIRST s after it and SETTLE_NEXT s apart (slurmctld clears a
 * resumed node's NOT_RESPONDING at its next ping, a cancelled job leaves
 * COMPLETING when its epilog ends; the nodes' own interval is a minute) */
#define SETTLE_FIRST 3
#define SETTLE_NEXT 7
#define SETTLE_TIMES 2

/* One action on its way; shared with the worker thread only while a call
 * runs (then the UI thread does not touch it). */
struct sq_tui_job {
	struct sq_action a;
	int readonly;
	int kind; /* the view kind to refresh afterwards */
	int describe_rc;
	size_t nrun;   /* targets the preview would act on */
	size_t hidden; /* tagged rows the filter hides: left out */
	char desc[8192];
	char impact[4096]; /* node actions: what they hit (session/impact.h) */
	char label[512];   /* an undo: what it undoes, "" otherwise */
	struct sq_err err;
	struct sq_result res;
	int rc;
};

static void
job_free(struct sq_tui_job *j)
{
	if (j == NULL)
		return;
	sq_action_free(&j->a);
	sq_result_free(&j->res);
	free(j);
}

/* --- on the worker thread ------------------------------------------------ */

static void
w_describe(struct sq_backend *b, void *arg)
{
	struct sq_tui_job *j = arg;

	sq_err_clear(&j->err);
	j->describe_rc = sq_exec_preview(b, &j->a, j->desc, sizeof(j->desc),
					 &j->nrun, &j->err);
	j->impact[0] = '\0';
	if (j->describe_rc == 0) {
		struct sq_buf hit;
		char sum[16];

		sq_buf_init(&hit, sizeof(j->impact) - 1);
		if (sq_impact_fetch(b, &j->a, &hit, sum, sizeof(sum)) >= 0)
			snprintf(j->impact, sizeof(j->impact), "%s",
				 sq_buf_str(&hit));
		sq_buf_free(&hit);
	}
}

static void
w_run(struct sq_backend *b, void *arg)
{
	struct sq_tui_job *j = arg;
	struct sq_audit au;

	sq_err_clear(&j->err);
	sq_result_init(&j->res);
	if (sq_audit_open(&au, NULL, &j->err) == -1) {
		j->rc = -1;
		snprintf(j->res.message, sizeof(j->res.message),
			 "not run: the audit log cannot be opened: %.400s",
			 j->err.msg);
		return;
	}
	j->rc =
	    sq_exec_run(b, &au, &j->a, j->readonly, j->desc, &j->res, &j->err);
	sq_audit_close(&au);
}

/* --- the flow ------------------------------------------------------------- */

void
sq_tui_action_refused(struct sq_app *app, const struct sq_action *a,
		      const char *why)
{
	struct sq_audit au;
	struct sq_err err;

	if (sq_audit_open(&au, NULL, &err) == 0) {
		sq_exec_refused(&au, &app->cfg, app->st.backend, a, NULL, why);
		sq_audit_close(&au);
	}
}

int
sq_tui_action_start(struct sq_app *app, struct sq_action *a, size_t hidden)
{
	struct sq_err err;
	struct sq_tui_job *j;
	int readonly = app->readonly || app->cfg.readonly;

	if (app->act.stage != SQ_ACT_NONE) {
		sq_action_free(a);
		sq_app_message(app, 1, "another action is still open");
		return -1;
	}
	if (sq_action_policy_check(a, readonly, &err) == -1) {
		sq_tui_action_refused(app, a, err.msg);
		sq_action_free(a);
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	if (app->worker == NULL || app->st.state != SQ_WORKER_READY) {
		sq_action_free(a);
		sq_app_message(app, 1, "not connected to the cluster yet");
		return -1;
	}
	j = calloc(1, sizeof(*j));
	if (j == NULL) {
		sq_action_free(a);
		return -1;
	}
	j->a = *a; /* moves the storage */
	memset(a, 0, sizeof(*a));
	j->readonly = readonly;
	j->hidden = hidden;
	j->kind = (int)j->a.def->kind;
	if (sq_worker_call(app->worker, SQ_WREQ_ACTION, w_describe, j) == -1) {
		job_free(j);
		sq_app_message(app, 1, "the worker is busy; try again");
		return -1;
	}
	app->act.cur = j;
	app->act.stage = SQ_ACT_DESCRIBE;
	app->act.ntyped = 0;
	app->act.typed[0] = '\0';
	sq_app_message(app, 0, "%s: preparing the preview...",
		       app->act.cur->a.def->name);
	app->dirty = 1;
	return 0;
}

int
sq_tui_action_start_undo(struct sq_app *app, struct sq_action *a,
			 const char *label)
{
	if (sq_tui_action_start(app, a, 0) == -1)
		return -1;
	snprintf(app->act.cur->label, sizeof(app->act.cur->label), "%s", label);
	sq_app_message(app, 0, "%s: preparing the preview...", label);
	return 0;
}

static void
finish(struct sq_app *app)
{
	struct sq_tui_job *j = app->act.cur;
	size_t i;

	app->act.cur = NULL;
	app->act.stage = SQ_ACT_NONE;
	sq_app_message(app, j->rc != 0, "%s",
		       j->res.message[0] ? j->res.message : j->err.msg);
	/* a bulk action with failures: one line per target */
	if (j->res.nfailed > 0 && j->res.ntargets > 1) {
		sq_pane_clear(&app->pane, "action result", SQ_PANE_MESSAGES);
		sq_pane_add(&app->pane, SQ_ROLE_DANGER, 0, "%s",
			    j->res.message);
		for (i = 0; i < j->res.ntargets; i++) {
			const struct sq_target_result *t = &j->res.targets[i];
			char safe[300];

			sq_sanitize(t->message, safe, sizeof(safe));
			sq_pane_add(&app->pane,
				    t->ok ? SQ_ROLE_NORMAL : SQ_ROLE_DANGER, 4,
				    "%-5s %s: %s", t->ok ? "ok" : "FAIL",
				    t->target, safe);
		}
		app->mode = SQ_MODE_PANE;
	}
	/* submit: to the jobs view, the cursor on the new job when the
	 * refresh brings it */
	if (j->rc == 0 && j->res.created[0] != '\0' &&
	    j->a.type == SQ_ACTION_JOB_SUBMIT) {
		snprintf(app->act.jump_id, sizeof(app->act.jump_id), "%s",
			 j->res.created);
		app->act.jump_until = time(NULL) + 60;
		if (app->mode == SQ_MODE_PANE)
			app->mode = SQ_MODE_TABLE;
		sq_app_show_view(app, "jobs", NULL);
		sq_app_message(app, 0, "%s", j->res.message);
	}
	/* the targeted refresh: every view of what the action touched
	 * shows what the cluster has now, and again as Slurm settles */
	if (app->worker != NULL && j->kind >= 0) {
		app->act.settle_kinds = sq_action_touched_kinds(j->kind);
		sq_worker_refresh(app->worker, app->act.settle_kinds);
		app->act.settle_at = time(NULL) + SETTLE_FIRST;
		app->act.settle_left = SETTLE_TIMES;
	}
	if (sq_app_table(app) != NULL && j->rc == 0)
		sq_table_untag_all(sq_app_table(app));
	job_free(j);
	app->dirty = 1;
}

/* Put the cursor on jump_id when the jobs view's newest data has it
 * (while the jobs view, where the submit went, is still shown). */
static void
jump(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	struct sq_snapshot *s;
	size_t i, l = strlen(app->act.jump_id);
	int seen = 0;

	if (time(NULL) > app->act.jump_until || t == NULL ||
	    t->def != &sq_view_jobs) {
		app->act.jump_id[0] = '\0';
		return;
	}
	s = sq_worker_get(app->worker, SQ_KIND_JOBS);
	if (s == NULL)
		return;
	for (i = 0; i < s->nrows && !seen; i++) {
		const struct sq_job *jb = sq_snapshot_row(s, i);

		seen = strncmp(jb->id, app->act.jump_id, l) == 0 &&
		       (jb->id[l] == '\0' || jb->id[l] == '_');
	}
	if (!seen) {
		sq_snapshot_unref(s);
		return;
	}
	if (s != t->snap)
		sq_table_set_snapshot(t, s);
	sq_snapshot_unref(s);
	sq_table_finish(t); /* every row, not a big table's first ones */
	for (i = 0; i < t->nrows; i++) {
		const struct sq_job *jb =
		    sq_snapshot_row(t->snap, t->rows[i].rec);

		if (strncmp(jb->id, app->act.jump_id, l) == 0 &&
		    (jb->id[l] == '\0' || jb->id[l] == '_')) {
			sq_table_goto(t, i);
			break;
		}
	}
	if (i == t->nrows)
		sq_app_message(app, 0,
			       "job %s is in the queue but hidden by "
			       "the filter",
			       app->act.jump_id);
	app->act.jump_id[0] = '\0';
	app->dirty = 1;
}

void
sq_tui_action_tick(struct sq_app *app)
{
	time_t now;

	if (app->act.settle_left <= 0 || app->worker == NULL)
		return;
	now = time(NULL);
	if (now < app->act.settle_at)
		return;
	sq_worker_refresh(app->worker, app->act.settle_kinds);
	app->act.settle_left--;
	app->act.settle_at = now + SETTLE_NEXT;
}

void
sq_tui_action_poll(struct sq_app *app)
{
	struct sq_tui_job *j;

	sq_tui_live_poll(app); /* the detail pane's sstat call */
	if (app->worker != NULL && app->act.jump_id[0] != '\0')
		jump(app);
	if (app->worker == NULL || app->act.cur == NULL)
		return;
	j = sq_worker_call_done(app->worker, SQ_WREQ_ACTION);
	if (j == NULL || j != app->act.cur)
		return;
	if (app->act.stage == SQ_ACT_DESCRIBE) {
		if (j->describe_rc == -1) {
			sq_tui_action_refused(app, &j->a, j->err.msg);
			sq_app_message(app, 1, "%s: %s", j->a.def->name,
				       j->err.msg);
			app->act.cur = NULL;
			app->act.stage = SQ_ACT_NONE;
			job_free(j);
		} else if (j->nrun == 0) {
			/* nothing would run: say why, ask nothing */
			char safe[300], *nl;

			while ((nl = strchr(j->desc, '\n')) != NULL)
				*nl = ' ';
			sq_sanitize(j->desc + strlen("nothing to run:"), safe,
				    sizeof(safe));
			sq_app_message(app, 1, "%s: nothing to run:%s",
				       j->a.def->name, safe);
			app->act.cur = NULL;
			app->act.stage = SQ_ACT_NONE;
			job_free(j);
		} else {
			size_t l = strlen(j->desc);

			if (j->hidden > 0)
				snprintf(j->desc + l, sizeof(j->desc) - l,
					 "\n(%zu tagged row%s not visible: "
					 "left out)",
					 j->hidden, j->hidden == 1 ? "" : "s");
			app->act.stage = sq_action_needs_count(&j->a)
					     ? SQ_ACT_COUNT
					     : SQ_ACT_CONFIRM;
			app->msg[0] = '\0';
		}
	} else if (app->act.stage == SQ_ACT_RUN) {
		finish(app);
	}
	app->dirty = 1;
}

int
sq_tui_action_modal(const struct sq_app *app)
{
	return app->act.stage == SQ_ACT_COUNT ||
	       app->act.stage == SQ_ACT_CONFIRM;
}

static void
cancel(struct sq_app *app)
{
	sq_app_message(app, 0, "%s: not run", app->act.cur->a.def->name);
	job_free(app->act.cur);
	app->act.cur = NULL;
	app->act.stage = SQ_ACT_NONE;
}

void
sq_tui_action_modal_key(struct sq_app *app, int key)
{
	app->dirty = 1;
	if (app->act.stage == SQ_ACT_COUNT) {
		if (key == SQ_KEY_ENTER) {
			if (sq_action_count_confirmed(&app->act.cur->a,
						      app->act.typed))
				app->act.stage = SQ_ACT_CONFIRM;
			else
				cancel(app);
		} else if (key == SQ_KEY_ESC || key == SQ_KEY_CTRL('c')) {
			cancel(app);
		} else if (key == SQ_KEY_BACKSPACE || key == SQ_KEY_CTRL('h')) {
			if (app->act.ntyped > 0)
				app->act.typed[--app->act.ntyped] = '\0';
		} else if (key >= '0' && key <= '9' &&
			   app->act.ntyped + 1 < sizeof(app->act.typed)) {
			app->act.typed[app->act.ntyped++] = (char)key;
			app->act.typed[app->act.ntyped] = '\0';
		}
		return;
	}
	if (app->act.stage != SQ_ACT_CONFIRM)
		return;
	if (key != 'y' && key != 'Y') {
		cancel(app); /* Enter, n, Esc and anything else: No */
		return;
	}
	if (sq_worker_call(app->worker, SQ_WREQ_ACTION, w_run, app->act.cur) ==
	    -1) {
		sq_app_message(app, 1, "the worker is busy; not run");
		job_free(app->act.cur);
		app->act.cur = NULL;
		app->act.stage = SQ_ACT_NONE;
		return;
	}
	app->act.stage = SQ_ACT_RUN;
	sq_app_message(app, 0, "%s: running on %zu target%s...",
		       app->act.cur->a.def->name, app->act.cur->a.ntargets,
		       app->act.cur->a.ntargets == 1 ? "" : "s");
}

/* Split s at '\n' into lines of at most w columns. */
static int
wrap(const char *s, int w, char out[][256], int max)
{
	int n = 0;

	while (*s != '\0' && n < max) {
		size_t l = strcspn(s, "\n");
		char line[1024], safe[1024];
		const char *q;

		snprintf(line, sizeof(line), "%.*s", (int)l, s);
		sq_sanitize(line, safe, sizeof(safe));
		for (q = safe; *q != '\0' && n < max;) {
			int cut = (int)strlen(q) > w ? w : (int)strlen(q), k;

			/* break after a space or comma, never inside a job
			 * id or a word, when one is in the line's second
			 * half */
			for (k = cut; cut == w && k > w / 2; k--) {
				if (q[k - 1] == ' ' || q[k - 1] == ',') {
					cut = k;
					break;
				}
			}

			snprintf(out[n++], 256, "%.*s", cut, q);
			q += cut;
		}
		s += l;
		if (*s == '\n')
			s++;
	}
	return n;
}

void
sq_tui_action_draw(struct sq_app *app)
{
	int w = app->cols - 4 > 100 ? 100 : app->cols - 4;
	int x = (app->cols - w) / 2, y, h, i, n, iw = w - 4 > 250 ? 250 : w - 4;
	int attr = sq_color_attr(app, SQ_ROLE_DIALOG) | A_REVERSE;
	int danger = sq_color_attr(app, SQ_ROLE_DANGER);
	char lines[40][256], head[400], foot[200];
	int ncmd, room = app->rows - 6 > 36 ? 36 : app->rows - 6;

	if (app->act.stage != SQ_ACT_COUNT && app->act.stage != SQ_ACT_CONFIRM)
		return;
	ncmd = n = wrap(app->act.cur->desc, iw, lines, room > 20 ? 20 : room);
	if (n < room)
		n += wrap(app->act.cur->impact, iw, lines + n, room - n);
	h = n + 5;
	y = (app->rows - h) / 2 > 0 ? (app->rows - h) / 2 : 0;
	for (i = 0; i < h && y + i < app->rows; i++)
		sq_clear(y + i, x, w, attr);
	if (app->act.cur->label[0] != '\0')
		snprintf(head, sizeof(head), " %.240s (%s, %s) ",
			 app->act.cur->label, app->cfg.name, app->st.backend);
	else if (app->act.cur->a.type == SQ_ACTION_JOB_SUBMIT)
		snprintf(head, sizeof(head), " submit a batch script (%s) ",
			 app->st.backend);
	else if (app->act.cur->nrun < app->act.cur->a.ntargets)
		snprintf(head, sizeof(head),
			 " %s on %zu of %zu targets, the others left out "
			 "(%s, %s) ",
			 app->act.cur->a.def->name, app->act.cur->nrun,
			 app->act.cur->a.ntargets, app->cfg.name,
			 app->st.backend);
	else
		snprintf(head, sizeof(head), " %s on %zu target%s (%s, %s) ",
			 app->act.cur->a.def->name, app->act.cur->a.ntargets,
			 app->act.cur->a.ntargets == 1 ? "" : "s",
			 app->cfg.name, app->st.backend);
	sq_put(y, x + 1, w - 2, head,
	       sq_color_attr(app, SQ_ROLE_DIALOG_TITLE) | A_REVERSE);
	sq_put(y + 1, x + 2, w - 4, "This will run:", attr);
	for (i = 0; i < n && y + 2 + i < app->rows; i++)
		sq_put(y + 2 + i, x + 2, w - 4, lines[i],
		       i < ncmd ? (int)(attr | A_BOLD) : attr);
	if (app->act.stage == SQ_ACT_COUNT)
		snprintf(foot, sizeof(foot),
			 "Type %zu (the number of targets), then Enter: %s",
			 app->act.cur->a.ntargets, app->act.typed);
	else
		snprintf(foot, sizeof(foot),
			 "y: run it    n, Enter, Esc: do not run");
	if (y + n + 3 < app->rows)
		sq_put(y + n + 3, x + 2, w - 4, foot, danger);
}

/* --- the hooks the console calls ---------------------------------------- */

void
sq_tui_action_reset(struct sq_app *app, int left)
{
	struct sq_tui_act_state *s = &app->act;
	int running = s->stage == SQ_ACT_DESCRIBE || s->stage == SQ_ACT_RUN;

	if (s->stage == SQ_ACT_RUN)
		sq_app_message(app, 1,
			       "%s on %s was still running when the console "
			       "left it: its result is in :audit",
			       s->cur->a.def->name, app->cfg.name);
	/* a thread left running may still write into the job: leave it */
	if (!((left & SQ_WREQ_BIT(SQ_WREQ_ACTION)) && running))
		job_free(s->cur);
	memset(s, 0, sizeof(*s));
}
