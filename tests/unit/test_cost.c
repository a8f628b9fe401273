/*
 * test_cost.c - unit tests of what squall counts as its load on the
 * cluster: slurmctld RPCs and slurmdbd queries per CLI command and per
 * slurmrestd request (the figures measured with sdiag on 22.05), which
 * the console's queries-per-minute adds up.
 */
#include <stdio.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/rest/rest.h"
#include "tests/unit/test_util.h"

static void
cli(unsigned ctld, unsigned dbd, const char *const argv[])
{
	unsigned c = 99, d = 99;

	sq_cli_cost(argv, &c, &d);
	if (c != ctld || d != dbd)
		fail_msg("%s %s: %u RPCs + %u dbd, expected %u + %u", argv[0],
			 argv[1] ? argv[1] : "", c, d, ctld, dbd);
}

static void
test_cli_cost(void **state)
{
	(void)state;
	cli(2, 0,
	    (const char *const[]){ "squeue", "-h", "-a", "-O",
				   sq_cli_squeue_fmt, NULL });
	cli(1, 0,
	    (const char *const[]){ "sprio", "-h", "-o", sq_cli_sprio_fmt,
				   NULL });
	cli(1, 0,
	    (const char *const[]){ "sprio", "-w", "-h", "-o", sq_cli_sprio_fmt,
				   NULL });
	cli(0, 0, (const char *const[]){ "sinfo", "-V", NULL });
	cli(2, 0,
	    (const char *const[]){ "sinfo", "-h", "-N", "-O", sq_cli_sinfo_fmt,
				   NULL });
	cli(1, 0,
	    (const char *const[]){ "scontrol", "-o", "show", "partition",
				   NULL });
	cli(2, 0,
	    (const char *const[]){ "scontrol", "-d", "-o", "show", "node",
				   NULL });
	cli(2, 0, (const char *const[]){ "scontrol", "show", "config", NULL });
	cli(1, 0, (const char *const[]){ "sdiag", NULL });
	cli(1, 0,
	    (const char *const[]){ "sshare", "-P", "-n", "-a", "-l", NULL });
	cli(0, 1, (const char *const[]){ "sacct", "-a", "-X", NULL });
	cli(0, 1,
	    (const char *const[]){ "sacctmgr", "-n", "-P", "show", "qos",
				   NULL });
	/* the controller log is read with tail: no Slurm daemon involved */
	cli(0, 0,
	    (const char *const[]){ "/usr/bin/tail", "-n", "500", "--",
				   "/var/log/slurmctld.log", NULL });
	/* a path to a Slurm command costs the same */
	cli(2, 0, (const char *const[]){ "/opt/slurm/bin/squeue", "-h", NULL });
	/* sstat: two a job it reads (24.11, make bench part 9) */
	cli(2, 0,
	    (const char *const[]){ "sstat", "-a", "-n", "-P", "-j", "12", "-o",
				   "JobID", NULL });
	cli(10, 0,
	    (const char *const[]){ "sstat", "-a", "-n", "-P", "-j",
				   "12,13,14_2,15,16", NULL });
	/* anything else Slurm: one */
	cli(1, 0, (const char *const[]){ "scancel", "42", NULL });
	cli(1, 0, (const char *const[]){ "strigger", "--get", NULL });
}

/* sacct reads a window of accounting: four times the timeout, capped */
static void
test_cli_timeout(void **state)
{
	(void)state;
	assert_int_equal(sq_cli_timeout("sacct", 30), 120);
	assert_int_equal(sq_cli_timeout("/usr/bin/sacct", 30), 120);
	assert_int_equal(sq_cli_timeout("sacct", 300), 600);
	assert_int_equal(sq_cli_timeout("sacctmgr", 30), 30);
	assert_int_equal(sq_cli_timeout("squeue", 30), 30);
}

static void
rest(unsigned ctld, unsigned dbd, const char *method, const char *path)
{
	unsigned c = 99, d = 99;

	sq_rest_cost(method, path, &c, &d);
	if (c != ctld || d != dbd)
		fail_msg("%s %s: %u RPCs + %u dbd, expected %u + %u", method,
			 path, c, d, ctld, dbd);
}

static void
test_rest_cost(void **state)
{
	(void)state;
	rest(0, 0, "GET", "/openapi/v3");
	rest(1, 0, "GET", "/slurm/v0.0.38/jobs");
	rest(1, 0, "GET", "/slurm/v0.0.38/jobs?update_time=1795990000");
	rest(1, 0, "GET", "/slurm/v0.0.40/partitions");
	rest(2, 0, "GET", "/slurm/v0.0.38/nodes");
	rest(2, 0, "GET", "/slurm/v0.0.41/nodes?update_time=5");
	rest(2, 0, "GET", "/slurm/v0.0.38/ping");
	rest(1, 0, "GET", "/slurm/v0.0.38/diag");
	rest(1, 0, "DELETE", "/slurm/v0.0.38/job/42");
	rest(0, 1, "GET", "/slurmdb/v0.0.38/qos");
	rest(0, 1, "POST", "/slurmdb/v0.0.38/associations");
	/* a node named like an endpoint is still one node */
	rest(1, 0, "GET", "/slurm/v0.0.38/node/nodes");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_cost),
		cmocka_unit_test(test_cli_timeout),
		cmocka_unit_test(test_rest_cost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
