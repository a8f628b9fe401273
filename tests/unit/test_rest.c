/*
 * test_rest.c - the rest backend's version discovery on recorded GET
 * /openapi/v3 path lists (22.05: v0.0.36-38; 24.11: v0.0.40-42; the live
 * 24.11 and 26.05 testbeds: v0.0.40-42, v0.0.42-45) and on
 * small synthetic ones, and the URL rules of the HTTP layer (plain http
 * only to loopback or a unix socket unless forced; no credentials in
 * URLs), and the requests an action becomes. Built only with the rest
 * backend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "tests/unit/test_util.h"

#if SQ_HAVE_REST
#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "core/action/action.h"

static void
test_discover_2205(void **state)
{
	struct sq_rest_api api;
	struct sq_err err;
	size_t len;
	char *b = sq_test_fixture("rest/v0.0.38/openapi_v3_paths.json", &len);
	unsigned want = SQ_REP_JOBS | SQ_REP_JOB_GET | SQ_REP_JOB_UPDATE |
			SQ_REP_JOB_DELETE | SQ_REP_NODES | SQ_REP_PARTITIONS |
			SQ_REP_RESERVATIONS | SQ_REP_DIAG | SQ_REP_PING |
			SQ_REP_ACCOUNTS | SQ_REP_USERS | SQ_REP_ASSOCS |
			SQ_REP_QOS | SQ_REP_DB_DIAG | SQ_REP_ACCT_UPDATE;

	(void)state;
	assert_int_equal(sq_rest_discover(b, len, &api, &err), 0);
	assert_int_equal(api.slurm, 38);
	assert_int_equal(api.slurmdb, 38);
	assert_int_equal(api.newest_seen, 38);
	assert_int_equal(api.eps & want, want);
	/* 22.05 cannot drain nodes, has no shares and no bulk delete */
	assert_int_equal(api.eps & SQ_REP_NODE_UPDATE, 0);
	assert_int_equal(api.eps & SQ_REP_SHARES, 0);
	assert_int_equal(api.eps & SQ_REP_JOBS_DELETE, 0);
	assert_string_equal(api.release, "");
	free(b);
}

static void
test_discover_2411(void **state)
{
	struct sq_rest_api api;
	struct sq_err err;
	size_t len;
	char *b = sq_test_fixture("rest/v0.0.42/openapi_v3_paths.json", &len);

	(void)state;
	assert_int_equal(sq_rest_discover(b, len, &api, &err), 0);
	assert_int_equal(api.slurm, 42);
	assert_int_equal(api.slurmdb, 42);
	assert_true(api.eps & SQ_REP_SHARES);
	assert_true(api.eps & SQ_REP_NODE_UPDATE);
	assert_true(api.eps & SQ_REP_JOBS_DELETE);
	assert_true(api.eps & SQ_REP_JOBS);
	assert_true(api.eps & SQ_REP_ACCOUNTS);
	assert_string_equal(api.release, "24.11.7");
	free(b);
}

/* Hide version v of an /openapi/v3 body: "/v0.0.45/" -> "/v0.0.x5/" */
static void
hide_version(char *b, int v)
{
	char from[16], *p;

	snprintf(from, sizeof(from), "/v0.0.%d/", v);
	while ((p = strstr(b, from)) != NULL)
		p[6] = 'x';
}

/* The path lists of the live 24.11 and 26.05 testbeds
 * (tests/fixtures/live): the newest served version, and with the newest
 * ones hidden the paths a 25.05 (v0.0.43) and 25.11 (v0.0.44) server
 * lists; the endpoints squall uses are at each of them. */
