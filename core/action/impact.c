/*
 * impact.c - the running jobs and reservations a node action hits, and
 * the gentler form (see impact.h). Target names may be host lists
 * ("n[1-4]"): each job's and reservation's node list is checked against
 * every target host.
 */
#include <stdio.h>
#include <string.h>

#include "core/base/hostlist.h"
#include "core/action/impact.h"
#include "core/model/model.h"
#include "core/model/model_admin.h"

#define SHOW_MAX 12 /* jobs listed in the preview; the rest counted */

int
sq_impact_applies(const struct sq_action *a)
{
	return a != NULL && (a->type == SQ_ACTION_NODE_DRAIN ||
			     a->type == SQ_ACTION_NODE_DOWN ||
			     a->type == SQ_ACTION_NODE_REBOOT);
}

/* Does host list expr hold one of the action's target hosts? */
static int
hits(const struct sq_action *a, const char *expr)
{
	size_t t, k, n;
	char **names;
	int hit = 0;

	if (expr == NULL || *expr == '\0')
		return 0;
	for (t = 0; t < a->ntargets && !hit; t++) {
		names = sq_hostlist_names(a->targets[t], &n);
		if (names == NULL)
			continue;
		for (k = 0; k < n && !hit; k++)
			hit = sq_hostlist_contains(expr, names[k]);
		sq_hostlist_free_names(names, n);
	}
	return hit;
}

static void
fmt_left(const struct sq_job *j, char *buf, size_t n)
{
	int64_t left;

	if (j->time_limit == SQ_INFINITE || j->time_limit < 0) {
		snprintf(buf, n, "no limit");
		return;
	}
	left = j->time_limit - (j->time_used > 0 ? j->time_used : 0);
	if (left < 0)
		left = 0;
	if (left >= 86400)
		snprintf(buf, n, "%lld-%02lld:%02lld:%02lld left",
			 (long long)(left / 86400),
			 (long long)(left % 86400 / 3600),
			 (long long)(left % 3600 / 60), (long long)(left % 60));
	else
		snprintf(buf, n, "%lld:%02lld:%02lld left",
			 (long long)(left / 3600),
			 (long long)(left % 3600 / 60), (long long)(left % 60));
}

static void
gentler(const struct sq_action *a, int njobs, struct sq_buf *text)
{
	const char *t = a->ntargets > 0 ? a->targets[0] : "NODE";
	const char *more = a->ntargets > 1 ? " ..." : "";

	switch (a->type) {
	case SQ_ACTION_NODE_DRAIN:
		sq_buf_printf(text,
			      "drain kills nothing%s; no new job starts "
			      "there.\n",
			      njobs == 0   ? ""
			      : njobs == 1 ? ": this job runs to its end"
					   : ": these jobs run to their end");
		break;
	case SQ_ACTION_NODE_DOWN:
		if (njobs > 0)
			sq_buf_printf(text,
				      "down kills these jobs (they fail or "
				      "requeue). Gentler: drain %s%s "
				      "reason=... lets them finish.\n",
				      t, more);
		break;
	case SQ_ACTION_NODE_REBOOT:
		if (sq_action_arg(a, "asap") == NULL ||
		    sq_action_arg(a, "nextstate") == NULL)
			sq_buf_printf(text,
				      "Gentler: reboot %s%s asap "
				      "nextstate=resume: no new job starts, "
				      "the reboot waits for the running ones, "
				      "then the node is back in service.\n",
				      t, more);
		break;
	default:
		break;
	}
}

int
sq_impact_format(const struct sq_action *a, const struct sq_snapshot *jobs,
		 const struct sq_snapshot *res, time_t now, struct sq_buf *text,
		 char *summary, size_t n)
{
	size_t i, sl = 0;
	int njobs = 0, nres = 0;
	char left[48];

	if (n > 0)
		summary[0] = '\0';
	if (jobs == NULL) {
		sq_buf_printf(text, "Running jobs on the targets: unknown (the "
				    "queue could not be read).\n");
		snprintf(summary, n, "unknown");
	} else {
		for (i = 0; i < jobs->nrows; i++) {
			const struct sq_job *j = sq_snapshot_row(jobs, i);

			if (j->state == NULL ||
			    strcmp(j->state, "RUNNING") != 0 ||
			    !hits(a, j->nodelist))
				continue;
			if (njobs == 0)
				sq_buf_printf(text,
					      "Running on the target nodes:\n");
			if (njobs < SHOW_MAX) {
				fmt_left(j, left, sizeof(left));
				sq_buf_printf(text, "  %-12s %-10s %-16s %s\n",
					      j->id, j->user, left,
					      j->nodelist);
			}
			if (sl + 1 < n) {
				int k =
				    snprintf(summary + sl, n - sl, "%s%s(%s)",
					     sl ? " " : "", j->id, j->user);

				sl = k > 0 && (size_t)k < n - sl
					 ? sl + (size_t)k
					 : n - 1;
			}
			njobs++;
		}
		if (njobs > SHOW_MAX)
			sq_buf_printf(text, "  ... and %d more\n",
				      njobs - SHOW_MAX);
		if (njobs == 0) {
			sq_buf_printf(text,
				      "No job runs on the target nodes.\n");
			snprintf(summary, n, "none");
		}
	}
	if (res == NULL) {
		sq_buf_printf(text, "Reservations: unknown (not readable).\n");
	} else {
		for (i = 0; i < res->nrows; i++) {
			const struct sq_reservation *r =
			    sq_snapshot_row(res, i);
			char from[32] = "?", to[32] = "?";
			time_t t;
			struct tm tm;

			if ((r->end_time > 0 && r->end_time < now) ||
			    !hits(a, r->nodes))
				continue;
			if (r->start_time > 0) {
				t = (time_t)r->start_time;
				localtime_r(&t, &tm);
				strftime(from, sizeof(from), "%Y-%m-%d %H:%M",
					 &tm);
			}
			if (r->end_time > 0) {
				t = (time_t)r->end_time;
				localtime_r(&t, &tm);
				strftime(to, sizeof(to), "%Y-%m-%d %H:%M", &tm);
			}
			sq_buf_printf(text,
				      "Reservation %s on %s, %s to %s (%s)\n",
				      r->name, r->nodes, from, to,
				      r->state && *r->state ? r->state : "?");
			nres++;
		}
		if (nres == 0)
			sq_buf_printf(text,
				      "No reservation overlaps the targets.\n");
	}
	gentler(a, njobs, text);
	return njobs;
}
