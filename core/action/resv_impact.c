/*
 * resv_impact.c - what a new or changed reservation hits (see resv.h):
 * its start, end and nodes from the action (and, for reserve-update, the
 * reservation as it is), then the running jobs on those nodes that run
 * past the start, the pending jobs of the nodes' partitions that need
 * more than the time left, and the end of the last running job there.
 */
#include <stdio.h>
#include <string.h>

#include "core/base/hostlist.h"
#include "core/model/model.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"
#include "core/action/resv.h"
#include "core/base/util.h"

#define SHOW_MAX 12 /* jobs listed; the rest counted */
#define FOREVER INT64_MAX

/* The reservation the action makes. */
struct plan {
	int64_t start, end; /* end FOREVER: no end; SQ_NONE: not known */
	const char *nodes;  /* host list, "ALL", or NULL */
	const char *part;   /* partition=, or NULL */
	int ignore_jobs;    /* the reservation will have IGNORE_JOBS */
	const struct sq_snapshot *nodesnap;
};

int
sq_resv_impact_applies(const struct sq_action *a)
{
	return a != NULL && (a->type == SQ_ACTION_RESV_CREATE ||
			     a->type == SQ_ACTION_RESV_UPDATE);
}

static const struct sq_reservation *
find_resv(const struct sq_snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; s != NULL && name != NULL && i < s->nrows; i++) {
		const struct sq_reservation *r = sq_snapshot_row(s, i);

		if (r->name != NULL && strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

/* Is word w in list (',' or ' ' separated; a trailing '*' ignored)? */
static int
in_list(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		size_t k = strcspn(p, ", ");

		if (k >= n && strncmp(p, w, n) == 0 &&
		    (k == n || (k == n + 1 && p[n] == '*')))
			return 1;
		p += k;
		p += strspn(p, ", ");
	}
	return 0;
}

static const struct sq_node *
find_node(const struct sq_snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; s != NULL && i < s->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(s, i);

		if (nd->name != NULL && strcmp(nd->name, name) == 0)
			return nd;
	}
	return NULL;
}

static int
node_in(const struct plan *p, const char *name)
{
	const struct sq_node *nd;

	if (p->nodes != NULL && *p->nodes != '\0')
		return strcmp(p->nodes, "ALL") == 0 ||
		       sq_hostlist_contains(p->nodes, name);
	if (p->part == NULL)
		return 0;
	nd = find_node(p->nodesnap, name);
	return nd != NULL && nd->partitions != NULL &&
	       in_list(nd->partitions, p->part);
}

/* Does the job's node list hold one of the reservation's nodes? */
static int
job_in(const struct plan *p, const char *nodelist)
{
	char **names;
	size_t n, k;
	int hit = 0;

	if (nodelist == NULL || *nodelist == '\0')
		return 0;
	if ((names = sq_hostlist_names(nodelist, &n)) == NULL)
		return 0;
	for (k = 0; k < n && !hit; k++)
		hit = node_in(p, names[k]);
	sq_hostlist_free_names(names, n);
	return hit;
}

/* The partitions the reservation's nodes are in (a job pending there may
 * want them): part=, else each reserved node's, from the nodes. */
static int
part_in(const struct plan *p, const char *jobparts)
{
	size_t i;

	if (jobparts == NULL || *jobparts == '\0')
		return 0;
	if (p->part != NULL)
		return in_list(jobparts, p->part);
	for (i = 0; p->nodesnap != NULL && i < p->nodesnap->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(p->nodesnap, i);
		char copy[512], *tok, *save = NULL;

		if (nd->name == NULL || !node_in(p, nd->name) ||
		    nd->partitions == NULL)
			continue;
		sq_util_copy(copy, sizeof(copy), nd->partitions);
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			tok[strcspn(tok, "*")] = '\0';
			if (in_list(jobparts, tok))
				return 1;
		}
	}
	return 0;
}

/* "2026-12-06T06:05:00 (in 10m)" */
static void
fmt_when(int64_t t, time_t now, char *buf, size_t n)
{
	char at[32], span[24];

	sq_resv_time_format(t, at, sizeof(at));
	sq_resv_span(t - (int64_t)now, span, sizeof(span));
	if (t >= (int64_t)now)
		snprintf(buf, n, "%.31s (in %.23s)", at, span);
	else
		snprintf(buf, n, "%.31s (%.23s ago)", at, span);
}

