/*
 * action_policy.c - read-only refusal and the bulk-count rule, applied
 * where actions are dispatched (batch --exec and the TUI worker request),
 * not only where they are shown.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action_policy.h"

int
sq_action_policy_check(const struct sq_action *a, int readonly,
		       struct sq_err *err)
{
	if (a == NULL || a->def == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "no such action");
	if (readonly && (a->def->flags & SQ_ACT_MUTATES))
		return sq_err_set(err, SQ_ERR_DENIED,
				  "read-only: %s refused (this session or "
				  "cluster is read-only)",
				  a->def->name);
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
