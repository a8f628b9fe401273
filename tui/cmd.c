/*
 * cmd.c - the `:` commands of the console: views by name or alias, the
 * config language (set, bind, unbind, color, theme, source, cluster) run
 * through core/conf.c exactly as in the file, the table's own commands
 * (filter, sort, columns, untag ...), the list of reason templates, and
 * Tab completion (@NAME of a reason template included). A command that
 * is none of these goes to sq_tui_action_dispatch() (tui/actions.c).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action.h"
#include "core/history.h"
#include "core/sanitize.h"
#include "core/whatif.h"
#include "session/glance.h"
#include "tui/actions.h"
#include "tui/app.h"
#include "tui/cmd.h"
#include "tui/saved.h"
#include "tui/views.h"
#include "tui/ssh_node.h"

const struct sq_cmd_def sq_cmds[] = {
	{ "view", "VIEW [FILTER] | NAME KEY=VALUE...",
	  "show a view (also :VIEW, e.g. :jobs, :n), filtered; with "
	  "columns=, sort=, filter=, of=: set or define a saved view" },
	{ "write", "",
	  "save the view's columns, sort and filter in the "
	  "config file (also :w)" },
	{ "filter", "[PATTERN]", "set or clear the filter (as /)" },
	{ "sort", "[-]COLUMN", "sort by a column id, - for descending" },
	{ "columns", "[ID,...]", "show these columns, or open the chooser" },
	{ "untag", "", "untag every row of the view" },
	{ "refresh", "", "fetch the view's data now" },
	{ "since", "[SPEC]",
	  "history window: 30m, 2h, 7d, 2026-11-01[THH:MM]; alone: show it" },
	{ "whatif", "[KEY=VALUE... | spec]",
	  "pending jobs' priority and rank under these weights" },
	{ "ssh", "[NODE]",
	  "a shell on the node (the cursor's, or a running job's) with ssh" },
	{ "set", "NAME [VALUE] | NAME?", "set or show an option" },
	{ "bind", "KEY ACTION", "bind a key (ACTION or \":command\")" },
	{ "unbind", "KEY", "remove a key binding" },
	{ "color", "ROLE FG BG [ATTR...]", "colour a role" },
	{ "theme", "NAME", "load a theme" },
	{ "source", "FILE", "run the commands of a file" },
	{ "cluster", "NAME [KEY=VALUE...]",
	  "switch to a cluster of the config, or define one" },
	{ "reason", "",
	  "alone: list the reason templates (@NAME in a node's reason)" },
	{ "messages", "", "show the configuration errors" },
	{ "help", "", "show keys, commands and views" },
	{ "quit", "", "quit squall (also :q)" },
	{ NULL, NULL, NULL },
};

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
cmd_sort(struct sq_app *app, const char *arg)
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

/* :since SPEC - the history window of every cluster of this console; the
 * workers read it at their next history fetch (core/history.c). */
static int
cmd_since(struct sq_app *app, const char *arg)
{
	struct sq_hist_window w;
	struct sq_err e;
	char spec[64];

	if (*arg == '\0') {
		sq_history_since(app->cfg.history_since, spec, sizeof(spec));
		sq_app_message(app, 0, "history since %s",
			       spec[0] ? spec : SQ_HIST_DEFAULT_SINCE);
		return 0;
	}
	if (sq_history_window_parse(arg, &w, &e) == -1) {
		sq_app_message(app, 1, "since: %s", e.msg);
		return -1;
	}
	sq_history_since_set(w.spec);
	if (app->worker != NULL)
		sq_worker_refresh(app->worker, SQ_KIND_BIT(SQ_KIND_HISTORY));
	sq_app_message(app, 0, "history since %s", w.spec);
	return 0;
}

