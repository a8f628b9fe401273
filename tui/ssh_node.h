/*
 * ssh_node.h - `:ssh [NODE]` (ssh_node.c): a shell on a node with the
 * user's ssh, the console suspended meanwhile. UI thread only.
 */
#ifndef SQ_TUI_SSH_NODE_H
#define SQ_TUI_SSH_NODE_H

struct sq_app;

/* ssh to node (or, when "", the cursor's node or running job's first
 * node); the command is shown first. 0, or -1 (message shown). */
int sq_ssh_node(struct sq_app *app, const char *node);

#endif
