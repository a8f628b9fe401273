/*
 * question.c - the modal dialog for a backend's question while it
 * connects (an unknown ssh host key to confirm, a password or passphrase
 * to type). The worker thread waits; the UI thread shows the question and
 * hands the answer back. Only y or Y confirms; Enter, n and Esc say no.
 * A secret is shown as '*' and wiped once handed over.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "core/base/sanitize.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/keys.h"
#include "tui/question.h"
#include "tui/text.h"
#include "tui/worker.h"

static void
wipe(volatile char *p, size_t n)
{
	while (n-- > 0)
		*p++ = 0;
}

static void
answer(struct sq_app *app, int yes)
{
	sq_worker_answer(app->worker, yes, yes ? app->qbuf : "");
	wipe(app->qbuf, sizeof(app->qbuf));
	app->qlen = 0;
	/* the worker clears the question; do not ask twice meanwhile */
	app->st.question = 0;
	app->dirty = 1;
}

void
sq_question_key(struct sq_app *app, int key)
{
	if (app->st.question == 1) {
		answer(app, key == 'y' || key == 'Y');
		return;
	}
	if (key == SQ_KEY_ENTER) {
		answer(app, 1);
	} else if (key == SQ_KEY_ESC || key == SQ_KEY_CTRL('c')) {
		answer(app, 0);
	} else if (key == SQ_KEY_BACKSPACE || key == SQ_KEY_CTRL('h')) {
		while (app->qlen > 0 &&
		       ((unsigned char)app->qbuf[app->qlen - 1] & 0xc0) == 0x80)
			app->qlen--;
		if (app->qlen > 0)
			app->qlen--;
		app->qbuf[app->qlen] = '\0';
	} else if (key == SQ_KEY_CTRL('u')) {
		wipe(app->qbuf, sizeof(app->qbuf));
		app->qlen = 0;
	} else if (key >= 0x20 && key < 0x7f &&
		   app->qlen + 1 < sizeof(app->qbuf)) {
		/* ASCII only: what a password prompt needs, and safe */
		app->qbuf[app->qlen++] = (char)key;
		app->qbuf[app->qlen] = '\0';
	}
	app->dirty = 1;
}

/* Split the question into lines of at most w columns (at '\n' and at
 * blanks where possible); returns the count. */
static int
wrap(const char *text, int w, char out[][256], int max)
{
	char part[1024], safe[1024];
	const char *p = text;
	int n = 0;

	while (*p != '\0' && n < max) {
		size_t l = strcspn(p, "\n");
		const char *q;

		snprintf(part, sizeof(part), "%.*s", (int)l, p);
		sq_sanitize(part, safe, sizeof(safe));
		for (q = safe; *q != '\0' && n < max;) {
			int cut = (int)strlen(q);

			if (cut > w) {
				cut = w;
				while (cut > 0 && q[cut] != ' ')
					cut--;
				if (cut == 0)
					cut = w;
			}
			snprintf(out[n++], 256, "%.*s", cut, q);
			q += cut;
			while (*q == ' ')
				q++;
		}
		p += l;
		if (*p == '\n')
			p++;
	}
	return n;
}

void
sq_question_draw(struct sq_app *app)
{
	int w = app->cols - 4 > 76 ? 76 : app->cols - 4;
	int x = (app->cols - w) / 2, y, h, i, n;
	int attr = sq_color_attr(app, SQ_ROLE_DIALOG) | A_REVERSE;
	char lines[16][256], title[64], input[600];

	n = wrap(app->st.question_text, w - 4 > 250 ? 250 : w - 4, lines, 16);
	h = n + 4;
	y = (app->rows - h) / 2 > 0 ? (app->rows - h) / 2 : 0;
	for (i = 0; i < h && y + i < app->rows; i++)
		sq_clear(y + i, x, w, attr);
	snprintf(title, sizeof(title), " %s asks ", app->st.backend);
	sq_put(y, x + 1, w - 2, title,
	       sq_color_attr(app, SQ_ROLE_DIALOG_TITLE) | A_REVERSE);
	for (i = 0; i < n && y + 1 + i < app->rows; i++)
		sq_put(y + 1 + i, x + 2, w - 4, lines[i], attr);
	if (app->st.question == 1) {
		sq_put(y + n + 2, x + 2, w - 4, "y: yes    n, Enter, Esc: no",
		       sq_color_attr(app, SQ_ROLE_DANGER));
		return;
	}
	if (app->st.question_echo) {
		snprintf(input, sizeof(input), "> %s", app->qbuf);
	} else {
		size_t k;

		input[0] = '>';
		input[1] = ' ';
		for (k = 0; k < app->qlen && k + 3 < sizeof(input); k++)
			input[2 + k] = '*';
		input[2 + k] = '\0';
	}
	sq_put_fit(y + n + 2, x + 2, w - 4, input,
		   sq_color_attr(app, SQ_ROLE_PROMPT));
	wipe(input, sizeof(input));
}
