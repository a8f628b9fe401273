/*
 * test_actions.c - unit tests of actions: the table, the command grammar,
 * validation of hostile values, the argv and the describe() line of every
 * action, read-only and bulk policy, the audit log (format, 0600, no
 * token), and act() through a scripted transport replaying output
 * recorded from the testbed (tests/fixtures/cli/22.05/actions).
 */
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/cli/actions.h"
#include "core/action.h"
#include "core/action_policy.h"
#include "core/audit.h"
#include "core/reason.h"
#include "tests/unit/test_util.h"

#define FIX "cli/22.05/actions/"

static void
parse_ok(const char *line, int kind, struct sq_action *a)
{
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_action_parse(line, kind, NULL, 0, a, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
}

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

/* describe() of a parsed line, without a backend. */
static void
cmd_of(const char *line, char *buf, size_t n)
{
	struct sq_action a;
	struct sq_cli_cmds c;
	struct sq_err err;

	parse_ok(line, -1, &a);
	if (sq_cli_action_cmds(&a, NULL, NULL, &c, &err) != 0)
		fail_msg("cmds '%s': %s", line, err.msg);
	assert_int_equal(sq_cli_cmds_format(&c, buf, n), 0);
	sq_cli_cmds_free(&c);
	sq_action_free(&a);
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

/* the log's one reader: top-level fields only, never a target's */
static void
test_audit_field(void **state)
{
	const char *l =
	    "{\"time\":\"t\",\"event\":\"result\",\"targets\":[\"1\",\"2\"],"
	    "\"status\":3,\"message\":\"a \\\"q\\\" b\",\"results\":[{"
	    "\"target\":\"1\",\"message\":\"inner\",\"inverse\":\"x\"}],"
	    "\"inverse\":null,\"ok\":true}";
	char b[64];

	(void)state;
	assert_int_equal(sq_audit_field(l, "targets", b, sizeof(b)), 1);
	assert_string_equal(b, "1,2");
	assert_int_equal(sq_audit_field(l, "message", b, sizeof(b)), 1);
	assert_string_equal(b, "a \"q\" b");
	assert_int_equal(sq_audit_field(l, "status", b, sizeof(b)), 1);
	assert_string_equal(b, "3");
	assert_int_equal(sq_audit_field(l, "inverse", b, sizeof(b)), 1);
	assert_string_equal(b, "");
	assert_int_equal(sq_audit_field(l, "ok", b, sizeof(b)), 1);
	assert_string_equal(b, "true");
	assert_int_equal(sq_audit_field(l, "target", b, sizeof(b)), 0);
	assert_int_equal(sq_audit_field("{\"a\":[", "b", b, sizeof(b)), 0);
	assert_int_equal(sq_audit_field("garbage", "a", b, sizeof(b)), 0);
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
	parse_ok("cancel 123 0124 7_3", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_JOB_CANCEL);
	assert_int_equal(a.ntargets, 3);
	assert_string_equal(a.targets[1], "124"); /* re-printed */
	assert_string_equal(a.targets[2], "7_3");
	sq_action_free(&a);

	parse_ok("drain n2 reason=disk full", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_NODE_DRAIN);
	assert_int_equal(a.ntargets, 1);
	assert_string_equal(sq_action_arg(&a, "reason"), "disk full");
	sq_action_free(&a);

	parse_ok("drain n[1-3] reason=\"x y\"", -1, &a);
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

	parse_ok("signal USR2 55", -1, &a);
	assert_string_equal(sq_action_arg(&a, "sig"), "USR2");
	assert_string_equal(a.targets[0], "55");
	sq_action_free(&a);

	parse_ok("update 9 timelimit=60 comment=needs more time nice=-5", -1,
		 &a);
	assert_string_equal(sq_action_arg(&a, "comment"), "needs more time");
	assert_string_equal(sq_action_arg(&a, "nice"), "-5");
	assert_string_equal(sq_action_arg(&a, "timelimit"), "60");
	sq_action_free(&a);

	parse_ok("reboot n2 asap nextstate=RESUME", -1, &a);
	assert_string_equal(sq_action_arg(&a, "asap"), "yes");
	assert_string_equal(sq_action_arg(&a, "nextstate"), "resume");
	sq_action_free(&a);

	/* jobs or nodes resume, by the shape of the targets or the view */
	parse_ok("resume 77", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_JOB_RESUME);
	sq_action_free(&a);
	parse_ok("resume n1", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_NODE_RESUME);
	sq_action_free(&a);
	parse_ok("resume n1", SQ_KIND_NODES, &a);
	assert_int_equal(a.type, SQ_ACTION_NODE_RESUME);
	sq_action_free(&a);

	parse_ok("setlimit account=chemistry user=bob maxjobs=5", -1, &a);
	assert_int_equal(a.type, SQ_ACTION_ACCT_SET_LIMIT);
	assert_string_equal(a.targets[0], "chemistry/bob");
	sq_action_free(&a);
	parse_ok("setlimit chemistry grpjobs=7", -1, &a);
	assert_string_equal(a.targets[0], "chemistry");
	sq_action_free(&a);
	parse_ok("adduser bob carol account=chem partition=gpu", -1, &a);
	assert_int_equal(a.ntargets, 2);
	assert_string_equal(a.targets[1], "chem/carol/gpu");
	sq_action_free(&a);
	parse_ok("clearlimit account=chem user=bob maxjobs grptres", -1, &a);
	assert_string_equal(sq_action_arg(&a, "limits"), "maxjobs,grptres");
	sq_action_free(&a);
	parse_ok("clearlimit chem/bob maxwall", -1, &a);
	assert_string_equal(a.targets[0], "chem/bob");
	assert_string_equal(sq_action_arg(&a, "limits"), "maxwall");
	sq_action_free(&a);

	/* round trip through sq_action_format */
	parse_ok("update 9 comment=\"a b\" timelimit=1:00:00", -1, &a);
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	/* arguments in the order of the spec, whatever the order typed */
	assert_string_equal(buf, "update 9 timelimit=1:00:00 comment=\"a b\"");
	sq_action_free(&a);
	parse_ok(buf, -1, &a);
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

		parse_ok(lines[i], -1, &a);
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
	parse_ok("drain n2 reason=disk full; see #12", -1, &a);
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &c, &err), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.v[0].argc, 5);
	assert_string_equal(c.v[0].argv[4], "reason=disk full; see #12");
	assert_null(c.v[0].argv[5]);
	sq_cli_cmds_free(&c);
	sq_action_free(&a);

	/* clearlimit of a TRES limit names each TRES set now */
	parse_ok("clearlimit account=chem user=bob grptres", -1, &a);
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

/* Every action of the table (core/action.h) through its argv template
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

		parse_ok(walk[i].line, walk[i].kind, &a);
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

static void
test_policy(void **state)
{
	struct sq_action a;
	struct sq_err err;
	char line[256];

	(void)state;
	parse_ok("hold 1", -1, &a);
	assert_int_equal(sq_action_policy_check(&a, 0, &err), 0);
	assert_int_equal(sq_action_policy_check(&a, 1, &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
	assert_non_null(strstr(err.msg, "read-only"));
	assert_false(sq_action_visible(a.def, 1));
	assert_true(sq_action_visible(a.def, 0));
	assert_false(sq_action_needs_count(&a));
	sq_action_free(&a);

	parse_ok("cancel 1 2 3 4 5 6 7 8 9 10", -1, &a);
	assert_false(sq_action_needs_count(&a)); /* 10: not more than 10 */
	sq_action_free(&a);
	snprintf(line, sizeof(line), "cancel 1 2 3 4 5 6 7 8 9 10 11");
	parse_ok(line, -1, &a);
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

/* --- audit -----------------------------------------------------------------
 */

static char tmpdir[64];

static int
setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sq-test-audit-XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	return 0;
}

