/*
 * batch_view.c - what batch mode says about a view besides its rows: the
 * column list (`--columns help`) and, for the spec view, the exit status
 * of a drift check (`--once --view spec`: 3 when an item differs).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/batch.h"
#include "core/spec/spec.h"

void
sq_batch_columns(FILE *fp, const struct sq_view_def *v)
{
	size_t i;
	int w = 11; /* the widest header (ASCII): the meanings in one column */

	for (i = 0; i < v->ncols; i++)
		if ((int)strlen(v->cols[i].title) > w)
			w = (int)strlen(v->cols[i].title);
	fprintf(fp, "view %s: %s\n", v->name, v->help);
	fprintf(fp, "%-20s %-*s %s\n", "ID", w, "HEADER",
		"MEANING ('*': shown by default in the console)");
	for (i = 0; i < v->ncols; i++) {
		const struct sq_column *c = &v->cols[i];

		fprintf(fp, "%-20s %-*s %s%s\n", c->id, w, c->title,
			sq_view_in_layout(v, i) ? "* " : "  ",
			c->help != NULL ? c->help : "");
	}
	if (v->default_sort != NULL)
		fprintf(fp, "default sort: %s\n", v->default_sort);
}

int
sq_batch_spec_drift(const struct sq_view_def *v, const struct sq_snapshot *s,
		    const char *columns, const char *filter)
{
	uint32_t *order = NULL;
	size_t n, i, drift = 0;

	if (sq_batch_kept(v, s, columns, filter, &order, &n) == -1)
		return 2;
	for (i = 0; i < n; i++)
		drift += (size_t)sq_spec_row_drifts(
		    sq_snapshot_row(s, order != NULL ? order[i] : i));
	free(order);
	if (drift == 0)
		return 0;
	fprintf(stderr,
		"squall: spec: %zu item%s of the spec differ%s from the live "
		"cluster (status differs, missing or extra)\n",
		drift, drift == 1 ? "" : "s", drift == 1 ? "s" : "");
	return SQ_BATCH_DRIFT;
}
