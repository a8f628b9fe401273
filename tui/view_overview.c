/*
 * view_overview.c - the at-a-glance views in the console. The overview
 * is rebuilt whenever the worker publishes nodes, jobs or sdiag (fetches
 * the console makes anyway; on a cluster with GPUs also the GPUS kind for
 * the pending demand and GPUUSE for the utilisation, one batched sstat at
 * the slow refresh while the overview is shown), and each line's number
 * goes into a fixed
 * ring (core/overview.h) drawn as the sparkline of its last hour; Enter
 * opens the filtered view behind a line. The clusters view runs one
 * parallel fetch of every cluster (session/glance.h) while it is shown,
 * every refresh-slow seconds; Enter switches to the cluster. UI thread.
 */
#include <stdio.h>
#include <string.h>

#include "core/clusters.h"
#include "core/overview.h"
#include "session/glance.h"
#include "tui/app.h"
#include "tui/cmd.h"
#include "tui/colors.h"
#include "tui/detail.h"
#include "tui/keys.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/text.h"
#include "tui/view_overview.h"
#include "tui/views.h"
#include "tui/worker.h"

#define BAR 8
#define EXTRA 26

static const enum sq_kind sources[] = { SQ_KIND_PARTITIONS, SQ_KIND_NODES,
					SQ_KIND_JOBS,       SQ_KIND_DIAG,
					SQ_KIND_GPUS,       SQ_KIND_GPUUSE };
#define NSRC (sizeof(sources) / sizeof(sources[0]))

static struct {
	struct sq_worker *worker; /* whose data the history is */
	struct sq_snapshot *src[NSRC];
	struct sq_snapshot *ov; /* the newest overview */
	struct sq_ov_hist *hist;
	struct sq_clusters_run *run;
	struct sq_snapshot *clusters;
	time_t run_started;
	int gpus; /* the nodes have GPUs: the GPU lines are wanted */
} g;

/* Do the nodes have an accelerator? */
static int
nodes_have_gpus(const struct sq_snapshot *nodes)
{
	size_t i;

	for (i = 0; nodes != NULL && i < nodes->nrows; i++) {
		const struct sq_node *n = sq_snapshot_row(nodes, i);

		if (n->gpus_total > 0)
			return 1;
	}
	return 0;
}

/* The want hook: the rows are composed here from the worker's nodes,
 * jobs and sdiag (their history lives here), not fetched by the plan;
 * the GPU kinds only once the nodes show GPUs. */
static unsigned
want(const struct sq_table *t, unsigned plan)
{
	(void)plan;
	if (t->def->kind == SQ_KIND_OVERVIEW)
		return SQ_KIND_BIT(SQ_KIND_NODES) | SQ_KIND_BIT(SQ_KIND_JOBS) |
		       SQ_KIND_BIT(SQ_KIND_DIAG) |
		       (g.gpus ? SQ_KIND_BIT(SQ_KIND_GPUS) |
				     SQ_KIND_BIT(SQ_KIND_GPUUSE)
			       : 0);
	return 0; /* clusters: every cluster on its own thread */
}

static void
forget(void)
{
	size_t i;

	for (i = 0; i < NSRC; i++) {
		sq_snapshot_unref(g.src[i]);
		g.src[i] = NULL;
	}
	sq_snapshot_unref(g.ov);
	g.ov = NULL;
	g.gpus = 0;
	if (g.hist != NULL)
		memset(g.hist, 0, sizeof(*g.hist));
}

/* New data from the worker: rebuild the overview, record what changed. */
static void
feed(struct sq_app *app)
{
	struct sq_ov_input in = { 0 };
	unsigned changed = 0;
	size_t i;

	if (app->worker != g.worker) {
		forget();
		g.worker = app->worker;
	}
	if (g.hist == NULL && (g.hist = sq_ov_hist_new()) == NULL)
		return;
	for (i = 0; i < NSRC; i++) {
		struct sq_snapshot *s = sq_worker_get(app->worker, sources[i]);

		if (s != g.src[i]) {
			sq_snapshot_unref(g.src[i]);
			g.src[i] = s;
			changed |= SQ_KIND_BIT(sources[i]);
		} else {
			sq_snapshot_unref(s);
		}
	}
	if (nodes_have_gpus(g.src[1]) != g.gpus) {
		g.gpus = !g.gpus;
		if (sq_app_table(app)->def->kind == SQ_KIND_OVERVIEW)
			sq_app_want(app);
	}
	/* the partitions alone change no line of ours */
	if ((changed & ~SQ_KIND_BIT(SQ_KIND_PARTITIONS)) == 0 && g.ov != NULL)
		return;
	in.parts = g.src[0];
	in.nodes = g.src[1];
	in.jobs = g.src[2];
	in.diag = g.src[3];
	in.gpus = g.src[4];
	in.gpuuse = g.src[5];
	in.top = 5;
	sq_snapshot_unref(g.ov);
	g.ov = sq_overview_build(&in, time(NULL));
	sq_ov_hist_feed(g.hist, g.ov, changed);
	if (sq_app_table(app)->def->kind == SQ_KIND_OVERVIEW) {
		struct sq_table *t = sq_app_table(app);
		/* a cursor on the first line stays there: the lines come
		 * from several fetches, and the one that arrives first (the
		 * controller's, say) must not hold the cursor halfway down
		 * once the others are in; one the user moved follows its
		 * line */
		int top = t->cur == 0;

		sq_table_set_snapshot(t, g.ov);
		if (top && t->nrows > 0)
			sq_table_goto(t, 0);
		app->dirty = 1;
	}
}

