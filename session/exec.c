/*
 * exec.c - one action end to end (policy, preview, audit, act, verify,
 * audit) for batch mode and the TUI worker, and `squall --exec`. Library
 * functions here never print; only sq_exec_main() (batch) writes to
 * stdout/stderr and the terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action_policy.h"
#include "core/action/audit.h"
#include "core/base/sanitize.h"
#include "core/base/util.h"
#include "session/exec.h"
#include "session/impact.h"

/* describe() of a, with what the check read of its targets (NULL: the
 * backend reads what it needs) */
static int
describe_read(struct sq_backend *b, const struct sq_action *a,
	      const struct sq_targets_read *read, char *buf, size_t n,
	      struct sq_err *err)
{
	if (n > 0)
		buf[0] = '\0';
	if (b->ops->describe == NULL || b->ops->act == NULL)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s backend cannot run actions",
				  b->ops->name);
	if (b->ops->describe(b, a, read, buf, n) == -1)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED, "%s",
				  buf[0] ? buf
					 : "the backend cannot do this action");
	return 0;
}

int
sq_exec_describe(struct sq_backend *b, const struct sq_action *a, char *buf,
		 size_t n, struct sq_err *err)
{
	return describe_read(b, a, NULL, buf, n, err);
}

void
sq_exec_refused(struct sq_audit *au, const struct sq_cluster_cfg *cfg,
		const char *backend, const struct sq_action *a,
		const char *command, const char *why)
{
	struct sq_audit_rec r;
	char id[64];

	if (au == NULL || au->fd == -1)
		return;
	memset(&r, 0, sizeof(r));
	sq_audit_new_id(au, id, sizeof(id));
	r.event = "refused";
	r.id = id;
	r.cluster = cfg ? cfg->name : NULL;
	r.backend = backend;
	r.action = a;
	r.command = command;
	r.message = why;
	sq_audit_append(au, &r, NULL);
}

/* --- the targets before the action ------------------------------------- */

void
sq_exec_check_free(struct sq_exec_check *c)
{
	free(c->keep);
	free(c->st);
	sq_targets_read_free(c->before);
	memset(c, 0, sizeof(*c));
}

int
sq_exec_check(struct sq_backend *b, const struct sq_action *a,
	      struct sq_exec_check *c)
{
	struct sq_err e;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->n = a->ntargets;
	c->keep = malloc(c->n ? c->n : 1);
	c->st = calloc(c->n ? c->n : 1, sizeof(*c->st));
	if (c->keep == NULL || c->st == NULL) {
		sq_exec_check_free(c);
		return -1;
	}
	memset(c->keep, 1, c->n ? c->n : 1);
	c->nrun = c->n;
	/* new names (addaccount, submit) do not exist yet, by design */
	if ((a->def->flags & SQ_ACT_CREATES) || b->ops->read_targets == NULL)
		return 0;
	sq_err_clear(&e);
	if (b->ops->read_targets(b, a, c->st, &c->before, &e) == -1) {
		/* not read: the action runs, the backend verifies it */
		sq_util_copy(c->note, sizeof(c->note), e.msg);
		return 0;
	}
	c->read = 1;
	for (i = 0; i < c->n; i++) {
		if (!c->st[i].found) {
			c->keep[i] = 0;
			c->nmissing++;
		} else if (!sq_action_applies(a->def, c->st[i].state)) {
			c->keep[i] = 0;
			c->nskipped++;
		}
	}
	c->nrun = c->n - c->nmissing - c->nskipped;
	return 0;
}

/* Why target i is left out, into buf. */
static void
left_out(const struct sq_action *a, const struct sq_exec_check *c, size_t i,
	 char *buf, size_t n)
{
	char states[128];

	if (!c->st[i].found) {
		snprintf(buf, n, "not found (no such %s)",
			 a->def->kind == SQ_KIND_JOBS    ? "job"
			 : a->def->kind == SQ_KIND_NODES ? "node"
							 : "record");
		return;
	}
	sq_action_states_text(a->def, states, sizeof(states));
	snprintf(buf, n, "skipped: %s (%s applies to %s)", c->st[i].state,
		 a->def->name, states);
}

/* "1 not found, 2 skipped (not PENDING)" */
static void
left_out_counts(const struct sq_action *a, const struct sq_exec_check *c,
		char *buf, size_t n)
{
	char states[128];
	size_t off = 0;

	buf[0] = '\0';
	if (c->nmissing > 0)
		off = (size_t)snprintf(buf, n, "%zu not found", c->nmissing);
	if (c->nskipped > 0 && off < n) {
		sq_action_states_text(a->def, states, sizeof(states));
		snprintf(buf + off, n - off, "%s%zu skipped (%s applies to %s)",
			 off ? ", " : "", c->nskipped, a->def->name, states);
	}
}

