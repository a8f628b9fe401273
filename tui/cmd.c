/*
 * cmd.c - the `:` commands of the console: views by name or alias, the
 * config language (set, bind, unbind, color, theme, source, cluster) run
 * through core/conf/conf.c exactly as in the file, the table's own commands
 * (filter, sort, columns, untag ...), the list of reason templates,
 * `:audit` and `:undo` (tui/action_undo.c), and Tab completion (@NAME of
 * a reason template included). One row of sq_cmds[] per command
 * (function, aliases, arguments, help, completer, flags);
 * a word that is no command, view or saved view goes to
 * sq_tui_action_dispatch() (tui/actions.c).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/analysis/history.h"
#include "core/base/sanitize.h"
#include "core/analysis/whatif.h"
#include "session/glance.h"
#include "tui/action_undo.h"
#include "tui/actions.h"
#include "tui/app.h"
#include "tui/app_connect.h"
#include "tui/cmd.h"
#include "tui/columns.h"
#include "tui/help.h"
#include "tui/keys.h"
#include "tui/pane.h"
#include "tui/saved.h"
#include "tui/ssh_node.h"
#include "tui/table.h"
#include "tui/view_whatif.h"
#include "tui/worker.h"

static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void
split(const char *line, char *word, size_t n, const char **rest)
{
	size_t l;

	while (*line == ' ')
		line++;
	l = strcspn(line, " ");
	if (l >= n)
		l = n - 1;
	memcpy(word, line, l);
	word[l] = '\0';
	line += strcspn(line, " ");
	while (*line == ' ')
		line++;
	*rest = line;
}

static int
cmd_sort(struct sq_app *app, const char *line, const char *arg)
{
	struct sq_table *t = sq_app_table(app);
	int desc = *arg == '-';
	size_t i;

	if (*arg == '\0') {
		sq_table_sort(t, -1, 0);
		return 0;
	}
	for (i = 0; i < t->def->ncols; i++) {
		if (strcmp(t->def->cols[i].id, arg + desc) == 0) {
			sq_table_sort(t, (int)i, desc);
			return 0;
		}
	}
	sq_app_message(app, 1, "view %s has no column '%s'", t->def->name,
		       arg + desc);
	return -1;
}

static int
cmd_set_show(struct sq_app *app, const char *arg)
{
	char name[64], val[64];
	int o;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "?"), arg);
	o = sq_option_from_name(name);
	if (o < 0) {
		sq_app_message(app, 1, "unknown option '%s'", name);
		return -1;
	}
	sq_app_message(app, 0, "%s=%s", name,
		       sq_conf_get(app->conf, o, val, sizeof(val)));
	return 0;
}

static int
cmd_cluster(struct sq_app *app, const char *line, const char *arg)
{
	struct sq_cluster_cfg cmd, cfg;
	struct sq_err err;

	if (*arg == '\0') {
		size_t i, o = 0;
		char list[400] = "";

		for (i = 0; i < app->conf->nclusters; i++) {
			int w = snprintf(list + o, sizeof(list) - o, " %s",
					 app->conf->clusters[i].name);

			if (w < 0 || (size_t)w >= sizeof(list) - o)
				break;
			o += (size_t)w;
		}
		sq_app_message(app, 0, "cluster %s (%s); defined:%s",
			       app->cfg.name, app->cfg.backend,
			       o ? list : " none");
		return 0;
	}
	if (strchr(arg, ' ') != NULL || strchr(arg, '=') != NULL) {
		/* a definition, as in the config file */
		if (sq_conf_exec(app->conf, line, "<prompt>", 0, &err) == -1) {
			sq_app_message(app, 1, "%s", err.msg);
			return -1;
		}
		sq_clusters_configure(app->conf, &app->cfg); /* :clusters */
		sq_app_message(app, 0,
			       "defined cluster; :cluster NAME "
			       "switches to it");
		return 0;
	}
	sq_cluster_defaults(&cmd);
	snprintf(cmd.name, sizeof(cmd.name), "%s", arg);
	if (sq_conf_resolve_cluster(app->conf, &cmd, &cfg, &err) == -1) {
		sq_app_message(app, 1, "%s", err.msg);
		return -1;
	}
	if (sq_app_connect(app, &cfg) == -1)
		return -1;
	sq_app_message(app, 0, "connecting to %s", cfg.name);
	return 0;
}

