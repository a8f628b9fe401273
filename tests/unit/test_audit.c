/*
 * test_audit.c - unit tests of the audit log (core/action/audit.c): its one
 * field reader, the format of intent and result lines, 0600, no token,
 * what :undo reads back, the log's path and its JSON strings.
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

/* the log's one reader: top-level fields only, never a target's */
static void
test_audit_field(void **state)
{
	const char *l =
	    "{\"time\":\"t\",\"event\":\"result\",\"targets\":[\"1\",\"2\"],"
	    "\"status\":3,\"message\":\"a \\\"q\\\" b\",\"results\":[{"
	    "\"target\":\"1\",\"message\":\"inner\",\"inverse\":\"x\"}],"
	    "\"inverse\":null,\"ok\":true}";
	char b[64];

	(void)state;
	assert_int_equal(sq_audit_field(l, "targets", b, sizeof(b)), 1);
	assert_string_equal(b, "1,2");
	assert_int_equal(sq_audit_field(l, "message", b, sizeof(b)), 1);
	assert_string_equal(b, "a \"q\" b");
	assert_int_equal(sq_audit_field(l, "status", b, sizeof(b)), 1);
	assert_string_equal(b, "3");
	assert_int_equal(sq_audit_field(l, "inverse", b, sizeof(b)), 1);
	assert_string_equal(b, "");
	assert_int_equal(sq_audit_field(l, "ok", b, sizeof(b)), 1);
	assert_string_equal(b, "true");
	assert_int_equal(sq_audit_field(l, "target", b, sizeof(b)), 0);
	assert_int_equal(sq_audit_field("{\"a\":[", "b", b, sizeof(b)), 0);
	assert_int_equal(sq_audit_field("garbage", "a", b, sizeof(b)), 0);
}

static char tmpdir[64];

static int
setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sq-test-audit-XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	return 0;
}

static int
teardown_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static json_object *
field(json_object *o, const char *k)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("audit line has no '%s'", k);
	return v;
}

