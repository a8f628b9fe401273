/*
 * action_targets.c - the targets of a console action are what the screen
 * shows: every row the filter shows (`*`), else the tagged rows the
 * filter shows (tagged rows it hides are counted, never acted on), else
 * the cursor row; a folded job array row is the whole array ("78").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/analysis/gpuuse.h"
#include "core/model/model_admin.h"
#include "tui/action_targets.h"
#include "tui/app.h"
#include "tui/table.h"

/* The target name of a shown row of t, into buf; NULL when none. */
static const char *
target_of(const struct sq_table *t, const struct sq_table_row *row, char *buf,
	  size_t n)
{
	const void *rec = sq_snapshot_row(t->snap, row->rec);

	switch (t->def->kind) {
	case SQ_KIND_JOBS: {
		const struct sq_job *j = rec;

		/* a folded array acts on every task: scancel 78 */
		if ((row->flags & SQ_ROW_FOLDED) && j->array_job_id != 0) {
			snprintf(buf, n, "%u", (unsigned)j->array_job_id);
			return buf;
		}
		return j->id;
	}
	case SQ_KIND_GPUUSE: /* gpus-idle: a running job */
		return ((const struct sq_gpuuse *)rec)->id;
	case SQ_KIND_NODES:
		return ((const struct sq_node *)rec)->name;
	case SQ_KIND_ACCOUNTS:
		return ((const struct sq_account *)rec)->name;
	case SQ_KIND_QOS:
		return ((const struct sq_qos *)rec)->name;
	case SQ_KIND_RESERVATIONS:
		return ((const struct sq_reservation *)rec)->name;
	case SQ_KIND_USERS:
		return ((const struct sq_user *)rec)->name;
	case SQ_KIND_RUNAWAY: /* fix-runaway: the job id */
		snprintf(buf, n, "%u",
			 (unsigned)((const struct sq_runaway *)rec)->id);
		return buf;
	case SQ_KIND_ASSOCS: {
		const struct sq_assoc *as = rec;

		if (as->user[0] == '\0')
			snprintf(buf, n, "%s", as->account);
		else
			snprintf(buf, n, "%s/%s%s%s", as->account, as->user,
				 as->partition[0] ? "/" : "", as->partition);
		return buf;
	}
	default:
		return NULL;
	}
}

static void
add(char **v, size_t *n, const char *s)
{
	size_t i;

	if (s == NULL || *s == '\0' || *n >= SQ_ACTION_MAX_TARGETS)
		return;
	for (i = 0; i < *n; i++) {
		if (strcmp(v[i], s) == 0)
			return;
	}
	v[*n] = strdup(s);
	if (v[*n] != NULL)
		(*n)++;
}

size_t
sq_tui_action_targets(struct sq_app *app, int all, char ***out, size_t *hidden)
{
	struct sq_table *t = sq_app_table(app);
	size_t i, n = 0, shown_tagged = 0, all_tagged = 0;
	char **v, buf[400], idb[256];

	*out = NULL;
	*hidden = 0;
	if (t == NULL || t->snap == NULL)
		return 0;
	v = calloc(t->nrows + 2, sizeof(*v));
	if (v == NULL)
		return 0;
	if (all || t->ntags == 0) {
		for (i = 0; i < t->nrows; i++) {
			if (all || i == t->cur)
				add(v, &n,
				    target_of(t, &t->rows[i], buf,
					      sizeof(buf)));
		}
		*out = v;
		return n;
	}
	for (i = 0; i < t->nrows; i++) {
		const void *r = sq_snapshot_row(t->snap, t->rows[i].rec);

		if (!sq_table_tagged(t, sq_table_id(t, r, idb, sizeof(idb))))
			continue;
		shown_tagged++;
		add(v, &n, target_of(t, &t->rows[i], buf, sizeof(buf)));
	}
	/* tagged rows the filter (or a fold) hides: counted, left out */
	for (i = 0; i < t->snap->nrows; i++) {
		const void *r = sq_snapshot_row(t->snap, i);

		all_tagged +=
		    sq_table_tagged(t, sq_table_id(t, r, idb, sizeof(idb)));
	}
	*hidden = all_tagged > shown_tagged ? all_tagged - shown_tagged : 0;
	*out = v;
	return n;
}

void
sq_tui_action_targets_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
