/*
 * fuzz_rest.c - libFuzzer harness for what the rest backend reads besides
 * the data: "discover", a GET /openapi/v3 body (version and endpoint
 * discovery); "jwt", a token's claims; "tokenfile", a token file (0600,
 * ours) and "tokentext", `scontrol token` output - whose content must
 * never show up in an error message; "nodestate", a GET /node/NAME
 * answer as a node action reads it back (backends/rest/actions_node.c):
 * its state, the check after and the undo of each node action;
 * "verdict", a GET .../job/ID or .../node/NAME body read as a target and
 * judged by every job and node action (core/action/action_verdict.c); "acct", a
 * QOS, association or user record read back (actions_qos.c,
 * actions_assoc.c, actions_user.c): the bodies built from it, the check
 * and the inverse, whose every line parses back as an action.
 */
#include <json-c/json.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "core/action/action_verdict.h"
#include "core/base/validate.h"
#include "tests/fuzz/fuzz.h"

#ifndef SQ_FUZZ_NAME
#error "build with -DSQ_FUZZ_NAME=\"jwt\" (see tests/fuzz/run)"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[128];

static void
cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sq_fuzz_tmpdir(dir, sizeof(dir), "rest");
	snprintf(path, sizeof(path), "%s/token", dir);
	atexit(cleanup);
	return 0;
}

static void
fuzz_discover(const uint8_t *data, size_t size)
{
	struct sq_rest_api api;
	struct sq_err err;
	char *body = malloc(size ? size : 1);

	SQ_FUZZ_CHECK(body != NULL);
	if (size > 0)
		memcpy(body, data, size);
	memset(&api, 0, sizeof(api));
	if (sq_rest_discover(body, size, &api, &err) == 0) {
		SQ_FUZZ_CHECK(api.slurm == 0 || (api.slurm >= SQ_REST_API_MIN &&
						 api.slurm <= SQ_REST_API_MAX));
		SQ_FUZZ_CHECK(api.slurmdb == 0 ||
			      (api.slurmdb >= SQ_REST_API_MIN &&
			       api.slurmdb <= SQ_REST_API_MAX));
		SQ_FUZZ_CHECK(memchr(api.release, '\0', sizeof(api.release)));
		sq_fuzz_check_display(api.release);
	} else {
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
		sq_fuzz_check_display(err.msg);
	}
	free(body);
}

static void
fuzz_jwt(const uint8_t *data, size_t size)
{
	char *tok = malloc(size ? size : 1), user[64];
	int64_t exp;

	SQ_FUZZ_CHECK(tok != NULL);
	if (size > 0)
		memcpy(tok, data, size);
	if (sq_rest_jwt_claims(tok, size, &exp, user, sizeof(user)) == 0)
		SQ_FUZZ_CHECK(memchr(user, '\0', sizeof(user)) != NULL);
	free(tok);
}

/* The input with every letter and digit of the token part (after blanks
 * and a SLURM_JWT= prefix) moved to the next one of its class: a file
 * that is accepted or refused for the same reasons. */
static uint8_t *
rotated(const uint8_t *data, size_t size)
{
	uint8_t *r = malloc(size ? size : 1);
	size_t i = 0;

	SQ_FUZZ_CHECK(r != NULL);
	if (size > 0)
		memcpy(r, data, size);
	while (i < size && memchr(" \t\r\n", r[i], 4) != NULL && r[i] != 0)
		i++;
	if (size - i > 10 && memcmp(r + i, "SLURM_JWT=", 10) == 0)
		i += 10;
	for (; i < size; i++) {
		if (r[i] >= 'a' && r[i] <= 'z')
			r[i] = r[i] == 'z' ? 'a' : r[i] + 1;
		else if (r[i] >= 'A' && r[i] <= 'Z')
			r[i] = r[i] == 'Z' ? 'A' : r[i] + 1;
		else if (r[i] >= '0' && r[i] <= '9')
			r[i] = r[i] == '9' ? '0' : r[i] + 1;
	}
	return r;
}

static int
read_token(const uint8_t *data, size_t size, char **tok, size_t *len,
	   struct sq_err *err)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	SQ_FUZZ_CHECK(fd >= 0);
	SQ_FUZZ_CHECK(size == 0 || write(fd, data, size) == (ssize_t)size);
	SQ_FUZZ_CHECK(close(fd) == 0);
	sq_err_clear(err);
	return sq_rest_token_file(path, getuid(), tok, len, err);
}

