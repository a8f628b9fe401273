/*
 * test_sshcmd.c - unit tests of core/conf/sshcmd.c: the argv of `:ssh NODE`
 * for the local and ssh backends (through the login node with -J and the
 * cluster's files), and the values it refuses.
 */
#include <stdio.h>
#include <string.h>

#include "core/conf/cluster.h"
#include "core/base/err.h"
#include "core/conf/sshcmd.h"
#include "tests/unit/test_util.h"

static void
test_local(void **state)
{
	struct sq_cluster_cfg cfg;
	struct sq_sshcmd c;
	struct sq_err err;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.backend, "local");
	assert_int_equal(sq_sshcmd_build(&c, &cfg, "n3", &err), 0);
	assert_string_equal(c.line, "ssh -- n3");
	assert_string_equal(c.argv[0], "ssh");
	assert_null(c.argv[3]);
}

static void
test_through_login(void **state)
{
	struct sq_cluster_cfg cfg;
	struct sq_sshcmd c;
	struct sq_err err;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.backend, "ssh");
	strcpy(cfg.host, "127.0.0.1");
	strcpy(cfg.user, "alice");
	cfg.port = 2222;
	strcpy(cfg.identity, "/tb/ssh/id key");
	strcpy(cfg.known_hosts, "/tb/ssh/known_hosts");
	assert_int_equal(sq_sshcmd_build(&c, &cfg, "n1", &err), 0);
	assert_string_equal(c.line, "ssh -i /tb/ssh/id key -o "
				    "UserKnownHostsFile=/tb/ssh/known_hosts -J "
				    "alice@127.0.0.1:2222 -l alice -- n1");
	/* the identity with a space stays one argument */
	assert_string_equal(c.argv[2], "/tb/ssh/id key");
	assert_null(strstr(c.line, "StrictHostKeyChecking"));
	cfg.port = 0;
	cfg.identity[0] = cfg.known_hosts[0] = '\0';
	assert_int_equal(sq_sshcmd_build(&c, &cfg, "n1", &err), 0);
	assert_string_equal(c.line, "ssh -J alice@127.0.0.1 -l alice -- n1");
}

static void
test_refuses(void **state)
{
	struct sq_cluster_cfg cfg;
	struct sq_sshcmd c;
	struct sq_err err;
	static const char *const bad_nodes[] = { "-oProxyCommand=x", "",
						 "n1 n2", "n1;id", "n$(id)" };
	size_t i;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.backend, "ssh");
	strcpy(cfg.host, "login");
	for (i = 0; i < sizeof(bad_nodes) / sizeof(bad_nodes[0]); i++)
		assert_int_equal(sq_sshcmd_build(&c, &cfg, bad_nodes[i], &err),
				 -1);
	strcpy(cfg.host, "-oProxyCommand=x");
	assert_int_equal(sq_sshcmd_build(&c, &cfg, "n1", &err), -1);
	strcpy(cfg.host, "login");
	strcpy(cfg.user, "a b");
	assert_int_equal(sq_sshcmd_build(&c, &cfg, "n1", &err), -1);
	cfg.user[0] = '\0';
	strcpy(cfg.ssh_config, "-F/etc/x");
	assert_int_equal(sq_sshcmd_build(&c, &cfg, "n1", &err), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_local),
		cmocka_unit_test(test_through_login),
		cmocka_unit_test(test_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
