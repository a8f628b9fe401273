/*
 * test_rest_nodes.c - node actions through slurmrestd
 * (backends/rest/actions_node.c): the request of each node action on every
 * API version (v0.0.38 refused: 405; v0.0.39 to v0.0.45 the same POST
 * /slurm/vX/node/NAME body, per Slurm's data_parser UPDATE_NODE_MSG),
 * the refusals (reboot, ALL), and the check after and the undo judged on
 * nodes as recorded (tests/fixtures/rest/v0.0.42/slurm_nodes.json: cpu02
 * MIXED+DRAIN "disk check", cpu01 ALLOCATED; v0.0.38: "allocated" with
 * state_flags), the way the CLI backends judge scontrol's State; and
 * requeue on v0.0.45, refused as not mapped yet.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tests/unit/test_util.h"

#ifdef SQ_HAVE_REST
#include "backends/rest/actions.h"
#include "core/action/action.h"

static void
parse(const char *line, struct sq_action *a)
{
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_action_parse(line, SQ_KIND_NODES, NULL, 0, a, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
}

/* the requests of line on /slurm/ version v, or "!" and the error */
static void
reqs(const char *line, int v, char *text, size_t n)
{
	struct sq_rest_reqs r;
	struct sq_action a;
	struct sq_err err;

	parse(line, &a);
	sq_err_clear(&err);
	/* no /slurmdb/ needed: nodes are /slurm/'s */
	if (sq_rest_action_reqs(&a, v, 0, NULL, &r, &err) != 0) {
		assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
		snprintf(text, n, "!%s", err.msg);
	} else {
		assert_int_equal(sq_rest_reqs_format(&r, text, n), 0);
		sq_rest_reqs_free(&r);
	}
	sq_action_free(&a);
}

static void
test_node_bodies(void **state)
{
	static const struct {
		const char *line, *want; /* %d: the version */
	} cases[] = {
		{ "drain n1 reason=disk check",
		  "POST /slurm/v0.0.%d/node/n1 "
		  "{\"state\":[\"DRAIN\"],\"reason\":\"disk check\"}" },
		{ "down n1 reason=dead",
		  "POST /slurm/v0.0.%d/node/n1 "
		  "{\"state\":[\"DOWN\"],\"reason\":\"dead\"}" },
		{ "resume n[1-2]", "POST /slurm/v0.0.%d/node/n1 "
				   "{\"state\":[\"RESUME\"]}\n"
				   "POST /slurm/v0.0.%d/node/n2 "
				   "{\"state\":[\"RESUME\"]}" },
		{ "reason n1 reason=disk/slot 3: été",
		  "POST /slurm/v0.0.%d/node/n1 "
		  "{\"reason\":\"disk/slot 3: été\"}" },
		{ "cancelreboot gpu01", "POST /slurm/v0.0.%d/node/gpu01 "
					"{\"state\":[\"REBOOT_CANCELED\"]}" },
	};
	size_t i;
	int v;

	(void)state;
	for (v = 39; v <= 45; v++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			char text[1024], want[1024];

			snprintf(want, sizeof(want), cases[i].want, v, v);
			reqs(cases[i].line, v, text, sizeof(text));
			assert_string_equal(text, want);
		}
	}
}

static void
test_node_refusals(void **state)
{
	char text[1024];

	(void)state;
	reqs("drain n1 reason=x", 38, text, sizeof(text));
	assert_non_null(strstr(text, "POST /node answers 405 on v0.0.38"));
	reqs("resume n1", 38, text, sizeof(text));
	assert_non_null(strstr(text, "use the local or ssh backend"));
	reqs("reboot n1 asap", 42, text, sizeof(text));
	assert_non_null(strstr(text, "slurmrestd has no reboot call"));
	reqs("reboot n1", 45, text, sizeof(text));
	assert_non_null(
	    strstr(text, "reboot through slurmrestd (API v0.0.45)"));
	reqs("drain ALL reason=x", 42, text, sizeof(text));
	assert_non_null(strstr(text, "one named node per request"));
}

/* requeue on v0.0.45: the endpoint is there, squall says it does not map
 * it (not "no such endpoint") */
static void
test_requeue_v45(void **state)
{
	struct sq_rest_reqs r;
	struct sq_action a;
	struct sq_err err;

	(void)state;
	sq_err_clear(&err);
	assert_int_equal(
	    sq_action_parse("requeue 12", SQ_KIND_JOBS, NULL, 0, &a, &err), 0);
	assert_int_equal(sq_rest_action_reqs(&a, 45, 45, "c", &r, &err), -1);
	assert_non_null(strstr(err.msg, "GET /slurm/v0.0.45/job/ID/requeue"));
	assert_int_equal(sq_rest_action_reqs(&a, 44, 44, "c", &r, &err), -1);
	assert_non_null(strstr(err.msg, "no such endpoint before v0.0.45"));
	sq_action_free(&a);
}

