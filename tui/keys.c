/*
 * keys.c - the console's action table, its default keys, and the live key
 * map built from them and the config's bind/unbind lines. The man page's
 * KEYS section is checked against sq_default_keys by tests/unit/test_keys.c.
 */
#include <stdio.h>
#include <string.h>

#include "core/action/action.h"
#include "core/conf/conf.h"
#include "tui/keys.h"

static const char *const names[] = {
#define SQ_TA_NAME(e, n, h) n,
	SQ_TUI_ACTIONS(SQ_TA_NAME)
#undef SQ_TA_NAME
};

static const char *const helps[] = {
#define SQ_TA_HELP(e, n, h) h,
	SQ_TUI_ACTIONS(SQ_TA_HELP)
#undef SQ_TA_HELP
};

const struct sq_keydef sq_default_keys[] = {
	{ "j", SQ_TA_DOWN },         { "Down", SQ_TA_DOWN },
	{ "k", SQ_TA_UP },           { "Up", SQ_TA_UP },
	{ "PgDn", SQ_TA_PAGE_DOWN }, { "C-f", SQ_TA_PAGE_DOWN },
	{ "PgUp", SQ_TA_PAGE_UP },   { "C-b", SQ_TA_PAGE_UP },
	{ "g", SQ_TA_TOP },          { "Home", SQ_TA_TOP },
	{ "G", SQ_TA_BOTTOM },       { "End", SQ_TA_BOTTOM },
	{ "h", SQ_TA_LEFT },         { "Left", SQ_TA_LEFT },
	{ "l", SQ_TA_RIGHT },        { "Right", SQ_TA_RIGHT },
	{ "Enter", SQ_TA_DETAIL },   { "Esc", SQ_TA_BACK },
	{ "Space", SQ_TA_TAG },      { "s", SQ_TA_SORT },
	{ "S", SQ_TA_SORT_DESC },    { "/", SQ_TA_FILTER },
	{ "n", SQ_TA_NEXT_MATCH },   { "N", SQ_TA_PREV_MATCH },
	{ ":", SQ_TA_COMMAND },      { "c", SQ_TA_COLUMNS },
	{ "-", SQ_TA_FOLD },         { "+", SQ_TA_UNFOLD },
	{ "m", SQ_TA_MAP },          { "o", SQ_TA_GROUP },
	{ "1", SQ_TA_FOLLOW },       { "2", SQ_TA_FOLLOW },
	{ "3", SQ_TA_FOLLOW },       { "4", SQ_TA_FOLLOW },
	{ "5", SQ_TA_FOLLOW },       { "6", SQ_TA_FOLLOW },
	{ "7", SQ_TA_FOLLOW },       { "8", SQ_TA_FOLLOW },
	{ "9", SQ_TA_FOLLOW },       { "!", SQ_TA_SSH },
	{ "Tab", SQ_TA_NEXT_VIEW },  { "BTab", SQ_TA_PREV_VIEW },
	{ "r", SQ_TA_REFRESH },      { "C-l", SQ_TA_REDRAW },
	{ "?", SQ_TA_HELP },         { "F1", SQ_TA_HELP },
	{ "q", SQ_TA_QUIT },         { NULL, SQ_TA_NONE },
};

const char *
sq_ta_name(enum sq_tui_action a)
{
	return a >= 0 && a < SQ_TA_COUNT ? names[a] : "";
}

const char *
sq_ta_help(enum sq_tui_action a)
{
	return a >= 0 && a < SQ_TA_COUNT ? helps[a] : "";
}

enum sq_tui_action
sq_ta_from_name(const char *name)
{
	int i;

	for (i = 0; i < SQ_TA_COUNT; i++) {
		if (strcmp(names[i], name) == 0)
			return (enum sq_tui_action)i;
	}
	return SQ_TA_NONE;
}

static void
put(struct sq_keymap *km, int key, const char *name)
{
	size_t i;

	for (i = 0; i < km->n; i++) {
		if (km->b[i].key == key)
			break;
	}
	if (name == NULL || *name == '\0') {
		if (i < km->n) {
			memmove(&km->b[i], &km->b[i + 1],
				(km->n - i - 1) * sizeof(km->b[0]));
			km->n--;
		}
		return;
	}
	if (i == km->n) {
		if (km->n == SQ_KEYMAP_MAX)
			return;
		km->n++;
	}
	km->b[i].key = key;
	km->b[i].action = sq_ta_from_name(name);
	snprintf(km->b[i].name, sizeof(km->b[i].name), "%s", name);
}

void
sq_keymap_build(struct sq_keymap *km, const struct sq_conf *conf)
{
	size_t i;

	km->n = 0;
	for (i = 0; sq_default_keys[i].key != NULL; i++)
		put(km, sq_key_parse(sq_default_keys[i].key),
		    sq_ta_name(sq_default_keys[i].action));
	for (i = 0; conf != NULL && i < conf->nbindings; i++)
		put(km, conf->bindings[i].key, conf->bindings[i].action);
}

const struct sq_keybind *
sq_keymap_find(const struct sq_keymap *km, int key)
{
	size_t i;

	for (i = 0; i < km->n; i++) {
		if (km->b[i].key == key)
			return &km->b[i];
	}
	return NULL;
}

void
sq_keymap_keys_of(const struct sq_keymap *km, const char *name, char *buf,
		  size_t n)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < km->n; i++) {
		char kn[32];
		size_t j;
		int w;

		if (strcmp(km->b[i].name, name) != 0)
			continue;
		sq_key_name(km->b[i].key, kn, sizeof(kn));
		/* a run of digits bound alike reads 1-9 */
		for (j = i; j + 1 < km->n && km->b[j].key >= '0' &&
			    km->b[j].key < '9' &&
			    km->b[j + 1].key == km->b[j].key + 1 &&
			    strcmp(km->b[j + 1].name, name) == 0;
		     j++)
			;
		if (j >= i + 2) {
			snprintf(kn, sizeof(kn), "%c-%c", km->b[i].key,
				 km->b[j].key);
			i = j;
		}
		w = snprintf(buf + o, n - o, "%s%s", o ? ", " : "", kn);
		if (w < 0 || (size_t)w >= n - o)
			break;
		o += (size_t)w;
	}
}

int
sq_keys_action_ok(const char *name, void *arg)
{
	(void)arg;
	if (name[0] == ':' && name[1] != '\0')
		return 1;
	/* a cluster action (core/action/action.h); the console takes the bare
	 * names of :audit and :undo too (sq_cmd_action_ok, tui/cmd.c) */
	return sq_ta_from_name(name) != SQ_TA_NONE ||
	       sq_action_find(name, -1) != NULL;
}
