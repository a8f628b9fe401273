/*
 * view_nodemap.c - the nodes view's node map (m toggles it): nodes
 * grouped by the partitions they share, each group a header (nodes, CPUs
 * and GPUs allocated/total) and a grid of cells, the name coloured by
 * state with bars of the CPUs (and GPUs) allocated; a legend; arrows move
 * in the grid as drawn, Enter opens the node. Also the node detail
 * pane's list of the jobs running on the node (from the queue snapshot)
 * and its last events (node_events_pane.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/keys.h"
#include "tui/node_events_pane.h"
#include "tui/nodes_group.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/text.h"
#include "tui/views.h"
#include "tui/worker.h"
#include "core/filter.h"

/* The grid of the last draw: the table rows in the order drawn, each
 * with its grid line and column, for the arrow keys. */
static struct {
	size_t *row; /* index in t->rows */
	int *line, *col;
	size_t n, cap;
} grid;

static const struct {
	int role;
	const char *label;
} legend[] = {
	{ SQ_ROLE_NODE_IDLE, "idle" },   { SQ_ROLE_NODE_MIXED, "mixed" },
	{ SQ_ROLE_NODE_ALLOC, "alloc" }, { SQ_ROLE_NODE_DRAIN, "drain" },
	{ SQ_ROLE_NODE_DOWN, "down" },   { SQ_ROLE_NODE_OTHER, "other" },
};

#define BAR 4 /* cells of a CPU or GPU bar */

static int
grid_add(size_t row, int line, int col)
{
	if (grid.n == grid.cap) {
		size_t c = grid.cap ? grid.cap * 2 : 64;
		size_t *r = realloc(grid.row, c * sizeof(*r));
		int *l, *k;

		if (r == NULL)
			return -1;
		grid.row = r;
		l = realloc(grid.line, c * sizeof(*l));
		if (l == NULL)
			return -1;
		grid.line = l;
		k = realloc(grid.col, c * sizeof(*k));
		if (k == NULL)
			return -1;
		grid.col = k;
		grid.cap = c;
	}
	grid.row[grid.n] = row;
	grid.line[grid.n] = line;
	grid.col[grid.n++] = col;
	return 0;
}

/* A bar of BAR cells, used of total filled: "##.." or block shades. */
static int
draw_bar(struct sq_app *app, int y, int x, int64_t used, int64_t total, int sel)
{
	int full = 0, i;

	if (total > 0 && used > 0) {
		full = (int)((used * BAR + total - 1) / total);
		if (full > BAR)
			full = BAR;
	}
	for (i = 0; i < BAR; i++) {
		int role = i < full ? SQ_ROLE_BAR_USED : SQ_ROLE_BAR_FREE;

		sq_put(y, x + i, 1,
		       app->utf8 ? (i < full ? "\u2588" : "\u2591")
				 : (i < full ? "#" : "."),
		       sq_color_attr(app, sel ? SQ_ROLE_SELECTION : role));
	}
	return BAR;
}

/* One group's header: the partitions, nodes by state, CPUs and GPUs. */
static void
group_header(struct sq_app *app, struct sq_table *t, const char *key, int y,
	     int x, int w)
{
	int64_t cu = 0, ct = 0, gu = 0, gt = 0;
	size_t r, n = 0;
	char line[512], safe[256];

	for (r = 0; r < t->nrows; r++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[r].rec);

		if (strcmp(nd->partitions ? nd->partitions : "", key) != 0)
			continue;
		n++;
		cu += nd->cpus_alloc > 0 ? nd->cpus_alloc : 0;
		ct += nd->cpus_total > 0 ? nd->cpus_total : 0;
		gu += nd->gpus_alloc > 0 ? nd->gpus_alloc : 0;
		gt += nd->gpus_total > 0 ? nd->gpus_total : 0;
	}
	snprintf(line, sizeof(line), "%s  %zu node%s  CPUs %lld/%lld",
		 sq_sanitize(*key ? key : "(no partition)", safe, sizeof(safe)),
		 n, n == 1 ? "" : "s", (long long)cu, (long long)ct);
	if (gt > 0)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "  GPUs %lld/%lld", (long long)gu, (long long)gt);
	sq_put_fit(y, x, w, line, sq_color_attr(app, SQ_ROLE_DIALOG_TITLE));
}

/*
 * The map: nodes grouped by the partitions they are in (nodes that share
 * them, in the table's order), each group a header and a grid of cells:
 * the name in its state's colour, a bar of the CPUs allocated and, where
 * the cluster has GPUs, one of the GPUs. A legend at the bottom.
 */
