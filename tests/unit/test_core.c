/*
 * test_core.c - unit tests of core/: parsing helpers, GRES counting,
 * sanitizing, buffers, arenas, snapshots and joins, the util helpers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/arena.h"
#include "backends/cli/cli.h"
#include "core/base/buf.h"
#include "core/base/gres.h"
#include "core/model/join.h"
#include "core/model/model.h"
#include "core/query/order.h"
#include "core/base/parse.h"
#include "core/base/sanitize.h"
#include "core/model/snapshot.h"
#include "core/base/util.h"
#include "core/model/view.h"
#include "core/query/when.h"
#include "tests/unit/test_util.h"

static void
test_split(void **state)
{
	char line[] = "a|b||c|d|e";
	char *f[4];

	(void)state;
	assert_int_equal(sq_split(line, '|', f, 4), 4);
	assert_string_equal(f[0], "a");
	assert_string_equal(f[2], "");
	/* the last field keeps the delimiters */
	assert_string_equal(f[3], "c|d|e");
}

static void
test_durations(void **state)
{
	int64_t s;

	(void)state;
	assert_int_equal(sq_parse_duration("1-00:00:00", &s), 0);
	assert_int_equal(s, 86400);
	assert_int_equal(sq_parse_duration("2-03:04:05", &s), 0);
	assert_int_equal(s, 2 * 86400 + 3 * 3600 + 4 * 60 + 5);
	assert_int_equal(sq_parse_duration("1:00:00", &s), 0);
	assert_int_equal(s, 3600);
	assert_int_equal(sq_parse_duration("10:05", &s), 0);
	assert_int_equal(s, 605);
	assert_int_equal(sq_parse_duration("30", &s), 0);
	assert_int_equal(s, 1800);
	assert_int_equal(sq_parse_duration("UNLIMITED", &s), 0);
	assert_int_equal(s, SQ_INFINITE);
	assert_int_equal(sq_parse_duration("N/A", &s), 0);
	assert_int_equal(s, SQ_NONE);
	assert_int_equal(sq_parse_duration("1:xx", &s), -1);
	assert_int_equal(sq_parse_duration("1:2:3:4", &s), -1);
	assert_int_equal(sq_parse_duration("-5", &s), -1);
}

static void
test_fmt_duration(void **state)
{
	char b[32];

	(void)state;
	sq_fmt_duration(3600, b, sizeof(b));
	assert_string_equal(b, "1:00:00");
	sq_fmt_duration(86400 + 61, b, sizeof(b));
	assert_string_equal(b, "1-00:01:01");
	sq_fmt_duration(65, b, sizeof(b));
	assert_string_equal(b, "1:05");
	sq_fmt_duration(SQ_INFINITE, b, sizeof(b));
	assert_string_equal(b, "UNLIMITED");
	sq_fmt_duration(0, b, sizeof(b));
	assert_string_equal(b, "0:00");
	sq_fmt_duration(-1, b, sizeof(b));
	assert_string_equal(b, "N/A");
	/* printed by hand: the same text as printf, cut as snprintf cuts */
	{
		static const int64_t v[] = { 1,
					     59,
					     60,
					     599,
					     3599,
					     36000,
					     86399,
					     86400 * 99,
					     86400LL * 123456 + 3661,
					     INT64_MAX / 2 };
		size_t i, n;

		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			for (n = 1; n <= sizeof(b); n++) {
				char want[64];
				long long d = v[i] / 86400,
					  h = v[i] / 3600 % 24,
					  m = v[i] / 60 % 60, x = v[i] % 60;

				if (d > 0)
					snprintf(want, n,
						 "%lld-%02lld:%02lld:%02lld", d,
						 h, m, x);
				else if (h > 0)
					snprintf(want, n, "%lld:%02lld:%02lld",
						 h, m, x);
				else
					snprintf(want, n, "%lld:%02lld", m, x);
				sq_fmt_duration(v[i], b, n);
				assert_string_equal(b, want);
			}
		}
	}
}