/* `:reason` alone: the templates of `reason NAME TEXT` lines. (With
 * words, `:reason` is the node action that changes the reason.) */
static int
cmd_reasons(struct sq_app *app)
{
	const struct sq_reasons *rs = &app->conf->reasons;
	char safe[SQ_REASON_TEXT_MAX * 4 + 8];
	size_t i;

	if (rs->n == 0) {
		sq_app_message(app, 0,
			       "no reason templates: define them with "
			       "`reason NAME TEXT` in the config file");
		return 0;
	}
	sq_pane_clear(&app->pane, "reason templates (Esc closes)",
		      SQ_PANE_MESSAGES);
	sq_pane_add(&app->pane, SQ_ROLE_DIALOG_TITLE, 0,
		    "@NAME as the reason of drain, down, reboot or reason "
		    "(e.g. :drain @%s); Tab completes @",
		    rs->r[0].name);
	for (i = 0; i < rs->n; i++) {
		sq_sanitize(rs->r[i].text, safe, sizeof(safe));
		sq_pane_add(&app->pane, SQ_ROLE_DIALOG, 24, "  @%-20s %s",
			    rs->r[i].name, safe);
	}
	app->mode = SQ_MODE_PANE;
	app->dirty = 1;
	return 0;
}

/* The history window of every cluster of this console from now on (it
 * wins over the cluster's history_since): the worker hands it to the
 * backend with its next fetches (tui/worker.c). */
static void
since_set(struct sq_app *app, const char *spec)
{
	snprintf(app->since, sizeof(app->since), "%s", spec);
	snprintf(app->cfg.history_since, sizeof(app->cfg.history_since), "%s",
		 spec);
	if (app->worker != NULL)
		sq_worker_since(app->worker, spec);
}

/* :since SPEC - the history window; the worker reads it at its next
 * history and node-events fetch. */
static int
cmd_since(struct sq_app *app, const char *line, const char *arg)
{
	struct sq_hist_window w;
	struct sq_err e;

	if (*arg == '\0') {
		sq_app_message(app, 0, "history since %s",
			       app->cfg.history_since[0]
				   ? app->cfg.history_since
				   : SQ_HIST_DEFAULT_SINCE);
		return 0;
	}
	if (sq_history_window_parse(arg, &w, &e) == -1) {
		sq_app_message(app, 1, "since: %s", e.msg);
		return -1;
	}
	since_set(app, w.spec);
	if (app->worker != NULL)
		sq_worker_refresh(app->worker,
				  SQ_KIND_BIT(SQ_KIND_HISTORY) |
				      SQ_KIND_BIT(SQ_KIND_NODE_EVENTS));
	sq_app_message(app, 0, "history since %s", w.spec);
	return 0;
}

static int
cmd_quit(struct sq_app *app, const char *line, const char *arg)
{
	app->quit = 1;
	return 0;
}

static int
cmd_view(struct sq_app *app, const char *line, const char *arg)
{
	char name[64], def[2048];
	const char *filter;
	int r;

	split(arg, name, sizeof(name), &filter);
	if (starts(filter, "columns=") || starts(filter, "sort=") ||
	    starts(filter, "filter=") || starts(filter, "of=")) {
		snprintf(def, sizeof(def), "view %s", arg);
		return sq_saved_command(app, def);
	}
	r = sq_saved_open(app, name, filter);
	if (r != 1)
		return r;
	sq_saved_leave(app, name);
	return sq_app_show_view(app, name, *filter ? filter : NULL);
}

static int
cmd_write(struct sq_app *app, const char *line, const char *arg)
{
	return sq_saved_write(app);
}

/* :whatif KEY=VALUE (also a view name: the table's row comes first) */
static int
cmd_whatif(struct sq_app *app, const char *line, const char *arg)
{
	sq_saved_leave(app, "whatif");
	return sq_tui_whatif_cmd(app, arg);
}

static int
cmd_ssh(struct sq_app *app, const char *line, const char *arg)
{
	(void)line;
	return sq_ssh_node(app, arg);
}

static int
cmd_filter(struct sq_app *app, const char *line, const char *arg)
{
	char err[300];

	if (sq_table_filter(sq_app_table(app), arg, err, sizeof(err)) == -1) {
		sq_app_message(app, 1, "%s", err);
		return -1;
	}
	return 0;
}