static void
test_discover_live(void **state)
{
	unsigned want = SQ_REP_JOBS | SQ_REP_JOB_GET | SQ_REP_JOB_UPDATE |
			SQ_REP_JOB_DELETE | SQ_REP_NODES | SQ_REP_NODE_UPDATE |
			SQ_REP_PARTITIONS | SQ_REP_RESERVATIONS | SQ_REP_DIAG |
			SQ_REP_SHARES | SQ_REP_PING | SQ_REP_JOBS_DELETE |
			SQ_REP_ACCOUNTS | SQ_REP_USERS | SQ_REP_ASSOCS |
			SQ_REP_QOS | SQ_REP_DB_DIAG | SQ_REP_ACCT_UPDATE;
	struct sq_rest_api api;
	struct sq_err err;
	size_t len;
	char *b = sq_test_fixture("live/slurm-24.11/rest/openapi_v3_paths.json",
				  &len);
	int v;

	(void)state;
	assert_int_equal(sq_rest_discover(b, len, &api, &err), 0);
	assert_int_equal(api.slurm, 42);
	assert_int_equal(api.slurmdb, 42);
	assert_int_equal(api.newest_seen, 42);
	assert_int_equal(api.eps & want, want);
	assert_string_equal(api.release, "24.11.5");
	free(b);
	b = sq_test_fixture("live/slurm-26.05/rest/openapi_v3_paths.json",
			    &len);
	for (v = 45; v >= 42; v--) {
		assert_int_equal(sq_rest_discover(b, len, &api, &err), 0);
		assert_int_equal(api.slurm, v);
		assert_int_equal(api.slurmdb, v);
		assert_int_equal(api.newest_seen, v);
		if ((api.eps & want) != want)
			fail_msg("v0.0.%d: endpoints %#x of %#x", v, api.eps,
				 want);
		assert_string_equal(api.release, "26.05.5");
		hide_version(b, v);
	}
	/* nothing left that squall speaks */
	assert_int_equal(sq_rest_discover(b, len, &api, &err), -1);
	free(b);
}

static void
test_discover_synthetic(void **state)
{
	static const char old[] = "{\"openapi\":\"3.0.3\",\"paths\":{"
				  "\"/slurm/v0.0.36/jobs\":{\"get\":{}},"
				  "\"/slurm/v0.0.37/jobs\":{\"get\":{}}}}";
	static const char newer[] =
	    "{\"paths\":{"
	    "\"/slurm/v0.0.44/jobs/\":{\"get\":{}},"
	    "\"/slurm/v0.0.44/node/{node_name}\":{\"get\":{}},"
	    "\"/slurm/v0.0.46/jobs/\":{\"get\":{}},"
	    "\"/slurm/v0.0.46/node/{node_name}\":{\"post\":{}},"
	    "\"/slurmdb/v0.0.43/qos/\":{\"get\":{}},"
	    "\"/slurm/v0.0.x/jobs\":{\"get\":{}},"
	    "\"/slurm/v0.0.44/jobsxx\":{\"get\":{}},"
	    "\"/slurm/v0.0.44/shares\":[]}}";
	struct sq_rest_api api;
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_rest_discover(old, sizeof(old) - 1, &api, &err),
			 -1);
	assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "v0.0.37"));
	assert_int_equal(sq_rest_discover(newer, sizeof(newer) - 1, &api, &err),
			 0);
	/* the newest we understand, not the newest there is */
	assert_int_equal(api.slurm, 44);
	assert_int_equal(api.slurmdb, 43);
	assert_int_equal(api.newest_seen, 46);
	assert_int_equal(api.eps & SQ_REP_JOBS, SQ_REP_JOBS);
	assert_int_equal(api.eps & SQ_REP_NODE_UPDATE, 0); /* only in 46 */
	assert_int_equal(api.eps & SQ_REP_SHARES, 0);      /* not an object */
	assert_true(api.eps & SQ_REP_QOS);
	assert_int_equal(sq_rest_discover("<html>", 6, &api, &err), -1);
	assert_int_equal(sq_rest_discover("{\"paths\":{}}", 12, &api, &err),
			 -1);
	assert_int_equal(sq_rest_discover("", 0, &api, &err), -1);
	assert_int_equal(sq_rest_discover("{\"paths\":", 9, &api, &err), -1);
}

/* GET jobs with flags=ALL where the operation lists the query parameter
 * (SHOW_ALL without slurmrestd's default SHOW_DETAIL): the parameters as
 * 26.05.5's slurmrestd lists them for /slurm/v0.0.45/jobs/ (GET
 * /openapi/v3 on the testbed, 2026-12-06; 24.11.5's v0.0.42 the same two),
 * then a "flags" without ALL, in the path, and none (v0.0.38 has no
 * parameter: 22.05's slurmrestd always asks for SHOW_DETAIL) */
