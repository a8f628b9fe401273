/*
 * saved.h - saved views in the console (tui/saved.c): apply the config's
 * `view` lines, open a view defined with of=, write the current view
 * back with `:w`. UI thread only.
 */
#ifndef SQ_TUI_SAVED_H
#define SQ_TUI_SAVED_H

struct sq_app;

/* Apply every `view` line to its table (at start, after `:view ...`). */
void sq_saved_apply_all(struct sq_app *app);
/* :NAME of a view defined with of=: 0 shown, -1 error, 1 not one. */
int sq_saved_open(struct sq_app *app, const char *name, const char *filter);
/* :VIEW by its own name: a table showing a saved view of= goes back to
 * the view's own columns, sort and filter. */
void sq_saved_leave(struct sq_app *app, const char *name);
/* :w - the current view's line into the config file. */
int sq_saved_write(struct sq_app *app);
/* :view NAME key=value... run as in the config file, then applied. */
int sq_saved_command(struct sq_app *app, const char *line);

#endif
