/*
 * parse_sacctmgr.c - associations, accounts, users and QOS from
 * `sacctmgr -n -P show ...` with the fixed format= arguments below.
 *
 * sacctmgr -P separates fields with '|' and does not escape it; the one
 * free-text field of a format (a description) is placed last so it may
 * contain '|'. The assoc listing uses `tree`: the Account field is
 * indented by one space per level, which gives the depth.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/model/name_index.h"
#include "core/base/parse.h"

const char sq_cli_assoc_fmt[] =
    "format=Cluster,Account,User,Partition,ParentName,ID,Share,Priority,"
    "GrpJobs,GrpJobsAccrue,GrpSubmit,GrpTRES,GrpTRESMins,GrpTRESRunMins,"
    "GrpWall,MaxJobs,MaxJobsAccrue,MaxSubmit,MaxTRES,MaxTRESPerNode,"
    "MaxTRESMins,MaxWall,QOS,DefaultQOS";
const char sq_cli_account_fmt[] =
    "format=Account,ParentName,User,Share,Coordinators,Org,Descr";
const char sq_cli_user_fmt[] =
    "format=User,DefaultAccount,DefaultWCKey,AdminLevel,"
    "Coordinators,Account,Partition,QOS,DefaultQOS";
const char sq_cli_qos_fmt[] =
    "format=Name,ID,Priority,Preempt,PreemptMode,PreemptExemptTime,GraceTime,"
    "Flags,UsageFactor,UsageThreshold,GrpJobs,GrpJobsAccrue,GrpSubmit,"
    "GrpTRES,GrpTRESMins,GrpTRESRunMins,GrpWall,MaxJobsPerUser,"
    "MaxJobsPerAccount,MaxSubmitJobsPerUser,MaxSubmitJobsPerAccount,"
    "MaxTRES,MaxTRESPerNode,MaxTRESPerUser,MaxTRESPerAccount,MaxTRESMins,"
    "MaxWall,MinTRES,Description";

/* A string field: "" for Slurm's none-words, else an arena copy. */
static const char *
str(struct sq_snapshot *s, const char *v)
{
	return sq_is_none(v) ? "" : sq_snapshot_str(s, v);
}

/* Split one line into exactly n fields or report a parse error. */
static int
fields(char *line, char **f, int n, const char *what, int lineno,
       struct sq_err *err)
{
	int got = sq_split(line, '|', f, n);

	if (got != n)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "%s line %d: %d fields, expected %d "
				  "(truncated output?)",
				  what, lineno, got, n);
	return 0;
}

/* str(), but the previous line's copy when the value repeats it (*last):
 * a big tree's lines share their cluster, QOS and parent with the line
 * before, and need one copy of them, not one a line. */
static const char *
str_again(struct sq_snapshot *s, const char *v, const char **last)
{
	if (*last == NULL || strcmp(*last, v) != 0)
		*last = str(s, v);
	return *last;
}

static int
shares(const char *v, int64_t *out)
{
	if (strcmp(v, "parent") == 0) {
		*out = SQ_INFINITE;
		return 0;
	}
	return sq_parse_int(v, out);
}

enum {
	A_CLUSTER,
	A_ACCOUNT,
	A_USER,
	A_PART,
	A_PARENT,
	A_ID,
	A_SHARE,
	A_PRIO,
	A_GRPJOBS,
	A_GRPJOBSACCRUE,
	A_GRPSUBMIT,
	A_GRPTRES,
	A_GRPTRESMINS,
	A_GRPTRESRUNMINS,
	A_GRPWALL,
	A_MAXJOBS,
	A_MAXJOBSACCRUE,
	A_MAXSUBMIT,
	A_MAXTRES,
	A_MAXTRESPN,
	A_MAXTRESMINS,
	A_MAXWALL,
	A_QOS,
	A_DEFQOS,
	A_COUNT
};

