/*
 * actions_run.c - an action through the Slurm CLI, once its argv is
 * built (actions.c): the preview line, and act(): read the targets, run
 * the commands through sq_cli_run() (local and ssh alike), read them
 * again until the effect shows, verify each target (actions_verify.c),
 * and the inverse of what was done. The result is reported through
 * backends/act.h, as the REST backend reports its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/act.h"
#include "backends/cli/actions.h"
#include "core/action/action_policy.h"
#include "core/base/buf.h"
#include "core/base/util.h"

/* A field of target i as read before (ctx: the struct sq_cli_state, or
 * NULL when not read). */
static const char *
state_lookup(void *ctx, size_t i, const char *key)
{
	const struct sq_cli_state *st = ctx;

	if (st == NULL || i >= st->n || !st->rec[i].found)
		return NULL;
	return sq_cli_rec_get(&st->rec[i], key);
}

static int
needs_state_for_cmds(const struct sq_action *a)
{
	return a->type == SQ_ACTION_ACCT_CLEAR_LIMIT ||
	       a->type == SQ_ACTION_ACCT_MODIFY_USER ||
	       a->type == SQ_ACTION_ACCT_REMOVE_USER ||
	       a->type == SQ_ACTION_QOS_DELETE ||
	       a->type == SQ_ACTION_ACCT_DELETE_ACCOUNT;
}

size_t
sq_cli_describe_where(struct sq_backend *b, char *buf, size_t len)
{
	int w;

	if (b == NULL || b->ops == NULL || strcmp(b->ops->name, "ssh") != 0)
		return 0;
	w = snprintf(buf, len, "[ssh %s%s%s] ", b->cfg.user,
		     b->cfg.user[0] ? "@" : "", b->cfg.host);
	return w > 0 && (size_t)w < len ? (size_t)w : 0;
}

int
sq_cli_describe(struct sq_backend *b, const struct sq_action *a,
		const struct sq_targets_read *read, char *buf, size_t len)
{
	struct sq_cli_cmds cmds;
	struct sq_cli_state own;
	const struct sq_cli_state *st = NULL;
	struct sq_err err;
	size_t off;
	int rc;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return sq_cli_submit_describe(b, a, buf, len);
	if (a->type == SQ_ACTION_RUNAWAY_FIX)
		return sq_cli_runaway_describe(b, a, buf, len);
	memset(&own, 0, sizeof(own));
	/* the check's read when it was handed over, else our own */
	if (needs_state_for_cmds(a) && b != NULL && b->priv != NULL) {
		st = sq_cli_targets_state(a, read);
		if (st == NULL &&
		    sq_cli_read_state(b->priv, a, &own, &err) == 0)
			st = &own;
	}
	if (st != NULL && sq_cli_moduser_refused(a, st, buf, len)) {
		sq_cli_state_free(&own);
		return -1;
	}
	rc = sq_cli_action_cmds(a, state_lookup, (void *)st, &cmds, &err);
	if (rc == -1) {
		sq_cli_state_free(&own);
		snprintf(buf, len, "(%s)", err.msg);
		return -1;
	}
	off = sq_cli_describe_where(b, buf, len);
	if (cmds.n == 0)
		snprintf(buf + off, len - off,
			 "(nothing to do: no such limit "
			 "is set)");
	else
		sq_cli_cmds_format(&cmds, buf + off, len - off);
	if (st != NULL)
		sq_cli_delete_listing(b->priv, a, st, buf, len);
	sq_cli_state_free(&own);
	sq_cli_cmds_free(&cmds);
	return 0;
}

/* From sq_cli_run's failed command (e->status, and the message "X exited
 * with status N: text"): N and the text as Slurm wrote it; stdout's
 * first line when stderr was empty. */
