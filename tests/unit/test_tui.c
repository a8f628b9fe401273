/*
 * test_tui.c - unit tests of the console's logic that needs no terminal:
 * host-list matching, PCRE2 and field filters, and the table widget
 * (sort, filter, the cursor kept on its row across refreshes, tags,
 * columns, job arrays folding) over snapshots built here; the colour
 * role of a cell from its column's role in the column table; what the
 * views' definitions say instead of their kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/conf/conf.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"
#include "core/model/view.h"
#include "core/query/filter.h"
#include "core/analysis/gpuuse.h"
#include "core/analysis/history.h"
#include "core/views/view_admin.h"
#include "core/analysis/whatif.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/detail.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/view_whatif.h"
#include "tui/views.h"
#include "tests/unit/test_util.h"

static void
test_lists(void **state)
{
	(void)state;
	assert_true(sq_list_overlap("n3", "n[1-4]"));
	assert_true(sq_list_overlap("n[1-4]", "n3"));
	assert_false(sq_list_overlap("n5", "n[1-4]"));
	assert_false(sq_list_overlap("n10", "n[1-3]"));
	assert_true(sq_list_overlap("n[2-3]", "n1,n3,n9"));
	assert_true(sq_list_overlap("n02", "n[01-03]"));
	assert_false(sq_list_overlap("n2", "n[01-03]"));
	assert_true(sq_list_overlap("gpu[7,9-11]", "gpu10"));
	assert_true(sq_list_overlap("low", "low*,high"));
	assert_true(sq_list_overlap("high,gpu", "low*,gpu"));
	assert_false(sq_list_overlap("gpu", "low*,high"));
	assert_true(sq_list_overlap("alice", "alice"));
	assert_false(sq_list_overlap("alic", "alice"));
	/* host lists are compared exactly here (field terms fold case) */
	assert_false(sq_list_overlap("N3", "n[1-4]"));
	assert_false(sq_list_overlap("n[", "n1"));
	/* a huge range is cut off, not expanded forever */
	assert_false(sq_list_overlap("n[1-99999999]", "x1"));
}

/* The shown text a regex matches: cells two spaces apart (an empty
 * first cell still separated), cut to the buffer, always terminated */
static void
test_filter_text(void **state)
{
	char buf[16];
	size_t o = 0;

	(void)state;
	assert_int_equal(sq_filter_text_add(buf, sizeof(buf), &o, "", 1), 1);
	assert_int_equal(sq_filter_text_add(buf, sizeof(buf), &o, "n1", 0), 1);
	assert_string_equal(buf, "  n1");
	assert_int_equal(o, 4);
	/* "  n1  idle+drain" is 16: cut to 15 bytes, and full */
	assert_int_equal(
	    sq_filter_text_add(buf, sizeof(buf), &o, "idle+drain", 0), 0);
	assert_string_equal(buf, "  n1  idle+drai");
	assert_int_equal(o, 15);
	assert_int_equal(sq_filter_text_add(buf, sizeof(buf), &o, "x", 0), 0);
	assert_string_equal(buf, "  n1  idle+drai");
}

/* A jobs snapshot: id, user, account, state, priority, array id, nodes. */
static struct sq_snapshot *
jobs(const char *const rows[][7], size_t n)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	size_t i;

	assert_non_null(s);
	for (i = 0; i < n; i++) {
		struct sq_job *j = sq_snapshot_add(s);

		assert_non_null(j);
		j->id = sq_snapshot_str(s, rows[i][0]);
		j->job_id = (uint32_t)strtoul(rows[i][0], NULL, 10);
		j->user = sq_snapshot_str(s, rows[i][1]);
		j->account = sq_snapshot_str(s, rows[i][2]);
		j->state = sq_snapshot_str(s, rows[i][3]);
		j->priority = strtoll(rows[i][4], NULL, 10);
		j->array_job_id = (uint32_t)strtoul(rows[i][5], NULL, 10);
		j->nodelist = sq_snapshot_str(s, rows[i][6]);
		j->name = j->partition = j->qos = j->state_compact = "";
		j->reason = j->gres = j->array_task = "";
		j->nodes = j->cpus = 1;
		j->time_limit = j->time_used = SQ_NONE;
		j->submit_time = j->start_time = SQ_NONE;
	}
	return s;
}

static const char *const rows1[][7] = {
	{ "10", "alice", "physics", "RUNNING", "500", "0", "n[1-2]" },
	{ "11", "bob", "chemistry", "PENDING", "900", "0", "" },
	{ "12", "carol", "chemistry", "RUNNING", "100", "0", "n3" },
	{ "13_1", "bob", "chemistry", "RUNNING", "300", "13", "n4" },
	{ "13_2", "bob", "chemistry", "RUNNING", "300", "13", "n4" },
	{ "13_[3-9]", "bob", "chemistry", "PENDING", "300", "13", "" },
};

