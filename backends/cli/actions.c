/*
 * actions.c - the commands of an action through the Slurm CLI: a table
 * of argv templates (argv_rows), one row per action kind, for scancel,
 * scontrol and sacctmgr -i (never a shell, never without -i), and the
 * commands as the preview shows them. Running them, reading the targets
 * back and the inverse are actions_run.c. Values were validated by
 * core/action/action.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "core/base/buf.h"
#include "core/base/util.h"
#include "core/base/validate.h"

void
sq_cli_cmds_free(struct sq_cli_cmds *c)
{
	size_t i;
	int k;

	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->v[i].argc; k++)
			free(c->v[i].argv[k]);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static struct sq_cli_cmd *
new_cmd(struct sq_cli_cmds *c, size_t target)
{
	struct sq_cli_cmd *v = realloc(c->v, (c->n + 1) * sizeof(*v));

	if (v == NULL)
		return NULL;
	c->v = v;
	memset(&v[c->n], 0, sizeof(v[c->n]));
	v[c->n].target = target;
	return &v[c->n++];
}

static int add(struct sq_cli_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
add(struct sq_cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (cmd->argc >= SQ_CLI_CMD_MAXARGS)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || (s = malloc((size_t)n + 1)) == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	cmd->argv[cmd->argc++] = s;
	cmd->argv[cmd->argc] = NULL;
	return 0;
}

/* --- argv templates --------------------------------------------------- */

/* What the words of a template are filled from. */
struct argv_ctx {
	const struct sq_action *a;
	size_t i;                            /* the target (per-target rows) */
	char acc[129], user[129], part[129]; /* an ASSOCS target's parts */
	sq_cli_lookup_fn lookup;             /* clearlimit: values set now */
	void *lctx;
	int drop; /* {clears} found nothing to clear: no command */
};

/* The arguments as Slurm words in the order given: a SQ_ARG_FLAG one as
 * its word, the others "slurmword=value". which: 'a' all, 'f' only the
 * flags, 'v' all but the flags. */
static int
add_args(struct sq_cli_cmd *cmd, const struct sq_action *a, int which)
{
	size_t i;

	for (i = 0; i < a->nargs; i++) {
		const char *eq = strchr(a->args[i], '=');
		char key[64];
		const struct sq_arg_spec *sp;
		size_t kl = eq ? (size_t)(eq - a->args[i]) : 0;
		int flag;

		if (eq == NULL || kl >= sizeof(key))
			return -1;
		memcpy(key, a->args[i], kl);
		key[kl] = '\0';
		if ((sp = sq_action_arg_spec(a->def, key)) == NULL)
			return -1;
		flag = sp->type == SQ_ARG_FLAG;
		if ((which == 'f' && !flag) || (which == 'v' && flag))
			continue;
		/* a QOS's preempt list is cleared with an empty value
		 * (sacctmgr reads -1 as "remove QOS 1") */
		if (strcmp(sp->slurm, "preempt") == 0 &&
		    strcmp(eq + 1, "-1") == 0) {
			if (add(cmd, "preempt=") == -1)
				return -1;
			continue;
		}
		if ((flag ? add(cmd, "%s", sp->slurm)
			  : add(cmd, "%s=%s", sp->slurm, eq + 1)) == -1)
			return -1;
	}
	return 0;
}

/* prefix and the targets joined by ',' (scontrol job and node lists) */
static int
add_list(struct sq_cli_cmd *cmd, const char *prefix, size_t pl,
	 const struct sq_action *a)
{
	struct sq_buf b;
	size_t i;
	int rc;

	sq_buf_init(&b, 0);
	rc = sq_buf_append(&b, prefix, pl);
	for (i = 0; i < a->ntargets; i++) {
		if (i)
			rc |= sq_buf_append(&b, ",", 1);
		rc |= sq_buf_append(&b, a->targets[i], strlen(a->targets[i]));
	}
	if (rc == 0)
		rc = add(cmd, "%s", sq_buf_str(&b));
	sq_buf_free(&b);
	return rc;
}

