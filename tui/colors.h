/*
 * colors.h - colour roles on the screen (colors.c; UI thread): the
 * curses attributes of a role under the loaded theme, and the roles of
 * cells that are coloured by their value (job and node states, outcomes).
 */
#ifndef SQ_TUI_COLORS_H
#define SQ_TUI_COLORS_H

struct sq_app;
struct sq_table;

/* Colour attributes of a role (enum sq_role). */
int sq_color_attr(const struct sq_app *app, int role);
/* Set up the colour pairs of the conf's roles (after a theme change). */
void sq_colors_apply(struct sq_app *app);
/* The role of a cell by column id and text (state colours), or -1. */
int sq_cell_role(const struct sq_table *t, int col, const char *text);
/* The role of a node state ("idle", "drained", "down*"). */
int sq_node_state_role(const char *state);

#endif
