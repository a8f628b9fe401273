/*
 * actions_read.c - reading the targets of an action with the Slurm CLI
 * (squeue -O, scontrol -o show node, sacctmgr -n -P show assoc/account/
 * qos) into records, before an action (for its inverse) and after it (to
 * verify it). Read-only; never prints.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/cli/actions.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"
#include "core/base/util.h"

static const char jobs_fmt[] =
    "JobArrayID:|,JobID:|,ArrayJobID:|,State:|,PriorityLong:|,Nice:|,"
    "TimeLimit:|,Partition:|,QOS:|,Account:|,RestartCnt:|,Reason:|,Comment:";
static const char *const jobs_keys[] = { "id",        "JobId",     "ArrayJobId",
					 "JobState",  "Priority",  "Nice",
					 "TimeLimit", "Partition", "QOS",
					 "Account",   "Restarts",  "Reason",
					 "Comment",   NULL };
static const char assoc_fmt[] =
    "format=Account,User,Partition,ParentName,Fairshare,GrpTRES,GrpJobs,"
    "GrpSubmit,MaxJobs,MaxSubmit,MaxTRES,MaxWall,QOS,DefaultQOS,"
    "GrpTRESMins,GrpTRESRunMins,GrpWall,MaxTRESMins,MaxTRESPerNode,Priority";
/* the last six: limits setlimit and adduser do not take (a deluser's
 * preview says its undo cannot restore them) */
static const char *const assoc_keys[] = {
	"Account",   "User",        "Partition",      "ParentName",
	"Fairshare", "GrpTRES",     "GrpJobs",        "GrpSubmit",
	"MaxJobs",   "MaxSubmit",   "MaxTRES",        "MaxWall",
	"QOS",       "DefaultQOS",  "GrpTRESMins",    "GrpTRESRunMins",
	"GrpWall",   "MaxTRESMins", "MaxTRESPerNode", "Priority",
	NULL
};
static const char qos_fmt[] =
    "format=Name,Priority,GraceTime,Preempt,PreemptMode,Flags,UsageFactor,"
    "GrpTRES,GrpJobs,GrpSubmit,GrpWall,MaxTRES,MaxTRESPerNode,MaxTRESMins,"
    "MaxWall,MaxTRESPU,MaxJobsPU,MaxSubmitPU,MaxTRESPA,MaxJobsPA,"
    "MaxSubmitPA,MinTRES,GrpTRESMins,Description";
static const char *const qos_keys[] = { "Name",
					"Priority",
					"GraceTime",
					"Preempt",
					"PreemptMode",
					"Flags",
					"UsageFactor",
					"GrpTRES",
					"GrpJobs",
					"GrpSubmit",
					"GrpWall",
					"MaxTRES",
					"MaxTRESPerNode",
					"MaxTRESMins",
					"MaxWall",
					"MaxTRESPU",
					"MaxJobsPU",
					"MaxSubmitPU",
					"MaxTRESPA",
					"MaxJobsPA",
					"MaxSubmitPA",
					"MinTRES",
					"GrpTRESMins",
					"Descr",
					NULL };
static const char user_fmt[] = "format=User,DefaultAccount,Admin,DefaultWCKey";
static const char *const user_keys[] = { "User", "DefaultAccount", "Admin",
					 "DefaultWCKey", NULL };
static const char acct_fmt[] = "format=Account,Descr,Org,Coordinators";
static const char *const acct_keys[] = { "Account", "Descr", "Org",
					 "Coordinators", NULL };

static int
state_alloc(struct sq_cli_state *st, const struct sq_action *a)
{
	memset(st, 0, sizeof(*st));
	st->n = a->ntargets;
	st->rec = calloc(st->n ? st->n : 1, sizeof(*st->rec));
	return st->rec ? 0 : -1;
}