static void
test_jobs_path(void **state)
{
	static const char with[] =
	    "{\"paths\":{\"/slurm/v0.0.45/jobs/\":{\"get\":{\"parameters\":["
	    "{\"in\":\"query\",\"name\":\"update_time\",\"style\":\"form\","
	    "\"explode\":false,\"allowEmptyValue\":false,\"allowReserved\":"
	    "false,\"description\":\"Query jobs updated more recently than "
	    "this time (UNIX timestamp)\",\"required\":false,\"schema\":{"
	    "\"type\":\"string\"}},{\"in\":\"query\",\"name\":\"flags\","
	    "\"style\":\"form\",\"explode\":false,\"allowEmptyValue\":false,"
	    "\"allowReserved\":false,\"description\":\"Query flags\","
	    "\"required\":false,\"schema\":{\"type\":\"string\",\"enum\":["
	    "\"ALL\",\"DETAIL\",\"MIXED\",\"LOCAL\",\"SIBLING\","
	    "\"FEDERATION\",\"FUTURE\"]}}]}}}}";
	static const char *const without[] = {
		"{\"paths\":{\"/slurm/v0.0.45/jobs/"
		"\":{\"get\":{\"parameters\":["
		"{\"in\":\"query\",\"name\":\"flags\",\"schema\":{\"enum\":["
		"\"DETAIL\"]}}]}}}}",
		"{\"paths\":{\"/slurm/v0.0.45/jobs/"
		"\":{\"get\":{\"parameters\":["
		"{\"in\":\"path\",\"name\":\"flags\",\"schema\":{\"enum\":["
		"\"ALL\"]}}]}}}}",
		"{\"paths\":{\"/slurm/v0.0.45/jobs/\":{\"get\":{\"parameters\":"
		"{}}}}}",
		"{\"paths\":{\"/slurm/v0.0.38/jobs\":{\"get\":{}}}}",
	};
	struct sq_rest_api api;
	struct sq_err err;
	char path[64];
	size_t i;

	(void)state;
	assert_int_equal(sq_rest_discover(with, sizeof(with) - 1, &api, &err),
			 0);
	assert_true(api.eps & SQ_REP_JOBS_ALL);
	assert_int_equal(sq_rest_jobs_path(path, sizeof(path), &api, 0), 0);
	assert_string_equal(path, "/slurm/v0.0.45/jobs?flags=ALL");
	assert_int_equal(
	    sq_rest_jobs_path(path, sizeof(path), &api, 1795990000), 0);
	assert_string_equal(
	    path, "/slurm/v0.0.45/jobs?update_time=1795990000&flags=ALL");
	/* too small: refused, not cut */
	assert_int_equal(sq_rest_jobs_path(path, 20, &api, 0), -1);
	for (i = 0; i < sizeof(without) / sizeof(without[0]); i++) {
		assert_int_equal(sq_rest_discover(without[i],
						  strlen(without[i]), &api,
						  &err),
				 0);
		assert_true(api.eps & SQ_REP_JOBS);
		assert_int_equal(api.eps & SQ_REP_JOBS_ALL, 0);
		assert_int_equal(sq_rest_jobs_path(path, sizeof(path), &api, 0),
				 0);
		assert_null(strchr(path, '?'));
		assert_int_equal(sq_rest_jobs_path(path, sizeof(path), &api, 7),
				 0);
		assert_non_null(strstr(path, "/jobs?update_time=7"));
		assert_null(strstr(path, "flags"));
	}
}

static void
url_ok(const char *url, int insecure, int is_unix, const char *where)
{
	struct sq_err err;
	struct sq_http *h;

	sq_err_clear(&err);
	h = sq_http_open(url, insecure, 5, &err);
	if (h == NULL)
		fail_msg("%s refused: %s", url, err.msg);
	assert_int_equal(sq_http_is_unix(h), is_unix);
	assert_string_equal(sq_http_where(h), where);
	sq_http_close(h);
}

static void
url_bad(const char *url, int insecure, const char *why)
{
	struct sq_err err;

	sq_err_clear(&err);
	assert_null(sq_http_open(url, insecure, 5, &err));
	assert_int_equal(err.code, SQ_ERR_USAGE);
	if (strstr(err.msg, why) == NULL)
		fail_msg("%s: message '%s' lacks '%s'", url, err.msg, why);
}

