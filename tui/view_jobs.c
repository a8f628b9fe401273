/*
 * view_jobs.c - what the jobs view adds to the table: job arrays that
 * collapse to one row and unfold (- and +), and in the detail pane why a
 * pending job waits: its Reason explained, its rank among the pending
 * jobs of its partition, the job just ahead, and the sprio factor that
 * separates them ("what moves it"), from core/analysis/why.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/conf/conf.h"
#include "core/base/hostlist.h"
#include "core/model/join.h"
#include "core/base/sanitize.h"
#include "core/query/when.h"
#include "core/analysis/why.h"
#include "tui/app.h"
#include "tui/keys.h"
#include "tui/live.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/views.h"
#include "tui/worker.h"

/* ------------------------------------------------------------ arrays */

static void
fold_id(uint32_t array, char *buf, size_t n)
{
	snprintf(buf, n, "array:%u", array);
}

/*
 * What arrange needs to know of a snapshot, worked out once per snapshot:
 * the array group of every row (UINT32_MAX: not in an array) and each
 * group's array id. It holds a reference, dropped when the next snapshot
 * comes. The jobs table's state (t->vstate), made by arrange when first
 * needed and freed with the table (free_state).
 */
struct jobs_state {
	struct sq_snapshot *snap;
	uint32_t *gid;
	uint32_t *ids;
	size_t ng;
	/* scratch reused across keystrokes (no page faults at 100,000) */
	uint32_t *start, *list;
	unsigned char *seen;
	uint32_t *recs; /* the rows' snapshot rows before arranging */
	uint32_t *gs;   /* and their groups (gathered once: at a million
			 * rows every random read of gid costs) */
	size_t recs_cap, list_cap;
};

static void
free_state(void *p)
{
	struct jobs_state *g = p;

	if (g == NULL)
		return;
	sq_snapshot_unref(g->snap);
	free(g->gid);
	free(g->ids);
	free(g->start);
	free(g->list);
	free(g->seen);
	free(g->recs);
	free(g->gs);
	free(g);
}

static int
groups_for(struct jobs_state *g, struct sq_snapshot *snap)
{
	size_t n = snap->nrows, i, hcap = 2;
	uint32_t *hid = NULL, *hgrp = NULL;
	int rc = -1;

	if (g->snap == snap)
		return 0;
	sq_snapshot_unref(g->snap);
	free(g->gid);
	free(g->ids);
	free(g->start);
	free(g->seen);
	g->snap = NULL;
	g->gid = g->ids = g->start = NULL;
	g->seen = NULL;
	g->ng = 0;
	while (hcap < 2 * n)
		hcap *= 2;
	g->gid = malloc((n ? n : 1) * sizeof(*g->gid));
	g->ids = malloc((n ? n : 1) * sizeof(*g->ids));
	hid = calloc(hcap, sizeof(*hid));
	hgrp = malloc(hcap * sizeof(*hgrp));
	if (g->gid == NULL || g->ids == NULL || hid == NULL || hgrp == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		const struct sq_job *job = sq_snapshot_row(snap, i);
		uint32_t a = job->array_job_id;
		size_t h;

		g->gid[i] = UINT32_MAX;
		if (a == 0)
			continue;
		/* array ids are never 0, so 0 marks a free slot */
		for (h = (a * 2654435761u) & (hcap - 1);
		     hid[h] != 0 && hid[h] != a; h = (h + 1) & (hcap - 1))
			;
		if (hid[h] == 0) {
			hid[h] = a;
			hgrp[h] = (uint32_t)g->ng;
			g->ids[g->ng++] = a;
		}
		g->gid[i] = hgrp[h];
	}
	g->start = malloc((g->ng + 1) * sizeof(*g->start));
	g->seen = malloc(g->ng + 1);
	if (g->start == NULL || g->seen == NULL)
		goto out;
	g->snap = sq_snapshot_ref(snap);
	rc = 0;
out:
	if (rc == -1) {
		free(g->gid);
		free(g->ids);
		free(g->start);
		free(g->seen);
		g->gid = g->ids = g->start = NULL;
		g->seen = NULL;
		g->ng = 0;
	}
	free(hid);
	free(hgrp);
	return rc;
}