static void
fuzz_tokenfile(const uint8_t *data, size_t size)
{
	char *tok = NULL;
	size_t len = 0, i;
	struct sq_err err, err2;
	uint8_t *other;
	int rc;

	rc = read_token(data, size, &tok, &len, &err);
	if (rc == 0) {
		SQ_FUZZ_CHECK(tok != NULL && len > 0 && strlen(tok) == len);
		/* base64url, '.' and the like only: it goes into an HTTP
		 * header */
		for (i = 0; i < len; i++)
			SQ_FUZZ_CHECK(strchr("abcdefghijklmnopqrstuvwxyz"
					     "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789-_.=+/~",
					     tok[i]) != NULL);
		sq_rest_secret_free(tok, len);
		return;
	}
	SQ_FUZZ_CHECK(err.msg[0] != '\0');
	sq_fuzz_check_display(err.msg);
	/* the message does not depend on what the file holds: no part of
	 * a (broken) token ever shows in it */
	other = rotated(data, size);
	SQ_FUZZ_CHECK(read_token(other, size, &tok, &len, &err2) == -1);
	SQ_FUZZ_CHECK(strcmp(err.msg, err2.msg) == 0);
	free(other);
}

/* a token from `scontrol token` output, as the ssh companion mints it */
static void
fuzz_tokentext(const uint8_t *data, size_t size)
{
	char *tok = NULL, *other;
	size_t len = 0, i;
	struct sq_err err, err2;

	sq_err_clear(&err);
	if (sq_rest_token_text((const char *)data, size, "scontrol token", &tok,
			       &len, &err) == 0) {
		SQ_FUZZ_CHECK(tok != NULL && len > 0 && strlen(tok) == len);
		for (i = 0; i < len; i++)
			SQ_FUZZ_CHECK(strchr("abcdefghijklmnopqrstuvwxyz"
					     "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789-_.=+/~",
					     tok[i]) != NULL);
		sq_rest_secret_free(tok, len + 1);
		return;
	}
	SQ_FUZZ_CHECK(err.msg[0] != '\0');
	other = (char *)rotated(data, size);
	SQ_FUZZ_CHECK(sq_rest_token_text(other, size, "scontrol token", &tok,
					 &len, &err2) == -1);
	SQ_FUZZ_CHECK(strcmp(err.msg, err2.msg) == 0);
	free(other);
}

/* each node of a GET /node/NAME (or /nodes) answer, read back as the
 * target of every node action: a state as scontrol writes it, a verdict,
 * and an undo line the grammar reads again */
static void
fuzz_nodestate(const uint8_t *data, size_t size)
{
	static const char *const lines[] = { "drain n1 reason=disk",
					     "down n1 reason=dead", "resume n1",
					     "reason n1 reason=new",
					     "cancelreboot n1" };
	char *body = sq_fuzz_str(data, size), s[128], msg[256], inv[1024];
	json_object *arr = NULL;
	struct sq_rest_state st;
	size_t k, i;

	memset(&st, 0, sizeof(st));
	st.root = json_tokener_parse(body);
	free(body);
	if (st.root == NULL ||
	    !json_object_object_get_ex(st.root, "nodes", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		sq_rest_state_free(&st);
		return;
	}
	for (k = 0; k < json_object_array_length(arr) && k < 8; k++) {
		st.rec = json_object_array_get_idx(arr, k);
		st.found = st.rec != NULL;
		SQ_FUZZ_CHECK(sq_rest_node_state(st.rec, s, sizeof(s)) == s);
		SQ_FUZZ_CHECK(memchr(s, '\0', sizeof(s)) != NULL);
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			struct sq_action a, back;
			struct sq_result res;
			struct sq_err err;
			int v;

			SQ_FUZZ_CHECK(sq_action_parse(lines[i], SQ_KIND_NODES,
						      NULL, 0, &a, &err) == 0);
			v = sq_rest_verify(&a, NULL, &st, msg, sizeof(msg));
			SQ_FUZZ_CHECK(v == SQ_VERIFY_OK ||
				      v == SQ_VERIFY_FAILED ||
				      v == SQ_VERIFY_UNCHECKED);
			SQ_FUZZ_CHECK(memchr(msg, '\0', sizeof(msg)) != NULL);
			sq_result_init(&res);
			SQ_FUZZ_CHECK(sq_result_targets(&res, &a) == 0);
			res.targets[0].ok = 1;
			sq_rest_node_inverse(&a, &res, &st, inv, sizeof(inv));
			/* an undo offered is a line the grammar takes */
			if (inv[0] != '\0') {
				SQ_FUZZ_CHECK(
				    sq_action_parse(inv, SQ_KIND_NODES, NULL, 0,
						    &back, &err) == 0);
				sq_action_free(&back);
			}
			sq_result_free(&res);
			sq_action_free(&a);
		}
	}
	st.rec = NULL;
	sq_rest_state_free(&st);
}

