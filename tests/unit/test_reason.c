/*
 * test_reason.c - unit tests of reason templates (core/action/reason.c): @NAME
 * in a reason gives the template's text in every form of the action
 * grammar, hostile texts included, down to the argv.
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
	sq_test_parse(buf, -1, &a);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reason_templates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