static const char *
cur_id(const struct sq_table *t)
{
	static char buf[64];
	const struct sq_job *j = sq_table_cur(t);

	snprintf(buf, sizeof(buf), "%s", j ? j->id : "-");
	return buf;
}

static const char *
row_id(const struct sq_table *t, size_t i)
{
	const struct sq_job *j = sq_snapshot_row(t->snap, t->rows[i].rec);

	return j->id;
}

/*
 * A field term's value in quotes keeps its spaces (drain reasons like
 * "Not responding", job names); the quotes go, either kind holds the
 * other, and a quote left open is refused with the old filter kept.
 */
static void
test_filter_quoted(void **state)
{
	struct sq_filter f;
	char err[300];
	struct sq_snapshot *s = jobs(rows1, 6);
	struct sq_job *j1 = (struct sq_job *)sq_snapshot_row(s, 1);
	const struct sq_job *j0 = sq_snapshot_row(s, 0);

	(void)state;
	j1->reason = sq_snapshot_str(s, "Not responding");
	j1->name = sq_snapshot_str(s, "it's \"big\"");
	sq_filter_init(&f);
	assert_int_equal(sq_filter_set(&f, "@reason='not responding'",
				       &sq_view_jobs, err, sizeof(err)),
			 0);
	assert_int_equal(f.nterms, 1);
	assert_string_equal(f.terms[0].value, "not responding");
	assert_true(sq_filter_row(&f, j1, ""));
	assert_false(sq_filter_row(&f, j0, ""));
	assert_int_equal(sq_filter_set(&f,
				       "@user=bob  @reason=\"Not responding\"",
				       &sq_view_jobs, err, sizeof(err)),
			 0);
	assert_int_equal(f.nterms, 2);
	assert_true(sq_filter_row(&f, j1, ""));
	/* a capital inside the quotes still makes it exact */
	assert_int_equal(sq_filter_set(&f, "@reason=\"Not Responding\"",
				       &sq_view_jobs, err, sizeof(err)),
			 0);
	assert_false(sq_filter_row(&f, j1, ""));
	assert_int_equal(sq_filter_set(&f, "@name=\"it's \"'\"big\"'",
				       &sq_view_jobs, err, sizeof(err)),
			 0);
	assert_string_equal(f.terms[0].value, "it's \"big\"");
	assert_true(sq_filter_row(&f, j1, ""));
	/* unquoted, the second word is a term of its own: refused */
	assert_int_equal(sq_filter_set(&f, "@reason=Not responding",
				       &sq_view_jobs, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "field filter: expected @column=value, "
				 "not 'responding'");
	assert_int_equal(sq_filter_set(&f, "@reason='Not responding",
				       &sq_view_jobs, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "field filter: a quote is not closed");
	assert_string_equal(f.text, "@name=\"it's \"'\"big\"'");
	/* @job_id=78 names the array: its tasks match, 780_1 does not */
	j1->id = sq_snapshot_str(s, "78_4");
	assert_int_equal(
	    sq_filter_set(&f, "@job_id=78", &sq_view_jobs, err, sizeof(err)),
	    0);
	assert_true(sq_filter_row(&f, j1, ""));
	j1->id = sq_snapshot_str(s, "780_1");
	assert_false(sq_filter_row(&f, j1, ""));
	j1->id = sq_snapshot_str(s, "78_[5-9]");
	assert_true(sq_filter_row(&f, j1, ""));
	sq_filter_free(&f);
	sq_snapshot_unref(s);
}

static void
test_filter(void **state)
{
	struct sq_filter f;
	char err[300];
	struct sq_snapshot *s = jobs(rows1, 6);
	const struct sq_job *j0 = sq_snapshot_row(s, 0);

	(void)state;
	sq_filter_init(&f);
	assert_int_equal(
	    sq_filter_set(&f, "ALICE", &sq_view_jobs, err, sizeof(err)), 0);
	/* a capital letter makes it case-sensitive */
	assert_false(sq_filter_row(&f, j0, "10 alice physics"));
	assert_int_equal(
	    sq_filter_set(&f, "alice", &sq_view_jobs, err, sizeof(err)), 0);
	assert_true(sq_filter_row(&f, j0, "10 ALICE physics"));
	assert_int_equal(
	    sq_filter_set(&f, "!alice", &sq_view_jobs, err, sizeof(err)), 0);
	assert_false(sq_filter_row(&f, j0, "10 alice physics"));
	/* a bad pattern is refused with a reason, the old one stays */
	assert_int_equal(
	    sq_filter_set(&f, "foo(", &sq_view_jobs, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad pattern: missing closing "
				    "parenthesis"));
	assert_string_equal(f.text, "!alice");
	/* field terms */
	assert_int_equal(sq_filter_set(&f, "@nodelist=n2 @user=alice",
				       &sq_view_jobs, err, sizeof(err)),
			 0);
	assert_true(sq_filter_row(&f, j0, ""));
	assert_int_equal(
	    sq_filter_set(&f, "@nodelist=n3", &sq_view_jobs, err, sizeof(err)),
	    0);
	assert_false(sq_filter_row(&f, j0, ""));
	/* a lower-case value matches any case, a capital makes it exact */
	assert_int_equal(sq_filter_set(&f, "@state=running @nodelist=N1",
				       &sq_view_jobs, err, sizeof(err)),
			 0);
	assert_false(sq_filter_row(&f, j0, ""));
	assert_int_equal(sq_filter_set(&f, "@state=running @nodelist=n1",
				       &sq_view_jobs, err, sizeof(err)),
			 0);
	assert_true(sq_filter_row(&f, j0, ""));
	assert_int_equal(sq_filter_set(&f, "@state=Running", &sq_view_jobs, err,
				       sizeof(err)),
			 0);
	assert_false(sq_filter_row(&f, j0, ""));
	assert_int_equal(
	    sq_filter_set(&f, "@user=Alice", &sq_view_jobs, err, sizeof(err)),
	    0);
	assert_false(sq_filter_row(&f, j0, ""));
	assert_int_equal(
	    sq_filter_set(&f, "@nosuch=1", &sq_view_jobs, err, sizeof(err)),
	    -1);
	assert_string_equal(err, "view jobs has no column 'nosuch'");
	assert_int_equal(
	    sq_filter_set(&f, "@user", &sq_view_jobs, err, sizeof(err)), -1);
	/* catastrophic backtracking hits the match limit, no hang */
	assert_int_equal(
	    sq_filter_set(&f, "(a+)+$", &sq_view_jobs, err, sizeof(err)), 0);
	assert_false(
	    sq_filter_row(&f, j0, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"));
	assert_int_equal(sq_filter_set(&f, "", &sq_view_jobs, err, sizeof(err)),
			 0);
	assert_false(sq_filter_active(&f));
	sq_filter_free(&f);
	sq_snapshot_unref(s);
}

static void
test_table(void **state)
{
	struct sq_table t;
	struct sq_snapshot *s = jobs(rows1, 6), *s2;
	static const char *const rows2[][7] = {
		{ "12", "carol", "chemistry", "RUNNING", "950", "0", "n3" },
		{ "10", "alice", "physics", "RUNNING", "500", "0", "n[1-2]" },
		{ "14", "dave", "physics", "PENDING", "990", "0", "" },
	};
	char err[300], cols[256];

	(void)state;
	sq_table_init(&t, &sq_view_jobs);
	assert_ptr_equal(t.ops, &sq_tui_view_jobs);
	sq_table_set_snapshot(&t, s);
	/* the jobs view sorts by priority, highest first; arrays group */
	assert_int_equal(t.nrows, 6);
	assert_string_equal(row_id(&t, 0), "11");
	assert_string_equal(row_id(&t, 1), "10");
	assert_string_equal(row_id(&t, 2), "13_1");
	assert_true(t.rows[2].flags & SQ_ROW_HASKIDS);
	assert_string_equal(row_id(&t, 3), "13_2");
	assert_int_equal(t.rows[3].depth, 1);
	assert_string_equal(row_id(&t, 5), "12");
	/* the cursor follows its row id into the next snapshot */
	sq_table_goto(&t, 5);
	assert_string_equal(cur_id(&t), "12");
	sq_table_tag(&t, "10", 1);
	s2 = jobs(rows2, 3);
	sq_table_set_snapshot(&t, s2);
	assert_string_equal(row_id(&t, 0), "14");
	assert_string_equal(row_id(&t, 1), "12");
	assert_string_equal(cur_id(&t), "12");
	assert_true(sq_table_tagged(&t, "10"));
	assert_false(sq_table_tagged(&t, "12"));
	sq_table_set_snapshot(&t, s);
	/* filter, and the filter's rows keep the sort */
	assert_int_equal(sq_table_filter(&t, "chem", err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 5);
	assert_int_equal(sq_table_filter(&t, "@user=bob", err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 4);
	assert_int_equal(sq_table_filter(&t, "!@user=bob", err, sizeof(err)),
			 0);
	assert_int_equal(t.nrows, 2);
	assert_int_equal(sq_table_filter(&t, "x(", err, sizeof(err)), -1);
	assert_int_equal(t.nrows, 2);
	assert_int_equal(sq_table_filter(&t, "", err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 6);
	/* n/N search the last pattern without filtering */
	snprintf(t.search, sizeof(t.search), "carol");
	sq_table_goto(&t, 0);
	assert_int_equal(sq_table_search(&t, 1), 1);
	assert_string_equal(cur_id(&t), "12");
	/* sort by user ascending (natural order), then descending */
	sq_table_sort(&t, 1, 0);
	assert_string_equal(
	    ((const struct sq_job *)sq_snapshot_row(t.snap, t.rows[0].rec))
		->user,
	    "alice");
	sq_table_sort(&t, 1, 1);
	assert_string_equal(
	    ((const struct sq_job *)sq_snapshot_row(t.snap, t.rows[0].rec))
		->user,
	    "carol");
	/* fold the array */
	sq_table_sort(&t, -1, 0);
	sq_table_set_folded(&t, "array:13", 1);
	sq_table_rebuild(&t);
	assert_int_equal(t.nrows, 4);
	assert_true(t.rows[3].flags & SQ_ROW_FOLDED);
	assert_int_equal(t.rows[3].hidden, 2);
	/* columns */
	assert_int_equal(
	    sq_table_set_columns(&t, "job_id,user,nope", err, sizeof(err)), -1);
	assert_int_equal(
	    sq_table_set_columns(&t, "user,job_id", err, sizeof(err)), 0);
	sq_table_columns_text(&t, cols, sizeof(cols));
	assert_string_equal(cols, "user,job_id");
	sq_table_free(&t);
	sq_snapshot_unref(s);
	sq_snapshot_unref(s2);
}

/* The shown columns' ids, in the drawn order, the first nfit of them */
static const char *
fit_ids(const struct sq_table *t, char *buf, size_t n)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < t->nfit && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " " : "",
				      t->def->cols[t->cols[i]].title);
	return buf;
}

/* Columns that fit: squeue's seven at 80 cells, the sprio factors at 200;
 * the last takes the rest; a chosen list keeps its order and the view's
 * ranking. */
static void
test_table_fit(void **state)
{
	struct sq_table t;
	struct sq_snapshot *s = jobs(rows1, 6);
	char ids[1024];
	int i, used = 0;

	(void)state;
	sq_table_init(&t, &sq_view_jobs);
	sq_table_set_snapshot(&t, s);
	/* wide names and accounts, as on a real cluster */
	for (i = 0; i < t.ncols; i++) {
		const char *id = t.def->cols[t.cols[i]].id;

		if (strcmp(id, "name") == 0 || strcmp(id, "account") == 0)
			t.widths[i] = 16;
	}
	sq_table_fit(&t, 78);
	assert_string_equal(fit_ids(&t, ids, sizeof(ids)),
			    "JOBID NAME USER STATE TIME NODES "
			    "NODELIST(REASON)");
	for (i = 0; i + 1 < t.nfit; i++)
		used += t.widths[i] + 1;
	assert_int_equal(t.restw, 78 - used);
	assert_int_equal(sq_table_colw(&t, t.nfit - 1, 0), 78 - used);
	assert_true(t.nfit < t.ncols);
	sq_table_fit(&t, 120);
	assert_non_null(
	    strstr(fit_ids(&t, ids, sizeof(ids)), "ACCOUNT PARTITION"));
	assert_non_null(strstr(ids, "PRIORITY"));
	/* the sprio factors come together or not at all */
	for (i = 90; i <= 240; i++) {
		sq_table_fit(&t, i);
		fit_ids(&t, ids, sizeof(ids));
		assert_int_equal(strstr(ids, " AGE ") != NULL,
				 strstr(ids, " ASSOC ") != NULL);
	}
	sq_table_fit(&t, 200);
	assert_non_null(strstr(fit_ids(&t, ids, sizeof(ids)), "FAIRSH"));
	assert_non_null(strstr(ids, " NODELIST(REASON)"));
	/* chosen columns: that order, all of them when they fit */
	assert_int_equal(
	    sq_table_set_columns(&t, "state,job_id,name", ids, sizeof(ids)), 0);
	sq_table_fit(&t, 78);
	assert_string_equal(fit_ids(&t, ids, sizeof(ids)), "STATE JOBID NAME");
	/* hiding partition and qos (c) gives their width to no column less
	 * important than NODELIST(REASON) (issue 41, defect 14): the jobs
	 * layout without them, at 120 and at 80 cells */
	assert_int_equal(
	    sq_table_set_columns(&t,
				 "job_id,name,user,account,state,time_used,"
				 "nodes,priority,prio_age,prio_fairshare,"
				 "prio_jobsize,prio_partition,prio_qos,"
				 "prio_assoc,prio_tres,prio_nice,rank,"
				 "nodelist_reason",
				 ids, sizeof(ids)),
	    0);
	for (i = 0; i < t.ncols; i++) {
		if (strcmp(t.def->cols[t.cols[i]].id, "name") == 0 ||
		    strcmp(t.def->cols[t.cols[i]].id, "account") == 0)
			t.widths[i] = 16;
	}
	sq_table_fit(&t, 120);
	assert_non_null(
	    strstr(fit_ids(&t, ids, sizeof(ids)), "PRIORITY NODELIST(REASON)"));
	assert_null(strstr(ids, " AGE "));
	sq_table_fit(&t, 80);
	assert_string_equal(fit_ids(&t, ids, sizeof(ids)),
			    "JOBID NAME USER STATE TIME NODES "
			    "NODELIST(REASON)");
	sq_table_free(&t);
	sq_snapshot_unref(s);
}

/* Nodes sort in natural order: n2 before n10. */
static void
test_natural_sort(void **state)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_NODES, 0);
	static const char *const names[] = { "n10", "n2", "n1", "gpu01" };
	struct sq_table t;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		struct sq_node *nd = sq_snapshot_add(s);

		nd->name = names[i];
		nd->state = nd->partitions = nd->gres = nd->gres_used = "";
		nd->reason = "";
	}
	sq_table_init(&t, &sq_view_nodes);
	sq_table_set_snapshot(&t, s);
	assert_int_equal(t.nrows, 4);
	assert_string_equal(
	    ((const struct sq_node *)sq_snapshot_row(s, t.rows[0].rec))->name,
	    "gpu01");
	assert_string_equal(
	    ((const struct sq_node *)sq_snapshot_row(s, t.rows[2].rec))->name,
	    "n2");
	assert_string_equal(
	    ((const struct sq_node *)sq_snapshot_row(s, t.rows[3].rec))->name,
	    "n10");
	sq_table_free(&t);
	sq_snapshot_unref(s);
}

/* gpus-idle shows the GPU jobs judged idle, not every one (its arrange
 * hook keeps the view's scope, as batch mode's sq_plan_keep does). */
static void
test_gpus_idle_rows(void **state)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	static const char *const ids[] = { "1", "2", "3" };
	struct sq_table t;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(sq_gpuuse_add_job(s, ids[i], "u", "a", "p",
						   SQ_NONE, "n1", "gres/gpu=1"),
				 0);
		((struct sq_gpuuse *)sq_snapshot_row(s, i))->idle = i != 1;
	}
	sq_table_init(&t, &sq_view_gpus_idle);
	sq_table_set_snapshot(&t, s);
	assert_int_equal(t.nrows, 2);
	for (i = 0; i < t.nrows; i++)
		assert_true(((const struct sq_gpuuse *)sq_snapshot_row(
				 s, t.rows[i].rec))
				->idle);
	sq_table_free(&t);
	sq_snapshot_unref(s);
}

