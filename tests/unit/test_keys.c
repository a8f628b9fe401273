/*
 * test_keys.c - the documentation cannot drift from the tables: the KEYS
 * section of man/squall.1 lists exactly the default keys of tui/keys.c,
 * each with its action, and squall.conf(5) names every colour role and
 * every `set` option. Also the live key map: defaults, bind, unbind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conf/conf.h"
#include "tui/keys.h"
#include "tests/unit/test_util.h"

#define MAX_ITEMS 128

struct item {
	char keys[16][16];
	int nkeys;
	char action[32];
};

static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	if (fp == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf != NULL && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

/* The text of a section (.Sh NAME up to the next .Sh), or NULL. */
static char *
section(const char *page, const char *name)
{
	char head[64];
	const char *a, *b;

	snprintf(head, sizeof(head), "\n.Sh %s\n", name);
	a = strstr(page, head);
	if (a == NULL)
		return NULL;
	a += strlen(head);
	b = strstr(a, "\n.Sh ");
	if (b == NULL)
		b = a + strlen(a);
	return strndup(a, (size_t)(b - a));
}

/* ".It Cm j , Cm Down Pq down" -> keys {j, Down}, action down; "1-9"
 * expands; mdoc escapes \& and \- are removed. */
static int
parse_items(char *sec, struct item *items, int max)
{
	char *line, *save = NULL;
	int n = 0;

	for (line = strtok_r(sec, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *pq, *tok, *s2 = NULL;
		struct item *it;

		if (strncmp(line, ".It ", 4) != 0 || n == max)
			continue;
		pq = strstr(line, " Pq ");
		if (pq == NULL)
			continue;
		it = &items[n++];
		memset(it, 0, sizeof(*it));
		snprintf(it->action, sizeof(it->action), "%s", pq + 4);
		*pq = '\0';
		for (tok = strtok_r(line + 4, " ", &s2); tok != NULL;
		     tok = strtok_r(NULL, " ", &s2)) {
			char k[16];
			size_t o = 0, i;

			if (strcmp(tok, "Cm") == 0 || strcmp(tok, ",") == 0)
				continue;
			for (i = 0; tok[i] != '\0' && o + 1 < sizeof(k); i++) {
				if (tok[i] == '\\' &&
				    (tok[i + 1] == '&' || tok[i + 1] == '-')) {
					if (tok[i + 1] == '-')
						k[o++] = '-';
					i++;
					continue;
				}
				k[o++] = tok[i];
			}
			k[o] = '\0';
			if (strlen(k) == 3 && k[1] == '-' && k[0] >= '0' &&
			    k[0] <= '9') {
				char c;

				for (c = k[0]; c <= k[2] && it->nkeys < 16; c++)
					snprintf(it->keys[it->nkeys++], 16,
						 "%c", c);
				continue;
			}
			if (it->nkeys < 16)
				snprintf(it->keys[it->nkeys++], 16, "%s", k);
		}
	}
	return n;
}

static void
test_man_keys(void **state)
{
	char *page = slurp("man/squall.1"), *sec;
	struct item items[MAX_ITEMS];
	int n, i, k, found;
	size_t d, total = 0, listed = 0;

	(void)state;
	assert_non_null(page);
	sec = section(page, "KEYS");
	assert_non_null(sec);
	n = parse_items(sec, items, MAX_ITEMS);
	assert_true(n > 10);
	/* every default binding is in the man page, with its action */
	for (d = 0; sq_default_keys[d].key != NULL; d++) {
		const char *key = sq_default_keys[d].key;
		const char *act = sq_ta_name(sq_default_keys[d].action);

		total++;
		found = 0;
		for (i = 0; i < n && !found; i++) {
			for (k = 0; k < items[i].nkeys; k++) {
				if (strcmp(items[i].keys[k], key) == 0) {
					if (strcmp(items[i].action, act) != 0)
						fail_msg("man: key %s is %s, "
							 "the table says %s",
							 key, items[i].action,
							 act);
					found = 1;
				}
			}
		}
		if (!found)
			fail_msg("man/squall.1 KEYS lacks key %s (%s)", key,
				 act);
	}
	/* and nothing else */
	for (i = 0; i < n; i++) {
		enum sq_tui_action a = sq_ta_from_name(items[i].action);

		if (a == SQ_TA_NONE)
			fail_msg("man: unknown action %s", items[i].action);
		for (k = 0; k < items[i].nkeys; k++) {
			found = 0;
			for (d = 0; sq_default_keys[d].key != NULL; d++)
				found |= strcmp(sq_default_keys[d].key,
						items[i].keys[k]) == 0 &&
					 sq_default_keys[d].action == a;
			if (!found)
				fail_msg("man: key %s (%s) is not a default "
					 "binding",
					 items[i].keys[k], items[i].action);
			listed++;
		}
	}
	assert_int_equal(listed, total);
	free(sec);
	free(page);
}

static void
test_man_roles_and_options(void **state)
{
	char *page = slurp("man/squall.conf.5"), *sec;
	int i;

	(void)state;
	assert_non_null(page);
	sec = section(page, "COLOURS");
	assert_non_null(sec);
	for (i = 0; i < SQ_ROLE_COUNT; i++) {
		char needle[64], needle2[64];

		snprintf(needle, sizeof(needle), " %s ", sq_role_name(i));
		snprintf(needle2, sizeof(needle2), " %s\n", sq_role_name(i));
		if (strstr(sec, needle) == NULL && strstr(sec, needle2) == NULL)
			fail_msg("squall.conf.5 COLOURS lacks role %s",
				 sq_role_name(i));
	}
	free(sec);
	sec = section(page, "COMMANDS");
	assert_non_null(sec);
	for (i = 0; i < SQ_OPT_COUNT; i++) {
		char needle[64];

		snprintf(needle, sizeof(needle), ".It Cm %s",
			 sq_option_defs[i].name);
		if (strstr(sec, needle) == NULL)
			fail_msg("squall.conf.5 lacks option %s",
				 sq_option_defs[i].name);
	}
	free(sec);
	free(page);
}

static void
test_keymap(void **state)
{
	struct sq_keymap km;
	struct sq_conf c;
	struct sq_err err;
	const struct sq_keybind *b;
	char buf[128];

	(void)state;
	sq_conf_init(&c);
	c.action_ok = sq_keys_action_ok;
	sq_keymap_build(&km, &c);
	b = sq_keymap_find(&km, 'j');
	assert_non_null(b);
	assert_int_equal(b->action, SQ_TA_DOWN);
	b = sq_keymap_find(&km, SQ_KEY_CTRL('l'));
	assert_non_null(b);
	assert_int_equal(b->action, SQ_TA_REDRAW);
	sq_keymap_keys_of(&km, "follow", buf, sizeof(buf));
	assert_string_equal(buf, "1-9");
	sq_keymap_keys_of(&km, "down", buf, sizeof(buf));
	assert_string_equal(buf, "j, Down");

	assert_int_equal(sq_conf_exec(&c, "bind x quit", "f", 1, &err), 0);
	assert_int_equal(sq_conf_exec(&c, "unbind q", "f", 2, &err), 0);
	assert_int_equal(sq_conf_exec(&c, "bind j up", "f", 3, &err), 0);
	assert_int_equal(
	    sq_conf_exec(&c, "bind F5 \":view nodes\"", "f", 4, &err), 0);
	/* a cluster action name is accepted (core/action/action.h) */
	assert_int_equal(sq_conf_exec(&c, "bind C-x cancel", "f", 5, &err), 0);
	assert_int_equal(sq_conf_exec(&c, "bind z nonsense", "f", 6, &err), -1);
	assert_string_equal(err.msg, "f:6: unknown action 'nonsense'");
	sq_keymap_build(&km, &c);
	assert_null(sq_keymap_find(&km, 'q'));
	assert_int_equal(sq_keymap_find(&km, 'x')->action, SQ_TA_QUIT);
	assert_int_equal(sq_keymap_find(&km, 'j')->action, SQ_TA_UP);
	b = sq_keymap_find(&km, SQ_KEY_F5);
	assert_non_null(b);
	assert_int_equal(b->action, SQ_TA_NONE);
	assert_string_equal(b->name, ":view nodes");
	b = sq_keymap_find(&km, SQ_KEY_CTRL('x'));
	assert_string_equal(b->name, "cancel");
	sq_keymap_keys_of(&km, "quit", buf, sizeof(buf));
	assert_string_equal(buf, "x");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_man_keys),
		cmocka_unit_test(test_man_roles_and_options),
		cmocka_unit_test(test_keymap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
