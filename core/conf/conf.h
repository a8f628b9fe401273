/*
 * conf.h - the one command language of squall's config files, theme files
 * and the console's `:` prompt (DESIGN.md section 6): set, bind, unbind,
 * color, theme, source and cluster. Also the names of keys and of colour
 * roles, so the config validator, `?` help and the man page agree.
 *
 * Plain data and text: no curses here. Errors read "file:line: message";
 * a loader records them in the conf and goes on (start-up never aborts).
 * A struct sq_conf belongs to one thread (the UI thread, or main()).
 */
#ifndef SQ_CONF_H
#define SQ_CONF_H

#include <stddef.h>

#include "core/conf/cluster.h"
#include "core/base/err.h"
#include "core/action/reason.h"
#include "core/conf/saved_view.h"

/*
 * Keys. A printable key is its Unicode code point ('j', '?', 'é'); Ctrl-x
 * is the ASCII control code (SQ_KEY_CTRL('l') == 12); the keys below are
 * above the Unicode range. Names: "j", "Space", "Enter", "Esc", "Tab",
 * "C-l" (or "Ctrl-L"), "Up", "PgDn", "F1" ...
 */
#define SQ_KEY_TAB 9
#define SQ_KEY_ENTER 13
#define SQ_KEY_ESC 27
#define SQ_KEY_SPACE 32
#define SQ_KEY_BACKSPACE 127
#define SQ_KEY_CTRL(c) ((c)&0x1f)
#define SQ_KEY_BASE 0x110000

/* X(enum suffix, name) - keys without a character */
#define SQ_SPECIAL_KEYS(X)                                                     \
	X(UP, "Up")                                                            \
	X(DOWN, "Down")                                                        \
	X(LEFT, "Left")                                                        \
	X(RIGHT, "Right")                                                      \
	X(PGUP, "PgUp")                                                        \
	X(PGDN, "PgDn")                                                        \
	X(HOME, "Home")                                                        \
	X(END, "End")                                                          \
	X(INSERT, "Ins")                                                       \
	X(DELETE, "Del")                                                       \
	X(BTAB, "BTab")                                                        \
	X(F1, "F1")                                                            \
	X(F2, "F2")                                                            \
	X(F3, "F3")                                                            \
	X(F4, "F4")                                                            \
	X(F5, "F5")                                                            \
	X(F6, "F6")                                                            \
	X(F7, "F7")                                                            \
	X(F8, "F8")                                                            \
	X(F9, "F9")                                                            \
	X(F10, "F10")                                                          \
	X(F11, "F11")                                                          \
	X(F12, "F12")

enum sq_special_key {
	SQ_KEY_FIRST_SPECIAL = SQ_KEY_BASE - 1,
#define SQ_KEY_ENUM(e, n) SQ_KEY_##e,
	SQ_SPECIAL_KEYS(SQ_KEY_ENUM)
#undef SQ_KEY_ENUM
	    SQ_KEY_LAST
};

/* Key code of a name, or -1. */
int sq_key_parse(const char *name);
/* Canonical name of a key code into buf ("C-l", "PgDn", "j"). */
const char *sq_key_name(int key, char *buf, size_t n);

/*
 * Colour roles: what a colour means, never which colour it is. Themes
 * assign colours to these names. X(enum suffix, name, help)
 */