/* An association as sacctmgr's where clause: "account where name=A", or
 * "user where name=U account=A partition=P". A user's association without
 * a partition gets an empty "partition=": without it sacctmgr matches every
 * partition's association of the user in the account (the empty value
 * narrows to the one without, as `sacctmgr show assoc` shows). */
static int
add_assoc(struct sq_cli_cmd *c, const struct argv_ctx *x)
{
	if (x->user[0] == '\0')
		return add(c, "account") == -1 || add(c, "where") == -1 ||
			       add(c, "name=%s", x->acc) == -1
			   ? -1
			   : 0;
	return add(c, "user") == -1 || add(c, "where") == -1 ||
		       add(c, "name=%s", x->user) == -1 ||
		       add(c, "account=%s", x->acc) == -1 ||
		       add(c, "partition=%s", x->part) == -1
		   ? -1
		   : 0;
}

static const char *
sacctmgr_field(const char *key)
{
	static const struct {
		const char *key, *field;
	} map[] = {
		{ "grptres", "GrpTRES" },
		{ "grpjobs", "GrpJobs" },
		{ "grpsubmit", "GrpSubmit" },
		{ "maxjobs", "MaxJobs" },
		{ "maxsubmit", "MaxSubmit" },
		{ "maxtres", "MaxTRES" },
		{ "maxwall", "MaxWall" },
		{ "defaultqos", "DefaultQOS" },
		{ "qos", "QOS" },
		{ "fairshare", "Fairshare" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (strcmp(map[i].key, key) == 0)
			return map[i].field;
	}
	return NULL;
}

/* "cpu=4,mem=1G" -> "cpu=-1,mem=-1" into buf; 0 when nothing is set. */
static int
tres_clear(const char *now, char *buf, size_t n)
{
	char copy[1024], *tok, *save = NULL;
	size_t off = 0;

	buf[0] = '\0';
	if (now == NULL)
		return 0;
	sq_util_copy(copy, sizeof(copy), now);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		int w;

		if (eq == NULL)
			continue;
		*eq = '\0';
		w = snprintf(buf + off, n - off, "%s%s=-1", off ? "," : "",
			     tok);
		if (w < 0 || (size_t)w >= n - off)
			return -1;
		off += (size_t)w;
	}
	return off > 0;
}

/* clearlimit: "key=-1" for each named limit; TRES limits name each TRES
 * set now. Returns the number of words added, -1 on error. */
static int
add_clears(struct sq_cli_cmd *c, const struct argv_ctx *x, struct sq_err *err)
{
	const char *list = sq_action_arg(x->a, "limits");
	const struct sq_action_def *sl =
	    sq_action_def(SQ_ACTION_ACCT_SET_LIMIT);
	char copy[512], *tok, *save = NULL;
	int n = 0;

	sq_util_copy(copy, sizeof(copy), list ? list : "");
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct sq_arg_spec *sp = sq_action_arg_spec(sl, tok);
		char tres[1024];
		int r;

		if (sp == NULL)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "unknown limit %.40s", tok);
		if (sp->type != SQ_ARG_TRES) {
			if (add(c, "%s=-1", sp->slurm) == -1)
				return sq_err_set(err, SQ_ERR_SYSTEM,
						  "command line too long");
			n++;
			continue;
		}
		r = tres_clear(
		    x->lookup ? x->lookup(x->lctx, x->i, sacctmgr_field(tok))
			      : NULL,
		    tres, sizeof(tres));
		if (r == -1)
			return sq_err_set(err, SQ_ERR_USAGE, "TRES too long");
		if (r == 0)
			continue; /* nothing set: nothing to clear */
		/* the TRES names come from the cluster: checked like any
		 * value before they reach a command line */
		if (sq_valid_tres(tres, err) == -1)
			return -1;
		if (add(c, "%s=%s", sp->slurm, tres) == -1)
			return sq_err_set(err, SQ_ERR_SYSTEM,
					  "command line too long");
		n++;
	}
	return n;
}

