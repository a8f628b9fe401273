/*
 * test_verdicts_acct.c - an account action means the same on every
 * backend: every account, user, association and QOS action's verdict
 * (core/action/acct_verdict.c) through the CLI's reader (sacctmgr -n -P
 * show, backends/cli/actions_read.c) and through REST's (the GETs of
 * backends/rest) on the same states, recorded from the 22.05, 24.11 and
 * 26.05 testbeds before and after real changes
 * (tests/fixtures/verdicts/RELEASE/acct, record_acct.sh; README.md there
 * says how). Each verdict must be the one expected for the state (done
 * when the state is as the action asks, not done otherwise), and where
 * slurmrestd maps the action on that release the two backends must
 * agree, word for word.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "backends/rest/actions.h"
#include "core/action/acct_verdict.h"
#include "core/action/action.h"
#include "tests/unit/test_util.h"

static const struct {
	const char *rel;
	int vdb; /* the /slurmdb/ API recorded */
} releases[] = { { "22.05", 38 }, { "24.11", 42 }, { "26.05", 45 } };

static const char *const states[] = { "base",  "set",  "changed", "cleared",
				      "moved", "gone", NULL };

/* What each target is read from in a state directory: the CLI's
 * outputs (in sq_cli_read_state()'s order) and REST's answer, its list
 * key, and the association the REST reader selects ("" : the first). */
enum target { T_LIMITS, T_NEWASSOC, T_QOS, T_QOS_LOW, T_USER, T_ACCOUNT };
static const struct {
	const char *cli[3], *json, *key, *assoc;
} targets[] = {
	[T_LIMITS] = { { "assoc.txt" },
		       "assoc.json",
		       "associations",
		       "chemistry/carol" },
	[T_NEWASSOC] = { { "assoc_new.txt" },
			 "assoc_new.json",
			 "associations",
			 "sqvacct/bob" },
	[T_QOS] = { { "qos.txt" }, "qos.json", "qos", "" },
	[T_QOS_LOW] = { { "qos_low.txt" }, "qos_low.json", "qos", "" },
	[T_USER] = { { "user.txt", "user_assoc.txt" },
		     "user.json",
		     "users",
		     "" },
	[T_ACCOUNT] = { { "account.txt", "account_assoc.txt",
			  "account_child.txt" },
			"account.json",
			"accounts",
			"" },
};

/* Each action line, its target's files, the first /slurmdb/ version on
 * which REST maps it (0: never: refused, CLI only) and the states in
 * which it is done. */
