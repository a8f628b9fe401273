/*
 * parse_problems.c - what accounting finds wrong in its accounts and
 * users, from `sacctmgr -n -P show problem format=<sq_cli_problem_fmt>`
 * (Cluster|Account|User|Problem; the problem last, so a '|' in it stays
 * in it). Slurm's words: "Account has no Associations", "Account has no
 * users", "User has no Associations", "User does not have a default
 * account", "User does not have a uid". No problem: no line.
 */
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

#define NF 4

int
sq_parse_problems(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[NF];
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_problem *p;

		lineno++;
		if (*line == '\0')
			continue;
		if (sq_split(line, '|', f, NF) != NF)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr line %d: not a problem "
					  "(want %d fields)",
					  lineno, NF);
		if (*f[3] == '\0')
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr line %d: no problem named",
					  lineno);
		p = sq_snapshot_add(s);
		if (p == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		p->cluster = sq_snapshot_str(s, f[0]);
		p->account = sq_snapshot_str(s, f[1]);
		p->user = sq_snapshot_str(s, f[2]);
		p->problem = sq_snapshot_str(s, f[3]);
		if (p->cluster == NULL || p->account == NULL ||
		    p->user == NULL || p->problem == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	return 0;
}
