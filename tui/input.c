/*
 * input.c - what a key does. A backend's question, the action dialog,
 * the prompt and the column chooser take every key while they are open;
 * a text pane scrolls and follows links; in the table a key is a console
 * action of the key map (tui/keys.h: move, sort, filter, views ...; the
 * view's action hook first), a `:` command bound to it, a cluster action
 * bound to it or the view's own action key (tui/actions.c), or o/O/b for
 * a job's output. UI thread only.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "tui/action_dialog.h"
#include "tui/actions.h"
#include "tui/app.h"
#include "tui/cmd.h"
#include "tui/columns.h"
#include "tui/detail.h"
#include "tui/help.h"
#include "tui/input.h"
#include "tui/keys.h"
#include "tui/pane.h"
#include "tui/pane_output.h"
#include "tui/prompt.h"
#include "tui/question.h"
#include "tui/ssh_node.h"
#include "tui/table.h"
#include "tui/views.h"

static void
go_back(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	char err[64];

	if (sq_filter_active(&t->filter)) {
		sq_table_filter(t, "", err, sizeof(err));
		return;
	}
	if (app->nhistory > 0) {
		app->view = app->history[--app->nhistory];
		sq_app_sync(app);
		sq_app_want(app);
		return;
	}
	sq_app_message(app, 0, "q quits squall");
}

static void
cycle_view(struct sq_app *app, int dir)
{
	int n = (int)app->ntables;
	int v = (app->view + dir + n) % n;

	sq_app_show_view(app, sq_views[v]->name, NULL);
}

static void
sort_by_cursor(struct sq_app *app, int desc_only)
{
	struct sq_table *t = sq_app_table(app);
	int col;

	if (t->ncols == 0)
		return;
	col = t->cols[t->curcol];
	if (desc_only)
		sq_table_sort(t, col, 1);
	else if (t->sort == col)
		sq_table_sort(t, col, !t->sort_desc);
	else
		sq_table_sort(t, col, 0);
}

/* The cursor and column moves of the table: 1 when a was one. */
static int
move_cursor(struct sq_app *app, struct sq_table *t, enum sq_tui_action a)
{
	long page = app->page > 1 ? app->page - 1 : 1;

	switch (a) {
	case SQ_TA_DOWN:
		sq_table_move(t, 1);
		return 1;
	case SQ_TA_UP:
		sq_table_move(t, -1);
		return 1;
	case SQ_TA_PAGE_DOWN:
		sq_table_move(t, page);
		t->top += (size_t)page;
		return 1;
	case SQ_TA_PAGE_UP:
		sq_table_move(t, -page);
		t->top = t->top > (size_t)page ? t->top - (size_t)page : 0;
		return 1;
	case SQ_TA_TOP:
		sq_table_goto(t, 0);
		return 1;
	case SQ_TA_BOTTOM:
		sq_table_goto(t, t->nrows ? t->nrows - 1 : 0);
		return 1;
	case SQ_TA_LEFT:
		if (t->curcol > 0)
			t->curcol--;
		return 1;
	case SQ_TA_RIGHT:
		if (t->curcol + 1 < t->ncols)
			t->curcol++;
		return 1;
	default:
		return 0;
	}
}

static void
tag(struct sq_table *t)
{
	const void *rec = sq_table_cur(t);
	char id[256];

	if (rec == NULL)
		return;
	sq_table_id(t, rec, id, sizeof(id));
	sq_table_tag(t, id, !sq_table_tagged(t, id));
	sq_table_move(t, 1);
}

/* Link N (key '1'..'9') of the cursor row. */
static void
follow(struct sq_app *app, struct sq_table *t, int key)
{
	struct sq_link links[SQ_PANE_LINKS];
	const void *rec = sq_table_cur(t);
	int n = rec ? sq_links_of(app, t, rec, links, SQ_PANE_LINKS) : 0;
	int k = key >= '1' && key <= '9' ? key - '1' : 0;

	if (k >= n)
		sq_app_message(app, 1, "this row has no link %d", k + 1);
	else
		sq_follow_link(app, &links[k]);
}

/* A console action in the table (the view's action hook first). */
static void
table_action(struct sq_app *app, enum sq_tui_action a, int key)
{
	struct sq_table *t = sq_app_table(app);

	app->dirty = 1;
	if (a == SQ_TA_REFRESH) {
		sq_app_refresh(app); /* the hook first there too */
		return;
	}
	if (t->ops != NULL && t->ops->action != NULL &&
	    t->ops->action(app, t, a))
		return;
	if (move_cursor(app, t, a))
		return;
	switch (a) {
	case SQ_TA_DETAIL:
		sq_detail_open(app);
		break;
	case SQ_TA_BACK:
		go_back(app);
		break;
	case SQ_TA_TAG:
		tag(t);
		break;
	case SQ_TA_SORT:
	case SQ_TA_SORT_DESC:
		sort_by_cursor(app, a == SQ_TA_SORT_DESC);
		break;
	case SQ_TA_FILTER:
		sq_prompt_open(app, '/', "");
		break;
	case SQ_TA_NEXT_MATCH:
	case SQ_TA_PREV_MATCH:
		if (t->search[0] == '\0')
			sq_app_message(app, 1, "no pattern yet: / sets one");
		else if (!sq_table_search(t, a == SQ_TA_NEXT_MATCH ? 1 : -1))
			sq_app_message(app, 1, "no row matches /%s", t->search);
		break;
	case SQ_TA_COMMAND:
		sq_prompt_open(app, ':', "");
		break;
	case SQ_TA_COLUMNS:
		sq_columns_open(app);
		break;
	case SQ_TA_FOLD:
	case SQ_TA_UNFOLD:
		sq_app_message(app, 0, "nothing folds in the %s view",
			       t->def->name);
		break;
	case SQ_TA_MAP:
		sq_app_message(app, 0, "the node map is in the nodes view");
		break;
	case SQ_TA_SSH:
		sq_ssh_node(app, "");
		break;
	case SQ_TA_GROUP:
		if (key == 'o' && sq_output_view_key(app, key))
			break;
		sq_app_message(app, 0, "node sets group the nodes view");
		break;
	case SQ_TA_FOLLOW:
		follow(app, t, key);
		break;
	case SQ_TA_NEXT_VIEW:
	case SQ_TA_PREV_VIEW:
		cycle_view(app, a == SQ_TA_NEXT_VIEW ? 1 : -1);
		break;
	case SQ_TA_REDRAW:
		clearok(curscr, TRUE);
		break;
	case SQ_TA_HELP:
		sq_help_open(app, sq_cmds);
		break;
	case SQ_TA_QUIT:
		app->quit = 1;
		break;
	default:
		break;
	}
}

