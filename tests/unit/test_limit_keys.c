/*
 * test_limit_keys.c - unit tests of the one vocabulary of limit keys
 * (core/action/limit_keys.h): every key is taken by associations or QOS with a
 * sacctmgr word and a show column for each it applies to; aliases resolve
 * by scope (maxjobs on a QOS is MaxJobsPerUser, as sacctmgr reads it);
 * the action argument tables are the vocabulary; an unknown key lists the
 * keys taken; and the argv and undo built from them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "core/action/action.h"
#include "core/action/limit_keys.h"
#include "tests/unit/test_util.h"

static void
test_table(void **state)
{
	const struct sq_limit_key *k;
	size_t n, i, j;

	(void)state;
	k = sq_limit_keys(&n);
	assert_true(n >= 20);
	for (i = 0; i < n; i++) {
		assert_true(k[i].scope != 0);
		if (k[i].scope & SQ_LIM_ASSOC)
			assert_true(k[i].word_assoc && k[i].col_assoc);
		if (k[i].scope & SQ_LIM_QOS)
			assert_true(k[i].word_qos && k[i].col_qos &&
				    k[i].rest_qos);
		for (j = 0; j < i; j++)
			assert_string_not_equal(k[i].key, k[j].key);
		/* an alias never shadows a key of its scope */
		assert_null(sq_limit_alias(k[i].key, k[i].scope));
	}
}

static void
test_aliases(void **state)
{
	(void)state;
	assert_string_equal(sq_limit_alias("maxjobs", SQ_LIM_QOS), "maxjobspu");
	assert_null(sq_limit_alias("maxjobs", SQ_LIM_ASSOC));
	assert_string_equal(sq_limit_alias("maxjobsperuser", SQ_LIM_QOS),
			    "maxjobspu");
	assert_string_equal(sq_limit_alias("maxtresperjob", SQ_LIM_ASSOC),
			    "maxtres");
	assert_string_equal(sq_limit_find("maxsubmitjobs", SQ_LIM_ASSOC)->key,
			    "maxsubmit");
	assert_string_equal(sq_limit_find("maxsubmitjobs", SQ_LIM_QOS)->key,
			    "maxsubmitpu");
	assert_null(sq_limit_find("maxjobspu", SQ_LIM_ASSOC));
	assert_null(sq_limit_find("fairshare", SQ_LIM_QOS));
	assert_string_equal(sq_limit_column("maxjobsperaccount", SQ_LIM_QOS),
			    "MaxJobsPA");
	assert_string_equal(sq_limit_column("maxtres", SQ_LIM_ASSOC),
			    "MaxTRES");
}

/* the argument tables of the actions are the vocabulary, both ways */
static void
test_specs(void **state)
{
	const struct sq_limit_key *k;
	size_t n, i;
	const struct sq_action_def *sl =
	    sq_action_def(SQ_ACTION_ACCT_SET_LIMIT);
	const struct sq_action_def *sq = sq_action_def(SQ_ACTION_QOS_SET);
	const struct sq_action_def *aq = sq_action_def(SQ_ACTION_QOS_ADD);

	(void)state;
	k = sq_limit_keys(&n);
	for (i = 0; i < n; i++) {
		const struct sq_arg_spec *a = sq_action_arg_spec(sl, k[i].key);
		const struct sq_arg_spec *q = sq_action_arg_spec(sq, k[i].key);

		assert_int_equal(a != NULL, (k[i].scope & SQ_LIM_ASSOC) != 0);
		/* maxjobs and maxsubmit are QOS aliases of the per-user keys */
		if (sq_limit_alias(k[i].key, SQ_LIM_QOS) == NULL)
			assert_int_equal(q != NULL,
					 (k[i].scope & SQ_LIM_QOS) != 0);
		else
			q = NULL;
		if (q != NULL) {
			assert_string_equal(q->slurm, k[i].word_qos);
			assert_non_null(sq_action_arg_spec(aq, k[i].key));
		}
		if (a != NULL)
			assert_string_equal(a->slurm, k[i].word_assoc);
	}
	assert_int_equal(sl->nargs + sq->nargs, n + 5); /* 5 in both */
}