/*
 * Rows that belong to a job array (array_job_id != 0) are grouped under
 * the group's first row in the sorted order, members in sorted order;
 * other rows stay where they are. Linear in the shown rows: a keystroke
 * on 100,000 array tasks costs a few milliseconds.
 */
static void
arrange(struct sq_table *t)
{
	struct sq_table_row *rows = t->rows;
	size_t n = t->nrows, i, j, ng;
	const uint32_t *gid;
	uint32_t *start, *recs, *gs;
	struct jobs_state *st;

	if (n == 0)
		return;
	if (t->vstate == NULL)
		t->vstate = calloc(1, sizeof(struct jobs_state));
	st = t->vstate;
	if (st == NULL || groups_for(st, t->snap) == -1 || st->ng == 0)
		return;
	gid = st->gid;
	ng = st->ng;
	start = st->start;
	if (st->list_cap < n) {
		uint32_t *l = realloc(st->list, n * sizeof(*l));

		if (l == NULL)
			return;
		st->list = l;
		st->list_cap = n;
	}
	if (st->recs_cap < n) {
		uint32_t *r = realloc(st->recs, n * sizeof(*r));
		uint32_t *g = realloc(st->gs, n * sizeof(*g));

		if (r != NULL)
			st->recs = r;
		if (g != NULL)
			st->gs = g;
		if (r == NULL || g == NULL)
			return;
		st->recs_cap = n;
	}
	/* rebuild made every row { rec, 0, 0, 0 }: the recs are all there
	 * is to them, so the rows are rewritten in place from a copy; the
	 * members of each shown group counted on the way */
	recs = st->recs;
	gs = st->gs;
	memset(start, 0, (ng + 1) * sizeof(*start));
	for (i = 0; i < n; i++) {
		uint32_t g;

		recs[i] = (uint32_t)rows[i].rec;
		gs[i] = g = gid[recs[i]];
		if (g != UINT32_MAX)
			start[g + 1]++;
	}
	for (j = 0; j < ng; j++)
		start[j + 1] += start[j];
	for (i = 0; i < n; i++) {
		if (gs[i] != UINT32_MAX)
			st->list[start[gs[i]]++] = (uint32_t)i;
	}
	/* start[g] is now the end of group g: shift back to the starts */
	for (j = ng; j > 0; j--)
		start[j] = start[j - 1];
	start[0] = 0;
	memset(st->seen, 0, ng);
	t->nrows = 0;
	for (i = 0; i < n; i++) {
		uint32_t g = gs[i];
		struct sq_table_row r = { .rec = recs[i] };
		size_t cnt;
		char id[32];
		int folded;

		if (g == UINT32_MAX) {
			rows[t->nrows++] = r;
			continue;
		}
		if (st->seen[g])
			continue;
		/* i is the group's first shown row: it leads, the others
		 * follow (or hide under it) */
		st->seen[g] = 1;
		cnt = start[g + 1] - start[g];
		folded = t->fold_default;
		if (t->nfolds > 0) {
			fold_id(st->ids[g], id, sizeof(id));
			folded = sq_table_folded(t, id);
		}
		r.flags = cnt > 1 ? SQ_ROW_HASKIDS : 0;
		if (cnt > 1 && folded) {
			r.flags |= SQ_ROW_FOLDED;
			r.hidden = (unsigned)(cnt - 1);
		}
		rows[t->nrows++] = r;
		if (folded)
			continue;
		for (j = start[g] + 1; j < start[g + 1]; j++) {
			struct sq_table_row m = { .rec = recs[st->list[j]],
						  .depth = 1 };

			rows[t->nrows++] = m;
		}
	}
}

static const char *
prefix(const struct sq_table *t, const struct sq_table_row *r, char *buf,
       size_t n)
{
	(void)t;
	/* one column for every row, so job ids stay aligned */
	if (r->flags & SQ_ROW_HASKIDS)
		snprintf(buf, n, "%s", r->flags & SQ_ROW_FOLDED ? "+" : "-");
	else
		snprintf(buf, n, " ");
	return buf;
}

