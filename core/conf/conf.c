/*
 * conf.c - the command language: lexing a line into words, the commands
 * set/bind/unbind/color/theme/source/cluster/reason, and the
 * file load order. Text in, struct sq_conf out; it never prints and never
 * touches the terminal. Every bad line becomes a "file:line: message".
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/conf/conf.h"
#include "core/conf/conf_int.h"
#include "core/analysis/history.h"
#include "core/base/validate.h"
#include "core/model/view.h"

int
sq_conf_parse_bool(const char *v, long *out)
{
	static const char *const yes[] = { "on", "yes", "true", "1", NULL };
	static const char *const no[] = { "off", "no", "false", "0", NULL };
	int i;

	for (i = 0; yes[i] != NULL; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
	}
	for (i = 0; no[i] != NULL; i++) {
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

int
sq_conf_parse_long(const char *v, long lo, long hi, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0 || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

int
sq_conf_parse_seconds(const char *v, long lo, long hi, long *out)
{
	char num[32];
	size_t l = strlen(v);
	long mult = 1;

	if (l == 0 || l >= sizeof(num))
		return -1;
	memcpy(num, v, l + 1);
	switch (num[l - 1]) {
	case 'd':
		mult *= 24;
		/* fall through */
	case 'h':
		mult *= 60;
		/* fall through */
	case 'm':
		mult *= 60;
		/* fall through */
	case 's':
		num[l - 1] = '\0';
		break;
	default:
		break;
	}
	if (sq_conf_parse_long(num, 0, 86400 * 366L, out) == -1 ||
	    *out * mult < lo || *out * mult > hi)
		return -1;
	*out *= mult;
	return 0;
}

/* Set option o from text; message in why on failure. */
static int
set_option(struct sq_conf *c, int o, const char *v, char *why, size_t n)
{
	const struct sq_option_def *d = &sq_option_defs[o];
	long num;

	switch (d->type) {
	case SQ_OT_INT:
		/* every INT option is a duration: 90, 90s, 5m, 2h, 1d */
		if (sq_conf_parse_seconds(v, d->min, d->max, &num) == -1) {
			snprintf(why, n,
				 "%s must be seconds from %ld to %ld (or "
				 "with s, m, h or d: 5m)",
				 d->name, d->min, d->max);
			return -1;
		}
		c->num[o] = num;
		break;
	case SQ_OT_BOOL:
		if (sq_conf_parse_bool(v, &num) == -1) {
			snprintf(why, n, "%s must be on or off", d->name);
			return -1;
		}
		c->num[o] = num;
		break;
	case SQ_OT_VIEW:
		if (sq_view_find(v) == NULL) {
			snprintf(why, n, "no view called '%.60s'", v);
			return -1;
		}
		snprintf(c->str[o], sizeof(c->str[o]), "%s",
			 sq_view_find(v)->name);
		break;
	case SQ_OT_STR:
		if (strlen(v) >= sizeof(c->str[o])) {
			snprintf(why, n, "%s is too long", d->name);
			return -1;
		}
		if (o == SQ_OPT_HISTORY_SINCE) {
			struct sq_hist_window hw;
			struct sq_err e;

			if (sq_history_window_parse(v, &hw, &e) == -1) {
				snprintf(why, n, "history-since: %s", e.msg);
				return -1;
			}
			snprintf(c->str[o], sizeof(c->str[o]), "%s", hw.spec);
			break;
		}
		snprintf(c->str[o], sizeof(c->str[o]), "%s", v);
		break;
	}
	c->changed |= SQ_CONF_CH_OPTIONS;
	return 0;
}

const char *
sq_conf_get(const struct sq_conf *c, enum sq_option opt, char *buf, size_t n)
{
	switch (sq_option_defs[opt].type) {
	case SQ_OT_INT:
		snprintf(buf, n, "%ld", c->num[opt]);
		break;
	case SQ_OT_BOOL:
		snprintf(buf, n, "%s", c->num[opt] ? "on" : "off");
		break;
	default:
		snprintf(buf, n, "%s", c->str[opt]);
	}
	return buf;
}