static void
test_audit(void **state)
{
	struct sq_audit au;
	struct sq_audit_rec r;
	struct sq_action a;
	struct sq_result res;
	struct sq_err err;
	struct stat st;
	char path[256], line[8192];
	struct sq_audit_undo undo;
	const char *token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdW"
			    "IiOiJhbGljZSJ9.c2lnbmF0dXJlc2lnbmF0dXJl";
	FILE *fp;
	int n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/state/squall/audit.log", tmpdir);
	assert_int_equal(sq_audit_open(&au, path, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	snprintf(line, sizeof(line), "%s/state/squall", tmpdir);
	assert_int_equal(stat(line, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	snprintf(line, sizeof(line), "update 7 comment=tok %s end", token);
	sq_test_parse(line, -1, &a);
	sq_result_init(&res);
	assert_int_equal(sq_result_targets(&res, &a), 0);
	res.status = 1;
	snprintf(res.message, sizeof(res.message),
		 "Access/permission denied \"quoted\" \\ SLURM_JWT=%s", token);
	res.targets[0].ok = 0;
	res.targets[0].verified = SQ_VERIFY_FAILED;
	snprintf(res.targets[0].message, sizeof(res.targets[0].message),
		 "tab\there \x01 nl\n");
	res.nfailed = 1;
	res.ms = 12.5;
	snprintf(res.inverse, sizeof(res.inverse), "update 7 comment=old");

	memset(&r, 0, sizeof(r));
	r.event = "intent";
	r.id = "1-2-3";
	r.cluster = "testbed";
	r.backend = "local";
	r.action = &a;
	r.command = "scontrol update jobid=7 comment='tok'";
	assert_int_equal(sq_audit_append(&au, &r, &err), 0);
	r.event = "result";
	r.result = &res;
	assert_int_equal(sq_audit_append(&au, &r, &err), 0);
	sq_audit_close(&au);

	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		json_object *o = json_tokener_parse(line);
		json_object *t;

		if (o == NULL)
			fail_msg("not JSON: %s", line);
		assert_null(strstr(line, token));
		assert_null(strstr(line, "eyJ"));
		assert_string_equal(json_object_get_string(field(o, "event")),
				    n == 0 ? "intent" : "result");
		assert_string_equal(json_object_get_string(field(o, "id")),
				    "1-2-3");
		assert_string_equal(json_object_get_string(field(o, "action")),
				    "update");
		assert_string_equal(json_object_get_string(field(o, "cluster")),
				    "testbed");
		assert_string_equal(json_object_get_string(field(o, "backend")),
				    "local");
		assert_non_null(json_object_get_string(field(o, "user")));
		assert_non_null(json_object_get_string(field(o, "time")));
		t = field(o, "targets");
		assert_int_equal(json_object_array_length(t), 1);
		assert_string_equal(
		    json_object_get_string(json_object_array_get_idx(t, 0)),
		    "7");
		assert_string_equal(json_object_get_string(field(o, "command")),
				    "scontrol update jobid=7 comment='tok'");
		if (n == 1) {
			json_object *rs = field(o, "results"), *t0;

			assert_int_equal(
			    json_object_get_int(field(o, "status")), 1);
			assert_false(json_object_get_boolean(field(o, "ok")));
			assert_string_equal(
			    json_object_get_string(field(o, "inverse")),
			    "update 7 comment=old");
			assert_non_null(
			    strstr(json_object_get_string(field(o, "message")),
				   "Access/permission denied \"quoted\" \\ "
				   "SLURM_JWT=[redacted]"));
			t0 = json_object_array_get_idx(rs, 0);
			assert_string_equal(
			    json_object_get_string(field(t0, "message")),
			    "tab\there \x01 nl\n");
			assert_false(
			    json_object_get_boolean(field(t0, "verified")));
			assert_true(json_object_get_double(
					field(o, "duration_ms")) > 12);
		}
		json_object_put(o);
		n++;
	}
	fclose(fp);
	assert_int_equal(n, 2);

	/* :undo reads the newest inverse back: of this session and cluster
	 * only (issue 31) */
	assert_int_equal(
	    sq_audit_last_undo(path, sq_audit_session(), NULL, &undo, &err), 0);
	assert_string_equal(undo.inverse, "update 7 comment=old");
	assert_int_equal(sq_audit_last_undo(path, sq_audit_session(), "testbed",
					    &undo, &err),
			 0);
	assert_string_equal(undo.inverse, "update 7 comment=old");
	assert_int_equal(sq_audit_last_undo(path, "1-2", NULL, &undo, &err), 0);
	assert_string_equal(undo.inverse, "");
	assert_int_equal(sq_audit_last_undo(path, sq_audit_session(),
					    "elsewhere", &undo, &err),
			 0);
	assert_string_equal(undo.inverse, "");
	{
		struct sq_audit_entry *v;
		size_t nv;

		assert_int_equal(sq_audit_read(path, 10, &v, &nv, &err), 0);
		assert_int_equal(nv, 2);
		assert_string_equal(v[0].event, "intent");
		assert_string_equal(v[1].event, "result");
		assert_string_equal(v[1].session, sq_audit_session());
		assert_string_equal(v[1].inverse, "update 7 comment=old");
		assert_string_equal(v[1].ok, "false");
		free(v);
		assert_int_equal(sq_audit_read(path, 1, &v, &nv, &err), 0);
		assert_int_equal(nv, 1);
		assert_string_equal(v[0].event, "result");
		free(v);
	}

	/* a wider mode is narrowed back to 0600 */
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(sq_audit_open(&au, path, &err), 0);
	assert_true(au.repaired);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	sq_audit_close(&au);

	/* a symlink is refused */
	snprintf(line, sizeof(line), "%s/link.log", tmpdir);
	assert_int_equal(symlink(path, line), 0);
	assert_int_equal(sq_audit_open(&au, line, &err), -1);
	sq_result_free(&res);
	sq_action_free(&a);
}

static void
test_audit_path(void **state)
{
	char p[512];
	struct sq_err err;

	(void)state;
	setenv("XDG_STATE_HOME", "/x/state", 1);
	assert_int_equal(sq_audit_default_path(p, sizeof(p), &err), 0);
	assert_string_equal(p, "/x/state/squall/audit.log");
	unsetenv("XDG_STATE_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(sq_audit_default_path(p, sizeof(p), &err), 0);
	assert_string_equal(p, "/home/u/.local/state/squall/audit.log");
}

static void
test_json_string(void **state)
{
	struct sq_buf b;

	(void)state;
	sq_buf_init(&b, 0);
	sq_json_string(&b, "a\"b\\c\x7f\xff\xc3\xa9");
	assert_string_equal(sq_buf_str(&b),
			    "\"a\\\"b\\\\c\\u007f\\ufffd\xc3\xa9\"");
	sq_buf_reset(&b);
	sq_json_string(&b, NULL);
	assert_string_equal(sq_buf_str(&b), "null");
	sq_buf_reset(&b);
	sq_json_string(&b, "X-SLURM-USER-TOKEN: abc.def");
	assert_string_equal(sq_buf_str(&b),
			    "\"X-SLURM-USER-TOKEN: [redacted]\"");
	sq_buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_audit_field),
		cmocka_unit_test_setup_teardown(test_audit, setup_tmp,
						teardown_tmp),
		cmocka_unit_test(test_audit_path),
		cmocka_unit_test(test_json_string),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