static void
parse_ok(const char *line, struct sq_action *a)
{
	struct sq_err err;

	if (sq_action_parse(line, -1, NULL, 0, a, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
}

static void
test_parse(void **state)
{
	struct sq_action a;
	struct sq_err err;
	char b[1024];

	(void)state;
	/* the old spellings stay keys, written back canonically */
	parse_ok("setqos low maxjobsperuser=3 maxsubmitperuser=4", &a);
	assert_string_equal(sq_action_arg(&a, "maxjobspu"), "3");
	assert_string_equal(sq_action_arg(&a, "maxsubmitpu"), "4");
	assert_int_equal(sq_action_format(&a, b, sizeof(b)), 0);
	assert_string_equal(b, "setqos low maxjobspu=3 maxsubmitpu=4");
	sq_action_free(&a);
	parse_ok("modqos low maxjobs=2", &a);
	assert_int_equal(a.type, SQ_ACTION_QOS_SET);
	assert_string_equal(sq_action_arg(&a, "maxjobspu"), "2");
	sq_action_free(&a);
	/* an unknown key: the keys taken */
	assert_int_equal(
	    sq_action_parse("setqos low maxfoo=1", -1, NULL, 0, &a, &err), -1);
	assert_non_null(strstr(err.msg, "it takes: grptres"));
	assert_non_null(strstr(err.msg, "maxtrespa"));
	/* a key of the other: said so */
	assert_int_equal(
	    sq_action_parse("setlimit chem maxjobspu=1", -1, NULL, 0, &a, &err),
	    -1);
	assert_non_null(strstr(err.msg, "a QOS limit"));
	assert_int_equal(
	    sq_action_parse("setqos low fairshare=1", -1, NULL, 0, &a, &err),
	    -1);
	assert_non_null(strstr(err.msg, "an association limit"));
	/* values: range and form */
	assert_int_equal(sq_action_parse("addqos x priority=99999999999", -1,
					 NULL, 0, &a, &err),
			 -1);
	assert_non_null(strstr(err.msg, "out of range"));
	assert_int_equal(
	    sq_action_parse("addqos x usagefactor=1.", -1, NULL, 0, &a, &err),
	    -1);
	assert_int_equal(
	    sq_action_parse("addqos x gracetime=1:00", -1, NULL, 0, &a, &err),
	    -1);
	assert_int_equal(sq_action_parse("addqos x preemptmode=bogus", -1, NULL,
					 0, &a, &err),
			 -1);
	parse_ok("addqos X usagefactor=0.25 gracetime=120 flags=-1", &a);
	assert_string_equal(a.targets[0], "x"); /* as sacctmgr stores it */
	sq_action_free(&a);
	parse_ok("modqos low preempt=High,Normal", &a);
	assert_string_equal(sq_action_arg(&a, "preempt"), "high,normal");
	sq_action_free(&a);
}

static void
test_argv(void **state)
{
	struct sq_action a;
	struct sq_cli_cmds c;
	struct sq_err err;
	char b[1024];

	(void)state;
	parse_ok("modqos low preempt=-1 flags=-1 maxtres=cpu=2 maxwall=60", &a);
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &c, &err), 0);
	assert_int_equal(sq_cli_cmds_format(&c, b, sizeof(b)), 0);
	/* an empty preempt= clears the list (sacctmgr reads -1 as QOS 1) */
	assert_string_equal(b, "sacctmgr -i modify qos where name=low set "
			       "preempt= flags=-1 maxtresperjob=cpu=2 "
			       "maxwalldurationperjob=60");
	sq_cli_cmds_free(&c);
	sq_action_free(&a);
	parse_ok("setlimit chem maxtresperjob=cpu=2 maxsubmitjobs=3", &a);
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &c, &err), 0);
	assert_int_equal(sq_cli_cmds_format(&c, b, sizeof(b)), 0);
	assert_string_equal(b, "sacctmgr -i modify account where name=chem "
			       "set maxtres=cpu=2 maxsubmitjobs=3");
	sq_cli_cmds_free(&c);
	sq_action_free(&a);
}

static void
rec_add(struct sq_cli_rec *r, const char *k, const char *v)
{
	snprintf(r->key[r->n], sizeof(r->key[0]), "%s", k);
	r->val[r->n++] = strdup(v);
}

/* delqos's undo: addqos with every setting; modqos's check: another
 * field changed is a failure */
static void
test_qos_undo_check(void **state)
{
	struct sq_cli_rec rec, after;
	struct sq_cli_state st;
	struct sq_action a;
	char buf[1024], msg[256];
	size_t i;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	rec.found = 1;
	rec_add(&rec, "Name", "gpu");
	rec_add(&rec, "Priority", "5");
	rec_add(&rec, "GraceTime", "00:01:30");
	rec_add(&rec, "PreemptMode", "REQUEUE");
	rec_add(&rec, "UsageFactor", "1.500000");
	rec_add(&rec, "MaxJobsPU", "3");
	rec_add(&rec, "Preempt", "");
	memset(&st, 0, sizeof(st));
	st.ok = 1;
	st.n = 1;
	st.rec = &rec;
	parse_ok("delqos gpu", &a);
	assert_int_equal(sq_cli_inverse(&a, &st, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "addqos gpu priority=5 preemptmode=requeue "
				 "usagefactor=1.500000 gracetime=90 "
				 "maxjobspu=3");
	sq_action_free(&a);
	memset(&after, 0, sizeof(after));
	after.found = 1;
	for (i = 0; i < rec.n; i++)
		rec_add(&after, rec.key[i],
			strcmp(rec.key[i], "MaxJobsPU") == 0 ? "4"
							     : rec.val[i]);
	parse_ok("modqos gpu maxjobspu=4", &a);
	assert_int_equal(sq_cli_verify(&a, 0, &rec, &after, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	free(after.val[1]);
	after.val[1] = strdup("6"); /* Priority changed too */
	assert_int_equal(sq_cli_verify(&a, 0, &rec, &after, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_non_null(strstr(msg, "Priority"));
	sq_action_free(&a);
	for (i = 0; i < rec.n; i++)
		free(rec.val[i]);
	for (i = 0; i < after.n; i++)
		free(after.val[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_argv),
		cmocka_unit_test(test_qos_undo_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
