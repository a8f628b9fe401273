/*
 * test_verdicts.c - an action means the same on every backend: every job
 * and node action's verdict (core/action/action_verdict.c) through the CLI's
 * reader (squeue -O, scontrol -o show node) and through the REST one
 * (GET .../job/ID, .../node/NAME) on the same jobs and nodes, recorded
 * from the 22.05, 24.11 and 26.05 testbeds (tests/fixtures/verdicts,
 * README.md there says how); the two must agree, word for word.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "backends/rest/actions.h"
#include "core/action/action.h"
#include "core/action/action_verdict.h"
#include "tests/unit/test_util.h"

static const char *const releases[] = { "22.05", "24.11", "26.05", NULL };

/* Every job and node action with a verdict, "%s" the target. */
static const char *const job_lines[] = {
	"cancel %s",
	"signal USR1 %s",
	"hold %s",
	"release %s",
	"requeue %s",
	"requeuehold %s",
	"suspend %s",
	"resume %s",
	"update %s timelimit=10",
	"update %s timelimit=10 partition=low",
	NULL,
};
static const char *const node_lines[] = {
	"drain %s reason=\"squall verdict fixture\"",
	"drain %s reason=other",
	"down %s reason=\"squall verdict fixture\"",
	"resume %s",
	"reboot %s",
	"cancelreboot %s",
	"reason %s reason=\"squall verdict fixture\"",
	NULL,
};

static unsigned seen[SQ_ACTION_COUNT], timeouts;

static void
action_of(const char *fmt, const char *target, int kind, struct sq_action *a)
{
	char line[256];
	struct sq_err err;

	snprintf(line, sizeof(line), fmt, target);
	sq_err_clear(&err);
	if (sq_action_parse(line, kind, NULL, 0, a, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
	seen[a->type]++;
}

/* The CLI's record of a's one target from the recorded text. */
static void
cli_read(const char *text, const struct sq_action *a, struct sq_cli_state *st)
{
	char *copy = strdup(text);

	assert_non_null(copy);
	memset(st, 0, sizeof(*st));
	st->n = 1;
	st->rec = calloc(1, sizeof(*st->rec));
	assert_non_null(st->rec);
	if (a->def->kind == SQ_KIND_NODES)
		sq_cli_parse_nodes_state(copy, a, st);
	else
		sq_cli_parse_jobs_state(copy, a, st);
	free(copy);
}

/* REST's record from a recorded answer ({"jobs": [...]}, {"nodes": ...}) */
static void
rest_read(const char *json, const char *key, struct sq_rest_state *st)
{
	json_object *arr;

	memset(st, 0, sizeof(*st));
	st->root = json_tokener_parse(json);
	assert_non_null(st->root);
	if (json_object_object_get_ex(st->root, key, &arr) &&
	    json_object_array_length(arr) > 0)
		st->rec = json_object_array_get_idx(arr, 0);
	st->found = st->rec != NULL;
}

/* Both backends' verdicts on the same target, with and without the state
 * before (the same record: nothing changed in between). */
static void
same_verdict(const struct sq_action *a, const struct sq_cli_rec *cli,
	     const struct sq_rest_state *rest, const char *where)
{
	char m1[256], m2[256];
	int pass, v1, v2;

	for (pass = 0; pass < 2; pass++) {
		v1 =
		    sq_cli_verify(a, 0, pass ? cli : NULL, cli, m1, sizeof(m1));
		v2 =
		    sq_rest_verify(a, pass ? rest : NULL, rest, m2, sizeof(m2));
		if (v1 != v2)
			fail_msg("%s %s: cli %d '%s', rest %d '%s'", where,
				 a->def->name, v1, m1, v2, m2);
		/* an update's mismatch names the field each reader read */
		if (!(a->type == SQ_ACTION_JOB_UPDATE && v1 != SQ_VERIFY_OK) &&
		    strcmp(m1, m2) != 0)
			fail_msg("%s %s: cli '%s', rest '%s'", where,
				 a->def->name, m1, m2);
	}
}

/* The case: a job that ended in TIMEOUT was cancelled over ssh
 * and "still TIMEOUT" over REST. */
static void
check_timeout(const struct sq_action *a, const struct sq_cli_rec *cli)
{
	struct sq_target_rec r;
	char msg[256];

	sq_cli_target_rec(a, cli, &r);
	if (a->type == SQ_ACTION_JOB_CANCEL &&
	    strcmp(r.state, "TIMEOUT") == 0) {
		timeouts++;
		assert_int_equal(
		    sq_action_verdict(a, NULL, &r, msg, sizeof(msg)),
		    SQ_VERDICT_DONE);
	}
}

/* Every action of lines on target, read from the CLI's text and from the
 * recorded answer at path (json key: "jobs" or "nodes"). */
static void
check_target(const char *where, const char *path, const char *const *lines,
	     int kind, const char *target, const char *text)
{
	char *json = sq_test_fixture(path, NULL);
	size_t k;

	for (k = 0; lines[k] != NULL; k++) {
		struct sq_action a;
		struct sq_cli_state cli;
		struct sq_rest_state rest;

		action_of(lines[k], target, kind, &a);
		cli_read(text, &a, &cli);
		rest_read(json, kind == SQ_KIND_NODES ? "nodes" : "jobs",
			  &rest);
		assert_true(cli.rec[0].found);
		assert_true(rest.found);
		same_verdict(&a, &cli.rec[0], &rest, where);
		check_timeout(&a, &cli.rec[0]);
		sq_rest_state_free(&rest);
		sq_cli_state_free(&cli);
		sq_action_free(&a);
	}
	free(json);
}

static void
check_release(const char *rel)
{
	char path[128], where[96], *ids, *squeue, *nodes, *line, *save = NULL;

	snprintf(path, sizeof(path), "verdicts/%s/jobs.ids", rel);
	ids = sq_test_fixture(path, NULL);
	snprintf(path, sizeof(path), "verdicts/%s/squeue.txt", rel);
	squeue = sq_test_fixture(path, NULL);
	snprintf(path, sizeof(path), "verdicts/%s/scontrol_node.txt", rel);
	nodes = sq_test_fixture(path, NULL);
	for (line = strtok_r(ids, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char label[32], id[32];

		if (sscanf(line, "%31s %31s", label, id) != 2)
			continue;
		snprintf(path, sizeof(path), "verdicts/%s/job_%s.json", rel,
			 label);
		snprintf(where, sizeof(where), "%s job %s (%s)", rel, id,
			 label);
		check_target(where, path, job_lines, SQ_KIND_JOBS, id, squeue);
	}
	for (line = nodes; (line = strstr(line, "NodeName=")) != NULL;
	     line += 9) {
		char name[64];

		if (sscanf(line, "NodeName=%63[^ ]", name) != 1)
			continue;
		snprintf(path, sizeof(path), "verdicts/%s/node_%s.json", rel,
			 name);
		snprintf(where, sizeof(where), "%s node %s", rel, name);
		check_target(where, path, node_lines, SQ_KIND_NODES, name,
			     nodes);
	}
	free(nodes);
	free(squeue);
	free(ids);
}

static void
test_backends_agree(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; releases[i] != NULL; i++)
		check_release(releases[i]);
	assert_true(timeouts > 0);
	/* every action that has a verdict was run through both */
	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		if (sq_action_has_verdict((enum sq_action_type)i) && !seen[i])
			fail_msg("%s: no recorded target",
				 sq_action_def((enum sq_action_type)i)->name);
	}
}

/* A target neither backend finds (scancel'd and purged, a node removed). */
static void
test_gone_agree(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; job_lines[k] != NULL; k++) {
		struct sq_action a;
		struct sq_cli_rec cli;
		struct sq_rest_state rest;

		action_of(job_lines[k], "999999", SQ_KIND_JOBS, &a);
		memset(&cli, 0, sizeof(cli));
		memset(&rest, 0, sizeof(rest));
		same_verdict(&a, &cli, &rest, "gone job");
		sq_action_free(&a);
	}
	for (k = 0; node_lines[k] != NULL; k++) {
		struct sq_action a;
		struct sq_cli_rec cli;
		struct sq_rest_state rest;

		action_of(node_lines[k], "n9", SQ_KIND_NODES, &a);
		memset(&cli, 0, sizeof(cli));
		memset(&rest, 0, sizeof(rest));
		same_verdict(&a, &cli, &rest, "gone node");
		sq_action_free(&a);
	}
}

