/*
 * app_state.h - the console's state of one connection that lives in
 * struct sq_app (tui/app.h) rather than in file statics: the action on
 * its way (tui/action_dialog.c), the live pane's sstat fetch and cache
 * (tui/live.c), the node pane's read of which job holds each GPU
 * (tui/gpumap.c) and the output pane (tui/pane_output.c).
 * sq_app_connect() resets them, so a `:cluster` switch leaves nothing of
 * the old cluster behind.
 */
#ifndef SQ_TUI_APP_STATE_H
#define SQ_TUI_APP_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/base/buf.h"
#include "core/model/live.h"
#include "core/analysis/outpath.h"

enum sq_tui_act_stage {
	SQ_ACT_NONE,
	SQ_ACT_DESCRIBE, /* describe() runs on the worker */
	SQ_ACT_COUNT,    /* typing the number of targets */
	SQ_ACT_CONFIRM,  /* the preview: y or No */
	SQ_ACT_RUN,      /* act() runs on the worker */
};

struct sq_tui_job; /* one action on its way (tui/action_dialog.c) */

struct sq_tui_act_state {
	enum sq_tui_act_stage stage;
	struct sq_tui_job *cur;
	char typed[32]; /* the count typed for a bulk action */
	size_t ntyped;
	/* :submit's new job: the cursor goes to it once the queue has it */
	char jump_id[64];
	time_t jump_until;
	/* the refreshes after an action as Slurm settles (a resumed node
	 * is NOT_RESPONDING until its slurmd answers): the kinds it
	 * touched, when the next is due, how many are left */
	unsigned settle_kinds;
	time_t settle_at;
	int settle_left;
};

struct sq_tui_live_req; /* one sstat fetch (tui/live.c) */

struct sq_tui_live_state {
	struct sq_tui_live_req *inflight; /* the worker's while it runs */
	struct sq_live cache;
	time_t cache_time;
	int have_cache;
};

struct sq_tui_gpumap_req; /* one read of a node's GPU holders (gpumap.c) */

struct sq_tui_gpumap_state {
	struct sq_tui_gpumap_req *inflight; /* the worker's while it runs */
	struct sq_tui_gpumap_req *cache;    /* the last read back */
	time_t at;                          /* when it came back */
};

struct sq_tui_output_req; /* one read of the output pane (pane_output.c) */

/* The output pane (a job's stdout, stderr or script): what it shows and
 * the read on its way. */
struct sq_tui_output_state {
	unsigned gen; /* bumped at each open: late answers are dropped */
	int open, what;
	char jobid[64];
	char path[SQ_OUTPATH_MAX];
	char state[32];
	char error[SQ_OUTPATH_MAX + 300];
	struct sq_buf text; /* bytes [start, end) of the file */
	int64_t start, end, size;
	int following, done, loading_more;
	int waiting;    /* error says the job has not started (not an error) */
	int unreadable; /* the backend cannot read files: nothing will come */
	double last_read;
	time_t last_state;
	char search[256];
	struct sq_tui_output_req *inflight; /* the worker's until collected */
};

#endif
