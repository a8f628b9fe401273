/*
 * test_stream.c - a command's output parsed as it arrives
 * (backends/cli/stream.c): recorded squeue and scontrol output handed to
 * the parser in pieces of every size a pipe gives (one byte, a few, a
 * page, all of it) must make the very rows the whole text makes, with a
 * job name's line break split across pieces; a malformed line fails as
 * it does whole, and a command's failure wins over the parse. The pieces
 * come from a transport of this test that appends the recording to the
 * output buffer as the local and ssh transports append what they read.
 * Recordings: tests/fixtures/cli/22.05/squeue_nonce.txt (squall's squeue
 * on the 22.05 testbed, a forged record in a job name; its README) and
 * tests/fixtures/cli/nodes/24.11 (scontrol -d -o show node and show
 * partition on the 24.11 testbed, record.sh).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "backends/cli/stream.h"
#include "batch/batch.h"
#include "core/model/snapshot.h"
#include "core/model/view.h"
#include "tests/unit/test_util.h"

/* the test's transport: text appended in pieces of step bytes, then the
 * exit status */
struct pieces {
	const char *text;
	size_t step;
	int status;
	const struct sq_snapshot *s; /* the rows being made */
	size_t seen;                 /* their number before the last piece */
};

static int
pieces_run(void *ctx, const char *const argv[], struct sq_buf *out,
	   struct sq_buf *errout, int *status, struct sq_err *err)
{
	struct pieces *p = ctx;
	size_t len = strlen(p->text), off;

	(void)argv;
	(void)err;
	for (off = 0; off < len; off += p->step) {
		size_t n = len - off < p->step ? len - off : p->step;

		if (off + n == len)
			p->seen = p->s->nrows;
		sq_buf_append(out, p->text + off, n);
	}
	if (p->status != 0)
		sq_buf_append(errout, "squeue: error: boom\n", 20);
	*status = p->status;
	return 0;
}

static void
pieces_close(void *ctx)
{
	(void)ctx;
}

static const struct sq_transport_ops pieces_ops = {
	.name = "pieces",
	.run = pieces_run,
	.close = pieces_close,
};

/* rows of s as the view prints them, all columns, tab-separated */
static char *
dump(const struct sq_view_def *v, const struct sq_snapshot *s)
{
	char *text = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&text, &n);

	assert_non_null(fp);
	assert_int_equal(sq_batch_print(fp, v, s, SQ_FMT_TSV, NULL, NULL, NULL),
			 0);
	fclose(fp);
	return text;
}

/* text run through the transport in pieces of step bytes and parsed as
 * it arrives by p (ctx) into a new snapshot of kind; its rc, err */
/* one CLI for all of a test's runs: from the second, the rows are
 * allocated from the last run's count (rows_hint) */
static struct sq_cli cli;

static struct sq_snapshot *
streamed(const char *text, size_t step, int status, enum sq_kind kind,
	 const struct sq_cli_lines *p, const void *ctx, int *rc,
	 struct sq_err *err)
{
	static const char *const argv[] = { "squeue", NULL };
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	struct pieces pc = { text, step, status, s, 0 };

	cli.tr = &pieces_ops;
	cli.tr_ctx = &pc;
	sq_err_clear(err);
	*rc = sq_cli_run_lines(&cli, argv, p, ctx, s, err);
	if (*rc == 0 && s->nrows > 0 && cli.rows_hint[kind] != s->nrows)
		fail_msg("the next fetch's allocation: %zu, not %zu rows",
			 cli.rows_hint[kind], s->nrows);
	/* parsed as it came: rows before the last piece, when it came in
	 * pieces of a few lines at most */
	if (*rc == 0 && step <= 4096 && step * 4 < strlen(text) && pc.seen == 0)
		fail_msg("pieces of %zu: nothing parsed before the end", step);
	return s;
}

static const size_t steps[] = { 1, 3, 7, 100, 4096, 65536, 1 << 24 };

/* squeue's recorded output, whole and in pieces: the same rows */
static void
test_squeue_pieces(void **state)
{
	char *text = sq_test_fixture("cli/22.05/squeue_nonce.txt", NULL);
	char *copy = strdup(text), *want, *got;
	struct sq_snapshot *whole = sq_snapshot_new(SQ_KIND_JOBS, 0), *s;
	struct sq_err err;
	size_t i;
	int rc;

	(void)state;
	assert_int_equal(sq_parse_squeue(copy, whole, &err), 0);
	assert_true(whole->nrows > 10);
	want = dump(&sq_view_jobs, whole);
	/* the forged record in a name: that name has a line break */
	assert_non_null(strstr(text, "forge\n"));
	for (i = 0; i < sizeof(steps) / sizeof(*steps); i++) {
		s = streamed(text, steps[i], 0, SQ_KIND_JOBS, &sq_squeue_lines,
			     NULL, &rc, &err);
		if (rc != 0)
			fail_msg("pieces of %zu: %s", steps[i], err.msg);
		assert_int_equal(s->nrows, whole->nrows);
		got = dump(&sq_view_jobs, s);
		if (strcmp(got, want) != 0)
			fail_msg("pieces of %zu: other rows", steps[i]);
		free(got);
		sq_snapshot_unref(s);
	}
	free(want);
	sq_snapshot_unref(whole);
	free(copy);
	free(text);
}

