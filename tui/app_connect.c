/*
 * app_connect.c - the console's cluster and configuration: connecting
 * starts a worker on the cluster and leaves everything of the old one
 * behind (its worker, the action on its way, the live pane's fetch, the
 * output pane, the tables' snapshots); a changed configuration rebuilds
 * the key map, the colours, and the worker's intervals. UI thread only.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "core/analysis/completing.h"
#include "core/analysis/rpc_share.h"
#include "core/analysis/gpuuse.h"
#include "core/analysis/node_flap.h"
#include "tui/action_dialog.h"
#include "tui/app.h"
#include "tui/app_connect.h"
#include "tui/colors.h"
#include "tui/idle.h"
#include "tui/keys.h"
#include "tui/live.h"
#include "tui/pane_output.h"
#include "tui/table.h"
#include "tui/views.h"
#include "tui/worker.h"

int
sq_app_connect(struct sq_app *app, const struct sq_cluster_cfg *cfg)
{
	struct sq_cluster_cfg c;
	struct sq_worker *w;
	struct sq_err err;
	size_t i;

	sq_err_clear(&err);
	c = *cfg;
	if (app->since[0] != '\0') /* :since holds for every cluster */
		snprintf(c.history_since, sizeof(c.history_since), "%s",
			 app->since);
	w = sq_worker_start(&c, c.refresh,
			    (int)app->conf->num[SQ_OPT_REFRESH_SLOW], &err);
	if (w == NULL) {
		sq_app_message(app, 1, "cannot start the worker: %s", err.msg);
		return -1;
	}
	if (app->worker != NULL) {
		int left = sq_worker_stop(app->worker, 200);

		sq_tui_action_reset(app, left);
		sq_tui_live_reset(app, left);
		sq_output_reset(app, left);
		for (i = 0; i < app->ntables; i++) {
			const struct sq_tui_view *v = app->tables[i].ops;

			if (v != NULL && v->reset != NULL)
				v->reset(app, &app->tables[i]);
		}
	}
	app->worker = w;
	app->cfg = c;
	if (app->unfocused) {
		int fast, slow;

		sq_idle_intervals(app, &fast, &slow);
		sq_worker_intervals(w, fast, slow);
	}
	app->readonly = cfg->readonly || app->conf->num[SQ_OPT_READONLY];
	app->seen_gen = 0;
	memset(&app->st, 0, sizeof(app->st));
	for (i = 0; i < app->ntables; i++)
		sq_table_set_snapshot(&app->tables[i], NULL);
	sq_app_want(app);
	app->dirty = 1;
	return 0;
}

void
sq_app_conf_changed(struct sq_app *app)
{
	unsigned ch = app->conf->changed;

	app->conf->changed = 0;
	if (ch & SQ_CONF_CH_KEYS)
		sq_keymap_build(&app->keymap, app->conf);
	if (ch & (SQ_CONF_CH_COLORS | SQ_CONF_CH_OPTIONS)) {
		sq_colors_apply(app);
		clearok(curscr, TRUE);
	}
	if (ch & SQ_CONF_CH_OPTIONS) {
		app->readonly =
		    app->cfg.readonly || app->conf->num[SQ_OPT_READONLY];
		app->cfg.refresh = (int)app->conf->num[SQ_OPT_REFRESH];
		sq_gpuuse_cfg_set((int)app->conf->num[SQ_OPT_GPU_IDLE_BELOW],
				  (int)app->conf->num[SQ_OPT_GPU_IDLE_AFTER]);
		sq_completing_stuck_set(
		    (int)app->conf->num[SQ_OPT_COMPLETING_STUCK]);
		sq_rpc_user_share_set(
		    (int)app->conf->num[SQ_OPT_RPC_USER_SHARE]);
		sq_flap_cfg_set((int)app->conf->num[SQ_OPT_FLAP_EVENTS],
				(int)app->conf->num[SQ_OPT_FLAP_HOURS]);
		if (app->worker != NULL) {
			int fast, slow;

			sq_idle_intervals(app, &fast, &slow);
			sq_worker_intervals(app->worker, fast, slow);
		}
	}
	app->dirty = 1;
}