static const struct {
	const char *line;
	enum target t;
	int rest_from;
	const char *done;
} cases[] = {
	{ "setlimit chemistry/carol maxjobs=5 grpjobs=7 grpsubmit=9 "
	  "grptres=cpu=16,mem=2000 maxwall=02:00:00 qos=low,normal "
	  "defaultqos=low fairshare=3",
	  T_LIMITS, 40, "set changed" },
	{ "setlimit chemistry/carol maxwall=120", T_LIMITS, 40,
	  "set changed cleared moved" },
	{ "setlimit chemistry/carol grptres=cpu=16", T_LIMITS, 40,
	  "set changed" },
	{ "setlimit chemistry/carol grptres=cpu=8", T_LIMITS, 40, "base gone" },
	{ "setlimit chemistry/carol grptres=gres/gpu=-1,mem=-1", T_LIMITS, 40,
	  "base cleared moved gone" },
	{ "setlimit chemistry/carol maxjobs=2", T_LIMITS, 40, "base gone" },
	{ "setlimit chemistry/carol qos=normal,low", T_LIMITS, 40,
	  "set changed cleared moved" },
	{ "setlimit chemistry/carol defaultqos=normal", T_LIMITS, 40,
	  "base gone" },
	{ "setlimit chemistry/carol fairshare=3", T_LIMITS, 40,
	  "set changed cleared moved" },
	{ "setlimit chemistry/carol grpjobs=-1", T_LIMITS, 40, "base gone" },
	{ "clearlimit account=chemistry user=carol maxjobs grptres", T_LIMITS,
	  40, "cleared moved" },
	{ "clearlimit account=chemistry user=carol grpjobs", T_LIMITS, 40,
	  "base gone" },
	{ "addqos sqverdict priority=5 gracetime=120 maxwall=60 grpjobs=4 "
	  "maxjobspu=2 maxtrespu=cpu=4 usagefactor=1.5 "
	  "flags=DenyOnLimit,NoDecay preempt=low preemptmode=requeue",
	  T_QOS, 40, "set" },
	{ "setqos sqverdict priority=9 grpjobs=-1 flags=-1", T_QOS, 40,
	  "changed cleared moved" },
	{ "setqos sqverdict priority=9", T_QOS, 38, "changed cleared moved" },
	{ "setqos sqverdict priority=5", T_QOS, 38, "set" },
	{ "setqos sqverdict gracetime=120 maxwall=01:00:00", T_QOS, 40,
	  "set changed cleared moved" },
	{ "setqos sqverdict usagefactor=1.5 preemptmode=REQUEUE", T_QOS, 40,
	  "set changed cleared moved" },
	{ "delqos sqverdict", T_QOS, 40, "base gone" },
	{ "setqos low priority=10", T_QOS_LOW, 38,
	  "base set changed cleared moved gone" },
	{ "setqos low preemptmode=off flags=-1 grpjobs=-1", T_QOS_LOW, 40,
	  "base set changed cleared moved gone" },
	{ "setqos low priority=11", T_QOS_LOW, 38, "" },
	{ "moduser alice defaultaccount=astro adminlevel=operator", T_USER, 40,
	  "set changed cleared moved" },
	{ "moduser alice defaultaccount=physics adminlevel=none", T_USER, 40,
	  "base gone" },
	{ "moduser alice defaultqos=low", T_USER, 40,
	  "set changed cleared moved" },
	{ "moduser alice defaultqos=normal", T_USER, 40, "base gone" },
	{ "addaccount sqvacct parent=physics description=\"squall verdict\" "
	  "organization=sqv fairshare=2",
	  T_ACCOUNT, 38, "set changed cleared" },
	{ "addaccount sqvacct description=other", T_ACCOUNT, 38, "" },
	{ "modaccount sqvacct organization=sqv", T_ACCOUNT, 40,
	  "set changed cleared moved" },
	{ "modaccount sqvacct description=\"squall verdict\" organization=x",
	  T_ACCOUNT, 40, "" },
	/* REST maps them from v0.0.40 (POST /associations), reading the
	 * account's association (account_assoc.json): moved is sqvacct
	 * under chemistry with fairshare 4 */
	{ "modaccount sqvacct fairshare=2", T_ACCOUNT, 40,
	  "set changed cleared" },
	{ "modaccount sqvacct parent=physics", T_ACCOUNT, 40,
	  "set changed cleared" },
	{ "modaccount sqvacct fairshare=4", T_ACCOUNT, 40, "moved" },
	{ "modaccount sqvacct parent=chemistry", T_ACCOUNT, 40, "moved" },
	{ "modaccount sqvacct parent=chemistry fairshare=4", T_ACCOUNT, 40,
	  "moved" },
	{ "modaccount sqvacct parent=chemistry fairshare=2", T_ACCOUNT, 40,
	  "" },
	{ "delaccount sqvacct", T_ACCOUNT, 38, "base gone" },
	{ "addcoord sqvacct user=bob", T_ACCOUNT, 40,
	  "set changed cleared moved" },
	{ "addcoord sqvacct user=bob,carol", T_ACCOUNT, 40, "" },
	{ "delcoord sqvacct user=carol", T_ACCOUNT, 40,
	  "set changed cleared moved" },
	{ "delcoord sqvacct user=bob", T_ACCOUNT, 40, "" },
	{ "adduser bob account=sqvacct", T_NEWASSOC, 38,
	  "set changed cleared moved" },
	{ "deluser bob account=sqvacct", T_NEWASSOC, 38, "base gone" },
};