/*
 * One word of a template into c: a literal, or "[prefix]{name}" filled
 * from the action: {t} the target, {acc} {user} its association's parts,
 * {targets} every target a word, {list} the targets joined by ',',
 * {args} the arguments ({flags} and {values} either half), {partition}
 * "partition=P" when the association has one, {wpart} "partition=P" or
 * "partition=" (a where clause: only the association without partition),
 * {assoc} the association's
 * where clause, {clears} clearlimit's "key=-1" words; any other {key} is
 * the value of that argument. -1 (err set when it says more than "too
 * long") when it does not fit.
 */
static int
add_word(struct sq_cli_cmd *c, const char *w, struct argv_ctx *x,
	 struct sq_err *err)
{
	const struct sq_action *a = x->a;
	const char *open = strchr(w, '{'), *v;
	char name[16];
	size_t pl, k;
	int n;

	if (open == NULL)
		return add(c, "%s", w);
	pl = (size_t)(open - w);
	sq_util_copy(name, sizeof(name), open + 1);
	name[strcspn(name, "}")] = '\0';
	if (strcmp(name, "list") == 0)
		return add_list(c, w, pl, a);
	if (strcmp(name, "targets") == 0) {
		for (k = 0; k < a->ntargets; k++) {
			if (add(c, "%s", a->targets[k]) == -1)
				return -1;
		}
		return 0;
	}
	if (strcmp(name, "args") == 0 || strcmp(name, "flags") == 0 ||
	    strcmp(name, "values") == 0)
		return add_args(c, a, name[0]);
	if (strcmp(name, "partition") == 0)
		return x->part[0] ? add(c, "partition=%s", x->part) : 0;
	if (strcmp(name, "wpart") == 0)
		return add(c, "partition=%s", x->part);
	if (strcmp(name, "assoc") == 0)
		return add_assoc(c, x);
	if (strcmp(name, "clears") == 0) {
		n = add_clears(c, x, err);
		x->drop = n == 0;
		return n == -1 ? -1 : 0;
	}
	v = strcmp(name, "t") == 0      ? a->targets[x->i]
	    : strcmp(name, "acc") == 0  ? x->acc
	    : strcmp(name, "user") == 0 ? x->user
					: sq_action_arg(a, name);
	return v != NULL ? add(c, "%.*s%s", (int)pl, w, v) : -1;
}

/*
 * The argv templates: one row per action kind that runs a Slurm command,
 * one command for all the targets, or (EACH) one per target. The words
 * are filled by add_word(). sacctmgr always runs with -i (no question).
 */
#define ARGV_WORDS 10
struct argv_row {
	enum sq_action_type type;
	int each;
	const char *argv[ARGV_WORDS];
};

#define ALL 0
#define EACH 1
#define SACCTMGR "sacctmgr", "-i"
#define NODE_UPDATE "scontrol", "update", "nodename={list}"

