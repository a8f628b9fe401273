/*
 * actions.h - the hook between the console and cluster actions
 * (core/action.h; issue 7). The console passes a `:` command that is not
 * one of its own, and a key bound to a name that is not a console action,
 * to these functions (tui/actions.c: preview, confirm, run on the worker,
 * audit).
 */
#ifndef SQ_TUI_ACTIONS_H
#define SQ_TUI_ACTIONS_H

#include <stddef.h>

struct sq_app;
struct sq_pane;

/*
 * The targets of an action in the current view (tui/action_targets.c):
 * every row the filter shows (all), else the tagged rows it shows, else
 * the cursor row; a folded job array is the array's id. *hidden: tagged
 * rows the filter hides (left out). Strings malloc'd; free with
 * sq_tui_action_targets_free().
 */
size_t sq_tui_action_targets(struct sq_app *app, int all, char ***out,
			     size_t *hidden);
void sq_tui_action_targets_free(char **v, size_t n);

/* Start the preview of a parsed action (taken over); hidden: tagged
 * rows left out, said in the preview. -1 after saying why not. */
struct sq_action;
int sq_tui_action_start(struct sq_app *app, struct sq_action *a, size_t hidden);

/* `:audit` and `:undo [N]` (tui/action_undo.c). */
int sq_tui_action_audit(struct sq_app *app);
int sq_tui_action_undo(struct sq_app *app, const char *arg);

/* Run a `:` command line that is not a console command. 0 when it was
 * handled, -1 after showing why not ("unknown command"). */
int sq_tui_action_dispatch(struct sq_app *app, const char *line);

/* A key that no binding claims (per-view action keys); 1 if handled. */
int sq_tui_action_key(struct sq_app *app, int key);

/* Is name a cluster action a key may be bound to? */
int sq_tui_action_known(const char *name);

/* Add the current view's action keys and commands to the help pane
 * (nothing hidden by read-only mode is listed). */
void sq_tui_action_help(struct sq_app *app, struct sq_pane *p);

/* Tab completion of action names: up to max candidates starting with
 * prefix into out (pointers to static strings); returns the count. */
int sq_tui_action_complete(struct sq_app *app, const char *prefix,
			   const char **out, int max);

/* The action dialog (preview, count, y/N): while it is open the console
 * hands every key to sq_tui_action_modal_key(); draw it last. */
int sq_tui_action_modal(const struct sq_app *app);
void sq_tui_action_modal_key(struct sq_app *app, int key);
void sq_tui_action_draw(struct sq_app *app);
/* A new connection (sq_app_connect, the old worker stopped; left: the
 * calls its thread was left running, as sq_worker_stop() returns them):
 * forget the action on its way, so the next one is not refused. */
void sq_tui_action_reset(struct sq_app *app, int left);

/* Collect a finished describe()/act() from the worker (after a wake). */
void sq_tui_action_poll(struct sq_app *app);

#endif