/* A history view's table holds its scope's rows only (a slice of the
 * snapshot: no other scope's rows to sort, filter or skip), and the
 * snapshot it was given stays the one the app compares with. */
static void
test_history_scope_slice(void **state)
{
	static const char *const users[] = { "alice", "bob", "alice" };
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	struct sq_hist_build b;
	struct sq_table t;
	size_t i;

	(void)state;
	sq_history_init(&b, s);
	for (i = 0; i < 3; i++) {
		struct sq_hist *h = sq_history_add_run(&b);

		assert_non_null(h);
		h->job_id = (uint32_t)(10 + i);
		h->id = i == 0 ? "10" : i == 1 ? "11" : "12";
		h->user = users[i];
		h->account = "physics";
		h->state = "COMPLETED";
		h->nodelist = "n[1-2]";
	}
	assert_int_equal(sq_history_finish(&b), 0);
	sq_history_free(&b);
	/* 3 runs, 2 users, 1 account, 2 nodes */
	assert_int_equal(s->nrows, 8);
	sq_table_init(&t, &sq_view_history_users);
	sq_table_set_snapshot(&t, s);
	assert_true(t.sliced);
	assert_ptr_equal(t.given, s);
	assert_int_equal(t.snap->nrows, 2);
	assert_int_equal(t.nrows, 2);
	for (i = 0; i < t.nrows; i++)
		assert_int_equal(((const struct sq_hist *)sq_snapshot_row(
				      t.snap, t.rows[i].rec))
				     ->scope,
				 SQ_HIST_USER);
	sq_table_free(&t);
	sq_table_init(&t, &sq_view_history);
	sq_table_set_snapshot(&t, s);
	assert_int_equal(t.nrows, 3);
	assert_int_equal(t.snap->nrows, 3);
	sq_table_free(&t);
	sq_snapshot_unref(s);
}