static int
action(struct sq_app *app, struct sq_table *t, int a)
{
	const struct sq_job *job = sq_table_cur(t);
	char id[32];

	if (a != SQ_TA_FOLD && a != SQ_TA_UNFOLD)
		return 0;
	if (job == NULL || job->array_job_id == 0) {
		sq_app_message(app, 0, "not a job array");
		return 1;
	}
	fold_id(job->array_job_id, id, sizeof(id));
	sq_table_set_folded(t, id, a == SQ_TA_FOLD);
	sq_table_rebuild(t);
	sq_table_finish(t); /* the group's first row may be past the first */
	/* the cursor goes to the group's first row */
	if (a == SQ_TA_FOLD) {
		size_t i;

		for (i = 0; i < t->nrows; i++) {
			const struct sq_job *j =
			    sq_snapshot_row(t->snap, t->rows[i].rec);

			if (j->array_job_id == job->array_job_id) {
				sq_table_goto(t, i);
				break;
			}
		}
	}
	app->dirty = 1;
	return 1;
}

/* ------------------------------------------------------------ why */

/* The priority's breakdown, from one sprio read: the weighted factors,
 * their sum, sprio's priority, when it was read; squeue's priority (the
 * table's) named when it differs or was read at another moment. */
static void
prio_section(const struct sq_table *t, const struct sq_job *job,
	     struct sq_pane *p)
{
	const struct sq_prio *pr = job->prio;
	time_t now = time(NULL), at = t->snap->fetched;
	char when[64], tres[200];
	long long sum = (long long)sq_prio_sum(pr), tsum;

	if (t->snap->dep != NULL)
		at = t->snap->dep->fetched;
	tsum = sum -
	       (long long)(pr->site + pr->age + pr->fairshare + pr->jobsize +
			   pr->partition_prio + pr->qos + pr->assoc - pr->nice);
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Priority (sprio, read %s)",
		    sq_when_long(at, now, when, sizeof(when)) ? when : "?");
	sq_sanitize(pr->tres ? pr->tres : "", tres, sizeof(tres));
	sq_pane_add(
	    p, SQ_ROLE_DIALOG, 15,
	    "  %-12s AGE %lld + FAIRSH %lld + JOBSZ %lld + PARTPR %lld + "
	    "QOSPR %lld + ASSOC %lld + SITE %lld + TRES %lld - NICE "
	    "%lld",
	    "factors", (long long)pr->age, (long long)pr->fairshare,
	    (long long)pr->jobsize, (long long)pr->partition_prio,
	    (long long)pr->qos, (long long)pr->assoc, (long long)pr->site, tsum,
	    (long long)pr->nice);
	if (tres[0] != '\0')
		sq_pane_add(p, SQ_ROLE_DIALOG, 15, "  %-12s %s", "TRES", tres);
	sq_pane_add(
	    p, SQ_ROLE_DIALOG, 15,
	    "  %-12s %lld = PRIORITY %lld (sprio's; within its rounding)",
	    "sum", sum, (long long)pr->priority);
	if (job->priority != pr->priority || at + 2 < t->snap->fetched ||
	    at > t->snap->fetched + 2) {
		char tw[64], age[16], d[64] = "";

		if (at + 2 < t->snap->fetched || at > t->snap->fetched + 2)
			snprintf(d, sizeof(d), "; the breakdown is %s %s",
				 sq_when_age((int64_t)(t->snap->fetched - at),
					     age, sizeof(age)),
				 at <= t->snap->fetched ? "older" : "newer");
		sq_pane_add(
		    p, SQ_ROLE_DANGER, 15,
		    "  %-12s the table's PRIORITY %lld is squeue's, read %s%s",
		    "note", (long long)job->priority,
		    sq_when_long(t->snap->fetched, now, tw, sizeof(tw)) ? tw
									: "?",
		    d);
	}
}

/* core/analysis/why.c explains; limits (assoc_mgr) and the association tree
 * come from the worker when it has them. */
static void
detail(struct sq_app *app, struct sq_table *t, const void *rec,
       struct sq_pane *p)
{
	const struct sq_job *job = rec;
	struct sq_snapshot *limits = NULL, *assocs = NULL;
	struct sq_why w;
	char text[4096], *line, *save = NULL;

