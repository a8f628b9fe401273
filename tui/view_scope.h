/*
 * view_scope.h - the arrange hook of the views whose snapshot holds the
 * rows of several scopes (gpus, history, rpc): each keeps its own.
 */
#ifndef SQ_VIEW_SCOPE_H
#define SQ_VIEW_SCOPE_H

struct sq_snapshot;
struct sq_table;

/* t's rows of its view's scope only (session/plan.h). */
void sq_tui_scope_arrange(struct sq_table *t);
/*
 * For a table with that hook: the rows of its scope in s as a snapshot
 * of their own (sq_snapshot_slice, a new reference) when they are one run
 * of s, as the history snapshot appends them, so that the table sorts,
 * filters and draws those rows only, in steps when they are many; NULL
 * otherwise (the hook then keeps them, row by row).
 */
struct sq_snapshot *sq_tui_scope_slice(const struct sq_table *t,
				       struct sq_snapshot *s);

#endif