int
sq_parse_sacctmgr_assoc(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[A_COUNT];
	const char *cluster = NULL, *part = NULL, *parent = NULL, *qos = NULL,
		   *defqos = NULL;
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_assoc *a;
		const char *acct;
		int bad = 0;

		lineno++;
		if (*line == '\0')
			continue;
		if (fields(line, f, A_COUNT, "sacctmgr assoc", lineno, err))
			return -1;
		acct = f[A_ACCOUNT];
		while (*acct == ' ')
			acct++;
		if (*acct == '\0')
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr assoc line %d: no account",
					  lineno);
		a = sq_snapshot_add(s);
		if (a == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		a->depth = (int)(acct - f[A_ACCOUNT]);
		a->cluster = str_again(s, f[A_CLUSTER], &cluster);
		a->account = sq_snapshot_str(s, acct);
		a->user = str(s, f[A_USER]);
		a->partition = str_again(s, f[A_PART], &part);
		a->parent = str_again(s, f[A_PARENT], &parent);
		bad |= sq_parse_int(f[A_ID], &a->id);
		bad |= shares(f[A_SHARE], &a->shares);
		bad |= sq_parse_int(f[A_PRIO], &a->priority);
		bad |= sq_parse_int(f[A_GRPJOBS], &a->grp_jobs);
		bad |= sq_parse_int(f[A_GRPJOBSACCRUE], &a->grp_jobs_accrue);
		bad |= sq_parse_int(f[A_GRPSUBMIT], &a->grp_submit);
		a->grp_tres = str(s, f[A_GRPTRES]);
		a->grp_tres_mins = str(s, f[A_GRPTRESMINS]);
		a->grp_tres_run_mins = str(s, f[A_GRPTRESRUNMINS]);
		bad |= sq_admin_seconds(f[A_GRPWALL], &a->grp_wall);
		bad |= sq_parse_int(f[A_MAXJOBS], &a->max_jobs);
		bad |= sq_parse_int(f[A_MAXJOBSACCRUE], &a->max_jobs_accrue);
		bad |= sq_parse_int(f[A_MAXSUBMIT], &a->max_submit);
		a->max_tres = str(s, f[A_MAXTRES]);
		a->max_tres_per_node = str(s, f[A_MAXTRESPN]);
		a->max_tres_mins = str(s, f[A_MAXTRESMINS]);
		bad |= sq_admin_seconds(f[A_MAXWALL], &a->max_wall);
		a->qos = str_again(s, f[A_QOS], &qos);
		a->default_qos = str_again(s, f[A_DEFQOS], &defqos);
		if (bad)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr assoc line %d: bad number",
					  lineno);
	}
	return 0;
}

/* The row of the record named name, or a new one (NULL without memory):
 * an account or user has a line per association (with its users,
 * accounts, QOS); x finds the record of each. */
static void *
named_row(struct sq_snapshot *s, struct sq_name_index *x, const char *name,
	  int *fresh)
{
	size_t at;
	long i = sq_name_index_find(x, s, name, &at);
	void *row;

	*fresh = 0;
	if (i >= 0)
		return sq_snapshot_row(s, (size_t)i);
	row = sq_snapshot_add(s);
	if (row == NULL || sq_name_index_put(x, at, s->nrows - 1) == -1)
		return NULL;
	*fresh = 1;
	return row;
}

enum { C_ACCOUNT, C_PARENT, C_USER, C_SHARE, C_COORD, C_ORG, C_DESCR, C_COUNT };

int
sq_parse_sacctmgr_account(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[C_COUNT];
	int lineno = 0, rc = -1, fresh;
	struct sq_name_index x;

	if (sq_name_index_init(&x, sq_count_lines(text),
			       offsetof(struct sq_account, name)) == -1) {
		sq_name_index_free(&x);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_account *a;

		lineno++;
		if (*line == '\0')
			continue;
		if (fields(line, f, C_COUNT, "sacctmgr account", lineno, err))
			goto out;
		if (f[C_ACCOUNT][0] == '\0') {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sacctmgr account line %d: no name", lineno);
			goto out;
		}
		a = named_row(s, &x, f[C_ACCOUNT], &fresh);
		if (a == NULL) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		if (fresh) {
			a->name = sq_snapshot_str(s, f[C_ACCOUNT]);
			a->description = str(s, f[C_DESCR]);
			a->organization = str(s, f[C_ORG]);
			a->coordinators = str(s, f[C_COORD]);
			a->parent = a->users = "";
			a->shares = SQ_NONE;
		}
		if (f[C_USER][0] == '\0') {
			/* the account's own association */
			a->parent = str(s, f[C_PARENT]);
			if (shares(f[C_SHARE], &a->shares) == -1) {
				sq_err_set(err, SQ_ERR_PARSE,
					   "sacctmgr account line %d: "
					   "bad share '%s'",
					   lineno, f[C_SHARE]);
				goto out;
			}
		} else if (!sq_admin_in_list(a->users, f[C_USER])) {
			if (sq_admin_list_add(s, &a->users, f[C_USER]) == -1) {
				sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
				goto out;
			}
			a->nusers++;
		}
	}
	rc = 0;
out:
	sq_name_index_free(&x);
	return rc;
}

enum {
	U_USER,
	U_DEFACCT,
	U_WCKEY,
	U_ADMIN,
	U_COORD,
	U_ACCOUNT,
	U_PART,
	U_QOS,
	U_DEFQOS,
	U_COUNT
};