int
sq_exec_preview(struct sq_backend *b, const struct sq_action *a, char *buf,
		size_t n, size_t *nrun, struct sq_err *err)
{
	struct sq_exec_check c;
	struct sq_action sub;
	size_t i, off;
	int rc = 0;

	*nrun = a->ntargets;
	if (sq_exec_check(b, a, &c) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	*nrun = c.nrun;
	/* describe() takes the targets as the check read them (cut down to
	 * those kept) */
	if (c.nrun == c.n) {
		rc = describe_read(b, a, c.before, buf, n, err);
	} else if (c.nrun > 0) {
		if (sq_action_subset(a, c.keep, &sub, err) == -1) {
			sq_exec_check_free(&c);
			return -1;
		}
		sq_targets_read_cut(c.before, c.keep);
		rc = describe_read(b, &sub, c.before, buf, n, err);
		sq_action_free(&sub);
	} else if (n > 0) {
		snprintf(buf, n, "nothing to run:");
	}
	for (i = 0; rc == 0 && i < c.n; i++) {
		char why[256];

		if (c.keep[i])
			continue;
		left_out(a, &c, i, why, sizeof(why));
		off = strlen(buf);
		snprintf(buf + off, n - off, "%s%s %s", off ? "\n" : "",
			 a->targets[i], why);
	}
	sq_exec_check_free(&c);
	return rc;
}

/* Run a on the targets c keeps, handing act() c's read of them (cut
 * down to those); the others are reported in res. */
static int
act_checked(struct sq_backend *b, const struct sq_action *a,
	    struct sq_exec_check *c, struct sq_result *res, struct sq_err *err)
{
	struct sq_result sr;
	struct sq_action sub;
	char counts[256];
	size_t i, k = 0, done = 0;
	int rc = -1, verified = 0;

	if (c->nrun == c->n)
		return b->ops->act(b, a, c->before, res, err);
	if (sq_result_targets(res, a) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	sq_result_init(&sr);
	if (c->nrun > 0) {
		if (sq_action_subset(a, c->keep, &sub, err) == -1)
			return -1;
		sq_targets_read_cut(c->before, c->keep);
		rc = b->ops->act(b, &sub, c->before, &sr, err);
		sq_action_free(&sub);
	}
	for (i = 0; i < c->n; i++) {
		struct sq_target_result *t = &res->targets[i];

		if (!c->keep[i]) {
			t->ok = 0;
			t->verified = SQ_VERIFY_UNCHECKED;
			left_out(a, c, i, t->message, sizeof(t->message));
		} else if (k < sr.ntargets) {
			*t = sr.targets[k++];
			done += t->ok != 0;
			verified |= t->verified == SQ_VERIFY_OK;
		}
		res->nfailed += !t->ok;
	}
	res->status = sr.status;
	memcpy(res->inverse, sr.inverse, sizeof(res->inverse));
	memcpy(res->created, sr.created, sizeof(res->created));
	left_out_counts(a, c, counts, sizeof(counts));
	if (c->nrun > 0 && rc != 0)
		snprintf(res->message, sizeof(res->message), "%.700s; %s",
			 sr.message, counts);
	else
		snprintf(res->message, sizeof(res->message),
			 "%s: %zu of %zu done%s; %s", a->def->name, done, c->n,
			 verified ? " and verified" : "", counts);
	sq_result_free(&sr);
	sq_err_set(err, SQ_ERR_COMMAND, "%s", res->message);
	return -1;
}

int
sq_exec_run(struct sq_backend *b, struct sq_audit *au,
	    const struct sq_action *a, int readonly, const char *command,
	    struct sq_result *res, struct sq_err *err)
{
	struct sq_audit_rec r;
	struct sq_exec_check c;
	char id[64], desc[8192], running[1024];
	int rc;

	sq_result_free(res);
	sq_result_init(res);
	if (sq_action_policy_check(a, readonly || b->cfg.readonly, err) == -1) {
		sq_exec_refused(au, &b->cfg, b->ops->name, a, command,
				err->msg);
		snprintf(res->message, sizeof(res->message), "%s", err->msg);
		return -1;
	}
	if (command == NULL) {
		if (sq_exec_describe(b, a, desc, sizeof(desc), err) == -1) {
			sq_exec_refused(au, &b->cfg, b->ops->name, a, NULL,
					err->msg);
			snprintf(res->message, sizeof(res->message), "%s",
				 err->msg);
			return -1;
		}
		command = desc;
	}
	if (b->ops->act == NULL) {
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "the %s backend cannot run actions", b->ops->name);
		sq_exec_refused(au, &b->cfg, b->ops->name, a, command,
				err->msg);
		return -1;
	}
	memset(&r, 0, sizeof(r));
	sq_audit_new_id(au, id, sizeof(id));
	r.event = "intent";
	r.id = id;
	r.cluster = b->cfg.name;
	r.backend = b->ops->name;
	r.action = a;
	r.command = command;
	/* a node drain, down or reboot: what runs there now */
	if (sq_impact_fetch(b, a, NULL, running, sizeof(running)) >= 0)
		r.running = running;
	if (sq_audit_append(au, &r, err) == -1) {
		char why[600];

		snprintf(why, sizeof(why),
			 "not run: the audit log cannot be written (%.500s)",
			 err->msg);
		sq_err_set(err, SQ_ERR_SYSTEM, "%s", why);
		snprintf(res->message, sizeof(res->message), "%s", why);
		return -1;
	}
	/* the same read before for every backend: a target that does not
	 * exist, or is in a state the action does not apply to, is left
	 * out and reported; act() takes this read as its state before, so
	 * the targets are read once before and then only to verify */
	if (sq_exec_check(b, a, &c) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		rc = -1;
	} else {
		rc = act_checked(b, a, &c, res, err);
		sq_exec_check_free(&c);
	}
	if (rc == -1 && res->message[0] == '\0')
		snprintf(res->message, sizeof(res->message), "%s", err->msg);
	r.event = "result";
	r.result = res;
	if (sq_audit_append(au, &r, NULL) == -1) {
		size_t l = strlen(res->message);

		snprintf(res->message + l, sizeof(res->message) - l,
			 " (the audit log could not be written)");
	}
	return rc;
}

/* --- batch: squall --exec ------------------------------------------------ */

/* Read one answer line from the terminal; "" on EOF. */
static int
ask(FILE *tty, const char *prompt, char *buf, size_t n)
{
	fputs(prompt, tty);
	fflush(tty);
	if (fgets(buf, (int)n, tty) == NULL) {
		buf[0] = '\0';
		return -1;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

static void
print_safe(FILE *fp, const char *s)
{
	char safe[2048];

	sq_sanitize(s, safe, sizeof(safe));
	fputs(safe, fp);
}

/* Each line of s, sanitized, after prefix. */
static void
print_lines(FILE *fp, const char *prefix, const char *s)
{
	char line[2048];

	while (*s != '\0') {
		size_t l = strcspn(s, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)l, s);
		fputs(prefix, fp);
		print_safe(fp, line);
		fputc('\n', fp);
		s += l;
		if (*s == '\n')
			s++;
	}
}

/* The audit entry of a's result, for its undo label. */
static void
undo_entry(const struct sq_action *a, const char *inverse,
	   struct sq_audit_entry *e)
{
	size_t i, off;

	memset(e, 0, sizeof(*e));
	snprintf(e->action, sizeof(e->action), "%s", a->def->name);
	for (i = 0, off = 0; i < a->ntargets && off < sizeof(e->targets); i++)
		off +=
		    (size_t)snprintf(e->targets + off, sizeof(e->targets) - off,
				     "%s%s", i ? "," : "", a->targets[i]);
	for (i = 0, off = 0; i < a->nargs && off < sizeof(e->args); i++)
		off += (size_t)snprintf(e->args + off, sizeof(e->args) - off,
					"%s%s", i ? "," : "", a->args[i]);
	snprintf(e->inverse, sizeof(e->inverse), "%s", inverse);
}

/* When a is the undo the audit log offers last on this cluster, say so
 * and of what, before its preview. */
static void
say_undo_of(const struct sq_action *a, const char *cluster)
{
	struct sq_audit_undo u;
	struct sq_err err;
	char line[1024];

	if (sq_action_format(a, line, sizeof(line)) == -1 ||
	    sq_audit_last_undo(NULL, NULL, cluster, &u, &err) == -1 ||
	    u.inverse[0] == '\0')
		return;
	if (strncmp(u.inverse, line, strlen(line)) == 0 &&
	    (u.inverse[strlen(line)] == '\0' ||
	     u.inverse[strlen(line)] == '\n')) {
		print_safe(stdout, u.label);
		fputc('\n', stdout);
	}
}

/* The preview's impact (session/impact.c), when there is one. */
static void
print_impact(struct sq_backend *b, const struct sq_action *a)
{
	struct sq_buf hit;
	char sum[16];

	sq_buf_init(&hit, 0);
	if (sq_impact_fetch(b, a, &hit, sum, sizeof(sum)) >= 0)
		fputs(sq_buf_str(&hit), stdout);
	sq_buf_free(&hit);
}

/* Ask on the terminal: the count of a bulk action's targets, then y. 0
 * to run it, -1 (said why on stderr) not. */
static int
confirm(const struct sq_action *a)
{
	FILE *tty = fopen("/dev/tty", "r+");
	char prompt[128], answer[64];

	if (tty == NULL) {
		fprintf(stderr, "squall: no terminal to confirm on; "
				"add --yes to run it from a script\n");
		return -1;
	}
	if (sq_action_needs_count(a)) {
		snprintf(prompt, sizeof(prompt),
			 "This acts on %zu targets. Type %zu to "
			 "confirm: ",
			 a->ntargets, a->ntargets);
		ask(tty, prompt, answer, sizeof(answer));
		if (!sq_action_count_confirmed(a, answer)) {
			fclose(tty);
			fprintf(stderr, "squall: not confirmed; "
					"nothing was run\n");
			return -1;
		}
	}
	ask(tty, "Run it? [y/N] ", answer, sizeof(answer));
	fclose(tty);
	if (!sq_action_answer_yes(answer)) {
		fprintf(stderr, "squall: nothing was run\n");
		return -1;
	}
	return 0;
}

/* What ran: a line per target, the result line (stderr when rc is not
 * 0), then the undo lines, each labelled with its own targets and
 * values. */
static void
print_result(const struct sq_action *a, const struct sq_result *res, int rc)
{
	struct sq_audit_entry e;
	char label[512];
	const char *p;
	size_t i, k;

	for (i = 0; i < res->ntargets; i++) {
		const struct sq_target_result *t = &res->targets[i];

		printf("%s ", t->ok ? "ok  " : "FAIL");
		print_safe(stdout, t->target);
		fputs(": ", stdout);
		print_safe(stdout, t->message);
		fputc('\n', stdout);
	}
	print_safe(rc == 0 ? stdout : stderr, res->message);
	fputc('\n', rc == 0 ? stdout : stderr);
	if (res->inverse[0] == '\0')
		return;
	print_lines(stdout, "undo: ", res->inverse);
	undo_entry(a, res->inverse, &e);
	snprintf(e.ok, sizeof(e.ok), "%s", rc == 0 ? "true" : "false");
	for (p = res->inverse, k = 0; *p != '\0'; k++) {
		sq_audit_undo_label_line(&e, k, label, sizeof(label));
		fputs("  (", stdout);
		print_safe(stdout, label);
		fputs(")\n", stdout);
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
}

int
sq_exec_main(const struct sq_cluster_cfg *cfg, const struct sq_reasons *reasons,
	     const char *line, int yes)
{
	struct sq_action a;
	struct sq_audit au;
	struct sq_backend *b = NULL;
	struct sq_result res;
	struct sq_err err;
	char desc[8192];
	int rc = 1, audit_ok;
	size_t nrun = 0;

	sq_err_clear(&err);
	sq_result_init(&res);
	audit_ok = sq_audit_open(&au, NULL, &err) == 0;
	if (!audit_ok) {
		fprintf(stderr, "squall: %s\n", err.msg);
		fprintf(stderr, "squall: no action runs without its audit "
				"log\n");
		return 1;
	}
	if (sq_action_parse_with(line, -1, NULL, 0, reasons, &a, &err) == -1) {
		fprintf(stderr, "squall: --exec: %s\n", err.msg);
		if (err.code == SQ_ERR_DENIED)
			sq_exec_refused(&au, cfg, cfg->backend, NULL, NULL,
					err.msg);
		sq_audit_close(&au);
		return err.code == SQ_ERR_USAGE ? 2 : 1;
	}
	/* read-only refuses before anything reaches the cluster */
	if (sq_action_policy_check(&a, cfg->readonly, &err) == -1) {
		fprintf(stderr, "squall: %s\n", err.msg);
		sq_exec_refused(&au, cfg, cfg->backend, &a, NULL, err.msg);
		goto out;
	}
	b = sq_backend_open(cfg, &err);
	if (b == NULL) {
		fprintf(stderr, "squall: %s: %s\n", cfg->name, err.msg);
		rc = err.code == SQ_ERR_USAGE ? 2 : 1;
		goto out;
	}
	if (sq_exec_preview(b, &a, desc, sizeof(desc), &nrun, &err) == -1) {
		fprintf(stderr, "squall: %s: %s\n", a.def->name, err.msg);
		sq_exec_refused(&au, cfg, b->ops->name, &a, NULL, err.msg);
		goto out;
	}
	say_undo_of(&a, cfg->name);
	print_lines(stdout, "", desc);
	print_impact(b, &a);
	fflush(stdout);
	if (!yes && nrun > 0 && confirm(&a) == -1)
		goto out;
	rc = sq_exec_run(b, &au, &a, cfg->readonly, desc, &res, &err) == 0 ? 0
									   : 1;
	print_result(&a, &res, rc);
out:
	if (fflush(stdout) != 0)
		rc = 1;
	sq_result_free(&res);
	sq_action_free(&a);
	if (b != NULL)
		sq_backend_close(b);
	sq_audit_close(&au);
	return rc;
}
