/*
 * tui.c - the console's start, event loop and end (tui/tui.h). The UI
 * thread owns curses and never blocks: it poll()s the terminal, a
 * self-pipe written by the signal handlers (SIGWINCH resizes,
 * SIGINT/SIGTERM/SIGHUP quit) and the worker's pipe, then swaps in new
 * snapshots (tui/app.c), runs keys (tui/input.c) and redraws
 * (tui/draw.c). Nothing is printed while curses is active.
 */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "backends/backend.h"
#include "config.h"
#include "tui/action_dialog.h"
#include "tui/app.h"
#include "tui/app_connect.h"
#include "tui/cmd.h"
#include "tui/colors.h"
#include "tui/detail.h"
#include "tui/draw.h"
#include "tui/idle.h"
#include "tui/input.h"
#include "tui/keys.h"
#include "tui/live.h"
#include "tui/pane.h"
#include "tui/pane_output.h"
#include "tui/saved.h"
#include "tui/table.h"
#include "tui/tui.h"
#include "tui/view_overview.h"
#include "tui/views.h"
#include "tui/worker.h"

static int sig_wfd = -1;

static void
on_signal(int sig)
{
	unsigned char c = (unsigned char)sig;
	int e = errno;
	ssize_t r = write(sig_wfd, &c, 1);

	(void)r;
	errno = e;
}

static int
map_key(int rc, wint_t wc)
{
	if (rc == KEY_CODE_YES) {
		switch (wc) {
		case KEY_UP:
			return SQ_KEY_UP;
		case KEY_DOWN:
			return SQ_KEY_DOWN;
		case KEY_LEFT:
			return SQ_KEY_LEFT;
		case KEY_RIGHT:
			return SQ_KEY_RIGHT;
		case KEY_PPAGE:
			return SQ_KEY_PGUP;
		case KEY_NPAGE:
			return SQ_KEY_PGDN;
		case KEY_HOME:
			return SQ_KEY_HOME;
		case KEY_END:
			return SQ_KEY_END;
		case KEY_IC:
			return SQ_KEY_INSERT;
		case KEY_DC:
			return SQ_KEY_DELETE;
		case KEY_BTAB:
			return SQ_KEY_BTAB;
		case KEY_BACKSPACE:
			return SQ_KEY_BACKSPACE;
		case KEY_ENTER:
			return SQ_KEY_ENTER;
		case KEY_RESIZE:
			return -2;
		default:
			if (wc >= KEY_F(1) && wc <= KEY_F(12))
				return SQ_KEY_F1 + (int)(wc - KEY_F(1));
			return -1;
		}
	}
	if (wc == '\n' || wc == '\r')
		return SQ_KEY_ENTER;
	if (wc == 127 || wc == 8)
		return SQ_KEY_BACKSPACE;
	return (int)wc;
}

static void
resize(struct sq_app *app)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	getmaxyx(stdscr, app->rows, app->cols);
	clearok(curscr, TRUE);
	app->dirty = 1;
}

static void
read_keys(struct sq_app *app)
{
	wint_t wc;
	int rc;

	while (!app->quit && (rc = get_wch(&wc)) != ERR) {
		int key;

		if (sq_idle_key(app, rc, (unsigned)wc))
			continue;
		key = map_key(rc, wc);
		if (key == -2) {
			/* resizeterm() queued it: the size is already set */
			getmaxyx(stdscr, app->rows, app->cols);
			app->dirty = 1;
		} else if (key >= 0)
			sq_input_key(app, key);
	}
}

