/*
 * actions.c - actions through the Slurm CLI: argv for scancel, scontrol
 * and sacctmgr -i (never a shell, never without -i), the preview line,
 * and act(): read the targets, run, read them again, verify and build the
 * inverse. Every command goes through sq_cli_run(), so the local and the
 * ssh transports behave the same. Values were validated by core/action.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/actions.h"
#include "core/action_policy.h"
#include "core/buf.h"
#include "core/util.h"
#include "core/validate.h"

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
 * "user where name=U account=A [partition=P]". */
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
		       (x->part[0] && add(c, "partition=%s", x->part) == -1)
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
 * "partition=P" when the association has one, {assoc} the association's
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
	    "{partition}" } },
	{ SQ_ACTION_ACCT_SET_LIMIT,
	  EACH,
	  { SACCTMGR, "modify", "{assoc}", "set", "{args}" } },
	{ SQ_ACTION_ACCT_CLEAR_LIMIT,
	  EACH,
	  { SACCTMGR, "modify", "{assoc}", "set", "{clears}" } },
	{ SQ_ACTION_QOS_SET,
	  EACH,
	  { SACCTMGR, "modify", "qos", "where", "name={t}", "set", "{args}" } },
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

/* --- describe and act ---------------------------------------------------- */

struct lookup_ctx {
	const struct sq_cli_state *st;
};

static const char *
state_lookup(void *ctx, size_t i, const char *key)
{
	struct lookup_ctx *l = ctx;

	if (l->st == NULL || i >= l->st->n || !l->st->rec[i].found)
		return NULL;
	return sq_cli_rec_get(&l->st->rec[i], key);
}

static int
needs_state_for_cmds(const struct sq_action *a)
{
	return a->type == SQ_ACTION_ACCT_CLEAR_LIMIT;
}

static void
prefix(struct sq_backend *b, char *buf, size_t len, size_t *off)
{
	int w;

	*off = 0;
	if (b == NULL || b->ops == NULL || strcmp(b->ops->name, "ssh") != 0)
		return;
	w = snprintf(buf, len, "[ssh %s%s%s] ", b->cfg.user,
		     b->cfg.user[0] ? "@" : "", b->cfg.host);
	if (w > 0 && (size_t)w < len)
		*off = (size_t)w;
}

int
sq_cli_describe(struct sq_backend *b, const struct sq_action *a, char *buf,
		size_t len)
{
	struct sq_cli_cmds cmds;
	struct sq_cli_state st;
	struct lookup_ctx l = { NULL };
	struct sq_err err;
	size_t off;
	int rc;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return sq_cli_submit_describe(b, a, buf, len);
	memset(&st, 0, sizeof(st));
	if (needs_state_for_cmds(a) && b != NULL && b->priv != NULL &&
	    sq_cli_read_state(b->priv, a, &st, &err) == 0)
		l.st = &st;
	rc = sq_cli_action_cmds(a, state_lookup, &l, &cmds, &err);
	sq_cli_state_free(&st);
	if (rc == -1) {
		snprintf(buf, len, "(%s)", err.msg);
		return -1;
	}
	prefix(b, buf, len, &off);
	if (cmds.n == 0)
		snprintf(buf + off, len - off,
			 "(nothing to do: no such limit "
			 "is set)");
	else
		sq_cli_cmds_format(&cmds, buf + off, len - off);
	sq_cli_cmds_free(&cmds);
	return 0;
}

/* From sq_cli_run's "X exited with status N: text": N and the text
 * as Slurm wrote it; stdout's first line when stderr was empty. */
static int
split_error(const char *msg, const char *out, char *text, size_t n)
{
	const char *p = strstr(msg, " exited with status ");
	int status = 1;

	if (p != NULL) {
		status = atoi(p + 20);
		p = strstr(p, ": ");
	}
	if (p != NULL) {
		sq_util_copy(text, n, p + 2);
	} else if (out != NULL && *out != '\0') {
		size_t k;

		while (*out == ' ' || *out == '\n')
			out++;
		k = strcspn(out, "\n");
		if (k >= n)
			k = n - 1;
		memcpy(text, out, k);
		text[k] = '\0';
		if (text[0] == '\0')
			sq_util_copy(text, n, msg);
	} else {
		sq_util_copy(text, n, msg);
	}
	return status;
}

