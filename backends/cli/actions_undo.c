/*
 * actions_undo.c - what Slurm changes beyond the targets of three account
 * actions, read before them so that their preview lists it and their undo
 * puts it back: deluser of a user's last association (sacctmgr removes the
 * user: admin level, default account, coordinator roles), delqos (sacctmgr
 * drops the QOS from every association's QOS list and every QOS's preempt
 * list; it refuses while an association has it as default QOS), and
 * moduser defaultqos= over associations whose default QOS differ (undone
 * one association at a time). Reads with the CLI; never prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "core/action/acct_verdict.h"
#include "core/base/buf.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"
#include "core/base/util.h"

/* --- small helpers -------------------------------------------------------- */

static void
append(char *buf, size_t n, const char *fmt, const char *a, const char *b)
{
	size_t off = strlen(buf);

	if (off + 1 < n)
		snprintf(buf + off, n - off, fmt, a, b);
}

/* Does list hold a target of a? */
static int
holds_target(const struct sq_action *a, const char *list)
{
	size_t i;

	for (i = 0; list != NULL && i < a->ntargets; i++) {
		if (sq_admin_in_list(list, a->targets[i]))
			return 1;
	}
	return 0;
}

/* "acc", "acc/user" or "acc/user/part": an association as a target */
static void
assoc_name(const struct sq_cli_rec *r, char *buf, size_t n)
{
	const char *acc = sq_cli_rec_get(r, "Account");
	const char *user = sq_cli_rec_get(r, "User");
	const char *part = sq_cli_rec_get(r, "Partition");

	snprintf(buf, n, "%s%s%s%s%s", acc ? acc : "", user && *user ? "/" : "",
		 user ? user : "", part && *part ? "/" : "", part ? part : "");
}

/* Run argv and call row(fields) for each line of nf '|'-separated
 * fields. */
static int
rows(struct sq_cli *cli, const char *const *argv, int nf,
     void (*row)(char **f, const struct sq_action *a, struct sq_cli_state *st),
     const struct sq_action *a, struct sq_cli_state *st, struct sq_err *err)
{
	struct sq_buf out;
	char *pos, *line;

	sq_buf_init(&out, sq_cli_out_limit(cli));
	if (sq_cli_run(cli, argv, &out, err) == -1) {
		sq_buf_free(&out);
		return -1;
	}
	if (out.data == NULL)
		sq_buf_append(&out, "", 0);
	for (pos = out.data; (line = sq_next_line(&pos)) != NULL;) {
		char *f[8];

		if (*line != '\0' && sq_split(line, '|', f, nf) == nf)
			row(f, a, st);
	}
	sq_buf_free(&out);
	return 0;
}

static struct sq_cli_rec *
add_all(struct sq_cli_state *st)
{
	struct sq_cli_rec *all =
	    realloc(st->all, (st->nall + 1) * sizeof(*all));

	if (all == NULL)
		return NULL;
	st->all = all;
	memset(&all[st->nall], 0, sizeof(all[0]));
	all[st->nall].found = 1;
	return &all[st->nall++];
}

/* --- deluser: the user record ------------------------------------------- */

/* for each found target of user f[0]: add 1 to UserAssocs */
static void
count_row(char **f, const struct sq_action *a, struct sq_cli_state *st)
{
	size_t i;

	for (i = 0; i < st->n; i++) {
		const char *u = sq_cli_rec_get(&st->rec[i], "User");
		const char *c = sq_cli_rec_get(&st->rec[i], "UserAssocs");
		char num[16];

		(void)a;
		if (!st->rec[i].found || u == NULL || strcmp(u, f[1]) != 0)
			continue;
		snprintf(num, sizeof(num), "%d", (c ? atoi(c) : 0) + 1);
		sq_cli_rec_set(&st->rec[i], "UserAssocs", num);
	}
}

static void
user_row(char **f, const struct sq_action *a, struct sq_cli_state *st)
{
	size_t i;

	(void)a;
	for (i = 0; i < st->n; i++) {
		const char *u = sq_cli_rec_get(&st->rec[i], "User");

		if (!st->rec[i].found || u == NULL || strcmp(u, f[0]) != 0)
			continue;
		sq_cli_rec_set(&st->rec[i], "UserDefAcct", f[1]);
		sq_cli_rec_set(&st->rec[i], "UserAdmin", f[2]);
		sq_cli_rec_set(&st->rec[i], "UserWCKey", f[3]);
	}
}