/* --ca-file: only for https, only a readable regular file */
static void
test_ca_file(void **state)
{
	struct sq_err err;
	struct sq_http *h;
	char path[] = "/tmp/sq-test-ca.XXXXXX";
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd != -1);
	close(fd);
	h = sq_http_open("http://127.0.0.1:6820", 0, 5, &err);
	assert_non_null(h);
	assert_int_equal(sq_http_ca_file(h, path, &err), -1);
	assert_non_null(strstr(err.msg, "only an https:// URL"));
	sq_http_close(h);
	h = sq_http_open("https://rest.example:6820", 0, 5, &err);
	assert_non_null(h);
	assert_int_equal(sq_http_ca_file(h, "/dev/null", &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_int_equal(sq_http_ca_file(h, "/nonexistent/ca.pem", &err), -1);
	assert_int_equal(sq_http_ca_file(h, path, &err), 0);
	sq_http_close(h);
	unlink(path);
}

static void
test_urls(void **state)
{
	(void)state;
	url_ok("http://127.0.0.1:6820", 0, 0, "http://127.0.0.1:6820");
	url_ok("http://127.1.2.3:6820/", 0, 0, "http://127.1.2.3:6820");
	url_ok("http://localhost:6820", 0, 0, "http://localhost:6820");
	url_ok("http://[::1]:6820", 0, 0, "http://[::1]:6820");
	url_ok("https://slurm.example.org", 0, 0, "https://slurm.example.org");
	url_ok("https://10.0.0.5:8443/slurmrestd/", 0, 0,
	       "https://10.0.0.5:8443/slurmrestd");
	url_ok("http://10.0.0.5:6820", 1, 0, "http://10.0.0.5:6820");
	url_ok("unix:/run/slurmrestd.sock", 0, 1, "unix:/run/slurmrestd.sock");
	url_ok("unix:///run/slurmrestd.sock", 0, 1,
	       "unix:/run/slurmrestd.sock");
	url_bad("http://10.0.0.5:6820", 0, "refusing plain http");
	url_bad("http://slurm.example.org:6820", 0, "--insecure-http");
	url_bad("http://128.0.0.1:6820", 0, "refusing plain http");
	url_bad("http://[::2]:6820", 0, "refusing plain http");
	url_bad("http://user:pw@127.0.0.1:6820", 0, "not allowed");
	url_bad("http://127.0.0.1:6820/?x=1", 0, "not allowed");
	url_bad("http://127.0.0.1:0", 0, "bad port");
	url_bad("http://127.0.0.1:99999", 0, "bad port");
	url_bad("http://127.0.0.1:68x0", 0, "bad port");
	url_bad("http://:6820", 0, "bad host");
	url_bad("http://", 0, "no host");
	url_bad("ftp://127.0.0.1", 0, "use http://");
	url_bad("127.0.0.1:6820", 0, "use http://");
	url_bad("unix:relative.sock", 0, "unix:/absolute/path");
	url_bad("unix:/tmp/a\nb", 0, "control character");
	url_bad("", 0, "needs a URL");
}

/* A request to a port where nobody listens fails with the URL, fast. */
static void
test_no_server(void **state)
{
	struct sq_err err;
	struct sq_http *h = sq_http_open("http://127.0.0.1:9", 0, 5, &err);
	struct sq_buf out;
	long status = -1;

	(void)state;
	assert_non_null(h);
	sq_buf_init(&out, 1024);
	assert_int_equal(sq_http_request(h, "GET", "/openapi/v3", NULL, NULL,
					 &out, &status, &err),
			 -1);
	assert_int_equal(err.code, SQ_ERR_CONNECT);
	assert_non_null(strstr(err.msg, "http://127.0.0.1:9"));
	assert_int_equal(
	    sq_http_request(h, "GET", "/a b", NULL, NULL, &out, &status, &err),
	    -1);
	assert_int_equal(sq_http_request(h, "GET", "nolead", NULL, NULL, &out,
					 &status, &err),
			 -1);
	sq_buf_free(&out);
	sq_http_close(h);
}

/* An action on tagged rows: one request a target, in the targets' order,
 * past the request array's first growths (8, 16). */
static void
test_action_reqs(void **state)
{
	const char *ids[20];
	char idbuf[20][8], path[64], text[4096];
	struct sq_rest_reqs r = { NULL, 0, 0 };
	struct sq_action a;
	struct sq_err err;
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++) {
		snprintf(idbuf[i], sizeof(idbuf[i]), "%zu", 1001 + i);
		ids[i] = idbuf[i];
	}
	sq_err_clear(&err);
	assert_int_equal(
	    sq_action_parse("cancel", SQ_KIND_JOBS, ids, 20, &a, &err), 0);
	assert_int_equal(sq_rest_action_reqs(&a, 41, 41, "c", &r, &err), 0);
	assert_int_equal(r.n, 20);
	assert_true(r.cap >= r.n);
	for (i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "/slurm/v0.0.41/job/%zu",
			 1001 + i);
		assert_string_equal(r.v[i].method, "DELETE");
		assert_string_equal(r.v[i].path, path);
		assert_null(r.v[i].body);
		assert_int_equal(r.v[i].target, i);
	}
	sq_rest_reqs_free(&r);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.cap, 0);
	sq_action_free(&a);

	/* a body per request */
	assert_int_equal(
	    sq_action_parse("hold", SQ_KIND_JOBS, ids, 2, &a, &err), 0);
	assert_int_equal(sq_rest_action_reqs(&a, 38, 38, "c", &r, &err), 0);
	assert_int_equal(sq_rest_reqs_format(&r, text, sizeof(text)), 0);
	assert_string_equal(text,
			    "POST /slurm/v0.0.38/job/1001 {\"hold\":true}\n"
			    "POST /slurm/v0.0.38/job/1002 {\"hold\":true}");
	sq_rest_reqs_free(&r);
	sq_action_free(&a);

	/* refused: no request, and why */
	assert_int_equal(
	    sq_action_parse("requeue", SQ_KIND_JOBS, ids, 3, &a, &err), 0);
	assert_int_equal(sq_rest_action_reqs(&a, 41, 41, "c", &r, &err), -1);
	assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "requeue"));
	assert_int_equal(r.n, 0);
	assert_null(r.v);
	sq_action_free(&a);
}