/* Does a Slurm error line name this target (job id, node)? */
static int
names_target(const char *text, const char *t)
{
	const char *p = text;
	size_t n = strlen(t);

	while ((p = strstr(p, t)) != NULL) {
		char before = p == text ? ' ' : p[-1];
		char after = p[n];

		if ((before == ' ' || before == '=' || before == ',') &&
		    (after == '\0' || after == ':' || after == ' ' ||
		     after == ','))
			return 1;
		p += n;
	}
	return 0;
}

/* The inverse of what was done: only the targets that succeeded. */
static void
inverse_of_done(const struct sq_action *a, struct sq_result *res,
		const struct sq_cli_state *before)
{
	struct sq_action done;
	struct sq_cli_state sub;
	size_t i;

	res->inverse[0] = '\0';
	sq_action_init(&done, a->type);
	memset(&sub, 0, sizeof(sub));
	sub.rec = calloc(a->ntargets ? a->ntargets : 1, sizeof(*sub.rec));
	if (sub.rec == NULL)
		return;
	sub.ok = 1;
	for (i = 0; i < a->nargs; i++) {
		char key[64];
		size_t kl = strcspn(a->args[i], "=");

		if (kl >= sizeof(key))
			continue;
		memcpy(key, a->args[i], kl);
		key[kl] = '\0';
		sq_action_set_arg(&done, key, a->args[i] + kl + 1, NULL);
	}
	for (i = 0; i < a->ntargets && i < res->ntargets; i++) {
		if (!res->targets[i].ok ||
		    sq_action_add_target(&done, a->targets[i], NULL) == -1)
			continue;
		sub.rec[sub.n++] = before->rec[i]; /* shallow: not freed */
	}
	if (done.ntargets > 0 && done.ntargets == sub.n)
		sq_cli_inverse(&done, &sub, res->inverse, sizeof(res->inverse));
	free(sub.rec);
	sq_action_free(&done);
}