static unsigned seen[SQ_ACTION_COUNT], crossed[SQ_ACTION_COUNT];

/* The CLI's record of a's one target from the state's recorded texts. */
static void
cli_read(const char *dir, enum target t, const struct sq_action *a,
	 struct sq_cli_state *st)
{
	char *texts[3] = { NULL, NULL, NULL }, path[160];
	size_t k, n = 0;

	for (k = 0; k < 3 && targets[t].cli[k] != NULL; k++, n++) {
		snprintf(path, sizeof(path), "%s/%s", dir, targets[t].cli[k]);
		texts[k] = sq_test_fixture(path, NULL);
	}
	assert_int_equal(sq_cli_parse_acct_state(texts, n, a, st), 0);
	for (k = 0; k < n; k++)
		free(texts[k]);
}

/* REST's record: the list's element as the backend selects it (an
 * association: the one of the account and user without partition). */
static void
rest_read(const char *dir, enum target t, int vdb, const struct sq_action *a,
	  struct sq_rest_state *st)
{
	char path[160], *json, acc[129] = "", user[129] = "", part[129];
	json_object *arr = NULL;
	size_t k;

	snprintf(path, sizeof(path), "%s/%s", dir, targets[t].json);
	json = sq_test_fixture(path, NULL);
	memset(st, 0, sizeof(*st));
	st->root = json_tokener_parse(json);
	free(json);
	assert_non_null(st->root);
	if (!json_object_object_get_ex(st->root, targets[t].key, &arr) &&
	    !json_object_object_get_ex(st->root, "QOS", &arr))
		return; /* an error answer: not found */
	if (*targets[t].assoc)
		sq_action_assoc_split(targets[t].assoc, acc, user, part);
	for (k = 0; k < json_object_array_length(arr) && st->rec == NULL; k++) {
		json_object *x = json_object_array_get_idx(arr, k), *v;

		if (*acc && !(json_object_object_get_ex(x, "account", &v) &&
			      strcmp(json_object_get_string(v), acc) == 0 &&
			      json_object_object_get_ex(x, "user", &v) &&
			      json_object_get_string(v) != NULL &&
			      strcmp(json_object_get_string(v), user) == 0))
			continue;
		st->rec = x;
	}
	st->found = st->rec != NULL;
	/* recorded with_coords from v0.0.40 as actions_read.c reads it */
	st->coords = t == T_ACCOUNT && vdb >= 40;
	/* and a user's associations in full (moduser defaultqos=), an
	 * account's (its own: parent, shares) for every account action but
	 * delaccount when the account is there, as actions_read.c reads
	 * them (an error answer: none) */
	if ((t == T_USER && vdb >= 40) ||
	    (t == T_ACCOUNT && st->found &&
	     a->type != SQ_ACTION_ACCT_DELETE_ACCOUNT)) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 t == T_USER ? "user_assocs.json"
				     : "account_assoc.json");
		json = sq_test_fixture(path, NULL);
		st->aroot = json_tokener_parse(json);
		free(json);
		assert_non_null(st->aroot);
		if (!json_object_object_get_ex(st->aroot, "associations",
					       &st->assocs)) {
			assert_int_equal(t, T_ACCOUNT);
			st->assocs = json_object_new_array();
			json_object_object_add(st->aroot, "associations",
					       st->assocs);
		}
	}
}

static int
done_in(const char *list, const char *state)
{
	char pad[128], w[32];

	snprintf(pad, sizeof(pad), " %s ", list);
	snprintf(w, sizeof(w), " %s ", state);
	return strstr(pad, w) != NULL;
}

