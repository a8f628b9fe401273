/*
 * test_rest_acct.c - the QOS lifecycle and association limits through
 * slurmrestd from API v0.0.40 (backends/rest/actions_qos.c,
 * actions_assoc.c, actions_user.c, actions_account.c): the bodies of POST /qos
 * and POST /associations built from the record read before (the recorded
 * v0.0.42 QOS and associations of tests/fixtures/rest/v0.0.42), the refusals,
 * the check after and the inverse.
 */
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/backend.h"
#include "backends/rest/actions.h"
#include "core/action/action.h"
#include "tests/unit/test_util.h"

/* The record of fixture rel's array key whose fields match (NULL:
 * any), as a state owning the whole answer. */
static void
load(struct sq_rest_state *st, const char *rel, const char *key,
     const char *name, const char *user)
{
	size_t len, i;
	char *b = sq_test_fixture(rel, &len);
	json_object *arr;

	memset(st, 0, sizeof(*st));
	assert_non_null(b);
	st->root = json_tokener_parse(b);
	free(b);
	assert_non_null(st->root);
	assert_true(json_object_object_get_ex(st->root, key, &arr));
	for (i = 0; i < json_object_array_length(arr); i++) {
		json_object *x = json_object_array_get_idx(arr, i);

		if (strcmp(json_object_get_string(
			       sq_rest_jget(x, user ? "account" : "name")),
			   name) == 0 &&
		    (user == NULL ||
		     strcmp(json_object_get_string(sq_rest_jget(x, "user")),
			    user) == 0))
			st->rec = x;
	}
	st->found = st->rec != NULL;
}

static void
qos(struct sq_rest_state *st, const char *name)
{
	load(st, "rest/v0.0.42/slurmdb_qos.json", "qos", name, NULL);
}

static void
assoc(struct sq_rest_state *st, const char *acc, const char *user)
{
	load(st, "rest/v0.0.42/slurmdb_associations.json", "associations", acc,
	     user);
}

/* The requests of line on /slurmdb/ vdb with before, as text; or the
 * error. */