/* Fill r from '|'-separated fields named by keys. */
static void
rec_fill(struct sq_cli_rec *r, char **f, int nf, const char *const *keys)
{
	int i;

	sq_cli_rec_clear(r);
	r->found = 1;
	for (i = 0; keys[i] != NULL && i < nf; i++)
		sq_cli_rec_set(r, keys[i], f[i]);
}

/* --- jobs ---------------------------------------------------------------- */

static int
job_matches(const char *t, char **f)
{
	char base[32];
	size_t n = strspn(t, "0123456789");

	if (strcmp(f[0], t) == 0 || strcmp(f[1], t) == 0)
		return 2;
	if (n >= sizeof(base))
		return 0;
	memcpy(base, t, n);
	base[n] = '\0';
	/* a whole array, or a range of its tasks */
	if ((t[n] == '\0' || strncmp(t + n, "_[", 2) == 0) &&
	    strcmp(f[2], base) == 0)
		return 1;
	return 0;
}

int
sq_cli_parse_jobs_state(char *text, const struct sq_action *a,
			struct sq_cli_state *st)
{
	char *pos = text, *line;
	char nonce[SQ_CLI_NONCE_LEN + 3] = "";
	size_t i;
	int first = 1;

	while ((line = sq_next_line(&pos)) != NULL) {
		char *f[13];
		int nf;

		/* the rest of a comment with a line break is never a job, even
		 * one shaped like a record (the nonce, see cli.h) */
		if (sq_cli_nonce_line(line, nonce, first) == -1)
			continue;
		first = 0;
		if (*line == '\0')
			continue;
		nf = sq_split(line, '|', f, 13);
		if (nf < 13)
			continue;
		for (i = 0; i < st->n; i++) {
			int m = job_matches(a->targets[i], f);

			/* an exact id wins over a task of the array */
			if (m == 2 || (m == 1 && !st->rec[i].found))
				rec_fill(&st->rec[i], f, nf, jobs_keys);
		}
	}
	st->ok = 1;
	return 0;
}

static int
read_jobs(struct sq_cli *cli, const struct sq_action *a,
	  struct sq_cli_state *st, struct sq_err *err)
{
	struct sq_buf ids, out;
	char fmt[sizeof(jobs_fmt) + SQ_CLI_NONCE_LEN + 2];
	size_t i;
	int rc = -1;

	if (sq_cli_fmt_nonce(jobs_fmt, fmt, sizeof(fmt), err) == -1)
		return -1;
	sq_buf_init(&ids, 0);
	sq_buf_init(&out, SQ_CLI_OUT_LIMIT);
	for (i = 0; i < a->ntargets; i++) {
		size_t n = strspn(a->targets[i], "0123456789");

		if (i)
			sq_buf_append(&ids, ",", 1);
		sq_buf_append(&ids, a->targets[i], n);
	}
	{
		const char *const argv[] = {
			"squeue",         "-h", "-a", "-t", "all", "-j",
			sq_buf_str(&ids), "-O", fmt,  NULL
		};

		if (sq_cli_run(cli, argv, &out, err) == -1) {
			/* one unknown id makes squeue fail: none found */
			if (strstr(err->msg, "Invalid job id") != NULL) {
				st->ok = 1;
				rc = 0;
			}
			goto done;
		}
	}
	if (out.data == NULL)
		sq_buf_append(&out, "", 0);
	rc = sq_cli_parse_jobs_state(out.data, a, st);
done:
	sq_buf_free(&ids);
	sq_buf_free(&out);
	return rc;
}

/* --- nodes --------------------------------------------------------------- */

int
sq_cli_parse_nodes_state(char *text, const struct sq_action *a,
			 struct sq_cli_state *st)
{
	char *pos = text, *line;
	size_t i;

