/*
 * view_nodemap.c - the nodes view's node map (m toggles it): nodes
 * grouped by the partitions they share, each group a header (nodes, CPUs
 * and GPUs allocated/total) and a grid of cells, the name coloured by
 * state with bars of the CPUs (and GPUs) allocated; a legend; arrows move
 * in the grid as drawn, Enter opens the node. Also the node detail
 * pane's list of the jobs running on the node (from the queue snapshot)
 * and its last events (node_events_pane.c).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conf/conf.h"
#include "core/base/sanitize.h"
#include "core/model/name_index.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/gpumap.h"
#include "tui/keys.h"
#include "tui/node_events_pane.h"
#include "tui/nodes_group.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/text.h"
#include "tui/views.h"
#include "tui/worker.h"
#include "core/query/filter.h"

/* The nodes view's state, kept in its table (t->vstate): the grouping
 * by node set (nodes_group.c), and the map's: the grid of the last draw
 * (the table rows in the order drawn, each with its grid line and
 * column, for the arrow keys) and the cell width of the snapshot it was
 * measured on (the longest name: measured once a snapshot, not at every
 * draw of 50,000 nodes). */
struct nodes_state {
	struct sq_nodes_group group;
	size_t *row; /* index in t->rows */
	int *line, *col;
	size_t n, cap;
	uint64_t serial; /* of the snapshot name_w and gpus are of */
	int name_w, gpus;
	/* the layout's scratch, as many as cap: each row's group; each
	 * group's first row, cell count (then next place) and header line */
	uint32_t *grp;
	size_t *first, *cnt;
	int *hline;
	/* each group's nodes, CPUs and GPUs allocated and in all (for its
	 * header: no pass over every node a header) */
	struct map_sum {
		size_t nodes;
		int64_t cu, ct, gu, gt;
	} * sum;
	/* each record's partitions text as the first record of the
	 * snapshot with the same text (made once a snapshot, pserial; a
	 * name index), and a layout's group of each such first record:
	 * a node's group without a compare with every group */
	uint32_t *pid, *rgrp;
	size_t pcap;
	uint64_t pserial;
};

static void
free_state(void *p)
{
	struct nodes_state *g = p;

	if (g == NULL)
		return;
	sq_tui_nodes_group_free(&g->group);
	free(g->row);
	free(g->line);
	free(g->col);
	free(g->grp);
	free(g->first);
	free(g->cnt);
	free(g->hline);
	free(g->sum);
	free(g->pid);
	free(g->rgrp);
	free(g);
}

static struct nodes_state *
state_of(struct sq_table *t)
{
	if (t->vstate == NULL)
		t->vstate = calloc(1, sizeof(struct nodes_state));
	return t->vstate;
}

static const struct {
	int role;
	const char *label;
} legend[] = {
	{ SQ_ROLE_NODE_IDLE, "idle" },   { SQ_ROLE_NODE_MIXED, "mixed" },
	{ SQ_ROLE_NODE_ALLOC, "alloc" }, { SQ_ROLE_NODE_DRAIN, "drain" },
	{ SQ_ROLE_NODE_DOWN, "down" },   { SQ_ROLE_NODE_OTHER, "other" },
};

#define BAR 4 /* cells of a CPU or GPU bar */

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

/* One group's header: the partitions, its nodes, CPUs and GPUs. */
static void
group_header(struct sq_app *app, const struct map_sum *m, const char *key,
	     int y, int x, int w)
{
	char line[512], safe[256];

	snprintf(line, sizeof(line), "%s  %zu node%s  CPUs %lld/%lld",
		 sq_sanitize(*key ? key : "(no partition)", safe, sizeof(safe)),
		 m->nodes, m->nodes == 1 ? "" : "s", (long long)m->cu,
		 (long long)m->ct);
	if (m->gt > 0)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "  GPUs %lld/%lld", (long long)m->gu,
			 (long long)m->gt);
	sq_put_fit(y, x, w, line, sq_color_attr(app, SQ_ROLE_DIALOG_TITLE));
}

/* grid holds n cells (contents kept as they are); -1 without memory. */
static int
grid_reserve(struct nodes_state *g, size_t n)
{
	void *p;

	if (n <= g->cap)
		return 0;
	if (n > UINT32_MAX)
		return -1;
#define GROW(f)                                                                \
	do {                                                                   \
		p = realloc(g->f, n * sizeof(*g->f));                          \
		if (p == NULL)                                                 \
			return -1;                                             \
		g->f = p;                                                      \
	} while (0)
	GROW(row);
	GROW(line);
	GROW(col);
	GROW(grp);
	GROW(first);
	GROW(cnt);
	GROW(hline);
	GROW(sum);
#undef GROW
	g->cap = n;
	return 0;
}