int
sq_cli_act(struct sq_backend *b, const struct sq_action *a,
	   struct sq_result *res, struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	struct sq_cli_cmds cmds = { NULL, 0 };
	struct sq_cli_state before, after;
	struct lookup_ctx l;
	char all_err[512] = "";
	int all_status = 0, tries, rc = -1;
	size_t i;
	double t0 = sq_util_now_ms();

	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return sq_cli_submit_act(b, a, res, err);
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	sq_result_free(res);
	sq_result_init(res);
	if (sq_result_targets(res, a) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	/* the state before: for the inverse, for requeue, for clearlimit */
	if (sq_cli_read_state(cli, a, &before, err) == -1)
		before.ok = 0;
	l.st = &before;
	if (sq_cli_action_cmds(a, state_lookup, &l, &cmds, err) == -1)
		goto out;
	for (i = 0; i < cmds.n; i++) {
		struct sq_buf out;
		struct sq_err e;
		char text[300];
		int status = 0;

		sq_buf_init(&out, SQ_CLI_ERR_LIMIT);
		sq_err_clear(&e);
		if (sq_cli_run(cli, (const char *const *)cmds.v[i].argv, &out,
			       &e) == -1) {
			if (e.code == SQ_ERR_COMMAND &&
			    strstr(e.msg, " exited with status ") != NULL) {
				status = split_error(e.msg, sq_buf_str(&out),
						     text, sizeof(text));
			} else {
				status = 255;
				sq_util_copy(text, sizeof(text), e.msg);
			}
			if (cmds.v[i].target == SQ_CLI_ALL_TARGETS) {
				size_t k;

				sq_util_copy(all_err, sizeof(all_err), text);
				/* the message goes to the targets it names */
				for (k = 0; k < res->ntargets; k++) {
					if (names_target(
						text, res->targets[k].target))
						sq_util_copy(
						    res->targets[k].message,
						    sizeof(res->targets[k]
							       .message),
						    text);
				}
			} else if (cmds.v[i].target < res->ntargets) {
				sq_util_copy(
				    res->targets[cmds.v[i].target].message,
				    sizeof(res->targets[0].message), text);
				res->targets[cmds.v[i].target].ok = -1;
				if (all_err[0] == '\0')
					sq_util_copy(all_err, sizeof(all_err),
						     text);
			}
			all_status = status;
		}
		sq_buf_free(&out);
	}
	res->status = all_status;
	/* read back until the effect shows (state changes such as requeue
	 * pass through COMPLETING) */
	for (tries = 0; tries < SQ_VERIFY_TRIES; tries++) {
		size_t bad = 0;

		sq_action_verify_wait(tries);
		sq_cli_state_free(&after);
		if (sq_cli_read_state(cli, a, &after, err) == -1)
			continue;
		for (i = 0; i < res->ntargets; i++) {
			char msg[256];
			int v = sq_cli_verify(a, i,
					      before.ok ? &before.rec[i] : NULL,
					      &after.rec[i], msg, sizeof(msg));

			res->targets[i].verified = v;
			if (v == SQ_VERIFY_FAILED)
				bad++;
			if (v == SQ_VERIFY_FAILED &&
			    res->targets[i].message[0] == '\0' &&
			    all_err[0] != '\0')
				/* the command failed: Slurm's words */
				sq_util_copy(res->targets[i].message,
					     sizeof(res->targets[i].message),
					     all_err);
			else if (res->targets[i].ok != -1 &&
				 (res->targets[i].message[0] == '\0' ||
				  v != SQ_VERIFY_FAILED))
				sq_util_copy(res->targets[i].message,
					     sizeof(res->targets[i].message),
					     msg);
		}
		if (bad == 0 || all_status != 0)
			break;
	}
	res->nfailed = 0;
	for (i = 0; i < res->ntargets; i++) {
		struct sq_target_result *t = &res->targets[i];

		if (!after.ok && t->ok != -1 && all_status == 0) {
			/* could not read back: accepted, unchecked */
			t->verified = SQ_VERIFY_UNCHECKED;
			snprintf(t->message, sizeof(t->message),
				 "done; could not re-read: %.200s",
				 after.error);
		}
		t->ok = t->verified != SQ_VERIFY_FAILED && t->ok != -1 &&
			!(all_status != 0 && t->verified != SQ_VERIFY_OK);
		if (!t->ok && t->message[0] == '\0')
			sq_util_copy(t->message, sizeof(t->message),
				     all_err[0] ? all_err : "failed");
		if (!t->ok)
			res->nfailed++;
	}
	if (before.ok)
		inverse_of_done(a, res, &before);
	if (res->nfailed == 0) {
		snprintf(
		    res->message, sizeof(res->message), "%s: %zu of %zu done%s",
		    a->def->name, res->ntargets, res->ntargets,
		    res->targets[0].verified == SQ_VERIFY_OK ? " and verified"
							     : "");
		rc = 0;
	} else {
		const char *why = all_err[0] ? all_err : NULL;

		for (i = 0; why == NULL && i < res->ntargets; i++) {
			if (!res->targets[i].ok)
				why = res->targets[i].message;
		}
		snprintf(res->message, sizeof(res->message),
			 "%s: %zu of %zu failed: %s", a->def->name,
			 res->nfailed, res->ntargets, why ? why : "failed");
		sq_err_set(err, SQ_ERR_COMMAND, "%s", res->message);
		if (res->status == 0)
			res->status = 1;
	}
out:
	if (rc == -1 && res->message[0] == '\0')
		sq_util_copy(res->message, sizeof(res->message),
			     err ? err->msg : "failed");
	sq_cli_cmds_free(&cmds);
	sq_cli_state_free(&before);
	sq_cli_state_free(&after);
	res->ms = sq_util_now_ms() - t0;
	return rc;
}
