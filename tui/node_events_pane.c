/*
 * node_events_pane.c - the last events of a node in its detail pane (see
 * node_events_pane.h). The worker fetches the node-events kind while the
 * pane shows (the nodes view's detail_kinds); nothing is fetched here.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "core/model/model_admin.h"
#include "core/base/sanitize.h"
#include "core/query/when.h"
#include "tui/node_events_pane.h"
#include "tui/worker.h"

#define LAST_MAX 8 /* events listed, newest first */

/* slurmrestd: what /nodes gives instead, and what is missing */
static void
from_nodes(const struct sq_node *nd, struct sq_pane *p, int64_t now)
{
	char reason[256], by[64], at[64];

	sq_pane_add(p, SQ_ROLE_DIALOG, 2,
		    "  slurmrestd serves no event history (sacctmgr show "
		    "event): no past drains or downs, no counts, no "
		    "flapping; the local or ssh backend has them.");
	if (nd->reason == NULL || nd->reason[0] == '\0') {
		sq_pane_add(p, SQ_ROLE_DIALOG, 2,
			    "  /nodes gives: no reason set now");
		return;
	}
	sq_pane_add(p, SQ_ROLE_DIALOG, 2,
		    "  /nodes gives: reason '%s', set by %s, %s",
		    sq_sanitize(nd->reason, reason, sizeof(reason)),
		    nd->reason_by != NULL && nd->reason_by[0] != '\0'
			? sq_sanitize(nd->reason_by, by, sizeof(by))
			: "(not given)",
		    sq_when_long(nd->reason_at, now, at, sizeof(at)) != NULL
			? at
			: "when: not given");
}

/* The newest LAST_MAX events of node in ev, newest first, into idx. */
static size_t
newest(const struct sq_snapshot *ev, const char *node, size_t idx[LAST_MAX])
{
	size_t i, k, n = 0;

	for (i = 0; i < ev->nrows; i++) {
		const struct sq_node_event *e = sq_snapshot_row(ev, i);

		if (e->node == NULL || strcmp(e->node, node) != 0)
			continue;
		for (k = n; k > 0; k--) {
			const struct sq_node_event *o =
			    sq_snapshot_row(ev, idx[k - 1]);

			if (o->start >= e->start)
				break;
			if (k < LAST_MAX)
				idx[k] = idx[k - 1];
		}
		if (k < LAST_MAX) {
			idx[k] = i;
			if (n < LAST_MAX)
				n++;
		}
	}
	return n;
}

static void
list(const struct sq_snapshot *ev, const struct sq_node *nd, struct sq_pane *p,
     int64_t now)
{
	size_t idx[LAST_MAX], n = newest(ev, nd->name, idx), i;

	if (n == 0) {
		sq_pane_add(p, SQ_ROLE_DIALOG, 2,
			    "  none in the history window (:since)");
		return;
	}
	sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  %-19s %-19s %-10s %-10s %s",
		    "START", "END", "STATE", "SET_BY", "REASON");
	for (i = 0; i < n; i++) {
		const struct sq_node_event *e = sq_snapshot_row(ev, idx[i]);
		char st[32], en[32], state[32], by[64], reason[256];

		if (sq_when_short(e->start, now, st, sizeof(st)) == NULL)
			snprintf(st, sizeof(st), "?");
		if (sq_when_short(e->end, now, en, sizeof(en)) == NULL)
			snprintf(en, sizeof(en), "(open)");
		sq_pane_add(p, SQ_ROLE_DIALOG, 2,
			    "  %-19s %-19s %-10s %-10s %s", st, en,
			    sq_sanitize(e->state, state, sizeof(state)),
			    sq_sanitize(e->set_by, by, sizeof(by)),
			    sq_sanitize(e->reason, reason, sizeof(reason)));
	}
}

void
sq_tui_node_events(struct sq_app *app, const struct sq_node *nd,
		   struct sq_pane *p)
{
	struct sq_worker_status st;
	struct sq_snapshot *ev;
	int64_t now = (int64_t)time(NULL);

	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Last events of this node");
	if (app->worker == NULL)
		return;
	sq_worker_status(app->worker, &st);
	if (st.state == SQ_WORKER_READY &&
	    (st.caps & sq_kind_cap(SQ_KIND_NODE_EVENTS)) == 0) {
		from_nodes(nd, p, now);
		return;
	}
	ev = sq_worker_get(app->worker, SQ_KIND_NODE_EVENTS);
	if (ev == NULL) {
		const char *why = st.kind[SQ_KIND_NODE_EVENTS].error;

		sq_pane_add(
		    p, SQ_ROLE_DIALOG, 2, "  %s%s",
		    why[0] != '\0' ? "not read: " : "",
		    why[0] != '\0' ? why : "(reading sacctmgr show event ...)");
		return;
	}
	list(ev, nd, p, now);
	sq_snapshot_unref(ev);
}
