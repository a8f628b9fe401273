/*
 * test_nodemap.c - the nodes view's node map (m) as drawn on a curses
 * screen of /dev/null: each group's header (its partitions, nodes, CPUs
 * and GPUs) against the sums of the records, groups in the order of
 * their first node, one group for nodes in no partition (none or ""),
 * and the same groups when equal texts are stored apart. The records
 * are made here (a snapshot of 120 nodes over five partition texts,
 * interleaved): what is tested is the drawing, not a parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conf/conf.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"
#include "tests/unit/test_util.h"
#include "tui/app.h"
#include "tui/keys.h"
#include "tui/table.h"
#include "tui/views.h"

#include <curses.h>

#define NODES 120

/* the partitions of node i: five texts, "" and none among them */
static const char *
parts_of(size_t i)
{
	static const char *const p[] = { "low*,high", "gpu", "", NULL,
					 "debug" };

	return p[(i * 7 + i / 3) % 5];
}

/* the snapshot; copies: each node's text stored apart (not one pointer
 * per text) */
static struct sq_snapshot *
nodes(int copies)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_NODES, 0);
	size_t i;

	assert_non_null(s);
	for (i = 0; i < NODES; i++) {
		struct sq_node *nd = sq_snapshot_add(s);
		char name[16];
		const char *p = parts_of(i);

		assert_non_null(nd);
		snprintf(name, sizeof(name), "n%03zu", i);
		nd->name = sq_snapshot_str(s, name);
		nd->state = "mixed";
		nd->partitions = p == NULL ? NULL
				 : copies  ? strdup(p)
					   : sq_snapshot_str(s, p);
		nd->cpus_total = 8 + (int64_t)(i % 3) * 8;
		nd->cpus_alloc = (int64_t)(i % 5);
		nd->gpus_total = strcmp(p ? p : "", "gpu") == 0 ? 4 : 0;
		nd->gpus_alloc = nd->gpus_total ? (int64_t)(i % 4) : 0;
	}
	return s;
}

/* The header expected of the group of text key (NULL: "" or none). */
static void
expect(const struct sq_snapshot *s, const char *key, char *buf, size_t n)
{
	long long cu = 0, ct = 0, gu = 0, gt = 0;
	size_t i, c = 0;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(s, i);

		if (strcmp(nd->partitions ? nd->partitions : "", key) != 0)
			continue;
		c++;
		cu += nd->cpus_alloc;
		ct += nd->cpus_total;
		gu += nd->gpus_alloc;
		gt += nd->gpus_total;
	}
	snprintf(buf, n, "%s  %zu node%s  CPUs %lld/%lld",
		 *key ? key : "(no partition)", c, c == 1 ? "" : "s", cu, ct);
	if (gt > 0)
		snprintf(buf + strlen(buf), n - strlen(buf), "  GPUs %lld/%lld",
			 gu, gt);
}

/* Screen line y, trailing blanks cut. */
static void
line_at(int y, char *buf, int n)
{
	int k;

	mvinnstr(y, 0, buf, n - 1);
	buf[n - 1] = '\0';
	for (k = (int)strlen(buf); k > 0 && buf[k - 1] == ' '; k--)
		buf[k - 1] = '\0';
}

static void
check_map(int copies)
{
	static const char *const order[] = { "low*,high", "(none)", "debug",
					     "gpu" };
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	struct sq_conf conf;
	struct sq_app app;
	struct sq_table t;
	struct sq_snapshot *s;
	const struct sq_view_def *def = NULL;
	SCREEN *scr;
	char got[256], want[256];
	size_t i, found = 0;
	int y;

	assert_non_null(out);
	assert_non_null(in);
	setenv("TERM", "xterm", 1);
	setenv("LINES", "60", 1);
	setenv("COLUMNS", "200", 1);
	scr = newterm(NULL, out, in);
	assert_non_null(scr);
	memset(&app, 0, sizeof(app));
	sq_conf_init(&conf);
	app.conf = &conf;
	for (i = 0; sq_views[i] != NULL; i++)
		if (strcmp(sq_views[i]->name, "nodes") == 0)
			def = sq_views[i];
	assert_non_null(def);
	sq_table_init(&t, def);
	s = nodes(copies);
	sq_table_set_snapshot(&t, s);
	assert_int_equal(t.ops->action(&app, &t, SQ_TA_MAP), 1);
	assert_int_equal(t.mode, 1);
	erase();
	assert_true(t.ops->draw_body(&app, &t, 0, 0, 58, 200) > 0);
	/* the headers, in the order of each group's first node (the table
	 * sorts by name: n000 is in low*,high, n001 in none, n002 in
	 * debug, ...) */
	for (y = 0; y < 58 && found < 4; y++) {
		line_at(y, got, sizeof(got));
		if (strstr(got, " node") == NULL || strstr(got, "CPUs") == NULL)
			continue;
		expect(s,
		       strcmp(order[found], "(none)") == 0 ? "" : order[found],
		       want, sizeof(want));
		assert_string_equal(got + 1, want);
		found++;
	}
	assert_int_equal(found, 4);
	/* no fifth group: "" and none are one */
	for (; y < 58; y++) {
		line_at(y, got, sizeof(got));
		assert_null(strstr(got, "(no partition)"));
	}
	if (copies)
		for (i = 0; i < s->nrows; i++)
			free((char *)((const struct sq_node *)sq_snapshot_row(
					  s, i))
				 ->partitions);
	sq_table_free(&t);
	sq_snapshot_unref(s);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
}

/* each text stored once a snapshot (as the parsers do) */
static void
test_map_headers(void **state)
{
	(void)state;
	check_map(0);
}

/* equal texts at different addresses: still one group each */
static void
test_map_headers_apart(void **state)
{
	(void)state;
	check_map(1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_headers),
		cmocka_unit_test(test_map_headers_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
