/*
 * completing.c - jobs stuck in COMPLETING (completing.h).
 */
#include <string.h>

#include "core/base/util.h"
#include "core/analysis/completing.h"
#include "core/query/filter.h"

static int stuck_min = SQ_COMPLETING_STUCK_DEFAULT;

void
sq_completing_stuck_set(int minutes)
{
	int m = minutes < 0 ? 0 : minutes;

	sq_util_setting_copy(&stuck_min, &m, sizeof(m));
}

int
sq_completing_stuck_get(void)
{
	int m;

	sq_util_setting_copy(&m, &stuck_min, sizeof(m));
	return m;
}

int64_t
sq_job_completing_for(const struct sq_job *j, time_t now)
{
	int64_t end;

	if (strcmp(j->state, "COMPLETING") != 0 &&
	    strcmp(j->state_compact, "CG") != 0)
		return SQ_NONE;
	if (j->start_time <= 0 || j->time_used < 0)
		return SQ_NONE;
	end = j->start_time + j->time_used;
	return (int64_t)now >= end ? (int64_t)now - end : 0;
}

int
sq_job_stuck_completing(const struct sq_job *j, time_t now)
{
	int m = sq_completing_stuck_get();
	int64_t s;

	if (m <= 0)
		return 0;
	s = sq_job_completing_for(j, now);
	return s != SQ_NONE && s >= (int64_t)m * 60;
}

void
sq_nodes_join_stuck(struct sq_snapshot *nodes, const struct sq_snapshot *jobs,
		    time_t now)
{
	size_t i, k;

	for (k = 0; k < nodes->nrows; k++)
		((struct sq_node *)sq_snapshot_row(nodes, k))->stuck_cg = 0;
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (j->nodelist[0] == '\0' || !sq_job_stuck_completing(j, now))
			continue;
		for (k = 0; k < nodes->nrows; k++) {
			struct sq_node *n = sq_snapshot_row(nodes, k);

			if (sq_list_overlap(n->name, j->nodelist))
				n->stuck_cg++;
		}
	}
}
