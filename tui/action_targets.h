/*
 * action_targets.h - the targets of an action in the current view
 * (action_targets.c; UI thread).
 */
#ifndef SQ_TUI_ACTION_TARGETS_H
#define SQ_TUI_ACTION_TARGETS_H

#include <stddef.h>

struct sq_app;

/*
 * Every row the filter shows (all), else the tagged rows it shows, else
 * the cursor row; a folded job array is the array's id. *hidden: tagged
 * rows the filter hides (left out). Strings malloc'd; free with
 * sq_tui_action_targets_free().
 */
size_t sq_tui_action_targets(struct sq_app *app, int all, char ***out,
			     size_t *hidden);
void sq_tui_action_targets_free(char **v, size_t n);

#endif