/* Every job and node action's verdict on the body's first job or node. */
static const struct {
	const char *line;
	enum sq_kind kind;
} verdict_lines[] = {
	{ "cancel 5", SQ_KIND_JOBS },
	{ "signal USR1 5", SQ_KIND_JOBS },
	{ "hold 5", SQ_KIND_JOBS },
	{ "release 5", SQ_KIND_JOBS },
	{ "requeue 5", SQ_KIND_JOBS },
	{ "requeuehold 5", SQ_KIND_JOBS },
	{ "suspend 5", SQ_KIND_JOBS },
	{ "resume 5", SQ_KIND_JOBS },
	{ "update 5 nice=3 timelimit=7 comment=x", SQ_KIND_JOBS },
	{ "drain n1 reason=x", SQ_KIND_NODES },
	{ "down n1 reason=x", SQ_KIND_NODES },
	{ "resume n1", SQ_KIND_NODES },
	{ "reboot n1", SQ_KIND_NODES },
	{ "cancelreboot n1", SQ_KIND_NODES },
	{ "reason n1 reason=x", SQ_KIND_NODES },
};

static json_object *
first_rec(json_object *root, const char *key)
{
	json_object *arr, *r;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, key, &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    json_object_array_length(arr) == 0)
		return NULL;
	r = json_object_array_get_idx(arr, 0);
	return json_object_is_type(r, json_type_object) ? r : NULL;
}

static void
fuzz_verdict(const uint8_t *data, size_t size)
{
	char *s = sq_fuzz_str(data, size), msg[256];
	struct sq_rest_state st;
	size_t i;

	memset(&st, 0, sizeof(st));
	st.root = json_tokener_parse(s);
	for (i = 0; st.root != NULL &&
		    i < sizeof(verdict_lines) / sizeof(verdict_lines[0]);
	     i++) {
		struct sq_action a;
		struct sq_err err;
		int v;

		SQ_FUZZ_CHECK(sq_action_parse(verdict_lines[i].line,
					      (int)verdict_lines[i].kind, NULL,
					      0, &a, &err) == 0);
		st.rec = first_rec(
		    st.root,
		    verdict_lines[i].kind == SQ_KIND_NODES ? "nodes" : "jobs");
		st.found = st.rec != NULL;
		v = sq_rest_verify(&a, &st, &st, msg, sizeof(msg));
		SQ_FUZZ_CHECK(v >= SQ_VERIFY_UNCHECKED && v <= SQ_VERIFY_OK);
		SQ_FUZZ_CHECK(memchr(msg, '\0', sizeof(msg)) != NULL);
		sq_action_free(&a);
	}
	if (st.root != NULL)
		json_object_put(st.root);
	free(s);
}

/* The input as a record read back: the first of its "qos",
 * "associations" or "users" array, else the whole. */
static void
acct_state(const uint8_t *data, size_t size, struct sq_rest_state *st)
{
	static const char *const keys[] = { "qos", "associations", "users",
					    "accounts" };
	json_tokener *tok = json_tokener_new_ex(64);
	json_object *arr;
	size_t k;

	memset(st, 0, sizeof(*st));
	SQ_FUZZ_CHECK(tok != NULL);
	st->root = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (st->root == NULL)
		return;
	st->rec = st->root;
	for (k = 0; k < 4; k++)
		if (json_object_object_get_ex(st->root, keys[k], &arr) &&
		    json_object_is_type(arr, json_type_array))
			st->rec = json_object_array_length(arr) > 0
				      ? json_object_array_get_idx(arr, 0)
				      : NULL;
	/* an account read with its coordinators; a user's or an account's
	 * associations (borrowed from root: aroot stays NULL) */
	st->coords = 1;
	if (json_object_object_get_ex(st->root, "associations", &arr) &&
	    json_object_is_type(arr, json_type_array))
		st->assocs = arr;
	st->found =
	    st->rec != NULL && json_object_is_type(st->rec, json_type_object);
	if (!st->found)
		st->rec = NULL;
}

