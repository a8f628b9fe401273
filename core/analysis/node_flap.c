/*
 * node_flap.c - count each node's down/drain events and mark the nodes
 * that flap (see node_flap.h).
 */
#include <string.h>
#include <strings.h>

#include "core/base/util.h"
#include "core/model/model_admin.h"
#include "core/analysis/node_flap.h"

static struct sq_flap_cfg cfg_now = { SQ_FLAP_EVENTS_DEFAULT,
				      SQ_FLAP_HOURS_DEFAULT };

void
sq_flap_cfg_set(int events, int hours)
{
	struct sq_flap_cfg c = { events, hours };

	sq_util_setting_copy(&cfg_now, &c, sizeof(c));
}

struct sq_flap_cfg
sq_flap_cfg_get(void)
{
	struct sq_flap_cfg c;

	sq_util_setting_copy(&c, &cfg_now, sizeof(c));
	return c;
}

/* does word w (case-insensitive) start a '+'-separated part of s? */
static int
has_part(const char *s, const char *w)
{
	size_t l = strlen(w);
	const char *p = s;

	while (p != NULL && *p != '\0') {
		if (strncasecmp(p, w, l) == 0)
			return 1;
		p = strchr(p, '+');
		if (p != NULL)
			p++;
	}
	return 0;
}

int
sq_flap_counts(const char *state)
{
	if (state == NULL)
		return 0;
	return has_part(state, "DOWN") || has_part(state, "DRAIN") ||
	       has_part(state, "FAIL");
}

void
sq_nodes_join_events(struct sq_snapshot *nodes, const struct sq_snapshot *ev,
		     struct sq_flap_cfg cfg, int64_t now)
{
	int64_t since = now - (int64_t)cfg.hours * 3600;
	size_t i, k;

	if (nodes == NULL || ev == NULL)
		return;
	for (i = 0; i < nodes->nrows; i++) {
		struct sq_node *nd = sq_snapshot_row(nodes, i);

		nd->events_known = 1;
		nd->events = 0;
		nd->events_recent = 0;
		for (k = 0; k < ev->nrows; k++) {
			const struct sq_node_event *e = sq_snapshot_row(ev, k);

			if (e->node == NULL || nd->name == NULL ||
			    strcmp(e->node, nd->name) != 0 ||
			    !sq_flap_counts(e->state))
				continue;
			nd->events++;
			if (e->start >= since)
				nd->events_recent++;
		}
		nd->flapping =
		    cfg.events > 0 && nd->events_recent >= cfg.events;
	}
}
