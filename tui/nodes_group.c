/*
 * nodes_group.c - the nodes view grouped by node set (the group action):
 * rows ordered by set, in the order of the worker's NODESETS snapshot
 * (core/spec/nodeset.h: the cluster's NodeSet= lines, else the spec's
 * NodeSets or node pools, else node features), the set's name before
 * the node's. The grouping itself is core's; this is the UI glue only.
 * Its state is the nodes table's (struct sq_nodes_group in the view's
 * t->vstate, view_nodemap.c). UI thread only; nothing here blocks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/spec/nodeset.h"
#include "core/base/sanitize.h"
#include "tui/app.h"
#include "tui/nodes_group.h"
#include "tui/table.h"
#include "tui/text.h"
#include "tui/worker.h"

void
sq_tui_nodes_group_free(struct sq_nodes_group *g)
{
	sq_snapshot_unref(g->sets);
	sq_nodeset_map_free(&g->map);
	g->sets = NULL;
}

int
sq_tui_nodes_group(struct sq_nodes_group *g, struct sq_app *app,
		   struct sq_table *t)
{
	g->on = !g->on;
	sq_app_want(app); /* NODESETS while grouped */
	if (g->on && app->worker != NULL)
		sq_worker_refresh(app->worker, SQ_KIND_BIT(SQ_KIND_NODESETS));
	if (g->on)
		sq_tui_nodes_sync(g, app, t);
	sq_table_rebuild(t);
	sq_app_message(app, 0,
		       g->on ? "nodes grouped by node set (totals: :nodesets)"
			     : "nodes not grouped");
	app->dirty = 1;
	return 1;
}

void
sq_tui_nodes_sync(struct sq_nodes_group *g, struct sq_app *app,
		  struct sq_table *t)
{
	struct sq_snapshot *s;
	size_t i;

	if (!g->on || app->worker == NULL)
		return;
	s = sq_worker_get(app->worker, SQ_KIND_NODESETS);
	if (s == NULL || s == g->sets) {
		sq_snapshot_unref(s);
		return;
	}
	sq_tui_nodes_group_free(g);
	g->sets = s;
	if (sq_nodeset_map_build(g->sets, &g->map) == -1)
		sq_nodeset_map_free(&g->map);
	g->width = 6; /* "(none)" */
	for (i = 0; i < g->sets->nrows; i++) {
		const struct sq_nodeset *r = sq_snapshot_row(g->sets, i);
		int l = sq_width(r->name);

		if (l > g->width)
			g->width = l > 12 ? 12 : l;
	}
	sq_table_rebuild(t);
	app->dirty = 1;
}

struct keyed {
	long set;
	size_t pos;
	struct sq_table_row row;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos; /* keep the sort */
}

void
sq_tui_nodes_arrange(const struct sq_nodes_group *g, struct sq_table *t)
{
	struct keyed *k;
	size_t i;

	if (!g->on || g->sets == NULL || t->nrows == 0)
		return;
	k = calloc(t->nrows, sizeof(*k));
	if (k == NULL)
		return;
	for (i = 0; i < t->nrows; i++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[i].rec);
		long set = sq_nodeset_map_find(&g->map, nd->name);

		k[i].set = set < 0 ? (long)g->sets->nrows : set;
		k[i].pos = i;
		k[i].row = t->rows[i];
	}
	qsort(k, t->nrows, sizeof(*k), cmp_keyed);
	for (i = 0; i < t->nrows; i++) {
		t->rows[i] = k[i].row;
		/* room for the set's name: the first column is as wide as
		 * its text plus 2 * depth + 2 */
		t->rows[i].depth = (unsigned short)(g->width / 2);
	}
	free(k);
}

const char *
sq_tui_nodes_prefix(const struct sq_nodes_group *g, const struct sq_table *t,
		    const struct sq_table_row *r, char *buf, size_t n)
{
	const struct sq_node *nd;
	long i;
	char name[64];

	if (!g->on || g->sets == NULL)
		return NULL;
	nd = sq_snapshot_row(t->snap, r->rec);
	i = sq_nodeset_map_find(&g->map, nd->name);
	if (i < 0) {
		snprintf(buf, n, "%-*s ", g->width, "(none)");
		return buf;
	}
	sq_sanitize(
	    ((const struct sq_nodeset *)sq_snapshot_row(g->sets, (size_t)i))
		->name,
	    name, sizeof(name));
	snprintf(buf, n, "%-*.*s ", g->width, g->width, name);
	return buf;
}
