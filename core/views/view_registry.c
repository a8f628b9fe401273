/*
 * view_registry.c - sq_views[] and sq_view_find() of view.h: every view,
 * in the order of the console's Tab cycle and of :help. A new view is one
 * line here (and its file core/views/view_NAME.c). Apart from view.c so that
 * the view files, which include view.h, are not included back by it.
 */
#include <string.h>

#include "core/model/view.h"
#include "core/views/view_admin.h"
#include "core/views/view_spec.h"
#include "core/analysis/whatif.h"

const struct sq_view_def *const sq_views[] = {
	&sq_view_partitions,
	&sq_view_nodes,
	&sq_view_jobs,
	&sq_view_priority,
	&sq_view_whatif,
	&sq_view_accounts,
	&sq_view_users,
	&sq_view_assocs,
	&sq_view_qos,
	&sq_view_fairshare,
	&sq_view_events,
	&sq_view_history,
	&sq_view_history_users,
	&sq_view_history_accounts,
	&sq_view_history_nodes,
	&sq_view_gpus,
	&sq_view_gpus_partitions,
	&sq_view_gpus_users,
	&sq_view_gpus_accounts,
	&sq_view_gpus_idle,
	&sq_view_limits,
	&sq_view_reservations,
	&sq_view_diag,
	&sq_view_config,
	/* declared vs live */
	&sq_view_spec,
	&sq_view_nodesets,
	/* at a glance */
	&sq_view_overview,
	&sq_view_clusters,
	&sq_view_licenses,
	&sq_view_node_events,
	&sq_view_rpc_types,
	&sq_view_rpc_users,
	&sq_view_runaway,
	&sq_view_problems,
	NULL,
};

const struct sq_view_def *
sq_view_find(const char *name)
{
	int i, j;

	for (i = 0; sq_views[i] != NULL; i++) {
		const struct sq_view_def *v = sq_views[i];

		if (strcmp(v->name, name) == 0)
			return v;
		for (j = 0; v->aliases != NULL && v->aliases[j] != NULL; j++) {
			if (strcmp(v->aliases[j], name) == 0)
				return v;
		}
	}
	return NULL;
}