static int
cmd_columns(struct sq_app *app, const char *line, const char *arg)
{
	char err[300];

	if (*arg == '\0') {
		sq_columns_open(app);
		return 0;
	}
	if (sq_table_set_columns(sq_app_table(app), arg, err, sizeof(err)) ==
	    -1) {
		sq_app_message(app, 1, "%s", err);
		return -1;
	}
	sq_app_want(app);
	return 0;
}

static int
cmd_untag(struct sq_app *app, const char *line, const char *arg)
{
	sq_table_untag_all(sq_app_table(app));
	return 0;
}

static int
cmd_refresh(struct sq_app *app, const char *line, const char *arg)
{
	sq_app_refresh(app);
	return 0;
}

static int
cmd_messages(struct sq_app *app, const char *line, const char *arg)
{
	sq_messages_open(app);
	return 0;
}

static int
cmd_help(struct sq_app *app, const char *line, const char *arg)
{
	sq_help_open(app, sq_cmds);
	return 0;
}

/* set, bind, unbind, color, theme, source: as in the config file */
static int
cmd_conf(struct sq_app *app, const char *line, const char *arg)
{
	size_t before = app->conf->nmsgs_total;
	unsigned views;
	struct sq_err e;

	if (strncmp(line, "set", 3) == 0 && *arg != '\0' &&
	    arg[strlen(arg) - 1] == '?')
		return cmd_set_show(app, arg);
	if (sq_conf_exec(app->conf, line, "<prompt>", 0, &e) == -1) {
		sq_app_message(app, 1, "%s", e.msg);
		return -1;
	}
	views = app->conf->changed & SQ_CONF_CH_VIEWS;
	sq_app_conf_changed(app);
	if (views) /* a sourced file's `view` lines */
		sq_saved_apply_all(app);
	if (strstr(line, "history-since") != NULL &&
	    app->conf->nmsgs_total == before) {
		/* `set history-since` at the prompt acts as :since */
		since_set(app, app->conf->str[SQ_OPT_HISTORY_SINCE]);
		if (app->worker != NULL)
			sq_worker_refresh(app->worker,
					  SQ_KIND_BIT(SQ_KIND_HISTORY));
	}
	if (strstr(line, "gpu-idle-below") != NULL) { /* history's idle runs */
		sq_history_idle_below_set(
		    app->conf->num[SQ_OPT_GPU_IDLE_BELOW]);
		if (app->worker != NULL)
			sq_worker_refresh(app->worker,
					  SQ_KIND_BIT(SQ_KIND_HISTORY));
	}
	if (app->conf->nmsgs_total > before)
		sq_app_message(app, 1, "%zu error%s: %s (:messages)",
			       app->conf->nmsgs_total - before,
			       app->conf->nmsgs_total - before == 1 ? "" : "s",
			       app->conf->msgs[app->conf->nmsgs - 1].text);
	return 0;
}

/* `:reason` alone lists the templates; with words it is the node action */
static int
cmd_reason(struct sq_app *app, const char *line, const char *arg)
{
	if (*arg != '\0')
		return sq_tui_action_dispatch(app, line);
	return cmd_reasons(app);
}

/* :audit, :undo [N] (tui/action_undo.c) */
static int
cmd_audit(struct sq_app *app, const char *line, const char *arg)
{
	return sq_tui_action_audit(app);
}

static int
cmd_undo(struct sq_app *app, const char *line, const char *arg)
{
	return sq_tui_action_undo(app, arg);
}

static void comp_view(struct sq_app *app, struct sq_cmd_comp *c);
static void comp_set(struct sq_app *app, struct sq_cmd_comp *c);
static void comp_cluster(struct sq_app *app, struct sq_cmd_comp *c);
static void comp_theme(struct sq_app *app, struct sq_cmd_comp *c);
static void comp_color(struct sq_app *app, struct sq_cmd_comp *c);
static void comp_bind(struct sq_app *app, struct sq_cmd_comp *c);
static void comp_sort(struct sq_app *app, struct sq_cmd_comp *c);
static void comp_columns(struct sq_app *app, struct sq_cmd_comp *c);