int
sq_cmd_run(struct sq_app *app, const char *line)
{
	struct sq_table *t = sq_app_table(app);
	char word[64], err[300];
	const char *arg;
	struct sq_err e;

	while (*line == ' ' || *line == ':')
		line++;
	if (*line == '\0')
		return 0;
	split(line, word, sizeof(word), &arg);
	if (strcmp(word, "q") == 0 || strcmp(word, "quit") == 0 ||
	    strcmp(word, "q!") == 0) {
		app->quit = 1;
		return 0;
	}
	if (strcmp(word, "view") == 0 || strcmp(word, "v") == 0) {
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
	if (strcmp(word, "w") == 0 || strcmp(word, "write") == 0)
		return sq_saved_write(app);
	if (sq_view_find(word) == &sq_view_whatif) { /* :whatif KEY=VALUE */
		sq_saved_leave(app, word);
		return sq_tui_whatif_cmd(app, arg);
	}
	if (sq_view_find(word) != NULL) {
		sq_saved_leave(app, word);
		return sq_app_show_view(app, word, *arg ? arg : NULL);
	}
	if (sq_saved_find(&app->conf->views, word) != NULL)
		return sq_saved_open(app, word, arg);
	if (strcmp(word, "filter") == 0) {
		if (sq_table_filter(t, arg, err, sizeof(err)) == -1) {
			sq_app_message(app, 1, "%s", err);
			return -1;
		}
		return 0;
	}
	if (strcmp(word, "sort") == 0)
		return cmd_sort(app, arg);
	if (strcmp(word, "columns") == 0 || strcmp(word, "cols") == 0) {
		if (*arg == '\0') {
			sq_columns_open(app);
			return 0;
		}
		if (sq_table_set_columns(t, arg, err, sizeof(err)) == -1) {
			sq_app_message(app, 1, "%s", err);
			return -1;
		}
		sq_app_want(app);
		return 0;
	}
	if (strcmp(word, "untag") == 0) {
		sq_table_untag_all(t);
		return 0;
	}
	if (strcmp(word, "refresh") == 0) {
		sq_app_action(app, SQ_TA_REFRESH, 0);
		return 0;
	}
	if (strcmp(word, "since") == 0)
		return cmd_since(app, arg);
	if (strcmp(word, "ssh") == 0)
		return sq_ssh_node(app, arg);
	if (strcmp(word, "messages") == 0 || strcmp(word, "mes") == 0) {
		sq_messages_open(app);
		return 0;
	}
	if (strcmp(word, "help") == 0 || strcmp(word, "h") == 0) {
		sq_help_open(app);
		return 0;
	}
	if (strcmp(word, "cluster") == 0)
		return cmd_cluster(app, line, arg);
	if (strcmp(word, "set") == 0 && *arg != '\0' &&
	    arg[strlen(arg) - 1] == '?')
		return cmd_set_show(app, arg);
	if (strcmp(word, "set") == 0 || strcmp(word, "bind") == 0 ||
	    strcmp(word, "unbind") == 0 || strcmp(word, "color") == 0 ||
	    strcmp(word, "colour") == 0 || strcmp(word, "theme") == 0 ||
	    strcmp(word, "source") == 0) {
		size_t before = app->conf->nmsgs_total;
		unsigned views;

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
			sq_history_since_set(
			    app->conf->str[SQ_OPT_HISTORY_SINCE]);
			if (app->worker != NULL)
				sq_worker_refresh(app->worker,
						  SQ_KIND_BIT(SQ_KIND_HISTORY));
		}
		if (app->conf->nmsgs_total > before)
			sq_app_message(
			    app, 1, "%zu error%s: %s (:messages)",
			    app->conf->nmsgs_total - before,
			    app->conf->nmsgs_total - before == 1 ? "" : "s",
			    app->conf->msgs[app->conf->nmsgs - 1].text);
		return 0;
	}
	if (strcmp(word, "reason") == 0 && *arg == '\0')
		return cmd_reasons(app);
	return sq_tui_action_dispatch(app, line);
}

/* ------------------------------------------------------------ Tab */

