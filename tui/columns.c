/*
 * columns.c - the column chooser (c, or :columns without a list): every
 * column of the view with a check box; Space shows or hides one, J/K move
 * it down or up, Enter applies, Esc cancels.
 */
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/columns.h"
#include "tui/keys.h"
#include "tui/table.h"

void
sq_columns_open(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	struct sq_colchooser *ch = &app->chooser;
	size_t i;
	int c, shown;

	memset(ch, 0, sizeof(*ch));
	for (c = 0; c < t->nbase && ch->n < SQ_TABLE_MAX_COLS; c++) {
		ch->order[ch->n] = t->base[c];
		ch->on[ch->n++] = 1;
	}
	for (i = 0; i < t->def->ncols && ch->n < SQ_TABLE_MAX_COLS; i++) {
		shown = 0;
		for (c = 0; c < t->nbase; c++)
			shown |= t->base[c] == (int)i;
		if (!shown) {
			ch->order[ch->n] = (int)i;
			ch->on[ch->n++] = 0;
		}
	}
	app->mode = SQ_MODE_COLUMNS;
	app->dirty = 1;
}

static void
swap(struct sq_colchooser *ch, int a, int b)
{
	int o = ch->order[a], n = ch->on[a];

	ch->order[a] = ch->order[b];
	ch->on[a] = ch->on[b];
	ch->order[b] = o;
	ch->on[b] = n;
}

static void
apply(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	struct sq_colchooser *ch = &app->chooser;
	int i, n = 0, cols[SQ_TABLE_MAX_COLS];

	for (i = 0; i < ch->n; i++) {
		if (ch->on[i])
			cols[n++] = ch->order[i];
	}
	if (n == 0) {
		sq_app_message(app, 1, "at least one column must be shown");
		return;
	}
	sq_table_set_base(t, cols, n);
	/* a regex filter matches the shown text: recompile for it */
	if (sq_filter_active(&t->filter)) {
		char text[256], err[200];

		snprintf(text, sizeof(text), "%s", t->filter.text);
		sq_table_filter(t, text, err, sizeof(err));
	} else {
		sq_table_rebuild(t);
	}
	app->mode = SQ_MODE_TABLE;
	sq_app_want(app);
}

void
sq_columns_key(struct sq_app *app, int key)
{
	struct sq_colchooser *ch = &app->chooser;
	const struct sq_keybind *b = sq_keymap_find(&app->keymap, key);
	enum sq_tui_action a = b ? b->action : SQ_TA_NONE;

	if (key == 'J' && ch->cur + 1 < ch->n) {
		swap(ch, ch->cur, ch->cur + 1);
		ch->cur++;
	} else if (key == 'K' && ch->cur > 0) {
		swap(ch, ch->cur, ch->cur - 1);
		ch->cur--;
	} else if (key == SQ_KEY_SPACE || key == 'x') {
		ch->on[ch->cur] = !ch->on[ch->cur];
	} else if (key == SQ_KEY_ENTER) {
		apply(app);
	} else if (key == SQ_KEY_ESC || a == SQ_TA_QUIT || a == SQ_TA_BACK) {
		app->mode = SQ_MODE_TABLE;
	} else if (a == SQ_TA_DOWN && ch->cur + 1 < ch->n) {
		ch->cur++;
	} else if (a == SQ_TA_UP && ch->cur > 0) {
		ch->cur--;
	} else if (a == SQ_TA_TOP) {
		ch->cur = 0;
	} else if (a == SQ_TA_BOTTOM) {
		ch->cur = ch->n - 1;
	} else if (a == SQ_TA_PAGE_DOWN) {
		ch->cur = ch->cur + app->page < ch->n ? ch->cur + app->page
						      : ch->n - 1;
	} else if (a == SQ_TA_PAGE_UP) {
		ch->cur = ch->cur > app->page ? ch->cur - app->page : 0;
	}
	app->dirty = 1;
}
