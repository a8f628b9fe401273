/*
 * help.h - the panes built from tables (help.c; UI thread): `?` and
 * `:help`, `:messages`.
 */
#ifndef SQ_TUI_HELP_H
#define SQ_TUI_HELP_H

struct sq_app;
struct sq_cmd_def;

/* The help pane: every key of the live key map, the view's action keys,
 * the commands of cmds (sq_cmds of tui/cmd.h; NULL-name terminated), the
 * views and this view's columns. */
void sq_help_open(struct sq_app *app, const struct sq_cmd_def *cmds);
/* The configuration's error messages. */
void sq_messages_open(struct sq_app *app);

#endif