/* The order is that of `?` help and of Tab's candidates (sorted). */
const struct sq_cmd_def sq_cmds[] = {
	{ "view", "v", "VIEW [FILTER] | NAME KEY=VALUE...",
	  "show a view (also :VIEW, e.g. :jobs, :n), filtered; with "
	  "columns=, sort=, filter=, of=: set or define a saved view",
	  cmd_view, comp_view, 0 },
	{ "write", "w", "",
	  "save the view's columns, sort and filter in the "
	  "config file (also :w)",
	  cmd_write, NULL, 0 },
	{ "filter", NULL, "[PATTERN]", "set or clear the filter (as /)",
	  cmd_filter, NULL, 0 },
	{ "sort", NULL, "[-]COLUMN", "sort by a column id, - for descending",
	  cmd_sort, comp_sort, 0 },
	{ "columns", "cols", "[ID,...]",
	  "show these columns, or open the chooser", cmd_columns, comp_columns,
	  0 },
	{ "untag", NULL, "", "untag every row of the view", cmd_untag, NULL,
	  0 },
	{ "refresh", NULL, "", "fetch the view's data now", cmd_refresh, NULL,
	  0 },
	{ "since", NULL, "[SPEC]",
	  "history window: 30m, 2h, 7d, 2026-11-01[THH:MM]; alone: show it",
	  cmd_since, NULL, 0 },
	{ "whatif", NULL, "[KEY=VALUE... | spec]",
	  "pending jobs' priority and rank under these weights", cmd_whatif,
	  NULL, 0 },
	{ "ssh", NULL, "[NODE]",
	  "a shell on the node (the cursor's, or a running job's) with ssh",
	  cmd_ssh, NULL, 0 },
	{ "set", NULL, "NAME [VALUE] | NAME?", "set or show an option",
	  cmd_conf, comp_set, 0 },
	{ "bind", NULL, "KEY ACTION", "bind a key (ACTION or \":command\")",
	  cmd_conf, comp_bind, 0 },
	{ "unbind", NULL, "KEY", "remove a key binding", cmd_conf, NULL, 0 },
	{ "color", "colour", "ROLE FG BG [ATTR...]", "colour a role", cmd_conf,
	  comp_color, 0 },
	{ "theme", NULL, "NAME", "load a theme", cmd_conf, comp_theme, 0 },
	{ "source", NULL, "FILE", "run the commands of a file", cmd_conf, NULL,
	  0 },
	{ "cluster", NULL, "NAME [KEY=VALUE...]",
	  "switch to a cluster of the config, or define one", cmd_cluster,
	  comp_cluster, 0 },
	{ "reason", NULL, "",
	  "alone: list the reason templates (@NAME in a node's reason)",
	  cmd_reason, NULL, 0 },
	{ "messages", "mes", "",
	  "the errors in full: this session's, the configuration's",
	  cmd_messages, NULL, 0 },
	{ "audit", NULL, "", "the audit log of actions", cmd_audit, NULL,
	  SQ_CMD_BIND },
	{ "undo", NULL, "[N]", "offer the inverse of the last action", cmd_undo,
	  NULL, SQ_CMD_CHANGES | SQ_CMD_BIND },
	{ "help", "h", "", "show keys, commands and views", cmd_help, NULL, 0 },
	{ "quit", "q q!", "", "quit squall (also :q)", cmd_quit, NULL, 0 },
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0 },
};

int
sq_cmd_action_ok(const char *name, void *arg)
{
	const struct sq_cmd_def *c = sq_cmd_find(name);

	return sq_keys_action_ok(name, arg) ||
	       (c != NULL && (c->flags & SQ_CMD_BIND));
}

const struct sq_cmd_def *
sq_cmd_find(const char *word)
{
	size_t l = strlen(word);
	const char *a;
	int i;

	for (i = 0; l > 0 && sq_cmds[i].name != NULL; i++) {
		if (strcmp(sq_cmds[i].name, word) == 0)
			return &sq_cmds[i];
		for (a = sq_cmds[i].aliases; a != NULL && *a != '\0';) {
			if (strcspn(a, " ") == l && strncmp(a, word, l) == 0)
				return &sq_cmds[i];
			a += strcspn(a, " ");
			a += strspn(a, " ");
		}
	}
	return NULL;
}

/* A command of the table, else a view by name or alias, else a saved
 * view of the config, else a cluster action (tui/actions.c). */
