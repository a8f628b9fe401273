/*
 * gpumap.c - a node's GPUs one by one in the nodes view's detail pane
 * (tui/gpumap.h): the jobs running on the node with GPUs come from the
 * queue snapshot, the indices each holds from job_gres() (scontrol -d
 * show job, one a job, on the worker thread), their use from the GPUUSE
 * snapshot; core/analysis/gpumap.c joins them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "core/query/filter.h"
#include "core/analysis/gpumap.h"
#include "core/base/gres.h"
#include "core/base/sanitize.h"
#include "tui/app.h"
#include "tui/detail.h"
#include "tui/gpumap.h"
#include "tui/pane.h"
#include "tui/worker.h"

#define FRESH 10    /* seconds a read is shown without a new one */
#define MAX_JOBS 64 /* GPU jobs of one node read */

struct sq_tui_gpumap_req {
	char node[128];
	size_t n;
	char id[MAX_JOBS][64], user[MAX_JOBS][64];
	char gres[MAX_JOBS][256], why[MAX_JOBS][200];
	int ok[MAX_JOBS];
};

static void
w_read(struct sq_backend *b, void *arg)
{
	struct sq_tui_gpumap_req *r = arg;
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct sq_err err;

		sq_err_clear(&err);
		if (b->ops->job_gres == NULL) {
			snprintf(r->why[i], sizeof(r->why[i]),
				 "the %s backend does not say which GPU a "
				 "job holds (use local or ssh)",
				 b->ops->name);
			continue;
		}
		r->ok[i] = b->ops->job_gres(b, r->id[i], r->gres[i],
					    sizeof(r->gres[i]), &err) == 0;
		if (!r->ok[i])
			snprintf(r->why[i], sizeof(r->why[i]),
				 "scontrol -d show job %s: %.120s", r->id[i],
				 err.msg);
	}
}

static int
holds_gpus(const struct sq_job *j)
{
	const char *t = sq_job_tres_alloc(j);

	return (t != NULL && sq_gres_count(t, "gpu") > 0) ||
	       strstr(j->gres, "gpu") != NULL;
}

/* Ask for the GPU jobs of node nd in the queue snapshot now. */
static void
start(struct sq_app *app, const struct sq_node *nd)
{
	struct sq_snapshot *jobs;
	struct sq_tui_gpumap_req *r;
	size_t i;

	if (app->gpumap.inflight != NULL || app->worker == NULL)
		return;
	jobs = sq_worker_get(app->worker, SQ_KIND_JOBS);
	if (jobs == NULL)
		return;
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		sq_snapshot_unref(jobs);
		return;
	}
	snprintf(r->node, sizeof(r->node), "%s", nd->name);
	for (i = 0; i < jobs->nrows && r->n < MAX_JOBS; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (j->state == NULL || strcmp(j->state, "RUNNING") != 0 ||
		    j->nodelist[0] == '\0' ||
		    !sq_list_overlap(nd->name, j->nodelist) || !holds_gpus(j))
			continue;
		snprintf(r->id[r->n], sizeof(r->id[0]), "%s", j->id);
		snprintf(r->user[r->n], sizeof(r->user[0]), "%s", j->user);
		r->n++;
	}
	sq_snapshot_unref(jobs);
	if (sq_worker_call(app->worker, SQ_WREQ_GPUMAP, w_read, r) == -1) {
		free(r);
		return;
	}
	app->gpumap.inflight = r;
}

void
sq_tui_gpumap_poll(struct sq_app *app)
{
	struct sq_tui_gpumap_req *r;

	if (app->gpumap.inflight == NULL || app->worker == NULL)
		return;
	r = sq_worker_call_done(app->worker, SQ_WREQ_GPUMAP);
	if (r == NULL)
		return;
	app->gpumap.inflight = NULL;
	free(app->gpumap.cache);
	app->gpumap.cache = r;
	app->gpumap.at = time(NULL);
	if (app->mode == SQ_MODE_PANE && app->pane.kind == SQ_PANE_DETAIL)
		sq_detail_refresh(app);
	app->dirty = 1;
}

void
sq_tui_gpumap_reset(struct sq_app *app, int left)
{
	if (!(left & SQ_WREQ_BIT(SQ_WREQ_GPUMAP)))
		free(app->gpumap.inflight);
	app->gpumap.inflight = NULL;
	free(app->gpumap.cache);
	app->gpumap.cache = NULL;
}

static void
add_line(void *arg, const char *line)
{
	char safe[1024];

	sq_sanitize(line, safe, sizeof(safe));
	sq_pane_add(arg, SQ_ROLE_DIALOG, 4, "  %s", safe);
}

void
sq_tui_gpumap_section(struct sq_app *app, const struct sq_node *nd,
		      struct sq_pane *p)
{
	struct sq_gpumap_gpu g[SQ_GPUMAP_MAX];
	struct sq_gpumap_job jobs[MAX_JOBS];
	const struct sq_tui_gpumap_req *c = app->gpumap.cache;
	struct sq_snapshot *use;
	size_t i;
	int n, mine;

	if (sq_gres_count(nd->gres, "gpu") <= 0 &&
	    sq_gres_count(nd->gres_used, "gpu") <= 0)
		return;
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0,
		    "GPUs of this node (GresUsed IDX, scontrol -d show job, "
		    "sstat)");
	mine = c != NULL && strcmp(c->node, nd->name) == 0;
	if (!mine || time(NULL) - app->gpumap.at >= FRESH)
		start(app, nd);
	if (!mine) {
		sq_pane_add(p, SQ_ROLE_DIALOG, 4, "  %s",
			    app->gpumap.inflight != NULL
				? "reading which job holds "
				  "each GPU..."
				: "waiting for the queue...");
		return;
	}
	for (i = 0; i < c->n; i++) {
		jobs[i].id = c->id[i];
		jobs[i].user = c->user[i];
		jobs[i].gres = c->ok[i] ? c->gres[i] : NULL;
		jobs[i].why = c->ok[i] ? NULL : c->why[i];
	}
	use = app->worker ? sq_worker_get(app->worker, SQ_KIND_GPUUSE) : NULL;
	n = sq_gpumap_build(nd->name, nd->gres, nd->gres_used, jobs, c->n, use,
			    g, SQ_GPUMAP_MAX);
	sq_gpumap_lines(g, n, add_line, p);
	sq_snapshot_unref(use);
}