static const char *
row_parts(const struct sq_table *t, size_t r)
{
	const struct sq_node *nd = sq_snapshot_row(t->snap, t->rows[r].rec);

	return nd->partitions ? nd->partitions : "";
}

/* g->pid for snapshot s (once a snapshot); -1 without memory. */
static int
map_parts_ids(struct nodes_state *g, const struct sq_snapshot *s)
{
	struct sq_name_index x;
	size_t n = s->nrows, r, at;
	long empty = -1;

	if (g->pid != NULL && g->pserial == s->serial)
		return 0;
	if (n > UINT32_MAX)
		return -1;
	if (g->pcap < n) {
		uint32_t *p = realloc(g->pid, n * sizeof(*p)), *q;

		if (p == NULL)
			return -1;
		g->pid = p;
		q = realloc(g->rgrp, n * sizeof(*q));
		if (q == NULL)
			return -1;
		g->rgrp = q;
		g->pcap = n;
	}
	if (g->pid == NULL || g->rgrp == NULL ||
	    sq_name_index_init(&x, n, offsetof(struct sq_node, partitions)) ==
		-1)
		return -1;
	for (r = 0; r < n; r++) {
		const struct sq_node *nd = sq_snapshot_row(s, r);
		long f;

		/* no partitions: one group, "" or none alike */
		if (nd->partitions == NULL || nd->partitions[0] == '\0') {
			if (empty < 0)
				empty = (long)r;
			g->pid[r] = (uint32_t)empty;
			continue;
		}
		f = sq_name_index_find(&x, s, nd->partitions, &at);
		if (f < 0) {
			sq_name_index_put(&x, at, r);
			f = (long)r;
		}
		g->pid[r] = (uint32_t)f;
	}
	sq_name_index_free(&x);
	g->pserial = s->serial;
	return 0;
}

/*
 * The layout into grid: the nodes grouped by their partitions (groups in
 * order of their first node, nodes in the table's order), a header line
 * per group, then its lines of per_row cells. ms->first[g]: group g's first
 * row; ms->sum[g] its header's figures. The number of groups; -1 without
 * memory. Linear in the rows: each row's group is found by its record's
 * partitions id (map_parts_ids), then every cell is put at its place.
 */
static long
map_layout(struct nodes_state *ms, const struct sq_table *t, int per_row)
{
	size_t n = t->nrows, r, g, ngroups = 0;
	int line = 0;

	if (grid_reserve(ms, n ? n : 1) == -1 ||
	    map_parts_ids(ms, t->snap) == -1)
		return -1;
	memset(ms->rgrp, 0xff, t->snap->nrows * sizeof(*ms->rgrp));
	for (r = 0; r < n; r++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[r].rec);
		uint32_t c = ms->pid[t->rows[r].rec];
		struct map_sum *m;

		g = ms->rgrp[c];
		if (ms->rgrp[c] == UINT32_MAX) {
			g = ngroups;
			ms->rgrp[c] = (uint32_t)g;
			ms->first[ngroups] = r;
			ms->cnt[ngroups] = 0;
			memset(&ms->sum[ngroups++], 0, sizeof(*ms->sum));
		}
		ms->grp[r] = (uint32_t)g;
		ms->cnt[g]++;
		m = &ms->sum[g];
		m->nodes++;
		m->cu += nd->cpus_alloc > 0 ? nd->cpus_alloc : 0;
		m->ct += nd->cpus_total > 0 ? nd->cpus_total : 0;
		m->gu += nd->gpus_alloc > 0 ? nd->gpus_alloc : 0;
		m->gt += nd->gpus_total > 0 ? nd->gpus_total : 0;
	}
	/* each group's header line and its first cell's place in grid */
	for (g = 0, r = 0; g < ngroups; g++) {
		size_t c = ms->cnt[g];

		ms->hline[g] = line;
		line += 1 + (int)((c + (size_t)per_row - 1) / (size_t)per_row);
		ms->cnt[g] = r; /* now: the next free place of group g */
		r += c;
	}
	for (r = 0; r < n; r++)
		ms->row[ms->cnt[ms->grp[r]]++] = r;
	/* lines and columns from each cell's rank in its group */
	for (g = 0, r = 0; g < ngroups; g++) {
		size_t end = ms->cnt[g], k;

		for (k = r; k < end; k++) {
			size_t i = k - r;

			ms->line[k] =
			    ms->hline[g] + 1 + (int)(i / (size_t)per_row);
			ms->col[k] = (int)(i % (size_t)per_row);
		}
		r = end;
	}
	ms->n = n;
	return (long)ngroups;
}

