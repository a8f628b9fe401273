/*
 * test_accounts.c - account actions change exactly what is selected: the
 * where clause of a user's association without partition, the check of
 * the other associations a command could touch, deluser's undo with the
 * limits the association had.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cli/actions.h"
#include "backends/rest/actions.h"
#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "core/action/audit.h"

static void
parse(const char *line, struct sq_action *a)
{
	struct sq_err err;

	if (sq_action_parse(line, -1, NULL, 0, a, &err) != 0)
		fail_msg("%s: %s", line, err.msg);
}

static void
describe(const char *line, char *buf, size_t n)
{
	struct sq_action a;
	struct sq_cli_cmds c;
	struct sq_err err;

	parse(line, &a);
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &c, &err), 0);
	assert_int_equal(sq_cli_cmds_format(&c, buf, n), 0);
	sq_cli_cmds_free(&c);
	sq_action_free(&a);
}

static void
set(struct sq_cli_rec *r, const char *key, const char *val)
{
	snprintf(r->key[r->n], sizeof(r->key[0]), "%s", key);
	r->val[r->n++] = strdup(val);
}

/* An association row as sacctmgr show -P assoc gives it. */
static void
row(struct sq_cli_rec *r, const char *user, const char *part,
    const char *maxjobs, const char *grptres)
{
	memset(r, 0, sizeof(*r));
	r->found = 1;
	set(r, "Account", "tourlab");
	set(r, "User", user);
	set(r, "Partition", part);
	set(r, "MaxJobs", maxjobs);
	set(r, "GrpTRES", grptres);
}

/* a state of one target (carol's association without partition) and
 * every row of the account: carol ""/gpu and the account's own */
static void
state(struct sq_cli_state *st, const char *mj_none, const char *mj_gpu)
{
	memset(st, 0, sizeof(*st));
	st->ok = 1;
	st->n = 1;
	st->rec = calloc(1, sizeof(*st->rec));
	st->nall = 3;
	st->all = calloc(3, sizeof(*st->all));
	assert_non_null(st->rec);
	assert_non_null(st->all);
	row(&st->rec[0], "carol", "", mj_none, "cpu=4");
	row(&st->all[0], "", "", "", "");
	row(&st->all[1], "carol", "", mj_none, "cpu=4");
	row(&st->all[2], "carol", "gpu", mj_gpu, "");
}

static void
test_where_no_partition(void **s)
{
	char b[1024];

	(void)s;
	describe("setlimit account=tourlab user=carol maxjobs=3", b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i modify user where name=carol "
			       "account=tourlab partition= set maxjobs=3");
	describe("setlimit tourlab/carol/gpu maxjobs=3", b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i modify user where name=carol "
			       "account=tourlab partition=gpu set maxjobs=3");
	describe("deluser carol account=tourlab", b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i delete user where name=carol "
			       "account=tourlab partition=");
	/* the account's own association: no user, no partition */
	describe("setlimit tourlab maxjobs=3", b, sizeof(b));
	assert_string_equal(b, "sacctmgr -i modify account where "
			       "name=tourlab set maxjobs=3");
}

