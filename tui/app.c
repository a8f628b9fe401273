/*
 * app.c - the console's event loop. The UI thread owns curses and never
 * blocks: it poll()s the terminal, a self-pipe written by the signal
 * handlers (SIGWINCH resizes, SIGINT/SIGTERM/SIGHUP quit) and the
 * worker's pipe, then swaps in new snapshots, runs keys and redraws.
 * Nothing is printed while curses is active.
 */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "backends/backend.h"
#include "config.h"
#include "session/plan.h"
#include "tui/actions.h"
#include "tui/pane_output.h"
#include "tui/ssh_node.h"
#include "tui/live.h"
#include "tui/app.h"
#include "tui/saved.h"
#include "tui/tui.h"
#include "tui/views.h"

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

struct sq_table *
sq_app_table(struct sq_app *app)
{
	return &app->tables[app->view];
}

void
sq_app_message(struct sq_app *app, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof(app->msg), fmt, ap);
	va_end(ap);
	app->msg_error = error;
	app->msg_time = time(NULL);
	app->dirty = 1;
}

static int
view_index(const struct sq_view_def *def)
{
	int i;

	for (i = 0; sq_views[i] != NULL; i++) {
		if (sq_views[i] == def)
			return i;
	}
	return -1;
}

/* Take the newest snapshot of the current view (and keep the rest). */
static void
sync_view(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	struct sq_snapshot *s;

	if (app->worker == NULL)
		return;
	if (t->def->kind == SQ_KIND_WHATIF) {
		sq_tui_whatif_sync(app, t);
		return;
	}
	s = sq_worker_get(app->worker, t->def->kind);
	if (s != t->snap && s != NULL)
		sq_table_set_snapshot(t, s);
	sq_snapshot_unref(s);
	if (t->def->kind == SQ_KIND_NODES)
		sq_tui_nodes_sync(app, t);
	if (t->def->kind == SQ_KIND_OVERVIEW ||
	    t->def->kind == SQ_KIND_CLUSTERS)
		sq_tui_glance_sync(app, t);
}

void
sq_app_want(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	unsigned want;

	if (app->worker == NULL)
		return;
	if (app->paused) {
		sq_worker_want(app->worker, 0);
		return;
	}
	/* the plan's lazy partners (sprio) when a column shows them */
	want = sq_plan_kinds(t->def->kind,
			     sq_plan_want_cols(t->def, t->cols, t->ncols));
	/* the at-a-glance views compose their rows on the UI thread from
	 * the worker's snapshots (their history lives there) */
	if (t->def->kind == SQ_KIND_OVERVIEW ||
	    t->def->kind == SQ_KIND_CLUSTERS)
		want = sq_tui_glance_want(t->def->kind);
	if (t->def->kind == SQ_KIND_NODES && sq_tui_nodes_grouped())
		want |= SQ_KIND_BIT(SQ_KIND_NODESETS);
	if (app->mode == SQ_MODE_PANE && app->pane.kind == SQ_PANE_DETAIL &&
	    t->ops != NULL)
		want |= t->ops->detail_kinds;
	sq_worker_want(app->worker, want);
}

int
sq_app_show_view(struct sq_app *app, const char *name, const char *filter)
{
	const struct sq_view_def *def = sq_view_find(name);
	int i;

	if (def == NULL) {
		sq_app_message(app, 1, "no view called '%s' (:help lists them)",
			       name);
		return -1;
	}
	i = view_index(def);
	if (i < 0)
		return -1;
	if (i != app->view) {
		if (app->nhistory == 32) {
			memmove(app->history, app->history + 1,
				31 * sizeof(app->history[0]));
			app->nhistory--;
		}
		app->history[app->nhistory++] = app->view;
		app->view = i;
	}
	app->mode = SQ_MODE_TABLE;
	sync_view(app);
	if (filter != NULL) {
		char err[300];

		if (sq_table_filter(sq_app_table(app), filter, err,
				    sizeof(err)) == -1)
			sq_app_message(app, 1, "%s", err);
		else
			sq_table_goto(sq_app_table(app), 0);
	}
	sq_app_want(app);
	app->dirty = 1;
	return 0;
}

static void
go_back(struct sq_app *app)
{
	struct sq_table *t = sq_app_table(app);
	char err[64];

	if (sq_filter_active(&t->filter)) {
		sq_table_filter(t, "", err, sizeof(err));
		return;
	}
	if (app->nhistory > 0) {
		app->view = app->history[--app->nhistory];
		sync_view(app);
		sq_app_want(app);
		return;
	}
	sq_app_message(app, 0, "q quits squall");
}