/* The width of a cell: the longest name of the snapshot, its bars and a
 * gap; *gpus: does any node have GPUs (a second bar). */
static int
map_cell(struct nodes_state *g, const struct sq_table *t, int w, int *gpus)
{
	int cell;

	if (g->serial != t->snap->serial) {
		size_t r;
		char name[128];

		g->name_w = 4;
		g->gpus = 0;
		for (r = 0; r < t->snap->nrows; r++) {
			const struct sq_node *nd = sq_snapshot_row(t->snap, r);
			int l =
			    sq_width(sq_sanitize(nd->name, name, sizeof(name)));

			if (l > g->name_w)
				g->name_w = l;
			g->gpus |= nd->gpus_total > 0;
		}
		g->serial = t->snap->serial;
	}
	*gpus = g->gpus;
	cell = g->name_w + 1 + BAR + (*gpus ? 1 + BAR : 0) + 2;
	return cell > w ? w : cell;
}

/* The cells on the lines top .. top + rows - 1, at y, x. */
static void
map_cells(const struct nodes_state *g, struct sq_app *app, struct sq_table *t,
	  int y, int x, int top, int rows, int cell, int gpus)
{
	size_t r;
	char name[128];

	for (r = 0; r < g->n; r++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[g->row[r]].rec);
		int sel = g->row[r] == t->cur, gy, gx, role;

		if (g->line[r] < top || g->line[r] - top >= rows)
			continue;
		role = sel ? SQ_ROLE_SELECTION : sq_node_state_role(nd->state);
		gy = y + g->line[r] - top;
		gx = x + 1 + g->col[r] * cell;
		sq_sanitize(nd->name, name, sizeof(name));
		sq_put_fit(gy, gx, cell - 2 - BAR - (gpus ? 1 + BAR : 0), name,
			   sq_color_attr(app, role));
		gx += cell - 2 - BAR - (gpus ? 1 + BAR : 0) + 1;
		draw_bar(app, gy, gx, nd->cpus_alloc, nd->cpus_total, sel);
		if (gpus && nd->gpus_total > 0)
			draw_bar(app, gy, gx + BAR + 1, nd->gpus_alloc,
				 nd->gpus_total, sel);
	}
}

/* The legend on line y: the states' colours and what the bars are. */
static void
map_legend(struct sq_app *app, int y, int x, int w, int gpus)
{
	int cx = x + 1, i;

	for (i = 0; i < (int)(sizeof(legend) / sizeof(legend[0])); i++) {
		if (cx + (int)strlen(legend[i].label) + 2 > x + w)
			break;
		cx += sq_put(y, cx, x + w - cx, legend[i].label,
			     sq_color_attr(app, legend[i].role));
		cx += 2;
	}
	if (cx + 12 < x + w)
		sq_put(y, cx, x + w - cx,
		       gpus ? "bars: CPUs, GPUs in use" : "bar: CPUs in use",
		       sq_color_attr(app, SQ_ROLE_NORMAL));
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
	struct nodes_state *g = state_of(t);
	int gpus, cell, per_row, i, top = 0;
	size_t r;
	long k, ngroups;
	const int normal = sq_color_attr(app, SQ_ROLE_NORMAL);

	if (g == NULL || t->snap == NULL)
		return -1;
	cell = map_cell(g, t, w, &gpus);
	per_row = (w - 1) / cell > 0 ? (w - 1) / cell : 1;
	g->n = 0;
	ngroups = map_layout(g, t, per_row);
	/* scroll so that the cursor's line shows (h - 2 lines of map) */
	for (r = 0; r < g->n; r++) {
		if (g->row[r] == t->cur && g->line[r] >= h - 2)
			top = g->line[r] - (h - 2) + 1;
	}
	for (i = 0; i < h; i++)
		sq_clear(y + i, x, w, normal);
	/* a group's header: the line above its first cell */
	for (k = 0, r = 0; k < ngroups; k++) {
		int hl;

		while (r < g->n && g->row[r] != g->first[k])
			r++;
		if (r == g->n)
			break;
		hl = g->line[r] - 1;
		if (hl >= top && hl - top < h - 2)
			group_header(app, &g->sum[k], row_parts(t, g->first[k]),
				     y + hl - top, x + 1, w - 1);
	}
	map_cells(g, app, t, y, x, top, h - 2, cell, gpus);
	map_legend(app, y + h - 1, x, w, gpus);
	return h;
}