static void
test_ints(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(sq_parse_int("42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(sq_parse_int("(null)", &v), 0);
	assert_int_equal(v, SQ_NONE);
	assert_int_equal(sq_parse_int("UNLIMITED", &v), 0);
	assert_int_equal(v, SQ_INFINITE);
	assert_int_equal(sq_parse_int("12abc", &v), -1);
	assert_int_equal(sq_parse_mem_mb("16000", &v), 0);
	assert_int_equal(v, 16000);
	assert_int_equal(sq_parse_mem_mb("2G", &v), 0);
	assert_int_equal(v, 2048);
	assert_int_equal(sq_parse_time("1795989351", &v), 0);
	assert_int_equal(v, 1795989351);
	assert_int_equal(sq_parse_time("N/A", &v), 0);
	assert_int_equal(v, SQ_NONE);
	assert_int_equal(sq_parse_time("soon", &v), -1);
}

/* Slurm's none-words and infinite-words, every spelling, and words that
 * share their first bytes (a QOS "normal", a node "None1") are values */
static void
test_none_words(void **state)
{
	static const char *const none[] = { "",       "N/A",    "n/a",
					    "None",   "NONE",   "NOT_SET",
					    "(null)", "Unknown" };
	static const char *const values[] = {
		"normal",  "n",   "n/",     "n/ab",     "N",         "N/",
		"NA",      "Non", "None1",  "NOT",      "NOT_SETX",  "(null",
		"(null))", "U",   "Unknow", "Unknown2", "UNLIMITED", "Node"
	};
	static const char *const inf[] = { "UNLIMITED", "INFINITE", "Infinite",
					   "infinite", "inf" };
	static const char *const notinf[] = { "UNLIMITE", "INFINITEX", "Inf",
					      "in",       "infinit",   "U" };
	int64_t v;
	size_t i;

	(void)state;
	assert_true(sq_is_none(NULL));
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		assert_true(sq_is_none(none[i]));
		assert_int_equal(sq_parse_int(none[i], &v), 0);
		assert_true(v == SQ_NONE);
	}
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		if (sq_is_none(values[i]))
			fail_msg("\"%s\" taken for none", values[i]);
	}
	for (i = 0; i < sizeof(inf) / sizeof(inf[0]); i++) {
		assert_int_equal(sq_parse_int(inf[i], &v), 0);
		assert_true(v == SQ_INFINITE);
	}
	for (i = 0; i < sizeof(notinf) / sizeof(notinf[0]); i++) {
		if (sq_parse_int(notinf[i], &v) != -1)
			fail_msg("\"%s\" read as a number", notinf[i]);
	}
}

static void
test_kv(void **state)
{
	char line[] = "NodeName=n1 State=IDLE+DRAIN Reason=disk full "
		      "[root@2026-11-29T10:00:00] Gres=gpu:a100:4";
	char *p = line, *k, *v;

	(void)state;
	assert_int_equal(sq_kv_next(&p, &k, &v), 1);
	assert_string_equal(k, "NodeName");
	assert_string_equal(v, "n1");
	assert_int_equal(sq_kv_next(&p, &k, &v), 1);
	assert_string_equal(v, "IDLE+DRAIN");
	assert_int_equal(sq_kv_next(&p, &k, &v), 1);
	assert_string_equal(k, "Reason");
	assert_string_equal(v, "disk full [root@2026-11-29T10:00:00]");
	assert_int_equal(sq_kv_next(&p, &k, &v), 1);
	assert_string_equal(k, "Gres");
	assert_string_equal(v, "gpu:a100:4");
	assert_int_equal(sq_kv_next(&p, &k, &v), 0);
}

static void
test_gres(void **state)
{
	struct sq_gres_item it[8];

	(void)state;
	assert_int_equal(sq_gres_count("gpu:a100:4", "gpu"), 4);
	assert_int_equal(sq_gres_count("gpu:a100:4(IDX:0-3)", "gpu"), 4);
	assert_int_equal(sq_gres_count("gpu:t4:1(IDX:0)", "gpu"), 1);
	assert_int_equal(sq_gres_count("gpu:0", "gpu"), 0);
	assert_int_equal(sq_gres_count("(null)", "gpu"), 0);
	assert_int_equal(sq_gres_count("gpu:a100:2(S:0),gpu:t4:3(S:1)", "gpu"),
			 5);
	assert_int_equal(sq_gres_count("gres:gpu:a100:2", "gpu"), 2);
	assert_int_equal(sq_gres_count("gres/gpu:2", "gpu"), 2);
	/* TRES list: untyped total wins, types are not double-counted */
	assert_int_equal(sq_gres_count("cpu=24,mem=48000M,gres/gpu=8,"
				       "gres/gpu:a100=4,gres/gpu:t4=4",
				       "gpu"),
			 8);
	assert_int_equal(sq_gres_count("tpu:v4:8,shard:16", "tpu"), 8);
	assert_int_equal(sq_gres_count("tpu:v4:8,shard:16", "shard"), 16);
	assert_int_equal(sq_gres_parse("gpu:a100:4(IDX:0-3),mps:200", it, 8),
			 2);
	assert_string_equal(it[0].name, "gpu");
	assert_string_equal(it[0].type, "a100");
	assert_int_equal(it[1].count, 200);
	assert_int_equal(sq_gres_parse("gpu:a100:4", it, 0), -1);
	assert_true(sq_gres_is_accel("tpu"));
	assert_false(sq_gres_is_accel("license"));
}