/* an account's coordinators (withcoord: direct ones only, as `sacctmgr
 * add coordinator` made them; the sub-accounts follow) */
static void
coord_row(char **f, const struct sq_action *a, struct sq_cli_state *st)
{
	size_t i;

	(void)a;
	for (i = 0; i < st->n; i++) {
		const char *u = sq_cli_rec_get(&st->rec[i], "User");
		const char *had = sq_cli_rec_get(&st->rec[i], "UserCoords");
		char both[1024];

		if (!st->rec[i].found || u == NULL ||
		    !sq_admin_in_list(f[1], u) ||
		    (had != NULL && sq_admin_in_list(had, f[0])))
			continue;
		snprintf(both, sizeof(both), "%s%s%s", had ? had : "",
			 had && *had ? "," : "", f[0]);
		sq_cli_rec_set(&st->rec[i], "UserCoords", both);
	}
}

static int
read_users(struct sq_cli *cli, const struct sq_action *a,
	   struct sq_cli_state *st, struct sq_err *err)
{
	struct sq_buf names;
	char w1[64 + 8192], w2[64 + 8192];
	size_t i;
	int rc;

	sq_buf_init(&names, 0);
	for (i = 0; i < st->n; i++) {
		const char *u = sq_cli_rec_get(&st->rec[i], "User");

		if (!st->rec[i].found || u == NULL || *u == '\0')
			continue;
		if (names.len)
			sq_buf_append(&names, ",", 1);
		sq_buf_append(&names, u, strlen(u));
	}
	if (names.len == 0) {
		sq_buf_free(&names);
		return 0;
	}
	snprintf(w1, sizeof(w1), "user=%s", sq_buf_str(&names));
	snprintf(w2, sizeof(w2), "name=%s", sq_buf_str(&names));
	sq_buf_free(&names);
	{
		const char *const assocs[] = {
			"sacctmgr", "-n",
			"-P",       "show",
			"assoc",    "where",
			w1,         "format=Account,User,Partition",
			NULL
		};
		const char *const users[] = {
			"sacctmgr",
			"-n",
			"-P",
			"show",
			"user",
			"where",
			w2,
			"format=User,DefaultAccount,Admin,DefaultWCKey",
			NULL
		};
		const char *const coords[] = { "sacctmgr",
					       "-n",
					       "-P",
					       "show",
					       "account",
					       "withcoord",
					       "format=Account,Coordinators",
					       NULL };

		rc = rows(cli, assocs, 3, count_row, a, st, err);
		if (rc == 0)
			rc = rows(cli, users, 4, user_row, a, st, err);
		if (rc == 0)
			rc = rows(cli, coords, 2, coord_row, a, st, err);
	}
	return rc;
}

/* Is target i the first found target of its user, and are all the user's
 * associations among the found targets (the user goes with them)? */
static int
user_goes(const struct sq_action *a, const struct sq_cli_state *st, size_t i)
{
	const char *u = sq_cli_rec_get(&st->rec[i], "User");
	const char *c = sq_cli_rec_get(&st->rec[i], "UserAssocs");
	size_t k;
	int mine = 0;

	if (!st->rec[i].found || u == NULL || c == NULL ||
	    sq_cli_rec_get(&st->rec[i], "UserAdmin") == NULL)
		return 0;
	for (k = 0; k < st->n && k < a->ntargets; k++) {
		const char *uk = sq_cli_rec_get(&st->rec[k], "User");

		if (!st->rec[k].found || uk == NULL || strcmp(uk, u) != 0)
			continue;
		if (k < i)
			return 0;
		mine++;
	}
	return mine == atoi(c);
}

static void
deluser_listing(const struct sq_action *a, const struct sq_cli_state *st,
		char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < st->n && i < a->ntargets; i++) {
		const struct sq_cli_rec *r = &st->rec[i];
		const char *u = sq_cli_rec_get(r, "User");
		const char *co = sq_cli_rec_get(r, "UserCoords");
		const char *wk = sq_cli_rec_get(r, "UserWCKey");
		char what[400];

		if (!user_goes(a, st, i))
			continue;
		snprintf(what, sizeof(what),
			 "admin level %.40s, default account %.100s",
			 sq_cli_rec_get(r, "UserAdmin"),
			 sq_cli_rec_get(r, "UserDefAcct"));
		append(buf, n,
		       "\nremoves user %s with its last association (%s)", u,
		       what);
		if (co != NULL && *co != '\0')
			append(buf, n, "\nremoves %s as coordinator of %s", u,
			       co);
		if (wk != NULL && *wk != '\0')
			append(buf, n,
			       "\ncannot be undone in full: %s's WCKeys "
			       "(default %s) are not made again by its undo",
			       u, wk);
	}
}

