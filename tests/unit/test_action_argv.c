/*
 * test_action_argv.c - unit tests of the CLI backend's commands for the
 * actions (backends/cli/actions.c): the describe() line of every
 * action, sacctmgr always with -i, the exact argv, and every action of
 * the table walked through its argv template.
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

/* describe() of a parsed line, without a backend. */
static void
cmd_of(const char *line, char *buf, size_t n)
{
	struct sq_action a;
	struct sq_cli_cmds c;
	struct sq_err err;

	sq_test_parse(line, -1, &a);
	if (sq_cli_action_cmds(&a, NULL, NULL, &c, &err) != 0)
		fail_msg("cmds '%s': %s", line, err.msg);
	assert_int_equal(sq_cli_cmds_format(&c, buf, n), 0);
	sq_cli_cmds_free(&c);
	sq_action_free(&a);
}

static void
test_describe_jobs(void **state)
{
	char b[1024];

	(void)state;
	cmd_of("cancel 123", b, sizeof(b));
	assert_string_equal(b, "scancel 123");
	cmd_of("cancel 123 124 5_7", b, sizeof(b));
	assert_string_equal(b, "scancel 123 124 5_7");
	cmd_of("signal 123 sig=SIGUSR1", b, sizeof(b));
	assert_string_equal(b, "scancel --full --signal=USR1 123");
	cmd_of("hold 123 124", b, sizeof(b));
	assert_string_equal(b, "scontrol hold 123,124");
	cmd_of("release 123", b, sizeof(b));
	assert_string_equal(b, "scontrol release 123");
	cmd_of("requeue 123", b, sizeof(b));
	assert_string_equal(b, "scontrol requeue 123");
	cmd_of("requeuehold 123", b, sizeof(b));
	assert_string_equal(b, "scontrol requeuehold 123");
	cmd_of("suspend 123", b, sizeof(b));
	assert_string_equal(b, "scontrol suspend 123");
	cmd_of("resume 123", b, sizeof(b));
	assert_string_equal(b, "scontrol resume 123");
	cmd_of("update 123 timelimit=60", b, sizeof(b));
	assert_string_equal(b, "scontrol update jobid=123 timelimit=60");
	cmd_of("update 1 2 nice=10 priority=5 partition=high qos=low "
	       "account=chem comment=two words",
	       b, sizeof(b));
	assert_string_equal(b, "scontrol update jobid=1,2 nice=10 priority=5 "
			       "partition=high qos=low account=chem "
			       "comment='two words'");
}

static void
test_describe_nodes(void **state)
{
	char b[1024];

	(void)state;
	cmd_of("drain n2 reason=disk full", b, sizeof(b));
	assert_string_equal(
	    b, "scontrol update nodename=n2 state=drain reason='disk full'");
	cmd_of("down n[1-2] reason=psu", b, sizeof(b));
	assert_string_equal(
	    b, "scontrol update nodename=n1,n2 state=down reason=psu");
	cmd_of("resume n2", b, sizeof(b));
	assert_string_equal(b, "scontrol update nodename=n2 state=resume");
	cmd_of("reason n2 reason=new; text (ok)", b, sizeof(b));
	assert_string_equal(
	    b, "scontrol update nodename=n2 reason='new; text (ok)'");
	cmd_of("reboot n2 n3 asap nextstate=down reason=bios", b, sizeof(b));
	assert_string_equal(
	    b, "scontrol reboot ASAP nextstate=down reason=bios n2,n3");
	cmd_of("reboot n2", b, sizeof(b));
	assert_string_equal(b, "scontrol reboot n2");
	cmd_of("cancelreboot n2", b, sizeof(b));
	assert_string_equal(b, "scontrol cancel_reboot n2");
}

