/*
 * cmd.h - the table of the console's `:` commands (name, arguments,
 * help), shared by the command runner, Tab completion and `?` help.
 */
#ifndef SQ_CMD_H
#define SQ_CMD_H

struct sq_cmd_def {
	const char *name;
	const char *args;
	const char *help;
};

/* NULL-name terminated */
extern const struct sq_cmd_def sq_cmds[];

#endif