	if (job->state != NULL && strcmp(job->state, "RUNNING") == 0 &&
	    job->id != NULL) {
		sq_tui_live_section(app, job->id, p);
		return;
	}
	if (!sq_job_is_pending(job))
		return;
	if (app->worker != NULL) {
		limits = sq_worker_get(app->worker, SQ_KIND_LIMITS);
		assocs = sq_worker_get(app->worker, SQ_KIND_ASSOCS);
	}
	memset(&w, 0, sizeof(w));
	sq_why_compute(job, t->snap, limits, assocs, &w);
	sq_why_format(&w, text, sizeof(text));
	sq_snapshot_unref(limits);
	sq_snapshot_unref(assocs);
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Why pending");
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char safe[1024], *colon;

		sq_sanitize(line, safe, sizeof(safe));
		colon = strchr(safe, ':');
		if (colon != NULL && colon - safe < 14) {
			*colon = '\0';
			sq_pane_add(p, SQ_ROLE_DIALOG, 15, "  %-12s %s", safe,
				    colon[1] == ' ' ? colon + 2 : colon + 1);
		} else {
			sq_pane_add(p, SQ_ROLE_DIALOG, 15, "  %s", safe);
		}
	}
	if (job->prio != NULL && t->snap != NULL)
		prio_section(t, job, p);
}

/* ------------------------------------------------------------ the rest */

/* The init hook: arrays start folded when collapse-arrays says so. */
static void
init(struct sq_table *t, const struct sq_conf *conf)
{
	t->fold_default = (int)conf->num[SQ_OPT_COLLAPSE_ARRAYS];
}

/* The title hook: how much older the sprio (or rank) columns are than
 * the queue, or "". */
static const char *
title(const struct sq_table *t, char *buf, size_t n)
{
	return sq_jobs_prio_age(t->snap, buf, n);
}

/* The link_ok hook: sprio lists pending jobs only, so a running or
 * finished job has no link to the priority view. */
static int
link_ok(const void *rec, const char *view)
{
	return strcmp(view, "priority") != 0 || sq_job_is_pending(rec);
}

/* The job_of hook: the job's id. */
static const char *
job_of(const void *rec, char *buf, size_t n)
{
	snprintf(buf, n, "%s", ((const struct sq_job *)rec)->id);
	return buf;
}

/* The node_of hook: a running job's first node. */
static int
node_of(const void *rec, char *buf, size_t n)
{
	const struct sq_job *j = rec;
	char **names;
	size_t k = 0;

	if (j->state == NULL || strcmp(j->state, "RUNNING") != 0 ||
	    j->nodelist == NULL || j->nodelist[0] == '\0')
		return -1;
	names = sq_hostlist_names(j->nodelist, &k);
	if (names == NULL || k == 0) {
		sq_hostlist_free_names(names, k);
		return -1;
	}
	snprintf(buf, n, "%s", names[0]);
	sq_hostlist_free_names(names, k);
	return 0;
}

const struct sq_tui_view sq_tui_view_jobs = {
	.kind = SQ_KIND_JOBS,
	.arrange = arrange,
	/* the arrays of a first part of the rows fold as in all of them */
	.arrange_first = 1,
	.init = init,
	.title = title,
	.prefix = prefix,
	.action = action,
	.detail = detail,
	/* a limit reason is explained with the limits in force; the GPU
	 * use (gpu_util ... with its peaks) is read while the pane is open */
	.detail_kinds = SQ_KIND_BIT(SQ_KIND_LIMITS) |
			SQ_KIND_BIT(SQ_KIND_PRIO) | SQ_KIND_BIT(SQ_KIND_GPUUSE),
	/* a job's priority and its breakdown from one moment: sprio now,
	 * then the queue joined with it (the worker reads sprio first) */
	.link_ok = link_ok,
	.detail_refresh = SQ_KIND_BIT(SQ_KIND_PRIO) | SQ_KIND_BIT(SQ_KIND_JOBS),
	.job_of = job_of,
	.node_of = node_of,
	.free_state = free_state,
};
