/*
 * view_overview.c - the at-a-glance views in the console. The overview
 * is rebuilt whenever the worker publishes nodes, jobs or sdiag (fetches
 * the console makes anyway; on a cluster with GPUs also the GPUS kind for
 * the pending demand and GPUUSE for the utilisation, one batched sstat at
 * the slow refresh while the overview is shown), and each line's number
 * goes into a fixed
 * ring (core/analysis/overview.h) drawn as the sparkline of its last hour;
 * Enter opens the filtered view behind a line. Where slurmctld serves its
 * metrics (the METRICS kind, session/metrics_fetch.c, as batch mode
 * reads them) they stand for the nodes and sdiag, which are then not
 * asked for; where not, or until the first answer says so, the source
 * line says why and the nodes and sdiag are read. The clusters view runs one
 * parallel fetch of every cluster (session/glance.h) while it is shown,
 * every refresh-slow seconds; Enter switches to the cluster. UI thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/clusters.h"
#include "core/analysis/om_snapshot.h"
#include "core/analysis/overview.h"
#include "core/analysis/overview_om.h"
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

/* the worker's snapshots the overview is built from, by index */
enum { PARTS, NODES, JOBS, DIAG, GPUS, GPUUSE, METRICS, NSRC };
static const enum sq_kind sources[NSRC] = {
	[PARTS] = SQ_KIND_PARTITIONS, [NODES] = SQ_KIND_NODES,
	[JOBS] = SQ_KIND_JOBS,        [DIAG] = SQ_KIND_DIAG,
	[GPUS] = SQ_KIND_GPUS,        [GPUUSE] = SQ_KIND_GPUUSE,
	[METRICS] = SQ_KIND_METRICS
};

/* slurmctld's metrics: not answered yet, read, or not (why: the
 * METRICS snapshot's note) */
enum om_state { OM_UNKNOWN, OM_SERVED, OM_NOT_SERVED };

/* The overview's and the clusters view's state (app->glance): the
 * overview's history lives across view switches, as long as the
 * connection; the clusters' run as long as the console. */
struct sq_tui_glance {
	struct sq_snapshot *src[NSRC];
	struct sq_snapshot *ov; /* the newest overview */
	struct sq_ov_hist *hist;
	struct sq_clusters_run *run;
	struct sq_snapshot *clusters;
	time_t run_started;
	int gpus; /* the nodes have GPUs: the GPU lines are wanted */
	enum om_state om;
	/* the sets of src[METRICS] while OM_SERVED (their strings are
	 * that snapshot's); om_why: why not while OM_NOT_SERVED */
	struct sq_om sets[SQ_OM_SETS];
	const char *om_why;
};

/* app's glance state, made when first needed (NULL: out of memory) */
static struct sq_tui_glance *
glance(struct sq_app *app)
{
	if (app->glance == NULL)
		app->glance = calloc(1, sizeof(*app->glance));
	return app->glance;
}

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

/* The want hook: the rows are composed here from the worker's
 * metrics (or nodes and sdiag, where the metrics are not served), jobs
 * (their history lives here), not fetched by the plan; the nodes and
 * sdiag only once the metrics' answer says they are not served, the GPU
 * kinds only once the nodes (or metrics) show GPUs. */
static unsigned
want(struct sq_app *app, const struct sq_table *t, unsigned plan)
{
	struct sq_tui_glance *g = glance(app);
	unsigned k;

	(void)plan;
	if (t->def->kind != SQ_KIND_OVERVIEW)
		return 0; /* clusters: every cluster on its own thread */
	if (g == NULL)
		return SQ_KIND_BIT(SQ_KIND_JOBS);
	k = SQ_KIND_BIT(SQ_KIND_METRICS) | SQ_KIND_BIT(SQ_KIND_JOBS);
	if (g->om == OM_NOT_SERVED)
		k |= SQ_KIND_BIT(SQ_KIND_NODES) | SQ_KIND_BIT(SQ_KIND_DIAG);
	if (g->gpus)
		k |= SQ_KIND_BIT(SQ_KIND_GPUS) | SQ_KIND_BIT(SQ_KIND_GPUUSE);
	return k;
}

static void
om_forget(struct sq_tui_glance *g)
{
	int k;

	for (k = 0; k < SQ_OM_SETS; k++)
		sq_om_free(&g->sets[k]);
	g->om = OM_UNKNOWN;
	g->om_why = NULL;
}

