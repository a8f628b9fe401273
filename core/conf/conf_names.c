/*
 * conf_names.c - the names of squall's command language: key names, colour
 * roles, the built-in default theme and the table of `set` options. Pure
 * tables and lookups; conf.c runs the commands.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/conf/conf.h"

/* ------------------------------------------------------------ keys */

static const char *const special_names[] = {
#define SQ_KEY_NAME(e, n) n,
	SQ_SPECIAL_KEYS(SQ_KEY_NAME)
#undef SQ_KEY_NAME
};

/* Named keys that are characters. */
static const struct {
	const char *name;
	int key;
} char_names[] = {
	{ "Space", SQ_KEY_SPACE },         { "Enter", SQ_KEY_ENTER },
	{ "Return", SQ_KEY_ENTER },        { "Esc", SQ_KEY_ESC },
	{ "Escape", SQ_KEY_ESC },          { "Tab", SQ_KEY_TAB },
	{ "Backspace", SQ_KEY_BACKSPACE }, { "BS", SQ_KEY_BACKSPACE },
	{ "PageUp", SQ_KEY_PGUP },         { "PageDown", SQ_KEY_PGDN },
	{ "Delete", SQ_KEY_DELETE },       { "Insert", SQ_KEY_INSERT },
};

/* Decode one UTF-8 character; returns its length or 0. */
static size_t
utf8_decode(const char *s, int *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, i;
	int c;

	if (p[0] < 0x80) {
		*cp = p[0];
		return p[0] ? 1 : 0;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff) || c < 0xa0)
		return 0;
	*cp = c;
	return n;
}

int
sq_key_parse(const char *name)
{
	size_t i;
	int cp;

	if (name == NULL || *name == '\0')
		return -1;
	for (i = 0; i < sizeof(special_names) / sizeof(special_names[0]); i++) {
		if (strcasecmp(name, special_names[i]) == 0)
			return SQ_KEY_FIRST_SPECIAL + 1 + (int)i;
	}
	for (i = 0; i < sizeof(char_names) / sizeof(char_names[0]); i++) {
		if (strcasecmp(name, char_names[i].name) == 0)
			return char_names[i].key;
	}
	/* C-x, Ctrl-x, ^X */
	if ((strncasecmp(name, "C-", 2) == 0 && strlen(name) == 3) ||
	    (strncasecmp(name, "Ctrl-", 5) == 0 && strlen(name) == 6) ||
	    (name[0] == '^' && strlen(name) == 2)) {
		char ch = name[strlen(name) - 1];

		if (ch >= 'a' && ch <= 'z')
			return SQ_KEY_CTRL(ch);
		if (ch >= 'A' && ch <= 'Z')
			return SQ_KEY_CTRL(ch);
		if (ch == '[' || ch == '\\' || ch == ']' || ch == '_')
			return SQ_KEY_CTRL(ch);
		return -1;
	}
	/* one printable character */
	i = utf8_decode(name, &cp);
	if (i == 0 || name[i] != '\0')
		return -1;
	if (cp < 0x21 || cp == 0x7f)
		return -1;
	return cp;
}

const char *
sq_key_name(int key, char *buf, size_t n)
{
	size_t i;

	if (n == 0)
		return buf;
	if (key > SQ_KEY_FIRST_SPECIAL && key < SQ_KEY_LAST) {
		snprintf(buf, n, "%s",
			 special_names[key - SQ_KEY_FIRST_SPECIAL - 1]);
		return buf;
	}
	for (i = 0; i < sizeof(char_names) / sizeof(char_names[0]); i++) {
		/* the first spelling of each key is the canonical one */
		if (char_names[i].key == key) {
			snprintf(buf, n, "%s", char_names[i].name);
			return buf;
		}
	}
	if (key >= 0 && key < 0x20) {
		snprintf(buf, n, "C-%c",
			 key + 'a' - 1 > 'z' ? key + '@' : key + 'a' - 1);
		return buf;
	}
	if (key > 0x20 && key < 0x7f) {
		snprintf(buf, n, "%c", key);
		return buf;
	}
	if (key >= 0xa0 && key <= 0x10ffff) {
		char u[5] = { 0 };

		if (key < 0x800) {
			u[0] = (char)(0xc0 | (key >> 6));
			u[1] = (char)(0x80 | (key & 0x3f));
		} else if (key < 0x10000) {
			u[0] = (char)(0xe0 | (key >> 12));
			u[1] = (char)(0x80 | ((key >> 6) & 0x3f));
			u[2] = (char)(0x80 | (key & 0x3f));
		} else {
			u[0] = (char)(0xf0 | (key >> 18));
			u[1] = (char)(0x80 | ((key >> 12) & 0x3f));
			u[2] = (char)(0x80 | ((key >> 6) & 0x3f));
			u[3] = (char)(0x80 | (key & 0x3f));
		}
		snprintf(buf, n, "%s", u);
		return buf;
	}
	snprintf(buf, n, "<%d>", key);
	return buf;
}

/* ------------------------------------------------------------ roles */

static const char *const role_names[] = {
#define SQ_ROLE_NAME(e, n, h) n,
	SQ_ROLES(SQ_ROLE_NAME)
#undef SQ_ROLE_NAME
};

const char *
sq_role_name(enum sq_role role)
{
	return role < SQ_ROLE_COUNT ? role_names[role] : "?";
}

int
sq_role_from_name(const char *name)
{
	int i;

	for (i = 0; i < SQ_ROLE_COUNT; i++) {
		if (strcmp(role_names[i], name) == 0)
			return i;
	}
	return -1;
}

/* The built-in default theme (dark background). themes/default.theme
 * holds the same lines; a unit test keeps them equal. */
const char *const sq_conf_default_theme[] = {
	"color normal default default",
	"color title black cyan bold",
	"color header default default bold underline",
	"color header.sort yellow default bold underline",
	"color header.cursor black white bold",
	"color selection black cyan",
	"color tagged yellow default bold",
	"color match magenta default bold",
	"color status black white",
	"color status.error white red bold",
	"color stale black yellow bold",
	"color prompt default default bold",
	"color dialog default default",
	"color dialog.title cyan default bold",
	"color danger white red bold",
	"color help.key yellow default bold",
	"color tree blue default bold",
	"color bar.used green default reverse",
	"color bar.free default default dim",
	"color state.running green default",
	"color state.pending yellow default",
	"color state.held magenta default",
	"color state.completing cyan default",
	"color state.done default default dim",
	"color state.failed red default bold",
	"color outcome.ok green default",
	"color outcome.warn yellow default",
	"color outcome.fail red default bold",
	"color node.idle green default",
	"color node.mixed cyan default",
	"color node.alloc blue default bold",
	"color node.drain yellow default bold",
	"color node.down red default bold",
	"color node.other magenta default",
	NULL,
};

/* ------------------------------------------------------------ options */

const struct sq_option_def sq_option_defs[] = {
#define SQ_OPT_DEF(e, n, t, lo, hi, d, h) { n, SQ_OT_##t, lo, hi, d, h },
	SQ_OPTIONS(SQ_OPT_DEF)
#undef SQ_OPT_DEF
};

int
sq_option_from_name(const char *name)
{
	int i;

	for (i = 0; i < SQ_OPT_COUNT; i++) {
		if (strcmp(sq_option_defs[i].name, name) == 0)
			return i;
	}
	return -1;
}
