/*
 * test_rest_auth.c - credentials of the rest backend: token files must be
 * regular, owned by the user and mode 0600/0400; the token never appears
 * in an error message; JWT claims (exp, sun) are read; expired tokens are
 * refused before any request, and a renewed token file is picked up.
 * Built only with the rest backend (configure --with-rest).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "tests/unit/test_util.h"

#if SQ_HAVE_REST
#include "backends/rest/rest.h"

static char dir[] = "/tmp/sq_rest_auth_XXXXXX";

/* base64url of {"alg":"HS256","typ":"JWT"} */
#define JWT_HEAD "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"

static void
b64url(const char *in, char *out, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
				  "opqrstuvwxyz0123456789-_";
	size_t i, o = 0, l = strlen(in);

	for (i = 0; i < l && o + 5 < n; i += 3) {
		unsigned v = (unsigned char)in[i] << 16;

		if (i + 1 < l)
			v |= (unsigned char)in[i + 1] << 8;
		if (i + 2 < l)
			v |= (unsigned char)in[i + 2];
		out[o++] = tab[(v >> 18) & 63];
		out[o++] = tab[(v >> 12) & 63];
		if (i + 1 < l)
			out[o++] = tab[(v >> 6) & 63];
		if (i + 2 < l)
			out[o++] = tab[v & 63];
	}
	out[o] = '\0';
}

/* A JWT (unsigned for the server's purposes) with exp and sun. */
static void
make_jwt(long long exp, const char *sun, char *out, size_t n)
{
	char payload[256], enc[400];

	snprintf(payload, sizeof(payload),
		 "{\"exp\":%lld,\"iat\":1700000000,\"sun\":\"%s\"}", exp, sun);
	b64url(payload, enc, sizeof(enc));
	snprintf(out, n, "%s.%s.c2lnbmF0dXJlLW5vdC1jaGVja2Vk", JWT_HEAD, enc);
}

static void
write_file(const char *path, const char *text, mode_t mode)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	assert_int_equal(chmod(path, mode), 0);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_good_file(void **state)
{
	char path[256], tok[512], text[600], *got = NULL;
	size_t len = 0;
	struct sq_err err;

	(void)state;
	make_jwt(4102444800LL, "alice", tok, sizeof(tok));
	/* scontrol token's own output, with blanks around it */
	snprintf(text, sizeof(text), "  SLURM_JWT=%s\n\n", tok);
	snprintf(path, sizeof(path), "%s/good.token", dir);
	write_file(path, text, 0600);
	assert_int_equal(sq_rest_token_file(path, geteuid(), &got, &len, &err),
			 0);
	assert_int_equal(len, strlen(tok));
	assert_string_equal(got, tok);
	sq_rest_secret_free(got, len + 1);
	/* read-only for the owner is fine too */
	assert_int_equal(chmod(path, 0400), 0);
	assert_int_equal(sq_rest_token_file(path, geteuid(), &got, &len, &err),
			 0);
	sq_rest_secret_free(got, len + 1);
}

/* Each refusal: -1, no token handed out, a message that says why and
 * does not contain the token. */
static void
refused(const char *path, uid_t uid, const char *tok, const char *why)
{
	char *got = (char *)"untouched";
	size_t len = 99;
	struct sq_err err;

	sq_err_clear(&err);
	assert_int_equal(sq_rest_token_file(path, uid, &got, &len, &err), -1);
	assert_null(got);
	assert_int_equal(len, 0);
	if (strstr(err.msg, why) == NULL)
		fail_msg("message '%s' lacks '%s'", err.msg, why);
	if (tok != NULL && *tok != '\0' && strstr(err.msg, tok) != NULL)
		fail_msg("the token leaked into: %s", err.msg);
}