/* Every view of sq_views[] gets a working table (the views are data). */
static void
test_every_view(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; sq_views[i] != NULL; i++) {
		struct sq_table t;
		struct sq_snapshot *s = sq_snapshot_new(sq_views[i]->kind, 0);

		assert_non_null(s);
		sq_table_init(&t, sq_views[i]);
		assert_true(t.ncols > 0);
		assert_true(t.nidcols > 0);
		assert_true(t.sort < (int)sq_views[i]->ncols);
		/* every id of a layout is a column of the view */
		if (sq_views[i]->layout != NULL) {
			const char *l = sq_views[i]->layout;
			int commas = 0;

			for (; *l != '\0'; l++)
				commas += *l == ',';
			assert_int_equal(t.nbase, commas + 1);
		}
		sq_table_set_snapshot(&t, s);
		assert_int_equal(t.nrows, 0);
		sq_table_free(&t);
		sq_snapshot_unref(s);
	}
}

/* The role of a cell of column id in view vname (the column's role flag
 * in the core/views/view_*.c table picks how the text is read). */
static int
role_of(const char *vname, const char *id, const char *text)
{
	const struct sq_view_def *v = sq_view_find(vname);
	struct sq_table t;
	size_t i;

	assert_non_null(v);
	memset(&t, 0, sizeof(t));
	t.def = v;
	for (i = 0; i < v->ncols && strcmp(v->cols[i].id, id) != 0; i++)
		;
	if (i == v->ncols)
		fail_msg("view %s has no column %s", vname, id);
	t.cols[0] = (int)i;
	t.ncols = 1;
	return sq_cell_role(&t, 0, text);
}

