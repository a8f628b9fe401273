/*
 * test_ssh.c - the ssh backend and transport. Without a server: settings
 * are checked before anything connects, a closed port fails cleanly. With
 * a server (tests/integration/test_ssh.sh sets SQ_TEST_SSH_*): streams,
 * exit status and signals, the output cap, the command timeout, the
 * remote environment, refused arguments, and recovery after sshd is
 * stopped and started again. Live tests are skipped when the variables
 * are not set.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "tests/unit/test_util.h"

#if SQ_HAVE_SSH
#include "backends/backend.h"
#include "backends/cli/ssh.h"
#include "core/base/buf.h"
#include "core/conf/cluster.h"
#include "core/base/err.h"
#include "core/model/snapshot.h"

static void
base_cfg(struct sq_cluster_cfg *cfg)
{
	sq_cluster_defaults(cfg);
	strcpy(cfg->backend, "ssh");
	strcpy(cfg->host, "127.0.0.1");
	strcpy(cfg->ssh_config, "/dev/null");
	strcpy(cfg->known_hosts, "/dev/null");
	cfg->timeout = 10;
}

static void
expect_usage(const struct sq_cluster_cfg *cfg, const char *what)
{
	struct sq_err err;
	struct sq_backend *b;

	sq_err_clear(&err);
	b = sq_backend_open(cfg, &err);
	if (b != NULL) {
		sq_backend_close(b);
		fail_msg("%s: opened", what);
	}
	if (err.code != SQ_ERR_USAGE)
		fail_msg("%s: code %s (%s)", what, sq_err_name(err.code),
			 err.msg);
}

static void
test_registered(void **state)
{
	(void)state;
	assert_non_null(sq_backend_find("ssh"));
	assert_non_null(strstr(sq_backend_names(), "ssh"));
}

static void
test_bad_settings_refused_before_connecting(void **state)
{
	static const char *const hosts[] = {
		"",
		"a;id",
		"alice@127.0.0.1",
		"-oProxyCommand=id",
		"a b",
		"$(id)",
		"h\nx",
		"`id`",
		".x",
		"host/path",
		NULL,
	};
	/* a setting of cfg (its offset) set to value */
	static const struct {
		size_t off;
		const char *value, *what;
	} bad[] = {
		{ offsetof(struct sq_cluster_cfg, user), "alice;id",
		  "user alice;id" },
		{ offsetof(struct sq_cluster_cfg, user), "-l", "user -l" },
		{ offsetof(struct sq_cluster_cfg, slurm_bindir), "bin",
		  "relative bindir" },
		{ offsetof(struct sq_cluster_cfg, slurm_bindir),
		  "/opt/$(id)/bin", "hostile bindir" },
		{ offsetof(struct sq_cluster_cfg, identity),
		  "/nonexistent/id_ed25519", "missing identity" },
		{ offsetof(struct sq_cluster_cfg, identity), "%d/.ssh/id_rsa",
		  "identity with %" },
		{ offsetof(struct sq_cluster_cfg, ssh_config),
		  "/nonexistent/config", "missing ssh config" },
	};
	struct sq_cluster_cfg cfg;
	size_t i;

	(void)state;
	for (i = 0; hosts[i] != NULL; i++) {
		base_cfg(&cfg);
		strcpy(cfg.host, hosts[i]);
		expect_usage(&cfg, hosts[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		base_cfg(&cfg);
		strcpy((char *)&cfg + bad[i].off, bad[i].value);
		expect_usage(&cfg, bad[i].what);
	}
}

static void
test_closed_port_fails_cleanly(void **state)
{
	struct sq_cluster_cfg cfg;
	struct sq_err err;
	struct sq_backend *b;

	(void)state;
	base_cfg(&cfg);
	cfg.port = 1;
	sq_err_clear(&err);
	b = sq_backend_open(&cfg, &err);
	assert_null(b);
	assert_int_equal(err.code, SQ_ERR_CONNECT);
	assert_non_null(strstr(err.msg, "cannot connect"));
	assert_non_null(strstr(err.msg, "port 1"));
}

/* --- live tests: need SQ_TEST_SSH_PORT and friends ---------------------- */

static int
live_cfg(struct sq_cluster_cfg *cfg)
{
	const char *port = getenv("SQ_TEST_SSH_PORT");
	const char *v;

	if (port == NULL || *port == '\0')
		return -1;
	base_cfg(cfg);
	cfg->port = atoi(port);
	v = getenv("SQ_TEST_SSH_USER");
	snprintf(cfg->user, sizeof(cfg->user), "%s", v ? v : "alice");
	v = getenv("SQ_TEST_SSH_IDENTITY");
	snprintf(cfg->identity, sizeof(cfg->identity), "%s", v ? v : "");
	v = getenv("SQ_TEST_SSH_KNOWN_HOSTS");
	snprintf(cfg->known_hosts, sizeof(cfg->known_hosts), "%s", v ? v : "");
	return 0;
}

struct run {
	int rc, status;
	struct sq_buf out, err;
	struct sq_err e;
};

static void
run(void *tr, struct run *r, size_t limit, const char *const argv[])
{
	sq_buf_init(&r->out, limit);
	sq_buf_init(&r->err, 4096);
	sq_err_clear(&r->e);
	r->status = -1;
	r->rc =
	    sq_transport_ssh.run(tr, argv, &r->out, &r->err, &r->status, &r->e);
}

static void
run_free(struct run *r)
{
	sq_buf_free(&r->out);
	sq_buf_free(&r->err);
}

static void *
live_transport(struct sq_cluster_cfg *cfg)
{
	struct sq_err err;
	void *tr;

	sq_err_clear(&err);
	tr = sq_transport_ssh_new(cfg, &err);
	if (tr == NULL)
		fail_msg("connect: %s", err.msg);
	return tr;
}

static void
test_live_streams_status_signal(void **state)
{
	static const char *const both[] = { "sh", "-c",
					    "echo out; echo err >&2; exit 3",
					    NULL };
	static const char *const sig[] = { "sh", "-c", "kill -TERM $$", NULL };
	static const char *const ok[] = { "true", NULL };
	struct sq_cluster_cfg cfg;
	struct run r;
	void *tr;

	(void)state;
	if (live_cfg(&cfg) == -1)
		skip();
	tr = live_transport(&cfg);
	run(tr, &r, 0, both);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.status, 3);
	assert_string_equal(sq_buf_str(&r.out), "out\n");
	assert_string_equal(sq_buf_str(&r.err), "err\n");
	run_free(&r);
	run(tr, &r, 0, sig);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.status, 128 + 15);
	run_free(&r);
	run(tr, &r, 0, ok);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.status, 0);
	run_free(&r);
	sq_transport_ssh.close(tr);
}