/* The table: the states that mean done, and where refusal comes from. */
static void
test_table(void **state)
{
	struct sq_action a;
	struct sq_target_rec before, after;
	struct sq_err err;
	char msg[256];

	(void)state;
	assert_string_equal(sq_action_done_states(SQ_ACTION_JOB_CANCEL),
			    SQ_JS_ENDED);
	assert_null(sq_action_done_states(SQ_ACTION_QOS_SET));
	assert_false(sq_action_has_verdict(SQ_ACTION_JOB_SUBMIT));
	sq_err_clear(&err);
	assert_int_equal(
	    sq_action_parse("hold 5", SQ_KIND_JOBS, NULL, 0, &a, &err), 0);
	sq_target_rec_init(&before);
	before.found = 1;
	snprintf(before.state, sizeof(before.state), "RUNNING");
	before.priority = 100;
	after = before;
	assert_int_equal(
	    sq_action_verdict(&a, &before, &after, msg, sizeof(msg)),
	    SQ_VERDICT_REFUSED);
	assert_string_equal(msg, "refused: the job was RUNNING (hold applies "
				 "to PENDING jobs)");
	assert_int_equal(sq_verdict_verify(SQ_VERDICT_REFUSED),
			 SQ_VERIFY_FAILED);
	snprintf(before.state, sizeof(before.state), "PENDING");
	assert_int_equal(
	    sq_action_verdict(&a, &before, &after, msg, sizeof(msg)),
	    SQ_VERDICT_NOT_YET);
	assert_string_equal(msg, "not held: Priority=100 RUNNING");
	sq_action_free(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backends_agree),
		cmocka_unit_test(test_gone_agree),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