static void
test_mode_refused(void **state)
{
	char path[256], tok[512];
	struct sq_err err;

	(void)state;
	make_jwt(4102444800LL, "alice", tok, sizeof(tok));
	snprintf(path, sizeof(path), "%s/open.token", dir);
	write_file(path, tok, 0644);
	refused(path, geteuid(), tok, "0644");
	refused(path, geteuid(), tok, "chmod 600");
	assert_int_equal(chmod(path, 0640), 0);
	refused(path, geteuid(), tok, "0640");
	assert_int_equal(chmod(path, 0604), 0);
	refused(path, geteuid(), tok, "mode");
	/* refusals are policy (exit 1), not usage errors */
	assert_int_equal(chmod(path, 0644), 0);
	{
		char *got;
		size_t len;

		sq_rest_token_file(path, geteuid(), &got, &len, &err);
		assert_int_equal(err.code, SQ_ERR_DENIED);
	}
}

static void
test_owner_refused(void **state)
{
	char path[256], tok[512];

	(void)state;
	make_jwt(4102444800LL, "alice", tok, sizeof(tok));
	snprintf(path, sizeof(path), "%s/other.token", dir);
	write_file(path, tok, 0600);
	/* the file is ours; pretend to be someone else */
	refused(path, geteuid() + 1, tok, "owned by uid");
	refused(path, geteuid() + 1, tok, "not by you");
}