static void
put_line(char *buf, size_t n, const struct sq_action *inv)
{
	char line[1024];
	size_t off = strlen(buf);

	if (sq_action_format(inv, line, sizeof(line)) == 0 &&
	    off + strlen(line) + 2 < n)
		snprintf(buf + off, n - off, "%s%s", off ? "\n" : "", line);
}

int
sq_cli_deluser_user_lines(const struct sq_action *a,
			  const struct sq_cli_state *before, char *buf,
			  size_t n)
{
	size_t i;

	for (i = 0; i < before->n && i < a->ntargets; i++) {
		const struct sq_cli_rec *r = &before->rec[i];
		const char *u = sq_cli_rec_get(r, "User");
		const char *da = sq_cli_rec_get(r, "UserDefAcct");
		const char *adm = sq_cli_rec_get(r, "UserAdmin");
		const char *co = sq_cli_rec_get(r, "UserCoords");
		const char *first = sq_cli_rec_get(r, "Account");
		struct sq_action inv;
		char lvl[32];

		if (!user_goes(a, before, i))
			continue;
		/* the first adduser line made the user with its account as
		 * the default: the rest moduser sets */
		sq_action_init(&inv, SQ_ACTION_ACCT_MODIFY_USER);
		sq_action_add_target(&inv, u, NULL);
		if (da != NULL && *da != '\0' && first != NULL &&
		    strcmp(da, first) != 0)
			sq_action_set_arg(&inv, "defaultaccount", da, NULL);
		if (adm != NULL && *adm != '\0' && strcmp(adm, "None") != 0) {
			sq_util_copy(lvl, sizeof(lvl), adm);
			sq_action_fold(lvl, sizeof(lvl));
			sq_action_set_arg(&inv, "adminlevel", lvl, NULL);
		}
		if (inv.nargs > 0)
			put_line(buf, n, &inv);
		sq_action_free(&inv);
		if (co != NULL && *co != '\0') {
			char copy[1024], *tok, *save = NULL;

			sq_util_copy(copy, sizeof(copy), co);
			for (tok = strtok_r(copy, ",", &save); tok != NULL;
			     tok = strtok_r(NULL, ",", &save)) {
				sq_action_init(&inv, SQ_ACTION_ACCT_ADD_COORD);
				if (sq_action_add_target(&inv, tok, NULL) ==
					0 &&
				    sq_action_set_arg(&inv, "user", u, NULL) ==
					0)
					put_line(buf, n, &inv);
				sq_action_free(&inv);
			}
		}
	}
	return 0;
}

/* --- delqos: the associations and QOS that hold it ------------------------ */

static void
qos_assoc_row(char **f, const struct sq_action *a, struct sq_cli_state *st)
{
	static const char *const keys[] = { "Account", "User", "Partition",
					    "QOS", "DefaultQOS" };
	struct sq_cli_rec *r;
	size_t k;

	if (!holds_target(a, f[3]) && !holds_target(a, f[4]))
		return;
	if ((r = add_all(st)) == NULL)
		return;
	for (k = 0; k < 5; k++)
		sq_cli_rec_set(r, keys[k], f[k]);
}

static void
qos_preempt_row(char **f, const struct sq_action *a, struct sq_cli_state *st)
{
	struct sq_cli_rec *r;

	if (holds_target(a, f[0]) || !holds_target(a, f[1]) ||
	    (r = add_all(st)) == NULL)
		return;
	sq_cli_rec_set(r, "Name", f[0]);
	sq_cli_rec_set(r, "Preempt", f[1]);
}

static int
read_qos_users(struct sq_cli *cli, const struct sq_action *a,
	       struct sq_cli_state *st, struct sq_err *err)
{
	const char *const assocs[] = {
		"sacctmgr", "-n",
		"-P",       "show",
		"assoc",    "format=Account,User,Partition,QOS,DefaultQOS",
		NULL
	};
	const char *const qos[] = { "sacctmgr", "-n",  "-P",
				    "show",     "qos", "format=Name,Preempt",
				    NULL };