static void
reqs(const char *line, int vdb, const struct sq_rest_state *before, char *text,
     size_t n)
{
	struct sq_rest_reqs r;
	struct sq_action a;
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_action_parse(line, -1, NULL, 0, &a, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
	if (sq_rest_action_reqs_before(&a, vdb, vdb, "c", before, &r, &err) ==
	    0) {
		assert_int_equal(sq_rest_reqs_format(&r, text, n), 0);
		sq_rest_reqs_free(&r);
	} else {
		snprintf(text, n, "!%s", err.msg);
		assert_int_equal(r.n, 0);
	}
	sq_action_free(&a);
}

static void
test_qos_bodies(void **state)
{
	struct sq_rest_state low, none;
	char text[4096];

	(void)state;
	qos(&low, "low");
	qos(&none, "gpu");
	assert_true(low.found);
	assert_false(none.found);
	/* every kind of key; flags NOT_SET and the mode as read kept */
	json_object_array_put_idx(sq_rest_jget(low.rec, "preempt.mode"), 0,
				  json_object_new_string("REQUEUE"));
	reqs("setqos low priority=20 maxjobspu=4 grpwall=90 gracetime=30 "
	     "usagefactor=0.5 maxtrespu=cpu=2,gres/gpu=1 preempt=normal "
	     "grpjobs=-1",
	     42, &low, text, sizeof(text));
	assert_string_equal(
	    text,
	    "POST /slurmdb/v0.0.42/qos "
	    "{\"qos\":[{\"name\":\"low\",\"priority\":"
	    "{\"set\":true,\"infinite\":false,\"number\":20},\"limits\":{"
	    "\"max\":{\"jobs\":{\"active_jobs\":{\"per\":{\"user\":{\"set\":"
	    "true,\"infinite\":false,\"number\":4}}}},\"wall_clock\":{\"per\":"
	    "{\"qos\":{\"set\":true,\"infinite\":false,\"number\":90}}},"
	    "\"tres\":{\"per\":{\"user\":[{\"type\":\"cpu\",\"count\":2},"
	    "{\"type\":\"gres\",\"name\":\"gpu\",\"count\":1}]}},"
	    "\"active_jobs\":{\"count\":{\"set\":true,\"infinite\":true,"
	    "\"number\":0}}},\"grace_time\":30},\"usage_factor\":{\"set\":"
	    "true,\"number\":0.5},\"preempt\":{\"list\":[\"normal\"],\"mode\":"
	    "[\"REQUEUE\"]},\"flags\":[\"NOT_SET\"]}]}");
	/* asked: the flags and the mode as asked (off is DISABLED) */
	reqs("modqos low flags=DenyOnLimit,nodecay preemptmode=off", 45, &low,
	     text, sizeof(text));
	assert_string_equal(text,
			    "POST /slurmdb/v0.0.45/qos {\"qos\":[{\"name\":"
			    "\"low\",\"flags\":[\"DENY_LIMIT\",\"NO_"
			    "DECAY\"],\"preempt\":{\"mode\":["
			    "\"DISABLED\"]}}]}");
	/* a new QOS: neither */
	reqs("addqos gpu priority=5 maxjobs=3 flags=-1", 41, &none, text,
	     sizeof(text));
	assert_string_equal(
	    text, "POST /slurmdb/v0.0.41/qos {\"qos\":[{\"name\":\"gpu\","
		  "\"priority\":{\"set\":true,\"infinite\":false,\"number\":5},"
		  "\"limits\":{\"max\":{\"jobs\":{\"active_jobs\":{\"per\":{"
		  "\"user\":{\"set\":true,\"infinite\":false,\"number\":3}}}}}"
		  "},\"flags\":[]}]}");
	/* POST /qos creates what it does not find, changes what it finds */
	reqs("addqos low priority=5", 42, &low, text, sizeof(text));
	assert_string_equal(text,
			    "!QOS low exists (POST /qos would change it)");
	reqs("setqos gpu priority=5", 42, &none, text, sizeof(text));
	assert_string_equal(text, "!no QOS gpu (POST /qos would create it)");
	reqs("setqos low priority=5", 42, NULL, text, sizeof(text));
	assert_string_equal(text, "!setqos through slurmrestd reads the QOS "
				  "first; it could not be read");
	reqs("setqos low maxtrespu=mem=4G", 42, &low, text, sizeof(text));
	assert_non_null(strstr(text, "!a TRES count through slurmrestd is a "
				     "whole number (mem in MB, no unit)"));
	reqs("setqos low maxtrespu=-1", 42, &low, text, sizeof(text));
	/* -1: every TRES it has (low: cpu=8) with count -1 */
	assert_non_null(strstr(text, "\"tres\":{\"per\":{\"user\":[{\"type\":"
				     "\"cpu\",\"count\":-1}]}}"));
	reqs("delqos gpu low", 45, NULL, text, sizeof(text));
	assert_string_equal(text, "DELETE /slurmdb/v0.0.45/qos/gpu\n"
				  "DELETE /slurmdb/v0.0.45/qos/low");
	/* v0.0.38: the lifecycle is not mapped; setqos priority only */
	reqs("addqos gpu", 38, &none, text, sizeof(text));
	assert_non_null(strstr(text, "!addqos through slurmrestd API v0.0.38 "
				     "is not mapped: squall maps POST "
				     "/slurmdb/vN/qos from v0.0.40"));
	reqs("delqos gpu", 38, NULL, text, sizeof(text));
	assert_non_null(strstr(text, "maps DELETE /slurmdb/vN/qos"));
	reqs("setqos low maxjobspu=3", 38, &low, text, sizeof(text));
	assert_non_null(strstr(text, "only priority= is mapped"));
	sq_rest_state_free(&low);
	sq_rest_state_free(&none);
}

static void
parse(struct sq_action *a, const char *line)
{
	struct sq_err err;

	if (sq_action_parse(line, -1, NULL, 0, a, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
}

static void
test_qos_verify_inverse(void **state)
{
	struct sq_rest_state high, after;
	struct sq_target_result tr[1];
	struct sq_result res;
	struct sq_action a;
	char msg[256], inv[2048];

	(void)state;
	qos(&high, "high");
	memset(&res, 0, sizeof(res));
	memset(tr, 0, sizeof(tr));
	tr[0].ok = 1;
	res.targets = tr;
	res.ntargets = 1;
	parse(&a, "setqos high priority=1000 usagefactor=1 maxjobspu=-1");
	assert_true(sq_rest_qos_dp(&a, &high));
	assert_int_equal(sq_rest_verify(&a, NULL, &high, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	sq_action_free(&a);
	parse(&a, "setqos high priority=7 maxtrespu=cpu=2");
	assert_int_equal(sq_rest_verify(&a, NULL, &high, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_string_equal(msg, "not as asked: priority is '1000', not '7'");
	sq_rest_qos_inverse(&a, &res, &high, inv, sizeof(inv));
	assert_string_equal(inv, "setqos high priority=1000 maxtrespu=cpu=-1");
	/* another field moved too: not done */
	qos(&after, "high");
	json_object_object_add(after.rec, "priority", sq_rest_jnum(7));
	json_object_object_add(after.rec, "description",
			       json_object_new_string("x"));
	assert_int_equal(
	    sq_rest_qos_unchanged(&a, &high, &after, msg, sizeof(msg)), 0);
	json_object_object_add(after.rec, "description",
			       json_object_new_string("high priority"));
	assert_int_equal(
	    sq_rest_qos_unchanged(&a, &high, &after, msg, sizeof(msg)), 1);
	sq_action_free(&a);
	/* delqos's undo: addqos with every setting but the defaults */
	parse(&a, "delqos high");
	sq_rest_qos_inverse(&a, &res, &high, inv, sizeof(inv));
	assert_string_equal(inv, "addqos high maxwall=240 priority=1000");
	assert_int_equal(sq_rest_verify(&a, NULL, &high, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	sq_action_free(&a);
	parse(&a, "addqos new");
	sq_rest_qos_inverse(&a, &res, &high, inv, sizeof(inv));
	assert_string_equal(inv, "delqos new");
	sq_action_free(&a);
	sq_rest_state_free(&high);
	sq_rest_state_free(&after);
}

static void
test_assoc_bodies(void **state)
{
	struct sq_rest_state bio, vic;
	char text[4096];

	(void)state;
	assoc(&bio, "bio", "");
	assoc(&vic, "bio-lab", "vic");
	assert_true(bio.found && vic.found);
	/* the account's GrpTRES (gres/gpu=4) is sent as it is */
	reqs("setlimit bio maxjobs=3", 42, &bio, text, sizeof(text));
	assert_string_equal(
	    text, "POST /slurmdb/v0.0.42/associations {\"associations\":[{"
		  "\"account\":\"bio\",\"cluster\":\"c\",\"user\":\"\","
		  "\"max\":{\"jobs\":{\"active\":{\"set\":true,\"infinite\":"
		  "false,\"number\":3}},\"tres\":{\"total\":[{\"type\":"
		  "\"gres\",\"name\":\"gpu\",\"count\":4}]}}}]}");
	/* asked TRES merged into it, as sacctmgr merges them */
	reqs("setlimit bio grptres=cpu=8", 45, &bio, text, sizeof(text));
	assert_non_null(strstr(text, "\"total\":[{\"type\":\"gres\",\"name\":"
				     "\"gpu\",\"count\":4},{\"type\":\"cpu\","
				     "\"count\":8}]"));
	reqs("setlimit bio grptres=gres/gpu=-1", 45, &bio, text, sizeof(text));
	assert_non_null(strstr(text, "\"total\":[]"));
	reqs("clearlimit account=bio grptres", 42, &bio, text, sizeof(text));
	assert_non_null(strstr(text, "\"total\":[]"));
	/* the user's association: its partition when it has one, limits
	 * cleared as infinite, times in minutes */
	reqs("setlimit account=bio-lab user=vic maxjobs=-1 maxwall=1:00:00 "
	     "qos=normal,high defaultqos=high fairshare=5",
	     42, &vic, text, sizeof(text));
	assert_string_equal(
	    text,
	    "POST /slurmdb/v0.0.42/associations {\"associations\":[{"
	    "\"account\":\"bio-lab\",\"cluster\":\"c\",\"user\":\"vic\","
	    "\"max\":{\"jobs\":{\"active\":{\"set\":true,\"infinite\":true,"
	    "\"number\":0},\"per\":{\"wall_clock\":{\"set\":true,\"infinite\":"
	    "false,\"number\":60}}}},\"qos\":[\"normal\",\"high\"],\"default\":"
	    "{\"qos\":\"high\"},\"shares_raw\":5}]}");
	reqs("setlimit bio fairshare=parent", 42, &bio, text, sizeof(text));
	assert_non_null(strstr(text, "!fairshare=parent through slurmrestd"));
	{
		struct sq_rest_state nobody;

		assoc(&nobody, "bio-lab", "nobody");
		reqs("setlimit account=bio-lab user=nobody maxjobs=1", 42,
		     &nobody, text, sizeof(text));
		assert_string_equal(text, "!no association bio-lab/nobody/ "
					  "(POST /associations would create "
					  "it)");
		sq_rest_state_free(&nobody);
	}
	reqs("setlimit bio maxjobs=1", 42, NULL, text, sizeof(text));
	assert_non_null(strstr(text, "!setlimit through slurmrestd reads the "
				     "association first"));
	reqs("setlimit bio maxjobs=1", 38, &bio, text, sizeof(text));
	assert_non_null(strstr(text, "!association limits through slurmrestd "
				     "v0.0.38 are refused: Slurm 22.05's "
				     "slurmrestd crashes"));
	reqs("clearlimit account=bio maxjobs", 39, &bio, text, sizeof(text));
	assert_non_null(strstr(text, "mapped from v0.0.40"));
	sq_rest_state_free(&bio);
	sq_rest_state_free(&vic);
}

/* vic's association in bio-lab and one of vic's in partition gpu: the
 * check after and the inverse */
static void
test_assoc_verify_inverse(void **state)
{
	static const char two[] =
	    "{\"associations\":[{\"account\":\"bio-lab\",\"user\":\"vic\","
	    "\"partition\":\"\",\"max\":{\"jobs\":{\"active\":{\"set\":true,"
	    "\"infinite\":false,\"number\":2}},\"tres\":{\"total\":[{"
	    "\"type\":\"cpu\",\"count\":4}]}}},{\"account\":\"bio-lab\","
	    "\"user\":\"vic\",\"partition\":\"gpu\",\"max\":{\"jobs\":{"
	    "\"active\":{\"set\":false,\"infinite\":true,\"number\":0}}}}]}";
	struct sq_rest_state before, after;
	struct sq_target_result tr[1];
	struct sq_result res;
	struct sq_action a;
	char msg[256], inv[1024];

	(void)state;
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	before.root = json_tokener_parse(two);
	after.root = json_tokener_parse(two);
	before.rec = json_object_array_get_idx(
	    sq_rest_jget(before.root, "associations"), 0);
	after.rec = json_object_array_get_idx(
	    sq_rest_jget(after.root, "associations"), 0);
	before.found = after.found = 1;
	parse(&a,
	      "setlimit account=bio-lab user=vic maxjobs=3 grptres=mem=100");
	assert_int_equal(sq_rest_verify(&a, NULL, &after, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_string_equal(msg, "not as asked: maxjobs is '2', not '3'");
	/* as asked, and the other association as it was */
	sq_rest_jput(after.rec, "max.jobs.active", sq_rest_jnum(3));
	json_object_array_add(sq_rest_jget(after.rec, "max.tres.total"),
			      sq_rest_jtres_item("mem", "", 100));
	assert_int_equal(sq_rest_verify(&a, NULL, &after, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_int_equal(
	    sq_rest_assoc_unchanged(&a, 0, &before, &after, msg, sizeof(msg)),
	    1);
	/* the gpu association changed too: not done, and named */
	sq_rest_jput(json_object_array_get_idx(
			 sq_rest_jget(after.root, "associations"), 1),
		     "max.jobs.active", sq_rest_jnum(3));
	assert_int_equal(
	    sq_rest_assoc_unchanged(&a, 0, &before, &after, msg, sizeof(msg)),
	    0);
	assert_string_equal(msg, "also changed: bio-lab/vic/gpu changed");
	memset(&res, 0, sizeof(res));
	memset(tr, 0, sizeof(tr));
	tr[0].ok = 1;
	res.targets = tr;
	res.ntargets = 1;
	sq_rest_assoc_inverse(&a, &res, &before, inv, sizeof(inv));
	assert_string_equal(
	    inv, "setlimit bio-lab/vic grptres=cpu=4,mem=-1 maxjobs=2");
	sq_action_free(&a);
	parse(&a, "clearlimit account=bio-lab user=vic maxjobs");
	sq_rest_assoc_inverse(&a, &res, &before, inv, sizeof(inv));
	assert_string_equal(inv, "setlimit bio-lab/vic maxjobs=2");
	sq_action_free(&a);
	sq_rest_state_free(&before);
	sq_rest_state_free(&after);
}

/* A body whose "associations" is not a list (an object, a string):
 * the checks and the undo read no association from it and go on, where
 * json-c's array calls abort (found by fuzz rest_acct in CI, stop 51) */
static void
test_assoc_list_not_array(void **state)
{
	static const char *const bodies[] = {
		"{\"associations\":{\"account\":\"bio-lab\",\"user\":"
		"\"vic\"},\"accounts\":[{\"name\":\"bio-lab\"}],"
		"\"users\":[{\"name\":\"vic\"}]}",
		"{\"associations\":\"x\",\"coordinators\":7}",
	};
	static const char *const lines[] = {
		"setlimit account=bio-lab user=vic maxjobs=3",
		"modaccount bio-lab fairshare=3",
		"moduser vic defaultaccount=bio-lab",
		"addcoord bio-lab user=b",
	};
	struct sq_target_result tr[1];
	struct sq_result res;
	size_t i, j;

	(void)state;
	memset(&res, 0, sizeof(res));
	memset(tr, 0, sizeof(tr));
	tr[0].ok = 1;
	res.targets = tr;
	res.ntargets = 1;
	for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++)
		for (j = 0; j < sizeof(lines) / sizeof(lines[0]); j++) {
			struct sq_rest_state st;
			struct sq_action a;
			char msg[256], inv[1024];

			memset(&st, 0, sizeof(st));
			st.root = json_tokener_parse(bodies[i]);
			assert_non_null(st.root);
			st.rec = st.root;
			st.found = 1;
			st.coords = 1;
			st.assocs = sq_rest_jget(st.root, "associations");
			parse(&a, lines[j]);
			msg[0] = inv[0] = '\0';
			if (sq_rest_assoc_mapped(&a, 42)) {
				/* nothing but the record itself to compare */
				assert_int_equal(
				    sq_rest_assoc_unchanged(&a, 0, &st, &st,
							    msg, sizeof(msg)),
				    1);
				sq_rest_assoc_inverse(&a, &res, &st, inv,
						      sizeof(inv));
			} else {
				sq_rest_acct_unchanged(&a, &st, &st, msg,
						       sizeof(msg));
				if (sq_rest_user_mapped(&a, 42))
					sq_rest_user_inverse(&a, &res, &st, inv,
							     sizeof(inv));
				else
					sq_rest_account_inverse(
					    &a, &res, &st, inv, sizeof(inv));
			}
			sq_rest_verify(&a, &st, &st, msg, sizeof(msg));
			sq_action_free(&a);
			sq_rest_state_free(&st);
		}
}

/* moduser: the default account (one the user has an association in)
 * and the admin level; the default QOS and WCKey refused */
static void
test_user(void **state)
{
	struct sq_rest_state wes;
	struct sq_target_result tr[1];
	struct sq_result res;
	struct sq_action a;
	char text[2048], msg[256];

	(void)state;
	load(&wes, "rest/v0.0.42/slurmdb_users_with_assocs.json", "users",
	     "wes", NULL);
	assert_true(wes.found);
	reqs("moduser wes defaultaccount=astro adminlevel=operator", 42, &wes,
	     text, sizeof(text));
	assert_string_equal(
	    text, "POST /slurmdb/v0.0.42/users {\"users\":[{\"name\":\"wes\","
		  "\"default\":{\"account\":\"astro\"},\"administrator_"
		  "level\":[\"Operator\"]}]}");
	reqs("moduser wes defaultaccount=physics", 42, &wes, text,
	     sizeof(text));
	assert_string_equal(text, "!refused: wes has no association in physics "
				  "(its accounts: astro,bio); add one first "
				  "(adduser wes account=physics)");
	reqs("moduser wes defaultqos=normal", 42, &wes, text, sizeof(text));
	assert_non_null(strstr(text, "reads the user's associations first"));
	reqs("moduser wes defaultqos=normal adminlevel=none", 42, &wes, text,
	     sizeof(text));
	assert_non_null(strstr(text, "run them as two moduser lines"));
	reqs("moduser wes defaultwckey=x", 42, &wes, text, sizeof(text));
	assert_non_null(
	    strstr(text, "defaultwckey= through slurmrestd is not"));
	reqs("moduser wes adminlevel=none", 38, &wes, text, sizeof(text));
	assert_non_null(strstr(text, "API v0.0.38 is not mapped"));
	parse(&a, "moduser wes defaultaccount=bio adminlevel=none");
	assert_int_equal(sq_rest_verify(&a, NULL, &wes, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &wes, &wes, msg, sizeof(msg)), 1);
	sq_action_free(&a);
	parse(&a, "moduser wes defaultaccount=astro adminlevel=operator");
	assert_int_equal(sq_rest_verify(&a, NULL, &wes, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_string_equal(msg, "not as asked: defaultaccount is 'bio', "
				 "not 'astro'");
	memset(&res, 0, sizeof(res));
	memset(tr, 0, sizeof(tr));
	tr[0].ok = 1;
	res.targets = tr;
	res.ntargets = 1;
	sq_rest_user_inverse(&a, &res, &wes, text, sizeof(text));
	assert_string_equal(text,
			    "moduser wes defaultaccount=bio adminlevel=none");
	sq_action_free(&a);
	sq_rest_state_free(&wes);
}

/* moduser defaultqos=: POST /associations with every association of the
 * user as read (recorded on 24.11: alice's two, default QOS low), the
 * check on all of them, the undo as the CLI's */
static void
user_dq(struct sq_rest_state *st)
{
	char *b;

	load(st, "verdicts/24.11/acct/set/user.json", "users", "alice", NULL);
	assert_true(st->found);
	b = sq_test_fixture("verdicts/24.11/acct/set/user_assocs.json", NULL);
	st->aroot = json_tokener_parse(b);
	free(b);
	assert_true(
	    json_object_object_get_ex(st->aroot, "associations", &st->assocs));
}

static void
test_user_default_qos(void **state)
{
	struct sq_rest_state al, after;
	struct sq_target_result tr[1];
	struct sq_result res;
	struct sq_action a;
	char text[4096], msg[256];

	(void)state;
	user_dq(&al);
	reqs("moduser alice defaultqos=normal", 42, &al, text, sizeof(text));
	assert_string_equal(
	    text, "POST /slurmdb/v0.0.42/associations {\"associations\":[{"
		  "\"account\":\"physics\",\"cluster\":\"c\",\"user\":"
		  "\"alice\",\"default\":{\"qos\":\"normal\"}},{\"account\":"
		  "\"astro\",\"cluster\":\"c\",\"user\":\"alice\","
		  "\"default\":{\"qos\":\"normal\"}}]}");
	/* -1 clears: "" (slurmdbd keeps a default QOS named "-1" as it is) */
	reqs("moduser alice defaultqos=-1", 42, &al, text, sizeof(text));
	assert_non_null(strstr(text, "\"user\":\"alice\",\"default\":{"
				     "\"qos\":\"\"}}]}"));
	parse(&a, "moduser alice defaultqos=low");
	assert_int_equal(sq_rest_verify(&a, NULL, &al, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	sq_action_free(&a);
	parse(&a, "moduser alice defaultqos=normal");
	assert_int_equal(sq_rest_verify(&a, NULL, &al, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_string_equal(msg, "not as asked: defaultqos is 'low', not "
				 "'normal'");
	memset(&res, 0, sizeof(res));
	memset(tr, 0, sizeof(tr));
	tr[0].ok = 1;
	res.targets = tr;
	res.ntargets = 1;
	sq_rest_user_inverse(&a, &res, &al, text, sizeof(text));
	assert_string_equal(text, "moduser alice defaultqos=low");
	/* another field of an association moved: not done */
	user_dq(&after);
	json_object_object_add(json_object_array_get_idx(after.assocs, 1),
			       "comment", json_object_new_string("x"));
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &al, &after, msg, sizeof(msg)), 0);
	sq_rest_state_free(&after);
	/* the preview names each association the POST changes, as the
	 * CLI's (core's sq_acct_dq_line) */
	text[0] = '\0';
	sq_rest_user_listing(&a, &al, text, sizeof(text));
	assert_string_equal(text, "\nchanges the default QOS of physics/alice: "
				  "low -> normal\nchanges the default QOS of "
				  "astro/alice: low -> normal");
	sq_action_free(&a);
	parse(&a, "moduser alice defaultqos=low");
	text[0] = '\0';
	sq_rest_user_listing(&a, &al, text, sizeof(text));
	assert_string_equal(text, "\nalice: every association has default "
				  "QOS low already");
	sq_action_free(&a);
	parse(&a, "moduser alice defaultqos=normal");
	/* mixed before: one setlimit per association it changes */
	sq_rest_jput(json_object_array_get_idx(al.assocs, 1), "default.qos",
		     json_object_new_string("normal"));
	/* the POST sends only the one it changes, the preview names it */
	reqs("moduser alice defaultqos=normal", 42, &al, text, sizeof(text));
	assert_string_equal(
	    text, "POST /slurmdb/v0.0.42/associations {\"associations\":[{"
		  "\"account\":\"physics\",\"cluster\":\"c\",\"user\":"
		  "\"alice\",\"default\":{\"qos\":\"normal\"}}]}");
	text[0] = '\0';
	sq_rest_user_listing(&a, &al, text, sizeof(text));
	assert_string_equal(text,
			    "\nchanges the default QOS of physics/alice: "
			    "low -> normal\ntheir default QOS differ: the "
			    "undo sets each back on its own (setlimit ... "
			    "defaultqos=)");
	/* the check: the one posted may move to normal, the other not at
	 * all */
	user_dq(&after);
	sq_rest_jput(json_object_array_get_idx(after.assocs, 1), "default.qos",
		     json_object_new_string("normal"));
	sq_rest_jput(json_object_array_get_idx(after.assocs, 0), "default.qos",
		     json_object_new_string("normal"));
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &al, &after, msg, sizeof(msg)), 1);
	sq_rest_jput(json_object_array_get_idx(after.assocs, 1), "default.qos",
		     json_object_new_string("high"));
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &al, &after, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "changed as asked, but other fields of the "
				 "user changed too");
	sq_rest_state_free(&after);
	sq_rest_user_inverse(&a, &res, &al, text, sizeof(text));
	assert_string_equal(text, "setlimit physics/alice defaultqos=low");
	sq_action_free(&a);
	parse(&a, "moduser alice defaultqos=-1");
	sq_rest_user_inverse(&a, &res, &al, text, sizeof(text));
	assert_string_equal(text, "setlimit physics/alice defaultqos=low\n"
				  "setlimit astro/alice defaultqos=normal");
	sq_action_free(&a);
	sq_rest_state_free(&al);
}

/* modaccount, addcoord, delcoord (v0.0.40+): POST /accounts with the
 * description, the organization and the whole coordinator list read
 * first (a list left out removes every coordinator), from the account
 * recorded with_coords on 24.11 (tests/fixtures/verdicts/24.11/acct) */
static void
account(struct sq_rest_state *st)
{
	load(st, "verdicts/24.11/acct/set/account.json", "accounts", "sqvacct",
	     NULL);
	assert_true(st->found);
	st->coords = 1;
}

#define ACCT_POST                                                              \
	"POST /slurmdb/v0.0.42/accounts {\"accounts\":[{\"name\":"             \
	"\"sqvacct\",\"description\":\"squall verdict\","

static void
test_account_bodies(void **state)
{
	struct sq_rest_state acc;
	char text[2048];

	(void)state;
	account(&acc);
	reqs("modaccount sqvacct organization=lab", 42, &acc, text,
	     sizeof(text));
	assert_string_equal(text, ACCT_POST "\"organization\":\"lab\","
					    "\"coordinators\":[{\"name\":"
					    "\"bob\"}]}]}");
	reqs("addcoord sqvacct user=carol,dave", 42, &acc, text, sizeof(text));
	assert_string_equal(text, ACCT_POST "\"organization\":\"sqv\","
					    "\"coordinators\":[{\"name\":"
					    "\"bob\"},{\"name\":\"carol\"},{"
					    "\"name\":\"dave\"}]}]}");
	/* one already there is not sent twice */
	reqs("addcoord sqvacct user=BOB", 42, &acc, text, sizeof(text));
	assert_string_equal(text, ACCT_POST "\"organization\":\"sqv\","
					    "\"coordinators\":[{\"name\":"
					    "\"bob\"}]}]}");
	reqs("delcoord sqvacct user=bob", 42, &acc, text, sizeof(text));
	assert_string_equal(text, ACCT_POST "\"organization\":\"sqv\","
					    "\"coordinators\":[]}]}");
	/* parent=, fairshare=: its association not read: refused */
	reqs("modaccount sqvacct fairshare=3", 42, &acc, text, sizeof(text));
	assert_non_null(strstr(text, "reads the account's association first"));
	reqs("modaccount sqvacct parent=root description=x", 42, &acc, text,
	     sizeof(text));
	assert_non_null(strstr(text, "run them as two modaccount lines"));
	reqs("addcoord sqvacct user=carol", 38, &acc, text, sizeof(text));
	assert_non_null(strstr(text, "API v0.0.38 is not mapped"));
	/* read without its coordinators: refused, never a POST without
	 * them */
	acc.coords = 0;
	reqs("modaccount sqvacct organization=lab", 42, &acc, text,
	     sizeof(text));
	assert_non_null(strstr(text, "reads the account and its coordinators "
				     "first (a POST without them removes"));
	sq_rest_state_free(&acc);
}

static void
test_account_verify_inverse(void **state)
{
	struct sq_rest_state acc, after;
	struct sq_target_result tr[1];
	struct sq_result res;
	struct sq_action a;
	json_object *co;
	char text[1024], msg[256];

	(void)state;
	account(&acc);
	memset(&res, 0, sizeof(res));
	memset(tr, 0, sizeof(tr));
	tr[0].ok = 1;
	res.targets = tr;
	res.ntargets = 1;
	parse(&a, "addcoord sqvacct user=bob");
	assert_int_equal(sq_rest_verify(&a, NULL, &acc, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	assert_string_equal(msg, "coordinators: bob");
	sq_rest_account_inverse(&a, &res, &acc, text, sizeof(text));
	assert_string_equal(text, "delcoord sqvacct user=bob");
	sq_action_free(&a);
	parse(&a, "modaccount sqvacct organization=lab description=x");
	assert_int_equal(sq_rest_verify(&a, NULL, &acc, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_string_equal(msg, "not as asked: organization is 'sqv', not "
				 "'lab'");
	sq_rest_account_inverse(&a, &res, &acc, text, sizeof(text));
	assert_string_equal(text, "modaccount sqvacct description=\"squall "
				  "verdict\" organization=sqv");
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &acc, &acc, msg, sizeof(msg)), 1);
	/* another coordinator moved: not done */
	account(&after);
	co = json_object_new_object();
	json_object_object_add(co, "name", json_object_new_string("eve"));
	json_object_array_add(sq_rest_jget(after.rec, "coordinators"), co);
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &acc, &after, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "changed as asked, but other coordinators "
				 "of the account changed too");
	sq_action_free(&a);
	/* ... unless it is the one asked */
	parse(&a, "addcoord sqvacct user=eve");
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &acc, &after, msg, sizeof(msg)), 1);
	sq_action_free(&a);
	sq_rest_state_free(&after);
	sq_rest_state_free(&acc);
}

/* modaccount parent=, fairshare= (v0.0.40+): POST /associations with the
 * account's association (user "") as read first, parent_account and
 * shares_raw set, its limits kept; the check and the undo from the
 * association read (bio-lab under bio, shares 10: the v0.0.42 accounts
 * and associations recorded on 24.11, tests/fixtures/rest/v0.0.42) */
static void
account_assoc(struct sq_rest_state *st)
{
	char *b;

	load(st, "rest/v0.0.42/slurmdb_accounts_with_assocs.json", "accounts",
	     "bio-lab", NULL);
	assert_true(st->found);
	st->coords = 1;
	b = sq_test_fixture("rest/v0.0.42/slurmdb_associations.json", NULL);
	st->aroot = json_tokener_parse(b);
	free(b);
	assert_true(
	    json_object_object_get_ex(st->aroot, "associations", &st->assocs));
	assert_non_null(sq_rest_account_assoc(st));
}

static void
test_account_parent_shares(void **state)
{
	struct sq_rest_state acc, after;
	struct sq_target_result tr[1];
	struct sq_result res;
	struct sq_action a;
	char text[2048], msg[256];

	(void)state;
	account_assoc(&acc);
	reqs("modaccount bio-lab fairshare=7 parent=astro", 42, &acc, text,
	     sizeof(text));
	assert_string_equal(text, "POST /slurmdb/v0.0.42/associations "
				  "{\"associations\":[{\"account\":\"bio-lab\","
				  "\"cluster\":\"c\",\"user\":\"\","
				  "\"shares_raw\":7,\"parent_account\":"
				  "\"astro\"}]}");
	reqs("modaccount bio-lab fairshare=parent", 42, &acc, text,
	     sizeof(text));
	assert_non_null(strstr(text, "fairshare=parent through slurmrestd"));
	/* as read: done; else what differs */
	parse(&a, "modaccount bio-lab parent=bio fairshare=10");
	assert_int_equal(sq_rest_verify(&a, NULL, &acc, msg, sizeof(msg)),
			 SQ_VERIFY_OK);
	sq_action_free(&a);
	parse(&a, "modaccount bio-lab fairshare=7 parent=astro");
	assert_int_equal(sq_rest_verify(&a, NULL, &acc, msg, sizeof(msg)),
			 SQ_VERIFY_FAILED);
	assert_string_equal(msg, "not as asked: fairshare is '10', not '7'");
	/* the undo: both as read */
	memset(&res, 0, sizeof(res));
	memset(tr, 0, sizeof(tr));
	tr[0].ok = 1;
	res.targets = tr;
	res.ntargets = 1;
	sq_rest_account_inverse(&a, &res, &acc, text, sizeof(text));
	assert_string_equal(text, "modaccount bio-lab parent=bio fairshare=10");
	sq_action_free(&a);
	/* nothing else moved: the shares moving with the parent is not */
	parse(&a, "modaccount bio-lab parent=astro");
	account_assoc(&after);
	sq_rest_jput(sq_rest_account_assoc(&after), "parent_account",
		     json_object_new_string("astro"));
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &acc, &after, msg, sizeof(msg)), 1);
	sq_rest_jput(sq_rest_account_assoc(&after), "shares_raw",
		     json_object_new_int(7));
	assert_int_equal(
	    sq_rest_acct_unchanged(&a, &acc, &after, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "changed as asked, but other fields of the "
				 "account changed too");
	sq_action_free(&a);
	sq_rest_state_free(&after);
	sq_rest_state_free(&acc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qos_bodies),
		cmocka_unit_test(test_qos_verify_inverse),
		cmocka_unit_test(test_assoc_bodies),
		cmocka_unit_test(test_assoc_verify_inverse),
		cmocka_unit_test(test_user),
		cmocka_unit_test(test_user_default_qos),
		cmocka_unit_test(test_account_bodies),
		cmocka_unit_test(test_account_verify_inverse),
		cmocka_unit_test(test_account_parent_shares),
		cmocka_unit_test(test_assoc_list_not_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
