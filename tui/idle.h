/*
 * idle.h - the console stops querying when nobody looks (idle.c; UI
 * thread): no fetches after idle-pause seconds without a key, the slow
 * interval while the terminal says it lost focus.
 */
#ifndef SQ_TUI_IDLE_H
#define SQ_TUI_IDLE_H

struct sq_app;

void sq_idle_start(struct sq_app *app); /* after newterm() */
void sq_idle_end(struct sq_app *app);   /* before endwin() */
/* A key arrived (rc, wc from get_wch): 1 when idle.c used it up (a
 * focus report, or the key that ends a pause). */
int sq_idle_key(struct sq_app *app, int rc, unsigned wc);
void sq_idle_tick(struct sq_app *app); /* about once a second */
/* The intervals to give the worker now: (fast, slow) or (slow, slow). */
void sq_idle_intervals(const struct sq_app *app, int *fast, int *slow);

#endif