/* a malformed line in the middle: the error the whole text gives, in
 * pieces too; cut output (no last newline) still an error; a failed
 * command's status before any parse error */
static void
test_squeue_errors(void **state)
{
	char *text = sq_test_fixture("cli/22.05/squeue_nonce.txt", NULL);
	char *bad = malloc(strlen(text) + 64), *cut, *mid, *copy;
	struct sq_snapshot *s;
	struct sq_err whole, err;
	size_t i;
	int rc;

	(void)state;
	assert_non_null(bad);
	/* the fifth line's priority made no number */
	mid = text;
	for (i = 0; i < 4; i++)
		mid = strchr(mid, '\n') + 1;
	sprintf(bad, "%.*s", (int)(mid - text), text);
	{
		/* nonce|id|arrayjob|task|user|account|part|qos|stc|state|PRIO
		 */
		char *f = mid;
		int bars = 0;

		while (bars < 11)
			bars += *f++ == '|';
		sprintf(bad + strlen(bad), "%.*sX%s", (int)(f - mid), mid, f);
	}
	copy = strdup(bad);
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_parse_squeue(copy, s, &whole), -1);
	sq_snapshot_unref(s);
	assert_non_null(strstr(whole.msg, "line 5"));
	for (i = 0; i < sizeof(steps) / sizeof(*steps); i++) {
		s = streamed(bad, steps[i], 0, SQ_KIND_JOBS, &sq_squeue_lines,
			     NULL, &rc, &err);
		assert_int_equal(rc, -1);
		assert_string_equal(err.msg, whole.msg);
		sq_snapshot_unref(s);
	}
	/* the same with the command failing: its status is the error */
	s = streamed(bad, 7, 1, SQ_KIND_JOBS, &sq_squeue_lines, NULL, &rc,
		     &err);
	assert_int_equal(rc, -1);
	assert_int_equal(err.code, SQ_ERR_COMMAND);
	assert_non_null(strstr(err.msg, "boom"));
	sq_snapshot_unref(s);
	/* output cut in its last line */
	cut = strdup(text);
	cut[strlen(cut) - 10] = '\0';
	for (i = 0; i < sizeof(steps) / sizeof(*steps); i++) {
		s = streamed(cut, steps[i], 0, SQ_KIND_JOBS, &sq_squeue_lines,
			     NULL, &rc, &err);
		assert_int_equal(rc, -1);
		assert_non_null(strstr(err.msg, "truncated output"));
		sq_snapshot_unref(s);
	}
	/* no output at all: no rows, no error */
	s = streamed("", 1, 0, SQ_KIND_JOBS, &sq_squeue_lines, NULL, &rc, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
	free(cut);
	free(copy);
	free(bad);
	free(text);
}

/* scontrol show node's recorded output with its partitions: the same
 * nodes whole and in pieces */
static void
test_nodes_pieces(void **state)
{
	char *nodes =
	    sq_test_fixture("cli/nodes/24.11/scontrol_node.txt", NULL);
	char *parts =
	    sq_test_fixture("cli/nodes/24.11/scontrol_partition.txt", NULL);
	char *copy = strdup(nodes), *want, *got;
	struct sq_snapshot *p = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	struct sq_snapshot *whole = sq_snapshot_new(SQ_KIND_NODES, 0), *s;
	struct sq_scnode_ctx ctx;
	struct sq_err err;
	size_t i;
	int rc;

	(void)state;
	assert_int_equal(sq_parse_scontrol_partitions(parts, p, &err), 0);
	assert_int_equal(sq_parse_scontrol_nodes(copy, p, 1, whole, &err), 0);
	assert_true(whole->nrows >= 4);
	want = dump(&sq_view_nodes, whole);
	ctx.parts = p;
	ctx.planned_mark = 1;
	for (i = 0; i < sizeof(steps) / sizeof(*steps); i++) {
		s = streamed(nodes, steps[i], 0, SQ_KIND_NODES,
			     &sq_scnode_lines, &ctx, &rc, &err);
		if (rc != 0)
			fail_msg("pieces of %zu: %s", steps[i], err.msg);
		got = dump(&sq_view_nodes, s);
		if (strcmp(got, want) != 0)
			fail_msg("pieces of %zu: other nodes", steps[i]);
		free(got);
		sq_snapshot_unref(s);
	}
	free(want);
	sq_snapshot_unref(whole);
	sq_snapshot_unref(p);
	free(copy);
	free(parts);
	free(nodes);
}

/*
 * The nodes fetch over a transport that runs two commands at once
 * (sq_cli_fetch_nodes, fetch.c): scontrol show partition answers only
 * once scontrol show node has started, so the fetch passes only when the
 * two run together. order: 0, the node lines come in pieces while the
 * partitions come; 1, they all come first and the command ends before
 * the partitions (the gate's wait at the end); 2, they come only once
 * the partitions are in.
 */
struct pair {
	const char *nodes, *parts;
	size_t step;
	int order, part_status, node_status;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int node_started, parts_done, alone; /* alone: show partition ran
						 without show node */
};