/* Keys in a text pane: scroll, follow links, close. */
static void
pane_key(struct sq_app *app, const struct sq_keybind *b, int key)
{
	struct sq_pane *p = &app->pane;
	size_t page = app->page > 2 ? (size_t)app->page - 2 : 1;
	enum sq_tui_action a = b != NULL ? b->action : SQ_TA_NONE;

	if (p->kind == SQ_PANE_OUTPUT && sq_output_pane_key(app, a, key)) {
		app->dirty = 1;
		return;
	}
	switch (a) {
	case SQ_TA_DOWN:
		if (p->top + 1 < p->n)
			p->top++;
		break;
	case SQ_TA_UP:
		if (p->top > 0)
			p->top--;
		break;
	case SQ_TA_PAGE_DOWN:
		p->top = p->top + page < p->n ? p->top + page : p->top;
		break;
	case SQ_TA_PAGE_UP:
		p->top = p->top > page ? p->top - page : 0;
		break;
	case SQ_TA_TOP:
		p->top = 0;
		break;
	case SQ_TA_BOTTOM:
		p->top = p->n > page ? p->n - page : 0;
		break;
	case SQ_TA_FILTER: /* the output pane searches its text */
		if (p->kind == SQ_PANE_OUTPUT)
			sq_prompt_open(app, '/', "");
		break;
	case SQ_TA_FOLLOW:
		if (key >= '1' && key <= '9' && key - '1' < p->nlinks)
			sq_follow_link(app, &p->links[key - '1']);
		else
			sq_app_message(app, 1, "no link %c here", key);
		break;
	case SQ_TA_COMMAND:
		sq_prompt_open(app, ':', "");
		break;
	case SQ_TA_REFRESH:
	case SQ_TA_REDRAW:
	case SQ_TA_NEXT_VIEW:
	case SQ_TA_PREV_VIEW:
		app->mode = SQ_MODE_TABLE;
		table_action(app, a, key);
		break;
	case SQ_TA_BACK:
	case SQ_TA_QUIT:
	case SQ_TA_HELP:
	case SQ_TA_DETAIL:
		app->mode = SQ_MODE_TABLE;
		sq_app_want(app);
		break;
	default:
		break;
	}
	app->dirty = 1;
}

/* A key no binding claims: o/O/b on a job, else a view's action key. */
static void
unbound_key(struct sq_app *app, int key)
{
	char prompt[64];

	if (sq_output_view_key(app, key))
		return;
	if (sq_tui_action_key(app, key, prompt, sizeof(prompt)) ==
	    SQ_TUI_ACTION_PROMPT)
		sq_prompt_open(app, ':', prompt);
}

void
sq_input_key(struct sq_app *app, int key)
{
	const struct sq_keybind *b;
	struct sq_err err;

	app->msg[0] = '\0';
	app->dirty = 1;
	/* a big table shows its first rows while the rest is made: a key
	 * other than the filter's may read them all (G, tags, actions) */
	if (sq_app_table(app)->pending &&
	    !(app->prompt.active && app->prompt.kind == '/'))
		sq_table_finish(sq_app_table(app));
	if (app->too_small) {
		b = sq_keymap_find(&app->keymap, key);
		if (b != NULL && b->action == SQ_TA_QUIT)
			app->quit = 1;
		return;
	}
	if (app->st.question != 0 && app->worker != NULL) {
		sq_question_key(app, key);
		return;
	}
	if (sq_tui_action_modal(app)) {
		sq_tui_action_modal_key(app, key);
		return;
	}
	if (app->prompt.active) {
		sq_prompt_key(app, key);
		return;
	}
	if (app->mode == SQ_MODE_COLUMNS) {
		sq_columns_key(app, key);
		return;
	}
	b = sq_keymap_find(&app->keymap, key);
	if (app->mode == SQ_MODE_PANE) {
		pane_key(app, b, key);
		return;
	}
	if (b == NULL)
		unbound_key(app, key);
	else if (b->action != SQ_TA_NONE)
		table_action(app, b->action, key);
	else if (b->name[0] == ':')
		sq_cmd_run(app, b->name + 1);
	else if (sq_cmd_find(b->name) != NULL &&
		 (sq_cmd_find(b->name)->flags & SQ_CMD_BIND))
		sq_cmd_run(app, b->name); /* audit, undo */
	else if (sq_action_readonly_check(sq_action_find(b->name, -1), NULL,
					  app->readonly || app->cfg.readonly,
					  &err) == -1)
		sq_app_message(app, 1, "%s", err.msg);
	else
		sq_tui_action_dispatch(app, b->name);
}