	while ((line = sq_next_line(&pos)) != NULL) {
		char *p = line, *k, *v, *name = NULL;
		struct sq_cli_rec r;

		memset(&r, 0, sizeof(r));
		r.found = 1;
		while (sq_kv_next(&p, &k, &v)) {
			if (strcmp(k, "NodeName") == 0)
				name = v;
			if (strcmp(k, "NodeName") == 0 ||
			    strcmp(k, "State") == 0) {
				sq_cli_rec_set(&r, k, v);
			} else if (strcmp(k, "Reason") == 0) {
				/* "disk full [root@1700000000]" */
				char *br = strrchr(v, '[');

				sq_cli_rec_set(&r, "ReasonRaw", v);
				if (br != NULL && br > v && br[-1] == ' ')
					br[-1] = '\0';
				sq_cli_rec_set(&r, k, v);
			}
		}
		for (i = 0; name != NULL && i < st->n; i++) {
			if (strcmp(a->targets[i], name) == 0) {
				size_t j;

				sq_cli_rec_clear(&st->rec[i]);
				st->rec[i].found = 1;
				for (j = 0; j < r.n; j++)
					sq_cli_rec_set(&st->rec[i], r.key[j],
						       r.val[j]);
			}
		}
		sq_cli_rec_clear(&r);
	}
	st->ok = 1;
	return 0;
}

static char *
join(const struct sq_action *a, int users_of_assocs)
{
	struct sq_buf b;
	size_t i;
	char *s;

	sq_buf_init(&b, 0);
	for (i = 0; i < a->ntargets; i++) {
		const char *t = a->targets[i];
		size_t n = users_of_assocs ? strcspn(t, "/") : strlen(t);

		if (i)
			sq_buf_append(&b, ",", 1);
		sq_buf_append(&b, t, n);
	}
	s = strdup(sq_buf_str(&b));
	sq_buf_free(&b);
	return s;
}

static int
read_nodes(struct sq_cli *cli, const struct sq_action *a,
	   struct sq_cli_state *st, struct sq_err *err)
{
	struct sq_buf out;
	char *list = join(a, 0);
	int rc = -1;
	const char *const argv[] = { "scontrol", "-o", "show",
				     "node",     list, NULL };

	sq_buf_init(&out, SQ_CLI_OUT_LIMIT);
	if (list == NULL)
		goto done;
	if (sq_cli_run(cli, argv, &out, err) == -1) {
		/* an unknown node ("Node n9 not found", on stdout): the
		 * others are still listed */
		if (strstr(err->msg, "not found") == NULL &&
		    strstr(sq_buf_str(&out), "not found") == NULL)
			goto done;
	}
	if (out.data == NULL)
		sq_buf_append(&out, "", 0);
	rc = sq_cli_parse_nodes_state(out.data, a, st);
done:
	free(list);
	sq_buf_free(&out);
	return rc;
}

/* --- accounting ---------------------------------------------------------- */

typedef void (*row_fn)(char **f, int nf, const struct sq_action *a,
		       struct sq_cli_state *st, const char *const *keys);

/* Each line of `sacctmgr -n -P` output text with nkeys fields to row. */
static void
sacctmgr_parse(char *text, const char *const *keys, int nkeys, row_fn row,
	       const struct sq_action *a, struct sq_cli_state *st)
{
	char *pos = text, *line;

	while ((line = sq_next_line(&pos)) != NULL) {
		char *f[SQ_CLI_REC_MAX];
		int nf;

		if (*line == '\0')
			continue;
		nf = sq_split(line, '|', f, nkeys);
		if (nf == nkeys)
			row(f, nf, a, st, keys);
	}
}

static int
sacctmgr_rows(struct sq_cli *cli, const char *const *argv,
	      const char *const *keys, int nkeys, row_fn row,
	      const struct sq_action *a, struct sq_cli_state *st,
	      struct sq_err *err)
{
	struct sq_buf out;

	sq_buf_init(&out, SQ_CLI_OUT_LIMIT);
	if (sq_cli_run(cli, argv, &out, err) == -1) {
		sq_buf_free(&out);
		return -1;
	}
	if (out.data == NULL)
		sq_buf_append(&out, "", 0);
	sacctmgr_parse(out.data, keys, nkeys, row, a, st);
	sq_buf_free(&out);
	return 0;
}