static void
read_signals(struct sq_app *app)
{
	unsigned char buf[32];
	ssize_t n, i;

	while ((n = read(app->sigfd[0], buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			if (buf[i] == SIGWINCH)
				resize(app);
			else
				app->quit = 1;
		}
	}
}

/* New data from the worker: status, and the current view's snapshot. */
static void
read_worker(struct sq_app *app)
{
	sq_worker_drain(app->worker);
	sq_worker_status(app->worker, &app->st);
	sq_tui_action_poll(app);
	sq_output_poll(app);
	if (app->st.gen != app->seen_gen) {
		app->seen_gen = app->st.gen;
		sq_app_sync(app);
		if (app->mode == SQ_MODE_PANE &&
		    app->pane.kind == SQ_PANE_DETAIL)
			sq_detail_refresh(app);
		app->dirty = 1;
	}
}

void
sq_tui_conf_setup(struct sq_conf *conf, const char *argv0)
{
	char exe[512];
	ssize_t n;

	conf->action_ok = sq_cmd_action_ok;
	conf->action_arg = NULL;
	snprintf(conf->theme_dirs[0], sizeof(conf->theme_dirs[0]),
		 "%s/squall/themes", SQ_DATADIR);
	/* a build tree: themes/ next to the binary */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
	} else if (argv0 != NULL && strchr(argv0, '/') != NULL) {
		snprintf(exe, sizeof(exe), "%s", argv0);
	} else {
		exe[0] = '\0';
	}
	if (strrchr(exe, '/') != NULL) {
		*strrchr(exe, '/') = '\0';
		snprintf(conf->theme_dirs[1], sizeof(conf->theme_dirs[1]),
			 "%.500s/themes", exe);
	}
}

static int
make_sigpipe(struct sq_app *app)
{
	int i;

	if (pipe(app->sigfd) == -1)
		return -1;
	for (i = 0; i < 2; i++) {
		fcntl(app->sigfd[i], F_SETFD, FD_CLOEXEC);
		fcntl(app->sigfd[i], F_SETFL,
		      fcntl(app->sigfd[i], F_GETFL) | O_NONBLOCK);
	}
	sig_wfd = app->sigfd[1];
	return 0;
}

static void
setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGWINCH, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void
start_messages(struct sq_app *app)
{
	struct sq_conf *c = app->conf;

	if (c->nmsgs_total == 0)
		return;
	sq_app_message(app, 1, "%zu config error%s: %s (:messages)",
		       c->nmsgs_total, c->nmsgs_total == 1 ? "" : "s",
		       c->msgs[0].text);
}

static void
loop(struct sq_app *app)
{
	struct pollfd pfd[3];

	while (!app->quit) {
		int timeout, rc;

		if (app->dirty || app->st.busy) {
			if (app->st.busy)
				app->spin++;
			sq_draw(app);
			app->dirty = 0;
		}
		pfd[0].fd = STDIN_FILENO;
		pfd[1].fd = app->sigfd[0];
		pfd[2].fd = sq_worker_fd(app->worker);
		pfd[0].events = pfd[1].events = pfd[2].events = POLLIN;
		pfd[0].revents = pfd[1].revents = pfd[2].revents = 0;
		/* the spinner turns while a call runs; ages tick each second;
		 * idle work for a filter being typed, or the rest of a big
		 * table's rows, goes first */
		if (sq_app_table(app)->pending)
			app->warm = 1;
		timeout = app->warm ? 0 : app->st.busy ? 150 : 1000;
		rc = poll(pfd, 3, timeout);
		if (rc == -1 && errno != EINTR)
			break;
		if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			app->quit = 1;
		if (pfd[1].revents & POLLIN)
			read_signals(app);
		if (pfd[2].revents & POLLIN)
			read_worker(app);
		if (pfd[0].revents & POLLIN)
			read_keys(app);
		if (rc == 0 && app->warm) {
			/* a few ms at a time, so keys are still answered */
			struct sq_table *t = sq_app_table(app);
			int rows = t->pending;

			app->warm = sq_table_warm(t, 4096);
			/* more rows or the count of them to show */
			if (rows)
				app->dirty = 1;
		} else if (rc == 0) {
			sq_worker_status(app->worker, &app->st);
			app->dirty = 1;
		}
		/* every turn: a worker that publishes each second (refresh 1)
		 * keeps poll() from ever timing out */
		sq_idle_tick(app);
		sq_tui_action_tick(app);
		sq_tui_glance_tick(app);
		sq_output_tick(app);
	}
}

/* A new app on conf, with one table per view, or NULL (out of
 * memory). */
