/*
 * action_policy.c - read-only refusal (the one gate and its one message,
 * for every key, command and undo) and the bulk-count rule, applied
 * where actions are dispatched (batch --exec and the TUI worker request),
 * not only where they are shown.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/action/action_policy.h"

int
sq_action_readonly_check(const struct sq_action_def *d, const char *name,
			 int readonly, struct sq_err *err)
{
	if (!readonly || (d != NULL && !(d->flags & SQ_ACT_MUTATES)))
		return 0;
	return sq_err_set(err, SQ_ERR_DENIED,
			  "read-only: %s refused (this session or cluster is "
			  "read-only)",
			  name != NULL ? name
			  : d != NULL  ? d->name
				       : "?");
}

int
sq_action_policy_check(const struct sq_action *a, int readonly,
		       struct sq_err *err)
{
	if (a == NULL || a->def == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "no such action");
	if (sq_action_readonly_check(a->def, NULL, readonly, err) == -1)
		return -1;
	if (a->ntargets == 0)
		return sq_err_set(err, SQ_ERR_USAGE, "%s: no target",
				  a->def->name);
	if (a->ntargets > SQ_ACTION_MAX_TARGETS)
		return sq_err_set(err, SQ_ERR_USAGE, "%s: too many targets",
				  a->def->name);
	return 0;
}

int
sq_action_visible(const struct sq_action_def *d, int readonly)
{
	return d != NULL && !(readonly && (d->flags & SQ_ACT_MUTATES));
}

int
sq_action_needs_count(const struct sq_action *a)
{
	return a != NULL && a->ntargets > SQ_ACTION_BULK_THRESHOLD;
}

int
sq_action_count_confirmed(const struct sq_action *a, const char *typed)
{
	char *end;
	unsigned long v;

	if (a == NULL || typed == NULL)
		return 0;
	while (isspace((unsigned char)*typed))
		typed++;
	if (!isdigit((unsigned char)*typed))
		return 0;
	v = strtoul(typed, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0' && v == a->ntargets;
}

int
sq_action_answer_yes(const char *answer)
{
	if (answer == NULL)
		return 0;
	while (*answer == ' ')
		answer++;
	return strcmp(answer, "y") == 0 || strcmp(answer, "Y") == 0 ||
	       strcmp(answer, "yes") == 0 || strcmp(answer, "y\n") == 0 ||
	       strcmp(answer, "Y\n") == 0 || strcmp(answer, "yes\n") == 0;
}

int
sq_action_applies(const struct sq_action_def *d, const char *state)
{
	if (d == NULL || d->states == NULL || state == NULL || state[0] == '\0')
		return 1;
	return sq_action_state_in(d->states, state);
}

int
sq_action_state_in(const char *list, const char *state)
{
	const char *p;
	size_t l;

	/* "CANCELLED by 0" (sacct) or "PENDING+X": the first word */
	l = strcspn(state, " +");
	if (l == 0)
		return 0;
	for (p = list; *p != '\0';) {
		size_t w = strcspn(p, " ");

		if (w == l && strncmp(p, state, l) == 0)
			return 1;
		p += w;
		while (*p == ' ')
			p++;
	}
	return 0;
}

void
sq_action_states_text(const struct sq_action_def *d, char *buf, size_t n)
{
	if (d == NULL || d->states == NULL)
		snprintf(buf, n, "any state");
	else if (strcmp(d->states, SQ_ACCT_EMPTY) == 0)
		snprintf(buf, n,
			 "accounts without users or child accounts: "
			 "deluser and delaccount them first");
	else if (strcmp(d->states, SQ_ASSOC_ALONE) == 0)
		snprintf(buf, n,
			 "one association alone (slurmrestd would delete the "
			 "other partitions' too: use local or ssh)");
	else if (strcmp(d->states, SQ_JS_ACTIVE) == 0)
		snprintf(buf, n, "jobs not yet finished");
	else if (strcmp(d->states, SQ_JS_REQUEUE) == 0)
		snprintf(buf, n, "running, suspended or finished jobs");
	else {
		/* "PENDING jobs", "RUNNING, SUSPENDED or STOPPED jobs" */
		const char *p = d->states;
		size_t off = 0;

		buf[0] = '\0';
		while (*p != '\0' && off < n) {
			size_t w = strcspn(p, " ");
			const char *next = p + w + (p[w] == ' ');
			int last = *next == '\0';

			off += (size_t)snprintf(
			    buf + off, n - off, "%s%.*s",
			    off == 0 ? "" : (last ? " or " : ", "), (int)w, p);
			p = next;
		}
		if (off < n)
			snprintf(buf + off, n - off, " jobs");
	}
}

int
sq_action_subset(const struct sq_action *a, const unsigned char *keep,
		 struct sq_action *out, struct sq_err *err)
{
	size_t i;

	sq_action_init(out, a->type);
	for (i = 0; i < a->nargs; i++) {
		char key[64];
		const char *val =
		    sq_action_arg_split(a->args[i], key, sizeof(key));

		if (val == NULL)
			continue;
		if (sq_action_set_arg(out, key, val, err) == -1)
			goto fail;
	}
	for (i = 0; i < a->ntargets; i++) {
		if (keep[i] &&
		    sq_action_add_target(out, a->targets[i], err) == -1)
			goto fail;
	}
	return 0;
fail:
	sq_action_free(out);
	return -1;
}

long
sq_action_verify_wait_ms(int k)
{
	return 250L * k;
}

void
sq_action_verify_wait(int k)
{
	long ms = sq_action_verify_wait_ms(k);
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	if (ms > 0)
		nanosleep(&ts, NULL);
}
