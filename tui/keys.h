/*
 * keys.h - the console's own actions (move, filter, sort, help ...) as
 * one X-macro table with their help texts and default keys. The same
 * table feeds key dispatch, `?` help, `:help`, the config validator of
 * `bind` and the test that checks the man page's key list. A key may
 * also be bound to a cluster action name (core/action/action.h) or to a `:`
 * command line ("bind F5 :view nodes"); those go to tui/actions.c and
 * the command parser.
 */
#ifndef SQ_KEYS_H
#define SQ_KEYS_H

#include <stddef.h>

/* X(enum suffix, name, help) */
#define SQ_TUI_ACTIONS(X)                                                      \
	X(DOWN, "down", "move the cursor down one row")                        \
	X(UP, "up", "move the cursor up one row")                              \
	X(PAGE_DOWN, "page-down", "move down one page")                        \
	X(PAGE_UP, "page-up", "move up one page")                              \
	X(TOP, "top", "go to the first row")                                   \
	X(BOTTOM, "bottom", "go to the last row")                              \
	X(LEFT, "left", "select the column to the left")                       \
	X(RIGHT, "right", "select the column to the right")                    \
	X(DETAIL, "detail",                                                    \
	  "open the detail pane of the row (full record, why pending, "        \
	  "a node's jobs, links)")                                             \
	X(BACK, "back",                                                        \
	  "close the pane, clear the filter, or go back to the previous "      \
	  "view")                                                              \
	X(TAG, "tag", "tag or untag the row and move down")                    \
	X(SORT, "sort",                                                        \
	  "sort by the selected column, ascending (again: reverse)")           \
	X(SORT_DESC, "sort-desc", "sort by the selected column, descending")   \
	X(FILTER, "filter",                                                    \
	  "filter rows: /regex (PCRE2), /!regex inverts, /@column=value")      \
	X(NEXT_MATCH, "next-match",                                            \
	  "go to the next row matching the last "                              \
	  "filter pattern")                                                    \
	X(PREV_MATCH, "prev-match",                                            \
	  "go to the previous row matching the last filter pattern")           \
	X(COMMAND, "command", "enter a command (:view, :set, :help ...)")      \
	X(COLUMNS, "columns", "choose and order the columns of the view")      \
	X(FOLD, "fold", "fold the tree node or job array under the cursor")    \
	X(UNFOLD, "unfold", "unfold the tree node or job array")               \
	X(MAP, "map", "switch the nodes view between table and node map")      \
	X(GROUP, "group", "group the nodes view by node set, or stop")         \
	X(FOLLOW, "follow",                                                    \
	  "follow link N of the row (the detail pane lists them)")             \
	X(SSH, "ssh",                                                          \
	  "open a shell on the node under the cursor (or a running job's "     \
	  "first node) with your ssh")                                         \
	X(NEXT_VIEW, "next-view", "show the next view")                        \
	X(PREV_VIEW, "prev-view", "show the previous view")                    \
	X(REFRESH, "refresh", "fetch the view's data now")                     \
	X(REDRAW, "redraw", "redraw the screen")                               \
	X(HELP, "help", "show this help")                                      \
	X(QUIT, "quit", "quit squall")

enum sq_tui_action {
	SQ_TA_NONE = -1,
#define SQ_TA_ENUM(e, n, h) SQ_TA_##e,
	SQ_TUI_ACTIONS(SQ_TA_ENUM)
#undef SQ_TA_ENUM
	    SQ_TA_COUNT
};

struct sq_keydef {
	const char *key; /* key name as squall.conf(5) writes it */
	enum sq_tui_action action;
};

/* The default bindings, NULL-key terminated, in help order. */
extern const struct sq_keydef sq_default_keys[];

const char *sq_ta_name(enum sq_tui_action a);
const char *sq_ta_help(enum sq_tui_action a);
/* Action of a name, or SQ_TA_NONE. */
enum sq_tui_action sq_ta_from_name(const char *name);

/* One binding of the live key map: a console action, or a name passed
 * to tui/actions.c, or ":command". */
struct sq_keybind {
	int key;
	enum sq_tui_action action; /* SQ_TA_NONE: use name */
	char name[64];
};

#define SQ_KEYMAP_MAX 320

struct sq_keymap {
	struct sq_keybind b[SQ_KEYMAP_MAX];
	size_t n;
};

struct sq_conf;

/* Defaults, then the conf's bind/unbind lines in order. */
void sq_keymap_build(struct sq_keymap *km, const struct sq_conf *conf);
/* The binding of key, or NULL. */
const struct sq_keybind *sq_keymap_find(const struct sq_keymap *km, int key);
/* Keys bound to an action name, comma-separated ("j, Down"). */
void sq_keymap_keys_of(const struct sq_keymap *km, const char *name, char *buf,
		       size_t n);

/* For conf->action_ok: a console action, a cluster action, or ":cmd"
 * (the console also takes :audit and :undo bare: sq_cmd_action_ok). */
int sq_keys_action_ok(const char *name, void *arg);

#endif