/* A new METRICS snapshot: its sets, or why not. */
static void
om_take(struct sq_tui_glance *g, const struct sq_snapshot *m)
{
	om_forget(g);
	if (m == NULL)
		return;
	if (sq_om_snapshot_sets(m, g->sets) == 0) {
		g->om = OM_SERVED;
		return;
	}
	g->om = OM_NOT_SERVED;
	g->om_why = m->note != NULL ? m->note : "out of memory";
}

/* Does the cluster have an accelerator (the metrics' GPUs, else the
 * nodes')? */
static int
have_gpus(const struct sq_tui_glance *g)
{
	int64_t used, total;

	if (g->om != OM_SERVED)
		return nodes_have_gpus(g->src[NODES]);
	sq_ov_om_gpus(&g->sets[SQ_OM_NODES], &used, &total);
	return total > 0;
}

static void
forget(struct sq_tui_glance *g)
{
	size_t i;

	for (i = 0; i < NSRC; i++) {
		sq_snapshot_unref(g->src[i]);
		g->src[i] = NULL;
	}
	sq_snapshot_unref(g->ov);
	g->ov = NULL;
	g->gpus = 0;
	om_forget(g);
	if (g->hist != NULL)
		memset(g->hist, 0, sizeof(*g->hist));
}

/* New data from the worker: rebuild the overview, record what changed. */
static void
feed(struct sq_app *app)
{
	struct sq_tui_glance *g = glance(app);
	struct sq_ov_input in = { 0 };
	unsigned changed = 0;
	enum om_state was;
	size_t i;

	if (g == NULL)
		return;
	was = g->om;
	if (g->hist == NULL && (g->hist = sq_ov_hist_new()) == NULL)
		return;
	for (i = 0; i < NSRC; i++) {
		struct sq_snapshot *s = sq_worker_get(app->worker, sources[i]);

		if (s != g->src[i]) {
			sq_snapshot_unref(g->src[i]);
			g->src[i] = s;
			changed |= SQ_KIND_BIT(sources[i]);
		} else {
			sq_snapshot_unref(s);
		}
	}
	if (changed & SQ_KIND_BIT(SQ_KIND_METRICS))
		om_take(g, g->src[METRICS]);
	if (have_gpus(g) != g->gpus || g->om != was) {
		g->gpus = have_gpus(g);
		if (sq_app_table(app)->def->kind == SQ_KIND_OVERVIEW)
			sq_app_want(app);
	}
	/* the lines the metrics make are the nodes' and sdiag's (their
	 * rows' src): new metrics are new samples of those; nodes or sdiag
	 * held for other views are then not ours */
	if (g->om == OM_SERVED) {
		changed &=
		    ~(SQ_KIND_BIT(SQ_KIND_NODES) | SQ_KIND_BIT(SQ_KIND_DIAG));
		if (changed & SQ_KIND_BIT(SQ_KIND_METRICS))
			changed |= SQ_KIND_BIT(SQ_KIND_NODES) |
				   SQ_KIND_BIT(SQ_KIND_DIAG);
	}
	/* the partitions alone change no line of ours */
	if ((changed & ~SQ_KIND_BIT(SQ_KIND_PARTITIONS)) == 0 && g->ov != NULL)
		return;
	in.parts = g->src[PARTS];
	in.jobs = g->src[JOBS];
	in.gpus = g->src[GPUS];
	in.gpuuse = g->src[GPUUSE];
	if (g->om == OM_SERVED) {
		in.om_nodes = &g->sets[SQ_OM_NODES];
		in.om_parts = &g->sets[SQ_OM_PARTITIONS];
		in.om_sched = &g->sets[SQ_OM_SCHEDULER];
	} else {
		in.nodes = g->src[NODES];
		in.diag = g->src[DIAG];
		in.metrics_note = g->om_why;
	}
	in.top = 5;
	sq_snapshot_unref(g->ov);
	g->ov = sq_overview_build(&in, time(NULL));
	sq_ov_hist_feed(g->hist, g->ov, changed);
	if (sq_app_table(app)->def->kind == SQ_KIND_OVERVIEW) {
		struct sq_table *t = sq_app_table(app);
		/* a cursor on the first line stays there: the lines come
		 * from several fetches, and the one that arrives first (the
		 * controller's, say) must not hold the cursor halfway down
		 * once the others are in; one the user moved follows its
		 * line */
		int top = t->cur == 0;

		sq_table_set_snapshot(t, g->ov);
		if (top && t->nrows > 0)
			sq_table_goto(t, 0);
		app->dirty = 1;
	}
}

