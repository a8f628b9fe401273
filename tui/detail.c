/*
 * detail.c - the detail pane (Enter): every field of the record, the
 * view's own lines (why a job is pending, a node's jobs ...), and the
 * links to other views (cross-navigation: an account's users and jobs, a
 * node's jobs, a job's nodes and association) that 1-9 follow. Links are
 * a table of filter templates over column ids, so they work for any view
 * of a kind and drop out when a column is missing.
 */
#include <stdio.h>
#include <string.h>

#include "core/base/sanitize.h"
#include "core/query/when.h"
#include "tui/app.h"
#include "tui/detail.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/views.h"
#include "tui/worker.h"

struct link_tpl {
	enum sq_kind from;
	const char *label;
	const char *view;
	const char *filter; /* "@col={srccol}" terms ({a|b}: first set) or
			       "@col=word", a fixed word */
};

static const struct link_tpl links[] = {
	{ SQ_KIND_JOBS, "nodes of this job", "nodes", "@node={nodelist}" },
	{ SQ_KIND_JOBS, "association of this job", "assocs",
	  "@account={account} @user={user}" },
	/* sprio lists a pending array by its numeric id (33, not
	 * 33_[1-8]): the raw id leads to its rows */
	{ SQ_KIND_JOBS, "priority factors of this job", "priority",
	  "@job_id={job_id_raw|job_id}" },
	{ SQ_KIND_JOBS, "jobs of this user", "jobs", "@user={user}" },
	{ SQ_KIND_JOBS, "jobs of this account", "jobs", "@account={account}" },
	{ SQ_KIND_PRIO, "this job in the queue", "jobs", "@job_id={job_id}" },
	{ SQ_KIND_NODES, "jobs on this node", "jobs", "@nodelist={node}" },
	{ SQ_KIND_NODES, "partitions of this node", "partitions",
	  "@partition={partitions}" },
	{ SQ_KIND_NODES, "GPUs of this node", "gpus", "@node={node}" },
	{ SQ_KIND_PARTITIONS, "nodes of this partition", "nodes",
	  "@partitions={partition}" },
	{ SQ_KIND_PARTITIONS, "jobs in this partition", "jobs",
	  "@partition={partition}" },
	{ SQ_KIND_ACCOUNTS, "users of this account", "users",
	  "@accounts={account|name}" },
	{ SQ_KIND_ACCOUNTS, "jobs of this account", "jobs",
	  "@account={account|name}" },
	{ SQ_KIND_ACCOUNTS, "associations of this account", "assocs",
	  "@account={account|name}" },
	{ SQ_KIND_ACCOUNTS, "fairshare of this account", "fairshare",
	  "@account={account|name}" },
	{ SQ_KIND_USERS, "jobs of this user", "jobs", "@user={user|name}" },
	{ SQ_KIND_USERS, "associations of this user", "assocs",
	  "@user={user|name}" },
	{ SQ_KIND_ASSOCS, "jobs of this association", "jobs",
	  "@account={account} @user={user}" },
	{ SQ_KIND_ASSOCS, "users of this account", "users",
	  "@accounts={account}" },
	{ SQ_KIND_ASSOCS, "fairshare of this account", "fairshare",
	  "@account={account}" },
	{ SQ_KIND_SHARES, "jobs of this account or user", "jobs",
	  "@account={account} @user={user}" },
	{ SQ_KIND_SHARES, "associations", "assocs",
	  "@account={account} @user={user}" },
	{ SQ_KIND_QOS, "jobs with this QOS", "jobs", "@qos={qos|name}" },
	{ SQ_KIND_RESERVATIONS, "nodes of this reservation", "nodes",
	  "@node={nodes|nodelist}" },
	{ SQ_KIND_EVENTS, "the preempted job", "jobs",
	  "@job_id={victim_id|victim_job|job_id}" },
	{ SQ_KIND_EVENTS, "nodes of the preempted run", "nodes",
	  "@node={nodelist|nodes}" },
	{ SQ_KIND_GPUS, "this node", "nodes", "@node={node}" },
	{ SQ_KIND_GPUS, "jobs on this node", "jobs", "@nodelist={node}" },
	{ SQ_KIND_GPUUSE, "this job in the queue", "jobs", "@job_id={job_id}" },
	{ SQ_KIND_GPUUSE, "nodes of this job", "nodes", "@node={nodelist}" },
	{ SQ_KIND_GPUUSE, "jobs of this user", "jobs", "@user={user}" },
	{ SQ_KIND_HISTORY, "nodes of this run", "nodes", "@node={nodes|node}" },
	{ SQ_KIND_HISTORY, "runs of this user", "history", "@user={user}" },
	{ SQ_KIND_HISTORY, "runs of this account", "history",
	  "@account={account}" },
	{ SQ_KIND_HISTORY, "runs on this node", "history", "@nodes={node}" },
	{ SQ_KIND_LICENSES, "jobs waiting on licenses", "jobs",
	  "@reason=Licenses" },
	{ SQ_KIND_PROBLEMS, "this account", "accounts", "@account={account}" },
	{ SQ_KIND_PROBLEMS, "this user", "users", "@user={user}" },
	{ SQ_KIND_PROBLEMS, "associations", "assocs",
	  "@account={account} @user={user}" },
};

