/*
 * action_dialog.h - a cluster action on its way (action_dialog.c; UI
 * thread, the backend calls on the worker): describe() for the preview,
 * the dialog (the count of a bulk action, y/N), act(), the result. The
 * state is app->act (tui/app_state.h).
 */
#ifndef SQ_TUI_ACTION_DIALOG_H
#define SQ_TUI_ACTION_DIALOG_H

#include <stddef.h>

struct sq_action;
struct sq_app;

/* Start the preview of a parsed action (taken over); hidden: tagged
 * rows left out, said in the preview. -1 after saying why not. */
int sq_tui_action_start(struct sq_app *app, struct sq_action *a, size_t hidden);
/* The same for an undo: label ("undo setlimit chem/carol maxjobs 3 -> 5")
 * heads the preview. */
int sq_tui_action_start_undo(struct sq_app *app, struct sq_action *a,
			     const char *label);

/* Write the audit line of an action refused before it reached the
 * backend (policy, read-only, a bad argument). */
void sq_tui_action_refused(struct sq_app *app, const struct sq_action *a,
			   const char *why);

/* The action dialog (preview, count, y/N): while it is open the console
 * hands every key to sq_tui_action_modal_key(); draw it last. */
int sq_tui_action_modal(const struct sq_app *app);
void sq_tui_action_modal_key(struct sq_app *app, int key);
void sq_tui_action_draw(struct sq_app *app);

/* Collect a finished describe()/act() from the worker (after a wake);
 * also the live pane's fetch (tui/live.h). */
void sq_tui_action_poll(struct sq_app *app);

/* Each turn of the console's loop: the refreshes after an action as
 * Slurm settles, when due. */
void sq_tui_action_tick(struct sq_app *app);

/* A new connection (sq_app_connect, the old worker stopped; left: the
 * calls its thread was left running, as sq_worker_stop() returns them):
 * forget the action on its way, so the next one is not refused. */
void sq_tui_action_reset(struct sq_app *app, int left);

#endif
