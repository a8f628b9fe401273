/*
 * action.c - names of actions.
 */
#include <string.h>

#include "core/action.h"

static const char *const action_names[] = {
#define SQ_ACTION_NAME(e, n) n,
	SQ_ACTIONS(SQ_ACTION_NAME)
#undef SQ_ACTION_NAME
};

const char *
sq_action_name(enum sq_action_type type)
{
	if ((unsigned)type >= SQ_ACTION_COUNT)
		return "?";
	return action_names[type];
}

int
sq_action_from_name(const char *name)
{
	int i;

	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		if (strcmp(action_names[i], name) == 0)
			return i;
	}
	return -1;
}
