/*
 * sj_test_util.h - helpers shared by the unit tests of backends/slurmjson
 * (test_slurmjson.c, test_sj_*.c): a recorded answer parsed into a
 * snapshot, a body that must fail, a row found by its id or name, a
 * number or duration of a CLI field, the lines of a recorded CLI output,
 * and partitions compared field by field with the CLI parser's.
 */
#ifndef SQ_SJ_TEST_UTIL_H
#define SQ_SJ_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "backends/slurmjson/slurmjson.h"
#include "core/base/err.h"
#include "core/model/model.h"
#include "core/model/model_admin.h"
#include "core/model/snapshot.h"

/* "now" for elapsed times: just after the 24.11 recording */
#define NOW_2411 1795986600

/* the recording of the live 26.05 testbed (tests/fixtures/live) */
#define LIVE_2605 "live/slurm-26.05/"

/* tests/fixtures/<rel> parsed as kind at NOW_2411 (info may be NULL);
 * fails the test with the parser's message when it does not parse. */
struct sq_snapshot *sq_test_sj_parse(enum sq_kind kind, const char *rel,
				     struct sq_sj_info *info);
/* A body that must fail to parse as kind, with a message; the error. */
struct sq_err sq_test_sj_fail(enum sq_kind kind, const char *body, size_t len);

/* The row of s with that id or name (each kind's first member), or
 * NULL. */
const struct sq_job *sq_test_sj_job(const struct sq_snapshot *s,
				    const char *id);
const struct sq_node *sq_test_sj_node(const struct sq_snapshot *s,
				      const char *name);
const struct sq_partition *sq_test_sj_part(const struct sq_snapshot *s,
					   const char *name);
/* The same for any kind whose first member is its name (accounts,
 * users, QOS, reservations). */
const void *sq_test_sj_named(const struct sq_snapshot *s, const char *name);
/* sq_test_sj_named failing the test when there is no such row. */
const void *sq_test_sj_must(const struct sq_snapshot *s, const char *name);
/* The key/value row of section sec and key key. */
const struct sq_kv *sq_test_sj_kv(const struct sq_snapshot *s, const char *sec,
				  const char *key);

/* A CLI field that must be a number (sq_parse_int), or a duration
 * (sq_admin_seconds) in seconds. */
int64_t sq_test_sj_num(const char *s);
int64_t sq_test_sj_secs(const char *v);

/* The non-empty lines of tests/fixtures/<rel> (at most 255), strdup'd
 * into *out; their count. Freed with sq_test_sj_lines_free. */
int sq_test_sj_lines(const char *rel, char ***out);
void sq_test_sj_lines_free(char **v, int n);

/* The REST partitions against the CLI parser's, row by row; the default
 * flag, PreemptMode and state only when the REST version has them. */
void sq_test_sj_same_partitions(const struct sq_snapshot *rest,
				const struct sq_snapshot *cli, int has_default,
				int has_preempt, int has_state);

#endif