static void
test_sanitize(void **state)
{
	char out[64];

	(void)state;
	sq_sanitize("ok\033]0;pwn\007\ttab", out, sizeof(out));
	assert_null(strchr(out, '\033'));
	assert_null(strchr(out, '\007'));
	assert_string_equal(out, "ok?]0;pwn? tab");
	/* invalid UTF-8 and C1 controls become '?' */
	sq_sanitize("a\xff\xc2\x9b"
		    "b",
		    out, sizeof(out));
	assert_string_equal(out, "a??b");
	/* valid UTF-8 passes, width counts code points */
	sq_sanitize("caf\xc3\xa9", out, sizeof(out));
	assert_string_equal(out, "caf\xc3\xa9");
	assert_int_equal(sq_display_width(out), 4);
	/* truncation never splits a sequence or overflows */
	sq_sanitize("abc\xc3\xa9", out, 5);
	assert_string_equal(out, "abc");
}

static void
test_buf(void **state)
{
	struct sq_buf b;

	(void)state;
	sq_buf_init(&b, 8);
	assert_string_equal(sq_buf_str(&b), "");
	assert_int_equal(sq_buf_append(&b, "1234", 4), 0);
	assert_int_equal(sq_buf_printf(&b, "%d", 56), 0);
	assert_string_equal(sq_buf_str(&b), "123456");
	assert_int_equal(sq_buf_append(&b, "789", 3), -1);
	assert_true(b.truncated);
	assert_int_equal(b.len, 8);
	assert_string_equal(sq_buf_str(&b), "12345678");
	sq_buf_free(&b);
}

static void
test_arena(void **state)
{
	struct sq_arena a;
	char *big, *s;
	int i;

	(void)state;
	sq_arena_init(&a);
	for (i = 0; i < 10000; i++) {
		s = sq_arena_strdup(&a, "partition");
		assert_string_equal(s, "partition");
	}
	big = sq_arena_alloc(&a, 1 << 20);
	assert_non_null(big);
	memset(big, 1, 1 << 20);
	s = sq_arena_strndup(&a, "abcdef", 3);
	assert_string_equal(s, "abc");
	assert_true(a.reserved >= a.used);
	sq_arena_free(&a);
}

static void
test_snapshot_and_join(void **state)
{
	struct sq_snapshot *jobs, *prio;
	struct sq_job *j;
	struct sq_prio *p;
	int i;

	(void)state;
	jobs = sq_snapshot_new(SQ_KIND_JOBS, 0);
	prio = sq_snapshot_new(SQ_KIND_PRIO, 0);
	for (i = 0; i < 3; i++) {
		j = sq_snapshot_add(jobs);
		j->job_id = 10 + i;
		j->state = i < 2 ? "PENDING" : "RUNNING";
		j->state_compact = i < 2 ? "PD" : "R";
		j->partition = "low";
	}
	/* job 10 pends in two partitions: the one squeue shows wins */
	p = sq_snapshot_add(prio);
	p->job_id = 10, p->partition = "high", p->priority = 900;
	p = sq_snapshot_add(prio);
	p->job_id = 10, p->partition = "low", p->priority = 100;
	p = sq_snapshot_add(prio);
	p->job_id = 11, p->partition = "low", p->priority = 500;
	sq_prio_rank(prio);
	sq_jobs_join_prio(jobs, prio);
	sq_snapshot_unref(prio); /* jobs keeps it alive */
	j = sq_snapshot_row(jobs, 0);
	assert_non_null(j->prio);
	assert_string_equal(j->prio->partition, "low");
	assert_int_equal(j->prio->rank, 2);
	j = sq_snapshot_row(jobs, 1);
	assert_int_equal(j->prio->rank, 1);
	j = sq_snapshot_row(jobs, 2);
	assert_null(j->prio);
	assert_true(sq_snapshot_bytes(jobs) > 3 * sizeof(struct sq_job));
	sq_snapshot_unref(jobs);
}

