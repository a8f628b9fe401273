/*
 * prompt.c - the one-line editor of the `:` command and `/` filter
 * prompts: UTF-8 editing, history (Up/Down), Tab completion of commands,
 * views, options, columns and cluster names, and a live preview of the
 * filter while it is typed (a bad pattern is reported, the last good
 * filter stays).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/cmd.h"
#include "tui/keys.h"
#include "tui/pane_output.h"
#include "tui/prompt.h"
#include "tui/table.h"

#define MAX_CAND 256

static int
hist_slot(char kind)
{
	return kind == ':' ? 0 : 1;
}

void
sq_prompt_open(struct sq_app *app, char kind, const char *initial)
{
	struct sq_lineedit *p = &app->prompt;
	struct sq_table *t = sq_app_table(app);

	memset(p, 0, sizeof(*p));
	p->active = 1;
	p->kind = kind;
	snprintf(p->buf, sizeof(p->buf), "%s", initial ? initial : "");
	p->len = p->pos = strlen(p->buf);
	snprintf(p->saved, sizeof(p->saved), "%s", t->filter.text);
	p->hist_pos = app->nhist[hist_slot(kind)];
	p->comp_index = -1;
	/* a filter is coming: the rows' text it runs over is made in idle
	 * slices before the first letter arrives (tui/tui.c) */
	app->warm = kind == '/' && !sq_output_searching(app);
	app->dirty = 1;
}

static void
close_prompt(struct sq_app *app)
{
	app->prompt.active = 0;
	app->dirty = 1;
}

static void
remember(struct sq_app *app, char kind, const char *line)
{
	int h = hist_slot(kind), n = app->nhist[h];

	if (*line == '\0')
		return;
	if (n > 0 && strcmp(app->hist[h][n - 1], line) == 0)
		return;
	if (n == SQ_HISTORY) {
		memmove(app->hist[h][0], app->hist[h][1],
			(SQ_HISTORY - 1) * sizeof(app->hist[h][0]));
		n--;
	}
	if (strlen(line) >= sizeof(app->hist[h][n]))
		return; /* too long to be worth recalling */
	memcpy(app->hist[h][n], line, strlen(line) + 1);
	app->nhist[h] = n + 1;
}

/* Live filter preview: apply when valid, quietly keep the old one else. */
static void
preview(struct sq_app *app)
{
	char err[300];

	if (app->prompt.kind != '/' || sq_output_searching(app))
		return;
	if (sq_table_filter(sq_app_table(app), app->prompt.buf, err,
			    sizeof(err)) == -1)
		sq_app_message(app, 1, "%s", err);
	else
		app->msg[0] = '\0';
}

static void
insert(struct sq_lineedit *p, const char *s, size_t n)
{
	if (p->len + n >= sizeof(p->buf))
		return;
	memmove(p->buf + p->pos + n, p->buf + p->pos, p->len - p->pos + 1);
	memcpy(p->buf + p->pos, s, n);
	p->len += n;
	p->pos += n;
}

/* Start of the UTF-8 character before pos. */
static size_t
prev_char(const char *buf, size_t pos)
{
	if (pos == 0)
		return 0;
	pos--;
	while (pos > 0 && ((unsigned char)buf[pos] & 0xc0) == 0x80)
		pos--;
	return pos;
}

static size_t
next_char_pos(const char *buf, size_t pos, size_t len)
{
	if (pos >= len)
		return len;
	pos++;
	while (pos < len && ((unsigned char)buf[pos] & 0xc0) == 0x80)
		pos++;
	return pos;
}

static void
erase_range(struct sq_lineedit *p, size_t from, size_t to)
{
	memmove(p->buf + from, p->buf + to, p->len - to + 1);
	p->len -= to - from;
	p->pos = from;
}

