/*
 * cmd.h - the table of the console's `:` commands, tmux style: one row per
 * command with its function, aliases, arguments, help and the completer of
 * its arguments. The command runner, Tab completion, `?` help and the
 * man page check (tests/unit/test_cmd.c) all read it (tui/cmd.c).
 */
#ifndef SQ_CMD_H
#define SQ_CMD_H

struct sq_app;
struct sq_cmd_comp; /* a Tab completion in progress (tui/cmd.c) */

struct sq_cmd_def {
	const char *name;
	const char *aliases; /* space separated; NULL: none */
	const char *args;
	const char *help;
	/* line: the whole command line; arg: what follows the command
	 * word. 0 when done, -1 after saying why not. */
	int (*run)(struct sq_app *app, const char *line, const char *arg);
	/* the candidates for the argument being typed; NULL: none */
	void (*complete)(struct sq_app *app, struct sq_cmd_comp *c);
};

/* NULL-name terminated */
extern const struct sq_cmd_def sq_cmds[];

/* The row whose name or alias is word; NULL if none. */
const struct sq_cmd_def *sq_cmd_find(const char *word);

#endif