/* Text of the first of "a|b|c" columns that has a value. */
static const char *
source_value(const struct sq_table *t, const void *rec, const char *alts,
	     char *buf, size_t n)
{
	char list[128], *save = NULL, *tok;

	snprintf(list, sizeof(list), "%s", alts);
	for (tok = strtok_r(list, "|", &save); tok != NULL;
	     tok = strtok_r(NULL, "|", &save)) {
		const struct sq_column *c = sq_view_column(t->def, tok);
		char raw[SQ_TABLE_CELL];
		const char *s;

		if (c == NULL)
			continue;
		s = c->text(rec, raw, sizeof(raw));
		if (s == NULL || *s == '\0' || strchr(s, ' ') != NULL)
			continue;
		sq_sanitize(s, buf, n);
		return buf;
	}
	return NULL;
}

/* Expand one template; 0 when the link does not apply to this row. */
static int
expand(const struct sq_table *t, const void *rec, const struct link_tpl *l,
       char *out, size_t n)
{
	const struct sq_view_def *target = sq_view_find(l->view);
	char tpl[256], *save = NULL, *term;
	size_t o = 0;

	if (target == NULL)
		return 0;
	out[0] = '\0';
	snprintf(tpl, sizeof(tpl), "%s", l->filter);
	for (term = strtok_r(tpl, " ", &save); term != NULL;
	     term = strtok_r(NULL, " ", &save)) {
		char col[64], alts[128], val[256];
		const char *eq = strchr(term, '='), *lb, *rb;
		int w;

		lb = eq ? strchr(eq, '{') : NULL;
		rb = lb ? strchr(lb, '}') : NULL;
		if (eq == NULL || (lb != NULL && rb == NULL))
			continue;
		snprintf(col, sizeof(col), "%.*s", (int)(eq - term - 1),
			 term + 1);
		if (sq_view_column(target, col) == NULL)
			return 0;
		if (lb == NULL) { /* a fixed value: @reason=Licenses */
			snprintf(val, sizeof(val), "%s", eq + 1);
		} else {
			snprintf(alts, sizeof(alts), "%.*s", (int)(rb - lb - 1),
				 lb + 1);
			if (source_value(t, rec, alts, val, sizeof(val)) ==
			    NULL)
				continue;
		}
		w = snprintf(out + o, n - o, "%s@%s=%s", o ? " " : "", col,
			     val);
		if (w < 0 || (size_t)w >= n - o)
			return 0;
		o += (size_t)w;
	}
	return o > 0;
}

int
sq_links_of(struct sq_app *app, const struct sq_table *t, const void *rec,
	    struct sq_link *out, int max)
{
	size_t i;
	int n = 0;

