/*
 * pane_output.h - a job's stdout, stderr or batch script in a pane that
 * follows the file (pane_output.c). UI thread only; reads run on the
 * worker through sq_worker_call, one at a time.
 */
#ifndef SQ_TUI_PANE_OUTPUT_H
#define SQ_TUI_PANE_OUTPUT_H

#include "tui/keys.h"

struct sq_app;

enum { SQ_OUT_STDOUT, SQ_OUT_STDERR, SQ_OUT_SCRIPT };

/* Open the pane on job jobid (as squeue or sacct print it). */
int sq_output_open(struct sq_app *app, const char *jobid, int what);
/* In the jobs and history views: o (stdout), O (stderr), b (script) on
 * the cursor row's job. 1 when the key was used. */
int sq_output_view_key(struct sq_app *app, int key);
/* A key of the output pane: 1 when used up; 0 lets the text pane's own
 * handling go on (scrolling, scrolling up pauses the follow; / opens the
 * prompt that sq_output_search then takes). */
int sq_output_pane_key(struct sq_app *app, enum sq_tui_action a, int key);
/* Is the output pane showing (the / prompt then searches it)? */
int sq_output_searching(const struct sq_app *app);
/* The / prompt's line in the output pane: go to its next match. */
void sq_output_search(struct sq_app *app, const char *text);
/* Collect a finished read (when the worker wakes the UI). */
void sq_output_poll(struct sq_app *app);
/* Every turn of the loop: the next read once a second while following. */
void sq_output_tick(struct sq_app *app);
void sq_output_close(struct sq_app *app);
/* After the worker stopped (left: sq_worker_stop's mask of calls still
 * running): drop the read in flight and close the pane (UI thread). */
void sq_output_reset(struct sq_app *app, int left);

#endif