static void
test_others_changed(void **s)
{
	struct sq_action a;
	struct sq_cli_state before, both, one, gone;
	char msg[256];

	(void)s;
	parse("setlimit account=tourlab user=carol maxjobs=3", &a);
	state(&before, "5", "");
	state(&both, "3", "3");
	state(&one, "3", "");
	state(&gone, "3", "");
	gone.nall = 2; /* the gpu association is not there any more */
	assert_int_equal(
	    sq_cli_others_changed(&a, 0, &before, &both, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "also changed tourlab/carol/gpu: MaxJobs "
				 "(unset) -> 3");
	assert_int_equal(
	    sq_cli_others_changed(&a, 0, &before, &one, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	assert_int_equal(
	    sq_cli_others_changed(&a, 0, &before, &gone, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "also changed tourlab/carol/gpu: removed");
	gone.nall = 3;
	sq_cli_state_free(&before);
	sq_cli_state_free(&both);
	sq_cli_state_free(&one);
	sq_cli_state_free(&gone);
	sq_action_free(&a);
}

static void
test_deluser_inverse(void **s)
{
	struct sq_action a;
	struct sq_cli_state before;
	char inv[1024];

	(void)s;
	parse("deluser carol account=tourlab", &a);
	state(&before, "5", "");
	assert_int_equal(sq_cli_inverse(&a, &before, inv, sizeof(inv)), 0);
	assert_string_equal(inv,
			    "adduser tourlab/carol grptres=cpu=4 maxjobs=5");
	sq_cli_state_free(&before);
	sq_action_free(&a);
	/* it parses back, as :undo does */
	parse(inv, &a);
	assert_string_equal(sq_action_arg(&a, "maxjobs"), "5");
	sq_action_free(&a);
}

static void
test_names_folded(void **s)
{
	struct sq_action a;

	(void)s;
	parse("addaccount TourCaps parent=Physics", &a);
	assert_string_equal(a.targets[0], "tourcaps");
	assert_string_equal(sq_action_arg(&a, "parent"), "physics");
	sq_action_free(&a);
	/* the partition keeps its case */
	parse("setlimit account=TourLab user=Carol partition=GPU maxjobs=3",
	      &a);
	assert_string_equal(a.targets[0], "tourlab/carol/GPU");
	sq_action_free(&a);
	parse("addcoord TourLab user=Carol,BOB", &a);
	assert_string_equal(a.targets[0], "tourlab");
	assert_string_equal(sq_action_arg(&a, "user"), "carol,bob");
	sq_action_free(&a);
}

static void
refused(const char *line, const char *want)
{
	struct sq_action a;
	struct sq_err err;

	assert_int_equal(sq_action_parse(line, -1, NULL, 0, &a, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: '%s' does not say '%s'", line, err.msg, want);
}

static void
test_ranges(void **s)
{
	struct sq_action a;

	(void)s;
	refused("setlimit a/carol maxjobs=99999999999",
		"maxjobs=99999999999 is out of range: Slurm stores 0 to "
		"2147483647 (-1 clears it)");
	refused("setlimit a maxjobs=2147483648", "out of range");
	refused("setqos low priority=4294967295", "out of range");
	refused("update 12 priority=4294967294", "stores 0 to 4294967293");
	refused("setlimit a grptres=cpu=18446744073709551614",
		"Slurm keeps TRES counts up to 18446744073709551613");
	refused("setlimit a grptres=mem=99999999999999P", "out of range");
	refused("setlimit a maxwall=3000000-00:00:00", "out of range");
	parse("update 12 priority=4294967293", &a);
	sq_action_free(&a);
	parse("setlimit a maxjobs=2147483647 grptres=cpu=18446744073709551613,"
	      "mem=4G maxwall=60 fairshare=parent",
	      &a);
	sq_action_free(&a);
	parse("setlimit a maxjobs=-1 grptres=cpu=-1", &a);
	sq_action_free(&a);
}

static void
test_delaccount_needs_empty(void **s)
{
	const struct sq_action_def *d =
	    sq_action_def(SQ_ACTION_ACCT_DELETE_ACCOUNT);
	char text[128];

	(void)s;
	assert_true(sq_action_applies(d, SQ_ACCT_EMPTY));
	assert_false(sq_action_applies(d, "USERS carol,carol/gpu"));
	sq_action_states_text(d, text, sizeof(text));
	assert_string_equal(text, "accounts without users or child accounts: "
				  "deluser and delaccount them first");
	assert_false(sq_action_applies(d, "ACCOUNTS sub"));
}

/* through slurmrestd: a deluser that would take the user's other
 * partitions is left out; adduser with limits is refused (the body would
 * drop them) */
static void
test_rest_exact(void **s)
{
	const struct sq_action_def *d =
	    sq_action_def(SQ_ACTION_ACCT_REMOVE_USER);
	struct sq_action a;
	struct sq_rest_reqs r;
	struct sq_err err;

	(void)s;
	assert_true(sq_action_applies(d, ""));
	assert_true(sq_action_applies(d, SQ_ASSOC_ALONE));
	assert_false(sq_action_applies(d, "ALSO gpu"));
	parse("adduser carol account=tourlab maxjobs=5", &a);
	assert_int_equal(sq_rest_action_reqs(&a, 38, 38, "c", &r, &err), -1);
	assert_non_null(strstr(err.msg, "limits on a new association"));
	sq_action_free(&a);
	parse("adduser carol account=tourlab", &a);
	assert_int_equal(sq_rest_action_reqs(&a, 38, 38, "c", &r, &err), 0);
	sq_rest_reqs_free(&r);
	sq_action_free(&a);
}

static void
test_undo_label(void **s)
{
	struct sq_audit_entry e;
	char label[512];

	(void)s;
	memset(&e, 0, sizeof(e));
	strcpy(e.action, "setlimit");
	strcpy(e.targets, "tourlab/carol");
	strcpy(e.args, "grptres=cpu=4,mem=1G,maxjobs=3");
	strcpy(e.inverse, "setlimit tourlab/carol grptres=cpu=-1,mem=2G "
			  "maxjobs=5");
	sq_audit_undo_label(&e, label, sizeof(label));
	assert_string_equal(label, "undo setlimit tourlab/carol grptres "
				   "cpu=4,mem=1G -> cpu=-1,mem=2G maxjobs 3 "
				   "-> 5");
	strcpy(e.action, "deluser");
	e.args[0] = '\0';
	strcpy(e.inverse, "adduser tourlab/carol maxjobs=5\nadduser x/y");
	sq_audit_undo_label(&e, label, sizeof(label));
	assert_string_equal(label, "undo deluser tourlab/carol: adduser "
				   "tourlab/carol maxjobs=5");
}

static void
test_last_undo_skips_failed(void **s)
{
	char path[] = "/tmp/sq-test-undo-XXXXXX";
	int fd = mkstemp(path);
	FILE *fp;
	struct sq_audit_undo u;
	struct sq_err err;

	(void)s;
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fputs("{\"event\":\"result\",\"session\":\"s1\",\"cluster\":\"c\","
	      "\"action\":\"setlimit\",\"targets\":[\"t/carol\"],"
	      "\"args\":[\"maxjobs=3\"],\"ok\":true,"
	      "\"inverse\":\"setlimit t/carol maxjobs=5\"}\n"
	      "{\"event\":\"result\",\"session\":\"s1\",\"cluster\":\"c\","
	      "\"action\":\"setlimit\",\"targets\":[\"t/bob\"],"
	      "\"args\":[\"maxjobs=9\"],\"ok\":false,\"inverse\":\"\"}\n",
	      fp);
	fclose(fp);
	assert_int_equal(sq_audit_last_undo(path, "s1", "c", &u, &err), 0);
	assert_string_equal(u.inverse, "setlimit t/carol maxjobs=5");
	assert_string_equal(u.label, "undo setlimit t/carol maxjobs 3 -> 5");
	assert_string_equal(u.note, "the last action (setlimit t/bob) failed "
				    "and has nothing to undo");
	assert_int_equal(sq_audit_last_undo(path, "s2", "c", &u, &err), 0);
	assert_string_equal(u.inverse, "");
	unlink(path);
}

/* Several steps back through :audit are labelled (issue 45, item 5): a
 * setlimit on two associations with different old values has an inverse
 * of two lines; each is labelled with its own target and value (the label
 * named both targets and the first line's value for each), and an action
 * that failed on some targets says its undo is of the others. */
static void
test_undo_label_lines(void **s)
{
	char path[] = "/tmp/sq-test-undo-XXXXXX";
	struct sq_audit_entry e;
	struct sq_audit_undo u;
	struct sq_err err;
	char label[512];
	int fd;
	FILE *fp;

	(void)s;
	memset(&e, 0, sizeof(e));
	strcpy(e.action, "setlimit");
	strcpy(e.targets, "tourlab/carol,tourlab/dave");
	strcpy(e.args, "maxjobs=3");
	strcpy(e.ok, "true");
	strcpy(e.inverse, "setlimit tourlab/carol maxjobs=5\n"
			  "setlimit tourlab/dave maxjobs=7");
	sq_audit_undo_label_line(&e, 0, label, sizeof(label));
	assert_string_equal(label,
			    "undo setlimit tourlab/carol maxjobs 3 -> 5");
	sq_audit_undo_label_line(&e, 1, label, sizeof(label));
	assert_string_equal(label, "undo setlimit tourlab/dave maxjobs 3 -> 7");
	sq_audit_undo_label(&e, label, sizeof(label));
	assert_string_equal(label,
			    "undo setlimit tourlab/carol maxjobs 3 -> 5");

	/* two targets asked, one failed: the undo offered is of the other,
	 * and says so */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fputs("{\"event\":\"result\",\"session\":\"s1\",\"cluster\":\"c\","
	      "\"action\":\"setlimit\",\"targets\":[\"t/carol\",\"t/bob\"],"
	      "\"args\":[\"maxjobs=3\"],\"ok\":false,"
	      "\"inverse\":\"setlimit t/carol maxjobs=5\"}\n",
	      fp);
	fclose(fp);
	assert_int_equal(sq_audit_last_undo(path, "s1", "c", &u, &err), 0);
	assert_string_equal(u.inverse, "setlimit t/carol maxjobs=5");
	assert_string_equal(u.label, "undo setlimit t/carol maxjobs 3 -> 5 "
				     "(of the targets done; the others "
				     "failed)");
	unlink(path);
}

/* moduser: a default account the user has no association in is refused
 * naming its accounts; its default QOS may change on every association
 * of the user, nothing else may */
static void
test_moduser(void **s)
{
	struct sq_action a;
	struct sq_cli_state st, before, after;
	char msg[512];

	(void)s;
	memset(&st, 0, sizeof(st));
	st.ok = 1;
	st.n = 1;
	st.rec = calloc(1, sizeof(*st.rec));
	assert_non_null(st.rec);
	st.rec[0].found = 1;
	set(&st.rec[0], "User", "carol");
	set(&st.rec[0], "Accounts", "chemistry,tourlab");
	parse("moduser Carol defaultaccount=physics", &a);
	assert_string_equal(a.targets[0], "carol");
	assert_int_equal(sq_cli_moduser_refused(&a, &st, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "refused: carol has no association in physics "
				 "(its accounts: chemistry,tourlab); add one "
				 "first (adduser carol account=physics)");
	sq_action_free(&a);
	parse("moduser carol defaultaccount=tourlab adminlevel=Operator", &a);
	assert_int_equal(sq_cli_moduser_refused(&a, &st, msg, sizeof(msg)), 0);
	assert_string_equal(a.args[1], "adminlevel=operator");
	sq_action_free(&a);
	parse("moduser carol defaultaccount=tour", &a); /* a prefix only */
	assert_int_equal(sq_cli_moduser_refused(&a, &st, msg, sizeof(msg)), 1);
	sq_action_free(&a);
	sq_cli_state_free(&st);

	parse("moduser carol defaultqos=high", &a);
	state(&before, "5", "");
	state(&after, "5", "");
	set(&before.all[1], "DefaultQOS", "normal");
	set(&after.all[1], "DefaultQOS", "high");
	set(&before.all[2], "DefaultQOS", "");
	set(&after.all[2], "DefaultQOS", "high");
	assert_int_equal(
	    sq_cli_others_changed(&a, 0, &before, &after, msg, sizeof(msg)), 0);
	free(after.all[2].val[3]);
	after.all[2].val[3] = strdup("3"); /* MaxJobs of carol/gpu */
	assert_int_equal(
	    sq_cli_others_changed(&a, 0, &before, &after, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "also changed tourlab/carol/gpu: MaxJobs "
				 "(unset) -> 3");
	sq_cli_state_free(&before);
	sq_cli_state_free(&after);
	sq_action_free(&a);
	/* -1 clears the default QOS; other keys take no -1 */
	parse("moduser carol defaultqos=-1", &a);
	sq_action_free(&a);
	{
		struct sq_err err;

		assert_int_equal(sq_action_parse("moduser carol "
						 "defaultaccount=-1",
						 -1, NULL, 0, &a, &err),
				 -1);
	}
}

/* deluser's and delaccount's previews list what goes with them; the
 * undo of delaccount re-adds its coordinators */
static void
test_delete_listing(void **s)
{
	struct sq_action a;
	struct sq_cli_state st;
	char buf[1024] = "", inv[1024];

	(void)s;
	parse("deluser carol account=tourlab", &a);
	state(&st, "5", "");
	sq_cli_delete_listing(NULL, &a, &st, buf, sizeof(buf));
	assert_string_equal(buf, "\nremoves tourlab/carol with its limits: "
				 "GrpTRES=cpu=4 MaxJobs=5\nundo re-creates "
				 "all of it (:undo, or the undo: lines)");
	/* a limit adduser does not take: said plainly */
	set(&st.rec[0], "GrpWall", "10:00");
	set(&st.rec[0], "Fairshare", "7");
	buf[0] = '\0';
	sq_cli_delete_listing(NULL, &a, &st, buf, sizeof(buf));
	assert_non_null(strstr(buf, "MaxJobs=5 Fairshare=7\ncannot be undone "
				    "in full: GrpWall=10:00 of tourlab/carol "
				    "are not set again by its undo"));
	assert_non_null(strstr(buf, "\nundo re-creates the rest"));
	sq_cli_state_free(&st);
	sq_action_free(&a);

	parse("delaccount tourlab", &a);
	memset(&st, 0, sizeof(st));
	st.ok = 1;
	st.n = 1;
	st.rec = calloc(1, sizeof(*st.rec));
	assert_non_null(st.rec);
	st.rec[0].found = 1;
	set(&st.rec[0], "Account", "tourlab");
	set(&st.rec[0], "Descr", "tour");
	set(&st.rec[0], "Org", "lab");
	set(&st.rec[0], "Coordinators", "carol,bob");
	set(&st.rec[0], "ParentName", "chemistry");
	set(&st.rec[0], "Fairshare", "1");
	buf[0] = '\0';
	sq_cli_delete_listing(NULL, &a, &st, buf, sizeof(buf));
	assert_string_equal(buf, "\nremoves account tourlab (parent chemistry, "
				 "fairshare 1)\nremoves coordinators "
				 "carol,bob of tourlab\nundo re-creates all "
				 "of it (:undo, or the undo: lines)");
	assert_int_equal(sq_cli_inverse(&a, &st, inv, sizeof(inv)), 0);
	assert_string_equal(inv,
			    "addaccount tourlab parent=chemistry "
			    "description=tour organization=lab "
			    "fairshare=1\naddcoord tourlab user=carol,bob");
	sq_cli_state_free(&st);
	sq_action_free(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where_no_partition),
		cmocka_unit_test(test_others_changed),
		cmocka_unit_test(test_deluser_inverse),
		cmocka_unit_test(test_names_folded),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_delaccount_needs_empty),
		cmocka_unit_test(test_rest_exact),
		cmocka_unit_test(test_undo_label),
		cmocka_unit_test(test_last_undo_skips_failed),
		cmocka_unit_test(test_undo_label_lines),
		cmocka_unit_test(test_moduser),
		cmocka_unit_test(test_delete_listing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