#define SQ_ROLES(X)                                                            \
	X(NORMAL, "normal", "table cells and plain text")                      \
	X(TITLE, "title", "the top line: view name, filter, counts")           \
	X(HEADER, "header", "table column titles")                             \
	X(HEADER_SORT, "header.sort", "the sorted column's title")             \
	X(HEADER_CURSOR, "header.cursor", "the selected column's title")       \
	X(SELECTION, "selection", "the cursor row")                            \
	X(TAGGED, "tagged", "tagged rows")                                     \
	X(MATCH, "match", "text matching the filter")                          \
	X(STATUS, "status", "the status line")                                 \
	X(STATUS_ERROR, "status.error", "errors on the status line")           \
	X(STALE, "stale", "the age of stale data")                             \
	X(PROMPT, "prompt", "the : and / prompt line")                         \
	X(DIALOG, "dialog", "dialogs, help and the detail pane")               \
	X(DIALOG_TITLE, "dialog.title", "titles inside dialogs")               \
	X(DANGER, "danger", "destructive actions and warnings")                \
	X(HELP_KEY, "help.key", "key names in help")                           \
	X(TREE, "tree", "tree lines and fold marks")                           \
	X(BAR_USED, "bar.used", "used part of a bar")                          \
	X(BAR_FREE, "bar.free", "free part of a bar")                          \
	X(STATE_RUNNING, "state.running", "running jobs")                      \
	X(STATE_PENDING, "state.pending", "pending jobs")                      \
	X(STATE_HELD, "state.held", "held or suspended jobs")                  \
	X(STATE_COMPLETING, "state.completing", "completing jobs")             \
	X(STATE_DONE, "state.done", "completed jobs")                          \
	X(STATE_FAILED, "state.failed", "failed, cancelled, timed-out jobs")   \
	X(OUTCOME_OK, "outcome.ok", "history: completed runs")                 \
	X(OUTCOME_WARN, "outcome.warn",                                        \
	  "history: timed-out, cancelled, preempted, requeued runs")           \
	X(OUTCOME_FAIL, "outcome.fail",                                        \
	  "history: failed, node-failed, out-of-memory runs")                  \
	X(NODE_IDLE, "node.idle", "idle nodes")                                \
	X(NODE_MIXED, "node.mixed", "partly allocated nodes")                  \
	X(NODE_ALLOC, "node.alloc", "fully allocated nodes")                   \
	X(NODE_DRAIN, "node.drain", "draining or drained nodes")               \
	X(NODE_DOWN, "node.down", "down, failed or not responding nodes")      \
	X(NODE_OTHER, "node.other", "reserved, maintenance, future nodes")

enum sq_role {
#define SQ_ROLE_ENUM(e, n, h) SQ_ROLE_##e,
	SQ_ROLES(SQ_ROLE_ENUM)
#undef SQ_ROLE_ENUM
	    SQ_ROLE_COUNT
};

const char *sq_role_name(enum sq_role role);
/* Role of a name, or -1. */
int sq_role_from_name(const char *name);

/* Attributes of a colour */
#define SQ_ATTR_BOLD 0x01
#define SQ_ATTR_DIM 0x02
#define SQ_ATTR_UNDERLINE 0x04
#define SQ_ATTR_REVERSE 0x08
#define SQ_ATTR_BLINK 0x10
#define SQ_ATTR_ITALIC 0x20
#define SQ_ATTR_STANDOUT 0x40

/* fg/bg: -1 terminal default, 0-7 basic, 8-15 bright, 16-255 xterm 256 */
struct sq_color {
	short fg, bg;
	unsigned attrs;
};

/*
 * Options of `set NAME VALUE`. X(enum suffix, name, type, min, max,
 * default, help); type INT (min..max), BOOL (on/off), VIEW (a view name),
 * STR (any word).
 */
