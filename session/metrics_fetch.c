/*
 * metrics_fetch.c - the METRICS kind: slurmctld's OpenMetrics (25.11+,
 * the backend's `metrics` op: local and replay), /metrics/nodes,
 * /partitions and /scheduler, parsed into a snapshot of the sets
 * (core/analysis/om_snapshot.c), or into one without rows whose note
 * says why they were not read (an older release, a backend without the
 * op, refused, SQUALL_METRICS=off in the environment: the test compares
 * both). The plan's row for the kind calls it; the overview, batch mode's
 * (its plan row's build, core/analysis/overview_build.c) and the
 * console's (tui/view_overview.c), builds its node, partition and
 * controller lines from it instead of the nodes and sdiag where the
 * metrics are served, and its source line says which and, if not the
 * metrics, why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/analysis/om_snapshot.h"
#include "core/base/openmetrics.h"
#include "session/glance.h"

/* One endpoint into om: 0, or -1 with why. */
static int
om_get(struct sq_backend *b, const char *path, struct sq_om *om, char *why,
       size_t n)
{
	struct sq_buf out;
	struct sq_err e;
	char perr[128];
	int rc = -1;

	sq_buf_init(&out, SQ_OM_MAX_BYTES);
	sq_err_clear(&e);
	if (b->ops->metrics(b, path, &out, &e) == -1)
		snprintf(why, n, "%.200s", e.msg);
	else if (sq_om_parse(out.data, out.len, om, perr, sizeof(perr)) == -1)
		snprintf(why, n, "%s unreadable: %s", path, perr);
	else
		rc = 0;
	sq_buf_free(&out);
	return rc;
}

/* The three endpoints (enum sq_om_set's order), or why not (into why).
 * 0 when all are read. */
static int
om_fetch(struct sq_backend *b, struct sq_om om[SQ_OM_SETS], char *why, size_t n)
{
	static const char *const paths[SQ_OM_SETS] = {
		[SQ_OM_NODES] = "/metrics/nodes",
		[SQ_OM_PARTITIONS] = "/metrics/partitions",
		[SQ_OM_SCHEDULER] = "/metrics/scheduler"
	};
	const char *env = getenv("SQUALL_METRICS");
	int i;

	if (env != NULL && strcmp(env, "off") == 0) {
		snprintf(why, n, "SQUALL_METRICS=off");
		return -1;
	}
	if (b->ops->metrics == NULL) {
		snprintf(why, n, "not read by the %s backend", b->ops->name);
		return -1;
	}
	for (i = 0; i < SQ_OM_SETS; i++) {
		if (om_get(b, paths[i], &om[i], why, n) == -1) {
			while (i >= 0)
				sq_om_free(&om[i--]);
			return -1;
		}
	}
	return 0;
}

int
sq_overview_metrics_fetch(struct sq_backend *b, struct sq_snapshot **out,
			  struct sq_err *err)
{
	struct sq_om om[SQ_OM_SETS] = { { 0 } };
	char why[256] = "";
	int k, served = om_fetch(b, om, why, sizeof(why)) == 0;

	*out = sq_om_snapshot_new(served ? om : NULL, why, time(NULL));
	for (k = 0; k < SQ_OM_SETS; k++)
		sq_om_free(&om[k]);
	if (*out == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return 0;
}
