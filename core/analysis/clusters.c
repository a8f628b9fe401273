/*
 * clusters.c - counting one cluster's nodes, jobs and idle GPUs for the
 * clusters view. Pure: reads snapshots, no I/O.
 */
#include <string.h>

#include "core/analysis/clusters.h"
#include "core/model/model.h"

int
sq_node_state_class(const char *state)
{
	size_t n = strlen(state);

	if (strncmp(state, "drain", 5) == 0)
		return 'd';
	if (strncmp(state, "down", 4) == 0 || strncmp(state, "fail", 4) == 0 ||
	    (n > 0 && state[n - 1] == '*'))
		return 'x';
	return 'u';
}

void
sq_cluster_row_count(struct sq_cluster_row *r, const struct sq_snapshot *nodes,
		     const struct sq_snapshot *jobs)
{
	size_t i;

	r->nodes_up = r->nodes_down = r->nodes_drained = SQ_NONE;
	r->jobs_running = r->jobs_pending = r->gpus_idle = SQ_NONE;
	if (nodes != NULL) {
		r->nodes_up = r->nodes_down = r->nodes_drained = 0;
		r->gpus_idle = 0;
		for (i = 0; i < nodes->nrows; i++) {
			const struct sq_node *n = sq_snapshot_row(nodes, i);
			int c = sq_node_state_class(n->state);

			if (c == 'd')
				r->nodes_drained++;
			else if (c == 'x')
				r->nodes_down++;
			else
				r->nodes_up++;
			if (c == 'u' && n->gpus_total > 0)
				r->gpus_idle +=
				    n->gpus_total -
				    (n->gpus_alloc > 0 ? n->gpus_alloc : 0);
		}
	}
	if (jobs != NULL) {
		r->jobs_running = r->jobs_pending = 0;
		for (i = 0; i < jobs->nrows; i++) {
			const struct sq_job *j = sq_snapshot_row(jobs, i);

			if (sq_job_is_pending(j))
				r->jobs_pending++;
			else if (strcmp(j->state, "RUNNING") == 0)
				r->jobs_running++;
		}
	}
}
