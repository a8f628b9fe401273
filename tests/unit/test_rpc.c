/*
 * test_rpc.c - the rpc-types and rpc-users rows (core/analysis/rpc.c): sdiag's
 * text of 22.05, 24.11 and 26.05 and slurmrestd's /diag JSON, recorded
 * (tests/fixtures/rpc/README.md, tests/fixtures/rest), turned into rows;
 * rates between two reads, a reset, the history's length, the scopes;
 * the diag view's "changed" rows (core/analysis/diag_trend.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json.h>

#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/analysis/diag_trend.h"
#include "core/analysis/diag_trend.h"
#include "core/model/model_admin.h"
#include "core/analysis/rpc.h"
#include "tests/unit/test_util.h"

static struct sq_snapshot *
diag_text(char *text)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_DIAG, 0);
	struct sq_err err;

	assert_non_null(s);
	sq_err_clear(&err);
	if (sq_parse_sdiag(text, s, &err) != 0)
		fail_msg("sdiag: %s", err.msg);
	return s;
}

static struct sq_snapshot *
diag_fixture(const char *rel)
{
	char *text = sq_test_fixture(rel, NULL);
	struct sq_snapshot *s = diag_text(text);

	free(text);
	return s;
}

static struct sq_snapshot *
rpc_of(struct sq_snapshot *diag, struct sq_rpc_hist *h, const char *self)
{
	struct sq_snapshot *out = NULL;
	struct sq_err err;

	sq_err_clear(&err);
	assert_int_equal(sq_rpc_build(diag, h, self, &out, &err), 0);
	assert_non_null(out);
	return out;
}

static const struct sq_rpc *
find(const struct sq_snapshot *s, enum sq_rpc_scope scope, const char *name)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_rpc *r = sq_snapshot_row(s, i);

		if (r->scope == scope && strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

static void
shares_add_up(const struct sq_snapshot *s)
{
	double tot[2] = { 0, 0 };
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_rpc *r = sq_snapshot_row(s, i);

		tot[r->scope] += r->share;
	}
	assert_true(fabs(tot[0] - 100.0) < 0.01);
	assert_true(fabs(tot[1] - 100.0) < 0.01);
}

/* each release's text: every listed type and user, counts as printed */
static void
test_sdiag_releases(void **state)
{
	static const struct {
		const char *rel;
		int types;
		int64_t root, alice, node_info;
	} fx[] = {
		{ "rpc/sdiag-22.05.txt", 6, 13, 2, 2 },
		{ "rpc/sdiag-24.11.txt", 5, 12, 1, 2 },
		{ "rpc/sdiag-26.05.txt", 5, 12, 1, 2 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		struct sq_snapshot *d = diag_fixture(fx[i].rel);
		struct sq_rpc_hist *h = sq_rpc_hist_new();
		struct sq_snapshot *s = rpc_of(d, h, "root");
		const struct sq_rpc *r;

		assert_int_equal(s->nrows, (size_t)fx[i].types + 2);
		r = find(s, SQ_RPC_USER, "root");
		assert_non_null(r);
		assert_int_equal(r->count, fx[i].root);
		assert_int_equal(r->own, 1);
		assert_true(isnan(r->rate)); /* one read */
		r = find(s, SQ_RPC_USER, "alice");
		assert_int_equal(r->count, fx[i].alice);
		assert_int_equal(r->own, 0);
		r = find(s, SQ_RPC_TYPE, "REQUEST_NODE_INFO");
		assert_int_equal(r->count, fx[i].node_info);
		assert_true(r->ave_time > 0);
		assert_true(r->total_time >= r->ave_time);
		assert_int_equal(r->own, 1);
		/* diag's controller lines: scontrol ping, REST /ping */
		assert_int_equal(find(s, SQ_RPC_TYPE, "REQUEST_PING")->own, 1);
		assert_int_equal(
		    find(s, SQ_RPC_TYPE, "MESSAGE_NODE_REGISTRATION_STATUS")
			->own,
		    0);
		assert_non_null(s->note);
		shares_add_up(s);
		assert_int_equal(sq_rpc_hist_len(h), 1);
		sq_snapshot_unref(s);
		sq_snapshot_unref(d);
		sq_rpc_hist_free(h);
	}
}

/* slurmrestd's /diag: the same rows (slurmjson makes sdiag's) */
static void
test_rest_diag(void **state)
{
	static const struct {
		const char *rel;
		int64_t root;
	} fx[] = {
		{ "rest/v0.0.42/slurm_diag.json", 82 },
		{ "live/slurm-26.05/rest/v0.0.45/slurm_diag.json", 959 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		struct sq_snapshot *d = sq_snapshot_new(SQ_KIND_DIAG, 0);
		struct sq_rpc_hist *h = sq_rpc_hist_new();
		struct sq_snapshot *s;
		struct sq_err err;
		size_t len;
		char *body = sq_test_fixture(fx[i].rel, &len);

		sq_err_clear(&err);
		assert_int_equal(sq_slurmjson_parse(SQ_KIND_DIAG, body, len, 0,
						    d, NULL, &err),
				 0);
		s = rpc_of(d, h, "root");
		assert_int_equal(find(s, SQ_RPC_USER, "root")->count,
				 fx[i].root);
		assert_non_null(find(s, SQ_RPC_TYPE, "REQUEST_NODE_INFO"));
		shares_add_up(s);
		sq_snapshot_unref(s);
		sq_snapshot_unref(d);
		sq_rpc_hist_free(h);
		free(body);
	}
}

/* a uid without a user name (a user since removed, as test_ssh_password's
 * throw-away user): sdiag prints the number, slurmrestd an empty name;
 * the row is named by the number as sdiag's is */
static void
test_rest_user_without_name(void **state)
{
	size_t len;
	char *body = sq_test_fixture(
	    "live/slurm-26.05/rest/v0.0.45/slurm_diag.json", &len);
	json_object *root = json_tokener_parse(body), *st = NULL, *arr = NULL;
	json_object *e = json_object_new_object();
	struct sq_snapshot *d = sq_snapshot_new(SQ_KIND_DIAG, 0), *s;
	struct sq_rpc_hist *h = sq_rpc_hist_new();
	struct sq_err err;
	const char *txt;

	(void)state;
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "statistics", &st));
	assert_true(json_object_object_get_ex(st, "rpcs_by_user", &arr));
	json_object_object_add(e, "user", json_object_new_string(""));
	json_object_object_add(e, "user_id", json_object_new_int(1004));
	json_object_object_add(e, "count", json_object_new_int(6));
	json_object_array_add(arr, e);
	txt = json_object_to_json_string(root);
	sq_err_clear(&err);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_DIAG, txt, strlen(txt), 0,
					    d, NULL, &err),
			 0);
	s = rpc_of(d, h, "root");
	assert_non_null(find(s, SQ_RPC_USER, "1004"));
	assert_int_equal(find(s, SQ_RPC_USER, "1004")->count, 6);
	assert_null(find(s, SQ_RPC_USER, ""));
	/* the named users keep their names */
	assert_non_null(find(s, SQ_RPC_USER, "root"));
	sq_snapshot_unref(s);
	sq_snapshot_unref(d);
	sq_rpc_hist_free(h);
	json_object_put(root);
	free(body);
}