int
sq_cmd_run(struct sq_app *app, const char *line)
{
	const struct sq_cmd_def *c;
	char word[64];
	const char *arg;

	while (*line == ' ' || *line == ':')
		line++;
	if (*line == '\0')
		return 0;
	split(line, word, sizeof(word), &arg);
	if ((c = sq_cmd_find(word)) != NULL)
		return c->run(app, line, arg);
	if (sq_view_find(word) != NULL) {
		if (sq_view_find(word) == &sq_view_whatif) /* :wi, :what-if */
			return cmd_whatif(app, line, arg);
		sq_saved_leave(app, word);
		return sq_app_show_view(app, word, *arg ? arg : NULL);
	}
	if (sq_saved_find(&app->conf->views, word) != NULL)
		return sq_saved_open(app, word, arg);
	return sq_tui_action_dispatch(app, line);
}

/* ------------------------------------------------------------ Tab */

/* a Tab completion in progress: the words typed and the candidates */
struct sq_cmd_comp {
	int nwords;         /* words typed, the one being typed included */
	const char *second; /* the second word */
	const char *word;   /* the word being typed */
	char **out;
	int n, max;
};

static void
add(char **out, int *n, int max, const char *s, const char *prefix)
{
	int i;

	if (*n >= max || !starts(s, prefix))
		return;
	for (i = 0; i < *n; i++) {
		if (strcmp(out[i], s) == 0)
			return;
	}
	out[*n] = strdup(s);
	if (out[*n] != NULL)
		(*n)++;
}