static void
test_live_cap_and_refused_argument(void **state)
{
	static const char *const flood[] = { "head", "-c", "1000000",
					     "/dev/zero", NULL };
	static const char *const hostile[] = { "sh", "-c", "echo ran", "it's",
					       NULL };
	static const char *const echo[] = { "echo", "still", "here", NULL };
	struct sq_cluster_cfg cfg;
	struct run r;
	void *tr;

	(void)state;
	if (live_cfg(&cfg) == -1)
		skip();
	tr = live_transport(&cfg);
	run(tr, &r, 4096, flood);
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.e.msg, "printed more than 4096 bytes"));
	assert_true(r.out.len <= 4096);
	run_free(&r);
	run(tr, &r, 0, hostile);
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.e.code, SQ_ERR_DENIED);
	assert_int_equal(r.out.len, 0);
	run_free(&r);
	/* the session survived both */
	run(tr, &r, 0, echo);
	assert_int_equal(r.rc, 0);
	assert_string_equal(sq_buf_str(&r.out), "still here\n");
	run_free(&r);
	sq_transport_ssh.close(tr);
}

static void
test_live_timeout_then_recovers(void **state)
{
	static const char *const slow[] = { "sleep", "30", NULL };
	static const char *const ok[] = { "echo", "ok", NULL };
	struct sq_cluster_cfg cfg;
	struct run r;
	time_t t0;
	void *tr;

	(void)state;
	if (live_cfg(&cfg) == -1)
		skip();
	cfg.timeout = 2;
	tr = live_transport(&cfg);
	t0 = time(NULL);
	run(tr, &r, 0, slow);
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.e.msg, "timed out after 2 s"));
	assert_true(time(NULL) - t0 <= 4);
	run_free(&r);
	run(tr, &r, 0, ok);
	assert_int_equal(r.rc, 0);
	assert_string_equal(sq_buf_str(&r.out), "ok\n");
	run_free(&r);
	sq_transport_ssh.close(tr);
}

static void
test_live_remote_environment(void **state)
{
	static const char *const env[] = { "printenv", NULL };
	const char *set = getenv("SQ_TEST_SSH_SERVER_SETS");
	struct sq_cluster_cfg cfg;
	struct run r;
	void *tr;

	(void)state;
	if (live_cfg(&cfg) == -1)
		skip();
	tr = live_transport(&cfg);
	run(tr, &r, 0, env);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(sq_buf_str(&r.out), "\nLC_ALL=C\n"));
	assert_non_null(strstr(sq_buf_str(&r.out), "\nSLURM_TIME_FORMAT=%s\n"));
	/* variables the server's sshd_config SetEnv put there: gone */
	if (set != NULL) {
		char list[512], *tok, *save = NULL, pat[80];

		snprintf(list, sizeof(list), "%s", set);
		for (tok = strtok_r(list, " ", &save); tok != NULL;
		     tok = strtok_r(NULL, " ", &save)) {
			snprintf(pat, sizeof(pat), "\n%s=", tok);
			if (strstr(sq_buf_str(&r.out), pat) != NULL)
				fail_msg("%s reached the command", tok);
		}
	}
	run_free(&r);
	sq_transport_ssh.close(tr);
}