/* a small sdiag text at time t with alice's and one type's count */
static struct sq_snapshot *
synth(long t, long alice, long type)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "sdiag output at Sun Dec 06 05:46:00 2026 (%ld)\n"
		 "Server thread count:  1\n"
		 "Remote Procedure Call statistics by message type\n"
		 "\tREQUEST_JOB_INFO  ( 2003) count:%ld ave_time:10 "
		 "total_time:%ld\n"
		 "\nRemote Procedure Call statistics by user\n"
		 "\troot  (   0) count:5 ave_time:1 total_time:5\n"
		 "\talice (1000) count:%ld ave_time:1 total_time:%ld\n",
		 t, type, type * 10, alice, alice);
	return diag_text(text);
}

static double
rate(struct sq_rpc_hist *h, long t, long alice, long type,
     enum sq_rpc_scope scope, const char *name, int *nrates)
{
	struct sq_snapshot *d = synth(t, alice, type), *s;
	const struct sq_rpc *r;
	double v;

	s = rpc_of(d, h, "squall");
	r = find(s, scope, name);
	assert_non_null(r);
	v = r->rate;
	*nrates = r->nrates;
	assert_int_equal(find(s, SQ_RPC_USER, "root")->own, 0);
	sq_snapshot_unref(s);
	sq_snapshot_unref(d);
	return v;
}