#define SQ_OPTIONS(X)                                                          \
	X(REFRESH, "refresh", INT, 1, 86400, "10",                             \
	  "seconds between refreshes of the job queue")                        \
	X(REFRESH_SLOW, "refresh-slow", INT, 60, 86400, "60",                  \
	  "seconds between refreshes of every other kind of data")             \
	X(IDLE_PAUSE, "idle-pause", INT, 0, 86400, "1800",                     \
	  "seconds without a key after which the console stops querying the "  \
	  "cluster (0: never); any key resumes")                               \
	X(FOCUS_EVENTS, "focus-events", BOOL, 0, 1, "on",                      \
	  "ask the terminal for focus reports; while it is not focused every " \
	  "kind refreshes at refresh-slow")                                    \
	X(TIMEOUT, "timeout", INT, 1, 3600, "30",                              \
	  "seconds allowed for one command or request")                        \
	X(MAX_OUTPUT, "max-output", INT, 16, 1048576, "4096",                  \
	  "MiB one Slurm command may print before squall stops reading it "    \
	  "(a week of a big site's sacct is over 1 GiB)")                      \
	X(VIEW, "view", VIEW, 0, 0, "jobs", "the view shown at start-up")      \
	X(CLUSTER, "cluster", STR, 0, 0, "",                                   \
	  "the cluster used when -c is not given")                             \
	X(READONLY, "readonly", BOOL, 0, 1, "off",                             \
	  "refuse and hide every action that changes the cluster")             \
	X(COLOR, "color", BOOL, 0, 1, "on",                                    \
	  "use colours (NO_COLOR in the environment turns them off)")          \
	X(COLLAPSE_ARRAYS, "collapse-arrays", BOOL, 0, 1, "off",               \
	  "show each job array as one row until it is unfolded")               \
	X(NODEMAP, "nodemap", BOOL, 0, 1, "off",                               \
	  "open the nodes view as the compact node map")                       \
	X(HISTORY_SINCE, "history-since", STR, 0, 0, "24h",                    \
	  "start of the history window: 30m, 2h, 7d, 2026-11-01[THH:MM]")      \
	X(GPU_IDLE_BELOW, "gpu-idle-below", INT, 0, 100, "5",                  \
	  "GPU use (percent of a job's GPUs) under which gpus-idle counts a "  \
	  "job idle and a run's peak counts idle in history")                  \
	X(GPU_IDLE_AFTER, "gpu-idle-after", INT, 0, 100000, "30",              \
	  "minutes under gpu-idle-below before gpus-idle lists a job (0: "     \
	  "every job under it now)")                                           \
	X(COMPLETING_STUCK, "completing-stuck", INT, 0, 100000, "10",          \
	  "minutes a job may stay COMPLETING before the overview and the "     \
	  "nodes view flag it (0: never)")                                     \
	X(RPC_USER_SHARE, "rpc-user-share", INT, 0, 100, "50",                 \
	  "percent of slurmctld's RPCs above which the overview flags the "    \
	  "user sending them (0: never)")                                      \
	X(FLAP_EVENTS, "flap-events", INT, 1, 1000, "3",                       \
	  "down/drain events within flap-hours that mark a node flapping")     \
	X(FLAP_HOURS, "flap-hours", INT, 1, 8760, "24",                        \
	  "hours the nodes view counts flap-events in")

enum sq_opt_type { SQ_OT_INT, SQ_OT_BOOL, SQ_OT_VIEW, SQ_OT_STR };

enum sq_option {
#define SQ_OPT_ENUM(e, n, t, lo, hi, d, h) SQ_OPT_##e,
	SQ_OPTIONS(SQ_OPT_ENUM)
#undef SQ_OPT_ENUM
	    SQ_OPT_COUNT
};

struct sq_option_def {
	const char *name;
	enum sq_opt_type type;
	long min, max;
	const char *def;
	const char *help;
};

/* The option table (SQ_OPT_COUNT entries); option by name or -1. */
extern const struct sq_option_def sq_option_defs[];
int sq_option_from_name(const char *name);

/* One `bind KEY ACTION` (action "" for `unbind KEY`), in file order. */
struct sq_binding {
	int key;
	char action[64];
};

/* One recorded "file:line: message". */
struct sq_conf_msg {
	char text[600];
};

#define SQ_CONF_MAX_BINDINGS 256
#define SQ_CONF_MAX_CLUSTERS 32
#define SQ_CONF_MAX_MSGS 32
#define SQ_CONF_MAX_DEPTH 8

/* What a command changed (sq_conf.changed bits) */
#define SQ_CONF_CH_OPTIONS 0x1
#define SQ_CONF_CH_KEYS 0x2
#define SQ_CONF_CH_COLORS 0x4
#define SQ_CONF_CH_CLUSTERS 0x8
#define SQ_CONF_CH_VIEWS 0x10

struct sq_conf {
	/* option values: numbers in num[], words in str[] */
	long num[SQ_OPT_COUNT];
	char str[SQ_OPT_COUNT][64];

	struct sq_binding bindings[SQ_CONF_MAX_BINDINGS];
	size_t nbindings;

	struct sq_color colors[SQ_ROLE_COUNT];
	char theme[64]; /* the theme last loaded ("default" built in) */

	struct sq_cluster_cfg clusters[SQ_CONF_MAX_CLUSTERS];
	char cluster_theme[SQ_CONF_MAX_CLUSTERS][64]; /* theme=, or "" */
	size_t nclusters;

	/* `reason NAME TEXT...`: @NAME in an action's reason */
	struct sq_reasons reasons;
	/* `view NAME key=value...` (core/conf/saved_view.h) */
	struct sq_saved_views views;

