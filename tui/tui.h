/*
 * tui.h - the full-screen console, as main() sees it. No curses types
 * here: squall.c includes this without including curses.
 */
#ifndef SQ_TUI_H
#define SQ_TUI_H

#include "core/conf/cluster.h"
#include "core/conf/conf.h"

/*
 * Prepare a conf before loading files: the `bind` validator (console and
 * cluster action names) and the theme directories (the installed one and
 * the themes/ next to the binary, from argv0).
 */
void sq_tui_conf_setup(struct sq_conf *conf, const char *argv0);

/*
 * Run the console on cfg until the user quits. conf holds the loaded
 * configuration (its messages are shown at start-up; its `view` option is
 * the view it opens with); the console may change it (`:set` ...).
 * filter, when not NULL, is the opening view's filter, as typed after
 * '/' (main() has checked it). Returns the exit status: 0, or 1 when the
 * terminal cannot be used.
 */
int sq_tui_run(struct sq_conf *conf, const struct sq_cluster_cfg *cfg,
	       const char *filter);

#endif
