/*
 * view_whatif.c - the what-if view in the console: `:whatif KEY=VALUE
 * ...` (or `:whatif spec`) sets the weights tried and recomputes the
 * worker's WHATIF snapshot on the UI thread (no new query: the factors
 * are already there); a summary line above the table; the detail pane
 * lists each factor times today's and the tried weights. UI thread only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sanitize.h"
#include "core/analysis/whatif.h"
#include "session/whatif_weights.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/table_draw.h"
#include "tui/text.h"
#include "tui/view_whatif.h"
#include "tui/views.h"
#include "tui/worker.h"

/* The whatif table's state (t->vstate, made by :whatif, freed with the
 * table): the weights of the last :whatif; none: as the worker computed
 * them (--weights, else today's). */
struct whatif_state {
	int set;
	struct sq_whatif_weights w;
	char text[1024];
	unsigned gen;      /* bumped by every :whatif */
	unsigned used_gen; /* gen of the table's snapshot */
};

static void
free_state(void *p)
{
	free(p);
}

static void sync_rows(struct sq_app *app, struct sq_table *t);

int
sq_tui_whatif_cmd(struct sq_app *app, const char *arg)
{
	struct sq_whatif_weights w;
	struct whatif_state *st;
	struct sq_err e;
	char shown[1024];
	int i;

	if (*arg != '\0') {
		sq_err_clear(&e);
		if (sq_whatif_weights_read(arg, app->cfg.spec, &w, shown,
					   sizeof(shown), &e) == -1) {
			sq_app_message(app, 1, "whatif: %s", e.msg);
			return -1;
		}
		/* the whatif view's table (every view has one from the
		 * start), shown next */
		i = sq_app_view_index(&sq_view_whatif);
		if (i >= 0 && app->tables[i].vstate == NULL)
			app->tables[i].vstate =
			    calloc(1, sizeof(struct whatif_state));
		st = i >= 0 ? app->tables[i].vstate : NULL;
		if (st == NULL) {
			sq_app_message(app, 1, "whatif: out of memory");
			return -1;
		}
		st->w = w;
		snprintf(st->text, sizeof(st->text), "%s", shown);
		st->set = 1;
		st->gen++;
	}
	if (sq_app_show_view(app, "whatif", NULL) == -1)
		return -1;
	sync_rows(app, sq_app_table(app));
	app->dirty = 1;
	return 0;
}

/* The sync hook: the worker's newest WHATIF snapshot, recomputed for the
 * weights of the last :whatif. */
static void
sync_rows(struct sq_app *app, struct sq_table *t)
{
	struct whatif_state *st = t->vstate;
	struct sq_snapshot *raw, *d;

	if (app->worker == NULL)
		return;
	raw = sq_worker_get(app->worker, SQ_KIND_WHATIF);
	if (raw == NULL)
		return;
	t->mode = 1; /* the summary line above the table (draw_body) */
	if (st == NULL || !st->set) {
		if (raw != t->snap)
			sq_table_set_snapshot(t, raw);
	} else if (t->snap == NULL || t->snap->dep != raw ||
		   st->used_gen != st->gen) {
		d = sq_whatif_derive(raw, &st->w, st->text, SQ_WHATIF_TOP_N);
		if (d != NULL) {
			sq_table_set_snapshot(t, d);
			st->used_gen = st->gen;
			sq_snapshot_unref(d);
		}
	}
	sq_snapshot_unref(raw);
}

/* One summary line, then the table. */
static int
draw_body(struct sq_app *app, struct sq_table *t, int y, int x, int h, int w)
{
	const struct sq_whatif_info *in = sq_whatif_info(t->snap);
	char line[1400], safe[1400];

	if (in == NULL || h < 4)
		return -1;
	snprintf(line, sizeof(line), " %s | model: %zu/%zu as sprio%s%s",
		 in->summary, in->model_exact, in->jobs,
		 in->notes[0] ? " | not modelled: " : "", in->notes);
	sq_sanitize(line, safe, sizeof(safe));
	sq_clear(y, x, w, sq_color_attr(app, SQ_ROLE_HEADER));
	sq_put_fit(y, x, w, safe, sq_color_attr(app, SQ_ROLE_HEADER));
	sq_table_draw(app, t, y + 1, x, h - 1, w);
	return h - 2;
}

static void
detail(struct sq_app *app, struct sq_table *t, const void *rec,
       struct sq_pane *p)
{
	const struct sq_whatif *r = rec;
	const struct sq_whatif_info *in = r->info;
	char line[200], wt[600];
	size_t f;

	(void)app;
	(void)t;
	if (in == NULL)
		return;
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "%s",
		    "Factors times weights (today -> tried)");
	sq_pane_add(p, SQ_ROLE_HEADER, 2,
		    "  %-10s %9s x %8s = %9s   %9s x "
		    "%8s = %9s",
		    "FACTOR", "TODAY", "WEIGHT", "VALUE", "TRIED", "WEIGHT",
		    "VALUE");
	for (f = 0; sq_whatif_factor_line(r, f, line, sizeof(line)) == 0; f++)
		sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  %s", line);
	sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  %-10s %lld (carried unchanged)",
		    "site", (long long)r->site);
	sq_pane_add(p, SQ_ROLE_DIALOG, 2,
		    "  %-10s %lld (subtracted, carried unchanged)", "nice",
		    (long long)r->nice);
	sq_pane_add(p, SQ_ROLE_DIALOG, 2,
		    "  priority %lld -> %lld (%+lld); rank %u -> %u in %s",
		    (long long)r->priority, (long long)r->priority_new,
		    (long long)r->delta, r->rank, r->rank_new, r->partition);
	if (r->age_bound)
		sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  %s",
			    "age: older than today's PriorityMaxAge, the new "
			    "factor is a lower bound");
	sq_whatif_weights_text(in, 1, wt, sizeof(wt));
	sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  tried: %s", wt);
	if (in->notes[0] != '\0')
		sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  not modelled: %s",
			    in->notes);
}

const struct sq_tui_view sq_tui_view_whatif = {
	.kind = SQ_KIND_WHATIF,
	.draw_body = draw_body,
	.detail = detail,
	.sync = sync_rows,
	.free_state = free_state,
};
