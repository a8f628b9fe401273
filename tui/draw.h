/*
 * draw.h - the whole screen (draw.c; UI thread): title, body (the table,
 * a view's own body, a text pane or the column chooser), status line and
 * message or prompt line, then the action dialog and a backend's question
 * over it.
 */
#ifndef SQ_TUI_DRAW_H
#define SQ_TUI_DRAW_H

struct sq_app;

void sq_draw(struct sq_app *app);

#endif
