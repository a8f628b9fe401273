/*
 * app.h - the console's state shared by the files of tui/: the views'
 * tables, the worker of the connected cluster, the mode (table, help,
 * detail, column chooser, prompt), the message line, colours and keys;
 * and the few calls every part of the console makes on it (app.c): the
 * current table, the message line, what the worker fetches, which view
 * shows. The loop that runs it all is tui.c. Everything here belongs to
 * the UI thread, which alone calls curses.
 */
#ifndef SQ_APP_H
#define SQ_APP_H

#include <stddef.h>
#include <time.h>

#include "core/conf/conf.h"
#include "tui/app_state.h"
#include "tui/keys.h"
#include "tui/pane.h"
#include "tui/table.h"
#include "tui/worker.h"

#define SQ_MIN_COLS 40
#define SQ_MIN_ROWS 8

/* The session's error messages in full, newest last, for :messages (the
 * message line cuts them at the screen's width). */
#define SQ_APP_ERRS 32
struct sq_app_errs {
	char text[SQ_APP_ERRS][1024];
	time_t when[SQ_APP_ERRS];
	size_t total; /* every one logged; text holds the last SQ_APP_ERRS */
};

enum sq_mode {
	SQ_MODE_TABLE,
	SQ_MODE_PANE,    /* help, detail, messages: a scrolling text pane */
	SQ_MODE_COLUMNS, /* the column chooser */
};

struct sq_lineedit {
	int active;
	char kind;       /* ':' or '/' */
	char buf[512];   /* UTF-8 */
	size_t len, pos; /* bytes */
	char saved[256]; /* the filter before '/' started (live preview) */
	int hist_pos;
	/* Tab completion state */
	char comp_base[512];
	int comp_index;
};

#define SQ_HISTORY 64

struct sq_colchooser {
	int order[SQ_TABLE_MAX_COLS]; /* def column indices, in order */
	int on[SQ_TABLE_MAX_COLS];
	int n, cur;
};

struct sq_tui_glance;

struct sq_app {
	struct sq_conf *conf;
	struct sq_cluster_cfg cfg;
	/* the history window `:since` set, for every cluster this console
	 * connects to (it wins over theirs), or "" */
	char since[64];
	struct sq_worker *worker;
	struct sq_worker_status st;
	struct sq_keymap keymap;
	int readonly;

	/* one table per view of sq_views[] */
	struct sq_table *tables;
	size_t ntables;
	int view;
	int history[32];
	int nhistory;

	enum sq_mode mode;
	struct sq_pane pane;
	struct sq_colchooser chooser;
	struct sq_lineedit prompt;
	char hist[2][SQ_HISTORY][256]; /* ':' and '/' histories */
	int nhist[2];

	char msg[512]; /* the message line */
	int msg_error;
	time_t msg_time;
	struct sq_app_errs errs; /* the errors of the message line, whole */

	int rows, cols;
	int too_small;
	int page;   /* rows per page of the body, for PgUp/PgDn */
	int colors; /* colours in use (0: attributes only) */
	/* the curses attributes of each colour role (colors.c) */
	int role_attr[SQ_ROLE_COUNT];
	int utf8;
	unsigned spin;
	unsigned seen_gen;
	int dirty;
	int warm; /* idle work for the filter left (sq_table_warm) */
	/* idle.c: the console stops querying when nobody looks */
	double last_key; /* sq_util_now_ms() of the last key */
	int paused;      /* no key for idle-pause seconds: no fetches */
	int unfocused;   /* the terminal said it lost focus */
	int quit;
	int exit_code;
	int sigfd[2];
	char qbuf[512]; /* the answer being typed to a backend question */
	size_t qlen;
	/* this connection's action, live pane, GPU holders and output pane
	 * (reset on connect) */
	struct sq_tui_act_state act;
	struct sq_tui_live_state live;
	struct sq_tui_gpumap_state gpumap;
	struct sq_tui_output_state out;
	/* the at-a-glance views' state (view_overview.c; NULL until
	 * needed) */
	struct sq_tui_glance *glance;
};

/* The table of the current view. */
struct sq_table *sq_app_table(struct sq_app *app);
/* Print a message on the message line (error: in the error colour, and
 * kept whole for :messages). */
void sq_app_message(struct sq_app *app, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Tell the worker what the screen needs now: the plan's kinds for the
 * view (its want hook may change them), and what an open detail pane
 * shows. */
void sq_app_want(struct sq_app *app);
/* Take the newest data of the current view into its table (the view's
 * sync hook, else sq_app_take_snapshot), after the worker published. */
void sq_app_sync(struct sq_app *app);
/* The worker's newest snapshot of t's kind into t, when it has one. */
void sq_app_take_snapshot(struct sq_app *app, struct sq_table *t);
/* The index in sq_views[] (and app->tables) of def, or -1. */
int sq_app_view_index(const struct sq_view_def *def);
/* Switch to view by name or alias, with a filter (NULL: keep the
 * view's); 0, or -1 (message shown). */
int sq_app_show_view(struct sq_app *app, const char *name, const char *filter);
/* The refresh action (r, :refresh): the view's own (its action hook),
 * else fetch the view's kind now. */
void sq_app_refresh(struct sq_app *app);

#endif