static void
test_cell_roles(void **state)
{
	(void)state;
	assert_int_equal(role_of("jobs", "state", "RUNNING"),
			 SQ_ROLE_STATE_RUNNING);
	assert_int_equal(role_of("jobs", "state_compact", "PD"),
			 SQ_ROLE_STATE_PENDING);
	assert_int_equal(role_of("jobs", "name", "RUNNING"), -1);
	assert_int_equal(role_of("jobs", "state", ""), -1);
	assert_int_equal(role_of("events", "state", "PREEMPTED"),
			 SQ_ROLE_STATE_FAILED);
	assert_int_equal(role_of("nodes", "state", "drained"),
			 SQ_ROLE_NODE_DRAIN);
	assert_int_equal(role_of("nodes", "state", "down*"), SQ_ROLE_NODE_DOWN);
	assert_int_equal(role_of("partitions", "state", "INACTIVE"),
			 SQ_ROLE_NODE_OTHER);
	/* history: by outcome, the job state's colour for the rest */
	assert_int_equal(role_of("history", "state", "COMPLETED"),
			 SQ_ROLE_OUTCOME_OK);
	assert_int_equal(role_of("history", "state", "FAILED"),
			 SQ_ROLE_OUTCOME_FAIL);
	/* a state that is neither a job's nor a node's: no colour */
	assert_int_equal(role_of("reservations", "state", "ACTIVE"), -1);
	/* the table's flag decides, not the column's id */
	{
		static const struct sq_column cols[] = {
			{ "health", "H", "", 4, SQ_LEFT, NULL, NULL,
			  SQ_COL_ROLE_NODE_STATE },
			{ "state", "S", "", 4, SQ_LEFT, NULL, NULL, 0 },
		};
		struct sq_view_def v = { .name = "t",
					 .kind = SQ_KIND_NODES,
					 .cols = cols,
					 .ncols = 2 };
		struct sq_table t;

		memset(&t, 0, sizeof(t));
		t.def = &v;
		t.cols[1] = 1;
		assert_int_equal(sq_cell_role(&t, 0, "idle"),
				 SQ_ROLE_NODE_IDLE);
		assert_int_equal(sq_cell_role(&t, 1, "idle"), -1);
	}
}

