/*
 * live.c - live usage (sstat) of the running job shown in the detail
 * pane. The UI thread only reads the cache; a fetch runs job_live() on
 * the worker thread through sq_worker_call() and the pane is rebuilt
 * when it is back. A backend without job_live (slurmrestd) gives a
 * one-line note instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "core/model/live.h"
#include "core/base/sanitize.h"
#include "tui/app.h"
#include "tui/detail.h"
#include "tui/gpumap.h"
#include "tui/live.h"
#include "tui/pane.h"
#include "tui/worker.h"

#define LIVE_FRESH 10 /* seconds a result is shown without a new fetch */

struct sq_tui_live_req {
	char jobid[64];
	int rc;
	struct sq_err err;
	struct sq_live live;
};

static void
w_live(struct sq_backend *b, void *arg)
{
	struct sq_tui_live_req *r = arg;

	sq_err_clear(&r->err);
	memset(&r->live, 0, sizeof(r->live));
	snprintf(r->live.jobid, sizeof(r->live.jobid), "%s", r->jobid);
	if (b->ops->job_live == NULL) {
		snprintf(r->live.note, sizeof(r->live.note),
			 "not available through the %s backend (it has no "
			 "sstat; use the local or ssh backend)",
			 b->ops->name);
		r->rc = 0;
		return;
	}
	r->rc = b->ops->job_live(b, r->jobid, &r->live, &r->err);
	if (r->rc == -1) {
		snprintf(r->live.jobid, sizeof(r->live.jobid), "%s", r->jobid);
		snprintf(r->live.note, sizeof(r->live.note), "%.250s",
			 r->err.msg);
	}
}

static void
start(struct sq_app *app, const char *jobid)
{
	struct sq_tui_live_req *r;

	if (app->live.inflight != NULL || app->worker == NULL)
		return;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return;
	snprintf(r->jobid, sizeof(r->jobid), "%s", jobid);
	if (sq_worker_call(app->worker, SQ_WREQ_LIVE, w_live, r) == -1) {
		free(r); /* not connected: the next refresh tries again */
		return;
	}
	app->live.inflight = r;
}

void
sq_tui_live_poll(struct sq_app *app)
{
	struct sq_tui_live_req *r;

	sq_tui_gpumap_poll(app); /* the node pane's GPU holders */
	if (app->live.inflight == NULL || app->worker == NULL)
		return;
	r = sq_worker_call_done(app->worker, SQ_WREQ_LIVE);
	if (r == NULL)
		return;
	app->live.inflight = NULL;
	app->live.cache = r->live;
	app->live.cache_time = time(NULL);
	app->live.have_cache = 1;
	free(r);
	if (app->mode == SQ_MODE_PANE && app->pane.kind == SQ_PANE_DETAIL)
		sq_detail_refresh(app);
	app->dirty = 1;
}

void
sq_tui_live_reset(struct sq_app *app, int left)
{
	/* a thread left running may still write into the request */
	sq_tui_gpumap_reset(app, left);
	if (!(left & SQ_WREQ_BIT(SQ_WREQ_LIVE)))
		free(app->live.inflight);
	memset(&app->live, 0, sizeof(app->live));
}

struct add_ctx {
	struct sq_pane *p;
};

static void
add_line(void *arg, const char *line)
{
	struct add_ctx *c = arg;
	char safe[1024];

	sq_sanitize(line, safe, sizeof(safe));
	sq_pane_add(c->p, SQ_ROLE_DIALOG, 4, "  %s", safe);
}

void
sq_tui_live_section(struct sq_app *app, const char *jobid, struct sq_pane *p)
{
	int mine =
	    app->live.have_cache && strcmp(app->live.cache.jobid, jobid) == 0;
	struct add_ctx c = { p };

	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Live usage (sstat)");
	if (!mine || time(NULL) - app->live.cache_time >= LIVE_FRESH)
		start(app, jobid);
	if (!mine) {
		sq_pane_add(p, SQ_ROLE_DIALOG, 4, "  %s",
			    app->live.inflight != NULL
				? "fetching..."
				: "waiting for the worker...");
		return;
	}
	sq_live_lines(&app->live.cache, add_line, &c);
}
