/*
 * view_scope.h - the arrange hook of the views whose snapshot holds the
 * rows of several scopes (gpus, history, rpc): each keeps its own.
 */
#ifndef SQ_VIEW_SCOPE_H
#define SQ_VIEW_SCOPE_H

struct sq_table;

/* t's rows of its view's scope only (session/plan.h). */
void sq_tui_scope_arrange(struct sq_table *t);

#endif