/* The detail link "priority factors" of a pending array (squeue's
 * 112_[4-20], sprio's 112) leads to its sprio row (recorded 22.05). */
static void
test_link_array_prio(void **state)
{
	struct sq_snapshot *jobs =
	    sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue,
			      "cli/22.05/admin_squeue_jobs.txt", NULL, 0);
	struct sq_snapshot *prio = sq_test_cli_parse(
	    SQ_KIND_PRIO, sq_parse_sprio, "cli/22.05/admin_sprio.txt", NULL, 0);
	const struct sq_view_def *pv = sq_view_find("priority");
	struct sq_link links[9];
	struct sq_filter f;
	struct sq_table t;
	const struct sq_link *l = NULL;
	const void *arr = NULL;
	char err[128];
	size_t i, hits = 0;
	int n, k;

	(void)state;
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (strcmp(j->id, "112_[4-20]") == 0)
			arr = j;
	}
	assert_non_null(arr);
	sq_table_init(&t, sq_view_find("jobs"));
	n = sq_links_of(NULL, &t, arr, links, 9);
	for (k = 0; k < n; k++)
		if (strcmp(links[k].view, "priority") == 0)
			l = &links[k];
	assert_non_null(l);
	assert_string_equal(l->filter, "@job_id=112");
	sq_filter_init(&f);
	assert_int_equal(sq_filter_set(&f, l->filter, pv, err, sizeof(err)), 0);
	for (i = 0; i < prio->nrows; i++)
		hits += sq_filter_row(&f, sq_snapshot_row(prio, i), "") != 0;
	assert_int_equal(hits, 1);
	sq_filter_free(&f);
	sq_table_free(&t);
	sq_snapshot_unref(prio);
	sq_snapshot_unref(jobs);
}

