/*
 * view_gpus.c - the gpus views' bars: one bar per row, allocated over
 * configured accelerators (node and partition rows), or the allocated
 * count alone where there is no total (user and account rows); and the
 * rows of the view's scope only (node, partition, user, account; in
 * gpus-idle, the GPU jobs judged idle).
 */
#include <stdio.h>

#include "core/conf/conf.h"
#include "core/model/model_admin.h"
#include "session/plan.h"
#include "tui/colors.h"
#include "tui/table.h"
#include "tui/text.h"
#include "tui/view_scope.h"
#include "tui/views.h"

#define BAR 12

static void
bar(struct sq_app *app, const void *rec, int y, int x, int w)
{
	const struct sq_gpu *g = rec;
	int used, i, uattr = sq_color_attr(app, SQ_ROLE_BAR_USED);
	int fattr = sq_color_attr(app, SQ_ROLE_BAR_FREE);
	char num[32];

	if (g->total <= 0 || g->alloc < 0) {
		snprintf(num, sizeof(num), "%lld used",
			 (long long)(g->alloc > 0 ? g->alloc : 0));
		sq_put_fit(y, x, w, num, fattr);
		return;
	}
	used = (int)((g->alloc * (w - 1) + g->total / 2) / g->total);
	if (used > w - 1)
		used = w - 1;
	if (g->alloc > 0 && used == 0)
		used = 1;
	/* '#' and '.' keep the bar readable without colour */
	for (i = 0; i < w - 1; i++)
		sq_put(y, x + i, 1, i < used ? "#" : ".",
		       i < used ? uattr : fattr);
	sq_put(y, x + w - 1, 1, " ", fattr);
}

const struct sq_tui_view sq_tui_view_gpus = {
	.kind = SQ_KIND_GPUS,
	.arrange = sq_tui_scope_arrange,
	.scoped = 1,
	.extra_title = "USE",
	.extra_width = BAR,
	.extra = bar,
};

/* gpus-idle: one GPUUSE snapshot holds every running GPU job; the view
 * shows those judged idle (core/analysis/gpuuse.h) */
const struct sq_tui_view sq_tui_view_gpuuse = {
	.kind = SQ_KIND_GPUUSE,
	.arrange = sq_tui_scope_arrange,
	.scoped = 1,
};
