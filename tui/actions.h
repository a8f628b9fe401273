/*
 * actions.h - the hook between the console and cluster actions
 * (core/action/action.h; issue 7). The console passes a `:` command that is not
 * one of its own, and a key bound to a name that is not a console action,
 * to these functions (tui/actions.c), which parse and check the action
 * and hand it to the dialog (tui/action_dialog.h: preview, confirm, run
 * on the worker, audit). UI thread only.
 */
#ifndef SQ_TUI_ACTIONS_H
#define SQ_TUI_ACTIONS_H

#include <stddef.h>

struct sq_app;
struct sq_pane;

/* Run a `:` command line that is not a console command. 0 when it was
 * handled, -1 after showing why not ("unknown command"). */
int sq_tui_action_dispatch(struct sq_app *app, const char *line);

/* sq_tui_action_key(): the action needs arguments typed first */
#define SQ_TUI_ACTION_PROMPT 2

/* A key that no binding claims (per-view action keys): 0 when it is no
 * action's key here, 1 when handled, SQ_TUI_ACTION_PROMPT when the
 * caller should open the `:` prompt with the text put in prompt (n
 * bytes: the action's name and a blank). */
int sq_tui_action_key(struct sq_app *app, int key, char *prompt, size_t n);

/* Add the current view's action keys and commands to the help pane
 * (nothing hidden by read-only mode is listed). */
void sq_tui_action_help(struct sq_app *app, struct sq_pane *p);

/* Tab completion of action names: up to max candidates starting with
 * prefix into out (pointers to static strings); returns the count. */
int sq_tui_action_complete(struct sq_app *app, const char *prefix,
			   const char **out, int max);
/* The action a `:` line's first word names in the current view (an
 * alias too: modqos), or NULL: Tab completes its keys. */
const struct sq_action_def *sq_tui_action_named(struct sq_app *app,
						const char *name);

#endif