static struct sq_app *
app_new(struct sq_conf *conf)
{
	struct sq_app *app = calloc(1, sizeof(*app));
	const char *cs;
	int i;

	if (app == NULL)
		return NULL;
	app->conf = conf;
	cs = nl_langinfo(CODESET);
	app->utf8 = cs != NULL && strcmp(cs, "UTF-8") == 0;
	for (app->ntables = 0; sq_views[app->ntables] != NULL;)
		app->ntables++;
	app->tables = calloc(app->ntables, sizeof(*app->tables));
	if (app->tables == NULL) {
		free(app);
		return NULL;
	}
	for (i = 0; i < (int)app->ntables; i++) {
		struct sq_table *t = &app->tables[i];

		sq_table_init(t, sq_views[i]);
		if (t->ops != NULL && t->ops->init != NULL)
			t->ops->init(t, conf);
	}
	return app;
}

/* The config's saved views, first view, the command line's filter, the
 * cluster's theme and the key map. */
static void
start_options(struct sq_app *app, const struct sq_cluster_cfg *cfg,
	      const char *filter)
{
	struct sq_conf *conf = app->conf;
	struct sq_err err;
	int i;

	sq_saved_apply_all(app); /* the config's `view` lines */
	app->view = sq_app_view_index(sq_view_find(conf->str[SQ_OPT_VIEW]));
	if (app->view < 0)
		app->view = 0;
	if (filter != NULL && *filter != '\0') {
		char ferr[256];

		/* main() checked it; a failure here is only noted */
		if (sq_table_filter(&app->tables[app->view], filter, ferr,
				    sizeof(ferr)) == -1)
			sq_conf_note(conf, ferr);
	}
	/* a cluster's theme= */
	for (i = 0; i < (int)conf->nclusters; i++) {
		if (strcmp(conf->clusters[i].name, cfg->name) == 0 &&
		    conf->cluster_theme[i][0] != '\0' &&
		    sq_conf_load_theme(conf, conf->cluster_theme[i], &err) ==
			-1)
			sq_conf_note(conf, err.msg);
	}
	sq_keymap_build(&app->keymap, conf);
}

/* The terminal's modes, once newterm() has made the screen. */
static void
start_curses(void)
{
	/* ours, not ncurses', so SIGWINCH reaches poll() via the pipe */
	setup_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
}

/* Frees app (its tables, pane and signal pipe); returns its exit
 * code. */
static int
app_free(struct sq_app *app)
{
	int i;

	for (i = 0; i < (int)app->ntables; i++)
		sq_table_free(&app->tables[i]);
	sq_pane_free(&app->pane);
	free(app->tables);
	close(app->sigfd[0]);
	close(app->sigfd[1]);
	i = app->exit_code;
	free(app);
	return i;
}

int
sq_tui_run(struct sq_conf *conf, const struct sq_cluster_cfg *cfg,
	   const char *filter)
{
	struct sq_app *app;
	SCREEN *scr;
	int i;

	setlocale(LC_ALL, "");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "squall: the console needs a terminal "
				"(batch mode: squall --once)\n");
		return 1;
	}
	app = app_new(conf);
	if (app == NULL)
		return 1;
	start_options(app, cfg, filter);
	/* ssh host keys and passwords are asked here, not on stdin */
	sq_backend_set_prompt(sq_worker_prompt_hooks());
	if (make_sigpipe(app) == -1) {
		free(app->tables);
		free(app);
		return 1;
	}
	scr = newterm(NULL, stdout, stdin);
	if (scr == NULL) {
		fprintf(stderr, "squall: cannot use the terminal '%s'\n",
			getenv("TERM") ? getenv("TERM") : "");
		free(app->tables);
		free(app);
		return 1;
	}
	start_curses();
	sq_idle_start(app);
	sq_colors_apply(app);
	getmaxyx(stdscr, app->rows, app->cols);
	start_messages(app);
	if (sq_app_connect(app, cfg) == 0) {
		sq_worker_status(app->worker, &app->st);
		app->dirty = 1;
		loop(app);
	}
	sq_idle_end(app);
	endwin();
	delscreen(scr);
	i = sq_worker_stop(app->worker, 300);
	sq_tui_action_reset(app, i);
	sq_tui_live_reset(app, i);
	sq_output_reset(app, i);
	sq_tui_glance_free(app);
	sq_backend_set_prompt(NULL);
	return app_free(app);
}
