/*
 * view_jobs.c - what the jobs view adds to the table: job arrays that
 * collapse to one row and unfold (- and +), and in the detail pane why a
 * pending job waits: its Reason explained, its rank among the pending
 * jobs of its partition, the job just ahead, and the sprio factor that
 * separates them ("what moves it"), from core/why.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"
#include "core/why.h"
#include "tui/app.h"
#include "tui/views.h"

/* ------------------------------------------------------------ arrays */

struct member {
	uint32_t array;
	size_t pos; /* position in the sorted order */
};

static int
cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->array != y->array)
		return x->array < y->array ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void
fold_id(uint32_t array, char *buf, size_t n)
{
	snprintf(buf, n, "array:%u", array);
}

static void
arrange(struct sq_table *t)
{
	struct sq_table_row *old = t->rows;
	size_t n = t->nrows, i, nm = 0, j;
	struct member *m;
	unsigned char *placed;

	m = calloc(n ? n : 1, sizeof(*m));
	placed = calloc(n ? n : 1, 1);
	if (m == NULL || placed == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		const struct sq_job *job = sq_snapshot_row(t->snap, old[i].rec);

		if (job->array_job_id != 0) {
			m[nm].array = job->array_job_id;
			m[nm++].pos = i;
		}
	}
	if (nm == 0)
		goto out;
	qsort(m, nm, sizeof(*m), cmp_member);
	t->rows = NULL;
	t->nrows = t->cap = 0;
	for (i = 0; i < n; i++) {
		const struct sq_job *job;
		struct member key, *first;
		size_t cnt = 0, k;
		char id[32];
		int folded;

		if (placed[i])
			continue;
		job = sq_snapshot_row(t->snap, old[i].rec);
		if (job->array_job_id == 0) {
			sq_table_push(t, &old[i]);
			continue;
		}
		key.array = job->array_job_id;
		key.pos = 0;
		/* the group's members, in sorted order */
		for (k = 0; k < nm && m[k].array != key.array; k++)
			;
		first = &m[k];
		while (k + cnt < nm && m[k + cnt].array == key.array)
			cnt++;
		fold_id(key.array, id, sizeof(id));
		folded = sq_table_folded(t, id);
		old[i].depth = 0;
		old[i].flags = cnt > 1 ? SQ_ROW_HASKIDS : 0;
		old[i].hidden = 0;
		if (cnt > 1 && folded) {
			old[i].flags |= SQ_ROW_FOLDED;
			old[i].hidden = (unsigned)(cnt - 1);
		}
		sq_table_push(t, &old[i]);
		placed[i] = 1;
		for (j = 0; j < cnt; j++) {
			size_t p = first[j].pos;

			if (placed[p])
				continue;
			placed[p] = 1;
			if (folded)
				continue;
			old[p].depth = 1;
			old[p].flags = 0;
			old[p].hidden = 0;
			sq_table_push(t, &old[p]);
		}
	}
	free(old);
	old = NULL;
out:
	free(m);
	free(placed);
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

/* core/why.c explains; limits (assoc_mgr) and the association tree come
 * from the worker when it has them. */
static void
detail(struct sq_app *app, struct sq_table *t, const void *rec,
       struct sq_pane *p)
{
	const struct sq_job *job = rec;
	struct sq_snapshot *limits = NULL, *assocs = NULL;
	struct sq_why w;
	char text[4096], *line, *save = NULL;

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
}

const struct sq_tui_view sq_tui_view_jobs = {
	.kind = SQ_KIND_JOBS,
	.arrange = arrange,
	.prefix = prefix,
	.action = action,
	.detail = detail,
	/* a limit reason is explained with the limits in force */
	.detail_kinds = SQ_KIND_BIT(SQ_KIND_LIMITS),
};
