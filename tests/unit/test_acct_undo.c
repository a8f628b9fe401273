/*
 * test_acct_undo.c - what Slurm changes beyond the targets of delqos,
 * deluser and moduser defaultqos=, in their previews and undo lines
 * (backends/cli/actions_undo.c): the QOS lists and preempt lists a
 * deleted QOS is given back to, the user record a deluser of its last
 * associations re-creates, and moduser's per-association undo when the
 * default QOS differed. Every undo line parses back as :undo reads it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "core/action/action.h"

static void
parse(const char *line, struct sq_action *a)
{
	struct sq_err err;

	if (sq_action_parse(line, -1, NULL, 0, a, &err) != 0)
		fail_msg("%s: %s", line, err.msg);
}

/* every line of inv parses */
static void
parses(const char *inv)
{
	char copy[4096], *line, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", inv);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		struct sq_action a;

		parse(line, &a);
		sq_action_free(&a);
	}
}

static void
state(struct sq_cli_state *st, size_t n)
{
	memset(st, 0, sizeof(*st));
	st->ok = 1;
	st->n = n;
	st->rec = calloc(n, sizeof(*st->rec));
	assert_non_null(st->rec);
}

static struct sq_cli_rec *
all(struct sq_cli_state *st)
{
	struct sq_cli_rec *v = realloc(st->all, (st->nall + 1) * sizeof(*v));

	assert_non_null(v);
	st->all = v;
	memset(&v[st->nall], 0, sizeof(v[0]));
	v[st->nall].found = 1;
	return &v[st->nall++];
}

static void
assoc(struct sq_cli_rec *r, const char *acc, const char *user, const char *part,
      const char *qos, const char *dq)
{
	r->found = 1;
	sq_cli_rec_set(r, "Account", acc);
	sq_cli_rec_set(r, "User", user);
	sq_cli_rec_set(r, "Partition", part);
	sq_cli_rec_set(r, "QOS", qos);
	sq_cli_rec_set(r, "DefaultQOS", dq);
}

static void
test_delqos(void **s)
{
	struct sq_action a;
	struct sq_cli_state st;
	struct sq_cli_rec *p;
	char buf[2048] = "", inv[2048];

	(void)s;
	parse("delqos tq", &a);
	state(&st, 1);
	st.rec[0].found = 1;
	sq_cli_rec_set(&st.rec[0], "Name", "tq");
	sq_cli_rec_set(&st.rec[0], "Priority", "4");
	sq_cli_rec_set(&st.rec[0], "Descr", "undo test");
	sq_cli_rec_set(&st.rec[0], "MinTRES", "cpu=1");
	/* the users' association first, as sacctmgr may list it */
	assoc(all(&st), "ta", "carol", "gpu", "normal,tq", "tq");
	assoc(all(&st), "ta", "", "", "normal,tq", "");
	assoc(all(&st), "tb", "", "", "tqx,normal", "tqx");
	p = all(&st);
	sq_cli_rec_set(p, "Name", "tp");
	sq_cli_rec_set(p, "Preempt", "low,tq");
	sq_cli_undo_listing(&a, &st, buf, sizeof(buf));
	assert_string_equal(
	    buf, "\ncannot be undone in full: MinTRES=cpu=1 of tq are not set "
		 "again by its undo"
		 "\nblocked: ta/carol/gpu (tq) have it as default QOS; Slurm "
		 "refuses the delete until their default QOS is another "
		 "(setlimit ... defaultqos=)"
		 "\nremoves it from the QOS lists of ta/carol/gpu (normal,tq), "
		 "ta (normal,tq)"
		 "\nremoves it from the preempt lists of QOS tp (low,tq)"
		 "\nundo re-creates the rest: the QOS with its settings and "
		 "description, and gives it back to each list above (:undo, "
		 "or the undo: lines)");
	assert_int_equal(sq_cli_inverse(&a, &st, inv, sizeof(inv)), 0);
	assert_string_equal(inv, "addqos tq priority=4 description=\"undo "
				 "test\"\nsetqos tp preempt=low,tq\n"
				 "setlimit ta qos=normal,tq\n"
				 "setlimit ta/carol/gpu qos=normal,tq "
				 "defaultqos=tq");
	parses(inv);
	sq_cli_state_free(&st);
	sq_action_free(&a);
}

