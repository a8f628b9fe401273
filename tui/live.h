/*
 * live.h - the live usage of a running job in the jobs view's detail pane
 * (live.c): fetched on demand with the backend's job_live() on the
 * worker thread (sq_worker_call), cached for a few seconds, never waited
 * for on the UI thread.
 */
#ifndef SQ_TUI_LIVE_H
#define SQ_TUI_LIVE_H

struct sq_app;
struct sq_pane;

/* Lines for job id in pane p: the cached usage, or "fetching...", and
 * start a fetch when there is none or it is stale. */
void sq_tui_live_section(struct sq_app *app, const char *jobid,
			 struct sq_pane *p);

/* Collect a finished fetch (called whenever the worker wakes the UI). */
void sq_tui_live_poll(struct sq_app *app);

/* A new connection (sq_app_connect, the old worker stopped; left: the
 * calls its thread was left running, as sq_worker_stop() returns them):
 * drop the fetch and the cache. */
void sq_tui_live_reset(struct sq_app *app, int left);

#endif
