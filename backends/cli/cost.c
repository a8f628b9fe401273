/*
 * cost.c - what one Slurm command costs the cluster: the slurmctld RPCs
 * it makes (as sdiag counts them) and the slurmdbd queries. The console's
 * queries-per-minute figure adds these up, so it can be held against
 * sdiag. Measured on Slurm 22.05.8 with sdiag's per-user counters (make
 * bench, tests/bench/run; sstat on 24.11, part 9); a command not listed
 * counts one RPC.
 */
#include <string.h>

#include "backends/cli/cli.h"

struct cost {
	const char *cmd;
	const char *arg; /* a word that must follow, or NULL for any */
	unsigned ctld, dbd;
};

/* First match wins: specific lines before the catch-all of a command. */
static const struct cost costs[] = {
	/* version detection reads nothing from the controller */
	{ "sinfo", "-V", 0, 0 },
	/* REQUEST_NODE_INFO + REQUEST_PARTITION_INFO */
	{ "sinfo", NULL, 2, 0 },
	/* REQUEST_JOB_INFO + REQUEST_PARTITION_INFO */
	{ "squeue", NULL, 2, 0 },
	/* REQUEST_PRIORITY_FACTORS (-w too) */
	{ "sprio", NULL, 1, 0 },
	{ "sdiag", NULL, 1, 0 },
	/* REQUEST_SHARE_INFO */
	{ "sshare", NULL, 1, 0 },
	/* show node and show config: two each; the others one. The nodes
	 * fetch (fetch.c) is scontrol -d -o show node (REQUEST_NODE_INFO +
	 * REQUEST_PARTITION_INFO) and scontrol -o show partition (one):
	 * three, where sinfo -N made two (sdiag on 22.05.8, 2026-12-06) */
	{ "scontrol", "node", 2, 0 },
	{ "scontrol", "config", 2, 0 },
	{ "scontrol", NULL, 1, 0 },
	{ "scancel", NULL, 1, 0 },
	/* accounting goes to slurmdbd, not slurmctld */
	{ "sacct", NULL, 0, 1 },
	{ "sacctmgr", NULL, 0, 1 },
};

static int
has_arg(const char *const argv[], const char *word)
{
	size_t i;

	for (i = 1; argv[i] != NULL; i++) {
		if (strcmp(argv[i], word) == 0)
			return 1;
	}
	return 0;
}

void
sq_cli_cost(const char *const argv[], unsigned *ctld, unsigned *dbd)
{
	const char *base = strrchr(argv[0], '/');
	size_t i;

	base = base != NULL ? base + 1 : argv[0];
	*ctld = *dbd = 0;
	/* not a Slurm command (tail of the controller log) */
	if (base[0] != 's')
		return;
	/* sstat -j A,B,...: REQUEST_FED_INFO and REQUEST_JOB_STEP_INFO for
	 * each job (24.11: 10 RPCs for 5 jobs), slurmd does the rest */
	if (strcmp(base, "sstat") == 0) {
		for (i = 1; argv[i] != NULL; i++) {
			const char *p = argv[i + 1];

			if (strcmp(argv[i], "-j") != 0 || p == NULL)
				continue;
			*ctld = 2;
			for (; *p != '\0'; p++)
				*ctld += *p == ',' ? 2 : 0;
			return;
		}
		*ctld = 2;
		return;
	}
	for (i = 0; i < sizeof(costs) / sizeof(costs[0]); i++) {
		if (strcmp(base, costs[i].cmd) != 0)
			continue;
		if (costs[i].arg != NULL && !has_arg(argv, costs[i].arg))
			continue;
		*ctld = costs[i].ctld;
		*dbd = costs[i].dbd;
		return;
	}
	*ctld = 1;
}

int
sq_cli_timeout(const char *cmd, int base)
{
	const char *b = strrchr(cmd, '/');

	b = b != NULL ? b + 1 : cmd;
	if (strcmp(b, "sacct") == 0)
		return base > 150 ? 600 : base * 4;
	return base;
}