/* wait on p's condition until *flag, at most 5 s; 0 when it timed out */
static int
pair_wait(struct pair *p, const int *flag)
{
	struct timespec until;
	int rc = 0;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	pthread_mutex_lock(&p->mu);
	while (!*flag && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&p->cv, &p->mu, &until);
	rc = *flag;
	pthread_mutex_unlock(&p->mu);
	return rc;
}

static void
pair_set(struct pair *p, int *flag)
{
	pthread_mutex_lock(&p->mu);
	*flag = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static int
pair_run(void *ctx, const char *const argv[], struct sq_buf *out,
	 struct sq_buf *errout, int *status, struct sq_err *err)
{
	struct pair *p = ctx;
	size_t len, off;

	(void)err;
	if (strcmp(argv[3], "partition") == 0) {
		if (!pair_wait(p, &p->node_started))
			p->alone = 1;
		if (p->order == 1) {
			struct timespec ms50 = { 0, 50 * 1000 * 1000 };

			nanosleep(&ms50, NULL);
		}
		sq_buf_append(out, p->parts, strlen(p->parts));
		if (p->part_status != 0)
			sq_buf_append(errout, "scontrol: error: parts\n", 23);
		*status = p->part_status;
		pair_set(p, &p->parts_done);
		return 0;
	}
	pair_set(p, &p->node_started);
	if (p->order == 2)
		pair_wait(p, &p->parts_done);
	len = strlen(p->nodes);
	for (off = 0; off < len; off += p->step) {
		size_t n = len - off < p->step ? len - off : p->step;

		sq_buf_append(out, p->nodes + off, n);
	}
	if (p->node_status != 0)
		sq_buf_append(errout, "scontrol: error: nodes\n", 23);
	*status = p->node_status;
	return 0;
}

static const struct sq_transport_ops pair_ops = {
	.name = "pair",
	.run = pair_run,
	.close = pieces_close,
	.concurrent = 1,
};

static struct sq_snapshot *
pair_fetch(struct pair *p, int *rc, struct sq_err *err)
{
	struct sq_cli c = { 0 };
	struct sq_snapshot *s = NULL;

	c.tr = &pair_ops;
	c.tr_ctx = p;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	p->node_started = p->parts_done = p->alone = 0;
	sq_err_clear(err);
	*rc = sq_cli_fetch_nodes(&c, &s, err);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	return s;
}

static void
test_nodes_together(void **state)
{
	char *nodes =
	    sq_test_fixture("cli/nodes/24.11/scontrol_node.txt", NULL);
	char *parts =
	    sq_test_fixture("cli/nodes/24.11/scontrol_partition.txt", NULL);
	char *copy = strdup(nodes), *pcopy = strdup(parts), *want, *got;
	struct sq_snapshot *p = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	struct sq_snapshot *whole = sq_snapshot_new(SQ_KIND_NODES, 0), *s;
	struct pair pr = { .nodes = nodes, .parts = parts };
	struct sq_err err;
	size_t i;
	int rc, order;

	(void)state;
	assert_int_equal(sq_parse_scontrol_partitions(pcopy, p, &err), 0);
	assert_int_equal(sq_parse_scontrol_nodes(copy, p, 1, whole, &err), 0);
	want = dump(&sq_view_nodes, whole);
	for (order = 0; order < 3; order++) {
		for (i = 0; i < sizeof(steps) / sizeof(*steps); i++) {
			pr.order = order;
			pr.step = steps[i];
			s = pair_fetch(&pr, &rc, &err);
			if (pr.alone)
				fail_msg("order %d: show partition ran alone",
					 order);
			if (rc != 0)
				fail_msg("order %d, pieces of %zu: %s", order,
					 steps[i], err.msg);
			got = dump(&sq_view_nodes, s);
			if (strcmp(got, want) != 0)
				fail_msg("order %d, pieces of %zu: other nodes",
					 order, steps[i]);
			free(got);
			sq_snapshot_unref(s);
		}
	}
	/* the partition command's failure wins, as when it ran first; then
	 * the node command's */
	for (order = 0; order < 3; order++) {
		pr.order = order;
		pr.step = 100;
		pr.part_status = 1;
		pr.node_status = 2;
		s = pair_fetch(&pr, &rc, &err);
		assert_int_equal(rc, -1);
		assert_null(s);
		assert_int_equal(err.status, 1);
		assert_non_null(strstr(err.msg, "error: parts"));
		pr.part_status = 0;
		s = pair_fetch(&pr, &rc, &err);
		assert_int_equal(rc, -1);
		assert_null(s);
		assert_int_equal(err.status, 2);
		assert_non_null(strstr(err.msg, "error: nodes"));
		pr.node_status = 0;
	}
	free(want);
	sq_snapshot_unref(whole);
	sq_snapshot_unref(p);
	free(pcopy);
	free(copy);
	free(parts);
	free(nodes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_squeue_pieces),
		cmocka_unit_test(test_squeue_errors),
		cmocka_unit_test(test_nodes_pieces),
		cmocka_unit_test(test_nodes_together),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