/* st from the recorded nodes list of version v: the node named name */
static void
state_of(int v, const char *name, struct sq_rest_state *st)
{
	char rel[64];
	char *body;
	json_object *arr = NULL;
	size_t k;

	snprintf(rel, sizeof(rel), "rest/v0.0.%d/slurm_nodes.json", v);
	body = sq_test_fixture(rel, NULL);
	memset(st, 0, sizeof(*st));
	st->root = json_tokener_parse(body);
	free(body);
	assert_non_null(st->root);
	json_object_object_get_ex(st->root, "nodes", &arr);
	for (k = 0; k < json_object_array_length(arr); k++) {
		json_object *x = json_object_array_get_idx(arr, k), *nm;

		if (json_object_object_get_ex(x, "name", &nm) &&
		    strcmp(json_object_get_string(nm), name) == 0)
			st->rec = x;
	}
	st->found = st->rec != NULL;
	assert_true(st->found);
}

static int
verdict(const char *line, const struct sq_rest_state *st, char *msg, size_t n)
{
	struct sq_action a;
	int v;

	parse(line, &a);
	v = sq_rest_verify(&a, NULL, st, msg, n);
	sq_action_free(&a);
	return v;
}

static void
test_node_verify(void **state)
{
	struct sq_rest_state drained, busy, old, gone;
	char s[128], msg[256];

	(void)state;
	state_of(42, "cpu02", &drained);
	state_of(42, "cpu01", &busy);
	state_of(38, "n1", &old);
	memset(&gone, 0, sizeof(gone));
	assert_string_equal(sq_rest_node_state(drained.rec, s, sizeof(s)),
			    "MIXED+DRAIN");
	assert_string_equal(sq_rest_node_state(old.rec, s, sizeof(s)),
			    "ALLOCATED");
	assert_int_equal(verdict("drain cpu02 reason=disk check", &drained, msg,
				 sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_string_equal(msg, "MIXED+DRAIN, reason 'disk check'");
	/* drained, but not with the reason asked for */
	assert_int_equal(
	    verdict("drain cpu02 reason=other", &drained, msg, sizeof(msg)),
	    SQ_VERIFY_FAILED);
	assert_int_equal(
	    verdict("down cpu02 reason=disk check", &drained, msg, sizeof(msg)),
	    SQ_VERIFY_FAILED);
	assert_int_equal(verdict("resume cpu02", &drained, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_string_equal(msg, "still MIXED+DRAIN");
	assert_int_equal(verdict("resume cpu01", &busy, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_string_equal(msg, "in service (ALLOCATED)");
	assert_int_equal(verdict("reason cpu02 reason=disk check", &drained,
				 msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_int_equal(verdict("cancelreboot cpu01", &busy, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_int_equal(verdict("drain x reason=y", &gone, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_string_equal(msg, "no such node");
	sq_rest_state_free(&drained);
	sq_rest_state_free(&busy);
	sq_rest_state_free(&old);
}

/* the undo of line on targets read before as before[] (all done) */
static void
undo(const char *line, struct sq_rest_state *before, char *buf, size_t n)
{
	struct sq_action a;
	struct sq_result res;
	size_t i;

	parse(line, &a);
	sq_result_init(&res);
	assert_int_equal(sq_result_targets(&res, &a), 0);
	for (i = 0; i < res.ntargets; i++)
		res.targets[i].ok = 1;
	sq_rest_node_inverse(&a, &res, before, buf, n);
	sq_result_free(&res);
	sq_action_free(&a);
}

static void
test_node_inverse(void **state)
{
	struct sq_rest_state b[3];
	char buf[1024];

	(void)state;
	state_of(42, "cpu02", &b[0]); /* MIXED+DRAIN "disk check" */
	state_of(42, "cpu01", &b[1]); /* ALLOCATED */
	state_of(42, "cpu02", &b[2]);
	/* drain and down: resume the same nodes */
	undo("drain cpu01 reason=x", &b[1], buf, sizeof(buf));
	assert_string_equal(buf, "noderesume cpu01");
	/* resume: drained again with the reason it had; a node that was
	 * in service has nothing to undo */
	undo("resume cpu02,cpu01", b, buf, sizeof(buf));
	assert_string_equal(buf, "drain cpu02 reason=\"disk check\"");
	/* reason: the reason it had; nodes with the same one on one line */
	{
		struct sq_rest_state two[2] = { b[0], b[2] };

		undo("reason cpu02,cpu02x reason=new", two, buf, sizeof(buf));
		assert_string_equal(
		    buf, "reason cpu02 cpu02x reason=\"disk check\"");
	}
	sq_rest_state_free(&b[0]);
	sq_rest_state_free(&b[1]);
	sq_rest_state_free(&b[2]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_bodies),
		cmocka_unit_test(test_node_refusals),
		cmocka_unit_test(test_requeue_v45),
		cmocka_unit_test(test_node_verify),
		cmocka_unit_test(test_node_inverse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* !SQ_HAVE_REST */

int
main(void)
{
	printf("test_rest_nodes: built without the rest backend, nothing to "
	       "test\n");
	return 0;
}
#endif