static void
clusters_tick(struct sq_app *app)
{
	struct sq_tui_glance *g = glance(app);
	struct sq_table *t = sq_app_table(app);
	time_t now = time(NULL);
	struct sq_snapshot *s;

	if (g == NULL)
		return;
	if (g->run != NULL && (s = sq_clusters_result(g->run, 0)) != NULL) {
		sq_clusters_release(g->run);
		g->run = NULL;
		sq_snapshot_unref(g->clusters);
		g->clusters = s;
		if (t->def->kind == SQ_KIND_CLUSTERS) {
			sq_table_set_snapshot(t, s);
			app->dirty = 1;
		}
	}
	if (t->def->kind != SQ_KIND_CLUSTERS || g->run != NULL || app->paused)
		return;
	if (g->clusters == NULL ||
	    now - g->run_started >= app->conf->num[SQ_OPT_REFRESH_SLOW]) {
		g->run_started = now;
		g->run = sq_clusters_start(SQ_CLUSTERS_BUDGET);
	}
}

void
sq_tui_glance_tick(struct sq_app *app)
{
	if (app->worker != NULL)
		feed(app);
	clusters_tick(app);
}

/* The reset hook: the overview's data and history were the old
 * cluster's (the clusters' run stays). */
static void
reset(struct sq_app *app, struct sq_table *t)
{
	(void)t;
	if (app->glance != NULL)
		forget(app->glance);
}

void
sq_tui_glance_free(struct sq_app *app)
{
	struct sq_tui_glance *g = app->glance;

	if (g == NULL)
		return;
	forget(g);
	free(g->hist);
	if (g->run != NULL)
		sq_clusters_release(g->run);
	sq_snapshot_unref(g->clusters);
	free(g);
	app->glance = NULL;
}

/* The sync hook: the newest rows composed here. */
static void
sync_rows(struct sq_app *app, struct sq_table *t)
{
	struct sq_tui_glance *g = glance(app);
	struct sq_snapshot *s;

	if (g == NULL)
		return;
	s = t->def->kind == SQ_KIND_OVERVIEW ? g->ov : g->clusters;
	if (s != t->snap && s != NULL)
		sq_table_set_snapshot(t, s);
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
	const struct sq_tui_glance *g = app->glance;
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
	if (g == NULL)
		return;
	n = sq_spark_values(sq_ov_hist_find(g->hist, r->id), time(NULL), v,
			    (size_t)(w - BAR - 1));
	sq_spark_render(v, n, plain(app), spark, sizeof(spark));
	/* right-aligned: the newest sample at the right edge */
	sq_put(y, x + w - (int)n, (int)n, spark, nattr);
}

static void
refresh_sources(struct sq_app *app)
{
	const struct sq_tui_glance *g = app->glance;
	unsigned k = SQ_KIND_BIT(SQ_KIND_METRICS) | SQ_KIND_BIT(SQ_KIND_JOBS);

	/* the nodes and sdiag only where the metrics are not served; sdiag
	 * at most once a minute, even on r */
	if (g == NULL || g->om == OM_NOT_SERVED)
		k |= SQ_KIND_BIT(SQ_KIND_NODES);
	if (g != NULL && g->om == OM_NOT_SERVED &&
	    (g->src[DIAG] == NULL || time(NULL) - g->src[DIAG]->fetched >= 60))
		k |= SQ_KIND_BIT(SQ_KIND_DIAG);
	if (g != NULL && g->gpus)
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
	struct sq_tui_glance *g = glance(app);
	char line[96];

	if (action == SQ_TA_REFRESH) {
		if (g != NULL && g->run == NULL) {
			g->run_started = time(NULL);
			g->run = sq_clusters_start(SQ_CLUSTERS_BUDGET);
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
	/* the bars before a long value (the source line's why) */
	.extra_first = 1,
	.action = ov_action,
	.want = want,
	.sync = sync_rows,
	.reset = reset,
};

const struct sq_tui_view sq_tui_view_clusters = {
	.kind = SQ_KIND_CLUSTERS,
	.action = cl_action,
	.want = want,
	.sync = sync_rows,
	.reset = reset,
};