static int
teardown_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static json_object *
field(json_object *o, const char *k)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("audit line has no '%s'", k);
	return v;
}

static void
test_audit(void **state)
{
	struct sq_audit au;
	struct sq_audit_rec r;
	struct sq_action a;
	struct sq_result res;
	struct sq_err err;
	struct stat st;
	char path[256], line[8192];
	struct sq_audit_undo undo;
	const char *token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdW"
			    "IiOiJhbGljZSJ9.c2lnbmF0dXJlc2lnbmF0dXJl";
	FILE *fp;
	int n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/state/squall/audit.log", tmpdir);
	assert_int_equal(sq_audit_open(&au, path, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	snprintf(line, sizeof(line), "%s/state/squall", tmpdir);
	assert_int_equal(stat(line, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	snprintf(line, sizeof(line), "update 7 comment=tok %s end", token);
	parse_ok(line, -1, &a);
	sq_result_init(&res);
	assert_int_equal(sq_result_targets(&res, &a), 0);
	res.status = 1;
	snprintf(res.message, sizeof(res.message),
		 "Access/permission denied \"quoted\" \\ SLURM_JWT=%s", token);
	res.targets[0].ok = 0;
	res.targets[0].verified = SQ_VERIFY_FAILED;
	snprintf(res.targets[0].message, sizeof(res.targets[0].message),
		 "tab\there \x01 nl\n");
	res.nfailed = 1;
	res.ms = 12.5;
	snprintf(res.inverse, sizeof(res.inverse), "update 7 comment=old");

	memset(&r, 0, sizeof(r));
	r.event = "intent";
	r.id = "1-2-3";
	r.cluster = "testbed";
	r.backend = "local";
	r.action = &a;
	r.command = "scontrol update jobid=7 comment='tok'";
	assert_int_equal(sq_audit_append(&au, &r, &err), 0);
	r.event = "result";
	r.result = &res;
	assert_int_equal(sq_audit_append(&au, &r, &err), 0);
	sq_audit_close(&au);

	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		json_object *o = json_tokener_parse(line);
		json_object *t;

		if (o == NULL)
			fail_msg("not JSON: %s", line);
		assert_null(strstr(line, token));
		assert_null(strstr(line, "eyJ"));
		assert_string_equal(json_object_get_string(field(o, "event")),
				    n == 0 ? "intent" : "result");
		assert_string_equal(json_object_get_string(field(o, "id")),
				    "1-2-3");
		assert_string_equal(json_object_get_string(field(o, "action")),
				    "update");
		assert_string_equal(json_object_get_string(field(o, "cluster")),
				    "testbed");
		assert_string_equal(json_object_get_string(field(o, "backend")),
				    "local");
		assert_non_null(json_object_get_string(field(o, "user")));
		assert_non_null(json_object_get_string(field(o, "time")));
		t = field(o, "targets");
		assert_int_equal(json_object_array_length(t), 1);
		assert_string_equal(
		    json_object_get_string(json_object_array_get_idx(t, 0)),
		    "7");
		assert_string_equal(json_object_get_string(field(o, "command")),
				    "scontrol update jobid=7 comment='tok'");
		if (n == 1) {
			json_object *rs = field(o, "results"), *t0;

			assert_int_equal(
			    json_object_get_int(field(o, "status")), 1);
			assert_false(json_object_get_boolean(field(o, "ok")));
			assert_string_equal(
			    json_object_get_string(field(o, "inverse")),
			    "update 7 comment=old");
			assert_non_null(
			    strstr(json_object_get_string(field(o, "message")),
				   "Access/permission denied \"quoted\" \\ "
				   "SLURM_JWT=[redacted]"));
			t0 = json_object_array_get_idx(rs, 0);
			assert_string_equal(
			    json_object_get_string(field(t0, "message")),
			    "tab\there \x01 nl\n");
			assert_false(
			    json_object_get_boolean(field(t0, "verified")));
			assert_true(json_object_get_double(
					field(o, "duration_ms")) > 12);
		}
		json_object_put(o);
		n++;
	}
	fclose(fp);
	assert_int_equal(n, 2);

	/* :undo reads the newest inverse back: of this session and cluster
	 * only (issue 31) */
	assert_int_equal(
	    sq_audit_last_undo(path, sq_audit_session(), NULL, &undo, &err), 0);
	assert_string_equal(undo.inverse, "update 7 comment=old");
	assert_int_equal(sq_audit_last_undo(path, sq_audit_session(), "testbed",
					    &undo, &err),
			 0);
	assert_string_equal(undo.inverse, "update 7 comment=old");
	assert_int_equal(sq_audit_last_undo(path, "1-2", NULL, &undo, &err), 0);
	assert_string_equal(undo.inverse, "");
	assert_int_equal(sq_audit_last_undo(path, sq_audit_session(),
					    "elsewhere", &undo, &err),
			 0);
	assert_string_equal(undo.inverse, "");
	{
		struct sq_audit_entry *v;
		size_t nv;

		assert_int_equal(sq_audit_read(path, 10, &v, &nv, &err), 0);
		assert_int_equal(nv, 2);
		assert_string_equal(v[0].event, "intent");
		assert_string_equal(v[1].event, "result");
		assert_string_equal(v[1].session, sq_audit_session());
		assert_string_equal(v[1].inverse, "update 7 comment=old");
		assert_string_equal(v[1].ok, "false");
		free(v);
		assert_int_equal(sq_audit_read(path, 1, &v, &nv, &err), 0);
		assert_int_equal(nv, 1);
		assert_string_equal(v[0].event, "result");
		free(v);
	}

	/* a wider mode is narrowed back to 0600 */
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(sq_audit_open(&au, path, &err), 0);
	assert_true(au.repaired);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	sq_audit_close(&au);

	/* a symlink is refused */
	snprintf(line, sizeof(line), "%s/link.log", tmpdir);
	assert_int_equal(symlink(path, line), 0);
	assert_int_equal(sq_audit_open(&au, line, &err), -1);
	sq_result_free(&res);
	sq_action_free(&a);
}

static void
test_audit_path(void **state)
{
	char p[512];
	struct sq_err err;

	(void)state;
	setenv("XDG_STATE_HOME", "/x/state", 1);
	assert_int_equal(sq_audit_default_path(p, sizeof(p), &err), 0);
	assert_string_equal(p, "/x/state/squall/audit.log");
	unsetenv("XDG_STATE_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(sq_audit_default_path(p, sizeof(p), &err), 0);
	assert_string_equal(p, "/home/u/.local/state/squall/audit.log");
}

static void
test_json_string(void **state)
{
	struct sq_buf b;

	(void)state;
	sq_buf_init(&b, 0);
	sq_json_string(&b, "a\"b\\c\x7f\xff\xc3\xa9");
	assert_string_equal(sq_buf_str(&b),
			    "\"a\\\"b\\\\c\\u007f\\ufffd\xc3\xa9\"");
	sq_buf_reset(&b);
	sq_json_string(&b, NULL);
	assert_string_equal(sq_buf_str(&b), "null");
	sq_buf_reset(&b);
	sq_json_string(&b, "X-SLURM-USER-TOKEN: abc.def");
	assert_string_equal(sq_buf_str(&b),
			    "\"X-SLURM-USER-TOKEN: [redacted]\"");
	sq_buf_free(&b);
}

/* --- verification on recorded output ------------------------------------- */

/* st for a's targets, from text (squeue or scontrol output) */
static void
parse_state(char *text, const struct sq_action *a, struct sq_cli_state *st,
	    int nodes)
{
	memset(st, 0, sizeof(*st));
	st->n = a->ntargets;
	st->rec = calloc(st->n, sizeof(*st->rec));
	assert_non_null(st->rec);
	if (nodes)
		sq_cli_parse_nodes_state(text, a, st);
	else
		sq_cli_parse_jobs_state(text, a, st);
}

static void
load_state(const char *fix, const char *line, struct sq_action *a,
	   struct sq_cli_state *st, int nodes)
{
	char *text = sq_test_fixture(fix, NULL);

	parse_ok(line, -1, a);
	parse_state(text, a, st, nodes);
	free(text);
}

static char *
fixture_job(void)
{
	char *id = sq_test_fixture(FIX "job_id.txt", NULL);

	id[strcspn(id, "\n")] = '\0';
	return id;
}

/* A comment holding a line break and a whole record of another target:
 * with squall's nonce that line is the rest of the comment, never the
 * state of job 6 (the priority an undo would put back); without one, as
 * older versions read it, it was. */
static void
test_jobs_state_forged_comment(void **state)
{
	static const char real6[] =
	    "6|sqn00112233445566aa|6|N/A|PENDING|100|0|1:00:00|low|normal|"
	    "physics|0|None|";
	static const char job5[] =
	    "5|sqn00112233445566aa|5|N/A|PENDING|100|0|1:00:00|low|normal|"
	    "physics|0|None|x\n"
	    "6|6|N/A|PENDING|999999|0|1:00:00|low|normal|physics|0|None|"
	    "forged\n";
	char text[512], bare[512], *q;
	struct sq_action a;
	struct sq_cli_state st;

	(void)state;
	snprintf(text, sizeof(text), "%s\n%s", real6, job5);
	/* the same without the nonce (parsing splits text in place) */
	snprintf(bare, sizeof(bare), "%s", text);
	while ((q = strstr(bare, "|sqn00112233445566aa")) != NULL)
		memmove(q, q + 20, strlen(q + 20) + 1);
	parse_ok("hold 5 6", -1, &a);
	parse_state(text, &a, &st, 0);
	assert_string_equal(sq_cli_rec_get(&st.rec[1], "Priority"), "100");
	assert_string_equal(sq_cli_rec_get(&st.rec[0], "Comment"), "x");
	sq_cli_state_free(&st);
	parse_state(bare, &a, &st, 0);
	assert_string_equal(sq_cli_rec_get(&st.rec[1], "Priority"), "999999");
	sq_cli_state_free(&st);
	sq_action_free(&a);
}

static void
test_verify_jobs(void **state)
{
	struct sq_action a;
	struct sq_cli_state held, released, gone;
	char line[128], msg[256], *id = fixture_job();

	(void)state;
	snprintf(line, sizeof(line), "hold %s", id);
	load_state(FIX "squeue_held.out", line, &a, &held, 0);
	sq_action_free(&a);
	load_state(FIX "squeue_released.out", line, &a, &released, 0);
	sq_action_free(&a);
	assert_true(held.rec[0].found);
	assert_string_equal(sq_cli_rec_get(&held.rec[0], "Reason"),
			    "JobHeldAdmin");
	assert_string_equal(sq_cli_rec_get(&held.rec[0], "Comment"),
			    "fixture comment");

	parse_ok(line, -1, &a);
	assert_int_equal(sq_cli_verify(&a, 0, &released.rec[0], &held.rec[0],
				       msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_int_equal(sq_cli_verify(&a, 0, &held.rec[0], &released.rec[0],
				       msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	sq_action_free(&a);

	snprintf(line, sizeof(line), "release %s", id);
	parse_ok(line, -1, &a);
	assert_int_equal(sq_cli_verify(&a, 0, &held.rec[0], &released.rec[0],
				       msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	sq_action_free(&a);

	snprintf(line, sizeof(line),
		 "update %s timelimit=7 comment=\"fixture comment\"", id);
	parse_ok(line, -1, &a);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &held.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_OK);
	sq_action_free(&a);
	snprintf(line, sizeof(line), "update %s timelimit=8", id);
	parse_ok(line, -1, &a);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &held.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_FAILED);
	assert_non_null(strstr(msg, "TimeLimit"));
	sq_action_free(&a);

	/* cancel: the job shows CANCELLED, or is gone */
	snprintf(line, sizeof(line), "cancel %s", id);
	load_state(FIX "squeue_cancelled.out", line, &a, &gone, 0);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &gone.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_OK);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &held.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_FAILED);
	sq_cli_state_free(&gone);
	sq_action_free(&a);
	load_state(FIX "squeue_unknown.out", line, &a, &gone, 0);
	assert_false(gone.rec[0].found);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &gone.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_OK);
	sq_action_free(&a);

	/* the inverse of an update comes from the state before */
	snprintf(line, sizeof(line), "update %s timelimit=60 comment=new", id);
	parse_ok(line, -1, &a);
	assert_int_equal(sq_cli_inverse(&a, &held, msg, sizeof(msg)), 0);
	snprintf(line, sizeof(line),
		 "update %s timelimit=7:00 comment=\"fixture comment\"", id);
	assert_string_equal(msg, line);
	sq_action_free(&a);

	sq_cli_state_free(&gone);
	sq_cli_state_free(&held);
	sq_cli_state_free(&released);
	free(id);
}

static void
test_verify_nodes(void **state)
{
	struct sq_action a;
	struct sq_cli_state drained, resumed;
	char msg[256];

	(void)state;
	load_state(FIX "node_drained.out", "drain n2 reason=fixture: disk full",
		   &a, &drained, 1);
	sq_action_free(&a);
	load_state(FIX "node_resumed.out", "drain n2 reason=x", &a, &resumed,
		   1);
	sq_action_free(&a);
	assert_string_equal(sq_cli_rec_get(&drained.rec[0], "State"),
			    "ALLOCATED+DRAIN");
	assert_string_equal(sq_cli_rec_get(&drained.rec[0], "Reason"),
			    "fixture: disk full");

	parse_ok("drain n2 reason=fixture: disk full", -1, &a);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &drained.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_OK);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &resumed.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_FAILED);
	sq_action_free(&a);
	parse_ok("drain n2 reason=another reason", -1, &a);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &drained.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_FAILED);
	sq_action_free(&a);

	parse_ok("resume n2", -1, &a);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &resumed.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_OK);
	/* ALLOCATED+NOT_RESPONDING is not "in service" (issue 41, 12) */
	assert_null(strstr(msg, "in service"));
	assert_non_null(strstr(msg, "not responding yet"));
	/* and the console fetches the nodes and what is made of them
	 * again after it, not only the view's kind */
	assert_true(sq_action_touched_kinds(a.def->kind) &
		    SQ_KIND_BIT(SQ_KIND_NODES));
	assert_true(sq_action_touched_kinds(a.def->kind) &
		    SQ_KIND_BIT(SQ_KIND_PARTITIONS));
	assert_true(sq_action_touched_kinds(SQ_KIND_JOBS) &
		    SQ_KIND_BIT(SQ_KIND_NODES));
	/* resume undoes to a drain with the old reason */
	assert_int_equal(sq_cli_inverse(&a, &drained, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "drain n2 reason=\"fixture: disk full\"");
	sq_action_free(&a);
	parse_ok("drain n2 reason=x", -1, &a);
	assert_int_equal(sq_cli_inverse(&a, &drained, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "noderesume n2");
	sq_action_free(&a);
	sq_cli_state_free(&drained);
	sq_cli_state_free(&resumed);
}

/* --- act() through a scripted transport ---------------------------------- */

struct step {
	const char *out, *err; /* fixture names (NULL: empty) */
	int status;
};

struct script {
	const struct step *steps;
	int n, at;
	char argv[16][512];
};

static int
fake_run(void *ctx, const char *const argv[], struct sq_buf *out,
	 struct sq_buf *errout, int *status, struct sq_err *err)
{
	struct script *s = ctx;
	const struct step *st;
	size_t i, off = 0;

	(void)err;
	if (s->at >= s->n)
		fail_msg("unexpected command %s %s", argv[0], argv[1]);
	for (i = 0; argv[i] != NULL && off < sizeof(s->argv[0]) - 1; i++)
		off += (size_t)snprintf(s->argv[s->at] + off,
					sizeof(s->argv[0]) - off, "%s%s",
					i ? " " : "", argv[i]);
	st = &s->steps[s->at++];
	if (st->out != NULL) {
		char *t = sq_test_fixture(st->out, NULL);

		sq_buf_append(out, t, strlen(t));
		free(t);
	}
	if (st->err != NULL) {
		char *t = sq_test_fixture(st->err, NULL);

		sq_buf_append(errout, t, strlen(t));
		free(t);
	}
	*status = st->status;
	return 0;
}

static void
fake_close(void *ctx)
{
	(void)ctx;
}

static const struct sq_transport_ops fake_tr = { "fake", fake_run, fake_close };

static int
act_with(const char *line, const struct step *steps, int n, struct script *s,
	 struct sq_result *res, struct sq_err *err)
{
	struct sq_backend b;
	struct sq_cli cli;
	struct sq_action a;
	int rc;

	memset(&b, 0, sizeof(b));
	memset(&cli, 0, sizeof(cli));
	memset(s, 0, sizeof(*s));
	s->steps = steps;
	s->n = n;
	cli.tr = &fake_tr;
	cli.tr_ctx = s;
	cli.b = &b;
	b.ops = &sq_backend_local;
	b.priv = &cli;
	parse_ok(line, -1, &a);
	sq_result_init(res);
	rc = sq_cli_act(&b, &a, res, err);
	sq_action_free(&a);
	assert_int_equal(s->at, s->n); /* every scripted command ran */
	return rc;
}

static void
test_act_hold_ok(void **state)
{
	static const struct step steps[] = {
		{ FIX "squeue_released.out", NULL, 0 },
		{ NULL, NULL, 0 },
		{ FIX "squeue_held.out", NULL, 0 },
	};
	struct script s;
	struct sq_result res;
	struct sq_err err;
	char line[64], want[64], *id = fixture_job();

	(void)state;
	snprintf(line, sizeof(line), "hold %s", id);
	assert_int_equal(act_with(line, steps, 3, &s, &res, &err), 0);
	snprintf(want, sizeof(want), "scontrol hold %s", id);
	assert_string_equal(s.argv[1], want);
	assert_int_equal(res.ntargets, 1);
	assert_int_equal(res.nfailed, 0);
	assert_true(res.targets[0].ok);
	assert_int_equal(res.targets[0].verified, SQ_VERIFY_OK);
	snprintf(want, sizeof(want), "release %s", id);
	assert_string_equal(res.inverse, want);
	sq_result_free(&res);
	free(id);
}

static void
test_act_denied(void **state)
{
	/* bob cancels alice's job: Slurm's words reach the result */
	static const struct step steps[] = {
		{ FIX "squeue_released.out", NULL, 0 },
		{ NULL, FIX "bob_scancel.err", 210 },
		{ FIX "squeue_released.out", NULL, 0 },
	};
	static const struct step hold[] = {
		{ FIX "squeue_released.out", NULL, 0 },
		{ NULL, FIX "bob_hold.err", 1 },
		{ FIX "squeue_released.out", NULL, 0 },
	};
	struct script s;
	struct sq_result res;
	struct sq_err err;
	char line[64], *id = fixture_job();

	(void)state;
	snprintf(line, sizeof(line), "cancel %s", id);
	assert_int_equal(act_with(line, steps, 3, &s, &res, &err), -1);
	assert_int_equal(res.status, 210);
	assert_int_equal(res.nfailed, 1);
	assert_false(res.targets[0].ok);
	assert_non_null(
	    strstr(res.targets[0].message, "Access/permission denied"));
	assert_non_null(strstr(err.msg, "Access/permission denied"));
	assert_string_equal(res.inverse, "");
	sq_result_free(&res);

	snprintf(line, sizeof(line), "hold %s", id);
	assert_int_equal(act_with(line, hold, 3, &s, &res, &err), -1);
	assert_non_null(strstr(res.targets[0].message, "Invalid user id"));
	sq_result_free(&res);
	free(id);
}

static void
test_act_partial(void **state)
{
	/* two nodes, one unknown: per-target outcome */
	/* before, the command, then the read-back (retried while a target
	 * does not show the effect: 4 reads) */
	static const struct step steps[] = {
		{ FIX "node_resumed.out", NULL, 0 },
		{ NULL, NULL, 0 },
		{ FIX "node_drained.out", NULL, 0 },
		{ FIX "node_drained.out", NULL, 0 },
		{ FIX "node_drained.out", NULL, 0 },
		{ FIX "node_drained.out", NULL, 0 },
	};
	static const struct step sacct[] = {
		{ FIX "account_withcoord.out", NULL, 0 },
		{ FIX "assoc_limits.out", NULL, 0 },
		{ NULL, NULL, 0 }, /* the child accounts (where parent=) */
		{ NULL, FIX "alice_sacctmgr.err", 1 },
		{ FIX "account_withcoord.out", NULL, 0 },
		{ FIX "assoc_limits.out", NULL, 0 },
		{ NULL, NULL, 0 },
	};
	struct script s;
	struct sq_result res;
	struct sq_err err;

	(void)state;
	assert_int_equal(act_with("drain n2 n9 reason=fixture: disk full",
				  steps, 6, &s, &res, &err),
			 -1);
	assert_string_equal(s.argv[1], "scontrol update nodename=n2,n9 "
				       "state=drain reason=fixture: disk full");
	assert_int_equal(res.ntargets, 2);
	assert_int_equal(res.nfailed, 1);
	assert_true(res.targets[0].ok);
	assert_false(res.targets[1].ok);
	assert_string_equal(res.targets[1].target, "n9");
	assert_string_equal(res.inverse, "noderesume n2");
	sq_result_free(&res);

	/* an ordinary user and sacctmgr: refused as Slurm words it */
	assert_int_equal(act_with("modaccount sqa_fixture fairshare=8", sacct,
				  7, &s, &res, &err),
			 -1);
	assert_string_equal(s.argv[3], "sacctmgr -i modify account where "
				       "name=sqa_fixture set fairshare=8");
	assert_int_equal(res.status, 1);
	assert_false(res.targets[0].ok);
	assert_non_null(
	    strstr(res.targets[0].message, "doesn't have privilege"));
	assert_string_equal(res.inverse, ""); /* nothing was done */
	sq_result_free(&res);
}

/* @NAME in a reason: the template's text, in every form of the grammar */
static void
test_reason_templates(void **state)
{
	struct sq_reasons rs;
	struct sq_action a;
	struct sq_cli_cmds c;
	struct sq_err err;
	static const char *const rows[] = { "n3", "n4" };
	static const char *const hostile[] = {
		"it's broken", "a$(reboot)", "`id`",       "back\\slash",
		"bang!",       "x\nreboot",  "say \"hi\"", "tab\there",
		"\x7f",        "\xc2\x85",   "\xff",       NULL,
	};
	char buf[1024], names[300];
	int i;

	(void)state;
	memset(&rs, 0, sizeof(rs));
	assert_int_equal(
	    sq_reasons_define(
		&rs, "disk", "Disk failure: replace disk, ticket needed", &err),
	    0);
	assert_int_equal(
	    sq_reasons_define(&rs, "mem", "Memory errors (EDAC)", &err), 0);

	/* key=value, as --exec writes it */
	assert_int_equal(sq_action_parse_with("drain n2 reason=@disk", -1, NULL,
					      0, &rs, &a, &err),
			 0);
	assert_int_equal(a.type, SQ_ACTION_NODE_DRAIN);
	assert_string_equal(sq_action_arg(&a, "reason"),
			    "Disk failure: replace disk, ticket needed");
	/* describe() and the audit args see the text, never @disk */
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &c, &err), 0);
	assert_int_equal(sq_cli_cmds_format(&c, buf, sizeof(buf)), 0);
	sq_cli_cmds_free(&c);
	assert_string_equal(buf, "scontrol update nodename=n2 state=drain "
				 "reason='Disk failure: replace disk, ticket "
				 "needed'");
	assert_string_equal(a.args[0], "reason=Disk failure: replace disk, "
				       "ticket needed");
	sq_action_free(&a);

	/* the console: targets are the rows, the bare word is the reason */
	assert_int_equal(sq_action_parse_with(":drain @mem", SQ_KIND_NODES,
					      rows, 2, &rs, &a, &err),
			 0);
	assert_int_equal(a.ntargets, 2);
	assert_string_equal(sq_action_arg(&a, "reason"),
			    "Memory errors (EDAC)");
	sq_action_free(&a);
	assert_int_equal(sq_action_parse_with("down reason=@mem", SQ_KIND_NODES,
					      rows, 2, &rs, &a, &err),
			 0);
	assert_string_equal(sq_action_arg(&a, "reason"),
			    "Memory errors (EDAC)");
	sq_action_free(&a);
	assert_int_equal(sq_action_parse_with("reason n2 reason=\"@disk\"", -1,
					      NULL, 0, &rs, &a, &err),
			 0);
	assert_int_equal(a.type, SQ_ACTION_NODE_REASON);
	assert_string_equal(sq_action_arg(&a, "reason"),
			    "Disk failure: replace disk, ticket needed");
	sq_action_free(&a);
	assert_int_equal(sq_action_parse_with("reboot n2 asap reason=@mem", -1,
					      NULL, 0, &rs, &a, &err),
			 0);
	assert_string_equal(sq_action_arg(&a, "reason"),
			    "Memory errors (EDAC)");
	sq_action_free(&a);

	/* only a reason expands: a comment keeps its '@' */
	assert_int_equal(sq_action_parse_with("update 5 comment=@disk", -1,
					      NULL, 0, &rs, &a, &err),
			 0);
	assert_string_equal(sq_action_arg(&a, "comment"), "@disk");
	sq_action_free(&a);
	/* text without a leading '@' is itself */
	assert_int_equal(sq_action_parse_with("drain n2 reason=mail a@b", -1,
					      NULL, 0, &rs, &a, &err),
			 0);
	assert_string_equal(sq_action_arg(&a, "reason"), "mail a@b");
	sq_action_free(&a);

	/* an unknown @NAME names it and the defined names; nothing parsed */
	sq_err_clear(&err);
	assert_int_equal(sq_action_parse_with("drain n2 reason=@dsik", -1, NULL,
					      0, &rs, &a, &err),
			 -1);
	assert_int_equal(err.code, SQ_ERR_USAGE);
	assert_string_equal(err.msg, "unknown reason template '@dsik' "
				     "(defined: disk mem)");
	assert_int_equal(sq_action_parse_with(":drain @nope", SQ_KIND_NODES,
					      rows, 2, &rs, &a, &err),
			 -1);
	assert_non_null(strstr(err.msg, "'@nope' (defined: disk mem)"));
	/* without templates (sq_action_parse) @NAME is unknown too */
	assert_int_equal(
	    sq_action_parse("drain n2 reason=@disk", -1, NULL, 0, &a, &err),
	    -1);
	assert_non_null(strstr(err.msg, "'@disk': none are defined"));
	/* @NAME stands alone; @@ is a literal '@' */
	assert_int_equal(sq_action_parse_with("drain n2 reason=@disk bay 3", -1,
					      NULL, 0, &rs, &a, &err),
			 -1);
	assert_non_null(strstr(err.msg, "written @NAME alone"));
	assert_int_equal(sq_action_parse_with("drain n2 reason=@", -1, NULL, 0,
					      &rs, &a, &err),
			 -1);
	assert_int_equal(sq_action_parse_with("drain n2 reason=@@home full", -1,
					      NULL, 0, &rs, &a, &err),
			 0);
	assert_string_equal(sq_action_arg(&a, "reason"), "@home full");
	/* ... and a reason starting with '@' is written back with @@, so an
	 * inverse line (:undo) parses back to the same text */
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "drain n2 reason=\"@@home full\"");
	sq_action_free(&a);
	parse_ok(buf, -1, &a);
	assert_string_equal(sq_action_arg(&a, "reason"), "@home full");
	sq_action_free(&a);
	sq_action_init(&a, SQ_ACTION_NODE_REASON);
	assert_int_equal(sq_action_add_target(&a, "n2", &err), 0);
	assert_int_equal(sq_action_set_arg(&a, "reason", "@disk", &err), 0);
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "reason n2 reason=@@disk");
	sq_action_free(&a);
	assert_int_equal(sq_action_parse_with(buf, -1, NULL, 0, &rs, &a, &err),
			 0);
	assert_string_equal(sq_action_arg(&a, "reason"), "@disk");
	sq_action_free(&a);

	/* hostile template text never gets in */
	for (i = 0; hostile[i] != NULL; i++) {
		sq_err_clear(&err);
		if (sq_reasons_define(&rs, "evil", hostile[i], &err) != -1)
			fail_msg("template text accepted: %s", hostile[i]);
		assert_int_equal(err.code, SQ_ERR_DENIED);
	}
	assert_null(sq_reasons_find(&rs, "evil"));
	assert_int_equal(rs.n, 2);
	assert_int_equal(sq_reasons_define(&rs, "x;id", "fine", &err), -1);
	assert_int_equal(sq_reasons_define(&rs, "-x", "fine", &err), -1);
	assert_int_equal(sq_reasons_define(&rs, "", "fine", &err), -1);
	assert_int_equal(sq_reasons_define(&rs, "empty", "", &err), -1);
	assert_string_equal(sq_reasons_names(&rs, names, sizeof(names)),
			    "disk mem");
	/* so an unknown name is all an @word can be, never a hostile one */
	assert_int_equal(sq_action_parse_with("drain n2 reason=@evil", -1, NULL,
					      0, &rs, &a, &err),
			 -1);
	assert_int_equal(err.code, SQ_ERR_USAGE);
	assert_int_equal(sq_action_parse_with("drain n2 reason=@x;id", -1, NULL,
					      0, &rs, &a, &err),
			 -1);
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
		cmocka_unit_test(test_audit_field),
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_reason_templates),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_describe_jobs),
		cmocka_unit_test(test_describe_nodes),
		cmocka_unit_test(test_describe_accounting),
		cmocka_unit_test(test_sacctmgr_always_i),
		cmocka_unit_test(test_argv_exact),
		cmocka_unit_test(test_action_walk),
		cmocka_unit_test(test_policy),
		cmocka_unit_test_setup_teardown(test_audit, setup_tmp,
						teardown_tmp),
		cmocka_unit_test(test_audit_path),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_jobs_state_forged_comment),
		cmocka_unit_test(test_verify_jobs),
		cmocka_unit_test(test_verify_nodes),
		cmocka_unit_test(test_act_hold_ok),
		cmocka_unit_test(test_act_denied),
		cmocka_unit_test(test_act_partial),
		cmocka_unit_test(test_man_actions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