static void
assoc_row(char **f, int nf, const struct sq_action *a, struct sq_cli_state *st,
	  const char *const *keys)
{
	size_t i;
	struct sq_cli_rec *all =
	    realloc(st->all, (st->nall + 1) * sizeof(*all));

	if (all != NULL) {
		st->all = all;
		memset(&all[st->nall], 0, sizeof(all[0]));
		rec_fill(&all[st->nall++], f, nf, keys);
	}
	for (i = 0; i < st->n; i++) {
		char acc[129], user[129], part[129];

		if (sq_action_assoc_split(a->targets[i], acc, user, part) == -1)
			continue;
		if (strcmp(f[0], acc) == 0 && strcmp(f[1], user) == 0 &&
		    strcmp(f[2], part) == 0)
			rec_fill(&st->rec[i], f, nf, keys);
	}
}

static void
name_row(char **f, int nf, const struct sq_action *a, struct sq_cli_state *st,
	 const char *const *keys)
{
	size_t i;

	for (i = 0; i < st->n; i++) {
		if (strcmp(f[0], a->targets[i]) != 0)
			continue;
		if (st->rec[i].found && keys == acct_keys) {
			/* withcoord may print one row per coordinator */
			const char *c =
			    sq_cli_rec_get(&st->rec[i], "Coordinators");
			char both[1024];

			if (c != NULL && *c != '\0' && *f[3] != '\0') {
				snprintf(both, sizeof(both), "%s,%s", c, f[3]);
				sq_cli_rec_set(&st->rec[i], "Coordinators",
					       both);
			}
			continue;
		}
		rec_fill(&st->rec[i], f, nf, keys);
	}
}

/* The account's own association: parent and shares. */
static void
acct_assoc_row(char **f, int nf, const struct sq_action *a,
	       struct sq_cli_state *st, const char *const *keys)
{
	size_t i;

	(void)nf;
	(void)keys;
	if (*f[1] != '\0') {
		/* a user's association: delaccount would remove it too */
		for (i = 0; i < st->n; i++) {
			const char *u = sq_cli_rec_get(&st->rec[i], "State");
			char both[1024];

			if (strcmp(f[0], a->targets[i]) != 0 ||
			    !st->rec[i].found)
				continue;
			snprintf(both, sizeof(both), "%s%s%s%s%s",
				 u && strcmp(u, SQ_ACCT_EMPTY) != 0 ? u
								    : "USERS",
				 u && strcmp(u, SQ_ACCT_EMPTY) != 0 ? "," : " ",
				 f[1], *f[2] ? "/" : "", f[2]);
			sq_cli_rec_set(&st->rec[i], "State", both);
		}
		return;
	}
	for (i = 0; i < st->n; i++) {
		if (strcmp(f[0], a->targets[i]) == 0 && st->rec[i].found) {
			sq_cli_rec_set(&st->rec[i], "ParentName", f[3]);
			sq_cli_rec_set(&st->rec[i], "Fairshare", f[4]);
			if (sq_cli_rec_get(&st->rec[i], "State") == NULL)
				sq_cli_rec_set(&st->rec[i], "State",
					       SQ_ACCT_EMPTY);
		}
	}
}

static int nkeys(const char *const *k);
static const char *const k5[] = { "a", "b", "c", "d", "e", NULL };

/* A child account of a target (sacctmgr show assoc where parent=):
 * delaccount would remove its associations too; the state says
 * "ACCOUNTS sub1,sub2" after the users, if any. */