static void
test_rates(void **state)
{
	struct sq_rpc_hist *h = sq_rpc_hist_new();
	int n, i;

	(void)state;
	assert_true(isnan(rate(h, 1000, 2, 7, SQ_RPC_USER, "alice", &n)));
	assert_int_equal(n, 0);
	/* 30 of alice's in 30 s: 60 a minute */
	assert_true(
	    fabs(rate(h, 1030, 32, 7, SQ_RPC_USER, "alice", &n) - 60.0) < 1e-9);
	assert_int_equal(n, 1);
	assert_true(
	    fabs(rate(h, 1060, 32, 17, SQ_RPC_TYPE, "REQUEST_JOB_INFO", &n) -
		 20.0) < 1e-9);
	assert_int_equal(n, 2);
	/* the same moment again (a cached answer): its slot, not a step */
	assert_true(
	    fabs(rate(h, 1060, 32, 17, SQ_RPC_TYPE, "REQUEST_JOB_INFO", &n) -
		 20.0) < 1e-9);
	assert_int_equal(sq_rpc_hist_len(h), 3);
	/* counters reset (sdiag -r): no rate for that step */
	assert_true(isnan(rate(h, 1090, 1, 1, SQ_RPC_USER, "alice", &n)));
	assert_true(fabs(rate(h, 1150, 3, 1, SQ_RPC_USER, "alice", &n) - 2.0) <
		    1e-9);
	/* the history keeps SQ_RPC_KEEP reads */
	for (i = 0; i < 2 * SQ_RPC_KEEP; i++)
		(void)rate(h, 1200 + 60 * i, 3 + i, 1, SQ_RPC_USER, "alice",
			   &n);
	assert_int_equal(sq_rpc_hist_len(h), SQ_RPC_KEEP);
	assert_int_equal(n, SQ_RPC_KEEP - 1);
	sq_rpc_hist_free(h);
}

static void
test_parse_value(void **state)
{
	int64_t c, a, t;

	(void)state;
	assert_int_equal(sq_rpc_parse_value(
			     "count=4 ave_time=140 total_time=561", &c, &a, &t),
			 0);
	assert_int_equal(c, 4);
	assert_int_equal(a, 140);
	assert_int_equal(t, 561);
	assert_int_equal(sq_rpc_parse_value("ave_time=1", &c, &a, &t), -1);
	assert_int_equal(sq_rpc_parse_value("count=x", &c, &a, &t), -1);
	assert_int_equal(sq_rpc_parse_value("count=-3", &c, &a, &t), -1);
	assert_int_equal(sq_rpc_parse_value("xcount=3", &c, &a, &t), -1);
	assert_int_equal(sq_rpc_parse_value("count=3", &c, &a, &t), 0);
	assert_int_equal(a, SQ_NONE);
}

static void
test_scopes(void **state)
{
	struct sq_snapshot *d = diag_fixture("rpc/sdiag-22.05.txt");
	struct sq_rpc_hist *h = sq_rpc_hist_new();
	struct sq_snapshot *s = rpc_of(d, h, "");
	size_t i;

	(void)state;
	assert_int_equal(sq_rpc_view_scope("rpc-users"), SQ_RPC_USER);
	assert_int_equal(sq_rpc_view_scope("rpc-types"), SQ_RPC_TYPE);
	sq_rpc_keep(s, SQ_RPC_USER);
	assert_int_equal(s->nrows, 2);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_rpc *r = sq_snapshot_row(s, i);

		assert_int_equal(sq_rpc_row_scope(r), SQ_RPC_USER);
		assert_int_equal(r->own, 0); /* no self known */
	}
	sq_snapshot_unref(s);
	sq_snapshot_unref(d);
	sq_rpc_hist_free(h);
}