/* ------------------------------------------------------------ init */

static int exec_color(struct sq_conf *c, char **w, int nw, char *why, size_t n);

static void
default_colors(struct sq_conf *c)
{
	char line[128], *w[8];
	const char *why;
	char msg[128];
	int i, nw;

	for (i = 0; sq_conf_default_theme[i] != NULL; i++) {
		snprintf(line, sizeof(line), "%s", sq_conf_default_theme[i]);
		nw = sq_conf_words(line, w, 8, &why);
		if (nw > 1)
			exec_color(c, w + 1, nw - 1, msg, sizeof(msg));
	}
}

void
sq_conf_init(struct sq_conf *c)
{
	int i;
	char why[128];

	memset(c, 0, sizeof(*c));
	for (i = 0; i < SQ_OPT_COUNT; i++)
		set_option(c, i, sq_option_defs[i].def, why, sizeof(why));
	default_colors(c);
	snprintf(c->theme, sizeof(c->theme), "default");
	c->changed = 0;
}

void
sq_conf_note(struct sq_conf *c, const char *msg)
{
	if (c->nmsgs == SQ_CONF_MAX_MSGS) {
		memmove(&c->msgs[0], &c->msgs[1],
			(SQ_CONF_MAX_MSGS - 1) * sizeof(c->msgs[0]));
		c->nmsgs--;
	}
	snprintf(c->msgs[c->nmsgs].text, sizeof(c->msgs[0].text), "%s", msg);
	c->nmsgs++;
	c->nmsgs_total++;
}

/* ------------------------------------------------------------ words */