static void
test_describe_accounting(void **state)
{
	char b[1024];

	(void)state;
	cmd_of("setlimit account=chemistry user=bob maxjobs=5", b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i modify user where name=bob "
			       "account=chemistry partition= set maxjobs=5");
	cmd_of("setlimit chemistry grptres=gres/gpu=6 grpjobs=10 grpsubmit=20 "
	       "maxsubmit=30 maxtres=cpu=8 maxwall=2-00:00:00 qos=normal,low "
	       "defaultqos=normal fairshare=40",
	       b, sizeof(b));
	assert_string_equal(
	    b, "sacctmgr -i modify account where name=chemistry set "
	       "grptres=gres/gpu=6 grpjobs=10 grpsubmitjobs=20 "
	       "maxsubmitjobs=30 maxtres=cpu=8 "
	       "maxwalldurationperjob=2-00:00:00 qos=normal,low "
	       "defaultqos=normal fairshare=40");
	cmd_of("setlimit account=chem user=bob partition=gpu maxjobs=-1", b,
	       sizeof(b));
	assert_string_equal(b, "sacctmgr -i modify user where name=bob "
			       "account=chem partition=gpu set maxjobs=-1");
	cmd_of("clearlimit account=chem user=bob maxjobs maxwall", b,
	       sizeof(b));
	assert_string_equal(b, "sacctmgr -i modify user where name=bob "
			       "account=chem partition= set maxjobs=-1 "
			       "maxwalldurationperjob=-1");
	cmd_of("addaccount bio parent=chemistry description=Bio lab "
	       "organization=uni fairshare=5",
	       b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i add account bio parent=chemistry "
			       "description='Bio lab' organization=uni "
			       "fairshare=5");
	cmd_of("modaccount bio fairshare=parent", b, sizeof(b));
	assert_string_equal(
	    b,
	    "sacctmgr -i modify account where name=bio set fairshare=parent");
	cmd_of("delaccount bio", b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i delete account where name=bio");
	cmd_of("adduser bob account=bio defaultaccount=bio", b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i add user bob account=bio "
			       "defaultaccount=bio");
	cmd_of("adduser bob account=bio partition=gpu", b, sizeof(b));
	assert_string_equal(
	    b, "sacctmgr -i add user bob account=bio partition=gpu");
	cmd_of("deluser bob carol account=bio", b, sizeof(b));
	assert_string_equal(
	    b, "sacctmgr -i delete user where name=bob account=bio partition=\n"
	       "sacctmgr -i delete user where name=carol account=bio "
	       "partition=");
	cmd_of("addcoord bio user=bob,carol", b, sizeof(b));
	assert_string_equal(
	    b, "sacctmgr -i add coordinator account=bio names=bob,carol");
	cmd_of("delcoord bio user=bob", b, sizeof(b));
	assert_string_equal(
	    b, "sacctmgr -i remove coordinator account=bio names=bob");
	cmd_of("setqos low priority=20 maxtresperuser=cpu=4 "
	       "maxjobsperuser=3 preempt=normal preemptmode=requeue",
	       b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i modify qos where name=low set "
			       "priority=20 maxtresperuser=cpu=4 "
			       "maxjobsperuser=3 preempt=normal "
			       "preemptmode=requeue");
}

/* Every sacctmgr command has -i right after the program name. */
static void
test_sacctmgr_always_i(void **state)
{
	static const char *const lines[] = { "addaccount a",
					     "modaccount a fairshare=1",
					     "delaccount a",
					     "addcoord a user=b",
					     "delcoord a user=b",
					     "adduser b account=a",
					     "deluser b account=a",
					     "setlimit a maxjobs=1",
					     "clearlimit account=a maxjobs",
					     "setqos q priority=1",
					     NULL };
	int i;

	(void)state;
	for (i = 0; lines[i] != NULL; i++) {
		struct sq_action a;
		struct sq_cli_cmds c;
		struct sq_err err;
		size_t k;

		sq_test_parse(lines[i], -1, &a);
		assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &c, &err),
				 0);
		assert_true(c.n >= 1);
		for (k = 0; k < c.n; k++) {
			assert_string_equal(c.v[k].argv[0], "sacctmgr");
			assert_string_equal(c.v[k].argv[1], "-i");
		}
		sq_cli_cmds_free(&c);
		sq_action_free(&a);
	}
}

static const char *
fake_lookup(void *ctx, size_t i, const char *key)
{
	(void)ctx;
	(void)i;
	return strcmp(key, "GrpTRES") == 0 ? "cpu=4,mem=1G" : NULL;
}

static void
test_argv_exact(void **state)
{
	struct sq_action a;
	struct sq_cli_cmds c;
	struct sq_err err;

	(void)state;
	/* an argv element holds the value whole: no shell, no splitting */
	sq_test_parse("drain n2 reason=disk full; see #12", -1, &a);
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &c, &err), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.v[0].argc, 5);
	assert_string_equal(c.v[0].argv[4], "reason=disk full; see #12");
	assert_null(c.v[0].argv[5]);
	sq_cli_cmds_free(&c);
	sq_action_free(&a);

	/* clearlimit of a TRES limit names each TRES set now */
	sq_test_parse("clearlimit account=chem user=bob grptres", -1, &a);
	assert_int_equal(sq_cli_action_cmds(&a, fake_lookup, NULL, &c, &err),
			 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].argv[c.v[0].argc - 1],
			    "grptres=cpu=-1,mem=-1");
	sq_cli_cmds_free(&c);
	/* and nothing runs when none is set */
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &c, &err), 0);
	assert_int_equal(c.n, 0);
	sq_cli_cmds_free(&c);
	sq_action_free(&a);
}

/* Every action of the table (core/action/action.h) through its argv template
 * (backends/cli/actions.c), as the preview shows it. Submit is sbatch
 * (test_submit.c). */
