/*
 * test_action_cli.c - unit tests of the CLI backend's actions on
 * recorded output (tests/fixtures/cli/22.05/actions): reading and
 * verifying the targets' state (backends/cli/actions_read.c,
 * actions_verify.c), and act() through a scripted transport.
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
#include "tests/unit/fake_backend.h"
#include "tests/unit/test_util.h"

#define FIX "cli/22.05/actions/"

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

	sq_test_parse(line, -1, a);
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
	sq_test_parse("hold 5 6", -1, &a);
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

	sq_test_parse(line, -1, &a);
	assert_int_equal(sq_cli_verify(&a, 0, &released.rec[0], &held.rec[0],
				       msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_int_equal(sq_cli_verify(&a, 0, &held.rec[0], &released.rec[0],
				       msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	sq_action_free(&a);

	snprintf(line, sizeof(line), "release %s", id);
	sq_test_parse(line, -1, &a);
	assert_int_equal(sq_cli_verify(&a, 0, &held.rec[0], &released.rec[0],
				       msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	sq_action_free(&a);

	snprintf(line, sizeof(line),
		 "update %s timelimit=7 comment=\"fixture comment\"", id);
	sq_test_parse(line, -1, &a);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &held.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_OK);
	sq_action_free(&a);
	snprintf(line, sizeof(line), "update %s timelimit=8", id);
	sq_test_parse(line, -1, &a);
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
	sq_test_parse(line, -1, &a);
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

	sq_test_parse("drain n2 reason=fixture: disk full", -1, &a);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &drained.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_OK);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &resumed.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_FAILED);
	sq_action_free(&a);
	sq_test_parse("drain n2 reason=another reason", -1, &a);
	assert_int_equal(
	    sq_cli_verify(&a, 0, NULL, &drained.rec[0], msg, sizeof(msg)),
	    SQ_VERIFY_FAILED);
	sq_action_free(&a);

	sq_test_parse("resume n2", -1, &a);
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
	sq_test_parse("drain n2 reason=x", -1, &a);
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
	struct sq_fake_bed bed; /* the backend; bed.f.argv: what ran */
};

static int
fake_run(void *arg, const char *const argv[], struct sq_buf *out,
	 struct sq_buf *errout)
{
	struct script *s = arg;
	const struct step *st;

	if (s->at >= s->n)
		fail_msg("unexpected command %s %s", argv[0], argv[1]);
	st = &s->steps[s->at++];
	if (st->out != NULL)
		sq_fake_answer(out, st->out);
	if (st->err != NULL)
		sq_fake_answer(errout, st->err);
	return st->status;
}

static int
act_with(const char *line, const struct step *steps, int n, struct script *s,
	 struct sq_result *res, struct sq_err *err)
{
	struct sq_action a;
	int rc;

	memset(s, 0, sizeof(*s));
	s->steps = steps;
	s->n = n;
	sq_fake_bed_init(&s->bed, fake_run, s);
	/* no version detected */
	s->bed.cli.major = s->bed.cli.minor = 0;
	sq_test_parse(line, -1, &a);
	sq_result_init(res);
	rc = sq_cli_act(&s->bed.b, &a, NULL, res, err);
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
	assert_string_equal(s.bed.f.argv[1], want);
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
	assert_string_equal(s.bed.f.argv[1],
			    "scontrol update nodename=n2,n9 "
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
	assert_string_equal(s.bed.f.argv[3],
			    "sacctmgr -i modify account where "
			    "name=sqa_fixture set fairshare=8");
	assert_int_equal(res.status, 1);
	assert_false(res.targets[0].ok);
	assert_non_null(
	    strstr(res.targets[0].message, "doesn't have privilege"));
	assert_string_equal(res.inverse, ""); /* nothing was done */
	sq_result_free(&res);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_state_forged_comment),
		cmocka_unit_test(test_verify_jobs),
		cmocka_unit_test(test_verify_nodes),
		cmocka_unit_test(test_act_hold_ok),
		cmocka_unit_test(test_act_denied),
		cmocka_unit_test(test_act_partial),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