static int
cmp_cand(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
add_views(const struct sq_saved_views *saved_views, char **out, int *n, int max,
	  const char *prefix)
{
	int i, j;
	size_t k;

	for (k = 0; saved_views != NULL && k < saved_views->n; k++) {
		if (saved_views->v[k].custom)
			add(out, n, max, saved_views->v[k].name, prefix);
	}

	for (i = 0; sq_views[i] != NULL; i++) {
		add(out, n, max, sq_views[i]->name, prefix);
		for (j = 0; sq_views[i]->aliases != NULL &&
			    sq_views[i]->aliases[j] != NULL;
		     j++)
			add(out, n, max, sq_views[i]->aliases[j], prefix);
	}
}

/* A word that names a reason template: "@NAME" or "reason=@NAME" after
 * an action that takes a reason; *pre is the part before the '@'. */
static int
reason_word(const char *first, const char *word, const char **pre)
{
	const struct sq_action_def *d = sq_action_find(first, -1);

	if (d == NULL || sq_action_arg_spec(d, "reason") == NULL)
		return 0;
	if (word[0] == '@')
		*pre = "";
	else if (strncmp(word, "reason=@", 8) == 0)
		*pre = "reason=";
	else
		return 0;
	return 1;
}

static void
add_themes(struct sq_app *app, char **out, int *n, int max, const char *prefix)
{
	int d;

	add(out, n, max, "default", prefix);
	for (d = 0; d < 2; d++) {
		DIR *dir = opendir(app->conf->theme_dirs[d]);
		struct dirent *de;

		if (dir == NULL)
			continue;
		while ((de = readdir(dir)) != NULL) {
			size_t l = strlen(de->d_name);
			char name[256];

			if (l > 6 &&
			    strcmp(de->d_name + l - 6, ".theme") == 0) {
				snprintf(name, sizeof(name), "%.*s",
					 (int)(l - 6), de->d_name);
				add(out, n, max, name, prefix);
			}
		}
		closedir(dir);
	}
}

static void
comp_view(struct sq_app *app, struct sq_cmd_comp *c)
{
	if (c->nwords == 2)
		add_views(&app->conf->views, c->out, &c->n, c->max, c->word);
}

static void
comp_set(struct sq_app *app, struct sq_cmd_comp *c)
{
	int i, o;

	if (c->nwords == 2) {
		for (i = 0; i < SQ_OPT_COUNT; i++)
			add(c->out, &c->n, c->max, sq_option_defs[i].name,
			    c->word);
	} else if (c->nwords == 3) {
		o = sq_option_from_name(c->second);
		if (o >= 0 && sq_option_defs[o].type == SQ_OT_BOOL) {
			add(c->out, &c->n, c->max, "on", c->word);
			add(c->out, &c->n, c->max, "off", c->word);
		} else if (o >= 0 && sq_option_defs[o].type == SQ_OT_VIEW) {
			add_views(&app->conf->views, c->out, &c->n, c->max,
				  c->word);
		}
	}
}

static void
comp_cluster(struct sq_app *app, struct sq_cmd_comp *c)
{
	size_t k;

	for (k = 0; c->nwords == 2 && k < app->conf->nclusters; k++)
		add(c->out, &c->n, c->max, app->conf->clusters[k].name,
		    c->word);
}

static void
comp_theme(struct sq_app *app, struct sq_cmd_comp *c)
{
	if (c->nwords == 2)
		add_themes(app, c->out, &c->n, c->max, c->word);
}

static void
comp_color(struct sq_app *app, struct sq_cmd_comp *c)
{
	int i;

	for (i = 0; c->nwords == 2 && i < SQ_ROLE_COUNT; i++)
		add(c->out, &c->n, c->max, sq_role_name(i), c->word);
}

static void
comp_bind(struct sq_app *app, struct sq_cmd_comp *c)
{
	int i;

	for (i = 0; c->nwords == 3 && i < SQ_TA_COUNT; i++)
		add(c->out, &c->n, c->max, sq_ta_name(i), c->word);
}

/* column ids, after a '-' for sort */
static void
comp_cols(struct sq_app *app, struct sq_cmd_comp *c, int minus)
{
	struct sq_table *t = sq_app_table(app);
	char buf[80];
	size_t k;

	for (k = 0; k < t->def->ncols; k++) {
		snprintf(buf, sizeof(buf), "%s%s", minus ? "-" : "",
			 t->def->cols[k].id);
		add(c->out, &c->n, c->max, buf, c->word);
	}
}

static void
comp_sort(struct sq_app *app, struct sq_cmd_comp *c)
{
	comp_cols(app, c, *c->word == '-');
}

static void
comp_columns(struct sq_app *app, struct sq_cmd_comp *c)
{
	comp_cols(app, c, 0);
}

/* The keys of the action a line starts with ("setqos low maxj" Tab:
 * maxjobspu= maxjobspa=), "key=" each, a flag bare. */
static void
complete_keys(struct sq_app *app, const char *verb, struct sq_cmd_comp *c)
{
	const struct sq_action_def *d = sq_tui_action_named(app, verb);
	size_t i;

	for (i = 0; d != NULL && i < d->nargs; i++) {
		char buf[80];

		snprintf(buf, sizeof(buf), "%s%s", d->args[i].key,
			 d->args[i].type == SQ_ARG_FLAG ? "" : "=");
		add(c->out, &c->n, c->max, buf, c->word);
	}
}

int
sq_cmd_complete(struct sq_app *app, const char *line, char **out, int max)
{
	const struct sq_cmd_def *cmd;
	struct sq_cmd_comp c = { 0, NULL, NULL, out, 0, max };
	char first[64], second[64];
	const char *rest, *rest2, *pre;
	int i, n;
	size_t k;
	const char *p;

	while (*line == ' ')
		line++;
	for (p = line; *p != '\0';) {
		c.nwords++;
		p += strcspn(p, " ");
		while (*p == ' ')
			p++;
	}
	if (*line != '\0' && line[strlen(line) - 1] == ' ')
		c.nwords++;
	if (c.nwords == 0)
		c.nwords = 1;
	c.word = line + strlen(line);
	while (c.word > line && c.word[-1] != ' ' && c.word[-1] != ',')
		c.word--;
	split(line, first, sizeof(first), &rest);
	split(rest, second, sizeof(second), &rest2);
	c.second = second;
	if (c.nwords == 1) {
		const char *acts[128];
		int na, ro = app->readonly || app->cfg.readonly;

		for (i = 0; sq_cmds[i].name != NULL; i++) {
			if (!(ro && (sq_cmds[i].flags & SQ_CMD_CHANGES)))
				add(out, &c.n, max, sq_cmds[i].name, c.word);
		}
		add_views(&app->conf->views, out, &c.n, max, c.word);
		na = sq_tui_action_complete(app, c.word, acts, 128);
		for (i = 0; i < na; i++)
			add(out, &c.n, max, acts[i], c.word);
	} else if (reason_word(first, c.word, &pre)) {
		const struct sq_reasons *rs = &app->conf->reasons;
		char buf[80];

		for (k = 0; k < rs->n; k++) {
			snprintf(buf, sizeof(buf), "%s@%s", pre, rs->r[k].name);
			add(out, &c.n, max, buf, c.word);
		}
	} else if ((cmd = sq_cmd_find(first)) != NULL) {
		if (cmd->complete != NULL)
			cmd->complete(app, &c);
	} else if (strchr(c.word, '=') == NULL) {
		complete_keys(app, first, &c);
	}
	n = c.n;
	qsort(out, (size_t)n, sizeof(out[0]), cmp_cand);
	return n;
}