static void
child_row(char **f, int nf, const struct sq_action *a, struct sq_cli_state *st,
	  const char *const *keys)
{
	size_t i;

	(void)nf;
	(void)keys;
	if (*f[1] != '\0')
		return;
	for (i = 0; i < st->n; i++) {
		const char *u = sq_cli_rec_get(&st->rec[i], "State");
		char both[1024];

		if (strcmp(f[3], a->targets[i]) != 0 ||
		    strcmp(f[0], a->targets[i]) == 0 || !st->rec[i].found)
			continue;
		if (u == NULL || strcmp(u, SQ_ACCT_EMPTY) == 0)
			snprintf(both, sizeof(both), "ACCOUNTS %s", f[0]);
		else if (strstr(u, "ACCOUNTS ") != NULL)
			snprintf(both, sizeof(both), "%s,%s", u, f[0]);
		else
			snprintf(both, sizeof(both), "%s ACCOUNTS %s", u, f[0]);
		sq_cli_rec_set(&st->rec[i], "State", both);
	}
}

/* A user's association (moduser): kept in all (what the command could
 * touch), and on the user's record its accounts ("Accounts", a,b) and
 * the DefaultQOS of all of them ("(mixed)" when they differ). */
static void
user_assoc_row(char **f, int nf, const struct sq_action *a,
	       struct sq_cli_state *st, const char *const *keys)
{
	struct sq_cli_rec *all =
	    realloc(st->all, (st->nall + 1) * sizeof(*all));
	size_t i;

	if (all != NULL) {
		st->all = all;
		memset(&all[st->nall], 0, sizeof(all[0]));
		rec_fill(&all[st->nall++], f, nf, keys);
	}
	for (i = 0; i < st->n; i++) {
		struct sq_cli_rec *r = &st->rec[i];
		const char *acc = sq_cli_rec_get(r, "Accounts");
		const char *dq = sq_cli_rec_get(r, "DefaultQOS");
		char both[1024];

		if (!r->found || strcmp(f[1], a->targets[i]) != 0)
			continue;
		if (acc == NULL || *acc == '\0') {
			sq_cli_rec_set(r, "Accounts", f[0]);
		} else if (!sq_admin_in_list(acc, f[0])) {
			snprintf(both, sizeof(both), "%s,%s", acc, f[0]);
			sq_cli_rec_set(r, "Accounts", both);
		}
		if (dq == NULL)
			sq_cli_rec_set(r, "DefaultQOS", f[13]);
		else if (strcmp(dq, f[13]) != 0)
			sq_cli_rec_set(r, "DefaultQOS", "(mixed)");
	}
}

static int
read_users(struct sq_cli *cli, const struct sq_action *a,
	   struct sq_cli_state *st, struct sq_err *err)
{
	char *list = join(a, 0);
	char where[64 + 8192], where2[64 + 8192];
	int rc;

	snprintf(where, sizeof(where), "name=%s", list ? list : "");
	snprintf(where2, sizeof(where2), "user=%s", list ? list : "");
	free(list);
	{
		const char *const argv[] = { "sacctmgr", "-n",     "-P",
					     "show",     "user",   "where",
					     where,      user_fmt, NULL };
		const char *const argv2[] = { "sacctmgr", "-n",      "-P",
					      "show",     "assoc",   "where",
					      where2,     assoc_fmt, NULL };

		rc = sacctmgr_rows(cli, argv, user_keys, nkeys(user_keys),
				   name_row, a, st, err);
		if (rc == 0)
			rc = sacctmgr_rows(cli, argv2, assoc_keys,
					   nkeys(assoc_keys), user_assoc_row, a,
					   st, err);
	}
	return rc;
}

static int
nkeys(const char *const *k)
{
	int n = 0;

	while (k[n] != NULL)
		n++;
	return n;
}

/* The associations of the target accounts. */
static int
read_assocs(struct sq_cli *cli, const struct sq_action *a,
	    struct sq_cli_state *st, struct sq_err *err)
{
	char *list = join(a, 1);
	char where[64 + 8192];
	int rc;

