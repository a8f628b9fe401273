/*
 * actions_delete.c - what a delete through the CLI removes with it, for
 * its preview (and so its audit line): the association with its limits
 * (deluser), the account with its parent, shares and coordinators
 * (delaccount), and the jobs that block it (Slurm refuses to remove an
 * association with running or pending jobs); and the coordinators
 * delaccount's undo adds back. Read-only; never prints.
 */
#include <stdio.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "core/base/buf.h"
#include "core/base/util.h"

/* the limits of an association as the preview and undo name them */
static const char *const limit_fields[] = {
	"GrpTRES", "GrpJobs", "GrpSubmit",  "MaxJobs",   "MaxSubmit", "MaxTRES",
	"MaxWall", "QOS",     "DefaultQOS", "Fairshare", NULL
};

/* ... and those its undo cannot set again (adduser does not take them) */
static const char *const lost_fields[] = {
	"GrpTRESMins",    "GrpTRESRunMins", "GrpWall", "MaxTRESMins",
	"MaxTRESPerNode", "Priority",       NULL
};

/* "K=V K=V" of the fields of r set (Fairshare: other than 1) into buf */
static void
fields_set(const struct sq_cli_rec *r, const char *const *keys, char *buf,
	   size_t n)
{
	size_t k, off = 0;

	buf[0] = '\0';
	for (k = 0; r->found && keys[k] != NULL; k++) {
		const char *v = sq_cli_rec_get(r, keys[k]);
		int w;

		if (v == NULL || *v == '\0' ||
		    (strcmp(keys[k], "Fairshare") == 0 && strcmp(v, "1") == 0))
			continue;
		w = snprintf(buf + off, n - off, "%s%s=%s", off ? " " : "",
			     keys[k], v);
		if (w > 0 && (size_t)w < n - off)
			off += (size_t)w;
	}
}

static void
append(char *buf, size_t n, const char *fmt, const char *a, const char *b)
{
	size_t off = strlen(buf);

	if (off + 1 < n)
		snprintf(buf + off, n - off, fmt, a, b);
}

/* The ids of the jobs squeue lists for words (-u U -A A ...), ',' joined
 * into ids; "" when none or when squeue cannot tell. */
static void
blocking_jobs(struct sq_cli *cli, const char *const *words, char *ids, size_t n)
{
	const char *argv[16] = {
		"squeue", "-h", "-t", "PD,R,S,CG", "-o", "%i"
	};
	struct sq_buf out;
	struct sq_err e;
	size_t k = 6, off = 0;
	char *p, *line, *save = NULL;

	ids[0] = '\0';
	while (*words != NULL && k < 15)
		argv[k++] = *words++;
	argv[k] = NULL;
	sq_buf_init(&out, sq_cli_out_limit(cli));
	if (cli == NULL || sq_cli_run(cli, argv, &out, &e) == -1 ||
	    out.data == NULL) {
		sq_buf_free(&out);
		return;
	}
	for (p = out.data; (line = strtok_r(p, "\n", &save)) != NULL;
	     p = NULL) {
		int w =
		    snprintf(ids + off, n - off, "%s%s", off ? "," : "", line);

		if (w < 0 || (size_t)w >= n - off)
			break;
		off += (size_t)w;
	}
	sq_buf_free(&out);
}

static void
assoc_lines(struct sq_cli *cli, const struct sq_action *a, size_t i,
	    const struct sq_cli_rec *r, char *buf, size_t n)
{
	char acc[129], user[129], part[129], lim[700], lost[400], ids[256];

	if (sq_action_assoc_split(a->targets[i], acc, user, part) == -1)
		return;
	fields_set(r, limit_fields, lim, sizeof(lim));
	fields_set(r, lost_fields, lost, sizeof(lost));
	append(buf, n, "\nremoves %s with its limits: %s", a->targets[i],
	       lim[0] ? lim : "none");
	if (lost[0])
		append(buf, n,
		       "\ncannot be undone in full: %s of %s are not set "
		       "again by its undo",
		       lost, a->targets[i]);
	{
		char pw[140];
		const char *w[] = { "-u", user, "-A", acc, NULL, NULL, NULL };

		snprintf(pw, sizeof(pw), "%s", part);
		if (part[0]) {
			w[4] = "-p";
			w[5] = pw;
		}
		blocking_jobs(cli, w, ids, sizeof(ids));
	}
	if (ids[0])
		append(buf, n,
		       "\nblocked: jobs %s of %s run or wait in it; Slurm "
		       "refuses the delete until they end",
		       ids, user);
}

static void
account_lines(struct sq_cli *cli, const struct sq_action *a, size_t i,
	      const struct sq_cli_rec *r, char *buf, size_t n)
{
	const char *par = sq_cli_rec_get(r, "ParentName");
	const char *fs = sq_cli_rec_get(r, "Fairshare");
	const char *co = sq_cli_rec_get(r, "Coordinators");
	const char *w[] = { "-A", a->targets[i], NULL };
	char what[300], ids[256];

	snprintf(what, sizeof(what), "parent %.100s, fairshare %.40s",
		 par && *par ? par : "?", fs && *fs ? fs : "?");
	append(buf, n, "\nremoves account %s (%s)", a->targets[i], what);
	if (co != NULL && *co != '\0')
		append(buf, n, "\nremoves coordinators %s of %s", co,
		       a->targets[i]);
	blocking_jobs(cli, w, ids, sizeof(ids));
	if (ids[0])
		append(buf, n,
		       "\nblocked: jobs %s run or wait in %s; Slurm refuses "
		       "the delete until they end",
		       ids, a->targets[i]);
}

void
sq_cli_delete_listing(struct sq_cli *cli, const struct sq_action *a,
		      const struct sq_cli_state *st, char *buf, size_t n)
{
	size_t i;

	if (st == NULL || !st->ok)
		return;
	for (i = 0; i < a->ntargets && i < st->n; i++) {
		if (!st->rec[i].found)
			continue;
		if (a->type == SQ_ACTION_ACCT_REMOVE_USER)
			assoc_lines(cli, a, i, &st->rec[i], buf, n);
		else if (a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT)
			account_lines(cli, a, i, &st->rec[i], buf, n);
	}
	/* the user record, the QOS lists, the default QOS moduser changes */
	sq_cli_undo_listing(a, st, buf, n);
	if (a->type == SQ_ACTION_ACCT_REMOVE_USER ||
	    a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT)
		append(buf, n, "\nundo re-creates %s%s",
		       strstr(buf, "\ncannot be undone in full") != NULL
			   ? "the rest"
			   : "all of it",
		       " (:undo, or the undo: lines)");
}

int
sq_cli_delaccount_coords(const struct sq_action *a,
			 const struct sq_cli_state *before, char *buf, size_t n)
{
	size_t i, off = strlen(buf);

	for (i = 0; i < a->ntargets && i < before->n; i++) {
		const char *co =
		    sq_cli_rec_get(&before->rec[i], "Coordinators");
		struct sq_action inv;
		char line[1024];

		if (!before->rec[i].found || co == NULL || *co == '\0')
			continue;
		sq_action_init(&inv, SQ_ACTION_ACCT_ADD_COORD);
		if (sq_action_add_target(&inv, a->targets[i], NULL) == 0 &&
		    sq_action_set_arg(&inv, "user", co, NULL) == 0 &&
		    sq_action_format(&inv, line, sizeof(line)) == 0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
		sq_action_free(&inv);
	}
	return 0;
}
