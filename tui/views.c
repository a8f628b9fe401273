/*
 * views.c - which view hooks apply to which view: by kind, so a view the
 * accounting engineer adds to sq_views[] gets its tree or bars without a
 * change here.
 */
#include <stddef.h>

#include "tui/views.h"

static const struct sq_tui_view *const hooks[] = {
	&sq_tui_view_jobs,
	&sq_tui_view_nodes,
	&sq_tui_view_shares,
	&sq_tui_view_assocs,
	&sq_tui_view_accounts,
	&sq_tui_view_gpus,
	&sq_tui_view_gpuuse,
	&sq_tui_view_history,
	&sq_tui_view_whatif,
	&sq_tui_view_overview,
	&sq_tui_view_clusters,
	&sq_tui_view_rpc,
	NULL,
};

const struct sq_tui_view *
sq_tui_view_for(const struct sq_view_def *def)
{
	int i;

	for (i = 0; hooks[i] != NULL; i++) {
		if (hooks[i]->kind == def->kind)
			return hooks[i];
	}
	return NULL;
}