int
sq_parse_sacctmgr_user(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[U_COUNT];
	int lineno = 0, rc = -1, fresh;
	struct sq_name_index x;

	if (sq_name_index_init(&x, sq_count_lines(text),
			       offsetof(struct sq_user, name)) == -1) {
		sq_name_index_free(&x);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_user *u;

		lineno++;
		if (*line == '\0')
			continue;
		if (fields(line, f, U_COUNT, "sacctmgr user", lineno, err))
			goto out;
		if (f[U_USER][0] == '\0') {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sacctmgr user line %d: no name", lineno);
			goto out;
		}
		u = named_row(s, &x, f[U_USER], &fresh);
		if (u == NULL) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		if (fresh) {
			u->name = sq_snapshot_str(s, f[U_USER]);
			u->default_account = str(s, f[U_DEFACCT]);
			u->default_wckey = str(s, f[U_WCKEY]);
			u->admin_level = sq_snapshot_str(s, f[U_ADMIN]);
			u->coordinator_of = str(s, f[U_COORD]);
			u->accounts = u->qos = u->default_qos = "";
		}
		if (sq_admin_list_add(s, &u->accounts, f[U_ACCOUNT]) == -1 ||
		    sq_admin_list_add(s, &u->qos, f[U_QOS]) == -1) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		/* the default QOS of the default account's association wins */
		if (f[U_DEFQOS][0] != '\0' &&
		    (u->default_qos[0] == '\0' ||
		     strcmp(f[U_ACCOUNT], u->default_account) == 0))
			u->default_qos = sq_snapshot_str(s, f[U_DEFQOS]);
	}
	rc = 0;
out:
	sq_name_index_free(&x);
	return rc;
}

enum {
	Q_NAME,
	Q_ID,
	Q_PRIO,
	Q_PREEMPT,
	Q_PMODE,
	Q_PEXEMPT,
	Q_GRACE,
	Q_FLAGS,
	Q_UFACTOR,
	Q_UTHRESH,
	Q_GRPJOBS,
	Q_GRPJOBSACCRUE,
	Q_GRPSUBMIT,
	Q_GRPTRES,
	Q_GRPTRESMINS,
	Q_GRPTRESRUNMINS,
	Q_GRPWALL,
	Q_MAXJOBSPU,
	Q_MAXJOBSPA,
	Q_MAXSUBMITPU,
	Q_MAXSUBMITPA,
	Q_MAXTRES,
	Q_MAXTRESPN,
	Q_MAXTRESPU,
	Q_MAXTRESPA,
	Q_MAXTRESMINS,
	Q_MAXWALL,
	Q_MINTRES,
	Q_DESCR,
	Q_COUNT
};

int
sq_parse_sacctmgr_qos(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[Q_COUNT];
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_qos *q;
		int bad = 0;

		lineno++;
		if (*line == '\0')
			continue;
		if (fields(line, f, Q_COUNT, "sacctmgr qos", lineno, err))
			return -1;
		if (f[Q_NAME][0] == '\0')
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr qos line %d: no name",
					  lineno);
		q = sq_snapshot_add(s);
		if (q == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		q->name = sq_snapshot_str(s, f[Q_NAME]);
		q->description = str(s, f[Q_DESCR]);
		bad |= sq_parse_int(f[Q_ID], &q->id);
		bad |= sq_parse_int(f[Q_PRIO], &q->priority);
		q->preempt = str(s, f[Q_PREEMPT]);
		q->preempt_mode = str(s, f[Q_PMODE]);
		bad |= sq_admin_seconds(f[Q_PEXEMPT], &q->preempt_exempt_time);
		bad |= sq_admin_seconds(f[Q_GRACE], &q->grace_time);
		q->flags = str(s, f[Q_FLAGS]);
		bad |= sq_admin_double(f[Q_UFACTOR], &q->usage_factor);
		bad |= sq_admin_double(f[Q_UTHRESH], &q->usage_threshold);
		bad |= sq_parse_int(f[Q_GRPJOBS], &q->grp_jobs);
		bad |= sq_parse_int(f[Q_GRPJOBSACCRUE], &q->grp_jobs_accrue);
		bad |= sq_parse_int(f[Q_GRPSUBMIT], &q->grp_submit);
		q->grp_tres = str(s, f[Q_GRPTRES]);
		q->grp_tres_mins = str(s, f[Q_GRPTRESMINS]);
		q->grp_tres_run_mins = str(s, f[Q_GRPTRESRUNMINS]);
		bad |= sq_admin_seconds(f[Q_GRPWALL], &q->grp_wall);
		bad |= sq_parse_int(f[Q_MAXJOBSPU], &q->max_jobs_pu);
		bad |= sq_parse_int(f[Q_MAXJOBSPA], &q->max_jobs_pa);
		bad |= sq_parse_int(f[Q_MAXSUBMITPU], &q->max_submit_pu);
		bad |= sq_parse_int(f[Q_MAXSUBMITPA], &q->max_submit_pa);
		q->max_tres = str(s, f[Q_MAXTRES]);
		q->max_tres_per_node = str(s, f[Q_MAXTRESPN]);
		q->max_tres_pu = str(s, f[Q_MAXTRESPU]);
		q->max_tres_pa = str(s, f[Q_MAXTRESPA]);
		q->max_tres_mins = str(s, f[Q_MAXTRESMINS]);
		bad |= sq_admin_seconds(f[Q_MAXWALL], &q->max_wall);
		q->min_tres = str(s, f[Q_MINTRES]);
		if (bad)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr qos line %d: bad number",
					  lineno);
	}
	return 0;
}