/* Every action of the table (core/action/action.h) on API v0.0.38 and v0.0.41:
 * its requests as the preview shows them, or "!" and the first words of
 * why slurmrestd cannot do it. Submit is submit.c (test_submit.c). */
static const struct {
	const char *line;
	int kind;
	const char *v38, *v41;
} walk[] = {
	{ "cancel 1 2", -1,
	  "DELETE /slurm/v0.0.38/job/1\n"
	  "DELETE /slurm/v0.0.38/job/2",
	  "DELETE /slurm/v0.0.41/job/1\n"
	  "DELETE /slurm/v0.0.41/job/2" },
	{ "signal 1 sig=USR1", -1, "DELETE /slurm/v0.0.38/job/1?signal=SIGUSR1",
	  "DELETE /slurm/v0.0.41/job/1?signal=SIGUSR1" },
	{ "hold 1 2", -1,
	  "POST /slurm/v0.0.38/job/1 {\"hold\":true}\n"
	  "POST /slurm/v0.0.38/job/2 {\"hold\":true}",
	  "POST /slurm/v0.0.41/job/1 {\"hold\":true}\n"
	  "POST /slurm/v0.0.41/job/2 {\"hold\":true}" },
	{ "release 1", -1, "POST /slurm/v0.0.38/job/1 {\"hold\":false}",
	  "POST /slurm/v0.0.41/job/1 {\"hold\":false}" },
	{ "requeue 1", -1,
	  "!requeue (no such endpoint before v0.0.45) through slurmrest",
	  "!requeue (no such endpoint before v0.0.45) through slurmrest" },
	{ "requeuehold 1", -1,
	  "!requeue (no such endpoint before v0.0.45) through slurmrest",
	  "!requeue (no such endpoint before v0.0.45) through slurmrest" },
	{ "suspend 1", -1,
	  "!suspend and resume of jobs through slurmrestd (API v0.0.38)",
	  "!suspend and resume of jobs through slurmrestd (API v0.0.41)" },
	{ "resume 1", SQ_KIND_JOBS,
	  "!suspend and resume of jobs through slurmrestd (API v0.0.38)",
	  "!suspend and resume of jobs through slurmrestd (API v0.0.41)" },
	{ "update 1 timelimit=1-00:00:00 nice=5 priority=10 partition=p "
	  "comment=hi",
	  -1,
	  "POST /slurm/v0.0.38/job/1 "
	  "{\"time_limit\":1440,\"nice\":5,\"priority\":10,\"partition\":\"p\","
	  "\"comment\":\"hi\"}",
	  "POST /slurm/v0.0.41/job/1 "
	  "{\"time_limit\":1440,\"nice\":5,\"priority\":10,\"partition\":\"p\","
	  "\"comment\":\"hi\"}" },
	{ "drain n1 reason=disk", -1,
	  "!node updates through slurmrestd (API v0.0.38) are not possible: "
	  "POST /node answers 405",
	  "POST /slurm/v0.0.41/node/n1 "
	  "{\"state\":[\"DRAIN\"],\"reason\":\"disk\"}" },
	{ "down n1 reason=x", -1,
	  "!node updates through slurmrestd (API v0.0.38) are not possible: "
	  "POST /node answers 405",
	  "POST /slurm/v0.0.41/node/n1 "
	  "{\"state\":[\"DOWN\"],\"reason\":\"x\"}" },
	{ "resume n1", SQ_KIND_NODES,
	  "!node updates through slurmrestd (API v0.0.38) are not possible: "
	  "POST /node answers 405",
	  "POST /slurm/v0.0.41/node/n1 {\"state\":[\"RESUME\"]}" },
	{ "reboot n1 asap", -1,
	  "!node updates through slurmrestd (API v0.0.38) are not possible: "
	  "POST /node answers 405",
	  "!reboot through slurmrestd (API v0.0.41) is not possible: "
	  "slurmrestd has no reboot call" },
	{ "cancelreboot n1", -1,
	  "!node updates through slurmrestd (API v0.0.38) are not possible: "
	  "POST /node answers 405",
	  "POST /slurm/v0.0.41/node/n1 "
	  "{\"state\":[\"REBOOT_CANCELED\"]}" },
	{ "reason n1 reason=x", -1,
	  "!node updates through slurmrestd (API v0.0.38) are not possible: "
	  "POST /node answers 405",
	  "POST /slurm/v0.0.41/node/n1 {\"reason\":\"x\"}" },
	{ "addaccount bio parent=chem description=Bio lab fairshare=5", -1,
	  "POST /slurmdb/v0.0.38/accounts "
	  "{\"accounts\":[{\"name\":\"bio\",\"description\":\"Bio "
	  "lab\",\"organization\":\"chem\"}]}\n"
	  "POST /slurmdb/v0.0.38/associations "
	  "{\"associations\":[{\"account\":\"bio\",\"cluster\":\"c\",\"parent_"
	  "account\":\"chem\",\"shares_raw\":5}]}",
	  "POST /slurmdb/v0.0.41/accounts_association "
	  "{\"association_condition\":{\"accounts\":[\"bio\"],\"clusters\":["
	  "\"c\"],\"association\":{\"parent\":\"chem\",\"fairshare\":5}},"
	  "\"account\":{\"description\":\"Bio "
	  "lab\",\"organization\":\"chem\"}}" },
	{ "modaccount bio fairshare=1", -1,
	  "!modaccount through slurmrestd API v0.0.38 is not mapped (squall",
	  "!modaccount parent=/fairshare= through slurmrestd reads the acc" },
	{ "modaccount bio parent=chem", -1,
	  "!modaccount through slurmrestd API v0.0.38 is not mapped (squall",
	  "!modaccount parent=/fairshare= through slurmrestd reads the acc" },
	{ "modaccount bio organization=x", -1,
	  "!modaccount through slurmrestd API v0.0.38 is not mapped (squall",
	  "!modaccount through slurmrestd reads the account and its coord" },
	{ "delaccount bio", -1, "DELETE /slurmdb/v0.0.38/account/bio",
	  "DELETE /slurmdb/v0.0.41/account/bio" },
	{ "addcoord bio user=bob", -1,
	  "!addcoord through slurmrestd API v0.0.38 is not mapped (squall ",
	  "!addcoord through slurmrestd reads the account and its coordin" },
	{ "delcoord bio user=bob", -1,
	  "!delcoord through slurmrestd API v0.0.38 is not mapped (squall ",
	  "!delcoord through slurmrestd reads the account and its coordin" },
	{ "adduser bob account=bio partition=gpu", -1,
	  "POST /slurmdb/v0.0.38/associations "
	  "{\"associations\":[{\"account\":\"bio\",\"cluster\":\"c\",\"user\":"
	  "\"bob\",\"partition\":\"gpu\"}]}",
	  "POST /slurmdb/v0.0.41/associations "
	  "{\"associations\":[{\"account\":\"bio\",\"cluster\":\"c\",\"user\":"
	  "\"bob\",\"partition\":\"gpu\"}]}" },
	{ "deluser bob carol account=bio", -1,
	  "DELETE /slurmdb/v0.0.38/association?account=bio&user=bob&cluster=c\n"
	  "DELETE "
	  "/slurmdb/v0.0.38/association?account=bio&user=carol&cluster=c",
	  "DELETE /slurmdb/v0.0.41/association?account=bio&user=bob&cluster=c\n"
	  "DELETE "
	  "/slurmdb/v0.0.41/association?account=bio&user=carol&cluster=c" },
	{ "moduser carol defaultaccount=bio", -1,
	  "!moduser through slurmrestd API v0.0.38 is not mapped (squall maps",
	  "!moduser through slurmrestd reads the user first; carol could no" },
	/* from v0.0.40 their bodies need the target read first
	 * (test_rest_acct.c) */
	{ "setlimit chem maxjobs=1", -1,
	  "!association limits through slurmrestd v0.0.38 are refused: ",
	  "!setlimit through slurmrestd reads the association first" },
	{ "clearlimit account=a maxjobs", -1,
	  "!association limits through slurmrestd v0.0.38 are refused: ",
	  "!clearlimit through slurmrestd reads the association first" },
	{ "setqos low priority=20", -1,
	  "POST /slurmdb/v0.0.38/qos "
	  "{\"QOS\":[{\"name\":\"low\",\"priority\":20}]}",
	  "!setqos through slurmrestd reads the QOS first" },
	{ "reserve r1 start=now duration=60 nodes=n1 users=root", -1,
	  "!reservations through slurmrestd API v0.0.38 are read-only",
	  "!reservations through slurmrestd API v0.0.41 are read-only" },
	{ "reserve-update r1 duration=30", -1,
	  "!reservations through slurmrestd API v0.0.38 are read-only",
	  "!reservations through slurmrestd API v0.0.41 are read-only" },
	{ "reserve-delete r1", -1,
	  "!reservations through slurmrestd API v0.0.38 are read-only",
	  "!reservations through slurmrestd API v0.0.41 are read-only" },
	{ "addqos gpu priority=5", -1,
	  "!addqos through slurmrestd API v0.0.38 is not mapped: squall maps",
	  "!addqos through slurmrestd reads the QOS first" },
	{ "delqos gpu", -1,
	  "!delqos through slurmrestd API v0.0.38 is not mapped: squall maps",
	  "DELETE /slurmdb/v0.0.41/qos/gpu" },
	{ "fix-runaway 67100001", -1,
	  "!fixing runaway jobs (slurmrestd has no endpoint for it) through",
	  "!fixing runaway jobs (slurmrestd has no endpoint for it) through" },
};

