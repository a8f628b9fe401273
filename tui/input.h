/*
 * input.h - what a key does (input.c; UI thread): in order, a backend's
 * question, the action dialog, the prompt, the column chooser, a text
 * pane, else the table: a console action of the key map, a `:` command
 * bound to the key, a cluster action, or a view's own key.
 */
#ifndef SQ_TUI_INPUT_H
#define SQ_TUI_INPUT_H

struct sq_app;

/* Handle one key (tui/keys.h codes). */
void sq_input_key(struct sq_app *app, int key);

#endif
