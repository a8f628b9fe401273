/*
 * test_resv.c - unit tests of reservations as actions: the start and end
 * words (core/action/resv.c), the flags, the reservations view's time to start
 * and 7-day strip, the impact of a reservation on its nodes' jobs
 * (core/action/resv_impact.c), and the CLI's verification and inverse
 * (backends/cli/actions_resv.c). TZ is UTC throughout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/actions.h"
#include "core/action/action.h"
#include "core/base/buf.h"
#include "core/model/model.h"
#include "core/model/model_admin.h"
#include "core/action/resv.h"
#include "core/model/snapshot.h"
#include "tests/unit/test_util.h"

/* 2026-12-06T03:00:00Z */
#define NOW ((time_t)1796526000)

static int
utc(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

static void
test_times(void **state)
{
	struct sq_err err;
	int64_t t;
	int rel;
	char b[40];

	(void)state;
	assert_int_equal(sq_resv_time("now", NOW, &t, &rel), 0);
	assert_true(t == NOW && rel == 1);
	assert_int_equal(sq_resv_time("now+600", NOW, &t, &rel), 0);
	assert_true(t == NOW + 600);
	assert_int_equal(sq_resv_time("now+10minutes", NOW, &t, NULL), 0);
	assert_true(t == NOW + 600);
	assert_int_equal(sq_resv_time("now+1hour", NOW, &t, NULL), 0);
	assert_true(t == NOW + 3600);
	assert_int_equal(sq_resv_time("NOW+2days", NOW, &t, NULL), 0);
	assert_true(t == NOW + 2 * 86400);
	assert_int_equal(sq_resv_time("2026-12-06T05:30", NOW, &t, &rel), 0);
	assert_true(t == NOW + 2 * 3600 + 1800 && rel == 0);
	assert_int_equal(sq_resv_time("2026-12-07", NOW, &t, NULL), 0);
	assert_true(t == NOW + 21 * 3600);
	assert_int_equal(sq_resv_time("2026-12-06T03:00:10", NOW, &t, NULL), 0);
	assert_true(t == NOW + 10);
	sq_resv_time_format(NOW + 10, b, sizeof(b));
	assert_string_equal(b, "2026-12-06T03:00:10");
	/* what scontrol would read otherwise, or a shell */
	assert_int_equal(sq_resv_valid_time("now-1hour", &err), -1);
	assert_int_equal(sq_resv_valid_time("now+1fortnight", &err), -1);
	assert_int_equal(sq_resv_valid_time("now+", &err), -1);
	assert_int_equal(sq_resv_valid_time("tomorrow", &err), -1);
	assert_int_equal(sq_resv_valid_time("2026-13-01", &err), -1);
	assert_int_equal(sq_resv_valid_time("2026-12-06T25:00", &err), -1);
	assert_int_equal(sq_resv_valid_time("2026-12-06 05:00", &err), -1);
	assert_int_equal(sq_resv_valid_time("now;id", &err), -1);
	assert_int_equal(sq_resv_valid_time("$(id)", &err), -1);
	assert_int_equal(sq_resv_valid_time("", &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
}

static void
test_flags(void **state)
{
	struct sq_err err;
	char b[128];

	(void)state;
	assert_int_equal(
	    sq_resv_valid_flags("maint,ignore_jobs", b, sizeof(b), &err), 0);
	assert_string_equal(b, "MAINT,IGNORE_JOBS");
	assert_int_equal(
	    sq_resv_valid_flags("MAINT,SPEC_NODES", b, sizeof(b), &err), -1);
	assert_non_null(strstr(err.msg, "SPEC_NODES"));
	assert_int_equal(sq_resv_valid_flags("maint;id", b, sizeof(b), &err),
			 -1);
	/* an update's changes: a sign holds for the names after it */
	assert_int_equal(sq_resv_valid_flag_changes("-maint,daily,+flex", b,
						    sizeof(b), &err),
			 0);
	assert_string_equal(b, "-MAINT,-DAILY,+FLEX");
	assert_int_equal(
	    sq_resv_valid_flag_changes("ignore_jobs", b, sizeof(b), &err), 0);
	assert_string_equal(b, "+IGNORE_JOBS");
	assert_int_equal(
	    sq_resv_valid_flag_changes("-overlap", b, sizeof(b), &err), -1);
	assert_int_equal(sq_resv_valid_flag_changes("+", b, sizeof(b), &err),
			 -1);
	assert_int_equal(sq_resv_valid_flags(",", b, sizeof(b), &err), -1);
	assert_true(sq_resv_flag_settable("overlap"));
	assert_false(sq_resv_flag_settable("SPEC_NODES"));
}

static void
parse_ok(const char *line, struct sq_action *a)
{
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_action_parse(line, -1, NULL, 0, a, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
}

static void
parse_bad(const char *line, const char *why)
{
	struct sq_action a;
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_action_parse(line, -1, NULL, 0, &a, &err) == 0)
		fail_msg("'%s' parsed", line);
	if (strstr(err.msg, why) == NULL)
		fail_msg("'%s': '%s' lacks '%s'", line, err.msg, why);
}

static void
test_parse(void **state)
{
	struct sq_action a;
	char b[512];

	(void)state;
	parse_ok("reserve m1 start=now+10minutes duration=60 nodes=n[1-2] "
		 "users=root,alice flags=maint",
		 &a);
	assert_int_equal(a.type, SQ_ACTION_RESV_CREATE);
	assert_string_equal(a.targets[0], "m1");
	assert_string_equal(sq_action_arg(&a, "flags"), "MAINT");
	assert_int_equal(sq_action_format(&a, b, sizeof(b)), 0);
	assert_string_equal(b, "reserve m1 start=now+10minutes duration=60 "
			       "nodes=n[1-2] users=root,alice flags=MAINT");
	sq_action_free(&a);
	parse_ok("reserve m2 start=2026-12-24T08:00 end=2026-12-24T18:00 "
		 "partition=gpu accounts=physics",
		 &a);
	sq_action_free(&a);
	parse_ok("reserve m3 start=now duration=UNLIMITED nodes=ALL users=root",
		 &a);
	sq_action_free(&a);
	parse_bad("reserve m1 duration=60 nodes=n1 users=root", "start=");
	parse_bad("reserve m1 start=now nodes=n1 users=root", "duration=");
	parse_bad("reserve m1 start=now duration=60 users=root", "nodes=");
	parse_bad("reserve m1 start=now duration=60 nodes=n1", "users=");
	parse_bad("reserve m1 m2 start=now duration=60 nodes=n1 users=root",
		  "one reservation");
	parse_bad("reserve m1 start=now duration=60 nodes='n1;id' users=root",
		  "");
	parse_bad("reserve 'm 1' start=now duration=60 nodes=n1 users=root",
		  "");
	parse_bad("reserve m1 start=now duration=60 nodes=n1 users=root "
		  "flags=maint,bogus",
		  "bogus");
	parse_bad("reserve-update m1", "nothing to change");
	parse_bad("reserve-update m1 flags=overlap", "cannot be changed");
	parse_bad("reserve-update m1 flags=+maint;id", "cannot be changed");
}

static void
test_strip(void **state)
{
	char b[64];

	(void)state;
	/* today 00-24 is the first day: now is 03:00 */
	sq_resv_strip(NOW + 3 * 3600, NOW + 9 * 3600, NOW, b, sizeof(b));
	assert_string_equal(b, ".#..|....|....|....|....|....|....");
	sq_resv_strip(NOW + 2 * 3600, NOW + 10 * 3600, NOW, b, sizeof(b));
	assert_string_equal(b, "###.|....|....|....|....|....|....");
	sq_resv_strip(NOW + 21 * 3600 + 86400, NOW + 21 * 3600 + 2 * 86400, NOW,
		      b, sizeof(b));
	assert_string_equal(b, "....|....|####|....|....|....|....");
	sq_resv_strip(NOW - 3600, -1, NOW, b, sizeof(b));
	assert_string_equal(b, "####|####|####|####|####|####|####");
	sq_resv_strip(NOW + 30 * 86400, NOW + 31 * 86400, NOW, b, sizeof(b));
	assert_string_equal(b, "....|....|....|....|....|....|....");
	sq_resv_starts_in(NOW + 3900, NOW + 7200, NOW, b, sizeof(b));
	assert_string_equal(b, "in 1h05m");
	sq_resv_starts_in(NOW - 60, NOW + 600, NOW, b, sizeof(b));
	assert_string_equal(b, "active, 10m left");
	sq_resv_starts_in(NOW - 600, NOW - 60, NOW, b, sizeof(b));
	assert_string_equal(b, "ended");
}

static void
job(struct sq_snapshot *s, const char *id, const char *state, const char *part,
    const char *nodes, int32_t limit, int32_t used)
{
	struct sq_job *j = sq_snapshot_add(s);

	memset(j, 0, sizeof(*j));
	j->id = sq_snapshot_str(s, id);
	j->user = sq_snapshot_str(s, "alice");
	j->state = sq_snapshot_str(s, state);
	j->partition = sq_snapshot_str(s, part);
	j->nodelist = sq_snapshot_str(s, nodes);
	j->time_limit = limit;
	j->time_used = used;
}

static void
node(struct sq_snapshot *s, const char *name, const char *parts)
{
	struct sq_node *n = sq_snapshot_add(s);

	memset(n, 0, sizeof(*n));
	n->name = sq_snapshot_str(s, name);
	n->partitions = sq_snapshot_str(s, parts);
}

struct world {
	struct sq_snapshot *jobs, *nodes, *res;
};

static void
world(struct world *w)
{
	struct sq_reservation *r;

	w->jobs = sq_snapshot_new(SQ_KIND_JOBS, sizeof(struct sq_job));
	w->nodes = sq_snapshot_new(SQ_KIND_NODES, sizeof(struct sq_node));
	w->res = sq_snapshot_new(SQ_KIND_RESERVATIONS,
				 sizeof(struct sq_reservation));
	/* 11 on n1 ends in 1h50m; 12 on n2 in 5m; 13 on n3 (gpu) no limit */
	job(w->jobs, "11", "RUNNING", "low", "n1", 7200, 600);
	job(w->jobs, "12", "RUNNING", "low", "n[2]", 600, 300);
	job(w->jobs, "13", "RUNNING", "gpu", "n3", SQ_INFINITE, 60);
	/* pending: 21 needs an hour, 22 five minutes, 23 is gpu's */
	job(w->jobs, "21", "PENDING", "low,high", "", 3600, 0);
	job(w->jobs, "22", "PENDING", "low", "", 300, 0);
	job(w->jobs, "23", "PENDING", "gpu", "", 3600, 0);
	node(w->nodes, "n1", "low*,high");
	node(w->nodes, "n2", "low*,high");
	node(w->nodes, "n3", "gpu");
	r = sq_snapshot_add(w->res);
	memset(r, 0, sizeof(*r));
	r->name = sq_snapshot_str(w->res, "r2");
	r->nodes = sq_snapshot_str(w->res, "n2");
	r->partition = r->flags = "";
	r->start_time = NOW + 100;
	r->end_time = NOW + 3700;
}

static void
unworld(struct world *w)
{
	sq_snapshot_unref(w->jobs);
	sq_snapshot_unref(w->nodes);
	sq_snapshot_unref(w->res);
}

/* The impact of line: its return, the text into t (reset). */
static int
impact(struct world *w, const char *line, struct sq_buf *t, char *sum)
{
	struct sq_action a;
	int rc;

	parse_ok(line, &a);
	sq_buf_free(t);
	sq_buf_init(t, 0);
	rc = sq_resv_impact(&a, w->jobs, w->nodes, w->res, NOW, t, sum, 64);
	sq_action_free(&a);
	return rc;
}

static void
test_impact(void **state)
{
	struct world w;
	struct sq_buf t;
	char sum[64];
	const char *s;

	(void)state;
	world(&w);
	sq_buf_init(&t, 0);
	assert_int_equal(impact(&w,
				"reserve m start=now+10minutes duration=60 "
				"nodes=n1 users=root",
				&t, sum),
			 1);
	s = sq_buf_str(&t);
	assert_string_equal(sum, "11");
	assert_non_null(strstr(s, "from 2026-12-06T03:10:00 (in 10m) to "
				  "2026-12-06T04:10:00 on nodes n1"));
	assert_non_null(strstr(s, "11 (alice) on n1: ends 2026-12-06T04:50:00, "
				  "1h40m after the start"));
	assert_non_null(strstr(s, "Requested nodes are busy"));
	/* 21 needs an hour of the 10m left; 22 fits; 23 is not on n1 */
	assert_non_null(strstr(s, "(10m left): 1: 21\n"));
	assert_non_null(strstr(s, "the last running job there ends "
				  "2026-12-06T04:50:00 (in 1h50m)"));

	/* IGNORE_JOBS: reserved anyway, said so */
	impact(&w,
	       "reserve m start=now+10minutes duration=60 nodes=n1 users=root "
	       "flags=ignore_jobs",
	       &t, sum);
	assert_non_null(strstr(sq_buf_str(&t), "flags has IGNORE_JOBS"));
	assert_null(strstr(sq_buf_str(&t), "Requested nodes are busy"));

	/* partition=low: n1 and n2; 12 ends before the start */
	assert_int_equal(impact(&w,
				"reserve m start=now+10minutes duration=60 "
				"partition=low users=root",
				&t, sum),
			 1);
	assert_string_equal(sum, "11");
	assert_non_null(strstr(sq_buf_str(&t), "on partition low"));

	/* a start in two hours: nobody runs past it, the last job ends */
	assert_int_equal(impact(&w,
				"reserve m start=now+2hours duration=60 "
				"nodes=n[1-2] users=root",
				&t, sum),
			 0);
	assert_string_equal(sum, "none");
	s = sq_buf_str(&t);
	assert_non_null(strstr(s, "past the start: 0\n"));
	assert_non_null(strstr(s, "pending jobs: none there needs more"));

	/* a job without a time limit */
	impact(&w, "reserve m start=now+1day duration=60 nodes=n3 users=root",
	       &t, sum);
	assert_string_equal(sum, "13");
	assert_non_null(strstr(sq_buf_str(&t), "no time limit"));
	assert_non_null(strstr(sq_buf_str(&t), "it may never end"));

	/* reserve-update: the nodes and start of r2 as they are */
	assert_int_equal(impact(&w, "reserve-update r2 duration=30", &t, sum),
			 1);
	assert_string_equal(sum, "12");
	assert_non_null(strstr(sq_buf_str(&t), "to 2026-12-06T03:31:40 on "
					       "nodes n2"));
	/* the flags it has, changed by the update's +/- */
	impact(&w, "reserve-update r2 flags=+ignore_jobs", &t, sum);
	assert_non_null(strstr(sq_buf_str(&t), "flags has IGNORE_JOBS"));
	impact(&w, "reserve-update r2 flags=-maint", &t, sum);
	assert_non_null(strstr(sq_buf_str(&t), "Requested nodes are busy"));
	assert_int_equal(impact(&w, "reserve-update nope duration=30", &t, sum),
			 -1);
	assert_non_null(strstr(sq_buf_str(&t), "not read"));
	sq_buf_free(&t);
	unworld(&w);
}

static void
test_impact_unknown(void **state)
{
	struct sq_action a;
	struct sq_buf t;
	char sum[64];

	(void)state;
	parse_ok("reserve m start=now duration=60 nodes=n1 users=root", &a);
	sq_buf_init(&t, 0);
	assert_int_equal(
	    sq_resv_impact(&a, NULL, NULL, NULL, NOW, &t, sum, sizeof(sum)),
	    -1);
	assert_non_null(strstr(sq_buf_str(&t), "jobs: not known"));
	sq_buf_free(&t);
	sq_buf_init(&t, 0);
	{
		struct world w;

		world(&w);
		sq_resv_impact(&a, w.jobs, NULL, NULL, NOW, &t, sum,
			       sizeof(sum));
		assert_non_null(strstr(sq_buf_str(&t), "pending jobs: not "
						       "known"));
		unworld(&w);
	}
	sq_buf_free(&t);
	sq_action_free(&a);
	parse_ok("reserve-delete m", &a);
	assert_false(sq_resv_impact_applies(&a));
	sq_action_free(&a);
}

static void
rec(struct sq_cli_rec *r, const char *const *kv)
{
	memset(r, 0, sizeof(*r));
	r->found = 1;
	for (; kv[0] != NULL; kv += 2) {
		snprintf(r->key[r->n], sizeof(r->key[0]), "%s", kv[0]);
		r->val[r->n++] = strdup(kv[1]);
	}
}

static void
test_cli_verify_inverse(void **state)
{
	static const char *const kv[] = {
		"State",      "INACTIVE",      "StartTime",
		"1796527800",               /* 03:30 */
		"EndTime",    "1796531400", /* 04:30 */
		"Duration",   "3600",          "Nodes",
		"n[1-2]",     "PartitionName", "",
		"Users",      "root,alice",    "Accounts",
		"",           "Flags",         "MAINT,IGNORE_JOBS,SPEC_NODES",
		NULL
	};
	struct sq_cli_state st;
	struct sq_cli_rec r;
	struct sq_action a;
	char msg[256], buf[1024];

	(void)state;
	rec(&r, kv);
	memset(&st, 0, sizeof(st));
	st.n = 1;
	st.ok = 1;
	st.rec = &r;

	parse_ok("reserve m start=2026-12-06T03:30 duration=60 nodes=n1,n2 "
		 "users=alice,root flags=maint",
		 &a);
	assert_int_equal(sq_cli_verify_resv(&a, &r, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	sq_cli_resv_inverse(&a, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "reserve-delete m");
	sq_action_free(&a);
	parse_ok("reserve m start=2026-12-06T03:30 duration=30 nodes=n1 "
		 "users=root",
		 &a);
	assert_int_equal(sq_cli_verify_resv(&a, &r, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_non_null(strstr(msg, "duration"));
	sq_action_free(&a);

	parse_ok("reserve-update m duration=90 users=bob", &a);
	sq_cli_resv_inverse(&a, &st, buf, sizeof(buf));
	assert_string_equal(buf, "reserve-update m end=2026-12-06T04:30:00 "
				 "users=root,alice");
	sq_action_free(&a);
	/* flags: verified by what was added and taken away; the undo
	 * changes back only what changed (MAINT was there already) */
	parse_ok("reserve-update m flags=+maint,-daily,+flex", &a);
	assert_int_equal(sq_cli_verify_resv(&a, &r, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_non_null(strstr(msg, "flags is MAINT,IGNORE_JOBS,SPEC_NODES"));
	sq_cli_resv_inverse(&a, &st, buf, sizeof(buf));
	assert_string_equal(buf, "reserve-update m flags=-FLEX");
	sq_action_free(&a);
	parse_ok("reserve-update m flags=-daily,+ignore_jobs", &a);
	assert_int_equal(sq_cli_verify_resv(&a, &r, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	sq_action_free(&a);
	parse_ok("reserve-update m flags=-ignore_jobs", &a);
	sq_cli_resv_inverse(&a, &st, buf, sizeof(buf));
	assert_string_equal(buf, "reserve-update m flags=+IGNORE_JOBS");
	sq_action_free(&a);
	parse_ok("reserve-update m start=now+1day", &a);
	sq_cli_resv_inverse(&a, &st, buf, sizeof(buf));
	/* a start gone by is "now" again */
	assert_non_null(strstr(buf, "reserve-update m start="));
	assert_non_null(strstr(buf, "end=2026-12-06T04:30:00"));
	sq_action_free(&a);

	parse_ok("reserve-delete m", &a);
	assert_int_equal(sq_cli_verify_resv(&a, &r, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	sq_cli_resv_inverse(&a, &st, buf, sizeof(buf));
	/* SPEC_NODES is Slurm's own: not given again */
	assert_non_null(strstr(buf,
			       "end=2026-12-06T04:30:00 nodes=n[1-2] "
			       "users=root,alice flags=MAINT,IGNORE_JOBS"));
	r.found = 0;
	assert_int_equal(sq_cli_verify_resv(&a, &r, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	sq_action_free(&a);
	for (size_t i = 0; i < r.n; i++)
		free(r.val[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_strip),
		cmocka_unit_test(test_impact),
		cmocka_unit_test(test_impact_unknown),
		cmocka_unit_test(test_cli_verify_inverse),
	};

	return cmocka_run_group_tests(tests, utc, NULL);
}