static void
test_bad_contents(void **state)
{
	char path[256], big[20000];

	(void)state;
	snprintf(path, sizeof(path), "%s/dir.token", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	refused(path, geteuid(), NULL, "not a regular file");
	snprintf(path, sizeof(path), "%s/missing.token", dir);
	refused(path, geteuid(), NULL, "cannot open");
	snprintf(path, sizeof(path), "%s/empty.token", dir);
	write_file(path, "\n", 0600);
	refused(path, geteuid(), NULL, "no token");
	/* something that could inject a header */
	snprintf(path, sizeof(path), "%s/inject.token", dir);
	write_file(path, "abc.def\r\nX-Evil: 1", 0600);
	refused(path, geteuid(), "abc.def", "does not hold a JWT");
	write_file(path, "secret-part one", 0600);
	refused(path, geteuid(), "secret-part", "does not hold a JWT");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	snprintf(path, sizeof(path), "%s/big.token", dir);
	write_file(path, big, 0600);
	refused(path, geteuid(), NULL, "too large");
}

static void
test_claims(void **state)
{
	char tok[512], user[64];
	int64_t exp;

	(void)state;
	make_jwt(2000000000LL, "bob", tok, sizeof(tok));
	assert_int_equal(
	    sq_rest_jwt_claims(tok, strlen(tok), &exp, user, sizeof(user)), 0);
	assert_int_equal(exp, 2000000000LL);
	assert_string_equal(user, "bob");
	assert_int_equal(
	    sq_rest_jwt_claims("nodots", 6, &exp, user, sizeof(user)), -1);
	assert_int_equal(exp, -1);
	assert_int_equal(
	    sq_rest_jwt_claims("a.!!!.b", 7, &exp, user, sizeof(user)), -1);
	/* not JSON inside */
	assert_int_equal(
	    sq_rest_jwt_claims("a.bm90IGpzb24.b", 15, &exp, user, sizeof(user)),
	    -1);
}

static void
test_load(void **state)
{
	struct sq_cluster_cfg cfg;
	struct sq_rest_auth a;
	struct sq_err err;
	char tok[512], path[256];

	(void)state;
	sq_cluster_defaults(&cfg);
	make_jwt(4102444800LL, "carol", tok, sizeof(tok));
	/* SLURM_JWT for http(s); the user from the token's sun claim */
	setenv("SLURM_JWT", tok, 1);
	assert_int_equal(sq_rest_auth_load(&a, &cfg, 1, &err), 0);
	assert_string_equal(a.token, tok);
	assert_string_equal(a.user, "carol");
	assert_int_equal(a.exp, 4102444800LL);
	assert_string_equal(a.source, "SLURM_JWT");
	sq_rest_auth_free(&a);
	assert_null(a.token);
	/* an explicit user wins */
	snprintf(cfg.user, sizeof(cfg.user), "dave");
	assert_int_equal(sq_rest_auth_load(&a, &cfg, 1, &err), 0);
	assert_string_equal(a.user, "dave");
	sq_rest_auth_free(&a);
	cfg.user[0] = '\0';
	/* a unix socket uses no token unless a file is given */
	assert_int_equal(sq_rest_auth_load(&a, &cfg, 0, &err), 0);
	assert_null(a.token);
	assert_string_equal(a.user, "");
	sq_rest_auth_free(&a);
	/* a token file wins over SLURM_JWT */
	snprintf(path, sizeof(path), "%s/file.token", dir);
	make_jwt(4102444800LL, "erin", tok, sizeof(tok));
	write_file(path, tok, 0600);
	snprintf(cfg.token_file, sizeof(cfg.token_file), "%s", path);
	assert_int_equal(sq_rest_auth_load(&a, &cfg, 0, &err), 0);
	assert_string_equal(a.user, "erin");
	assert_non_null(strstr(a.source, "file.token"));
	sq_rest_auth_free(&a);
	cfg.token_file[0] = '\0';
	/* nothing at all for http(s) */
	unsetenv("SLURM_JWT");
	assert_int_equal(sq_rest_auth_load(&a, &cfg, 1, &err), -1);
	assert_int_equal(err.code, SQ_ERR_USAGE);
	assert_non_null(strstr(err.msg, "SLURM_JWT"));
	assert_non_null(strstr(err.msg, "--token-file"));
	/* a SLURM_JWT that is not a token */
	setenv("SLURM_JWT", "abc def", 1);
	assert_int_equal(sq_rest_auth_load(&a, &cfg, 1, &err), -1);
	assert_null(strstr(err.msg, "abc def"));
	unsetenv("SLURM_JWT");
}

static void
test_expiry(void **state)
{
	struct sq_cluster_cfg cfg;
	struct sq_rest_auth a;
	struct sq_err err;
	char tok[512], tok2[512], path[256];
	time_t now = time(NULL);

	(void)state;
	sq_cluster_defaults(&cfg);
	snprintf(path, sizeof(path), "%s/expiring.token", dir);
	make_jwt((long long)now - 10, "frank", tok, sizeof(tok));
	write_file(path, tok, 0600);
	snprintf(cfg.token_file, sizeof(cfg.token_file), "%s", path);
	assert_int_equal(sq_rest_auth_load(&a, &cfg, 1, &err), 0);
	/* expired and the file holds nothing newer: refused, clearly */
	assert_int_equal(sq_rest_auth_fresh(&a, now, 60, &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
	assert_non_null(strstr(err.msg, "expired at"));
	assert_non_null(strstr(err.msg, "expiring.token"));
	assert_null(strstr(err.msg, tok));
	/* someone renewed the file: picked up before the next request */
	make_jwt((long long)now + 3600, "frank", tok2, sizeof(tok2));
	write_file(path, tok2, 0600);
	assert_int_equal(sq_rest_auth_fresh(&a, now, 60, &err), 0);
	assert_string_equal(a.token, tok2);
	assert_int_equal(a.exp, (long long)now + 3600);
	/* far from exp: nothing is re-read */
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(sq_rest_auth_fresh(&a, now, 60, &err), 0);
	/* near exp with a file that became unsafe: refused */
	assert_int_equal(sq_rest_auth_fresh(&a, now + 3590, 60, &err), -1);
	assert_non_null(strstr(err.msg, "0644"));
	assert_null(strstr(err.msg, tok2));
	sq_rest_auth_free(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_mode_refused),
		cmocka_unit_test(test_owner_refused),
		cmocka_unit_test(test_bad_contents),
		cmocka_unit_test(test_claims),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_expiry),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

#else /* !SQ_HAVE_REST */

int
main(void)
{
	printf("test_rest_auth: built without the rest backend, nothing to "
	       "test\n");
	return 0;
}

#endif