static void
cycle_view(struct sq_app *app, int dir)
{
	int n = (int)app->ntables;
	int v = (app->view + dir + n) % n;

	sq_app_show_view(app, sq_views[v]->name, NULL);
}

static void
sort_by_cursor(struct sq_app *app, int desc_only)
{
	struct sq_table *t = sq_app_table(app);
	int col;

	if (t->ncols == 0)
		return;
	col = t->cols[t->curcol];
	if (desc_only)
		sq_table_sort(t, col, 1);
	else if (t->sort == col)
		sq_table_sort(t, col, !t->sort_desc);
	else
		sq_table_sort(t, col, 0);
}

void
sq_app_action(struct sq_app *app, enum sq_tui_action a, int key)
{
	struct sq_table *t = sq_app_table(app);
	long page = app->page > 1 ? app->page - 1 : 1;

	if (t->ops != NULL && t->ops->action != NULL &&
	    t->ops->action(app, t, a))
		return;
	switch (a) {
	case SQ_TA_DOWN:
		sq_table_move(t, 1);
		break;
	case SQ_TA_UP:
		sq_table_move(t, -1);
		break;
	case SQ_TA_PAGE_DOWN:
		sq_table_move(t, page);
		t->top += (size_t)page;
		break;
	case SQ_TA_PAGE_UP:
		sq_table_move(t, -page);
		t->top = t->top > (size_t)page ? t->top - (size_t)page : 0;
		break;
	case SQ_TA_TOP:
		sq_table_goto(t, 0);
		break;
	case SQ_TA_BOTTOM:
		sq_table_goto(t, t->nrows ? t->nrows - 1 : 0);
		break;
	case SQ_TA_LEFT:
		if (t->curcol > 0)
			t->curcol--;
		break;
	case SQ_TA_RIGHT:
		if (t->curcol + 1 < t->ncols)
			t->curcol++;
		break;
	case SQ_TA_DETAIL:
		sq_detail_open(app);
		break;
	case SQ_TA_BACK:
		go_back(app);
		break;
	case SQ_TA_TAG: {
		const void *rec = sq_table_cur(t);
		char id[256];

		if (rec == NULL)
			break;
		sq_table_id(t, rec, id, sizeof(id));
		sq_table_tag(t, id, !sq_table_tagged(t, id));
		sq_table_move(t, 1);
		break;
	}
	case SQ_TA_SORT:
	case SQ_TA_SORT_DESC:
		sort_by_cursor(app, a == SQ_TA_SORT_DESC);
		break;
	case SQ_TA_FILTER:
		sq_prompt_open(app, '/', "");
		break;
	case SQ_TA_NEXT_MATCH:
	case SQ_TA_PREV_MATCH:
		if (t->search[0] == '\0')
			sq_app_message(app, 1, "no pattern yet: / sets one");
		else if (!sq_table_search(t, a == SQ_TA_NEXT_MATCH ? 1 : -1))
			sq_app_message(app, 1, "no row matches /%s", t->search);
		break;
	case SQ_TA_COMMAND:
		sq_prompt_open(app, ':', "");
		break;
	case SQ_TA_COLUMNS:
		sq_columns_open(app);
		break;
	case SQ_TA_FOLD:
	case SQ_TA_UNFOLD:
		sq_app_message(app, 0, "nothing folds in the %s view",
			       t->def->name);
		break;
	case SQ_TA_MAP:
		sq_app_message(app, 0, "the node map is in the nodes view");
		break;
	case SQ_TA_SSH:
		sq_ssh_node(app, "");
		break;
	case SQ_TA_GROUP:
		if (key == 'o' && sq_output_view_key(app, key))
			break;
		sq_app_message(app, 0, "node sets group the nodes view");
		break;
	case SQ_TA_FOLLOW: {
		struct sq_link links[SQ_PANE_LINKS];
		const void *rec = sq_table_cur(t);
		int n =
		    rec ? sq_links_of(app, t, rec, links, SQ_PANE_LINKS) : 0;
		int k = key >= '1' && key <= '9' ? key - '1' : 0;

		if (k >= n)
			sq_app_message(app, 1, "this row has no link %d",
				       k + 1);
		else
			sq_follow_link(app, &links[k]);
		break;
	}
	case SQ_TA_NEXT_VIEW:
	case SQ_TA_PREV_VIEW:
		cycle_view(app, a == SQ_TA_NEXT_VIEW ? 1 : -1);
		break;
	case SQ_TA_REFRESH:
		if (app->worker != NULL) {
			sq_app_want(app);
			sq_worker_refresh(app->worker,
					  SQ_KIND_BIT(t->def->kind));
		}
		sq_app_message(app, 0, "refreshing %s", t->def->name);
		break;
	case SQ_TA_REDRAW:
		clearok(curscr, TRUE);
		break;
	case SQ_TA_HELP:
		sq_help_open(app);
		break;
	case SQ_TA_QUIT:
		app->quit = 1;
		break;
	case SQ_TA_NONE:
	case SQ_TA_COUNT:
		break;
	}
	app->dirty = 1;
}

