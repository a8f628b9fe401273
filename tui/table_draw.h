/*
 * table_draw.h - the table widget on the screen (table_draw.c; UI
 * thread): header, rows with the cursor, tags, state colours, the view's
 * prefix and extra column.
 */
#ifndef SQ_TUI_TABLE_DRAW_H
#define SQ_TUI_TABLE_DRAW_H

struct sq_app;
struct sq_table;

/* Draw the table body of t in the given area. */
void sq_table_draw(struct sq_app *app, struct sq_table *t, int y, int x, int h,
		   int w);

#endif
