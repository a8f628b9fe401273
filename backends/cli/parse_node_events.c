/*
 * parse_node_events.c - node events from `sacctmgr -n -P show event
 * event=node format=NodeName,State,User,Start,End,Reason`: one
 * NodeName|State|User|Start|End|Reason line each (times as epoch seconds,
 * SLURM_TIME_FORMAT=%s; End "Unknown" while the event is open). Reason is
 * last, so a '|' in it stays in it.
 */
#include <string.h>
#include <time.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

/* "root(0)" -> "root" into the snapshot arena */
static const char *
user_name(struct sq_snapshot *s, const char *u)
{
	const char *p = strchr(u, '(');

	return p != NULL ? sq_snapshot_strn(s, u, (size_t)(p - u))
			 : sq_snapshot_str(s, u);
}

/* The next '|' field of *pos (NUL-terminated), or NULL. */
static char *
field(char **pos)
{
	char *f = *pos, *bar;

	if (f == NULL)
		return NULL;
	bar = strchr(f, '|');
	if (bar != NULL) {
		*bar = '\0';
		*pos = bar + 1;
	} else {
		*pos = NULL;
	}
	return f;
}

int
sq_parse_node_events(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line;
	int64_t now = (int64_t)time(NULL);
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		char *node, *state, *user, *start, *end, *lp = line;
		struct sq_node_event *e;

		lineno++;
		if (*line == '\0')
			continue;
		node = field(&lp);
		state = field(&lp);
		user = field(&lp);
		start = field(&lp);
		end = field(&lp);
		if (lp == NULL || end == NULL || *node == '\0')
			return sq_err_set(
			    err, SQ_ERR_PARSE,
			    "sacctmgr event line %d: not "
			    "NodeName|State|User|Start|End|Reason",
			    lineno);
		e = sq_snapshot_add(s);
		if (e == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		e->node = sq_snapshot_str(s, node);
		e->state = sq_snapshot_str(s, state);
		e->set_by = user_name(s, user);
		e->reason = sq_snapshot_str(s, lp);
		if (e->node == NULL || e->state == NULL || e->set_by == NULL ||
		    e->reason == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		if (sq_parse_time(start, &e->start) != 0 ||
		    sq_parse_time(end, &e->end) != 0 || e->start == SQ_NONE)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr event line %d: bad time",
					  lineno);
		e->duration = (e->end != SQ_NONE ? e->end : now) - e->start;
		if (e->duration < 0)
			e->duration = 0;
	}
	return 0;
}
