/*
 * bench_nodes.c - make bench driver: a big site's nodes (issue 44). Loads
 * a `sinfo -N -O` recording (gen_nodes.c) through the real parser, then
 * in the console's real state (struct sq_app, the nodes view's table, a
 * curses screen on /dev/null) times what a keystroke runs: the live
 * filter of '/', a sort change, grouping the nodes by partition ('o'),
 * and the node map's first screen ('m'), each with the full redraw.
 * Prints shell assignments: the parse against reading the same bytes,
 * the memory a node costs, the keystrokes' percentiles.
 *   bench_nodes ROWS COLS sinfo.txt
 */
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/conf/conf.h"
#include "core/base/util.h"
#include "tests/bench/bench_app.h"
#include "tests/bench/bench_util.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/draw.h"
#include "tui/table.h"
#include "tui/views.h"
#include "tui/worker.h"

static struct series s_filter = { .name = "nodes_filter" },
		     s_first = { .name = "nodes_first" },
		     s_sort = { .name = "nodes_sort" },
		     s_group = { .name = "nodes_group" },
		     s_map = { .name = "nodes_map" },
		     s_parse = { .name = "nodes_parse" },
		     s_read = { .name = "nodes_read" };

/* filter, sort, group and map keystrokes on the nodes view */
static void
keys(struct sq_app *app, struct sq_snapshot *nodes)
{
	static const char *const patterns[] = { "c4711", "drain", "a100",
						"gpu1",  "ECC",   "!alloc" };
	static const char *const sorts[] = { "node", "state", "cpus_alloc",
					     "partitions", "-node" };
	struct sq_table *t = sq_app_table(app);
	const struct sq_tui_view *hooks = sq_tui_view_for(t->def);
	size_t i, k;
	int round;

	sq_table_set_snapshot(t, nodes);
	timed_draw(app, sq_util_now_ms(), &s_first);
	/* a big snapshot's sort orders, made on the sort thread while the
	 * console goes on (as a person reads the screen): bench_table.c */
	printf("%s_sorts_ms=%.2f\n", t->def->name, sq_table_sorts_wait(t));
	for (round = 0; round < 3; round++) {
		for (i = 0; i < sizeof(patterns) / sizeof(*patterns); i++)
			bench_type(app, t, patterns[i], &s_filter);
		bench_sorts(app, t, sorts, sizeof(sorts) / sizeof(*sorts),
			    &s_sort);
		for (k = 0; k < 4 && hooks != NULL && hooks->action; k++) {
			double t0 = sq_util_now_ms();

			hooks->action(app, t, SQ_TA_GROUP);
			timed_draw(app, t0, &s_group);
		}
		for (k = 0; k < 4 && hooks != NULL && hooks->action; k++) {
			double t0 = sq_util_now_ms();

			hooks->action(app, t, SQ_TA_MAP);
			timed_draw(app, t0, &s_map);
		}
	}
}

int
main(int argc, char **argv)
{
	struct sq_app *app;
	struct sq_snapshot *nodes;
	SCREEN *scr;
	size_t len;

	if (argc != 4) {
		fprintf(stderr, "usage: bench_nodes ROWS COLS sinfo.txt\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	nodes = bench_parse(argv[3], SQ_KIND_NODES, sq_parse_sinfo_nodes, 5,
			    &s_parse, &s_read, &len);
	printf("nodes=%zu nodes_bytes=%zu nodes_per_node=%zu\n", nodes->nrows,
	       len,
	       sq_snapshot_bytes(nodes) / (nodes->nrows ? nodes->nrows : 1));
	scr = bench_screen(argv[1], argv[2]);
	app = bench_app("nodes");
	keys(app, nodes);
	endwin();
	delscreen(scr);
	report(&s_parse);
	report(&s_read);
	report(&s_first);
	report(&s_filter);
	report(&s_sort);
	report(&s_group);
	report(&s_map);
	return 0;
}
