/*
 * test_actions.c - unit tests of the action table (core/action/action.h): its
 * rows and the states each applies to, the command grammar, validation
 * of hostile values, read-only and bulk policy, and the man page's
 * ACTIONS section against the table. The argv of every action is in
 * test_action_argv.c, the audit log in test_audit.c, verification and
 * act() in test_action_cli.c, reason templates in test_reason.c.
 */
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/cli/actions.h"
#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "core/action/audit.h"
#include "core/action/reason.h"
#include "tests/unit/test_util.h"

static int
parse_fails(const char *line, enum sq_err_code *code)
{
	struct sq_action a;
	struct sq_err err;
	int rc;

	sq_err_clear(&err);
	rc = sq_action_parse(line, -1, NULL, 0, &a, &err);
	if (rc == 0)
		sq_action_free(&a);
	if (code != NULL)
		*code = err.code;
	return rc == -1;
}

/* the states an action applies to (issue 31: hold on a running job) */
static void
test_states(void **state)
{
	const struct sq_action_def *hold = sq_action_def(SQ_ACTION_JOB_HOLD);
	const struct sq_action_def *cancel =
	    sq_action_def(SQ_ACTION_JOB_CANCEL);
	char buf[128];

	(void)state;
	assert_true(sq_action_applies(hold, "PENDING"));
	assert_false(sq_action_applies(hold, "RUNNING"));
	assert_false(sq_action_applies(hold, "PENDINGX"));
	assert_true(sq_action_applies(hold, "")); /* unknown: kept */
	assert_true(sq_action_applies(cancel, "SUSPENDED"));
	assert_false(sq_action_applies(cancel, "COMPLETED"));
	assert_false(
	    sq_action_applies(sq_action_def(SQ_ACTION_JOB_SUSPEND), "PENDING"));
	assert_true(
	    sq_action_applies(sq_action_def(SQ_ACTION_JOB_REQUEUE), "FAILED"));
	assert_true(
	    sq_action_applies(sq_action_def(SQ_ACTION_NODE_DRAIN), "IDLE"));
	sq_action_states_text(hold, buf, sizeof(buf));
	assert_string_equal(buf, "PENDING jobs");
	sq_action_states_text(sq_action_def(SQ_ACTION_JOB_SIGNAL), buf,
			      sizeof(buf));
	assert_string_equal(buf,
			    "RUNNING, SUSPENDED, CONFIGURING or STOPPED jobs");
}

static void
test_table(void **state)
{
	int i, j;

	(void)state;
	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		const struct sq_action_def *d = sq_action_def(i);

		assert_non_null(d);
		assert_int_equal(d->type, i);
		assert_non_null(d->help);
		assert_non_null(d->usage);
		assert_true(d->flags & SQ_ACT_MUTATES);
		assert_true(
		    d->kind == SQ_KIND_JOBS || d->kind == SQ_KIND_NODES ||
		    d->kind == SQ_KIND_RUNAWAY || d->kind == SQ_KIND_ACCOUNTS ||
		    d->kind == SQ_KIND_ASSOCS || d->kind == SQ_KIND_USERS ||
		    d->kind == SQ_KIND_QOS || d->kind == SQ_KIND_RESERVATIONS);
		/* keys are unique within a view */
		for (j = 0; j < i; j++) {
			const struct sq_action_def *o = sq_action_def(j);

			if (d->key != 0 && o->kind == d->kind)
				assert_int_not_equal(o->key, d->key);
		}
		if (d->key != 0)
			assert_ptr_equal(sq_action_for_key(d->kind, d->key), d);
		assert_ptr_equal(sq_action_find(d->name, d->kind), d);
		if (d->inverse != SQ_ACTION_NONE)
			assert_non_null(sq_action_def(d->inverse));
	}
	assert_int_equal(sq_action_find("hold", -1)->type, SQ_ACTION_JOB_HOLD);
	assert_int_equal(sq_action_def(SQ_ACTION_JOB_HOLD)->inverse,
			 SQ_ACTION_JOB_RELEASE);
	assert_int_equal(sq_action_def(SQ_ACTION_NODE_DRAIN)->inverse,
			 SQ_ACTION_NODE_RESUME);
	assert_ptr_equal(sq_action_find("resume", SQ_KIND_NODES),
			 sq_action_def(SQ_ACTION_NODE_RESUME));
	assert_ptr_equal(sq_action_find("delete", SQ_KIND_ACCOUNTS),
			 sq_action_def(SQ_ACTION_ACCT_DELETE_ACCOUNT));
	assert_ptr_equal(sq_action_find("delete", SQ_KIND_ASSOCS),
			 sq_action_def(SQ_ACTION_ACCT_REMOVE_USER));
	assert_null(sq_action_find("nosuch", -1));
	assert_null(sq_action_find("drain", SQ_KIND_JOBS));
	/* reboot's inverse, under both spellings, on the nodes view's X */
	assert_int_equal(sq_action_def(SQ_ACTION_NODE_REBOOT)->inverse,
			 SQ_ACTION_NODE_CANCEL_REBOOT);
	assert_ptr_equal(sq_action_find("cancel-reboot", SQ_KIND_NODES),
			 sq_action_def(SQ_ACTION_NODE_CANCEL_REBOOT));
	assert_ptr_equal(sq_action_for_key(SQ_KIND_NODES, 'X'),
			 sq_action_def(SQ_ACTION_NODE_CANCEL_REBOOT));
}

