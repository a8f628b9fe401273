/*
 * view_whatif.h - `:whatif [KEY=VALUE ... | spec]` (view_whatif.c; UI
 * thread): set the weights tried and open the view; 0 or -1 (message
 * shown). The view's rows are the worker's newest WHATIF snapshot,
 * recomputed for those weights (its sync hook).
 */
#ifndef SQ_TUI_VIEW_WHATIF_H
#define SQ_TUI_VIEW_WHATIF_H

struct sq_app;

int sq_tui_whatif_cmd(struct sq_app *app, const char *arg);

#endif