static const struct {
	const char *line;
	int kind;
	const char *cmd;
} walk[] = {
	{ "cancel 1 2", -1, "scancel 1 2" },
	{ "signal 1 sig=USR1", -1, "scancel --full --signal=USR1 1" },
	{ "hold 1 2", -1, "scontrol hold 1,2" },
	{ "release 1", -1, "scontrol release 1" },
	{ "requeue 1", -1, "scontrol requeue 1" },
	{ "requeuehold 1", -1, "scontrol requeuehold 1" },
	{ "suspend 1", -1, "scontrol suspend 1" },
	{ "resume 1", SQ_KIND_JOBS, "scontrol resume 1" },
	{ "update 1 2 timelimit=60 comment=hi", -1,
	  "scontrol update jobid=1,2 timelimit=60 comment=hi" },
	{ "drain n1 n2 reason=disk", -1,
	  "scontrol update nodename=n1,n2 state=drain reason=disk" },
	{ "down n1 reason=x", -1,
	  "scontrol update nodename=n1 state=down reason=x" },
	{ "resume n1", SQ_KIND_NODES,
	  "scontrol update nodename=n1 state=resume" },
	{ "reboot n1 nextstate=resume asap", -1,
	  "scontrol reboot ASAP nextstate=resume n1" },
	{ "cancelreboot n1", -1, "scontrol cancel_reboot n1" },
	{ "reason n1 reason=x", -1, "scontrol update nodename=n1 reason=x" },
	{ "addaccount bio parent=chem", -1,
	  "sacctmgr -i add account bio parent=chem" },
	{ "modaccount bio fairshare=1", -1,
	  "sacctmgr -i modify account where name=bio set fairshare=1" },
	{ "delaccount bio", -1, "sacctmgr -i delete account where name=bio" },
	{ "addcoord bio user=bob", -1,
	  "sacctmgr -i add coordinator account=bio names=bob" },
	{ "delcoord bio user=bob", -1,
	  "sacctmgr -i remove coordinator account=bio names=bob" },
	{ "adduser bob account=bio partition=gpu", -1,
	  "sacctmgr -i add user bob account=bio partition=gpu" },
	{ "deluser bob carol account=bio", -1,
	  "sacctmgr -i delete user where name=bob account=bio partition=\n"
	  "sacctmgr -i delete user where name=carol account=bio partition=" },
	{ "moduser Carol defaultaccount=Bio adminlevel=Operator", -1,
	  "sacctmgr -i modify user where name=carol set defaultaccount=bio "
	  "adminlevel=operator" },
	{ "setlimit chem maxjobs=1", -1,
	  "sacctmgr -i modify account where name=chem set maxjobs=1" },
	{ "clearlimit account=a user=b maxjobs", -1,
	  "sacctmgr -i modify user where name=b account=a partition= set "
	  "maxjobs=-1" },
	{ "setqos low priority=20", -1,
	  "sacctmgr -i modify qos where name=low set priority=20" },
	{ "reserve maint1 start=now+1hour duration=2:00:00 nodes=n[1-2] "
	  "users=root flags=maint,ignore_jobs",
	  -1,
	  "scontrol create reservation ReservationName=maint1 "
	  "StartTime=now+1hour Duration=2:00:00 Nodes='n[1-2]' Users=root "
	  "Flags=MAINT,IGNORE_JOBS" },
	{ "reserve-update maint1 end=2026-12-24T08:00 accounts=physics", -1,
	  "scontrol update ReservationName=maint1 EndTime=2026-12-24T08:00 "
	  "Accounts=physics" },
	{ "reserve-delete maint1", -1,
	  "scontrol delete ReservationName=maint1" },
	{ "addqos Gpu maxjobs=2 maxtrespa=cpu=4 gracetime=30 preempt=low", -1,
	  "sacctmgr -i add qos gpu maxjobsperuser=2 maxtresperaccount=cpu=4 "
	  "gracetime=30 preempt=low" },
	{ "delqos gpu", -1, "sacctmgr -i delete qos where name=gpu" },
	{ "fix-runaway 67100001 67100002", -1,
	  "sacctmgr -i -n -P show runawayjobs "
	  "format=ID,Cluster,Partition,State,Submit,Start,End,Name" },
};

static void
test_action_walk(void **state)
{
	int seen[SQ_ACTION_COUNT] = { 0 };
	char b[1024];
	size_t i;
	int t;

	(void)state;
	for (i = 0; i < sizeof(walk) / sizeof(walk[0]); i++) {
		struct sq_action a;
		struct sq_cli_cmds c;
		struct sq_err err;

		sq_test_parse(walk[i].line, walk[i].kind, &a);
		seen[a.type] = 1;
		if (sq_cli_action_cmds(&a, NULL, NULL, &c, &err) != 0)
			fail_msg("cmds '%s': %s", walk[i].line, err.msg);
		assert_int_equal(sq_cli_cmds_format(&c, b, sizeof(b)), 0);
		assert_string_equal(b, walk[i].cmd);
		sq_cli_cmds_free(&c);
		sq_action_free(&a);
	}
	/* a new action gets a row here (and an argv template) */
	for (t = 0; t < SQ_ACTION_COUNT; t++) {
		if (t != SQ_ACTION_JOB_SUBMIT && !seen[t])
			fail_msg("action %s is not walked",
				 sq_action_def(t)->name);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_describe_jobs),
		cmocka_unit_test(test_describe_nodes),
		cmocka_unit_test(test_describe_accounting),
		cmocka_unit_test(test_sacctmgr_always_i),
		cmocka_unit_test(test_argv_exact),
		cmocka_unit_test(test_action_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