static void
test_grammar(void **state)
{
	struct sq_action a;
	static const char *const rows[] = { "n3", "n4" };
	static const char *const jobs[] = { "42", "43_2" };
	struct sq_err err;
	char buf[512];

	(void)state;
	sq_test_parse("cancel 123 0124 7_3", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_JOB_CANCEL);
	assert_int_equal(a.ntargets, 3);
	assert_string_equal(a.targets[1], "124"); /* re-printed */
	assert_string_equal(a.targets[2], "7_3");
	sq_action_free(&a);

	sq_test_parse("drain n2 reason=disk full", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_NODE_DRAIN);
	assert_int_equal(a.ntargets, 1);
	assert_string_equal(sq_action_arg(&a, "reason"), "disk full");
	sq_action_free(&a);

	sq_test_parse("drain n[1-3] reason=\"x y\"", -1, &a);
	assert_int_equal(a.ntargets, 3);
	assert_string_equal(a.targets[2], "n3");
	assert_string_equal(sq_action_arg(&a, "reason"), "x y");
	sq_action_free(&a);

	/* the TUI: targets from the selection, bare words fill the reason */
	assert_int_equal(sq_action_parse(":drain disk  full", SQ_KIND_NODES,
					 rows, 2, &a, &err),
			 0);
	assert_int_equal(a.ntargets, 2);
	assert_string_equal(sq_action_arg(&a, "reason"), "disk full");
	sq_action_free(&a);
	assert_int_equal(
	    sq_action_parse("signal sigusr1", SQ_KIND_JOBS, jobs, 2, &a, &err),
	    0);
	assert_string_equal(sq_action_arg(&a, "sig"), "USR1");
	sq_action_free(&a);

	sq_test_parse("signal USR2 55", -1, &a);
	assert_string_equal(sq_action_arg(&a, "sig"), "USR2");
	assert_string_equal(a.targets[0], "55");
	sq_action_free(&a);

	sq_test_parse("update 9 timelimit=60 comment=needs more time nice=-5",
		      -1, &a);
	assert_string_equal(sq_action_arg(&a, "comment"), "needs more time");
	assert_string_equal(sq_action_arg(&a, "nice"), "-5");
	assert_string_equal(sq_action_arg(&a, "timelimit"), "60");
	sq_action_free(&a);

	sq_test_parse("reboot n2 asap nextstate=RESUME", -1, &a);
	assert_string_equal(sq_action_arg(&a, "asap"), "yes");
	assert_string_equal(sq_action_arg(&a, "nextstate"), "resume");
	sq_action_free(&a);

	/* jobs or nodes resume, by the shape of the targets or the view */
	sq_test_parse("resume 77", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_JOB_RESUME);
	sq_action_free(&a);
	sq_test_parse("resume n1", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_NODE_RESUME);
	sq_action_free(&a);
	sq_test_parse("resume n1", SQ_KIND_NODES, &a);
	assert_int_equal(a.type, SQ_ACTION_NODE_RESUME);
	sq_action_free(&a);

	sq_test_parse("setlimit account=chemistry user=bob maxjobs=5", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_ACCT_SET_LIMIT);
	assert_string_equal(a.targets[0], "chemistry/bob");
	sq_action_free(&a);
	sq_test_parse("setlimit chemistry grpjobs=7", -1, &a);
	assert_string_equal(a.targets[0], "chemistry");
	sq_action_free(&a);
	sq_test_parse("adduser bob carol account=chem partition=gpu", -1, &a);
	assert_int_equal(a.ntargets, 2);
	assert_string_equal(a.targets[1], "chem/carol/gpu");
	sq_action_free(&a);
	sq_test_parse("clearlimit account=chem user=bob maxjobs grptres", -1,
		      &a);
	assert_string_equal(sq_action_arg(&a, "limits"), "maxjobs,grptres");
	sq_action_free(&a);
	sq_test_parse("clearlimit chem/bob maxwall", -1, &a);
	assert_string_equal(a.targets[0], "chem/bob");
	assert_string_equal(sq_action_arg(&a, "limits"), "maxwall");
	sq_action_free(&a);

	/* round trip through sq_action_format */
	sq_test_parse("update 9 comment=\"a b\" timelimit=1:00:00", -1, &a);
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	/* arguments in the order of the spec, whatever the order typed */
	assert_string_equal(buf, "update 9 timelimit=1:00:00 comment=\"a b\"");
	sq_action_free(&a);
	sq_test_parse(buf, -1, &a);
	assert_string_equal(sq_action_arg(&a, "comment"), "a b");
	sq_action_free(&a);

	/* usage errors */
	assert_true(parse_fails("", NULL));
	assert_true(parse_fails("frobnicate 1", NULL));
	assert_true(parse_fails("cancel", NULL));
	assert_true(parse_fails("drain n2", NULL));         /* no reason */
	assert_true(parse_fails("update 5", NULL));         /* nothing */
	assert_true(parse_fails("update 5 bogus=1", NULL)); /* key */
	assert_true(parse_fails("delete acct", NULL));      /* ambiguous */
	assert_true(parse_fails("adduser bob", NULL));      /* account= */
	assert_true(parse_fails("reboot n2 nextstate=up", NULL));
	assert_true(parse_fails("clearlimit account=a qos", NULL));
	assert_true(parse_fails("update 5 priority=-1", NULL));
}

