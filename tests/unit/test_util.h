/*
 * test_util.h - helpers shared by the cmocka unit tests: reading a fixture
 * file into memory, giving one to a CLI parser, an overview row by its
 * id, parsing an action line that must parse, and the includes cmocka
 * needs in its order.
 */
#ifndef SQ_TEST_UTIL_H
#define SQ_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/*
 * Contents of tests/fixtures/<rel> (root from $SQ_FIXTURES, default
 * tests/fixtures), NUL-terminated, malloc'd; fails the test when missing.
 */
char *sq_test_fixture(const char *rel, size_t *len);

/*
 * tests/fixtures/<rel> (when rel is NULL: a copy of literal) given to a
 * CLI parser into a new snapshot of kind; fails the test unless parse
 * returns expect_rc (0 or -1), and a -1 without a message.
 */
struct sq_snapshot;
struct sq_err;
struct sq_snapshot *
sq_test_cli_parse(int kind,
		  int (*parse)(char *, struct sq_snapshot *, struct sq_err *),
		  const char *rel, const char *literal, int expect_rc);

/* The overview row of that id ("section/key") in ov, or NULL. */
struct sq_ov_row;
const struct sq_ov_row *sq_test_ov_row(const struct sq_snapshot *ov,
				       const char *id);

struct sq_action;
/* An action line parsed into a (kind as sq_action_parse takes it, -1:
 * any); fails the test with the parser's message when it does not
 * parse. */
void sq_test_parse(const char *line, int kind, struct sq_action *a);

#endif
