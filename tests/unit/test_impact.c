/*
 * test_impact.c - unit tests of core/action/impact.c: the running jobs on the
 * target nodes of a drain, down or reboot (host lists on both sides),
 * their time left, the reservations that overlap, the gentler form, and
 * the audit summary.
 */
#include <stdio.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/audit.h"
#include "core/base/buf.h"
#include "core/action/impact.h"
#include "core/model/model.h"
#include "core/model/model_admin.h"
#include "core/model/snapshot.h"
#include "tests/unit/test_util.h"

static void
job(struct sq_snapshot *s, const char *id, const char *user, const char *state,
    const char *nodes, int64_t limit, int64_t used)
{
	struct sq_job *j = sq_snapshot_add(s);

	memset(j, 0, sizeof(*j));
	j->id = sq_snapshot_str(s, id);
	j->user = sq_snapshot_str(s, user);
	j->state = sq_snapshot_str(s, state);
	j->nodelist = sq_snapshot_str(s, nodes);
	j->time_limit = limit;
	j->time_used = used;
}

static void
resv(struct sq_snapshot *s, const char *name, const char *nodes, int64_t start,
     int64_t end)
{
	struct sq_reservation *r = sq_snapshot_add(s);

	memset(r, 0, sizeof(*r));
	r->name = sq_snapshot_str(s, name);
	r->nodes = sq_snapshot_str(s, nodes);
	r->state = sq_snapshot_str(s, "INACTIVE");
	r->start_time = start;
	r->end_time = end;
}

static void
test_drain_and_reboot(void **state)
{
	struct sq_snapshot *jobs =
	    sq_snapshot_new(SQ_KIND_JOBS, sizeof(struct sq_job));
	struct sq_snapshot *res = sq_snapshot_new(
	    SQ_KIND_RESERVATIONS, sizeof(struct sq_reservation));
	struct sq_action a;
	struct sq_err err;
	struct sq_buf t;
	char sum[128];
	const time_t now = 1000000;

	(void)state;
	job(jobs, "12", "alice", "RUNNING", "n[1-3]", 3600, 600);
	job(jobs, "13", "bob", "RUNNING", "n7", 3600, 0);
	job(jobs, "14", "carol", "PENDING", "", 3600, 0);
	job(jobs, "15_2", "dave", "RUNNING", "n2", SQ_INFINITE, 10);
	resv(res, "maint", "n[2-4]", now + 3600, now + 7200);
	resv(res, "old", "n2", now - 7200, now - 3600);
	resv(res, "other", "n9", now, now + 60);

	sq_action_init(&a, SQ_ACTION_NODE_DRAIN);
	assert_int_equal(sq_action_add_target(&a, "n2", &err), 0);
	assert_true(sq_impact_applies(&a));
	sq_buf_init(&t, 0);
	assert_int_equal(
	    sq_impact_format(&a, jobs, res, now, &t, sum, sizeof(sum)), 2);
	assert_string_equal(sum, "12(alice) 15_2(dave)");
	assert_non_null(strstr(sq_buf_str(&t), "0:50:00 left"));
	assert_non_null(strstr(sq_buf_str(&t), "no limit"));
	assert_null(strstr(sq_buf_str(&t), "bob"));
	assert_null(strstr(sq_buf_str(&t), "carol"));
	assert_non_null(strstr(sq_buf_str(&t), "Reservation maint on n[2-4]"));
	assert_null(strstr(sq_buf_str(&t), "Reservation old"));
	assert_null(strstr(sq_buf_str(&t), "Reservation other"));
	assert_non_null(strstr(sq_buf_str(&t), "drain kills nothing"));
	sq_action_free(&a);

	/* a reboot of a host list without asap: the gentler form */
	sq_buf_reset(&t);
	sq_action_init(&a, SQ_ACTION_NODE_REBOOT);
	assert_int_equal(sq_action_add_target(&a, "n[6-7]", &err), 0);
	assert_int_equal(
	    sq_impact_format(&a, jobs, NULL, now, &t, sum, sizeof(sum)), 1);
	assert_string_equal(sum, "13(bob)");
	assert_non_null(strstr(sq_buf_str(&t), "asap nextstate=resume"));
	assert_non_null(strstr(sq_buf_str(&t), "Reservations: unknown"));
	sq_action_free(&a);

	/* nothing there; a job action does not apply */
	sq_buf_reset(&t);
	sq_action_init(&a, SQ_ACTION_NODE_DOWN);
	assert_int_equal(sq_action_add_target(&a, "n8", &err), 0);
	assert_int_equal(
	    sq_impact_format(&a, jobs, res, now, &t, sum, sizeof(sum)), 0);
	assert_string_equal(sum, "none");
	sq_action_free(&a);
	sq_action_init(&a, SQ_ACTION_JOB_CANCEL);
	assert_false(sq_impact_applies(&a));
	sq_action_free(&a);
	sq_buf_free(&t);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(res);
}

static void
test_audit_records_running(void **state)
{
	struct sq_audit_rec r;
	struct sq_action a;
	struct sq_err err;
	struct sq_buf b;

	(void)state;
	sq_action_init(&a, SQ_ACTION_NODE_DRAIN);
	assert_int_equal(sq_action_add_target(&a, "n2", &err), 0);
	memset(&r, 0, sizeof(r));
	r.event = "intent";
	r.id = "1-2-3";
	r.time = 1.0;
	r.action = &a;
	r.command = "scontrol update nodename=n2 state=drain reason=x";
	r.running = "12(alice) 15_2(dave)";
	sq_buf_init(&b, 0);
	assert_int_equal(sq_audit_line(&b, &r), 0);
	assert_non_null(
	    strstr(sq_buf_str(&b), "\"running\":\"12(alice) 15_2(dave)\""));
	sq_buf_reset(&b);
	r.running = NULL;
	assert_int_equal(sq_audit_line(&b, &r), 0);
	assert_null(strstr(sq_buf_str(&b), "running"));
	sq_buf_free(&b);
	sq_action_free(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drain_and_reboot),
		cmocka_unit_test(test_audit_records_running),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