static void
test_hostile(void **state)
{
	static const char *const lines[] = {
		"drain n2 reason=it's broken",
		"drain n2 reason=\"a$(reboot)\"",
		"drain n2 reason=`id`",
		"drain n2 reason=back\\slash",
		"drain n2 reason=bang!",
		"drain n2 reason=x\nreboot",
		"update 5 comment=\"say \\\"hi\\\"\"",
		"update 5 comment=$HOME",
		"cancel 123;reboot",
		"cancel $(id)",
		"cancel -1",
		"cancel 1e3",
		"cancel 99999999999",
		"drain n2;id reason=x",
		"drain -n2 reason=x",
		"drain n2' reason=x",
		"update 5 partition=low;id",
		"update 5 account=../etc",
		"update 5 qos=a\tb",
		"setlimit account=chem$(id) maxjobs=5",
		"setlimit account=chem user=bob' maxjobs=5",
		"setlimit account=chem maxjobs=5;id",
		"setlimit account=chem grptres=cpu=1 mem=2",
		"setlimit account=chem grptres=cpu=$(id)",
		"setlimit account=chem maxwall=1:00:00;id",
		"signal 5 sig=USR1;id",
		"signal 5 sig=99",
		"addaccount new description=\"x'y\"",
		"addcoord chem user=bob,$(id)",
		"setqos low preemptmode=cancel;id",
		NULL,
	};
	enum sq_err_code code;
	int i;

	(void)state;
	for (i = 0; lines[i] != NULL; i++) {
		if (!parse_fails(lines[i], &code))
			fail_msg("accepted hostile line: %s", lines[i]);
	}
	/* what is refused is a value, reported as denied */
	assert_true(parse_fails("drain n2 reason=it's", &code));
	assert_int_equal(code, SQ_ERR_DENIED);
	assert_true(parse_fails("cancel 1;2", &code));
	assert_int_equal(code, SQ_ERR_DENIED);
}