static struct sq_snapshot *
trend(struct sq_diag_hist *h, long t, int threads, long cycles)
{
	char text[1024];
	struct sq_snapshot *d, *s = NULL;
	struct sq_err err;

	snprintf(text, sizeof(text),
		 "sdiag output at Sun Dec 06 05:46:00 2026 (%ld)\n"
		 "Server thread count:  %d\n"
		 "Agent queue size:     0\n"
		 "Jobs submitted: 4\n"
		 "\nBackfilling stats\n"
		 "\tTotal cycles: %ld\n"
		 "\tLast cycle: 1500\n",
		 t, threads, cycles);
	d = diag_text(text);
	sq_err_clear(&err);
	assert_int_equal(sq_diag_trend(d, h, &s, &err), 0);
	/* every row of sdiag's after the changed ones */
	assert_int_equal(s->nrows, d->nrows + 5);
	sq_snapshot_unref(d);
	return s;
}

static const char *
changed(const struct sq_snapshot *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(s, i);

		if (strcmp(kv->section, "changed") == 0 &&
		    strcmp(kv->key, key) == 0)
			return kv->value;
	}
	return NULL;
}

/* fuzz find: an sdiag time of 79 digits was cast to a time_t (UB) */
static void
test_diag_trend_time_beyond_clock(void **state)
{
	struct sq_diag_hist *h = sq_diag_hist_new();
	struct sq_snapshot *d, *s = NULL;
	struct sq_err err;
	char text[512];

	(void)state;
	snprintf(text, sizeof(text),
		 "sdiag output at Sun Dec 06 05:46:00 2026 (1%078d)\n"
		 "Server thread count:  3\n"
		 "Jobs submitted: 4\n",
		 0);
	d = diag_text(text);
	d->fetched = 1234;
	assert_int_equal(sq_diag_time(d), 1234);
	sq_err_clear(&err);
	assert_int_equal(sq_diag_trend(d, h, &s, &err), 0);
	assert_string_equal(changed(s, "server threads"),
			    "3 (one read so far)");
	sq_snapshot_unref(s);
	sq_snapshot_unref(d);
	sq_diag_hist_free(h);
}

static void
test_diag_trend(void **state)
{
	struct sq_diag_hist *h = sq_diag_hist_new();
	struct sq_snapshot *s;
	const struct sq_kv *first;

	(void)state;
	s = trend(h, 1000, 3, 10);
	first = sq_snapshot_row(s, 0);
	assert_string_equal(first->section, "changed");
	assert_string_equal(changed(s, "server threads"),
			    "3 (one read so far)");
	assert_string_equal(changed(s, "backfill cycles"),
			    "a rate from the next refresh on");
	assert_null(changed(s, "dbd agent queue")); /* not printed */
	sq_snapshot_unref(s);
	s = trend(h, 1060, 7, 40);
	assert_non_null(strstr(changed(s, "server threads"), "7 (was 3) "));
	/* 30 cycles in a minute */
	assert_int_equal(strncmp(changed(s, "backfill cycles"), "30.0/min", 8),
			 0);
	assert_non_null(strstr(changed(s, "jobs submitted"), "0.0/min"));
	sq_snapshot_unref(s);
	s = trend(h, 1120, 7, 5); /* reset */
	assert_string_equal(changed(s, "backfill cycles"),
			    "no rate (the counters were reset)");
	sq_snapshot_unref(s);
	sq_diag_hist_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sdiag_releases),
		cmocka_unit_test(test_rest_diag),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_parse_value),
		cmocka_unit_test(test_scopes),
		cmocka_unit_test(test_diag_trend),
		cmocka_unit_test(test_rest_user_without_name),
		cmocka_unit_test(test_diag_trend_time_beyond_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
