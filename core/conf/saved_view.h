/*
 * saved_view.h - saved views: `view NAME columns=ID,... sort=[-]ID
 * filter=EXPR` sets what a view shows, `view NEWNAME of=VIEW ...` defines
 * a named view over a built-in one. The config language runs the command
 * (core/conf/conf.c); the console applies it (tui/saved.c) and `:w` writes the
 * current view's line back into the config file (sq_saved_write_file).
 * Plain data; the writer is the only I/O.
 */
#ifndef SQ_SAVED_VIEW_H
#define SQ_SAVED_VIEW_H

#include <stddef.h>

#include "core/base/err.h"
#include "core/model/view.h"

#define SQ_SAVED_MAX 32
#define SQ_SAVED_NAME_MAX 32

/* sq_saved_view.has */
#define SQ_SAVED_COLUMNS 0x1
#define SQ_SAVED_SORT 0x2
#define SQ_SAVED_FILTER 0x4

struct sq_saved_view {
	char name[SQ_SAVED_NAME_MAX + 1];
	const struct sq_view_def *of; /* the built-in view it shows */
	int custom;                   /* a name of its own (of=) */
	unsigned has;                 /* SQ_SAVED_*: what it sets */
	char columns[512];
	char sort[64];
	char filter[256];
};

struct sq_saved_views {
	struct sq_saved_view v[SQ_SAVED_MAX];
	size_t n;
};

/*
 * Run `view` with w[0] the NAME and the rest key=value words (columns,
 * sort, filter, of). Without of=, NAME is a built-in view (or alias) or
 * a view defined before, and the keys given replace those it had. With
 * of=VIEW, NAME must not be a built-in view's name. Columns and sort are
 * checked against the view's columns. Returns 0, or -1 with why.
 */
int sq_saved_define(struct sq_saved_views *sv, char **w, int nw, char *why,
		    size_t n);

/* The saved view NAME (for a built-in view: its name, not an alias). */
const struct sq_saved_view *sq_saved_find(const struct sq_saved_views *sv,
					  const char *name);

/* The config line of v: `view NAME [of=VIEW] columns=... sort=...
 * filter="..."` (quoted so sq_conf_words reads it back). */
const char *sq_saved_line(const struct sq_saved_view *v, char *buf, size_t n);

/*
 * Put line into the config file at path in place of its last `view NAME`
 * line (NAME the line's second word), or at its end when there is none;
 * every other line stays as it was. The file is created when missing,
 * with its missing directories (0700, as ~/.config/squall on a fresh
 * home), and replaced through a temporary file.
 */
int sq_saved_write_file(const char *path, const char *line, struct sq_err *err);

/* The user's config file, where `:w` writes: $SQUALL_CONFIG when set,
 * else $XDG_CONFIG_HOME/squall/config or ~/.config/squall/config.
 * -1 with err when there is none (SQUALL_CONFIG=/dev/null, no HOME). */
int sq_saved_conf_path(char *buf, size_t n, struct sq_err *err);

#endif
