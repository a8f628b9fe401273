/*
 * columns.h - the column chooser (columns.c; UI thread): which columns
 * the view shows and in what order.
 */
#ifndef SQ_TUI_COLUMNS_H
#define SQ_TUI_COLUMNS_H

struct sq_app;

void sq_columns_open(struct sq_app *app);
void sq_columns_key(struct sq_app *app, int key);

#endif