/* The end of a running job: now + what is left of its limit. */
static int64_t
job_end(const struct sq_job *j, time_t now)
{
	int64_t left;

	if (j->time_limit == SQ_INFINITE || j->time_limit < 0)
		return FOREVER;
	left = (int64_t)j->time_limit - (j->time_used > 0 ? j->time_used : 0);
	return (int64_t)now + (left > 0 ? left : 0);
}

/* Will the reservation have IGNORE_JOBS: the flags asked (a create's,
 * or an update's +NAME/-NAME changes to those it had) or it had? */
static int
ignores_jobs(const char *asked, const char *had)
{
	if (asked != NULL && (*asked == '+' || *asked == '-')) {
		if (in_list(asked, "+IGNORE_JOBS"))
			return 1;
		if (in_list(asked, "-IGNORE_JOBS"))
			return 0;
		asked = NULL;
	}
	if (asked == NULL)
		asked = had;
	return asked != NULL && in_list(asked, "IGNORE_JOBS");
}

/* start, end, nodes of the reservation a makes; -1 when start unknown */
static int
make_plan(const struct sq_action *a, const struct sq_reservation *r, time_t now,
	  struct plan *p)
{
	const char *v;
	int64_t d;

	p->ignore_jobs = ignores_jobs(sq_action_arg(a, "flags"),
				      r != NULL ? r->flags : NULL);
	p->nodes = sq_action_arg(a, "nodes");
	p->part = sq_action_arg(a, "partition");
	if (p->nodes == NULL && p->part == NULL && r != NULL) {
		p->nodes = r->nodes;
		if (r->partition != NULL && *r->partition != '\0' &&
		    (r->nodes == NULL || *r->nodes == '\0'))
			p->part = r->partition;
	}
	if ((v = sq_action_arg(a, "start")) != NULL) {
		if (sq_resv_time(v, now, &p->start, NULL) == -1)
			return -1;
	} else if (r != NULL && r->start_time >= 0) {
		p->start = r->start_time;
	} else {
		return -1;
	}
	p->end = SQ_NONE;
	if ((v = sq_action_arg(a, "end")) != NULL) {
		if (sq_resv_time(v, now, &p->end, NULL) == -1)
			p->end = SQ_NONE;
	} else if ((v = sq_action_arg(a, "duration")) != NULL) {
		if (strcmp(v, "UNLIMITED") == 0 || strcmp(v, "-1") == 0)
			p->end = FOREVER;
		else if (sq_parse_duration(v, &d) == 0 && d >= 0)
			p->end = p->start + d;
	} else if (r != NULL && r->end_time >= 0 && r->start_time >= 0) {
		p->end = p->start + (r->end_time - r->start_time);
	}
	return 0;
}

/* Running jobs on the nodes past the start; the last end into *last. */
static int
running_hits(const struct plan *p, const struct sq_snapshot *jobs, time_t now,
	     struct sq_buf *text, char *summary, size_t n, int64_t *last)
{
	size_t i, off = 0;
	int hit = 0, any = 0;
	char when[96], span[24];

	summary[0] = '\0';
	*last = SQ_NONE;
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);
		int64_t e;

		if (j->state == NULL || strcmp(j->state, "RUNNING") != 0 ||
		    !job_in(p, j->nodelist))
			continue;
		any++;
		e = job_end(j, now);
		if (*last == SQ_NONE || e > *last)
			*last = e;
		if (e <= p->start)
			continue;
		if (++hit <= SHOW_MAX) {
			if (e == FOREVER) {
				snprintf(when, sizeof(when), "no time limit");
			} else {
				sq_resv_span(e - p->start, span, sizeof(span));
				sq_resv_time_format(e, when, 32);
				snprintf(when + strlen(when),
					 sizeof(when) - strlen(when),
					 ", %s after the start", span);
			}
			sq_buf_printf(text, "    %s (%s) on %s: ends %s\n",
				      j->id, j->user ? j->user : "?",
				      j->nodelist, when);
		}
		if (off + strlen(j->id) + 2 < n)
			off += (size_t)snprintf(summary + off, n - off, "%s%s",
						off ? " " : "", j->id);
	}
	if (hit > SHOW_MAX)
		sq_buf_printf(text, "    ... and %d more\n", hit - SHOW_MAX);
	if (hit == 0)
		snprintf(summary, n, "none");
	(void)any;
	return hit;
}

