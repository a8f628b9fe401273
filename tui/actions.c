/*
 * actions.c - where cluster actions plug into the console (issue 7 fills
 * this in: preview with describe(), confirm, run on the worker, audit).
 * For now a command that is not the console's own is "unknown", and no
 * action key exists. Read-only mode must be enforced here too, not only
 * hidden from help.
 */
#include <string.h>

#include "core/action.h"
#include "tui/actions.h"
#include "tui/app.h"

int
sq_tui_action_dispatch(struct sq_app *app, const char *line)
{
	char word[64];
	size_t n = strcspn(line, " \t");

	if (n >= sizeof(word))
		n = sizeof(word) - 1;
	memcpy(word, line, n);
	word[n] = '\0';
	sq_app_message(app, 1, "unknown command: %s (try :help)", word);
	return -1;
}

int
sq_tui_action_key(struct sq_app *app, int key)
{
	(void)app;
	(void)key;
	return 0;
}

int
sq_tui_action_known(const char *name)
{
	return sq_action_find(name, -1) != NULL;
}

void
sq_tui_action_help(struct sq_app *app, struct sq_pane *p)
{
	(void)app;
	(void)p;
}

int
sq_tui_action_complete(struct sq_app *app, const char *prefix, const char **out,
		       int max)
{
	(void)app;
	(void)prefix;
	(void)out;
	(void)max;
	return 0;
}