static int
draw_map(struct sq_app *app, struct sq_table *t, int y, int x, int h, int w)
{
	int cell = 4, per_row, line = 0, i, cx, gpus = 0, top = 0;
	size_t r, g, ngroups = 0, *first = NULL;
	char name[128];
	const int normal = sq_color_attr(app, SQ_ROLE_NORMAL);

	for (r = 0; r < t->nrows; r++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[r].rec);
		int l = sq_width(sq_sanitize(nd->name, name, sizeof(name)));

		if (l > cell)
			cell = l;
		gpus |= nd->gpus_total > 0;
	}
	cell += 1 + BAR + (gpus ? 1 + BAR : 0) + 2;
	if (cell > w)
		cell = w;
	per_row = (w - 1) / cell > 0 ? (w - 1) / cell : 1;
	/* the groups, in order of their first node */
	first = calloc(t->nrows ? t->nrows : 1, sizeof(*first));
	for (r = 0; first != NULL && r < t->nrows; r++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[r].rec);
		const char *k = nd->partitions ? nd->partitions : "";

		for (g = 0; g < ngroups; g++) {
			const struct sq_node *o =
			    sq_snapshot_row(t->snap, t->rows[first[g]].rec);

			if (strcmp(o->partitions ? o->partitions : "", k) == 0)
				break;
		}
		if (g == ngroups)
			first[ngroups++] = r;
	}
	/* lay it out: a header line per group, then its grid lines */
	grid.n = 0;
	for (g = 0; g < ngroups; g++) {
		const struct sq_node *head =
		    sq_snapshot_row(t->snap, t->rows[first[g]].rec);
		const char *k = head->partitions ? head->partitions : "";
		int n = 0;

		line++; /* the header */
		for (r = first[g]; r < t->nrows; r++) {
			const struct sq_node *nd =
			    sq_snapshot_row(t->snap, t->rows[r].rec);

			if (strcmp(nd->partitions ? nd->partitions : "", k) !=
			    0)
				continue;
			if (grid_add(r, line + n / per_row, n % per_row) == -1)
				break;
			n++;
		}
		line += (n + per_row - 1) / per_row;
	}
	/* scroll so that the cursor's line shows (h - 2 lines of map) */
	for (r = 0; r < grid.n; r++) {
		if (grid.row[r] == t->cur && grid.line[r] >= h - 2)
			top = grid.line[r] - (h - 2) + 1;
	}
	for (i = 0; i < h; i++)
		sq_clear(y + i, x, w, normal);
	line = 0;
	for (g = 0; g < ngroups; g++) {
		const struct sq_node *head =
		    sq_snapshot_row(t->snap, t->rows[first[g]].rec);
		size_t k;
		int hl = -1;

		for (k = 0; k < grid.n; k++) {
			if (grid.row[k] == first[g]) {
				hl = grid.line[k] - 1;
				break;
			}
		}
		if (hl >= top && hl - top < h - 2)
			group_header(app, t,
				     head->partitions ? head->partitions : "",
				     y + hl - top, x + 1, w - 1);
	}
	for (r = 0; r < grid.n; r++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[grid.row[r]].rec);
		int sel = grid.row[r] == t->cur, gy, gx, used;
		int role =
		    sel ? SQ_ROLE_SELECTION : sq_node_state_role(nd->state);

		if (grid.line[r] < top || grid.line[r] - top >= h - 2)
			continue;
		gy = y + grid.line[r] - top;
		gx = x + 1 + grid.col[r] * cell;
		sq_sanitize(nd->name, name, sizeof(name));
		used = sq_put_fit(gy, gx, cell - 2 - BAR - (gpus ? 1 + BAR : 0),
				  name, sq_color_attr(app, role));
		(void)used;
		gx += cell - 2 - BAR - (gpus ? 1 + BAR : 0) + 1;
		draw_bar(app, gy, gx, nd->cpus_alloc, nd->cpus_total, sel);
		if (gpus && nd->gpus_total > 0)
			draw_bar(app, gy, gx + BAR + 1, nd->gpus_alloc,
				 nd->gpus_total, sel);
	}
	free(first);
	cx = x + 1;
	for (i = 0; i < (int)(sizeof(legend) / sizeof(legend[0])); i++) {
		if (cx + (int)strlen(legend[i].label) + 2 > x + w)
			break;
		cx += sq_put(y + h - 1, cx, x + w - cx, legend[i].label,
			     sq_color_attr(app, legend[i].role));
		cx += 2;
	}
	if (cx + 12 < x + w)
		sq_put(y + h - 1, cx, x + w - cx,
		       gpus ? "bars: CPUs, GPUs in use" : "bar: CPUs in use",
		       normal);
	return h;
}

