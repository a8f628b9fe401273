/*
 * nodes_group.c - the nodes view grouped by node set (the group action):
 * rows ordered by set, in the order of the worker's NODESETS snapshot
 * (core/nodeset.h: the cluster's NodeSet= lines, else the spec's
 * NodeSets or node pools, else node features), the set's name before
 * the node's. The grouping itself is core's; this is the UI glue only.
 * UI thread only; nothing here blocks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/nodeset.h"
#include "core/sanitize.h"
#include "tui/app.h"
#include "tui/nodes_group.h"
#include "tui/table.h"
#include "tui/text.h"
#include "tui/worker.h"

static int grouped;
static struct sq_snapshot *sets;      /* our reference, or NULL */
static struct sq_nodeset_map set_map; /* node -> row of sets */
static int set_width;                 /* longest set name, 6 to 12 */

int
sq_tui_nodes_grouped(void)
{
	return grouped;
}

int
sq_tui_nodes_group(struct sq_app *app, struct sq_table *t)
{
	grouped = !grouped;
	sq_app_want(app); /* NODESETS while grouped */
	if (grouped && app->worker != NULL)
		sq_worker_refresh(app->worker, SQ_KIND_BIT(SQ_KIND_NODESETS));
	if (grouped)
		sq_tui_nodes_sync(app, t);
	sq_table_rebuild(t);
	sq_app_message(app, 0,
		       grouped ? "nodes grouped by node set (totals: :nodesets)"
			       : "nodes not grouped");
	app->dirty = 1;
	return 1;
}

void
sq_tui_nodes_sync(struct sq_app *app, struct sq_table *t)
{
	struct sq_snapshot *s;
	size_t i;

	if (!grouped || app->worker == NULL)
		return;
	s = sq_worker_get(app->worker, SQ_KIND_NODESETS);
	if (s == NULL || s == sets) {
		sq_snapshot_unref(s);
		return;
	}
	sq_snapshot_unref(sets);
	sq_nodeset_map_free(&set_map);
	sets = s;
	if (sq_nodeset_map_build(sets, &set_map) == -1)
		sq_nodeset_map_free(&set_map);
	set_width = 6; /* "(none)" */
	for (i = 0; i < sets->nrows; i++) {
		const struct sq_nodeset *r = sq_snapshot_row(sets, i);
		int l = sq_width(r->name);

		if (l > set_width)
			set_width = l > 12 ? 12 : l;
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
sq_tui_nodes_arrange(struct sq_table *t)
{
	struct keyed *k;
	size_t i;

	if (!grouped || sets == NULL || t->nrows == 0)
		return;
	k = calloc(t->nrows, sizeof(*k));
	if (k == NULL)
		return;
	for (i = 0; i < t->nrows; i++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[i].rec);
		long set = sq_nodeset_map_find(&set_map, nd->name);

		k[i].set = set < 0 ? (long)sets->nrows : set;
		k[i].pos = i;
		k[i].row = t->rows[i];
	}
	qsort(k, t->nrows, sizeof(*k), cmp_keyed);
	for (i = 0; i < t->nrows; i++) {
		t->rows[i] = k[i].row;
		/* room for the set's name: the first column is as wide as
		 * its text plus 2 * depth + 2 */
		t->rows[i].depth = (unsigned short)(set_width / 2);
	}
	free(k);
}

const char *
sq_tui_nodes_prefix(const struct sq_table *t, const struct sq_table_row *r,
		    char *buf, size_t n)
{
	const struct sq_node *nd;
	long i;
	char name[64];

	if (!grouped || sets == NULL)
		return NULL;
	nd = sq_snapshot_row(t->snap, r->rec);
	i = sq_nodeset_map_find(&set_map, nd->name);
	if (i < 0) {
		snprintf(buf, n, "%-*s ", set_width, "(none)");
		return buf;
	}
	sq_sanitize(
	    ((const struct sq_nodeset *)sq_snapshot_row(sets, (size_t)i))->name,
	    name, sizeof(name));
	snprintf(buf, n, "%-*.*s ", set_width, set_width, name);
	return buf;
}