static void
check_case(size_t c, const char *rel, int vdb, const char *state)
{
	struct sq_action a;
	struct sq_err err;
	struct sq_cli_state cli;
	struct sq_rest_state rest;
	char dir[96], m1[256], m2[256];
	int pass, v1, v2, want;

	snprintf(dir, sizeof(dir), "verdicts/%s/acct/%s", rel, state);
	sq_err_clear(&err);
	if (sq_action_parse(cases[c].line, -1, NULL, 0, &a, &err) != 0)
		fail_msg("parse '%s': %s", cases[c].line, err.msg);
	seen[a.type]++;
	cli_read(dir, cases[c].t, &a, &cli);
	want = done_in(cases[c].done, state) ? SQ_VERIFY_OK : SQ_VERIFY_FAILED;
	for (pass = 0; pass < 2; pass++) {
		v1 = sq_cli_verify(&a, 0, pass ? &cli.rec[0] : NULL,
				   &cli.rec[0], m1, sizeof(m1));
		if (v1 != want)
			fail_msg("%s %s: '%s' cli %d '%s', want %d", rel, state,
				 cases[c].line, v1, m1, want);
		if (cases[c].rest_from == 0 || vdb < cases[c].rest_from)
			continue;
		rest_read(dir, cases[c].t, vdb, &a, &rest);
		v2 = sq_rest_verify(&a, pass ? &rest : NULL, &rest, m2,
				    sizeof(m2));
		if (v1 != v2 || strcmp(m1, m2) != 0)
			fail_msg("%s %s: '%s' cli %d '%s', rest %d '%s'", rel,
				 state, cases[c].line, v1, m1, v2, m2);
		crossed[a.type]++;
		sq_rest_state_free(&rest);
	}
	sq_cli_state_free(&cli);
	sq_action_free(&a);
}

static void
test_backends_agree(void **state)
{
	size_t r, s, c, i;

	(void)state;
	for (r = 0; r < sizeof(releases) / sizeof(releases[0]); r++)
		for (s = 0; states[s] != NULL; s++)
			for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
				check_case(c, releases[r].rel, releases[r].vdb,
					   states[s]);
	/* every account action ran, and every one REST maps through both */
	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		enum sq_action_type t = (enum sq_action_type)i;

		if (sq_acct_has_verdict(t) && !seen[i])
			fail_msg("%s: no case", sq_action_def(t)->name);
	}
	assert_true(crossed[SQ_ACTION_ACCT_SET_LIMIT] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_CLEAR_LIMIT] > 0);
	assert_true(crossed[SQ_ACTION_QOS_SET] > 0);
	assert_true(crossed[SQ_ACTION_QOS_ADD] > 0);
	assert_true(crossed[SQ_ACTION_QOS_DELETE] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_MODIFY_USER] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_ADD_ACCOUNT] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_DELETE_ACCOUNT] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_ADD_USER] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_REMOVE_USER] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_MODIFY_ACCOUNT] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_ADD_COORD] > 0);
	assert_true(crossed[SQ_ACTION_ACCT_DEL_COORD] > 0);
}

/* What every backend checks besides the verdict (core's
 * sq_acct_others_same()): an account or user action judged from one
 * recorded state to another says the same on both backends, "changed
 * as asked, but other fields of the user changed too" where the other
 * fields moved (base -> set: alice's default QOS moved with her default
 * account). */
