/*
 * gen_assocs.c - writes a made-up account tree of about N associations,
 * for make bench, in the exact formats the CLI backend reads:
 *   gen_assocs assoc N   `sacctmgr -n -P show assoc tree format=<the 24
 *                        fields of sq_cli_assoc_fmt>` (tests/fixtures/live/
 *                        slurm-24.11/cli/assocs), accounts indented by depth
 *   gen_assocs sshare N  `sshare -P -n -a -o <sq_cli_sshare_fmt>` (the
 *                        fairshare tree, .../cli/fairshare) of the same tree
 * The tree: root, 100 departments, 20 groups each, users spread over the
 * groups (a user in one to three groups), a few with a partition
 * association and limits. Deterministic. Not part of squall.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/bench_rng.h"

#define DEPTS 100
#define GROUPS 20

static uint64_t rng = 0x8c6a2f3e9d1b4c57ULL;

static uint32_t
rnd(uint32_t n)
{
	return bench_rnd(&rng, n);
}

static int sshare_mode;
static long id = 1;

/* an account row at depth d (its name indented by d spaces) */
static void
account(int d, const char *name, const char *parent, int share)
{
	if (sshare_mode) {
		printf("%*s%s||||%.6f|%u||%.6f||||cpu=%u,mem=%u,node=%u,"
		       "billing=%u,gres/gpu=%u\n",
		       d, "", name, share / 1000.0, rnd(1000000),
		       rnd(1000) / 1000.0, rnd(90000), rnd(9000000), rnd(4000),
		       rnd(90000), rnd(800));
		return;
	}
	printf("big|%*s%s|||%s|%ld|%d||%s|||%s|||||||||||normal|\n", d, "",
	       name, parent, id++, share, d == 1 ? "" : "",
	       d == 2 ? "cpu=4096,gres/gpu=64" : "");
}

/* a user's association under account acct at depth d */
static void
user(int d, const char *acct, long u, const char *part)
{
	if (sshare_mode) {
		printf("%*s%s|user%06ld|%s|1|%.6f|%u|%.6f|%.6f|%.6f|%.6f||"
		       "cpu=%u,mem=%u,node=%u,billing=%u,gres/gpu=%u\n",
		       d, "", acct, u, part, rnd(1000) / 100000.0, rnd(100000),
		       rnd(1000) / 100000.0, rnd(1000) / 1000.0,
		       rnd(1000) / 1000.0, rnd(5000) / 1000.0, rnd(9000),
		       rnd(900000), rnd(400), rnd(9000), rnd(80));
		return;
	}
	printf("big|%*s%s|user%06ld|%s||%ld|1|||||||||%s|||%s|||%s|"
	       "normal,long|normal\n",
	       d, "", acct, u, part, id++, u % 7 == 0 ? "50" : "",
	       u % 11 == 0 ? "cpu=512" : "", u % 13 == 0 ? "2-00:00:00" : "");
}

int
main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0, users, u, per;
	int dpt, g;
	char name[32], parent[32];

	if (argc != 3 || n < 3000 || n > 10000000 ||
	    (strcmp(argv[1], "assoc") != 0 && strcmp(argv[1], "sshare") != 0)) {
		fprintf(stderr, "usage: gen_assocs assoc|sshare N (>= 3000)\n");
		return 2;
	}
	sshare_mode = strcmp(argv[1], "sshare") == 0;
	/* the user associations: n less the accounts and root's */
	users = n - 1 - DEPTS - DEPTS * GROUPS;
	per = (users + DEPTS * GROUPS - 1) / (DEPTS * GROUPS);
	account(0, "root", "", 1);
	for (dpt = 0; dpt < DEPTS; dpt++) {
		snprintf(name, sizeof(name), "dept%02d", dpt);
		account(1, name, "root", 100);
		snprintf(parent, sizeof(parent), "%s", name);
		for (g = 0; g < GROUPS; g++) {
			long first = (long)(dpt * GROUPS + g) * per;

			snprintf(name, sizeof(name), "grp%02d%02d", dpt, g);
			account(2, name, parent, 10);
			for (u = 0; u < per; u++) {
				/* a user in several groups: ids overlap */
				long who = first + u - (long)rnd(3) * per;

				user(3, name, who < 0 ? first + u : who,
				     u % 97 == 0 ? "gpu" : "");
			}
		}
	}
	return 0;
}
