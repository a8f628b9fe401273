/*
 * test_cmd.c - unit tests of the console's `:` command table (tui/cmd.c):
 * names and aliases resolve to their row, every row can run, :audit and
 * :undo are rows like the others (bound bare, :undo out of Tab in
 * read-only mode), and man/squall.1's COMMANDS section lists every
 * command and alias of the table and nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/view.h"
#include "tui/app.h"
#include "tui/cmd.h"
#include "tests/unit/test_util.h"

static void
test_find(void **state)
{
	const struct sq_cmd_def *c;
	int i;

	(void)state;
	assert_ptr_equal(sq_cmd_find("q!"), sq_cmd_find("quit"));
	assert_ptr_equal(sq_cmd_find("q"), sq_cmd_find("quit"));
	assert_ptr_equal(sq_cmd_find("colour"), sq_cmd_find("color"));
	assert_ptr_equal(sq_cmd_find("cols"), sq_cmd_find("columns"));
	assert_ptr_equal(sq_cmd_find("w"), sq_cmd_find("write"));
	assert_ptr_equal(sq_cmd_find("v"), sq_cmd_find("view"));
	assert_string_equal(sq_cmd_find("mes")->name, "messages");
	assert_string_equal(sq_cmd_find("h")->name, "help");
	/* whole words only: no prefix, no part of an alias list */
	assert_null(sq_cmd_find("qu"));
	assert_null(sq_cmd_find("col"));
	assert_null(sq_cmd_find(""));
	assert_null(sq_cmd_find("q q!"));
	assert_null(sq_cmd_find("jobs"));  /* a view, not a command */
	assert_null(sq_cmd_find("drain")); /* an action */
	for (i = 0; sq_cmds[i].name != NULL; i++) {
		c = &sq_cmds[i];
		assert_ptr_equal(sq_cmd_find(c->name), c);
		assert_non_null(c->run);
		assert_non_null(c->help);
		assert_non_null(c->args);
	}
	assert_true(i >= 20);
}

/* :audit and :undo are rows of the table: `bind KEY audit` takes them
 * bare (as a cluster action's name), not any other command; Tab offers
 * :undo only where it can run */
static void
test_audit_undo(void **state)
{
	struct sq_conf conf;
	struct sq_table table;
	struct sq_app app;
	char *out[64];
	int n, i, ro, undo;

	(void)state;
	assert_non_null(sq_cmd_find("audit"));
	assert_non_null(sq_cmd_find("undo"));
	assert_true(sq_cmd_find("audit")->flags & SQ_CMD_BIND);
	assert_false(sq_cmd_find("audit")->flags & SQ_CMD_CHANGES);
	assert_true(sq_cmd_find("undo")->flags & SQ_CMD_CHANGES);
	assert_true(sq_cmd_action_ok("audit", NULL));
	assert_true(sq_cmd_action_ok("undo", NULL));
	assert_true(sq_cmd_action_ok("cancel", NULL)); /* an action */
	assert_true(sq_cmd_action_ok("down", NULL));   /* a console one */
	assert_false(sq_cmd_action_ok("messages", NULL));
	assert_false(sq_cmd_action_ok("nonsense", NULL));

	sq_conf_init(&conf);
	memset(&table, 0, sizeof(table));
	table.def = &sq_view_jobs;
	memset(&app, 0, sizeof(app));
	app.conf = &conf;
	app.tables = &table;
	app.ntables = 1;
	for (ro = 0; ro < 2; ro++) {
		app.readonly = ro;
		n = sq_cmd_complete(&app, "u", out, 64);
		for (i = 0, undo = 0; i < n; i++) {
			undo |= strcmp(out[i], "undo") == 0;
			free(out[i]);
		}
		assert_int_equal(undo, !ro);
		n = sq_cmd_complete(&app, "aud", out, 64);
		assert_int_equal(n, 1);
		assert_string_equal(out[0], "audit");
		free(out[0]);
	}
}

/* the words after `.It` of the COMMANDS section: "Ic a , Ic b" and
 * "Ic a , b , c" both name a and b (and c) */
static int
man_words(char words[][32], int max)
{
	FILE *fp = fopen("man/squall.1", "r");
	char line[512], *tok, *save;
	int in = 0, n = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, ".Sh ", 4) == 0)
			in = strcmp(line, ".Sh COMMANDS") == 0;
		if (!in || strncmp(line, ".It Ic ", 7) != 0)
			continue;
		/* the names: the first word and each word after " , " */
		tok = strtok_r(line + 7, " ", &save);
		while (tok != NULL && n < max) {
			snprintf(words[n++], sizeof(words[0]), "%s", tok);
			tok = strtok_r(NULL, " ", &save);
			if (tok != NULL && strcmp(tok, "Ic") == 0)
				tok = strtok_r(NULL, " ", &save);
			if (tok == NULL || strcmp(tok, ",") != 0)
				break;
			tok = strtok_r(NULL, " ", &save);
			if (tok != NULL && strcmp(tok, "Ic") == 0)
				tok = strtok_r(NULL, " ", &save);
		}
	}
	fclose(fp);
	return n;
}

static int
listed(char words[][32], int n, const char *w)
{
	int k;

	for (k = 0; k < n; k++) {
		if (strcmp(words[k], w) == 0)
			return 1;
	}
	return 0;
}

static void
test_man_commands(void **state)
{
	static char words[128][32];
	char al[64], *a, *save;
	int n, i, k;

	(void)state;
	n = man_words(words, 128);
	assert_true(n >= 20);
	for (i = 0; sq_cmds[i].name != NULL; i++) {
		if (!listed(words, n, sq_cmds[i].name))
			fail_msg("man COMMANDS lacks '.It Ic %s'",
				 sq_cmds[i].name);
		if (sq_cmds[i].aliases == NULL)
			continue;
		snprintf(al, sizeof(al), "%s", sq_cmds[i].aliases);
		for (a = strtok_r(al, " ", &save); a != NULL;
		     a = strtok_r(NULL, " ", &save)) {
			if (!listed(words, n, a))
				fail_msg("man COMMANDS lacks alias %s of %s", a,
					 sq_cmds[i].name);
		}
	}
	for (k = 0; k < n; k++) {
		if (sq_cmd_find(words[k]) == NULL)
			fail_msg("man COMMANDS lists unknown command %s",
				 words[k]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_audit_undo),
		cmocka_unit_test(test_man_commands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