	snprintf(where, sizeof(where), "account=%s", list ? list : "");
	free(list);
	{
		const char *const argv[] = { "sacctmgr", "-n",      "-P",
					     "show",     "assoc",   "where",
					     where,      assoc_fmt, NULL };

		rc = sacctmgr_rows(cli, argv, assoc_keys, nkeys(assoc_keys),
				   assoc_row, a, st, err);
	}
	return rc;
}

/* The target QOS. */
static int
read_qos(struct sq_cli *cli, const struct sq_action *a, struct sq_cli_state *st,
	 struct sq_err *err)
{
	char *list = join(a, 0);
	char where[64 + 8192];
	int rc;

	snprintf(where, sizeof(where), "name=%s", list ? list : "");
	free(list);
	{
		const char *const argv[] = { "sacctmgr", "-n",    "-P",
					     "show",     "qos",   "where",
					     where,      qos_fmt, NULL };

		rc = sacctmgr_rows(cli, argv, qos_keys, nkeys(qos_keys),
				   name_row, a, st, err);
	}
	return rc;
}

/* The target accounts, their associations and their child accounts. */
static int
read_accounts(struct sq_cli *cli, const struct sq_action *a,
	      struct sq_cli_state *st, struct sq_err *err)
{
	char *list = join(a, 0);
	char where[64 + 8192], where2[64 + 8192];
	int rc;

	snprintf(where, sizeof(where), "name=%s", list ? list : "");
	snprintf(where2, sizeof(where2), "account=%s", list ? list : "");
	{
		const char *const argv[] = { "sacctmgr", "-n",        "-P",
					     "show",     "account",   "where",
					     where,      "withcoord", acct_fmt,
					     NULL };
		const char *const argv2[] = {
			"sacctmgr",
			"-n",
			"-P",
			"show",
			"assoc",
			"where",
			where2,
			"format=Account,User,Partition,ParentName,"
			"Fairshare",
			NULL
		};

		rc = sacctmgr_rows(cli, argv, acct_keys, nkeys(acct_keys),
				   name_row, a, st, err);
		if (rc == 0)
			rc = sacctmgr_rows(cli, argv2, k5, 5, acct_assoc_row, a,
					   st, err);
		if (rc == 0) {
			/* the child accounts (where parent=) */
			snprintf(where2, sizeof(where2), "parent=%s",
				 list ? list : "");
			rc = sacctmgr_rows(cli, argv2, k5, 5, child_row, a, st,
					   err);
		}
	}
	free(list);
	return rc;
}

int
sq_cli_parse_acct_state(char *const *texts, size_t n, const struct sq_action *a,
			struct sq_cli_state *st)
{
	static const struct {
		enum sq_kind kind;
		const char *const *keys[3];
		row_fn row[3];
	} reads[] = {
		{ SQ_KIND_ASSOCS, { assoc_keys }, { assoc_row } },
		{ SQ_KIND_QOS, { qos_keys }, { name_row } },
		{ SQ_KIND_USERS,
		  { user_keys, assoc_keys },
		  { name_row, user_assoc_row } },
		{ SQ_KIND_ACCOUNTS,
		  { acct_keys, k5, k5 },
		  { name_row, acct_assoc_row, child_row } },
	};
	size_t i, k;

	if (state_alloc(st, a) == -1)
		return -1;
	for (i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		if (reads[i].kind != a->def->kind)
			continue;
		for (k = 0; k < n && k < 3 && reads[i].keys[k] != NULL; k++)
			sacctmgr_parse(texts[k], reads[i].keys[k],
				       nkeys(reads[i].keys[k]), reads[i].row[k],
				       a, st);
		st->ok = 1;
		return 0;
	}
	return -1;
}

int
sq_cli_read_state(struct sq_cli *cli, const struct sq_action *a,
		  struct sq_cli_state *st, struct sq_err *err)
{
	int rc = -1;

