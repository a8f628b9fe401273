/*
 * parse_sshare.c - the fairshare tree from `sshare -P -n -a -o
 * <sq_cli_sshare_fmt>`. The Account field is indented one space per
 * level; the parent of each row comes from that indentation. Empty
 * fields (root's RawShares, FairShare on account rows) stay "not set";
 * LevelFS "inf" becomes INFINITY.
 */
#include <math.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

const char sq_cli_sshare_fmt[] =
    "Account,User,Partition,RawShares,NormShares,RawUsage,NormUsage,"
    "EffectvUsage,FairShare,LevelFS,GrpTRESMins,TRESRunMins";

enum {
	S_ACCOUNT,
	S_USER,
	S_PART,
	S_RAWSHARES,
	S_NORMSHARES,
	S_RAWUSAGE,
	S_NORMUSAGE,
	S_EFFUSAGE,
	S_FAIRSHARE,
	S_LEVELFS,
	S_GRPTRESMINS,
	S_TRESRUNMINS,
	S_COUNT
};

#define MAX_DEPTH 64

int
sq_parse_sshare(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[S_COUNT];
	/* parents by depth; a row deeper than the one before it (cut or
	 * odd output) must find NULL here, not an old pointer */
	const char *stack[MAX_DEPTH] = { NULL };
	int lineno = 0, n;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_share *r;
		const char *acct;
		int depth, bad = 0;

		lineno++;
		if (*line == '\0')
			continue;
		n = sq_split(line, '|', f, S_COUNT);
		if (n != S_COUNT)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sshare line %d: %d fields, expected "
					  "%d (truncated output?)",
					  lineno, n, S_COUNT);
		acct = f[S_ACCOUNT];
		while (*acct == ' ')
			acct++;
		depth = (int)(acct - f[S_ACCOUNT]);
		if (*acct == '\0' || depth >= MAX_DEPTH)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sshare line %d: bad account field",
					  lineno);
		r = sq_snapshot_add(s);
		if (r == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		r->depth = depth;
		r->account = sq_snapshot_str(s, acct);
		r->user = sq_snapshot_str(s, f[S_USER]);
		r->partition = sq_snapshot_str(s, f[S_PART]);
		/* the row above at depth - 1 is the parent account */
		r->parent = depth > 0 && stack[depth - 1] != NULL
				? stack[depth - 1]
				: "";
		if (r->user[0] == '\0') {
			stack[depth] = r->account;
			if (depth + 1 < MAX_DEPTH)
				stack[depth + 1] = NULL;
		}
		if (strcmp(f[S_RAWSHARES], "parent") == 0)
			r->raw_shares = SQ_INFINITE;
		else
			bad |= sq_parse_int(f[S_RAWSHARES], &r->raw_shares);
		bad |= sq_admin_double(f[S_NORMSHARES], &r->norm_shares);
		bad |= sq_parse_int(f[S_RAWUSAGE], &r->raw_usage);
		bad |= sq_admin_double(f[S_NORMUSAGE], &r->norm_usage);
		bad |= sq_admin_double(f[S_EFFUSAGE], &r->effective_usage);
		bad |= sq_admin_double(f[S_FAIRSHARE], &r->fairshare);
		bad |= sq_admin_double(f[S_LEVELFS], &r->level_fs);
		r->grp_tres_mins = sq_snapshot_str(s, f[S_GRPTRESMINS]);
		r->tres_run_mins = sq_snapshot_str(s, f[S_TRESRUNMINS]);
		if (bad)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sshare line %d: bad number", lineno);
	}
	return 0;
}