static const struct argv_row argv_rows[] = {
	/* every runaway job of the cluster; -i answers its question yes
	 * (runaway.c checks that the list holds only the targets) */
	{ SQ_ACTION_RUNAWAY_FIX,
	  ALL,
	  { SACCTMGR, "-n", "-P", "show", "runawayjobs",
	    "format=ID,Cluster,Partition,State,Submit,Start,End,Name" } },
	{ SQ_ACTION_JOB_CANCEL, ALL, { "scancel", "{targets}" } },
	{ SQ_ACTION_JOB_SIGNAL,
	  ALL,
	  { "scancel", "--full", "--signal={sig}", "{targets}" } },
	{ SQ_ACTION_JOB_HOLD, ALL, { "scontrol", "hold", "{list}" } },
	{ SQ_ACTION_JOB_RELEASE, ALL, { "scontrol", "release", "{list}" } },
	{ SQ_ACTION_JOB_REQUEUE, ALL, { "scontrol", "requeue", "{list}" } },
	{ SQ_ACTION_JOB_REQUEUE_HOLD,
	  ALL,
	  { "scontrol", "requeuehold", "{list}" } },
	{ SQ_ACTION_JOB_SUSPEND, ALL, { "scontrol", "suspend", "{list}" } },
	{ SQ_ACTION_JOB_RESUME, ALL, { "scontrol", "resume", "{list}" } },
	{ SQ_ACTION_JOB_UPDATE,
	  ALL,
	  { "scontrol", "update", "jobid={list}", "{args}" } },
	{ SQ_ACTION_NODE_DRAIN, ALL, { NODE_UPDATE, "state=drain", "{args}" } },
	{ SQ_ACTION_NODE_DOWN, ALL, { NODE_UPDATE, "state=down", "{args}" } },
	{ SQ_ACTION_NODE_RESUME,
	  ALL,
	  { NODE_UPDATE, "state=resume", "{args}" } },
	{ SQ_ACTION_NODE_REASON, ALL, { NODE_UPDATE, "{args}" } },
	{ SQ_ACTION_NODE_REBOOT,
	  ALL,
	  { "scontrol", "reboot", "{flags}", "{values}", "{list}" } },
	{ SQ_ACTION_NODE_CANCEL_REBOOT,
	  ALL,
	  { "scontrol", "cancel_reboot", "{list}" } },
	{ SQ_ACTION_ACCT_ADD_ACCOUNT,
	  EACH,
	  { SACCTMGR, "add", "account", "{t}", "{args}" } },
	{ SQ_ACTION_ACCT_MODIFY_ACCOUNT,
	  EACH,
	  { SACCTMGR, "modify", "account", "where", "name={t}", "set",
	    "{args}" } },
	{ SQ_ACTION_ACCT_DELETE_ACCOUNT,
	  EACH,
	  { SACCTMGR, "delete", "account", "where", "name={t}" } },
	{ SQ_ACTION_ACCT_ADD_COORD,
	  EACH,
	  { SACCTMGR, "add", "coordinator", "account={t}", "{args}" } },
	{ SQ_ACTION_ACCT_DEL_COORD,
	  EACH,
	  { SACCTMGR, "remove", "coordinator", "account={t}", "{args}" } },
	{ SQ_ACTION_ACCT_ADD_USER,
	  EACH,
	  { SACCTMGR, "add", "user", "{user}", "account={acc}", "{partition}",
	    "{args}" } },
	{ SQ_ACTION_ACCT_REMOVE_USER,
	  EACH,
	  { SACCTMGR, "delete", "user", "where", "name={user}", "account={acc}",
	    "{wpart}" } },
	{ SQ_ACTION_ACCT_MODIFY_USER,
	  EACH,
	  { SACCTMGR, "modify", "user", "where", "name={t}", "set",
	    "{args}" } },
	{ SQ_ACTION_ACCT_SET_LIMIT,
	  EACH,
	  { SACCTMGR, "modify", "{assoc}", "set", "{args}" } },
	{ SQ_ACTION_ACCT_CLEAR_LIMIT,
	  EACH,
	  { SACCTMGR, "modify", "{assoc}", "set", "{clears}" } },
	{ SQ_ACTION_QOS_SET,
	  EACH,
	  { SACCTMGR, "modify", "qos", "where", "name={t}", "set", "{args}" } },
	{ SQ_ACTION_RESV_CREATE,
	  EACH,
	  { "scontrol", "create", "reservation", "ReservationName={t}",
	    "{args}" } },
	{ SQ_ACTION_RESV_UPDATE,
	  EACH,
	  { "scontrol", "update", "ReservationName={t}", "{args}" } },
	{ SQ_ACTION_RESV_DELETE,
	  EACH,
	  { "scontrol", "delete", "ReservationName={t}" } },
	{ SQ_ACTION_QOS_ADD,
	  EACH,
	  { SACCTMGR, "add", "qos", "{t}", "{args}" } },
	{ SQ_ACTION_QOS_DELETE,
	  EACH,
	  { SACCTMGR, "delete", "qos", "where", "name={t}" } },
};

/* The command of row for target x->i (SQ_CLI_ALL_TARGETS: all) at the
 * end of out; none when {clears} has nothing to clear. */