static void
test_policy(void **state)
{
	struct sq_action a;
	struct sq_err err;
	char line[256];

	(void)state;
	sq_test_parse("hold 1", -1, &a);
	assert_int_equal(sq_action_policy_check(&a, 0, &err), 0);
	assert_int_equal(sq_action_policy_check(&a, 1, &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
	assert_non_null(strstr(err.msg, "read-only"));
	assert_false(sq_action_visible(a.def, 1));
	assert_true(sq_action_visible(a.def, 0));
	assert_false(sq_action_needs_count(&a));
	sq_action_free(&a);

	sq_test_parse("cancel 1 2 3 4 5 6 7 8 9 10", -1, &a);
	assert_false(sq_action_needs_count(&a)); /* 10: not more than 10 */
	sq_action_free(&a);
	snprintf(line, sizeof(line), "cancel 1 2 3 4 5 6 7 8 9 10 11");
	sq_test_parse(line, -1, &a);
	assert_true(sq_action_needs_count(&a));
	assert_true(sq_action_count_confirmed(&a, "11"));
	assert_true(sq_action_count_confirmed(&a, " 11 "));
	assert_false(sq_action_count_confirmed(&a, "10"));
	assert_false(sq_action_count_confirmed(&a, "y"));
	assert_false(sq_action_count_confirmed(&a, ""));
	assert_false(sq_action_count_confirmed(&a, "11x"));
	sq_action_free(&a);

	assert_true(sq_action_answer_yes("y"));
	assert_true(sq_action_answer_yes("Y"));
	assert_true(sq_action_answer_yes("yes"));
	assert_false(sq_action_answer_yes(""));
	assert_false(sq_action_answer_yes("n"));
	assert_false(sq_action_answer_yes("\x1b"));
	assert_false(sq_action_answer_yes("yy"));
	assert_false(sq_action_answer_yes(NULL));
}

/* man/squall.1's ACTIONS section lists every action with its key and
 * view, as the table has them, and nothing else. */
static void
test_man_actions(void **state)
{
	FILE *fp = fopen("man/squall.1", "r");
	char line[1024], want[128];
	static char items[64][512], bodies[64][2048];
	int n = 0, in = 0, i, k;

	(void)state;
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, ".Sh ", 4) == 0)
			in = strcmp(line, ".Sh ACTIONS") == 0;
		else if (in && strncmp(line, ".It Ic ", 7) == 0 && n < 64) {
			bodies[n][0] = '\0';
			snprintf(items[n++], sizeof(items[0]), "%.500s",
				 line + 7);
		} else if (in && n > 0 &&
			   strlen(bodies[n - 1]) + strlen(line) + 2 <
			       sizeof(bodies[0])) {
			strcat(bodies[n - 1], line);
			strcat(bodies[n - 1], "\n");
		}
	}
	fclose(fp);
	assert_true(n > 20);
	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		const struct sq_action_def *d = sq_action_def(i);
		int found = 0;

		if (d->key)
			snprintf(want, sizeof(want), "Pq Cm %c , %s", d->key,
				 sq_kind_name(d->kind));
		else
			snprintf(want, sizeof(want), "Pq %s",
				 sq_kind_name(d->kind));
		for (k = 0; k < n && !found; k++) {
			size_t l = strlen(d->name), wl = strlen(want);
			size_t il = strlen(items[k]);

			found = strncmp(items[k], d->name, l) == 0 &&
				(items[k][l] == ' ' || items[k][l] == '\0') &&
				il >= wl &&
				strcmp(items[k] + il - wl, want) == 0;
		}
		if (!found)
			fail_msg("man ACTIONS lacks '.It Ic %s ... %s'",
				 d->name, want);
	}
	/* the states each action applies to, as the table says: the
	 * sentence follows the action's .It line, before the next one */
	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		const struct sq_action_def *d = sq_action_def(i);
		char text[256];

		if (d->states == NULL)
			continue;
		sq_action_states_text(d, want, sizeof(want));
		snprintf(text, sizeof(text), "Applies to %s.", want);
		for (k = 0; k < n; k++) {
			if (strncmp(items[k], d->name, strlen(d->name)) == 0 &&
			    strstr(items[k], sq_kind_name(d->kind)) != NULL)
				break;
		}
		if (k == n || strstr(bodies[k], text) == NULL)
			fail_msg("man ACTIONS: %s lacks '%s'", d->name, text);
	}
	for (k = 0; k < n; k++) {
		char name[64];

		sscanf(items[k], "%63s", name);
		if (sq_action_find(name, -1) == NULL &&
		    strcmp(name, "audit") != 0 && strcmp(name, "undo") != 0)
			fail_msg("man ACTIONS lists unknown action %s", name);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_man_actions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