	/* errors of the loaders, oldest first; nmsgs_total counts all */
	struct sq_conf_msg msgs[SQ_CONF_MAX_MSGS];
	size_t nmsgs, nmsgs_total;

	/* extra directories searched for NAME.theme (the caller's choice:
	 * the themes/ next to the binary); "" entries are skipped */
	char theme_dirs[2][512];

	/* Is an action name valid for `bind`? NULL accepts any word. */
	int (*action_ok)(const char *name, void *arg);
	void *action_arg;

	unsigned changed; /* SQ_CONF_CH_* since the caller last cleared it */

	/* files being read (for `source` loops) */
	char stack[SQ_CONF_MAX_DEPTH][512];
	int depth;
};

/* Built-in defaults: options, the built-in "default" theme, no bindings,
 * no clusters. */
void sq_conf_init(struct sq_conf *c);

/*
 * Run one line of the language. file and line name the source for
 * messages ("<prompt>" and 0 at the `:` prompt: then the message has no
 * position). Blank lines and # comments do nothing. Returns 0, or -1 with
 * err->msg "file:line: message" (nothing recorded in c->msgs).
 */
int sq_conf_exec(struct sq_conf *c, const char *text, const char *file,
		 int line, struct sq_err *err);

/*
 * Read a file of commands; each bad line is recorded in c->msgs and the
 * rest still runs. theme_only refuses every command but `color`. Returns
 * 0, or -1 when the file cannot be read (recorded too, unless quiet and it
 * does not exist).
 */
int sq_conf_load_file(struct sq_conf *c, const char *path, int theme_only,
		      int quiet_missing);

/*
 * The standard load order after sq_conf_init: $SQUALL_CONFIG alone when
 * set (/dev/null gives a hermetic run); else sysconfdir/squall/config,
 * then $XDG_CONFIG_HOME/squall/config (~/.config when unset). Missing
 * files are not errors.
 */
void sq_conf_load_default(struct sq_conf *c, const char *sysconfdir);

/* Load theme NAME (a file name ending .theme or a path with '/', or a
 * name searched in the theme directories). Colours of roles the theme
 * leaves out come from the built-in default theme. */
int sq_conf_load_theme(struct sq_conf *c, const char *name, struct sq_err *err);

/* The built-in default theme as `color` lines (NULL-terminated). */
extern const char *const sq_conf_default_theme[];

/* A cluster defined by a `cluster` line, or NULL. */
const struct sq_cluster_cfg *sq_conf_cluster(const struct sq_conf *c,
					     const char *name);

/* Current value of an option as text ("10", "on", "jobs"). */
const char *sq_conf_get(const struct sq_conf *c, enum sq_option opt, char *buf,
			size_t n);

/* Record a message in c->msgs (drops the oldest when full). */
void sq_conf_note(struct sq_conf *c, const char *msg);

/*
 * Split a command line into words in place: blanks separate, "..." and
 * '...' quote (backslash escapes " and \ inside "..."), # at the start of
 * a word ends the line. Returns the word count, or -1 (unterminated
 * quote, more than max words) with *why set.
 */
int sq_conf_words(char *line, char **words, int max, const char **why);

/*
 * The settings squall connects with: built-in defaults, then the `set`
 * options (refresh, timeout, readonly), then the `cluster` line chosen by
 * cmdline->name (-c NAME; "default" means none was given, and then `set
 * cluster NAME` chooses, if set), then every field of cmdline that differs
 * from sq_cluster_defaults (options given on the command line win).
 * A command line that names its own backend (-b, -H, -u) is not the
 * config's default `set cluster`: its name is -c NAME (a cluster line, or
 * else a label), or derived from the options (sq_conf_derive_name).
 * Returns -1 when the named cluster is not defined.
 */
int sq_conf_resolve_cluster(const struct sq_conf *c,
			    const struct sq_cluster_cfg *cmdline,
			    struct sq_cluster_cfg *out, struct sq_err *err);
/* The name of a cluster given only by options: "ssh:alice@127.0.0.1",
 * "ssh:host:2222", "rest:127.0.0.1:6820", "local". */
void sq_conf_derive_name(const struct sq_cluster_cfg *cfg, char *buf, size_t n);

#endif