static void
user_rec(struct sq_cli_rec *r, const char *acc, const char *n)
{
	assoc(r, acc, "dave", "", "normal", "");
	sq_cli_rec_set(r, "UserAssocs", n);
	sq_cli_rec_set(r, "UserDefAcct", "ta");
	sq_cli_rec_set(r, "UserAdmin", "Operator");
	sq_cli_rec_set(r, "UserWCKey", "");
	sq_cli_rec_set(r, "UserCoords", "tc,td");
}

static void
test_deluser_last(void **s)
{
	struct sq_action a;
	struct sq_cli_state st;
	char buf[2048] = "", inv[2048];

	(void)s;
	parse("deluser tb/dave ta/dave", &a);
	state(&st, 2);
	user_rec(&st.rec[0], "tb", "2");
	user_rec(&st.rec[1], "ta", "2");
	sq_cli_undo_listing(&a, &st, buf, sizeof(buf));
	assert_string_equal(buf, "\nremoves user dave with its last "
				 "association (admin level Operator, default "
				 "account ta)\nremoves dave as coordinator "
				 "of tc,td");
	assert_int_equal(sq_cli_inverse(&a, &st, inv, sizeof(inv)), 0);
	assert_string_equal(inv,
			    "adduser tb/dave qos=normal\n"
			    "adduser ta/dave qos=normal\n"
			    "moduser dave defaultaccount=ta "
			    "adminlevel=operator\n"
			    "addcoord tc user=dave\naddcoord td user=dave");
	parses(inv);
	/* a third association elsewhere: the user stays, nothing more */
	sq_cli_rec_set(&st.rec[0], "UserAssocs", "3");
	sq_cli_rec_set(&st.rec[1], "UserAssocs", "3");
	buf[0] = '\0';
	sq_cli_undo_listing(&a, &st, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(sq_cli_inverse(&a, &st, inv, sizeof(inv)), 0);
	assert_null(strstr(inv, "moduser"));
	sq_cli_state_free(&st);
	sq_action_free(&a);
}

static void
test_moduser_mixed(void **s)
{
	struct sq_action a;
	struct sq_cli_state st, after;
	char buf[2048] = "", inv[2048], msg[512];

	(void)s;
	parse("moduser erin defaultqos=low adminlevel=operator", &a);
	state(&st, 1);
	st.rec[0].found = 1;
	sq_cli_rec_set(&st.rec[0], "User", "erin");
	sq_cli_rec_set(&st.rec[0], "Admin", "None");
	sq_cli_rec_set(&st.rec[0], "DefaultQOS", "(mixed)");
	assoc(all(&st), "ta", "erin", "", "normal,low", "normal");
	assoc(all(&st), "ta", "erin", "gpu", "normal,low", "low");
	assoc(all(&st), "tb", "erin", "", "normal,low", "");
	sq_cli_undo_listing(&a, &st, buf, sizeof(buf));
	assert_string_equal(buf,
			    "\nchanges the default QOS of ta/erin: normal -> "
			    "low\nchanges the default QOS of tb/erin: (none) "
			    "-> low\ntheir default QOS differ: the undo sets "
			    "each back on its own (setlimit ... defaultqos=)");
	assert_int_equal(sq_cli_moduser_mixed(&a, &st), 1);
	assert_int_equal(sq_cli_inverse(&a, &st, inv, sizeof(inv)), 0);
	assert_string_equal(inv, "moduser erin adminlevel=none\n"
				 "setlimit ta/erin defaultqos=normal\n"
				 "setlimit tb/erin defaultqos=-1");
	parses(inv);
	/* the check after: each association has it */
	state(&after, 1);
	assoc(all(&after), "ta", "erin", "", "normal,low", "low");
	assoc(all(&after), "ta", "erin", "gpu", "normal,low", "low");
	assoc(all(&after), "tb", "erin", "", "normal,low", "");
	msg[0] = '\0';
	assert_int_equal(
	    sq_cli_moduser_dq_unchanged(&a, "erin", &after, msg, sizeof(msg)),
	    1);
	assert_string_equal(msg, "not changed tb/erin: DefaultQOS is ''");
	assert_int_equal(
	    sq_cli_others_changed(&a, 0, &st, &after, msg, sizeof(msg)), 1);
	sq_cli_state_free(&after);
	sq_cli_state_free(&st);
	sq_action_free(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delqos),
		cmocka_unit_test(test_deluser_last),
		cmocka_unit_test(test_moduser_mixed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