	(void)app;
	for (i = 0; i < sizeof(links) / sizeof(links[0]) && n < max; i++) {
		if (links[i].from != t->def->kind)
			continue;
		/* the view may leave a link out for this row (no link that
		 * leads to "No row matches") */
		if (t->ops != NULL && t->ops->link_ok != NULL &&
		    !t->ops->link_ok(rec, links[i].view))
			continue;
		if (!expand(t, rec, &links[i], out[n].filter,
			    sizeof(out[n].filter)))
			continue;
		snprintf(out[n].label, sizeof(out[n].label), "%s",
			 links[i].label);
		snprintf(out[n].view, sizeof(out[n].view), "%s",
			 sq_view_find(links[i].view)->name);
		n++;
	}
	return n;
}

void
sq_follow_link(struct sq_app *app, const struct sq_link *l)
{
	if (sq_app_show_view(app, l->view, l->filter) == 0)
		sq_app_message(app, 0, ":%s /%s  (Esc clears the filter)",
			       l->view, l->filter);
}

static void
build(struct sq_app *app, struct sq_table *t, const void *rec)
{
	struct sq_pane *p = &app->pane;
	size_t i;
	int k;

	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Fields");
	for (i = 0; i < t->def->ncols; i++) {
		const struct sq_column *c = &t->def->cols[i];
		char raw[SQ_TABLE_CELL], safe[SQ_TABLE_CELL];
		const char *s = sq_when_cell(c, rec, 1, raw, sizeof(raw));

		sq_pane_add(p, SQ_ROLE_DIALOG, 15, "  %-12s %s", c->title,
			    s ? sq_sanitize(s, safe, sizeof(safe)) : "-");
	}
	if (t->ops != NULL && t->ops->detail != NULL)
		t->ops->detail(app, t, rec, p);
	p->nlinks = sq_links_of(app, t, rec, p->links, SQ_PANE_LINKS);
	if (p->nlinks > 0) {
		sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
		sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0,
			    "Links (press the number)");
	}
	for (k = 0; k < p->nlinks; k++)
		sq_pane_add(p, SQ_ROLE_DIALOG, 6, "  %d  %-30s :%s /%s", k + 1,
			    p->links[k].label, p->links[k].view,
			    p->links[k].filter);
}

void
sq_detail_open(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	const void *rec = sq_table_cur(t);
	char id[256], title[300];

	if (rec == NULL) {
		sq_app_message(app, 1, "no row to show");
		return;
	}
	sq_table_id(t, rec, id, sizeof(id));
	for (char *c = id; *c != '\0'; c++) {
		if (*c == '\x1f')
			*c = ' ';
	}
	snprintf(title, sizeof(title), "%s %s  (Esc closes, 1-9 follow links)",
		 t->def->name, id);
	sq_pane_clear(&app->pane, title, SQ_PANE_DETAIL);
	snprintf(app->pane.row_id, sizeof(app->pane.row_id), "%s", t->cur_id);
	build(app, t, rec);
	app->mode = SQ_MODE_PANE;
	sq_app_want(app);
	/* what the pane shows from one moment (a job's priority and its
	 * breakdown: sprio now, then the queue joined with it) */
	if (t->ops != NULL && t->ops->detail_refresh != 0 &&
	    app->worker != NULL)
		sq_worker_refresh(app->worker, t->ops->detail_refresh);
	app->dirty = 1;
}

void
sq_detail_refresh(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	struct sq_pane *p = &app->pane;
	char id[256], title[128], row_id[256];
	size_t i, top = p->top;

	if (t->snap == NULL)
		return;
	snprintf(title, sizeof(title), "%s", p->title + 1);
	snprintf(row_id, sizeof(row_id), "%s", p->row_id);
	for (i = 0; i < t->snap->nrows; i++) {
		const void *rec = sq_snapshot_row(t->snap, i);

		if (strcmp(sq_table_id(t, rec, id, sizeof(id)), row_id) != 0)
			continue;
		sq_pane_clear(p, title, SQ_PANE_DETAIL);
		snprintf(p->row_id, sizeof(p->row_id), "%s", row_id);
		build(app, t, rec);
		p->top = top < p->n ? top : 0;
		return;
	}
}