static int
split_error(const struct sq_err *e, const char *out, char *text, size_t n)
{
	const char *msg = e->msg, *p = strstr(msg, ": ");
	int status = e->status;

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
	sub.all = before->all; /* shallow too: what else the undo restores */
	sub.nall = before->nall;
	for (i = 0; i < a->nargs; i++) {
		char key[64];
		const char *val =
		    sq_action_arg_split(a->args[i], key, sizeof(key));

		if (val != NULL)
			sq_action_set_arg(&done, key, val, NULL);
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

/* Run every command of cmds. A failed command's words (Slurm's, from
 * split_error()) go to the targets it names, or to its one target; the
 * first into all_err. Returns the exit status of the last failed command
 * (0 when none failed). */
static int
run_cmds(struct sq_cli *cli, const struct sq_cli_cmds *cmds,
	 struct sq_result *res, char *all_err, size_t n)
{
	int all_status = 0;
	size_t i, k;

	for (i = 0; i < cmds->n; i++) {
		const struct sq_cli_cmd *c = &cmds->v[i];
		struct sq_buf out;
		struct sq_err e;
		char text[300];

		sq_buf_init(&out, SQ_CLI_ERR_LIMIT);
		sq_err_clear(&e);
		if (sq_cli_run(cli, (const char *const *)c->argv, &out, &e) ==
		    0) {
			sq_buf_free(&out);
			continue;
		}
		if (e.code == SQ_ERR_COMMAND && e.status != 0) {
			all_status = split_error(&e, sq_buf_str(&out), text,
						 sizeof(text));
		} else {
			all_status = 255;
			sq_util_copy(text, sizeof(text), e.msg);
		}
		sq_buf_free(&out);
		if (c->target == SQ_CLI_ALL_TARGETS) {
			sq_util_copy(all_err, n, text);
			/* the message goes to the targets it names */
			for (k = 0; k < res->ntargets; k++) {
				struct sq_target_result *t = &res->targets[k];

				if (names_target(text, t->target))
					sq_util_copy(t->message,
						     sizeof(t->message), text);
			}
		} else if (c->target < res->ntargets) {
			struct sq_target_result *t = &res->targets[c->target];

			sq_util_copy(t->message, sizeof(t->message), text);
			t->ok = -1;
			if (all_err[0] == '\0')
				sq_util_copy(all_err, n, text);
		}
	}
	return all_status;
}

/* Read the targets back into after until the effect shows (a requeue
 * passes through COMPLETING; not again once a command failed) and give
 * each target its verdict and what was seen, or Slurm's words. */
static void
verify_targets(struct sq_cli *cli, const struct sq_action *a,
	       const struct sq_cli_state *before, struct sq_cli_state *after,
	       struct sq_result *res, const char *all_err, struct sq_err *err)
{
	int tries;
	size_t i;

	for (tries = 0; tries < SQ_VERIFY_TRIES; tries++) {
		size_t bad = 0;

		sq_action_verify_wait(tries);
		sq_cli_state_free(after);
		if (sq_cli_read_state(cli, a, after, err) == -1) {
			/* a failed command against a controller that cannot
			 * be read either: each try would wait out Slurm's
			 * timeout again for nothing */
			if (res->status != 0)
				break;
			continue;
		}
		for (i = 0; i < res->ntargets; i++) {
			struct sq_target_result *t = &res->targets[i];
			char msg[256];
			int v = sq_cli_verify(
			    a, i, before->ok ? &before->rec[i] : NULL,
			    &after->rec[i], msg, sizeof(msg));

			t->verified = v;
			bad += v == SQ_VERIFY_FAILED;
			if (v == SQ_VERIFY_FAILED && t->message[0] == '\0' &&
			    all_err[0] != '\0')
				/* the command failed: Slurm's words */
				sq_util_copy(t->message, sizeof(t->message),
					     all_err);
			else if (t->ok != -1 && (t->message[0] == '\0' ||
						 v != SQ_VERIFY_FAILED))
				sq_util_copy(t->message, sizeof(t->message),
					     msg);
		}
		if (bad == 0 || res->status != 0)
			break;
	}
}

/* A target whose command changed another association too (the same
 * account and user, another partition) is not done: it says which. */
static void
check_others(const struct sq_action *a, const struct sq_cli_state *before,
	     const struct sq_cli_state *after, struct sq_result *res)
{
	size_t i;

	for (i = 0; i < res->ntargets; i++) {
		struct sq_target_result *t = &res->targets[i];
		char msg[256];

		if (t->verified == SQ_VERIFY_FAILED ||
		    sq_cli_others_changed(a, i, before, after, msg,
					  sizeof(msg)) == 0)
			continue;
		t->verified = SQ_VERIFY_FAILED;
		sq_util_copy(t->message, sizeof(t->message), msg);
	}
}

/* ok of every target: verified (or not re-readable) and its command not
 * failed; res->nfailed counts the others. */
static void
judge_targets(struct sq_result *res, const struct sq_cli_state *after,
	      const char *all_err)
{
	size_t i;

	res->nfailed = 0;
	for (i = 0; i < res->ntargets; i++) {
		struct sq_target_result *t = &res->targets[i];

		if (!after->ok && t->ok != -1 && res->status == 0) {
			/* could not read back: accepted, unchecked */
			t->verified = SQ_VERIFY_UNCHECKED;
			snprintf(t->message, sizeof(t->message),
				 "done; could not re-read: %.200s",
				 after->error);
		}
		t->ok = t->verified != SQ_VERIFY_FAILED && t->ok != -1 &&
			!(res->status != 0 && t->verified != SQ_VERIFY_OK);
		if (!t->ok && t->message[0] == '\0')
			sq_util_copy(t->message, sizeof(t->message),
				     all_err[0] ? all_err : "failed");
		if (!t->ok)
			res->nfailed++;
	}
}

int
sq_cli_act(struct sq_backend *b, const struct sq_action *a,
	   const struct sq_targets_read *read, struct sq_result *res,
	   struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	struct sq_cli_cmds cmds = { NULL, 0 };
	struct sq_cli_state own, after;
	const struct sq_cli_state *before;
	char all_err[512] = "";
	int rc = -1;
	double t0 = sq_util_now_ms();

	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return sq_cli_submit_act(b, a, res, err);
	if (a->type == SQ_ACTION_RUNAWAY_FIX)
		return sq_cli_runaway_act(b, a, res, err);
	memset(&own, 0, sizeof(own));
	memset(&after, 0, sizeof(after));
	if (sq_act_begin(res, a, err) == -1)
		return -1;
	/* the state before: for the inverse, for requeue, for clearlimit;
	 * the check's read (backend.h) when it was handed over */
	if ((before = sq_cli_targets_state(a, read)) == NULL) {
		if (sq_cli_read_state(cli, a, &own, err) == -1)
			own.ok = 0;
		before = &own;
	}
	if (sq_cli_moduser_refused(a, before, all_err, sizeof(all_err))) {
		sq_err_set(err, SQ_ERR_DENIED, "%s", all_err);
		goto out;
	}
	if (sq_cli_action_cmds(a, state_lookup, (void *)before, &cmds, err) ==
	    -1)
		goto out;
	res->status = run_cmds(cli, &cmds, res, all_err, sizeof(all_err));
	verify_targets(cli, a, before, &after, res, all_err, err);
	check_others(a, before, &after, res);
	judge_targets(res, &after, all_err);
	if (before->ok)
		inverse_of_done(a, res, before);
	rc = sq_act_summary(res, a, all_err, err);
	if (rc == -1 && res->status == 0)
		res->status = 1;
out:
	sq_cli_cmds_free(&cmds);
	sq_cli_state_free(&own);
	sq_cli_state_free(&after);
	return sq_act_end(res, rc, err, t0);
}
