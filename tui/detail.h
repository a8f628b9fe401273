/*
 * detail.h - the detail pane of a row (detail.c; UI thread): every field
 * of the record, the view's own lines (why pending, a node's jobs), and
 * links to the rows of other views that follow with 1..9.
 */
#ifndef SQ_TUI_DETAIL_H
#define SQ_TUI_DETAIL_H

struct sq_app;
struct sq_link;
struct sq_table;

void sq_detail_open(struct sq_app *app);
/* Rebuild an open detail pane after a refresh (same row id). */
void sq_detail_refresh(struct sq_app *app);
/* Links of a record of table t (cross-navigation); the count. */
int sq_links_of(struct sq_app *app, const struct sq_table *t, const void *rec,
		struct sq_link *out, int max);
/* Show the link's view with its filter. */
void sq_follow_link(struct sq_app *app, const struct sq_link *l);

#endif
