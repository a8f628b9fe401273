/*
 * node_audit.c - squall's node actions from its audit log as node-events
 * rows (see node_audit.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/base/hostlist.h"
#include "core/model/model_admin.h"
#include "core/action/node_audit.h"

static const char *const node_actions[] = {
	"drain", "down", "resume", "reboot", "cancelreboot", "reason", NULL,
};

static int
is_node_action(const char *a)
{
	size_t i;

	for (i = 0; node_actions[i] != NULL; i++) {
		if (strcmp(a, node_actions[i]) == 0)
			return 1;
	}
	return 0;
}

/* The audit log's UTC time ("2026-12-06T05:00:00.123Z"), or -1. */
static int64_t
utc_of(const char *t)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(t, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm);
}

/* The value of reason= in the joined args ("reason=disk,asap"): the
 * args are joined with ',' so the reason runs to the next ",key=" */
static void
reason_of(const char *args, char *buf, size_t n)
{
	const char *p = strstr(args, "reason="), *e;
	size_t l;

	buf[0] = '\0';
	if (p == NULL || (p != args && p[-1] != ','))
		return;
	p += strlen("reason=");
	for (e = p; *e != '\0'; e++) {
		const char *q = e + 1;

		if (*e != ',')
			continue;
		while (*q >= 'a' && *q <= 'z')
			q++;
		if (*q == '=' || *q == ',' || *q == '\0')
			break;
	}
	l = (size_t)(e - p) < n - 1 ? (size_t)(e - p) : n - 1;
	memcpy(buf, p, l);
	buf[l] = '\0';
}

static int
add_row(struct sq_snapshot *ev, const char *node,
	const struct sq_audit_entry *e, int64_t at)
{
	struct sq_node_event *r = sq_snapshot_add(ev);
	char state[64], why[1200], reason[1024];

	if (r == NULL)
		return -1;
	reason_of(e->args, reason, sizeof(reason));
	snprintf(state, sizeof(state), "%s%s", SQ_NODE_AUDIT_PREFIX, e->action);
	snprintf(why, sizeof(why), "%s%s(squall on %s, %s)",
		 reason[0] != '\0' ? reason : "", reason[0] != '\0' ? " " : "",
		 e->cluster[0] != '\0' ? e->cluster : "?",
		 strcmp(e->ok, "true") == 0 ? "verified" : "not verified");
	r->node = sq_snapshot_str(ev, node);
	r->state = sq_snapshot_str(ev, state);
	r->reason = sq_snapshot_str(ev, why);
	r->set_by = sq_snapshot_str(ev, e->user);
	r->start = at;
	r->end = SQ_NONE;
	r->duration = SQ_NONE;
	return r->node == NULL || r->state == NULL ? -1 : 0;
}

int
sq_node_events_add_audit(struct sq_snapshot *ev, const struct sq_audit_entry *v,
			 size_t n, const char *cluster, int64_t since)
{
	size_t i, k, nn;
	int added = 0;

	for (i = 0; i < n; i++) {
		const struct sq_audit_entry *e = &v[i];
		char **names;
		int64_t at = utc_of(e->time);

		if (strcmp(e->event, "result") != 0 ||
		    !is_node_action(e->action) || at < since ||
		    (cluster != NULL && strcmp(e->cluster, cluster) != 0))
			continue;
		/* the targets joined with ',' read as one host list */
		names = sq_hostlist_names(e->targets, &nn);
		if (names == NULL)
			continue;
		for (k = 0; k < nn; k++) {
			if (add_row(ev, names[k], e, at) == -1) {
				sq_hostlist_free_names(names, nn);
				return -1;
			}
			added++;
		}
		sq_hostlist_free_names(names, nn);
	}
	return added;
}