struct asked {
	int answer, calls;
	char question[1024];
};

static int
confirm_hook(void *arg, const char *question)
{
	struct asked *a = arg;

	a->calls++;
	snprintf(a->question, sizeof(a->question), "%s", question);
	return a->answer;
}

/* The console's yes/no for an unknown host key, through the prompt hook. */
static void
test_live_unknown_key_asks(void **state)
{
	struct sq_cluster_cfg cfg;
	struct sq_prompt p = { 0 };
	struct asked a = { 0 };
	struct sq_backend *b;
	struct sq_err err;
	char kh[] = "/tmp/sq-kh-XXXXXX", line[1024];
	FILE *fp;
	int fd;

	(void)state;
	if (live_cfg(&cfg) == -1)
		skip();
	fd = mkstemp(kh);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cfg.known_hosts, sizeof(cfg.known_hosts), "%s", kh);
	p.confirm = confirm_hook;
	p.arg = &a;
	sq_backend_set_prompt(&p);

	a.answer = 0;
	b = sq_backend_open(&cfg, &err);
	assert_null(b);
	assert_int_equal(err.code, SQ_ERR_CONNECT);
	assert_non_null(strstr(err.msg, "not trusted"));
	assert_int_equal(a.calls, 1);
	assert_non_null(strstr(a.question, "SHA256:"));
	fp = fopen(kh, "r");
	assert_non_null(fp);
	assert_null(fgets(line, sizeof(line), fp)); /* nothing written */
	fclose(fp);

	a.answer = 1;
	b = sq_backend_open(&cfg, &err);
	if (b == NULL)
		fail_msg("yes: %s", err.msg);
	assert_int_equal(a.calls, 2);
	sq_backend_close(b);
	fp = fopen(kh, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp)); /* the key, written */
	fclose(fp);
	assert_non_null(strstr(line, "ssh-"));

	/* known now: no question */
	b = sq_backend_open(&cfg, &err);
	assert_non_null(b);
	assert_int_equal(a.calls, 2);
	sq_backend_close(b);
	sq_backend_set_prompt(NULL);
	unlink(kh);
}

static int
fetch_jobs(struct sq_backend *b, struct sq_err *err)
{
	struct sq_snapshot *s = NULL;

	sq_err_clear(err);
	if (b->ops->fetch(b, SQ_KIND_JOBS, &s, err) == -1)
		return -1;
	sq_snapshot_unref(s);
	return 0;
}

static void
test_live_sshd_restart(void **state)
{
	const char *stop = getenv("SQ_TEST_SSH_STOP");
	const char *start = getenv("SQ_TEST_SSH_START");
	struct sq_cluster_cfg cfg;
	struct sq_backend *b;
	struct sq_err err;
	int i, failures = 0, recovered = -1;

	(void)state;
	if (live_cfg(&cfg) == -1 || stop == NULL || start == NULL)
		skip();
	sq_err_clear(&err);
	b = sq_backend_open(&cfg, &err);
	if (b == NULL)
		fail_msg("open: %s", err.msg);
	assert_int_equal(fetch_jobs(b, &err), 0);
	assert_int_equal(system(stop), 0);
	/* down: each query fails with a connection error, none hangs */
	for (i = 0; i < 3; i++) {
		time_t t0 = time(NULL);

		assert_int_equal(fetch_jobs(b, &err), -1);
		assert_int_equal(err.code, SQ_ERR_CONNECT);
		assert_true(time(NULL) - t0 <= cfg.timeout);
		print_message("# down: %s\n", err.msg);
		failures++;
	}
	assert_non_null(strstr(err.msg, "next attempt in"));
	assert_int_equal(system(start), 0);
	/* up again: the backend recovers by itself within the backoff */
	for (i = 0; i < 90; i++) {
		if (fetch_jobs(b, &err) == 0) {
			recovered = i;
			break;
		}
		sleep(1);
	}
	print_message("# recovered after %d s, %d failed queries\n", recovered,
		      failures);
	assert_true(recovered >= 0);
	assert_int_equal(fetch_jobs(b, &err), 0);
	sq_backend_close(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registered),
		cmocka_unit_test(test_bad_settings_refused_before_connecting),
		cmocka_unit_test(test_closed_port_fails_cleanly),
		cmocka_unit_test(test_live_streams_status_signal),
		cmocka_unit_test(test_live_cap_and_refused_argument),
		cmocka_unit_test(test_live_timeout_then_recovers),
		cmocka_unit_test(test_live_remote_environment),
		cmocka_unit_test(test_live_unknown_key_asks),
		cmocka_unit_test(test_live_sshd_restart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int
main(void)
{
	printf("test_ssh: built without libssh; nothing to test\n");
	return 0;
}
#endif