/* What the widget, the loop and the panes ask of a view instead of its
 * kind (views.h): the nodes view's id column, each view's start from the
 * config, the jobs view's priority link, a row's job and node. */
static void
test_view_hooks(void **state)
{
	struct sq_snapshot *s = jobs(rows1, 6);
	struct sq_conf *conf = calloc(1, sizeof(*conf));
	const struct sq_job *run = sq_snapshot_row(s, 0),
			    *pend = sq_snapshot_row(s, 1);
	struct sq_hist h;
	struct sq_table t;
	char buf[64];

	(void)state;
	assert_non_null(conf);
	conf->num[SQ_OPT_COLLAPSE_ARRAYS] = 1;
	conf->num[SQ_OPT_NODEMAP] = 1;
	sq_table_init(&t, &sq_view_jobs);
	assert_non_null(t.ops->init);
	t.ops->init(&t, conf);
	assert_int_equal(t.fold_default, 1);
	assert_int_equal(t.mode, 0);
	assert_true(t.ops->arrange_first);
	assert_string_equal(t.def->cols[t.idcols[0]].id, "job_id");
	/* sprio lists pending jobs only */
	assert_false(t.ops->link_ok(run, "priority"));
	assert_true(t.ops->link_ok(pend, "priority"));
	assert_true(t.ops->link_ok(run, "nodes"));
	assert_string_equal(t.ops->job_of(run, buf, sizeof(buf)), "10");
	assert_int_equal(t.ops->node_of(run, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "n1");
	assert_int_equal(t.ops->node_of(pend, buf, sizeof(buf)), -1);
	sq_table_free(&t);

	sq_table_init(&t, &sq_view_nodes);
	assert_string_equal(t.ops->id_col, "node");
	assert_int_equal(t.nidcols, 1);
	assert_string_equal(t.def->cols[t.idcols[0]].id, "node");
	assert_false(t.ops->arrange_first);
	assert_null(t.ops->job_of);
	t.ops->init(&t, conf);
	assert_int_equal(t.mode, 1);
	assert_int_equal(t.fold_default, 0);
	sq_table_free(&t);

	sq_table_init(&t, sq_view_find("history"));
	memset(&h, 0, sizeof(h));
	h.scope = SQ_HIST_RUN;
	h.id = "6_2";
	assert_string_equal(t.ops->job_of(&h, buf, sizeof(buf)), "6_2");
	h.scope = SQ_HIST_USER;
	assert_null(t.ops->job_of(&h, buf, sizeof(buf)));
	assert_null(t.ops->node_of);
	sq_table_free(&t);
	free(conf);
	sq_snapshot_unref(s);
}

/* The nodes view's grouping by node set is its table's (t->vstate):
 * grouping one nodes table leaves another as it is, and each frees its
 * own. */
static void
test_nodes_group_state(void **state)
{
	struct sq_app *app = calloc(1, sizeof(*app));
	struct sq_table a, b;
	unsigned set = SQ_KIND_BIT(SQ_KIND_NODESETS);

	(void)state;
	assert_non_null(app);
	sq_table_init(&a, &sq_view_nodes);
	sq_table_init(&b, &sq_view_nodes);
	assert_int_equal(a.ops->want(app, &a, 0) & set, 0);
	assert_int_equal(a.ops->action(app, &a, SQ_TA_GROUP), 1);
	assert_non_null(a.vstate);
	assert_int_equal(a.ops->want(app, &a, 0) & set, set);
	assert_string_equal(app->msg,
			    "nodes grouped by node set (totals: :nodesets)");
	assert_null(b.vstate);
	assert_int_equal(b.ops->want(app, &b, 0) & set, 0);
	assert_int_equal(a.ops->action(app, &a, SQ_TA_GROUP), 1);
	assert_int_equal(a.ops->want(app, &a, 0) & set, 0);
	assert_string_equal(app->msg, "nodes not grouped");
	sq_table_free(&a);
	sq_table_free(&b);
	free(app);
}

/* The jobs view's array grouping is its table's (t->vstate): two jobs
 * tables over different queues group each its own arrays, a rebuild of
 * one after the other keeps its groups, and freeing one leaves the
 * other's (each frees its own and drops its snapshot). */
static void
test_jobs_group_state(void **state)
{
	static const char *const rows2[][7] = {
		{ "20_1", "dave", "physics", "RUNNING", "700", "20", "n5" },
		{ "21", "erin", "physics", "PENDING", "650", "0", "" },
		{ "20_2", "dave", "physics", "RUNNING", "600", "20", "n6" },
	};
	struct sq_snapshot *s = jobs(rows1, 6), *s2 = jobs(rows2, 3);
	struct sq_table a, b;

	(void)state;
	sq_table_init(&a, &sq_view_jobs);
	sq_table_init(&b, &sq_view_jobs);
	assert_null(a.vstate);
	sq_table_set_snapshot(&a, s);
	assert_non_null(a.vstate);
	assert_null(b.vstate);
	sq_table_set_snapshot(&b, s2);
	assert_non_null(b.vstate);
	assert_ptr_not_equal(a.vstate, b.vstate);
	/* b: the array 20 under its first row, 21 after it */
	assert_int_equal(b.nrows, 3);
	assert_string_equal(row_id(&b, 0), "20_1");
	assert_true(b.rows[0].flags & SQ_ROW_HASKIDS);
	assert_string_equal(row_id(&b, 1), "20_2");
	assert_int_equal(b.rows[1].depth, 1);
	assert_string_equal(row_id(&b, 2), "21");
	/* a, rebuilt after b arranged another queue, keeps its array 13 */
	sq_table_rebuild(&a);
	assert_int_equal(a.nrows, 6);
	assert_string_equal(row_id(&a, 2), "13_1");
	assert_true(a.rows[2].flags & SQ_ROW_HASKIDS);
	assert_string_equal(row_id(&a, 3), "13_2");
	assert_int_equal(a.rows[3].depth, 1);
	/* folding b's array leaves a's open */
	sq_table_set_folded(&b, "array:20", 1);
	sq_table_rebuild(&b);
	assert_int_equal(b.nrows, 2);
	assert_true(b.rows[0].flags & SQ_ROW_FOLDED);
	sq_table_rebuild(&a);
	assert_int_equal(a.nrows, 6);
	/* a freed: b still arranges with its own state */
	sq_table_free(&a);
	sq_table_set_folded(&b, "array:20", 0);
	sq_table_rebuild(&b);
	assert_int_equal(b.nrows, 3);
	assert_string_equal(row_id(&b, 1), "20_2");
	assert_int_equal(b.rows[1].depth, 1);
	sq_table_free(&b);
	sq_snapshot_unref(s);
	sq_snapshot_unref(s2);
}

/* An app with a table for every view, as the console makes it. */
static struct sq_app *
app_with_tables(struct sq_conf *conf)
{
	struct sq_app *app = calloc(1, sizeof(*app));
	size_t i;

	assert_non_null(app);
	app->conf = conf;
	while (sq_views[app->ntables] != NULL)
		app->ntables++;
	app->tables = calloc(app->ntables, sizeof(*app->tables));
	assert_non_null(app->tables);
	for (i = 0; i < app->ntables; i++)
		sq_table_init(&app->tables[i], sq_views[i]);
	return app;
}

static void
app_free_tables(struct sq_app *app)
{
	size_t i;

	for (i = 0; i < app->ntables; i++)
		sq_table_free(&app->tables[i]);
	free(app->tables);
	free(app);
}

/* The weights of :whatif are the whatif table's (t->vstate), set before
 * the view shows: one console's :whatif leaves another's as it was, a
 * refused one sets nothing, and each frees its own. */
static void
test_whatif_state(void **state)
{
	struct sq_conf *conf = calloc(1, sizeof(*conf));
	struct sq_app *a, *b;
	int w = sq_app_view_index(&sq_view_whatif);
	size_t i;

	(void)state;
	assert_non_null(conf);
	sq_conf_init(conf);
	a = app_with_tables(conf);
	b = app_with_tables(conf);
	assert_true(w >= 0);
	assert_int_equal(sq_tui_whatif_cmd(b, "PriorityWeightAge=-1"), -1);
	assert_non_null(strstr(b->msg, "whatif: "));
	assert_null(b->tables[w].vstate);
	assert_int_equal(sq_tui_whatif_cmd(a, "PriorityWeightAge=5000"), 0);
	assert_int_equal(a->view, w);
	assert_non_null(a->tables[w].vstate);
	for (i = 0; i < b->ntables; i++)
		assert_null(b->tables[i].vstate);
	/* :whatif without weights shows the view and keeps a's */
	assert_int_equal(sq_tui_whatif_cmd(b, ""), 0);
	assert_int_equal(b->view, w);
	assert_null(b->tables[w].vstate);
	assert_int_equal(sq_tui_whatif_cmd(a, "PriorityWeightFairshare=1"), 0);
	assert_non_null(a->tables[w].vstate);
	app_free_tables(a);
	app_free_tables(b);
	free(conf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_filter_text),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_filter_quoted),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_fit),
		cmocka_unit_test(test_natural_sort),
		cmocka_unit_test(test_every_view),
		cmocka_unit_test(test_gpus_idle_rows),
		cmocka_unit_test(test_history_scope_slice),
		cmocka_unit_test(test_cell_roles),
		cmocka_unit_test(test_link_array_prio),
		cmocka_unit_test(test_view_hooks),
		cmocka_unit_test(test_nodes_group_state),
		cmocka_unit_test(test_jobs_group_state),
		cmocka_unit_test(test_whatif_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