static void
clusters_tick(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	time_t now = time(NULL);
	struct sq_snapshot *s;

	if (g.run != NULL && (s = sq_clusters_result(g.run, 0)) != NULL) {
		sq_clusters_release(g.run);
		g.run = NULL;
		sq_snapshot_unref(g.clusters);
		g.clusters = s;
		if (t->def->kind == SQ_KIND_CLUSTERS) {
			sq_table_set_snapshot(t, s);
			app->dirty = 1;
		}
	}
	if (t->def->kind != SQ_KIND_CLUSTERS || g.run != NULL || app->paused)
		return;
	if (g.clusters == NULL ||
	    now - g.run_started >= app->conf->num[SQ_OPT_REFRESH_SLOW]) {
		g.run_started = now;
		g.run = sq_clusters_start(SQ_CLUSTERS_BUDGET);
	}
}

void
sq_tui_glance_tick(struct sq_app *app)
{
	if (app->worker != NULL)
		feed(app);
	clusters_tick(app);
}

/* The sync hook: the newest rows composed here. */
static void
sync_rows(struct sq_app *app, struct sq_table *t)
{
	struct sq_snapshot *s =
	    t->def->kind == SQ_KIND_OVERVIEW ? g.ov : g.clusters;

	if (s != t->snap && s != NULL)
		sq_table_set_snapshot(t, s);
	(void)app;
}

/* Sparklines in ASCII without colour or UTF-8, or in the mono theme. */
static int
plain(const struct sq_app *app)
{
	return !app->utf8 || app->colors == 0 ||
	       strcmp(app->conf->theme, "mono") == 0;
}

static void
extra(struct sq_app *app, const void *rec, int y, int x, int w)
{
	const struct sq_ov_row *r = rec;
	int uattr = sq_color_attr(app, SQ_ROLE_BAR_USED);
	int fattr = sq_color_attr(app, SQ_ROLE_BAR_FREE);
	int nattr = sq_color_attr(app, SQ_ROLE_NORMAL);
	double v[EXTRA];
	char spark[EXTRA * 3 + 1];
	size_t n;
	int i, used;

	sq_clear(y, x, w, nattr);
	if (r->total > 0) {
		used = (int)((r->used * BAR + r->total / 2) / r->total);
		if (r->used > 0 && used == 0)
			used = 1;
		if (used > BAR)
			used = BAR;
		for (i = 0; i < BAR; i++)
			sq_put(y, x + i, 1, i < used ? "#" : ".",
			       i < used ? uattr : fattr);
	}
	n = sq_spark_values(sq_ov_hist_find(g.hist, r->id), time(NULL), v,
			    (size_t)(w - BAR - 1));
	sq_spark_render(v, n, plain(app), spark, sizeof(spark));
	/* right-aligned: the newest sample at the right edge */
	sq_put(y, x + w - (int)n, (int)n, spark, nattr);
}

static void
refresh_sources(struct sq_app *app)
{
	unsigned k = SQ_KIND_BIT(SQ_KIND_NODES) | SQ_KIND_BIT(SQ_KIND_JOBS);

	/* sdiag at most once a minute, even on r */
	if (g.src[3] == NULL || time(NULL) - g.src[3]->fetched >= 60)
		k |= SQ_KIND_BIT(SQ_KIND_DIAG);
	if (g.gpus)
		k |= SQ_KIND_BIT(SQ_KIND_GPUS);
	if (app->worker != NULL)
		sq_worker_refresh(app->worker, k);
	sq_app_message(app, 0, "refreshing the overview");
}

static int
ov_action(struct sq_app *app, struct sq_table *t, int action)
{
	const struct sq_ov_row *r = sq_table_cur(t);
	struct sq_link l;

	if (action == SQ_TA_REFRESH) {
		refresh_sources(app);
		return 1;
	}
	if (action != SQ_TA_DETAIL || r == NULL || r->view[0] == '\0')
		return 0;
	memset(&l, 0, sizeof(l));
	snprintf(l.view, sizeof(l.view), "%s", r->view);
	snprintf(l.filter, sizeof(l.filter), "%s", r->filter);
	sq_follow_link(app, &l);
	return 1;
}

static int
cl_action(struct sq_app *app, struct sq_table *t, int action)
{
	const struct sq_cluster_row *r = sq_table_cur(t);
	char line[96];

	if (action == SQ_TA_REFRESH) {
		if (g.run == NULL) {
			g.run_started = time(NULL);
			g.run = sq_clusters_start(SQ_CLUSTERS_BUDGET);
		}
		sq_app_message(app, 0, "asking every cluster");
		return 1;
	}
	if (action != SQ_TA_DETAIL || r == NULL)
		return 0;
	snprintf(line, sizeof(line), "cluster %.80s", r->cluster);
	sq_cmd_run(app, line);
	return 1;
}

const struct sq_tui_view sq_tui_view_overview = {
	.kind = SQ_KIND_OVERVIEW,
	.extra_title = "USE     TREND (1h)",
	.extra_width = EXTRA,
	.extra = extra,
	.action = ov_action,
	.want = want,
	.sync = sync_rows,
};

const struct sq_tui_view sq_tui_view_clusters = {
	.kind = SQ_KIND_CLUSTERS,
	.action = cl_action,
	.want = want,
	.sync = sync_rows,
};
