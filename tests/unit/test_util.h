/*
 * test_util.h - helpers shared by the cmocka unit tests: reading a fixture
 * file into memory, and the includes cmocka needs in its order.
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

#endif
