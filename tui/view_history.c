/*
 * view_history.c - the history views in the console: each view shows the
 * rows of its scope of the one HISTORY snapshot (runs, users, accounts,
 * nodes), and the detail pane of a run lists its steps (id, name, state,
 * exit code, elapsed, nodes, tasks, TotalCPU, MaxRSS) from the same
 * snapshot, so a finished job needs no further query.
 */
#include <math.h>
#include <stdio.h>

#include "core/conf/conf.h"
#include "core/analysis/history.h"
#include "core/base/parse.h"
#include "core/base/sanitize.h"
#include "session/plan.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/view_scope.h"
#include "tui/views.h"

static void
detail(struct sq_app *app, struct sq_table *t, const void *rec,
       struct sq_pane *p)
{
	const struct sq_hist *h = rec;
	size_t i;

	(void)app;
	(void)t;
	if (h->scope != SQ_HIST_RUN)
		return;
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", "");
	sq_pane_add(p, SQ_ROLE_DIALOG_TITLE, 0, "Steps (%u)",
		    (unsigned)h->nsteps);
	if (h->nsteps == 0) {
		sq_pane_add(p, SQ_ROLE_DIALOG, 2, "  %s",
			    "none recorded (never started, or still pending)");
		return;
	}
	sq_pane_add(p, SQ_ROLE_HEADER, 2,
		    "  %-10s %-12s %-13s %5s %9s %-10s "
		    "%5s %10s %9s",
		    "STEP", "NAME", "STATE", "EXIT", "ELAPSED", "NODES",
		    "TASKS", "TOTALCPU", "MAXRSS");
	for (i = 0; i < h->nsteps; i++) {
		const struct sq_hist_step *st = &h->steps[i];
		char id[64], name[64], state[64], nodes[128], el[32], ex[48];
		char tasks[24], cpu[32], rss[32];

		sq_sanitize(st->step, id, sizeof(id));
		sq_sanitize(st->name, name, sizeof(name));
		sq_sanitize(st->state, state, sizeof(state));
		sq_sanitize(st->nodelist, nodes, sizeof(nodes));
		if (st->elapsed >= 0)
			sq_fmt_duration(st->elapsed, el, sizeof(el));
		else
			snprintf(el, sizeof(el), "-");
		if (st->exit_code >= 0)
			snprintf(ex, sizeof(ex), "%lld:%lld",
				 (long long)st->exit_code,
				 (long long)(st->signal >= 0 ? st->signal : 0));
		else
			snprintf(ex, sizeof(ex), "-");
		if (st->tasks >= 0)
			snprintf(tasks, sizeof(tasks), "%lld",
				 (long long)st->tasks);
		else
			snprintf(tasks, sizeof(tasks), "-");
		if (!isnan(st->total_cpu))
			snprintf(cpu, sizeof(cpu), "%.3fs", st->total_cpu);
		else
			snprintf(cpu, sizeof(cpu), "-");
		if (st->max_rss >= 0)
			snprintf(rss, sizeof(rss), "%lldK",
				 (long long)st->max_rss);
		else
			snprintf(rss, sizeof(rss), "-");
		sq_pane_add(p, SQ_ROLE_DIALOG, 2,
			    "  %-10.10s %-12.12s %-13.13s %5s %9s %-10.10s "
			    "%5s %10s %9s",
			    id, name, state, ex, el, nodes, tasks, cpu, rss);
	}
}

/* The job_of hook: a run's job id (users, accounts, nodes: none). */
static const char *
job_of(const void *rec, char *buf, size_t n)
{
	const struct sq_hist *h = rec;

	if (h->scope != SQ_HIST_RUN)
		return NULL;
	snprintf(buf, n, "%s", h->id);
	return buf;
}

const struct sq_tui_view sq_tui_view_history = {
	.kind = SQ_KIND_HISTORY,
	.arrange = sq_tui_scope_arrange,
	.scoped = 1,
	.detail = detail,
	.job_of = job_of,
};