/* Keys in a text pane: scroll, follow links, close. */
static void
pane_key(struct sq_app *app, const struct sq_keybind *b, int key)
{
	struct sq_pane *p = &app->pane;
	size_t page = app->page > 2 ? (size_t)app->page - 2 : 1;
	enum sq_tui_action a = b != NULL ? b->action : SQ_TA_NONE;

	if (p->kind == SQ_PANE_OUTPUT && sq_output_pane_key(app, a, key)) {
		app->dirty = 1;
		return;
	}
	switch (a) {
	case SQ_TA_DOWN:
		if (p->top + 1 < p->n)
			p->top++;
		break;
	case SQ_TA_UP:
		if (p->top > 0)
			p->top--;
		break;
	case SQ_TA_PAGE_DOWN:
		p->top = p->top + page < p->n ? p->top + page : p->top;
		break;
	case SQ_TA_PAGE_UP:
		p->top = p->top > page ? p->top - page : 0;
		break;
	case SQ_TA_TOP:
		p->top = 0;
		break;
	case SQ_TA_BOTTOM:
		p->top = p->n > page ? p->n - page : 0;
		break;
	case SQ_TA_FOLLOW:
		if (key >= '1' && key <= '9' && key - '1' < p->nlinks)
			sq_follow_link(app, &p->links[key - '1']);
		else
			sq_app_message(app, 1, "no link %c here", key);
		break;
	case SQ_TA_COMMAND:
		sq_prompt_open(app, ':', "");
		break;
	case SQ_TA_REFRESH:
	case SQ_TA_REDRAW:
	case SQ_TA_NEXT_VIEW:
	case SQ_TA_PREV_VIEW:
		app->mode = SQ_MODE_TABLE;
		sq_app_action(app, a, key);
		break;
	case SQ_TA_BACK:
	case SQ_TA_QUIT:
	case SQ_TA_HELP:
	case SQ_TA_DETAIL:
		app->mode = SQ_MODE_TABLE;
		sq_app_want(app);
		break;
	default:
		break;
	}
	app->dirty = 1;
}

static int
mutating(const char *name)
{
	const struct sq_action_def *d = sq_action_find(name, -1);

	return d != NULL && (d->flags & SQ_ACT_MUTATES);
}

static void
handle_key(struct sq_app *app, int key)
{
	const struct sq_keybind *b;

	app->msg[0] = '\0';
	app->dirty = 1;
	if (app->too_small) {
		b = sq_keymap_find(&app->keymap, key);
		if (b != NULL && b->action == SQ_TA_QUIT)
			app->quit = 1;
		return;
	}
	if (app->st.question != 0 && app->worker != NULL) {
		sq_question_key(app, key);
		return;
	}
	if (sq_tui_action_modal(app)) {
		sq_tui_action_modal_key(app, key);
		return;
	}
	if (app->prompt.active) {
		sq_prompt_key(app, key);
		return;
	}
	if (app->mode == SQ_MODE_COLUMNS) {
		sq_columns_key(app, key);
		return;
	}
	b = sq_keymap_find(&app->keymap, key);
	if (app->mode == SQ_MODE_PANE) {
		pane_key(app, b, key);
		return;
	}
	if (b == NULL) {
		if (!sq_output_view_key(app, key))
			sq_tui_action_key(app, key);
		return;
	}
	if (b->action != SQ_TA_NONE)
		sq_app_action(app, b->action, key);
	else if (b->name[0] == ':')
		sq_cmd_run(app, b->name + 1);
	else if (app->readonly && mutating(b->name))
		sq_app_message(app, 1, "read-only: %s is refused", b->name);
	else
		sq_tui_action_dispatch(app, b->name);
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
			handle_key(app, key);
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
		sync_view(app);
		if (app->mode == SQ_MODE_PANE &&
		    app->pane.kind == SQ_PANE_DETAIL)
			sq_detail_refresh(app);
		app->dirty = 1;
	}
}