static void
check_walk(const struct sq_action *a, int v, const char *want)
{
	struct sq_rest_reqs r;
	struct sq_err err;
	char text[4096];

	sq_err_clear(&err);
	if (want[0] == '!') {
		assert_int_equal(sq_rest_action_reqs(a, v, v, "c", &r, &err),
				 -1);
		assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
		assert_int_equal(strncmp(err.msg, want + 1, strlen(want + 1)),
				 0);
		assert_int_equal(r.n, 0);
		return;
	}
	if (sq_rest_action_reqs(a, v, v, "c", &r, &err) != 0)
		fail_msg("%s: %s", a->def->name, err.msg);
	assert_int_equal(sq_rest_reqs_format(&r, text, sizeof(text)), 0);
	assert_string_equal(text, want);
	sq_rest_reqs_free(&r);
}

/* Reservations from API v0.0.43: POST /reservation (the times as typed,
 * which slurmrestd reads as scontrol does), DELETE /reservation/NAME. */
static void
test_resv_reqs(void **state)
{
	static const struct {
		const char *line, *want;
	} cases[] = {
		{ "reserve m start=now+10minutes duration=60 nodes=n[1-2] "
		  "users=root,alice flags=maint,ignore_jobs",
		  "POST /slurm/v0.0.45/reservation {\"name\":\"m\","
		  "\"start_time\":\"now+10minutes\",\"duration\":{\"set\":"
		  "true,\"number\":60},\"node_list\":[\"n[1-2]\"],"
		  "\"users\":[\"root\",\"alice\"],\"flags\":[\"MAINT\","
		  "\"IGNORE_JOBS\"]}" },
		{ "reserve m start=2026-12-24T08:00 end=2026-12-24T18:00 "
		  "partition=gpu accounts=physics",
		  "POST /slurm/v0.0.45/reservation {\"name\":\"m\","
		  "\"start_time\":\"2026-12-24T08:00\",\"end_time\":"
		  "\"2026-12-24T18:00\",\"partition\":\"gpu\","
		  "\"accounts\":[\"physics\"]}" },
		{ "reserve-update m duration=UNLIMITED",
		  "POST /slurm/v0.0.43/reservation {\"name\":\"m\","
		  "\"duration\":{\"set\":false,\"infinite\":true}}" },
		{ "reserve-delete m n", "DELETE /slurm/v0.0.45/reservation/m\n"
					"DELETE /slurm/v0.0.45/reservation/n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sq_rest_reqs r;
		struct sq_action a;
		struct sq_err err;
		char text[2048];
		int v = strstr(cases[i].want, "v0.0.43") ? 43 : 45;

		sq_err_clear(&err);
		if (sq_action_parse(cases[i].line, -1, NULL, 0, &a, &err) != 0)
			fail_msg("parse '%s': %s", cases[i].line, err.msg);
		/* no /slurmdb/ needed: reservations are /slurm/'s */
		if (sq_rest_action_reqs(&a, v, 0, NULL, &r, &err) != 0)
			fail_msg("reqs '%s': %s", cases[i].line, err.msg);
		assert_int_equal(sq_rest_reqs_format(&r, text, sizeof(text)),
				 0);
		assert_string_equal(text, cases[i].want);
		sq_rest_reqs_free(&r);
		sq_action_free(&a);
	}
}

static void
test_action_walk(void **state)
{
	int seen[SQ_ACTION_COUNT] = { 0 };
	size_t i;
	int t;

	(void)state;
	for (i = 0; i < sizeof(walk) / sizeof(walk[0]); i++) {
		struct sq_action a;
		struct sq_err err;

		sq_err_clear(&err);
		if (sq_action_parse(walk[i].line, walk[i].kind, NULL, 0, &a,
				    &err) != 0)
			fail_msg("parse '%s': %s", walk[i].line, err.msg);
		seen[a.type] = 1;
		check_walk(&a, 38, walk[i].v38);
		check_walk(&a, 41, walk[i].v41);
		sq_action_free(&a);
	}
	/* a new action gets a row here (and in the request table) */
	for (t = 0; t < SQ_ACTION_COUNT; t++) {
		if (t != SQ_ACTION_JOB_SUBMIT && !seen[t])
			fail_msg("action %s is not walked",
				 sq_action_def(t)->name);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_action_reqs),
		cmocka_unit_test(test_action_walk),
		cmocka_unit_test(test_resv_reqs),
		cmocka_unit_test(test_discover_2205),
		cmocka_unit_test(test_discover_2411),
		cmocka_unit_test(test_discover_live),
		cmocka_unit_test(test_discover_synthetic),
		cmocka_unit_test(test_jobs_path),
		cmocka_unit_test(test_urls),
		cmocka_unit_test(test_ca_file),
		cmocka_unit_test(test_no_server),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* !SQ_HAVE_REST */

int
main(void)
{
	printf("test_rest: built without the rest backend, nothing to test\n");
	return 0;
}

#endif
