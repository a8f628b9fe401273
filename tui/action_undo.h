/*
 * action_undo.h - `:audit` (the audit log in a pane) and `:undo [N]`
 * (the inverse of an earlier action, offered through the dialog)
 * (action_undo.c; UI thread). 0, or -1 (message shown).
 */
#ifndef SQ_TUI_ACTION_UNDO_H
#define SQ_TUI_ACTION_UNDO_H

struct sq_app;

int sq_tui_action_audit(struct sq_app *app);
int sq_tui_action_undo(struct sq_app *app, const char *arg);

#endif
