/*
 * actions_assoc.c - what a command on an association did besides its
 * target: the associations it could touch (the same account and user,
 * any partition) compared before and after, so that "done" means the
 * selected association changed and no other did. Never prints.
 */
#include <stdio.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "core/base/util.h"

static int
same_assoc(const struct sq_cli_rec *r, const char *acc, const char *user,
	   const char *part)
{
	const char *ra = sq_cli_rec_get(r, "Account");
	const char *ru = sq_cli_rec_get(r, "User");
	const char *rp = sq_cli_rec_get(r, "Partition");

	return ra != NULL && ru != NULL && rp != NULL && strcmp(ra, acc) == 0 &&
	       strcmp(ru, user) == 0 && (part == NULL || strcmp(rp, part) == 0);
}

/* Is r one of the targets of a? */
static int
is_target(const struct sq_action *a, const struct sq_cli_rec *r)
{
	size_t i;

	for (i = 0; i < a->ntargets; i++) {
		char acc[129], user[129], part[129];

		if (sq_action_assoc_split(a->targets[i], acc, user, part) ==
			0 &&
		    same_assoc(r, acc, user, part))
			return 1;
	}
	return 0;
}

static const struct sq_cli_rec *
find_in(const struct sq_cli_state *st, const struct sq_cli_rec *r)
{
	size_t i;

	for (i = 0; i < st->nall; i++) {
		if (same_assoc(&st->all[i], sq_cli_rec_get(r, "Account"),
			       sq_cli_rec_get(r, "User"),
			       sq_cli_rec_get(r, "Partition")))
			return &st->all[i];
	}
	return NULL;
}

/* The first field that differs, "MaxJobs 5 -> 3", into buf; 0: none. */
static int
first_diff(const struct sq_cli_rec *b, const struct sq_cli_rec *a, char *buf,
	   size_t n)
{
	size_t k;

	for (k = 0; k < b->n; k++) {
		const char *was = b->val[k] ? b->val[k] : "";
		const char *now = sq_cli_rec_get(a, b->key[k]);

		if (now != NULL && strcmp(was, now) != 0) {
			snprintf(buf, n, "%s %.60s -> %.60s", b->key[k],
				 *was ? was : "(unset)",
				 *now ? now : "(unset)");
			return 1;
		}
	}
	return 0;
}

/* moduser: the user's associations other than in DefaultQOS (when
 * defaultqos= is set) are as they were; "also changed ..." into msg. */
static size_t
user_assocs_changed(const struct sq_action *a, size_t i,
		    const struct sq_cli_state *before,
		    const struct sq_cli_state *after, char *msg, size_t n)
{
	const char *user = a->targets[i];
	int dq = sq_action_arg(a, "defaultqos") != NULL;
	size_t k, count = 0, off, bad = 0;

	/* defaultqos=: each association has it now */
	msg[0] = '\0';
	if (dq)
		bad = sq_cli_moduser_dq_unchanged(a, user, after, msg, n);
	off = strlen(msg);

	for (k = 0; k < before->nall; k++) {
		const struct sq_cli_rec *b = &before->all[k], *now;
		const char *ru = sq_cli_rec_get(b, "User");
		char what[160];
		size_t f;
		int w;

		if (ru == NULL || strcmp(ru, user) != 0)
			continue;
		now = find_in(after, b);
		what[0] = '\0';
		if (now == NULL)
			snprintf(what, sizeof(what), "removed");
		for (f = 0; now != NULL && f < b->n && !what[0]; f++) {
			const char *was = b->val[f] ? b->val[f] : "";
			const char *is = sq_cli_rec_get(now, b->key[f]);

			if (is != NULL && strcmp(was, is) != 0 &&
			    !(dq && strcmp(b->key[f], "DefaultQOS") == 0))
				snprintf(what, sizeof(what),
					 "%s %.60s -> %.60s", b->key[f],
					 *was ? was : "(unset)",
					 *is ? is : "(unset)");
		}
		if (!what[0])
			continue;
		w = snprintf(msg + off, n - off, "%s%s/%s/%s: %s",
			     count ? "; "
			     : off ? "; also changed "
				   : "also changed ",
			     sq_cli_rec_get(b, "Account"), user,
			     sq_cli_rec_get(b, "Partition"), what);
		if (w > 0 && (size_t)w < n - off)
			off += (size_t)w;
		count++;
	}
	return count + bad;
}