/* The grid cell nearest col on grid line l, or -1. */
static long
grid_at(int l, int col)
{
	long best = -1;
	size_t k;

	for (k = 0; k < grid.n; k++) {
		if (grid.line[k] != l)
			continue;
		if (best < 0 || grid.col[k] <= col)
			best = (long)k;
	}
	return best;
}

/* Move the cursor in the grid as drawn: dx cells or dy lines. */
static void
grid_move(struct sq_table *t, int dx, int dy)
{
	size_t k;
	long to = -1;
	int l;

	for (k = 0; k < grid.n && grid.row[k] != t->cur; k++)
		;
	if (k == grid.n) {
		sq_table_move(t, dx + dy);
		return;
	}
	if (dx != 0) {
		long j = (long)k + dx;

		if (j >= 0 && j < (long)grid.n)
			to = j;
	} else {
		for (l = grid.line[k] + dy;
		     to < 0 && l >= 0 && l <= grid.line[grid.n - 1]; l += dy)
			to = grid_at(l, grid.col[k]);
	}
	if (to >= 0)
		sq_table_goto(t, grid.row[to]);
}

static int
action(struct sq_app *app, struct sq_table *t, int a)
{
	if (a == SQ_TA_GROUP)
		return sq_tui_nodes_group(app, t);
	if (a == SQ_TA_MAP) {
		t->mode = !t->mode;
		app->dirty = 1;
		return 1;
	}
	if (!t->mode)
		return 0;
	switch (a) {
	case SQ_TA_LEFT:
		grid_move(t, -1, 0);
		return 1;
	case SQ_TA_RIGHT:
		grid_move(t, 1, 0);
		return 1;
	case SQ_TA_DOWN:
		grid_move(t, 0, 1);
		return 1;
	case SQ_TA_UP:
		grid_move(t, 0, -1);
		return 1;
	default:
		return 0;
	}
}

static void
detail(struct sq_app *app, struct sq_table *t, const void *rec,
       struct sq_pane *p)
{
	const struct sq_node *nd = rec;
	struct sq_snapshot *jobs;
	size_t i;
	int n = 0;

	(void)t;
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Jobs on this node");
	jobs = app->worker ? sq_worker_get(app->worker, SQ_KIND_JOBS) : NULL;
	if (jobs == NULL) {
		sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  (reading the queue ...)");
		sq_tui_node_events(app, nd, p);
		return;
	}
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);
		char id[64], user[64], part[64], name[128];

		if (j->nodelist[0] == '\0' ||
		    !sq_list_overlap(nd->name, j->nodelist))
			continue;
		sq_pane_add(p, SQ_ROLE_DIALOG, 4,
			    "  %-12s %-10s %-10s %-10s %s",
			    sq_sanitize(j->id, id, sizeof(id)),
			    sq_sanitize(j->user, user, sizeof(user)),
			    sq_sanitize(j->partition, part, sizeof(part)),
			    j->state, sq_sanitize(j->name, name, sizeof(name)));
		n++;
	}
	if (n == 0)
		sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  none");
	sq_snapshot_unref(jobs);
	sq_tui_node_events(app, nd, p);
}

/* The want hook: the node sets too while the view is grouped by them. */
static unsigned
want(const struct sq_table *t, unsigned plan)
{
	(void)t;
	return sq_tui_nodes_grouped() ? plan | SQ_KIND_BIT(SQ_KIND_NODESETS)
				      : plan;
}

/* The sync hook: the worker's nodes, and its node sets when grouped. */
static void
sync_rows(struct sq_app *app, struct sq_table *t)
{
	sq_app_take_snapshot(app, t);
	sq_tui_nodes_sync(app, t);
}

const struct sq_tui_view sq_tui_view_nodes = {
	.kind = SQ_KIND_NODES,
	.arrange = sq_tui_nodes_arrange, /* grouping by node set */
	.prefix = sq_tui_nodes_prefix,
	.draw_body = draw_map,
	.action = action,
	.detail = detail,
	.detail_kinds =
	    SQ_KIND_BIT(SQ_KIND_JOBS) | SQ_KIND_BIT(SQ_KIND_NODE_EVENTS),
	.want = want,
	.sync = sync_rows,
};
