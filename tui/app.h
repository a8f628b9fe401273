/*
 * app.h - the console's state shared by the files of tui/: the views'
 * tables, the worker of the connected cluster, the mode (table, help,
 * detail, column chooser, prompt), the message line, colours and keys.
 * Everything here belongs to the UI thread, which alone calls curses.
 */
#ifndef SQ_APP_H
#define SQ_APP_H

#include <stddef.h>
#include <time.h>

#include "core/conf.h"
#include "core/view.h"
#include "tui/app_state.h"
#include "tui/keys.h"
#include "tui/table.h"
#include "tui/worker.h"

#define SQ_MIN_COLS 40
#define SQ_MIN_ROWS 8

enum sq_mode {
	SQ_MODE_TABLE,
	SQ_MODE_PANE,    /* help, detail, messages: a scrolling text pane */
	SQ_MODE_COLUMNS, /* the column chooser */
};

/* A line of a text pane, with its colour role. */
struct sq_pane_line {
	char *text;
	int role;   /* enum sq_role */
	int indent; /* columns of hanging indent when wrapped */
};

#define SQ_PANE_LINKS 9

/* A link of a row to rows of another view (cross-navigation). */
struct sq_link {
	char label[96];
	char view[32];    /* target view name */
	char filter[256]; /* applied there, e.g. "@nodelist=n3" */
};

struct sq_pane {
	char title[128];
	struct sq_pane_line *lines;
	size_t n, cap;
	size_t top;
	int kind; /* what the pane shows: SQ_PANE_* */
	/* detail pane: the row it describes */
	char row_id[256];
	struct sq_link links[SQ_PANE_LINKS];
	int nlinks;
};

enum { SQ_PANE_HELP, SQ_PANE_DETAIL, SQ_PANE_MESSAGES, SQ_PANE_OUTPUT };

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

struct sq_app {
	struct sq_conf *conf;
	struct sq_cluster_cfg cfg;
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

	int rows, cols;
	int too_small;
	int page;   /* rows per page of the body, for PgUp/PgDn */
	int colors; /* colours in use (0: attributes only) */
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
	/* this connection's action and live pane (reset on connect) */
	struct sq_tui_act_state act;
	struct sq_tui_live_state live;
};

/* The table of the current view. */
struct sq_table *sq_app_table(struct sq_app *app);
/* Print a message on the message line (error: in the error colour). */
void sq_app_message(struct sq_app *app, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Switch to view by name or alias, with a filter ("" none); 0 or -1. */
int sq_app_show_view(struct sq_app *app, const char *name, const char *filter);
/* Tell the worker what the screen needs now. */
void sq_app_want(struct sq_app *app);
/* Run one console action (from a key). */
void sq_app_action(struct sq_app *app, enum sq_tui_action a, int key);
/* Switch to another cluster of the config; 0 or -1 (message shown). */
int sq_app_connect(struct sq_app *app, const struct sq_cluster_cfg *cfg);
/* Apply what a conf change touched (keys, colours, options). */
void sq_app_conf_changed(struct sq_app *app);

/* idle.c: pause when idle, slow down when unfocused */
void sq_idle_start(struct sq_app *app); /* after newterm() */
void sq_idle_end(struct sq_app *app);   /* before endwin() */
/* A key arrived (rc, wc from get_wch): 1 when idle.c used it up (a
 * focus report, or the key that ends a pause). */
int sq_idle_key(struct sq_app *app, int rc, unsigned wc);
void sq_idle_tick(struct sq_app *app); /* about once a second */
/* The intervals to give the worker now: (fast, slow) or (slow, slow). */
void sq_idle_intervals(const struct sq_app *app, int *fast, int *slow);

/* Text panes (help.c, detail.c) */
void sq_pane_clear(struct sq_pane *p, const char *title, int kind);
void sq_pane_add(struct sq_pane *p, int role, int indent, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void sq_pane_free(struct sq_pane *p);
void sq_help_open(struct sq_app *app);
void sq_messages_open(struct sq_app *app);
void sq_detail_open(struct sq_app *app);
/* Rebuild an open detail pane after a refresh (same row id). */
void sq_detail_refresh(struct sq_app *app);
/* Links of a record of table t (cross-navigation). */
int sq_links_of(struct sq_app *app, const struct sq_table *t, const void *rec,
		struct sq_link *out, int max);
void sq_follow_link(struct sq_app *app, const struct sq_link *l);

/* A backend's question (question.c) */
void sq_question_key(struct sq_app *app, int key);
void sq_question_draw(struct sq_app *app);

/* The column chooser (columns.c) */
void sq_columns_open(struct sq_app *app);
void sq_columns_key(struct sq_app *app, int key);

/* The `:` and `/` prompt (prompt.c) */
void sq_prompt_open(struct sq_app *app, char kind, const char *initial);
void sq_prompt_key(struct sq_app *app, int key);
/* Run a `:` command line; 0 or -1 (message shown). */
int sq_cmd_run(struct sq_app *app, const char *line);
/* Tab completion of a command line: candidates into out (max). */
int sq_cmd_complete(struct sq_app *app, const char *line, char **out, int max);

/* Drawing (draw.c) */
void sq_draw(struct sq_app *app);
/* Colour attributes of a role (colors.c) */
int sq_color_attr(const struct sq_app *app, int role);
void sq_colors_apply(struct sq_app *app);
/* The role of a cell by column id and text (state colours), or -1. */
int sq_cell_role(const struct sq_table *t, int col, const char *text);
/* The role of a node state ("idle", "drained", "down*"). */
int sq_node_state_role(const char *state);
/* Draw the table body of t in the given area (table_draw.c). */
void sq_table_draw(struct sq_app *app, struct sq_table *t, int y, int x, int h,
		   int w);

/* Text output that respects display widths (wcwidth) and never writes
 * past w columns; returns the columns used. sq_put_fit pads to w and
 * marks a cut with '~'; sq_clear fills w columns with blanks. */
int sq_put(int y, int x, int w, const char *s, int attr);
int sq_put_fit(int y, int x, int w, const char *s, int attr);
void sq_clear(int y, int x, int w, int attr);
/* Display width of a UTF-8 string (invalid bytes count one). */
int sq_width(const char *s);

#endif