	if (rows(cli, assocs, 5, qos_assoc_row, a, st, err) == -1)
		return -1;
	return rows(cli, qos, 2, qos_preempt_row, a, st, err);
}

/* The associations of st->all with a target of a in their QOS list
 * (def 0) or as their default QOS (def 1), "A (normal,q), A/U/gpu (q)"
 * into buf; returns how many. */
static size_t
assoc_list(const struct sq_action *a, const struct sq_cli_state *st, int def,
	   char *buf, size_t n)
{
	size_t k, count = 0, off = 0;

	buf[0] = '\0';
	for (k = 0; k < st->nall; k++) {
		const struct sq_cli_rec *r = &st->all[k];
		const char *l = sq_cli_rec_get(r, def ? "DefaultQOS" : "QOS");
		char name[400];
		int w;

		if (sq_cli_rec_get(r, "Account") == NULL || !holds_target(a, l))
			continue;
		assoc_name(r, name, sizeof(name));
		w = snprintf(buf + off, n - off, "%s%s (%s)", count ? ", " : "",
			     name, l);
		if (w > 0 && (size_t)w < n - off)
			off += (size_t)w;
		count++;
	}
	return count;
}

/* fields a QOS keeps that addqos does not set again */
static const char *const qos_lost[] = { "MaxTRESPerNode", "MaxTRESMins",
					"MinTRES", "GrpTRESMins", NULL };

static void
delqos_listing(const struct sq_action *a, const struct sq_cli_state *st,
	       char *buf, size_t n)
{
	char list[2048];
	size_t i, k, off;

	for (i = 0; i < st->n && i < a->ntargets; i++) {
		const struct sq_cli_rec *r = &st->rec[i];

		if (!r->found)
			continue;
		list[0] = '\0';
		for (k = 0, off = 0; qos_lost[k] != NULL; k++) {
			const char *v = sq_cli_rec_get(r, qos_lost[k]);
			int w;

			if (v == NULL || *v == '\0')
				continue;
			w = snprintf(list + off, sizeof(list) - off, "%s%s=%s",
				     off ? " " : "", qos_lost[k], v);
			if (w > 0 && (size_t)w < sizeof(list) - off)
				off += (size_t)w;
		}
		if (list[0])
			append(buf, n,
			       "\ncannot be undone in full: %s of %s are not "
			       "set again by its undo",
			       list, a->targets[i]);
	}
	if (assoc_list(a, st, 1, list, sizeof(list)) > 0)
		append(buf, n,
		       "\nblocked: %s%s have it as default QOS; Slurm refuses "
		       "the delete until their default QOS is another "
		       "(setlimit ... defaultqos=)",
		       list, "");
	if (assoc_list(a, st, 0, list, sizeof(list)) > 0)
		append(buf, n, "\nremoves it from the QOS lists of %s%s", list,
		       "");
	for (k = 0, off = 0, list[0] = '\0'; k < st->nall; k++) {
		const char *name = sq_cli_rec_get(&st->all[k], "Name");
		int w;

		if (name == NULL)
			continue;
		w = snprintf(list + off, sizeof(list) - off, "%s%s (%s)",
			     off ? ", " : "", name,
			     sq_cli_rec_get(&st->all[k], "Preempt"));
		if (w > 0 && (size_t)w < sizeof(list) - off)
			off += (size_t)w;
	}
	if (list[0])
		append(buf, n,
		       "\nremoves it from the preempt lists of QOS %s%s", list,
		       "");
	append(buf, n, "\nundo re-creates %s%s",
	       strstr(buf, "\ncannot be undone in full") != NULL ? "the rest"
								 : "all of it",
	       ": the QOS with its settings and description, and gives it "
	       "back to each list above (:undo, or the undo: lines)");
}