static int
others_case(size_t c, const char *rel, int vdb, const char *s1, const char *s2)
{
	struct sq_action a;
	struct sq_err err;
	struct sq_cli_state c1, c2;
	struct sq_rest_state r1, r2;
	char d1[96], d2[96], m1[256], m2[256];
	int v1, v2, fired;

	snprintf(d1, sizeof(d1), "verdicts/%s/acct/%s", rel, s1);
	snprintf(d2, sizeof(d2), "verdicts/%s/acct/%s", rel, s2);
	sq_err_clear(&err);
	assert_int_equal(sq_action_parse(cases[c].line, -1, NULL, 0, &a, &err),
			 0);
	cli_read(d1, cases[c].t, &a, &c1);
	cli_read(d2, cases[c].t, &a, &c2);
	rest_read(d1, cases[c].t, vdb, &a, &r1);
	rest_read(d2, cases[c].t, vdb, &a, &r2);
	v1 = sq_cli_verify(&a, 0, &c1.rec[0], &c2.rec[0], m1, sizeof(m1));
	v2 = sq_rest_verify(&a, &r1, &r2, m2, sizeof(m2));
	if (v2 == SQ_VERIFY_OK &&
	    !sq_rest_acct_unchanged(&a, &r1, &r2, m2, sizeof(m2)))
		v2 = SQ_VERIFY_FAILED;
	if (v1 != v2 || strcmp(m1, m2) != 0)
		fail_msg("%s %s -> %s: '%s' cli %d '%s', rest %d '%s'", rel, s1,
			 s2, cases[c].line, v1, m1, v2, m2);
	fired = strstr(m1, "changed as asked, but") != NULL;
	sq_rest_state_free(&r1);
	sq_rest_state_free(&r2);
	sq_cli_state_free(&c1);
	sq_cli_state_free(&c2);
	sq_action_free(&a);
	return fired;
}

static void
test_others_agree(void **state)
{
	size_t r, s1, s2, c, fired = 0;

	(void)state;
	for (r = 0; r < sizeof(releases) / sizeof(releases[0]); r++)
		for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			if (cases[c].rest_from == 0 ||
			    releases[r].vdb < cases[c].rest_from ||
			    (cases[c].t != T_USER && cases[c].t != T_ACCOUNT))
				continue;
			for (s1 = 0; states[s1] != NULL; s1++)
				for (s2 = 0; states[s2] != NULL; s2++)
					fired += (size_t)others_case(
					    c, releases[r].rel, releases[r].vdb,
					    states[s1], states[s2]);
		}
	assert_true(fired > 0);
}

/* The normalized values: sacctmgr's print and slurmrestd's value of the
 * same setting are the same text. */
static void
test_normalized(void **state)
{
	static const struct {
		enum sq_kind kind;
		const char *key, *a, *b, *want;
	} same[] = {
		{ SQ_KIND_ASSOCS, "maxwall", "02:00:00", "120", "2:00:00" },
		{ SQ_KIND_ASSOCS, "grptres", "cpu=16,mem=2000M",
		  "mem=2000,cpu=16", "cpu=16,mem=2000" },
		{ SQ_KIND_ASSOCS, "grpjobs", "", "-1", "" },
		{ SQ_KIND_ASSOCS, "qos", "low,normal", "normal,low",
		  "low,normal" },
		{ SQ_KIND_ASSOCS, "fairshare", "parent", "2147483647",
		  "parent" },
		{ SQ_KIND_QOS, "gracetime", "00:02:00", "120", "120" },
		{ SQ_KIND_QOS, "usagefactor", "1.500000", "1.5", "1.500000" },
		{ SQ_KIND_QOS, "preemptmode", "cluster", "off", "cluster" },
		{ SQ_KIND_QOS, "flags", "DenyOnLimit,NoDecay",
		  "NoDecay,DenyOnLimit", "DenyOnLimit,NoDecay" },
		{ SQ_KIND_USERS, "adminlevel", "Administrator", "admin",
		  "administrator" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		struct sq_acct_rec x, y;

		sq_acct_rec_init(&x);
		sq_acct_rec_init(&y);
		sq_acct_rec_put(&x, same[i].kind, same[i].key, same[i].a);
		sq_acct_rec_put(&y, same[i].kind, same[i].key, same[i].b);
		assert_string_equal(sq_acct_rec_get(&x, same[i].key),
				    same[i].want);
		assert_string_equal(sq_acct_rec_get(&y, same[i].key),
				    same[i].want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backends_agree),
		cmocka_unit_test(test_others_agree),
		cmocka_unit_test(test_normalized),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