int
sq_app_connect(struct sq_app *app, const struct sq_cluster_cfg *cfg)
{
	struct sq_worker *w;
	struct sq_err err;
	size_t i;

	sq_err_clear(&err);
	w = sq_worker_start(cfg, cfg->refresh,
			    (int)app->conf->num[SQ_OPT_REFRESH_SLOW], &err);
	if (w == NULL) {
		sq_app_message(app, 1, "cannot start the worker: %s", err.msg);
		return -1;
	}
	if (app->worker != NULL) {
		int left = sq_worker_stop(app->worker, 200);

		sq_tui_action_reset(app, left);
		sq_tui_live_reset(app, left);
		sq_output_reset(app, left);
	}
	app->worker = w;
	app->cfg = *cfg;
	if (app->unfocused) {
		int fast, slow;

		sq_idle_intervals(app, &fast, &slow);
		sq_worker_intervals(w, fast, slow);
	}
	app->readonly = cfg->readonly || app->conf->num[SQ_OPT_READONLY];
	app->seen_gen = 0;
	memset(&app->st, 0, sizeof(app->st));
	for (i = 0; i < app->ntables; i++)
		sq_table_set_snapshot(&app->tables[i], NULL);
	sq_app_want(app);
	app->dirty = 1;
	return 0;
}

void
sq_app_conf_changed(struct sq_app *app)
{
	unsigned ch = app->conf->changed;

	app->conf->changed = 0;
	if (ch & SQ_CONF_CH_KEYS)
		sq_keymap_build(&app->keymap, app->conf);
	if (ch & (SQ_CONF_CH_COLORS | SQ_CONF_CH_OPTIONS)) {
		sq_colors_apply(app);
		clearok(curscr, TRUE);
	}
	if (ch & SQ_CONF_CH_OPTIONS) {
		app->readonly =
		    app->cfg.readonly || app->conf->num[SQ_OPT_READONLY];
		app->cfg.refresh = (int)app->conf->num[SQ_OPT_REFRESH];
		if (app->worker != NULL) {
			int fast, slow;

			sq_idle_intervals(app, &fast, &slow);
			sq_worker_intervals(app->worker, fast, slow);
		}
	}
	app->dirty = 1;
}

void
sq_tui_conf_setup(struct sq_conf *conf, const char *argv0)
{
	char exe[512];
	ssize_t n;

	conf->action_ok = sq_keys_action_ok;
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
		 * idle work for a filter being typed goes first */
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
			app->warm = sq_table_warm(sq_app_table(app), 4096);
		} else if (rc == 0) {
			sq_worker_status(app->worker, &app->st);
			app->dirty = 1;
		}
		/* every turn: a worker that publishes each second (refresh 1)
		 * keeps poll() from ever timing out */
		sq_idle_tick(app);
		sq_tui_glance_tick(app);
		sq_output_tick(app);
	}
}

int
sq_tui_run(struct sq_conf *conf, const struct sq_cluster_cfg *cfg,
	   const char *filter)
{
	struct sq_app *app;
	SCREEN *scr;
	struct sq_err err;
	const char *cs;
	int i;

	setlocale(LC_ALL, "");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "squall: the console needs a terminal "
				"(batch mode: squall --once)\n");
		return 1;
	}
	app = calloc(1, sizeof(*app));
	if (app == NULL)
		return 1;
	app->conf = conf;
	cs = nl_langinfo(CODESET);
	app->utf8 = cs != NULL && strcmp(cs, "UTF-8") == 0;
	for (app->ntables = 0; sq_views[app->ntables] != NULL;)
		app->ntables++;
	app->tables = calloc(app->ntables, sizeof(*app->tables));
	if (app->tables == NULL) {
		free(app);
		return 1;
	}
	for (i = 0; i < (int)app->ntables; i++) {
		struct sq_table *t = &app->tables[i];

		sq_table_init(t, sq_views[i]);
		if (t->def->kind == SQ_KIND_JOBS)
			t->fold_default =
			    (int)conf->num[SQ_OPT_COLLAPSE_ARRAYS];
		if (t->def->kind == SQ_KIND_NODES)
			t->mode = (int)conf->num[SQ_OPT_NODEMAP];
	}
	sq_saved_apply_all(app); /* the config's `view` lines */
	app->view = view_index(sq_view_find(conf->str[SQ_OPT_VIEW]));
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
	/* ours, not ncurses', so SIGWINCH reaches poll() via the pipe */
	setup_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
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
	sq_backend_set_prompt(NULL);
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
