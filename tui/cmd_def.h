/*
 * cmd_def.h - the row of the console's table of `:` commands (the table
 * is sq_cmds, tui/cmd.h): its name, aliases, arguments, help, and the
 * functions that run it and complete its arguments. Apart from cmd.h so
 * that the help pane can list a table without depending on the commands,
 * one of which opens it.
 */
#ifndef SQ_TUI_CMD_DEF_H
#define SQ_TUI_CMD_DEF_H

struct sq_app;
struct sq_cmd_comp; /* a Tab completion in progress (tui/cmd.c) */

/* It changes the cluster: read-only mode leaves it out of `?` help and
 * Tab (its run refuses it there, with the one read-only message). */
#define SQ_CMD_CHANGES 0x1u
/* `bind KEY NAME` takes its bare name, as a cluster action's (:audit,
 * :undo); other commands are bound as ":NAME". */
#define SQ_CMD_BIND 0x2u

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
	unsigned flags; /* SQ_CMD_* */
};

#endif
