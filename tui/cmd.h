/*
 * cmd.h - the table of the console's `:` commands, tmux style: one row per
 * command with its function, aliases, arguments, help and the completer of
 * its arguments (the row: tui/cmd_def.h). The command runner, Tab
 * completion, `?` help and the man page check (tests/unit/test_cmd.c) all
 * read it (tui/cmd.c). UI thread only.
 */
#ifndef SQ_CMD_H
#define SQ_CMD_H

#include "tui/cmd_def.h"

struct sq_app;

/* NULL-name terminated */
extern const struct sq_cmd_def sq_cmds[];

/* The row whose name or alias is word; NULL if none. */
const struct sq_cmd_def *sq_cmd_find(const char *word);

/* For conf->action_ok: what sq_keys_action_ok takes, or the name of a
 * command whose row has SQ_CMD_BIND. */
int sq_cmd_action_ok(const char *name, void *arg);

/* Run a `:` command line: a command of the table, else a view by name
 * or alias, else a saved view, else a cluster action (tui/actions.h).
 * 0, or -1 (message shown). */
int sq_cmd_run(struct sq_app *app, const char *line);
/* Tab completion of a command line: candidates into out (max; malloc'd,
 * the caller frees them); the count. */
int sq_cmd_complete(struct sq_app *app, const char *line, char **out, int max);

#endif