	if (state_alloc(st, a) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	switch (a->def->kind) {
	case SQ_KIND_JOBS:
		rc = read_jobs(cli, a, st, err);
		break;
	case SQ_KIND_NODES:
		rc = read_nodes(cli, a, st, err);
		break;
	case SQ_KIND_RESERVATIONS:
		rc = sq_cli_read_resv(cli, a, st, err);
		break;
	case SQ_KIND_ASSOCS:
		rc = read_assocs(cli, a, st, err);
		break;
	case SQ_KIND_USERS:
		rc = read_users(cli, a, st, err);
		break;
	case SQ_KIND_QOS:
		rc = read_qos(cli, a, st, err);
		break;
	case SQ_KIND_ACCOUNTS:
		rc = read_accounts(cli, a, st, err);
		break;
	default:
		sq_err_set(err, SQ_ERR_UNSUPPORTED, "cannot read %s",
			   sq_kind_name(a->def->kind));
	}
	if (rc == 0)
		rc = sq_cli_read_undo_extra(cli, a, st, err);
	if (rc == 0)
		st->ok = 1;
	else
		sq_util_copy(st->error, sizeof(st->error),
			     err ? err->msg : "read failed");
	return rc;
}

/* The CLI's struct sq_targets_read: data is a struct sq_cli_state. */
void
sq_cli_targets_read_free(struct sq_targets_read *r)
{
	if (r == NULL)
		return;
	if (r->data != NULL)
		sq_cli_state_free(r->data);
	free(r->data);
	free(r);
}

static void
rec_drop(void *r)
{
	sq_cli_rec_clear(r);
}

/* The records of the targets left out go; all stays whole: wherever its
 * rows are used they are picked by the targets of the action at hand,
 * and the targets a check leaves out of an action that reads such rows
 * (associations, users, QOS: no state to skip them on) are those not
 * found, which have none. */
void
sq_cli_targets_read_cut(struct sq_targets_read *r, const unsigned char *keep)
{
	struct sq_cli_state *st = r->data;

	if (st == NULL)
		return;
	st->n =
	    sq_util_keep(st->rec, st->n, sizeof(st->rec[0]), keep, rec_drop);
	r->n = st->n;
}

const struct sq_cli_state *
sq_cli_targets_state(const struct sq_action *a,
		     const struct sq_targets_read *read)
{
	const struct sq_cli_state *st;

	if (read == NULL || read->ops == NULL ||
	    read->ops->read_free != sq_cli_targets_read_free ||
	    read->n != a->ntargets || (st = read->data) == NULL ||
	    st->n != a->ntargets || !st->ok)
		return NULL;
	return st;
}

int
sq_cli_read_targets(struct sq_backend *b, const struct sq_action *a,
		    struct sq_target_state *out, struct sq_targets_read **read,
		    struct sq_err *err)
{
	struct sq_cli_state *st;
	size_t i;

	if (read != NULL)
		*read = NULL;
	if (a->type == SQ_ACTION_RUNAWAY_FIX)
		return sq_cli_runaway_read_targets(b, a, out, err);
	if ((st = calloc(1, sizeof(*st))) == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	if (sq_cli_read_state(b->priv, a, st, err) == -1) {
		sq_cli_state_free(st);
		free(st);
		return -1;
	}
	for (i = 0; i < a->ntargets; i++) {
		const char *s = sq_cli_rec_get(
		    &st->rec[i],
		    a->def->kind == SQ_KIND_JOBS ? "JobState" : "State");

		out[i].found = st->rec[i].found;
		sq_util_copy(out[i].state, sizeof(out[i].state), s ? s : "");
	}
	/* kept for describe() and act() of a (backend.h) */
	if (read != NULL && (*read = calloc(1, sizeof(**read))) != NULL) {
		(*read)->ops = b->ops;
		(*read)->n = st->n;
		(*read)->data = st;
		return 0;
	}
	sq_cli_state_free(st);
	free(st);
	return 0;
}