static size_t
utf8_encode(int cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static void
complete(struct sq_app *app)
{
	struct sq_lineedit *p = &app->prompt;
	char *cand[MAX_CAND], line[600], list[400];
	size_t wstart, o = 0;
	int n, i, pick;

	if (p->kind != ':')
		return;
	/* Tab again cycles through the candidates of the first Tab */
	if (p->comp_index < 0)
		snprintf(p->comp_base, sizeof(p->comp_base), "%.*s",
			 (int)p->pos, p->buf);
	n = sq_cmd_complete(app, p->comp_base, cand, MAX_CAND);
	if (n == 0) {
		sq_app_message(app, 1, "no completion");
		return;
	}
	pick = (p->comp_index + 1) % n;
	p->comp_index = n == 1 ? -1 : pick;
	/* the word being completed starts after the last blank or comma */
	wstart = strlen(p->comp_base);
	while (wstart > 0 && p->comp_base[wstart - 1] != ' ' &&
	       p->comp_base[wstart - 1] != ',')
		wstart--;
	if (snprintf(line, sizeof(line), "%.*s%s%s", (int)wstart, p->comp_base,
		     cand[pick], n == 1 ? " " : "") < (int)sizeof(p->buf))
		memcpy(p->buf, line, strlen(line) + 1);
	p->len = p->pos = strlen(p->buf);
	if (n > 1) {
		list[0] = '\0';
		for (i = 0; i < n && o + 2 < sizeof(list); i++) {
			int w = snprintf(list + o, sizeof(list) - o, "%s%s",
					 i ? " " : "", cand[i]);

			if (w < 0 || (size_t)w >= sizeof(list) - o)
				break;
			o += (size_t)w;
		}
		sq_app_message(app, 0, "%s", list);
	}
	for (i = 0; i < n; i++)
		free(cand[i]);
}

/* Esc: back to the filter from before a '/' prompt, and close. */
static void
cancel(struct sq_app *app)
{
	struct sq_lineedit *p = &app->prompt;

	if (p->kind == '/' && !sq_output_searching(app)) {
		char err[300];

		sq_table_filter(sq_app_table(app), p->saved, err, sizeof(err));
	}
	close_prompt(app);
}

/* Enter: run the command, search the output pane, or set the filter. */
static void
enter(struct sq_app *app)
{
	struct sq_lineedit *p = &app->prompt;
	char line[512], saved[256], kind = p->kind;

	snprintf(line, sizeof(line), "%s", p->buf);
	snprintf(saved, sizeof(saved), "%s", p->saved);
	close_prompt(app);
	remember(app, kind, line);
	if (kind == ':') {
		sq_cmd_run(app, line);
	} else if (sq_output_searching(app)) {
		sq_output_search(app, line);
	} else {
		char err[300];

		if (sq_table_filter(sq_app_table(app), line, err,
				    sizeof(err)) == -1) {
			/* back to the filter from before the prompt */
			sq_table_filter(sq_app_table(app), saved, line,
					sizeof(line));
			sq_app_message(app, 1, "%s", err);
		}
	}
}

/* Up, Down: an earlier (later) line of the prompt's history; 1 when the
 * line changed. */
static int
recall(struct sq_app *app, int key)
{
	struct sq_lineedit *p = &app->prompt;
	int h = hist_slot(p->kind);

	if (key == SQ_KEY_UP && p->hist_pos > 0)
		p->hist_pos--;
	else if (key == SQ_KEY_DOWN && p->hist_pos < app->nhist[h])
		p->hist_pos++;
	else
		return 0;
	snprintf(p->buf, sizeof(p->buf), "%s",
		 p->hist_pos < app->nhist[h] ? app->hist[h][p->hist_pos] : "");
	p->len = p->pos = strlen(p->buf);
	return 1;
}

/* The editing keys (emacs style) and typed characters; 1 when the text
 * may have changed. */
static int
edit(struct sq_lineedit *p, int key)
{
	switch (key) {
	case SQ_KEY_BACKSPACE:
	case SQ_KEY_CTRL('h'):
		if (p->pos > 0)
			erase_range(p, prev_char(p->buf, p->pos), p->pos);
		return 1;
	case SQ_KEY_DELETE:
	case SQ_KEY_CTRL('d'):
		if (p->pos < p->len)
			erase_range(p, p->pos,
				    next_char_pos(p->buf, p->pos, p->len));
		return 1;
	case SQ_KEY_LEFT:
	case SQ_KEY_CTRL('b'):
		p->pos = prev_char(p->buf, p->pos);
		return 0;
	case SQ_KEY_RIGHT:
	case SQ_KEY_CTRL('f'):
		p->pos = next_char_pos(p->buf, p->pos, p->len);
		return 0;
	case SQ_KEY_HOME:
	case SQ_KEY_CTRL('a'):
		p->pos = 0;
		return 0;
	case SQ_KEY_END:
	case SQ_KEY_CTRL('e'):
		p->pos = p->len;
		return 0;
	case SQ_KEY_CTRL('u'):
		erase_range(p, 0, p->pos);
		return 1;
	case SQ_KEY_CTRL('k'):
		p->buf[p->pos] = '\0';
		p->len = p->pos;
		return 1;
	case SQ_KEY_CTRL('w'): {
		size_t s = p->pos;

		while (s > 0 && p->buf[s - 1] == ' ')
			s--;
		while (s > 0 && p->buf[s - 1] != ' ')
			s--;
		erase_range(p, s, p->pos);
		return 1;
	}
	default:
		if (key >= 0x20 && key != 0x7f && key <= 0x10ffff) {
			char u[4];

			insert(p, u, utf8_encode(key, u));
			return 1;
		}
		return 0;
	}
}

void
sq_prompt_key(struct sq_app *app, int key)
{
	struct sq_lineedit *p = &app->prompt;
	int edited;

	if (key != SQ_KEY_TAB)
		p->comp_index = -1;
	switch (key) {
	case SQ_KEY_ESC:
	case SQ_KEY_CTRL('c'):
	case SQ_KEY_CTRL('g'):
		cancel(app);
		return;
	case SQ_KEY_ENTER:
		enter(app);
		return;
	case SQ_KEY_TAB:
		complete(app);
		return;
	case SQ_KEY_UP:
	case SQ_KEY_DOWN:
		edited = recall(app, key);
		break;
	case SQ_KEY_BACKSPACE:
	case SQ_KEY_CTRL('h'):
		if (p->len == 0) {
			/* erasing past the start closes the prompt */
			if (p->kind == '/')
				preview(app);
			close_prompt(app);
			return;
		}
		edited = edit(p, key);
		break;
	default:
		edited = edit(p, key);
	}
	if (edited)
		preview(app);
	app->dirty = 1;
}