/* The jobs of the squeue fixture (22.05 testbed), its lines reversed when
 * rev: the same queue as squeue may print it at the next refresh. */
static struct sq_snapshot *
fixture_jobs(int rev)
{
	char *text = sq_test_fixture("cli/22.05/squeue.txt", NULL), *out, *e;
	size_t len = strlen(text), o = 0;
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_err err;

	out = malloc(len + 2);
	assert_non_null(out);
	assert_non_null(s);
	/* the lines from the last to the first */
	while (rev && len > 0) {
		if (text[len - 1] == '\n')
			text[--len] = '\0';
		e = strrchr(text, '\n');
		e = e != NULL ? e + 1 : text;
		o += (size_t)sprintf(out + o, "%s\n", e);
		len = (size_t)(e - text);
		text[len] = '\0';
	}
	assert_int_equal(sq_parse_squeue(rev ? out : text, s, &err), 0);
	free(text);
	free(out);
	return s;
}

/* Rows equal in the sorted column keep their places from one refresh to
 * the next (issue 41, defect 15): the fixture's queue and the same queue
 * in another order sort to the same job ids, by every jobs column both
 * ways, and the descending order made from the ascending one
 * (sq_order_flip) is the same. Jobs 55 and 57 share priority 4671. */
static void
test_order_ties_by_job_id(void **state)
{
	struct sq_snapshot *a = fixture_jobs(0), *b = fixture_jobs(1);
	const struct sq_view_def *v = sq_view_find("jobs");
	size_t n = a->nrows, i, c, npres, at55 = 0, at57 = 0;
	uint32_t *oa = calloc(n, sizeof(*oa)), *ob = calloc(n, sizeof(*ob));
	uint32_t *asc = calloc(n, sizeof(*asc));
	unsigned char *ties = calloc(n / 8 + 1, 1);
	struct sq_order_ws w;
	int desc;

	(void)state;
	memset(&w, 0, sizeof(w));
	assert_true(n > 10 && b->nrows == n);
	assert_true(oa && ob && asc && ties);
	for (c = 0; c < v->ncols; c++) {
		for (desc = 0; desc < 2; desc++) {
			assert_int_equal(
			    sq_order_rows(a, &v->cols[c], desc, oa), 0);
			assert_int_equal(
			    sq_order_rows_ws(b, &v->cols[c], desc, ob, &w), 0);
			for (i = 0; i < n; i++) {
				const struct sq_job *x =
				    sq_snapshot_row(a, oa[i]);
				const struct sq_job *y =
				    sq_snapshot_row(b, ob[i]);

				assert_int_equal(x->job_id, y->job_id);
			}
		}
		assert_int_equal(
		    sq_order_rows_ties(b, &v->cols[c], asc, ties, &npres, &w),
		    0);
		sq_order_flip(asc, ties, npres, n, oa);
		assert_memory_equal(oa, ob, n * sizeof(*ob));
	}
	/* by priority, highest first: the older id first among equals */
	assert_int_equal(sq_order_rows(b, sq_view_column(v, "priority"), 1, ob),
			 0);
	for (i = 0; i < n; i++) {
		uint32_t id =
		    ((const struct sq_job *)sq_snapshot_row(b, ob[i]))->job_id;

		if (id == 55)
			at55 = i;
		if (id == 57)
			at57 = i;
	}
	assert_true(at55 + 1 == at57);
	sq_order_ws_free(&w);
	free(oa);
	free(ob);
	free(asc);
	free(ties);
	sq_snapshot_unref(a);
	sq_snapshot_unref(b);
}

static void
test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(sq_kind_name(SQ_KIND_JOBS), "jobs");
	assert_int_equal(sq_kind_from_name("nodes"), SQ_KIND_NODES);
	assert_int_equal(sq_kind_from_name("bogus"), -1);
}