int
sq_cli_delqos_restore_lines(const struct sq_action *a,
			    const struct sq_cli_state *before, char *buf,
			    size_t n)
{
	size_t k;
	int pass;

	/* the preempt lists, then the account associations before the
	 * users' (a user's list may be its account's, inherited) */
	for (k = 0; k < before->nall; k++) {
		const struct sq_cli_rec *r = &before->all[k];
		const char *name = sq_cli_rec_get(r, "Name");
		struct sq_action inv;

		if (name == NULL)
			continue;
		sq_action_init(&inv, SQ_ACTION_QOS_SET);
		if (sq_action_add_target(&inv, name, NULL) == 0 &&
		    sq_action_set_arg(&inv, "preempt",
				      sq_cli_rec_get(r, "Preempt"), NULL) == 0)
			put_line(buf, n, &inv);
		sq_action_free(&inv);
	}
	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < before->nall; k++) {
			const struct sq_cli_rec *r = &before->all[k];
			const char *user = sq_cli_rec_get(r, "User");
			const char *qos = sq_cli_rec_get(r, "QOS");
			const char *dq = sq_cli_rec_get(r, "DefaultQOS");
			struct sq_action inv;
			char name[400];

			if (user == NULL || (*user != '\0') != pass)
				continue;
			assoc_name(r, name, sizeof(name));
			sq_action_init(&inv, SQ_ACTION_ACCT_SET_LIMIT);
			if (sq_action_add_target(&inv, name, NULL) == 0) {
				if (holds_target(a, qos))
					sq_action_set_arg(&inv, "qos", qos,
							  NULL);
				if (holds_target(a, dq))
					sq_action_set_arg(&inv, "defaultqos",
							  dq, NULL);
				if (inv.nargs > 0)
					put_line(buf, n, &inv);
			}
			sq_action_free(&inv);
		}
	}
	return 0;
}

/* --- moduser defaultqos=: every association it changes --------------- */

int
sq_cli_moduser_mixed(const struct sq_action *a, const struct sq_cli_state *st)
{
	size_t i;

	if (a->type != SQ_ACTION_ACCT_MODIFY_USER || st == NULL || !st->ok ||
	    sq_action_arg(a, "defaultqos") == NULL)
		return 0;
	for (i = 0; i < st->n; i++) {
		const char *dq = sq_cli_rec_get(&st->rec[i], "DefaultQOS");

		if (st->rec[i].found && dq != NULL &&
		    strcmp(dq, "(mixed)") == 0)
			return 1;
	}
	return 0;
}

/* the default QOS moduser asks: "" for -1 (cleared) */
static const char *
dq_wanted(const struct sq_action *a)
{
	const char *v = sq_action_arg(a, "defaultqos");

	return v == NULL ? NULL : strcmp(v, "-1") == 0 ? "" : v;
}

static void
moduser_listing(const struct sq_action *a, const struct sq_cli_state *st,
		char *buf, size_t n)
{
	const char *want = dq_wanted(a);
	size_t i, k;

	if (want == NULL)
		return;
	for (i = 0; i < a->ntargets; i++) {
		size_t count = 0;

		for (k = 0; k < st->nall; k++) {
			const struct sq_cli_rec *r = &st->all[k];
			const char *u = sq_cli_rec_get(r, "User");
			const char *dq = sq_cli_rec_get(r, "DefaultQOS");
			char name[400];

			if (u == NULL || strcmp(u, a->targets[i]) != 0 ||
			    dq == NULL)
				continue;
			if (strcmp(dq, want) == 0)
				continue;
			assoc_name(r, name, sizeof(name));
			sq_acct_dq_line(buf, n, a->targets[i], name, dq, want);
			count++;
		}
		if (count == 0)
			sq_acct_dq_line(buf, n, a->targets[i], NULL, NULL,
					want);
	}
	if (sq_cli_moduser_mixed(a, st))
		sq_acct_dq_mixed(buf, n);
}

size_t
sq_cli_moduser_dq_unchanged(const struct sq_action *a, const char *user,
			    const struct sq_cli_state *after, char *msg,
			    size_t n)
{
	const char *want = dq_wanted(a);
	size_t k, count = 0, off = strlen(msg);

	for (k = 0; want != NULL && k < after->nall; k++) {
		const struct sq_cli_rec *r = &after->all[k];
		const char *u = sq_cli_rec_get(r, "User");
		const char *dq = sq_cli_rec_get(r, "DefaultQOS");
		char name[400];
		int w;

		if (u == NULL || strcmp(u, user) != 0 || dq == NULL ||
		    strcmp(dq, want) == 0)
			continue;
		assoc_name(r, name, sizeof(name));
		w = snprintf(msg + off, n - off, "%s%s: DefaultQOS is '%s'",
			     off ? "; not changed " : "not changed ", name, dq);
		if (w > 0 && (size_t)w < n - off)
			off += (size_t)w;
		count++;
	}
	return count;
}

/* one setlimit line per association of a mixed target whose default QOS
 * the command changes, back to what it was */