static int
add_cmd(struct sq_cli_cmds *out, const struct argv_row *row, size_t target,
	struct argv_ctx *x, struct sq_err *err)
{
	struct sq_cli_cmd *c = new_cmd(out, target);
	int k;

	if (c == NULL)
		return -1;
	x->drop = 0;
	for (k = 0; k < ARGV_WORDS && row->argv[k] != NULL; k++) {
		if (add_word(c, row->argv[k], x, err) == -1)
			return -1;
	}
	if (x->drop) {
		for (k = 0; k < c->argc; k++)
			free(c->argv[k]);
		out->n--;
	}
	return 0;
}

int
sq_cli_action_cmds(const struct sq_action *a, sq_cli_lookup_fn lookup,
		   void *ctx, struct sq_cli_cmds *out, struct sq_err *err)
{
	const struct argv_row *row = NULL;
	struct argv_ctx x;
	struct sq_err e;
	size_t i;

	out->v = NULL;
	out->n = 0;
	if (a == NULL || a->def == NULL || a->ntargets == 0)
		return sq_err_set(err, SQ_ERR_USAGE, "no action or targets");
	for (i = 0; i < sizeof(argv_rows) / sizeof(argv_rows[0]); i++) {
		if (argv_rows[i].type == a->type)
			row = &argv_rows[i];
	}
	if (row == NULL)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "%s has no Slurm command line here",
				  a->def->name);
	memset(&x, 0, sizeof(x));
	x.a = a;
	x.lookup = lookup;
	x.lctx = ctx;
	sq_err_clear(&e);
	for (i = 0; i < (row->each ? a->ntargets : 1); i++) {
		x.i = i;
		if (a->def->kind == SQ_KIND_ASSOCS &&
		    sq_action_assoc_split(a->targets[i], x.acc, x.user,
					  x.part) == -1) {
			sq_cli_cmds_free(out);
			return sq_err_set(err, SQ_ERR_USAGE,
					  "bad association %.60s",
					  a->targets[i]);
		}
		if (add_cmd(out, row, row->each ? i : SQ_CLI_ALL_TARGETS, &x,
			    &e) == -1) {
			sq_cli_cmds_free(out);
			if (e.code != SQ_OK)
				return sq_err_set(err, e.code, "%s", e.msg);
			return sq_err_set(err, SQ_ERR_SYSTEM,
					  "command line too long");
		}
	}
	return 0;
}

/* A word that a POSIX shell reads as itself. */
static int
shell_plain(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("_-.,/:=+@%", c)))
			return 0;
	}
	return 1;
}

static int
fmt_word(struct sq_buf *b, const char *w)
{
	const char *eq = strchr(w, '=');

	if (shell_plain(w, strlen(w)))
		return sq_buf_append(b, w, strlen(w));
	if (eq != NULL && eq != w && shell_plain(w, (size_t)(eq - w) + 1)) {
		if (sq_buf_append(b, w, (size_t)(eq - w) + 1) == -1)
			return -1;
		return sq_shell_quote(b, eq + 1);
	}
	return sq_shell_quote(b, w);
}

int
sq_cli_cmds_format(const struct sq_cli_cmds *c, char *buf, size_t n)
{
	struct sq_buf b;
	size_t i;
	int k, rc = 0;

	sq_buf_init(&b, 0);
	for (i = 0; i < c->n; i++) {
		if (i)
			rc |= sq_buf_append(&b, "\n", 1);
		for (k = 0; k < c->v[i].argc; k++) {
			if (k)
				rc |= sq_buf_append(&b, " ", 1);
			rc |= fmt_word(&b, c->v[i].argv[k]);
		}
	}
	if (rc == 0 && b.len < n)
		memcpy(buf, sq_buf_str(&b), b.len + 1);
	else if (n > 0) {
		rc = -1;
		sq_util_copy(buf, n, sq_buf_str(&b));
		if (n > 4)
			memcpy(buf + n - 4, "...", 4);
	}
	sq_buf_free(&b);
	return rc ? -1 : 0;
}