static void
test_util(void **state)
{
	char d[6] = "xxxxx";
	double t0, t1;

	(void)state;
	sq_util_copy(d, sizeof(d), "abc");
	assert_string_equal(d, "abc");
	/* cut to the size, always terminated */
	sq_util_copy(d, sizeof(d), "abcdefgh");
	assert_string_equal(d, "abcde");
	sq_util_copy(d, sizeof(d), NULL);
	assert_string_equal(d, "");
	/* n == 0 writes nothing */
	d[0] = 'q';
	sq_util_copy(d, 0, "zz");
	assert_int_equal(d[0], 'q');
	sq_util_copy(d, 1, "zz");
	assert_string_equal(d, "");
	t0 = sq_util_now_ms();
	t1 = sq_util_now_ms();
	assert_true(t0 > 0 && t1 >= t0);
}

static int dropped;

static void
count_drop(void *elem)
{
	dropped += *(int *)elem;
}

/* sq_util_keep: the kept in order at the front, each other one dropped
 * once, the slots after them zeroed */
static void
test_util_keep(void **state)
{
	int v[5] = { 1, 2, 4, 8, 16 };
	const unsigned char keep[5] = { 0, 1, 0, 1, 1 }, none[2] = { 0, 0 };

	(void)state;
	dropped = 0;
	assert_int_equal(sq_util_keep(v, 5, sizeof(v[0]), keep, count_drop), 3);
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 8);
	assert_int_equal(v[2], 16);
	assert_int_equal(v[3], 0);
	assert_int_equal(v[4], 0);
	assert_int_equal(dropped, 1 + 4);
	assert_int_equal(sq_util_keep(v, 2, sizeof(v[0]), none, NULL), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 0);
}

/* Times for people: compact by how far back, the age in the long form;
 * a time column's cell, any other column's own text. */
static void
test_when(void **state)
{
	char buf[64];
	/* 2026-12-02 05:31:11 UTC */
	const int64_t t = 1796189471, day = 86400;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	assert_string_equal(sq_when_short(t, t + 180, buf, sizeof(buf)),
			    "05:31");
	assert_string_equal(sq_when_long(t, t + 180, buf, sizeof(buf)),
			    "05:31:11 (3m ago)");
	assert_string_equal(sq_when_short(t - day, t, buf, sizeof(buf)),
			    "Dec 01 05:31");
	assert_string_equal(sq_when_short(t - 30 * day, t, buf, sizeof(buf)),
			    "2026-11-02");
	assert_string_equal(sq_when_long(t + 7200, t, buf, sizeof(buf)),
			    "07:31:11 (in 2h)");
	assert_string_equal(sq_when_long(t - 3 * day, t, buf, sizeof(buf)),
			    "Nov 29 05:31:11 (3d ago)");
	assert_null(sq_when_short(SQ_NONE, t, buf, sizeof(buf)));
	assert_null(sq_when_short(0, t, buf, sizeof(buf)));
	assert_string_equal(sq_when_age(45, buf, sizeof(buf)), "45s");
	sq_fmt_duration(93784, buf, sizeof(buf));
	assert_string_equal(buf, "1-02:03:04");
	sq_fmt_duration(303, buf, sizeof(buf));
	assert_string_equal(buf, "5:03");
	/* the detail pane's text never is an epoch */
	{
		const struct sq_column *c =
		    sq_view_column(&sq_view_jobs, "submit_time");
		struct sq_job j;

		memset(&j, 0, sizeof(j));
		j.submit_time = t;
		assert_non_null(c);
		assert_true(c->flags & SQ_COL_TIME);
		assert_string_equal(c->text(&j, buf, sizeof(buf)),
				    "2026-12-02T05:31:11");
		assert_non_null(sq_when_cell(c, &j, 1, buf, sizeof(buf)));
		assert_null(strstr(buf, "1796189471"));
		assert_non_null(strstr(buf, "05:31:11"));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_fmt_duration),
		cmocka_unit_test(test_ints),
		cmocka_unit_test(test_none_words),
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_gres),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_snapshot_and_join),
		cmocka_unit_test(test_order_ties_by_job_id),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_util),
		cmocka_unit_test(test_util_keep),
		cmocka_unit_test(test_when),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
