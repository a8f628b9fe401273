/*
 * batch_glance.c - `squall --once --view clusters`: every configured
 * cluster in one table, fetched in parallel without a connection of our
 * own, each row with its own error.
 */
#include <stdio.h>

#include "batch/batch.h"
#include "core/analysis/clusters.h"
#include "session/glance.h"

int
sq_clusters_batch(const struct sq_view_def *v, enum sq_format fmt,
		  const char *columns, const char *sort, const char *filter)
{
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	size_t i;
	int rc = 0;

	sq_err_clear(&err);
	if (sq_clusters_fetch(&s, &err) == -1) {
		fprintf(stderr, "squall: %s: %s\n", v->name, err.msg);
		return 1;
	}
	for (i = 0; i < s->nrows; i++) {
		const struct sq_cluster_row *r = sq_snapshot_row(s, i);

		if (r->error[0] != '\0')
			rc = 1;
	}
	if (sq_batch_print(stdout, v, s, fmt, columns, sort, filter) == -1)
		rc = 2;
	if (fflush(stdout) != 0)
		rc = 1;
	sq_snapshot_unref(s);
	return rc;
}