/* Pending jobs of the nodes' partitions that need more than is left. */
static void
pending_hits(const struct plan *p, const struct sq_snapshot *jobs, time_t now,
	     struct sq_buf *text)
{
	int64_t room = p->start - (int64_t)now;
	size_t i;
	int hit = 0;
	char span[24];
	struct sq_buf ids;

	if (p->part == NULL && p->nodesnap == NULL) {
		sq_buf_printf(text, "  pending jobs: not known (the nodes' "
				    "partitions could not be read)\n");
		return;
	}
	sq_buf_init(&ids, 0);
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (j->state == NULL || strcmp(j->state, "PENDING") != 0 ||
		    !part_in(p, j->partition))
			continue;
		if (room > 0 && j->time_limit >= 0 &&
		    (int64_t)j->time_limit <= room)
			continue;
		if (++hit <= SHOW_MAX)
			sq_buf_printf(&ids, " %s", j->id);
	}
	sq_resv_span(room, span, sizeof(span));
	if (hit == 0)
		sq_buf_printf(text,
			      "  pending jobs: none there needs more than "
			      "the %s left before the start\n",
			      span);
	else
		sq_buf_printf(text,
			      "  pending jobs that can no longer finish "
			      "there before the start (%s left): %d:%s%s\n",
			      room > 0 ? span : "none", hit, sq_buf_str(&ids),
			      hit > SHOW_MAX ? " ..." : "");
	sq_buf_free(&ids);
}

int
sq_resv_impact(const struct sq_action *a, const struct sq_snapshot *jobs,
	       const struct sq_snapshot *nodes, const struct sq_snapshot *resv,
	       time_t now, struct sq_buf *text, char *summary, size_t n)
{
	const struct sq_reservation *r =
	    a->ntargets ? find_resv(resv, a->targets[0]) : NULL;
	struct plan p;
	char when[96], end[64];
	int64_t last;
	int hit;

	snprintf(summary, n, "unknown");
	if (!sq_resv_impact_applies(a))
		return -1;
	memset(&p, 0, sizeof(p));
	p.nodesnap = nodes;
	if (a->type == SQ_ACTION_RESV_UPDATE && r == NULL) {
		sq_buf_printf(text,
			      "Impact: not known (reservation %s not "
			      "read)\n",
			      a->ntargets ? a->targets[0] : "?");
		return -1;
	}
	if (make_plan(a, r, now, &p) == -1) {
		sq_buf_printf(text, "Impact: not known (no start time)\n");
		return -1;
	}
	fmt_when(p.start, now, when, sizeof(when));
	if (p.end == FOREVER)
		snprintf(end, sizeof(end), "no end");
	else if (p.end == SQ_NONE)
		snprintf(end, sizeof(end), "an end not known");
	else
		sq_resv_time_format(p.end, end, sizeof(end));
	sq_buf_printf(text, "Impact: from %s to %s on %s%s\n", when, end,
		      p.nodes && *p.nodes ? "nodes " : "partition ",
		      p.nodes && *p.nodes ? p.nodes
		      : p.part            ? p.part
					  : "(none named)");
	if (jobs == NULL) {
		sq_buf_printf(text, "  jobs: not known (the queue could not "
				    "be read)\n");
		return -1;
	}
	if (p.part != NULL && (p.nodes == NULL || !*p.nodes) && nodes == NULL)
		sq_buf_printf(text, "  the partition's nodes: not known (the "
				    "nodes could not be read)\n");
	sq_buf_printf(text, "  running jobs there past the start: ");
	{
		struct sq_buf list;

		sq_buf_init(&list, 0);
		hit = running_hits(&p, jobs, now, &list, summary, n, &last);
		sq_buf_printf(text, "%d\n%s", hit, sq_buf_str(&list));
		sq_buf_free(&list);
	}
	if (hit > 0)
		sq_buf_printf(
		    text, "  %s\n",
		    p.ignore_jobs
			? "flags has IGNORE_JOBS: Slurm reserves the nodes "
			  "anyway; these jobs run into the reservation"
			: "Slurm refuses the reservation while they run "
			  "(Requested nodes are busy) unless flags= has "
			  "IGNORE_JOBS");
	pending_hits(&p, jobs, now, text);
	if (last == SQ_NONE)
		sq_buf_printf(text, "  no job runs on those nodes now\n");
	else if (last == FOREVER)
		sq_buf_printf(text, "  the last running job there has no time "
				    "limit: it may never end\n");
	else {
		fmt_when(last, now, when, sizeof(when));
		sq_buf_printf(text, "  the last running job there ends %s\n",
			      when);
	}
	return hit;
}
