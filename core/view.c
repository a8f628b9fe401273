/*
 * view.c - the registry of views and small helpers for column functions.
 */
#include <stdio.h>
#include <string.h>

#include "core/view.h"
#include "core/view_admin.h"
#include "core/view_spec.h"

const struct sq_view_def *const sq_views[] = {
	&sq_view_partitions,
	&sq_view_nodes,
	&sq_view_jobs,
	&sq_view_priority,
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

const struct sq_column *
sq_view_column(const struct sq_view_def *v, const char *id)
{
	size_t i;

	for (i = 0; i < v->ncols; i++) {
		if (strcmp(v->cols[i].id, id) == 0)
			return &v->cols[i];
	}
	return NULL;
}

const char *
sq_col_int(long long v, char *buf, size_t n)
{
	if (v == SQ_NONE)
		return NULL;
	if (v == SQ_INFINITE)
		return "UNLIMITED";
	/* by hand: snprintf's cost shows at 100,000 rows (filter text,
	 * sort keys); the same digits as "%lld" */
	if (v >= 0 && n >= 21) {
		char tmp[21];
		size_t k = sizeof(tmp), i = 0;
		unsigned long long u = (unsigned long long)v;

		do {
			tmp[--k] = (char)('0' + u % 10);
			u /= 10;
		} while (u != 0);
		while (k < sizeof(tmp))
			buf[i++] = tmp[k++];
		buf[i] = '\0';
		return buf;
	}
	snprintf(buf, n, "%lld", v);
	return buf;
}

const char *
sq_col_str(const char *s)
{
	return s != NULL && *s != '\0' ? s : NULL;
}
