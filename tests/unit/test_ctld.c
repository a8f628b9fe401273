/*
 * test_ctld.c - the controllers: `scontrol ping` (backends/cli/parse_ping.c)
 * and REST /ping (backends/slurmjson/sj_ping.c) on the 22.05 testbed's
 * primary and backup, recorded before and after a takeover
 * (tests/fixtures/ctld/22.05/README.md), and 24.11's v0.0.42 answer; which
 * one is in control and since when (core/analysis/ctld_track.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/analysis/ctld_track.h"
#include "core/model/model_admin.h"
#include "tests/unit/test_util.h"

/* the value of controller row key, or NULL */
static const char *
row(const struct sq_snapshot *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(s, i);

		if (strcmp(kv->section, "controller") == 0 &&
		    strcmp(kv->key, key) == 0)
			return kv->value;
	}
	return NULL;
}

static struct sq_snapshot *
cli_ping(const char *rel)
{
	char *text = sq_test_fixture(rel, NULL);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_DIAG, 0);
	struct sq_err err;

	assert_non_null(s);
	sq_err_clear(&err);
	assert_int_equal(sq_parse_scontrol_ping(text, s, &err), 0);
	free(text);
	return s;
}

static struct sq_snapshot *
rest_ping(const char *rel)
{
	size_t len;
	char *body = sq_test_fixture(rel, &len);
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_DIAG, 0);
	struct sq_err err;

	assert_non_null(s);
	sq_err_clear(&err);
	if (sq_slurmjson_parse(SQ_KIND_DIAG, body, len, 0, s, NULL, &err) != 0)
		fail_msg("%s: %s", rel, err.msg);
	free(body);
	return s;
}

static void
both_up(struct sq_snapshot *s)
{
	assert_int_equal(s->nrows, 2);
	assert_string_equal(row(s, "primary vm"), "UP");
	assert_string_equal(row(s, "backup vm-backup"), "UP");
	assert_int_equal(sq_ctld_track(s, NULL, 100, NULL), 0);
	assert_string_equal(sq_ctld_in_control(s), "vm (primary)");
	assert_null(row(s, "in control since"));
	sq_snapshot_unref(s);
}

static void
taken_over(struct sq_snapshot *s)
{
	assert_int_equal(s->nrows, 2);
	assert_string_equal(row(s, "primary vm"), "DOWN");
	assert_string_equal(row(s, "backup vm-backup"), "UP");
	assert_int_equal(sq_ctld_track(s, NULL, 100, NULL), 0);
	assert_string_equal(sq_ctld_in_control(s), "vm-backup (backup)");
	sq_snapshot_unref(s);
}

static void
test_cli(void **state)
{
	(void)state;
	both_up(cli_ping("ctld/22.05/scontrol_ping_up.txt"));
	taken_over(cli_ping("ctld/22.05/scontrol_ping_takeover.txt"));
}

static void
test_rest(void **state)
{
	struct sq_snapshot *s;

	(void)state;
	both_up(rest_ping("ctld/22.05/ping_up.json"));
	taken_over(rest_ping("ctld/22.05/ping_takeover.json"));
	/* 24.11's v0.0.42: "responding" and "primary", one controller */
	s = rest_ping("rest/v0.0.42/slurm_ping.json");
	assert_int_equal(s->nrows, 1);
	assert_string_equal(row(s, "primary vm"), "UP");
	sq_snapshot_unref(s);
}

/* a read's rows through the connection's track */
static const char *
read_at(const char *rel, struct sq_ctld_track *t, int64_t now, char *since,
	size_t n)
{
	static char who[160];
	struct sq_snapshot *s = cli_ping(rel);
	const char *v;

	assert_int_equal(sq_ctld_track(s, t, now, NULL), 0);
	snprintf(who, sizeof(who), "%s", sq_ctld_in_control(s));
	v = row(s, "in control since");
	snprintf(since, n, "%s", v != NULL ? v : "");
	if (v != NULL) {
		assert_string_equal(row(s, "changed after"), "1000");
		assert_string_equal(row(s, "before it"), "vm (primary)");
	}
	sq_snapshot_unref(s);
	return who;
}

static void
test_track(void **state)
{
	struct sq_ctld_track t;
	char since[32];

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_string_equal(read_at("ctld/22.05/scontrol_ping_up.txt", &t, 1000,
				    since, sizeof(since)),
			    "vm (primary)");
	assert_string_equal(since, "");
	assert_string_equal(read_at("ctld/22.05/scontrol_ping_takeover.txt", &t,
				    1010, since, sizeof(since)),
			    "vm-backup (backup)");
	assert_string_equal(since, "1010");
	/* the same controller later: still since the change */
	assert_string_equal(read_at("ctld/22.05/scontrol_ping_takeover.txt", &t,
				    1020, since, sizeof(since)),
			    "vm-backup (backup)");
	assert_string_equal(since, "1010");
}

static void
test_bad_input(void **state)
{
	static const char *const bad[] = {
		"",
		"Slurmctld(",
		"Slurmctld() at x is UP",
		"Slurmctld(primary) at  is UP",
		"Slurmctld(primary) at x is ",
		"Slurmctld(primary) at x is UP DOWN",
		"Slurmctld(primary)at x is UP",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_DIAG, 0);
		char *t = strdup(bad[i]);

		assert_non_null(t);
		assert_int_equal(sq_parse_scontrol_ping(t, s, NULL), 0);
		assert_int_equal(s->nrows, 0);
		/* no controller rows: nothing said about control */
		assert_int_equal(sq_ctld_track(s, NULL, 1, NULL), 0);
		assert_null(sq_ctld_in_control(s));
		sq_snapshot_unref(s);
		free(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_rest),
		cmocka_unit_test(test_track),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