/* the views defined with of=, for add_views (set by sq_cmd_complete) */
static const struct sq_saved_views *saved_views;

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
add_views(char **out, int *n, int max, const char *prefix)
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

int
sq_cmd_complete(struct sq_app *app, const char *line, char **out, int max)
{
	struct sq_table *t = sq_app_table(app);
	char first[64], second[64];
	const char *rest, *rest2, *word, *pre;
	int n = 0, nwords = 0, i;
	size_t k;
	const char *p;

	while (*line == ' ')
		line++;
	for (p = line; *p != '\0';) {
		nwords++;
		p += strcspn(p, " ");
		while (*p == ' ')
			p++;
	}
	if (*line != '\0' && line[strlen(line) - 1] == ' ')
		nwords++;
	if (nwords == 0)
		nwords = 1;
	word = line + strlen(line);
	while (word > line && word[-1] != ' ' && word[-1] != ',')
		word--;
	split(line, first, sizeof(first), &rest);
	split(rest, second, sizeof(second), &rest2);
	saved_views = &app->conf->views;
	if (nwords == 1) {
		const char *acts[128];
		int na;

		for (i = 0; sq_cmds[i].name != NULL; i++)
			add(out, &n, max, sq_cmds[i].name, word);
		add_views(out, &n, max, word);
		na = sq_tui_action_complete(app, word, acts, 128);
		for (i = 0; i < na; i++)
			add(out, &n, max, acts[i], word);
	} else if (reason_word(first, word, &pre)) {
		const struct sq_reasons *rs = &app->conf->reasons;
		char buf[80];

		for (k = 0; k < rs->n; k++) {
			snprintf(buf, sizeof(buf), "%s@%s", pre, rs->r[k].name);
			add(out, &n, max, buf, word);
		}
	} else if (nwords == 2 &&
		   (strcmp(first, "view") == 0 || strcmp(first, "v") == 0)) {
		add_views(out, &n, max, word);
	} else if (nwords == 2 && strcmp(first, "set") == 0) {
		for (i = 0; i < SQ_OPT_COUNT; i++)
			add(out, &n, max, sq_option_defs[i].name, word);
	} else if (nwords == 3 && strcmp(first, "set") == 0) {
		int o = sq_option_from_name(second);

		if (o >= 0 && sq_option_defs[o].type == SQ_OT_BOOL) {
			add(out, &n, max, "on", word);
			add(out, &n, max, "off", word);
		} else if (o >= 0 && sq_option_defs[o].type == SQ_OT_VIEW) {
			add_views(out, &n, max, word);
		}
	} else if (nwords == 2 && strcmp(first, "cluster") == 0) {
		for (k = 0; k < app->conf->nclusters; k++)
			add(out, &n, max, app->conf->clusters[k].name, word);
	} else if (nwords == 2 && strcmp(first, "theme") == 0) {
		add_themes(app, out, &n, max, word);
	} else if (nwords == 2 && (strcmp(first, "color") == 0 ||
				   strcmp(first, "colour") == 0)) {
		for (i = 0; i < SQ_ROLE_COUNT; i++)
			add(out, &n, max, sq_role_name(i), word);
	} else if (nwords == 3 && strcmp(first, "bind") == 0) {
		for (i = 0; i < SQ_TA_COUNT; i++)
			add(out, &n, max, sq_ta_name(i), word);
	} else if (strcmp(first, "sort") == 0 ||
		   strcmp(first, "columns") == 0 ||
		   strcmp(first, "cols") == 0) {
		int minus = *word == '-' && strcmp(first, "sort") == 0;
		char buf[80];

		for (k = 0; k < t->def->ncols; k++) {
			snprintf(buf, sizeof(buf), "%s%s", minus ? "-" : "",
				 t->def->cols[k].id);
			add(out, &n, max, buf, word);
		}
	}
	qsort(out, (size_t)n, sizeof(out[0]), cmp_cand);
	return n;
}
