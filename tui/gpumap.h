/*
 * gpumap.h - the nodes view's detail pane: the node's GPUs one by one
 * (core/analysis/gpumap.h). The GPUs each job on the node holds, by index, are
 * read with the backend's job_gres() on the worker thread
 * (sq_worker_call), cached for a few seconds; the use comes from the
 * GPUUSE snapshot the worker keeps while the pane is open.
 */
#ifndef SQ_TUI_GPUMAP_H
#define SQ_TUI_GPUMAP_H

struct sq_app;
struct sq_pane;
struct sq_node;

/* The section for node nd in pane p (nothing when it has no GPU). */
void sq_tui_gpumap_section(struct sq_app *app, const struct sq_node *nd,
			   struct sq_pane *p);
/* Collect a finished read (whenever the worker wakes the UI). */
void sq_tui_gpumap_poll(struct sq_app *app);
/* A new connection, or the end: drop the read in flight (a thread left
 * running, left as sq_worker_stop() gives it, may still write into it)
 * and the cache (app->gpumap). */
void sq_tui_gpumap_reset(struct sq_app *app, int left);

#endif