/* The grid cell nearest col on grid line l, or -1. */
static long
grid_at(const struct nodes_state *g, int l, int col)
{
	long best = -1;
	size_t k;

	for (k = 0; k < g->n; k++) {
		if (g->line[k] != l)
			continue;
		if (best < 0 || g->col[k] <= col)
			best = (long)k;
	}
	return best;
}

/* Move the cursor in the grid as drawn: dx cells or dy lines. */
static void
grid_move(struct sq_table *t, int dx, int dy)
{
	const struct nodes_state *g = t->vstate;
	size_t k;
	long to = -1;
	int l;

	if (g == NULL) {
		sq_table_move(t, dx + dy);
		return;
	}
	for (k = 0; k < g->n && g->row[k] != t->cur; k++)
		;
	if (k == g->n) {
		sq_table_move(t, dx + dy);
		return;
	}
	if (dx != 0) {
		long j = (long)k + dx;

		if (j >= 0 && j < (long)g->n)
			to = j;
	} else {
		for (l = g->line[k] + dy;
		     to < 0 && l >= 0 && l <= g->line[g->n - 1]; l += dy)
			to = grid_at(g, l, g->col[k]);
	}
	if (to >= 0)
		sq_table_goto(t, g->row[to]);
}

/* The grouping of t, or NULL before the view's state is made. */
static const struct sq_nodes_group *
group_of(const struct sq_table *t)
{
	const struct nodes_state *g = t->vstate;

	return g != NULL ? &g->group : NULL;
}

static void
arrange(struct sq_table *t)
{
	const struct sq_nodes_group *g = group_of(t);

	if (g != NULL)
		sq_tui_nodes_arrange(g, t);
}

static const char *
prefix(const struct sq_table *t, const struct sq_table_row *r, char *buf,
       size_t n)
{
	const struct sq_nodes_group *g = group_of(t);

	return g != NULL ? sq_tui_nodes_prefix(g, t, r, buf, n) : NULL;
}

static int
action(struct sq_app *app, struct sq_table *t, int a)
{
	if (a == SQ_TA_GROUP) {
		struct nodes_state *g = state_of(t);

		if (g == NULL) {
			sq_app_message(app, 1, "out of memory");
			return 1;
		}
		return sq_tui_nodes_group(&g->group, app, t);
	}
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
	sq_tui_gpumap_section(app, nd, p);
	sq_tui_node_events(app, nd, p);
}

/* The want hook: the node sets too while the view is grouped by them. */
static unsigned
want(struct sq_app *app, const struct sq_table *t, unsigned plan)
{
	const struct sq_nodes_group *g = group_of(t);

	return g != NULL && g->on ? plan | SQ_KIND_BIT(SQ_KIND_NODESETS) : plan;
}

/* The sync hook: the worker's nodes, and its node sets when grouped. */
static void
sync_rows(struct sq_app *app, struct sq_table *t)
{
	struct nodes_state *g = t->vstate;

	sq_app_take_snapshot(app, t);
	if (g != NULL)
		sq_tui_nodes_sync(&g->group, app, t);
}

/* The init hook: the map first when nodemap says so. */
static void
init(struct sq_table *t, const struct sq_conf *conf)
{
	t->mode = (int)conf->num[SQ_OPT_NODEMAP];
}

/* The node_of hook: the node. */
static int
node_of(const void *rec, char *buf, size_t n)
{
	snprintf(buf, n, "%s", ((const struct sq_node *)rec)->name);
	return 0;
}

const struct sq_tui_view sq_tui_view_nodes = {
	.kind = SQ_KIND_NODES,
	.id_col = "node", /* a node's name names one row */
	.init = init,
	.arrange = arrange, /* grouping by node set */
	.prefix = prefix,
	.draw_body = draw_map,
	.action = action,
	.detail = detail,
	/* the GPU map's use (sstat) and the node's events are read while
	 * the pane is open */
	.detail_kinds = SQ_KIND_BIT(SQ_KIND_JOBS) |
			SQ_KIND_BIT(SQ_KIND_GPUUSE) |
			SQ_KIND_BIT(SQ_KIND_NODE_EVENTS),
	.want = want,
	.sync = sync_rows,
	.free_state = free_state,
	.node_of = node_of,
};
