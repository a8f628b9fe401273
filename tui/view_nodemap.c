/*
 * view_nodemap.c - the nodes view's compact node map (m toggles it): one
 * cell per node, coloured by state, in the table's filtered and sorted
 * order, with a legend; arrows move in the grid. Also the node detail
 * pane's list of the jobs running on the node (from the queue snapshot).
 */
#include <stdio.h>
#include <string.h>

#include "core/sanitize.h"
#include "tui/app.h"
#include "core/filter.h"
#include "tui/views.h"

static int per_row = 1; /* cells per grid row at the last draw */

static const struct {
	int role;
	const char *label;
} legend[] = {
	{ SQ_ROLE_NODE_IDLE, "idle" },   { SQ_ROLE_NODE_MIXED, "mixed" },
	{ SQ_ROLE_NODE_ALLOC, "alloc" }, { SQ_ROLE_NODE_DRAIN, "drain" },
	{ SQ_ROLE_NODE_DOWN, "down" },   { SQ_ROLE_NODE_OTHER, "other" },
};

static int
draw_map(struct sq_app *app, struct sq_table *t, int y, int x, int h, int w)
{
	int cell = 4, rows, top_row, i, cx;
	size_t r;
	char name[128];

	/* cell width: the longest node name, plus a gap */
	for (r = 0; r < t->nrows; r++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[r].rec);
		int l = sq_width(sq_sanitize(nd->name, name, sizeof(name))) + 1;

		if (l > cell)
			cell = l;
	}
	if (cell > w)
		cell = w;
	per_row = w / cell > 0 ? w / cell : 1;
	rows = h - 2; /* a blank line and the legend */
	if (rows < 1)
		rows = 1;
	top_row = (int)(t->cur / (size_t)per_row) - rows + 1;
	if (top_row < 0)
		top_row = 0;
	for (i = 0; i < h; i++)
		sq_clear(y + i, x, w, sq_color_attr(app, SQ_ROLE_NORMAL));
	for (r = (size_t)top_row * (size_t)per_row;
	     r < t->nrows && (int)(r / (size_t)per_row) - top_row < rows; r++) {
		const struct sq_node *nd =
		    sq_snapshot_row(t->snap, t->rows[r].rec);
		int gy = y + (int)(r / (size_t)per_row) - top_row;
		int gx = x + (int)(r % (size_t)per_row) * cell;
		int role = r == t->cur ? SQ_ROLE_SELECTION
				       : sq_node_state_role(nd->state);

		sq_sanitize(nd->name, name, sizeof(name));
		sq_put_fit(gy, gx, cell - 1, name, sq_color_attr(app, role));
	}
	cx = x + 1;
	for (i = 0; i < (int)(sizeof(legend) / sizeof(legend[0])); i++) {
		if (cx + (int)strlen(legend[i].label) + 2 > x + w)
			break;
		cx += sq_put(y + h - 1, cx, x + w - cx, legend[i].label,
			     sq_color_attr(app, legend[i].role));
		cx += 2;
	}
	return rows * per_row;
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
		sq_table_move(t, -1);
		return 1;
	case SQ_TA_RIGHT:
		sq_table_move(t, 1);
		return 1;
	case SQ_TA_DOWN:
		sq_table_move(t, per_row);
		return 1;
	case SQ_TA_UP:
		sq_table_move(t, -per_row);
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
}

const struct sq_tui_view sq_tui_view_nodes = {
	.kind = SQ_KIND_NODES,
	.arrange = sq_tui_nodes_arrange, /* grouping by node set */
	.prefix = sq_tui_nodes_prefix,
	.draw_body = draw_map,
	.action = action,
	.detail = detail,
	.detail_kinds = SQ_KIND_BIT(SQ_KIND_JOBS),
};