static void
fuzz_acct(const uint8_t *data, size_t size)
{
	static const char *const lines[] = {
		"setqos q priority=5 maxjobspu=-1 maxtrespu=cpu=2,gres/gpu=1 "
		"flags=NoDecay preempt=low gracetime=9 usagefactor=1.5 "
		"grpwall=60",
		"setqos q maxtrespa=-1 preemptmode=requeue",
		"addqos q grptres=cpu=4",
		"delqos q",
		"setlimit account=a user=u partition=p maxjobs=3 "
		"grptres=cpu=-1 "
		"maxwall=90 qos=normal defaultqos=normal fairshare=2",
		"clearlimit account=a user=u grptres maxjobs",
		"moduser u defaultaccount=a adminlevel=operator",
		"moduser u defaultqos=normal",
		"modaccount a parent=p fairshare=3",
		"modaccount a description=d organization=o",
		"addcoord a user=b,c",
		"delcoord a user=b",
	};
	struct sq_rest_state st;
	struct sq_target_result tr[1];
	struct sq_result res;
	size_t i;

	if (size > 65536)
		return;
	acct_state(data, size, &st);
	memset(&res, 0, sizeof(res));
	memset(tr, 0, sizeof(tr));
	tr[0].ok = 1;
	res.targets = tr;
	res.ntargets = 1;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct sq_rest_reqs r;
		struct sq_action a, back;
		struct sq_err err;
		char text[8192], msg[256], inv[4096], *line, *save;

		sq_err_clear(&err);
		SQ_FUZZ_CHECK(
		    sq_action_parse(lines[i], -1, NULL, 0, &a, &err) == 0);
		if (sq_rest_action_reqs_before(&a, 42, 42, "c", &st, &r,
					       &err) == 0) {
			if (sq_rest_reqs_format(&r, text, sizeof(text)) == 0)
				sq_fuzz_check_display(text);
			sq_rest_reqs_free(&r);
		} else {
			SQ_FUZZ_CHECK(err.msg[0] != '\0');
			sq_fuzz_check_display(err.msg);
		}
		msg[0] = '\0';
		/* the verdict: core's on the record this state reads as */
		sq_rest_verify(&a, &st, &st, msg, sizeof(msg));
		sq_fuzz_check_display(msg);
		msg[0] = '\0';
		if (sq_rest_assoc_mapped(&a, 42)) {
			sq_rest_assoc_unchanged(&a, 0, &st, &st, msg,
						sizeof(msg));
			sq_rest_assoc_inverse(&a, &res, &st, inv, sizeof(inv));
		} else if (sq_rest_user_mapped(&a, 42)) {
			sq_rest_acct_unchanged(&a, &st, &st, msg, sizeof(msg));
			sq_rest_user_inverse(&a, &res, &st, inv, sizeof(inv));
			sq_rest_user_listing(&a, &st, text, sizeof(text));
			sq_fuzz_check_display(text);
		} else if (sq_rest_account_mapped(&a, 42)) {
			/* the same state before and after: nothing moved */
			SQ_FUZZ_CHECK(sq_rest_acct_unchanged(&a, &st, &st, msg,
							     sizeof(msg)) == 1);
			sq_rest_account_inverse(&a, &res, &st, inv,
						sizeof(inv));
		} else {
			sq_rest_qos_unchanged(&a, &st, &st, msg, sizeof(msg));
			sq_rest_qos_inverse(&a, &res, &st, inv, sizeof(inv));
		}
		sq_fuzz_check_display(msg);
		sq_fuzz_check_display(inv);
		/* the undo is a line the user may run: it parses */
		for (line = strtok_r(inv, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save)) {
			SQ_FUZZ_CHECK(sq_action_parse(line, -1, NULL, 0, &back,
						      &err) == 0);
			sq_action_free(&back);
		}
		sq_action_free(&a);
	}
	sq_rest_state_free(&st);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (strcmp(SQ_FUZZ_NAME, "discover") == 0)
		fuzz_discover(data, size);
	else if (strcmp(SQ_FUZZ_NAME, "jwt") == 0)
		fuzz_jwt(data, size);
	else if (strcmp(SQ_FUZZ_NAME, "tokenfile") == 0)
		fuzz_tokenfile(data, size);
	else if (strcmp(SQ_FUZZ_NAME, "tokentext") == 0)
		fuzz_tokentext(data, size);
	else if (strcmp(SQ_FUZZ_NAME, "nodestate") == 0)
		fuzz_nodestate(data, size);
	else if (strcmp(SQ_FUZZ_NAME, "verdict") == 0)
		fuzz_verdict(data, size);
	else if (strcmp(SQ_FUZZ_NAME, "acct") == 0)
		fuzz_acct(data, size);
	else
		SQ_FUZZ_CHECK(!"unknown harness");
	return 0;
}