int
sq_cli_moduser_refused(const struct sq_action *a, const struct sq_cli_state *st,
		       char *msg, size_t n)
{
	const char *acc = sq_action_arg(a, "defaultaccount");
	size_t i;

	if (a->type != SQ_ACTION_ACCT_MODIFY_USER || acc == NULL ||
	    st == NULL || !st->ok)
		return 0;
	for (i = 0; i < a->ntargets && i < st->n; i++) {
		const char *have = sq_cli_rec_get(&st->rec[i], "Accounts");
		char pad[1100], want[140];

		if (!st->rec[i].found)
			continue;
		snprintf(pad, sizeof(pad), ",%s,", have ? have : "");
		snprintf(want, sizeof(want), ",%s,", acc);
		if (strstr(pad, want) != NULL)
			continue;
		snprintf(msg, n,
			 "refused: %s has no association in %s (its accounts: "
			 "%s); add one first (adduser %s account=%s)",
			 a->targets[i], acc, have && *have ? have : "none",
			 a->targets[i], acc);
		return 1;
	}
	return 0;
}

size_t
sq_cli_others_changed(const struct sq_action *a, size_t i,
		      const struct sq_cli_state *before,
		      const struct sq_cli_state *after, char *msg, size_t n)
{
	char acc[129], user[129], part[129], what[160];
	size_t k, count = 0, off = 0;

	msg[0] = '\0';
	if (a->def->kind == SQ_KIND_USERS && before != NULL && after != NULL &&
	    before->ok && after->ok && i < a->ntargets)
		return user_assocs_changed(a, i, before, after, msg, n);
	if (a->def->kind != SQ_KIND_ASSOCS || before == NULL || after == NULL ||
	    !before->ok || !after->ok || i >= a->ntargets ||
	    sq_action_assoc_split(a->targets[i], acc, user, part) == -1 ||
	    user[0] == '\0')
		return 0;
	for (k = 0; k < before->nall; k++) {
		const struct sq_cli_rec *b = &before->all[k], *now;
		int w;

		if (!same_assoc(b, acc, user, NULL) || is_target(a, b))
			continue;
		now = find_in(after, b);
		if (now == NULL)
			snprintf(what, sizeof(what), "removed");
		else if (!first_diff(b, now, what, sizeof(what)))
			continue;
		w = snprintf(msg + off, n - off, "%s%s/%s/%s: %s",
			     count ? "; " : "also changed ", acc, user,
			     sq_cli_rec_get(b, "Partition"), what);
		if (w > 0 && (size_t)w < n - off)
			off += (size_t)w;
		count++;
	}
	return count;
}

/* deluser's inverse: adduser of each removed association with the
 * limits it had (one line per association: their limits differ). */
int
sq_cli_deluser_inverse(const struct sq_action *a,
		       const struct sq_cli_state *before, char *buf, size_t n)
{
	static const struct {
		const char *key, *field;
	} lim[] = {
		{ "grptres", "GrpTRES" },       { "grpjobs", "GrpJobs" },
		{ "grpsubmit", "GrpSubmit" },   { "maxjobs", "MaxJobs" },
		{ "maxsubmit", "MaxSubmit" },   { "maxtres", "MaxTRES" },
		{ "maxwall", "MaxWall" },       { "qos", "QOS" },
		{ "defaultqos", "DefaultQOS" }, { "fairshare", "Fairshare" },
	};
	size_t i, k, off = 0;

	buf[0] = '\0';
	for (i = 0; i < a->ntargets && i < before->n; i++) {
		const struct sq_cli_rec *r = &before->rec[i];
		struct sq_action inv;
		char line[1024];

		if (!r->found)
			continue;
		sq_action_init(&inv, SQ_ACTION_ACCT_ADD_USER);
		sq_action_add_target(&inv, a->targets[i], NULL);
		for (k = 0; k < sizeof(lim) / sizeof(lim[0]); k++) {
			const char *v = sq_cli_rec_get(r, lim[k].field);

			/* shares of 1 are the default adduser gives */
			if (v != NULL && *v != '\0' &&
			    !(strcmp(lim[k].key, "fairshare") == 0 &&
			      strcmp(v, "1") == 0))
				sq_action_set_arg(&inv, lim[k].key, v, NULL);
		}
		if (sq_action_format(&inv, line, sizeof(line)) == 0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
		sq_action_free(&inv);
	}
	/* the user record, when these were its last associations */
	return sq_cli_deluser_user_lines(a, before, buf, n);
}
