/*
 * prompt.h - the `:` and `/` prompt (prompt.c; UI thread): a one-line
 * editor whose Enter runs a command (tui/cmd.h), sets the filter, or
 * searches the output pane.
 */
#ifndef SQ_TUI_PROMPT_H
#define SQ_TUI_PROMPT_H

struct sq_app;

/* Open the prompt of kind ':' or '/' with initial text (NULL: ""). */
void sq_prompt_open(struct sq_app *app, char kind, const char *initial);
/* A key while the prompt is open. */
void sq_prompt_key(struct sq_app *app, int key);

#endif