static void
mixed_lines(const struct sq_action *a, const char *user,
	    const struct sq_cli_state *before, char *buf, size_t n)
{
	const char *want = dq_wanted(a);
	size_t k;

	for (k = 0; k < before->nall; k++) {
		const struct sq_cli_rec *r = &before->all[k];
		const char *u = sq_cli_rec_get(r, "User");
		const char *dq = sq_cli_rec_get(r, "DefaultQOS");
		struct sq_action inv;
		char name[400];

		if (u == NULL || strcmp(u, user) != 0 || dq == NULL ||
		    strcmp(dq, want) == 0)
			continue;
		assoc_name(r, name, sizeof(name));
		sq_action_init(&inv, SQ_ACTION_ACCT_SET_LIMIT);
		if (sq_action_add_target(&inv, name, NULL) == 0 &&
		    sq_action_set_arg(&inv, "defaultqos", *dq ? dq : "-1",
				      NULL) == 0)
			put_line(buf, n, &inv);
		sq_action_free(&inv);
	}
}

int
sq_cli_moduser_inverse(const struct sq_action *a,
		       const struct sq_cli_state *before, char *buf, size_t n)
{
	struct sq_action rest;
	struct sq_cli_state sub;
	char part[4096];
	size_t i, k;

	buf[0] = '\0';
	/* the other keys, every target: moduser with the old values */
	sq_action_init(&rest, a->type);
	for (i = 0; i < a->ntargets; i++)
		sq_action_add_target(&rest, a->targets[i], NULL);
	for (k = 0; k < a->nargs; k++) {
		char key[64];
		const char *val =
		    sq_action_arg_split(a->args[k], key, sizeof(key));

		if (val != NULL && strcmp(key, "defaultqos") != 0)
			sq_action_set_arg(&rest, key, val, NULL);
	}
	if (rest.nargs > 0 &&
	    sq_cli_inverse(&rest, before, part, sizeof(part)) == 0 && part[0])
		append(buf, n, "%s%s", part, "");
	sq_action_free(&rest);
	/* the default QOS: moduser for a target whose associations had one,
	 * a setlimit per association for one whose had several */
	memset(&sub, 0, sizeof(sub));
	sub.ok = 1;
	sub.rec = calloc(before->n ? before->n : 1, sizeof(*sub.rec));
	if (sub.rec == NULL)
		return -1;
	sq_action_init(&rest, a->type);
	sq_action_set_arg(&rest, "defaultqos", sq_action_arg(a, "defaultqos"),
			  NULL);
	for (i = 0; i < a->ntargets && i < before->n; i++) {
		const char *dq = sq_cli_rec_get(&before->rec[i], "DefaultQOS");

		if (!before->rec[i].found)
			continue;
		if (dq != NULL && strcmp(dq, "(mixed)") == 0) {
			mixed_lines(a, a->targets[i], before, buf, n);
			continue;
		}
		if (sq_action_add_target(&rest, a->targets[i], NULL) == 0)
			sub.rec[sub.n++] = before->rec[i]; /* shallow */
	}
	if (rest.ntargets > 0 &&
	    sq_cli_inverse(&rest, &sub, part, sizeof(part)) == 0 && part[0])
		append(buf, n, "%s%s", *buf ? "\n" : "", part);
	free(sub.rec);
	sq_action_free(&rest);
	return 0;
}

/* --- entry points ----------------------------------------------------------
 */

int
sq_cli_read_undo_extra(struct sq_cli *cli, const struct sq_action *a,
		       struct sq_cli_state *st, struct sq_err *err)
{
	if (a->type == SQ_ACTION_ACCT_REMOVE_USER)
		return read_users(cli, a, st, err);
	if (a->type == SQ_ACTION_QOS_DELETE)
		return read_qos_users(cli, a, st, err);
	return 0;
}

void
sq_cli_undo_listing(const struct sq_action *a, const struct sq_cli_state *st,
		    char *buf, size_t n)
{
	if (st == NULL || !st->ok)
		return;
	if (a->type == SQ_ACTION_ACCT_REMOVE_USER)
		deluser_listing(a, st, buf, n);
	else if (a->type == SQ_ACTION_QOS_DELETE)
		delqos_listing(a, st, buf, n);
	else if (a->type == SQ_ACTION_ACCT_MODIFY_USER)
		moduser_listing(a, st, buf, n);
}