int
sq_conf_words(char *line, char **words, int max, const char **why)
{
	char *r = line, *w = line;
	int n = 0;

	*why = NULL;
	for (;;) {
		while (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n')
			r++;
		if (*r == '\0' || *r == '#')
			break;
		if (n == max) {
			*why = "too many words";
			return -1;
		}
		words[n++] = w;
		while (*r != '\0' && *r != ' ' && *r != '\t' && *r != '\r' &&
		       *r != '\n') {
			if (*r == '"') {
				r++;
				while (*r != '\0' && *r != '"') {
					if (*r == '\\' &&
					    (r[1] == '"' || r[1] == '\\'))
						r++;
					*w++ = *r++;
				}
				if (*r != '"') {
					*why = "unterminated \" quote";
					return -1;
				}
				r++;
			} else if (*r == '\'') {
				r++;
				while (*r != '\0' && *r != '\'')
					*w++ = *r++;
				if (*r != '\'') {
					*why = "unterminated ' quote";
					return -1;
				}
				r++;
			} else {
				*w++ = *r++;
			}
		}
		if (*r != '\0')
			r++;
		*w++ = '\0';
	}
	return n;
}

/* ------------------------------------------------------------ colours */

static const char *const color_names[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static int
parse_color(const char *s, short *out)
{
	long n;
	int i;

	if (strcasecmp(s, "default") == 0 || strcmp(s, "-1") == 0) {
		*out = -1;
		return 0;
	}
	for (i = 0; i < 8; i++) {
		if (strcasecmp(s, color_names[i]) == 0) {
			*out = (short)i;
			return 0;
		}
		if (strncasecmp(s, "bright", 6) == 0 &&
		    strcasecmp(s + 6, color_names[i]) == 0) {
			*out = (short)(i + 8);
			return 0;
		}
	}
	if (strcasecmp(s, "grey") == 0 || strcasecmp(s, "gray") == 0) {
		*out = 8;
		return 0;
	}
	if (strncasecmp(s, "color", 5) == 0)
		s += 5;
	if (sq_conf_parse_long(s, 0, 255, &n) == 0) {
		*out = (short)n;
		return 0;
	}
	return -1;
}

static const struct {
	const char *name;
	unsigned attr;
} attr_names[] = {
	{ "bold", SQ_ATTR_BOLD },
	{ "dim", SQ_ATTR_DIM },
	{ "underline", SQ_ATTR_UNDERLINE },
	{ "reverse", SQ_ATTR_REVERSE },
	{ "blink", SQ_ATTR_BLINK },
	{ "italic", SQ_ATTR_ITALIC },
	{ "standout", SQ_ATTR_STANDOUT },
	{ "normal", 0 },
	{ "none", 0 },
};

/* color ROLE FG BG [ATTR...] (w[0] is ROLE) */
static int
exec_color(struct sq_conf *c, char **w, int nw, char *why, size_t n)
{
	struct sq_color col;
	int role, i;
	size_t k;

	if (nw < 3) {
		snprintf(why, n, "usage: color ROLE FG BG [ATTR...]");
		return -1;
	}
	role = sq_role_from_name(w[0]);
	if (role < 0) {
		snprintf(why, n, "unknown colour role '%.60s'", w[0]);
		return -1;
	}
	if (parse_color(w[1], &col.fg) == -1) {
		snprintf(why, n, "unknown colour '%.60s'", w[1]);
		return -1;
	}
	if (parse_color(w[2], &col.bg) == -1) {
		snprintf(why, n, "unknown colour '%.60s'", w[2]);
		return -1;
	}
	col.attrs = 0;
	for (i = 3; i < nw; i++) {
		for (k = 0; k < sizeof(attr_names) / sizeof(attr_names[0]);
		     k++) {
			if (strcasecmp(w[i], attr_names[k].name) == 0)
				break;
		}
		if (k == sizeof(attr_names) / sizeof(attr_names[0])) {
			snprintf(why, n, "unknown attribute '%.60s'", w[i]);
			return -1;
		}
		col.attrs |= attr_names[k].attr;
	}
	c->colors[role] = col;
	c->changed |= SQ_CONF_CH_COLORS;
	return 0;
}

/* ------------------------------------------------------------ files */

/* ~/x -> $HOME/x; relative names relative to the directory of base. */
void
sq_conf_expand_path(const char *p, const char *base, char *out, size_t n)
{
	const char *home = getenv("HOME");

	if (p[0] == '~' && p[1] == '/' && home != NULL) {
		snprintf(out, n, "%s%s", home, p + 1);
	} else if (p[0] != '/' && base != NULL && strchr(base, '/') != NULL) {
		int dl = (int)(strrchr(base, '/') - base);

		snprintf(out, n, "%.*s/%s", dl, base, p);
	} else {
		snprintf(out, n, "%s", p);
	}
}

static int
readable(const char *path)
{
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return 0;
	fclose(fp);
	return 1;
}

static int load_file(struct sq_conf *c, const char *path, int theme_only,
		     int quiet_missing, char *why, size_t n);

int
sq_conf_load_theme(struct sq_conf *c, const char *name, struct sq_err *err)
{
	char path[1024], why[600];
	const char *cfg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int found = 0, i;
	size_t k;

	if (*name == '\0')
		return sq_err_set(err, SQ_ERR_USAGE, "usage: theme NAME");
	if (strchr(name, '/') != NULL) {
		size_t l = strlen(name);

		if (l < 7 || strcmp(name + l - 6, ".theme") != 0)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "a theme file name ends in .theme");
		sq_conf_expand_path(
		    name, c->depth > 0 ? c->stack[c->depth - 1] : NULL, path,
		    sizeof(path));
		found = readable(path);
	} else {
		for (k = 0; name[k] != '\0'; k++) {
			char ch = name[k];

			if (!((ch >= 'a' && ch <= 'z') ||
			      (ch >= 'A' && ch <= 'Z') ||
			      (ch >= '0' && ch <= '9') || ch == '-' ||
			      ch == '_' || ch == '.'))
				return sq_err_set(err, SQ_ERR_USAGE,
						  "bad theme name '%.60s'",
						  name);
		}
		for (i = 0; i < 4 && !found; i++) {
			path[0] = '\0';
			if (i == 0 && cfg != NULL && *cfg != '\0')
				snprintf(path, sizeof(path),
					 "%s/squall/themes/%s.theme", cfg,
					 name);
			else if (i == 0 && home != NULL)
				snprintf(path, sizeof(path),
					 "%s/.config/squall/themes/%s.theme",
					 home, name);
			else if (i == 1 || i == 2) {
				if (c->theme_dirs[i - 1][0] != '\0')
					snprintf(path, sizeof(path),
						 "%s/%s.theme",
						 c->theme_dirs[i - 1], name);
			}
			found = path[0] != '\0' && readable(path);
		}
	}
	if (!found && strcmp(name, "default") == 0) {
		default_colors(c);
		snprintf(c->theme, sizeof(c->theme), "default");
		c->changed |= SQ_CONF_CH_COLORS;
		return 0;
	}
	if (!found)
		return sq_err_set(err, SQ_ERR_USAGE, "no theme called '%.60s'",
				  name);
	default_colors(c);
	if (load_file(c, path, 1, 0, why, sizeof(why)) == -1)
		return sq_err_set(err, SQ_ERR_USAGE, "%s", why);
	snprintf(c->theme, sizeof(c->theme), "%s", name);
	c->changed |= SQ_CONF_CH_COLORS;
	return 0;
}

/* ------------------------------------------------------------ exec */

/* reason NAME TEXT... (w[0] is NAME): the words of TEXT joined by one
 * blank, so `reason mem Memory errors` and `reason mem "Memory errors"`
 * agree. */
static int
exec_reason(struct sq_conf *c, char **w, int nw, char *why, size_t n)
{
	char text[SQ_REASON_TEXT_MAX + 2];
	size_t off = 0;
	struct sq_err e;
	int i;

	if (nw < 2) {
		snprintf(why, n, "usage: reason NAME TEXT...");
		return -1;
	}
	/* a text too long is cut one byte over the limit, which
	 * sq_reasons_define() then refuses (after checking the name) */
	for (i = 1; i < nw && off < sizeof(text) - 1; i++) {
		if (i > 1)
			text[off++] = ' ';
		off += (size_t)snprintf(text + off, sizeof(text) - off, "%s",
					w[i]);
		if (off > sizeof(text) - 1)
			off = sizeof(text) - 1;
	}
	text[off] = '\0';
	if (sq_reasons_define(&c->reasons, w[0], text, &e) == -1) {
		snprintf(why, n, "%s", e.msg);
		return -1;
	}
	return 0;
}

/* set NAME [VALUE] (w[0] "set"): a boolean's VALUE may be left out,
 * and NAME written noNAME for off. */
static int
exec_set(struct sq_conf *c, char **w, int nw, char *why, size_t n)
{
	int o;
	const char *name, *val;
	long b = 1;

	if (nw < 2 || nw > 3) {
		snprintf(why, n, "usage: set NAME [VALUE]");
		return -1;
	}
	name = w[1];
	val = nw == 3 ? w[2] : NULL;
	o = sq_option_from_name(name);
	if (o < 0 && val == NULL && strncmp(name, "no", 2) == 0) {
		o = sq_option_from_name(name + 2);
		b = 0;
	}
	if (o < 0) {
		snprintf(why, n, "unknown option '%.60s'", name);
		return -1;
	}
	if (val == NULL) {
		if (sq_option_defs[o].type != SQ_OT_BOOL) {
			snprintf(why, n, "set %s needs a value",
				 sq_option_defs[o].name);
			return -1;
		}
		val = b ? "on" : "off";
	}
	return set_option(c, o, val, why, n);
}

/* bind KEY ACTION, unbind KEY (w[0] the command). */
static int
exec_bind(struct sq_conf *c, char **w, int nw, char *why, size_t n)
{
	const char *cmd = w[0];
	int key;
	int unbind = cmd[0] == 'u';
	struct sq_binding *b;

	if ((unbind && nw != 2) || (!unbind && nw != 3)) {
		snprintf(why, n,
			 unbind ? "usage: unbind KEY"
				: "usage: bind KEY ACTION");
		return -1;
	}
	key = sq_key_parse(w[1]);
	if (key < 0) {
		snprintf(why, n, "unknown key '%.60s'", w[1]);
		return -1;
	}
	if (!unbind) {
		if (strlen(w[2]) >= sizeof(b->action)) {
			snprintf(why, n, "action name too long");
			return -1;
		}
		if (c->action_ok != NULL &&
		    !c->action_ok(w[2], c->action_arg)) {
			snprintf(why, n, "unknown action '%.60s'", w[2]);
			return -1;
		}
	}
	if (c->nbindings == SQ_CONF_MAX_BINDINGS) {
		snprintf(why, n, "more than %d bindings", SQ_CONF_MAX_BINDINGS);
		return -1;
	}
	b = &c->bindings[c->nbindings++];
	b->key = key;
	snprintf(b->action, sizeof(b->action), "%s", unbind ? "" : w[2]);
	c->changed |= SQ_CONF_CH_KEYS;
	return 0;
}

static int
exec_words(struct sq_conf *c, char **w, int nw, int theme_only,
	   const char *file, char *why, size_t n)
{
	const char *cmd = w[0];

	if (theme_only && strcmp(cmd, "color") != 0) {
		snprintf(why, n,
			 "a theme file holds only color lines, not "
			 "'%.40s'",
			 cmd);
		return -1;
	}
	if (strcmp(cmd, "set") == 0)
		return exec_set(c, w, nw, why, n);
	if (strcmp(cmd, "bind") == 0 || strcmp(cmd, "unbind") == 0)
		return exec_bind(c, w, nw, why, n);
	if (strcmp(cmd, "color") == 0 || strcmp(cmd, "colour") == 0)
		return exec_color(c, w + 1, nw - 1, why, n);
	if (strcmp(cmd, "theme") == 0) {
		struct sq_err e;

		if (nw != 2) {
			snprintf(why, n, "usage: theme NAME");
			return -1;
		}
		if (sq_conf_load_theme(c, w[1], &e) == -1) {
			snprintf(why, n, "%s", e.msg);
			return -1;
		}
		return 0;
	}
	if (strcmp(cmd, "source") == 0) {
		char path[1024];

		if (nw != 2) {
			snprintf(why, n, "usage: source FILE");
			return -1;
		}
		sq_conf_expand_path(w[1], file, path, sizeof(path));
		return load_file(c, path, 0, 0, why, n);
	}
	if (strcmp(cmd, "cluster") == 0)
		return sq_conf_exec_cluster(c, w + 1, nw - 1, file, why, n);
	if (strcmp(cmd, "reason") == 0)
		return exec_reason(c, w + 1, nw - 1, why, n);
	if (strcmp(cmd, "view") == 0) {
		if (sq_saved_define(&c->views, w + 1, nw - 1, why, n) == -1)
			return -1;
		c->changed |= SQ_CONF_CH_VIEWS;
		return 0;
	}
	snprintf(why, n, "unknown command '%.60s'", cmd);
	return -1;
}

static int
exec_line(struct sq_conf *c, const char *text, int theme_only, const char *file,
	  char *why, size_t n)
{
	char line[2048], *w[64];
	const char *lexerr;
	int nw;

	if (strlen(text) >= sizeof(line)) {
		snprintf(why, n, "line too long");
		return -1;
	}
	snprintf(line, sizeof(line), "%s", text);
	nw = sq_conf_words(line, w, 64, &lexerr);
	if (nw < 0) {
		snprintf(why, n, "%s", lexerr);
		return -1;
	}
	if (nw == 0)
		return 0;
	return exec_words(c, w, nw, theme_only, file, why, n);
}

int
sq_conf_exec(struct sq_conf *c, const char *text, const char *file, int line,
	     struct sq_err *err)
{
	char why[600];

	why[0] = '\0';
	if (exec_line(c, text, 0, file, why, sizeof(why)) == 0)
		return 0;
	if (file != NULL && line > 0)
		return sq_err_set(err, SQ_ERR_USAGE, "%s:%d: %s", file, line,
				  why);
	return sq_err_set(err, SQ_ERR_USAGE, "%s", why);
}

/*
 * Read path; record each bad line. Returns -1 (why set) only when the file
 * cannot be read or is a source loop.
 */
static int
load_file(struct sq_conf *c, const char *path, int theme_only,
	  int quiet_missing, char *why, size_t n)
{
	char real[PATH_MAX], text[4096], msg[600], lwhy[600];
	FILE *fp;
	int i, lineno = 0;

	if (realpath(path, real) == NULL) {
		if (errno == ENOENT && quiet_missing)
			return 0;
		snprintf(why, n, "cannot read %.400s: %s", path,
			 strerror(errno));
		return -1;
	}
	for (i = 0; i < c->depth; i++) {
		if (strcmp(c->stack[i], real) == 0) {
			snprintf(why, n,
				 "source loop: %.400s is already being "
				 "read",
				 path);
			return -1;
		}
	}
	if (c->depth == SQ_CONF_MAX_DEPTH) {
		snprintf(why, n, "source nested more than %d deep",
			 SQ_CONF_MAX_DEPTH);
		return -1;
	}
	fp = fopen(path, "r");
	if (fp == NULL) {
		if (errno == ENOENT && quiet_missing)
			return 0;
		snprintf(why, n, "cannot read %.400s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (strlen(real) >= sizeof(c->stack[0])) {
		fclose(fp);
		snprintf(why, n, "path too long: %.400s", path);
		return -1;
	}
	memcpy(c->stack[c->depth], real, strlen(real) + 1);
	c->depth++;
	while (fgets(text, sizeof(text), fp) != NULL) {
		size_t l = strlen(text);

		lineno++;
		if (l > 0 && text[l - 1] != '\n' && !feof(fp)) {
			int ch;

			while ((ch = fgetc(fp)) != EOF && ch != '\n')
				;
			snprintf(msg, sizeof(msg), "%.400s:%d: line too long",
				 path, lineno);
			sq_conf_note(c, msg);
			continue;
		}
		/* the depth counts the file for source, so relative paths in
		 * it resolve against its directory */
		if (exec_line(c, text, theme_only, path, lwhy, sizeof(lwhy)) ==
		    -1) {
			snprintf(msg, sizeof(msg), "%.300s:%d: %.280s", path,
				 lineno, lwhy);
			sq_conf_note(c, msg);
		}
	}
	fclose(fp);
	c->depth--;
	return 0;
}

int
sq_conf_load_file(struct sq_conf *c, const char *path, int theme_only,
		  int quiet_missing)
{
	char why[600];

	if (load_file(c, path, theme_only, quiet_missing, why, sizeof(why)) ==
	    -1) {
		sq_conf_note(c, why);
		return -1;
	}
	return 0;
}

void
sq_conf_load_default(struct sq_conf *c, const char *sysconfdir)
{
	const char *env = getenv("SQUALL_CONFIG");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char path[1024];

	if (env != NULL && *env != '\0') {
		sq_conf_load_file(c, env, 0, 0);
		return;
	}
	if (sysconfdir != NULL && *sysconfdir != '\0') {
		snprintf(path, sizeof(path), "%s/squall/config", sysconfdir);
		sq_conf_load_file(c, path, 0, 1);
	}
	if (xdg != NULL && *xdg == '/')
		snprintf(path, sizeof(path), "%s/squall/config", xdg);
	else if (home != NULL && *home != '\0')
		snprintf(path, sizeof(path), "%s/.config/squall/config", home);
	else
		return;
	sq_conf_load_file(c, path, 0, 1);
}
