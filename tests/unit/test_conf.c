/*
 * test_conf.c - unit tests of the command language (core/conf/conf.c): words
 * and quotes, key names, set/bind/unbind/color/cluster/reason, errors as
 * file:line, source loops, the theme files and cluster resolution.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/conf/conf.h"
#include "tests/unit/test_util.h"

static char tmpdir[256];

static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sqconf-test.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write text to tmpdir/name; returns the path (static buffer per call). */
static const char *
write_file(const char *name, const char *text, char *path, size_t n)
{
	FILE *fp;

	snprintf(path, n, "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static void
test_words(void **state)
{
	char line[] = "bind  x \"a b\\\"c\" 'd e' f#g # comment";
	char *w[8];
	const char *why;
	char bad[] = "set x \"open";

	(void)state;
	assert_int_equal(sq_conf_words(line, w, 8, &why), 5);
	assert_string_equal(w[0], "bind");
	assert_string_equal(w[1], "x");
	assert_string_equal(w[2], "a b\"c");
	assert_string_equal(w[3], "d e");
	assert_string_equal(w[4], "f#g");
	assert_int_equal(sq_conf_words(bad, w, 8, &why), -1);
	assert_non_null(strstr(why, "unterminated"));
}

static void
test_keys(void **state)
{
	static const char *const names[] = { "j",   "G",    "?",     "Space",
					     "C-l", "Esc",  "Enter", "PgDn",
					     "F5",  "BTab", "é",     NULL };
	char buf[32];
	int i;

	(void)state;
	for (i = 0; names[i] != NULL; i++) {
		int k = sq_key_parse(names[i]);

		assert_true(k >= 0);
		assert_string_equal(sq_key_name(k, buf, sizeof(buf)), names[i]);
	}
	assert_int_equal(sq_key_parse("Ctrl-L"), 12);
	assert_int_equal(sq_key_parse("^L"), 12);
	assert_int_equal(sq_key_parse("pgdn"), sq_key_parse("PageDown"));
	assert_int_equal(sq_key_parse("Return"), SQ_KEY_ENTER);
	assert_int_equal(sq_key_parse("jj"), -1);
	assert_int_equal(sq_key_parse(""), -1);
	assert_int_equal(sq_key_parse("C-1"), -1);
	assert_int_equal(sq_key_parse("\x01"), -1);
}

static void
test_set(void **state)
{
	struct sq_conf c;
	struct sq_err err;
	char buf[64];

	(void)state;
	sq_conf_init(&c);
	assert_int_equal(c.num[SQ_OPT_REFRESH], 10);
	assert_int_equal(c.num[SQ_OPT_REFRESH_SLOW], 60);
	assert_string_equal(c.str[SQ_OPT_VIEW], "jobs");
	assert_int_equal(sq_conf_exec(&c, "set refresh 5", "f", 1, &err), 0);
	assert_int_equal(c.num[SQ_OPT_REFRESH], 5);
	assert_true(c.changed & SQ_CONF_CH_OPTIONS);
	/* the slow refresh may not go below a minute */
	assert_int_equal(
	    sq_conf_exec(&c, "set refresh-slow 10", "cfg", 3, &err), -1);
	assert_string_equal(err.msg,
			    "cfg:3: refresh-slow must be seconds from 60 to "
			    "86400 (or with s, m, h or d: 5m)");
	/* durations take a suffix, as :since does (issue 31) */
	assert_int_equal(sq_conf_exec(&c, "set refresh 5s", "f", 1, &err), 0);
	assert_int_equal(c.num[SQ_OPT_REFRESH], 5);
	assert_int_equal(sq_conf_exec(&c, "set refresh-slow 2m", "f", 1, &err),
			 0);
	assert_int_equal(c.num[SQ_OPT_REFRESH_SLOW], 120);
	assert_int_equal(sq_conf_exec(&c, "set idle-pause 1h", "f", 1, &err),
			 0);
	assert_int_equal(c.num[SQ_OPT_IDLE_PAUSE], 3600);
	assert_int_equal(sq_conf_exec(&c, "set refresh 2d", "f", 1, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "set refresh 5x", "f", 1, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "set refresh s", "f", 1, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "set refresh 5", "f", 1, &err), 0);
	assert_int_equal(sq_conf_exec(&c, "set readonly", "f", 1, &err), 0);
	assert_int_equal(c.num[SQ_OPT_READONLY], 1);
	assert_int_equal(sq_conf_exec(&c, "set noreadonly", "f", 1, &err), 0);
	assert_int_equal(c.num[SQ_OPT_READONLY], 0);
	assert_int_equal(sq_conf_exec(&c, "set color no", "f", 1, &err), 0);
	assert_string_equal(sq_conf_get(&c, SQ_OPT_COLOR, buf, sizeof(buf)),
			    "off");
	/* views by alias, stored by name */
	assert_int_equal(sq_conf_exec(&c, "set view n", "f", 1, &err), 0);
	assert_string_equal(c.str[SQ_OPT_VIEW], "nodes");
	assert_int_equal(sq_conf_exec(&c, "set view nope", "f", 1, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "set bogus 1", "f", 2, &err), -1);
	assert_string_equal(err.msg, "f:2: unknown option 'bogus'");
	assert_int_equal(sq_conf_exec(&c, "set refresh", "f", 1, &err), -1);
	/* at the prompt there is no position */
	assert_int_equal(sq_conf_exec(&c, "frobnicate", "<prompt>", 0, &err),
			 -1);
	assert_string_equal(err.msg, "unknown command 'frobnicate'");
	assert_int_equal(sq_conf_exec(&c, "   # only a comment", "f", 1, &err),
			 0);
}

static int
only_known(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "quit") == 0 || strcmp(name, "down") == 0;
}

static void
test_bind(void **state)
{
	struct sq_conf c;
	struct sq_err err;

	(void)state;
	sq_conf_init(&c);
	c.action_ok = only_known;
	assert_int_equal(sq_conf_exec(&c, "bind C-q quit", "f", 1, &err), 0);
	assert_int_equal(sq_conf_exec(&c, "bind Space down", "f", 2, &err), 0);
	assert_int_equal(sq_conf_exec(&c, "unbind q", "f", 3, &err), 0);
	assert_int_equal(c.nbindings, 3);
	assert_int_equal(c.bindings[0].key, 17);
	assert_string_equal(c.bindings[0].action, "quit");
	assert_int_equal(c.bindings[1].key, ' ');
	assert_int_equal(c.bindings[2].key, 'q');
	assert_string_equal(c.bindings[2].action, "");
	assert_true(c.changed & SQ_CONF_CH_KEYS);
	assert_int_equal(sq_conf_exec(&c, "bind x explode", "k", 4, &err), -1);
	assert_string_equal(err.msg, "k:4: unknown action 'explode'");
	assert_int_equal(sq_conf_exec(&c, "bind Hyper-x quit", "k", 5, &err),
			 -1);
	assert_string_equal(err.msg, "k:5: unknown key 'Hyper-x'");
	assert_int_equal(sq_conf_exec(&c, "bind x", "k", 6, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "unbind", "k", 7, &err), -1);
	assert_int_equal(c.nbindings, 3);
}

static void
test_color(void **state)
{
	struct sq_conf c;
	struct sq_err err;
	int r = sq_role_from_name("node.drain");

	(void)state;
	sq_conf_init(&c);
	assert_true(r >= 0);
	assert_int_equal(
	    sq_conf_exec(&c, "color node.drain brightred 236 bold reverse", "f",
			 1, &err),
	    0);
	assert_int_equal(c.colors[r].fg, 9);
	assert_int_equal(c.colors[r].bg, 236);
	assert_int_equal(c.colors[r].attrs, SQ_ATTR_BOLD | SQ_ATTR_REVERSE);
	assert_int_equal(
	    sq_conf_exec(&c, "color node.drain default color17", "f", 1, &err),
	    0);
	assert_int_equal(c.colors[r].fg, -1);
	assert_int_equal(c.colors[r].bg, 17);
	assert_int_equal(
	    sq_conf_exec(&c, "color nosuchrole red blue", "t", 9, &err), -1);
	assert_string_equal(err.msg, "t:9: unknown colour role 'nosuchrole'");
	assert_int_equal(
	    sq_conf_exec(&c, "color header 256 blue", "t", 1, &err), -1);
	assert_int_equal(
	    sq_conf_exec(&c, "color header red blue sparkly", "t", 1, &err),
	    -1);
	assert_int_equal(sq_conf_exec(&c, "color header red", "t", 1, &err),
			 -1);
}

static void
test_cluster(void **state)
{
	struct sq_conf c;
	struct sq_err err;
	const struct sq_cluster_cfg *cl;
	struct sq_cluster_cfg cmd, out;

	(void)state;
	sq_conf_init(&c);
	assert_int_equal(
	    sq_conf_exec(&c,
			 "cluster prod backend=ssh host=login1 port=2222 "
			 "user=alice readonly refresh=20 theme=light",
			 "f", 1, &err),
	    0);
	assert_int_equal(sq_conf_exec(&c,
				      "cluster lab backend=rest "
				      "url=http://127.0.0.1:6820 "
				      "token-file=/etc/tok ca-file=/etc/ca.pem",
				      "f", 2, &err),
			 0);
	assert_int_equal(sq_conf_exec(&c, "cluster here", "f", 3, &err), 0);
	assert_int_equal(c.nclusters, 3);
	cl = sq_conf_cluster(&c, "prod");
	assert_non_null(cl);
	assert_string_equal(cl->backend, "ssh");
	assert_string_equal(cl->host, "login1");
	assert_int_equal(cl->port, 2222);
	assert_string_equal(cl->user, "alice");
	assert_int_equal(cl->readonly, 1);
	assert_int_equal(cl->refresh, 20);
	assert_string_equal(c.cluster_theme[0], "light");
	cl = sq_conf_cluster(&c, "lab");
	assert_string_equal(cl->url, "http://127.0.0.1:6820");
	assert_string_equal(cl->token_file, "/etc/tok");
	assert_string_equal(cl->ca_file, "/etc/ca.pem");
	assert_string_equal(sq_conf_cluster(&c, "here")->backend, "local");
	assert_null(sq_conf_cluster(&c, "nope"));

	/* errors */
	assert_int_equal(
	    sq_conf_exec(&c, "cluster x backend=ssh", "f", 4, &err), -1);
	assert_string_equal(err.msg, "f:4: cluster x: backend=ssh needs host=");
	assert_int_equal(
	    sq_conf_exec(&c, "cluster x backend=carrier-pigeon", "f", 5, &err),
	    -1);
	assert_int_equal(sq_conf_exec(&c, "cluster x port=99999", "f", 6, &err),
			 -1);
	assert_int_equal(sq_conf_exec(&c, "cluster x colour=red", "f", 7, &err),
			 -1);
	assert_string_equal(err.msg, "f:7: cluster x: unknown key 'colour'");
	assert_int_equal(
	    sq_conf_exec(&c, "cluster x user=a;rm host=h", "f", 8, &err), -1);
	assert_int_equal(
	    sq_conf_exec(&c, "cluster x backend=ssh host=a$(b)", "f", 8, &err),
	    -1);
	assert_int_equal(sq_conf_exec(&c, "cluster 'bad name'", "f", 9, &err),
			 -1);
	assert_int_equal(c.nclusters, 3);

	/* resolution: defaults < set < cluster line < command line */
	assert_int_equal(sq_conf_exec(&c, "set timeout 7", "f", 1, &err), 0);
	sq_cluster_defaults(&cmd);
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_string_equal(out.backend, "local");
	assert_int_equal(out.timeout, 7);
	assert_int_equal(out.refresh, 10);
	snprintf(cmd.name, sizeof(cmd.name), "prod");
	cmd.port = 22; /* given on the command line */
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_string_equal(out.name, "prod");
	assert_string_equal(out.backend, "ssh");
	assert_string_equal(out.host, "login1");
	assert_int_equal(out.port, 22);
	assert_int_equal(out.refresh, 20);
	assert_int_equal(out.timeout, 7);
	assert_int_equal(out.readonly, 1);
	snprintf(cmd.name, sizeof(cmd.name), "nope");
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), -1);
	/* set cluster picks one when -c is not given */
	sq_cluster_defaults(&cmd);
	assert_int_equal(sq_conf_exec(&c, "set cluster lab", "f", 1, &err), 0);
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_string_equal(out.backend, "rest");
	assert_string_equal(out.name, "lab");
	/* -b ssh -H ... is not the default `set cluster lab` (issue 31) */
	snprintf(cmd.backend, sizeof(cmd.backend), "ssh");
	snprintf(cmd.host, sizeof(cmd.host), "127.0.0.1");
	snprintf(cmd.user, sizeof(cmd.user), "alice");
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_string_equal(out.backend, "ssh");
	assert_string_equal(out.name, "ssh:alice@127.0.0.1");
	cmd.port = 2222;
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_string_equal(out.name, "ssh:alice@127.0.0.1:2222");
	/* -c LABEL with -b: the label, not an error */
	snprintf(cmd.name, sizeof(cmd.name), "tb-ssh");
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_string_equal(out.name, "tb-ssh");
	assert_string_equal(out.host, "127.0.0.1");
	sq_cluster_defaults(&cmd);
	snprintf(cmd.backend, sizeof(cmd.backend), "rest");
	snprintf(cmd.url, sizeof(cmd.url), "http://127.0.0.1:6820/");
	assert_int_equal(sq_conf_resolve_cluster(&c, &cmd, &out, &err), 0);
	assert_string_equal(out.name, "rest:127.0.0.1:6820");
}

static void
test_file_errors(void **state)
{
	struct sq_conf c;
	char path[512], inc[512], msg[700];

	(void)state;
	sq_conf_init(&c);
	write_file("inc", "set refresh 3\nbogus line\n", inc, sizeof(inc));
	write_file("config",
		   "# a comment\n"
		   "set refresh 30\n"
		   "set refresh zero\n"
		   "\n"
		   "source inc\n"
		   "color header red\n"
		   "bind q \"unterminated\n",
		   path, sizeof(path));
	assert_int_equal(sq_conf_load_file(&c, path, 0, 0), 0);
	/* the sourced file ran after line 2 */
	assert_int_equal(c.num[SQ_OPT_REFRESH], 3);
	assert_int_equal(c.nmsgs, 4);
	snprintf(msg, sizeof(msg),
		 "%s:3: refresh must be seconds from 1 to 86400 (or with s, "
		 "m, h or d: 5m)",
		 path);
	assert_string_equal(c.msgs[0].text, msg);
	snprintf(msg, sizeof(msg), "%s:2: unknown command 'bogus'", inc);
	assert_string_equal(c.msgs[1].text, msg);
	snprintf(msg, sizeof(msg), "%s:6: usage: color ROLE FG BG [ATTR...]",
		 path);
	assert_string_equal(c.msgs[2].text, msg);
	snprintf(msg, sizeof(msg), "%s:7: unterminated \" quote", path);
	assert_string_equal(c.msgs[3].text, msg);

	/* a missing file is an error, unless quiet */
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	assert_int_equal(sq_conf_load_file(&c, path, 0, 1), 0);
	assert_int_equal(c.nmsgs, 4);
	assert_int_equal(sq_conf_load_file(&c, path, 0, 0), -1);
	assert_int_equal(c.nmsgs, 5);
	assert_non_null(strstr(c.msgs[4].text, "cannot read"));
}

static void
test_source_loop(void **state)
{
	struct sq_conf c;
	char a[512], b[512], self[512];
	size_t i;
	int loops = 0;

	(void)state;
	sq_conf_init(&c);
	write_file("a", "set refresh 11\nsource b\n", a, sizeof(a));
	write_file("b", "set timeout 12\nsource a\n", b, sizeof(b));
	assert_int_equal(sq_conf_load_file(&c, a, 0, 0), 0);
	assert_int_equal(c.num[SQ_OPT_REFRESH], 11);
	assert_int_equal(c.num[SQ_OPT_TIMEOUT], 12);
	for (i = 0; i < c.nmsgs; i++) {
		if (strstr(c.msgs[i].text, "source loop") != NULL) {
			loops++;
			/* reported at the line of b that sources a */
			assert_non_null(strstr(c.msgs[i].text, "/b:2: "));
		}
	}
	assert_int_equal(loops, 1);
	assert_int_equal(c.depth, 0);

	sq_conf_init(&c);
	write_file("self", "source ./self\n", self, sizeof(self));
	assert_int_equal(sq_conf_load_file(&c, self, 0, 0), 0);
	assert_int_equal(c.nmsgs, 1);
	assert_non_null(strstr(c.msgs[0].text, "source loop"));
}

static void
test_default_env(void **state)
{
	struct sq_conf c;
	char path[1024], xdg[512];

	(void)state;
	/* SQUALL_CONFIG wins; /dev/null is a hermetic run */
	sq_conf_init(&c);
	setenv("SQUALL_CONFIG", "/dev/null", 1);
	sq_conf_load_default(&c, "/nonexistent");
	assert_int_equal(c.nmsgs, 0);
	assert_int_equal(c.num[SQ_OPT_REFRESH], 10);

	snprintf(xdg, sizeof(xdg), "%s/xdg/squall", tmpdir);
	snprintf(path, sizeof(path), "mkdir -p '%s'", xdg);
	assert_int_equal(system(path), 0);
	write_file("xdg/squall/config", "set refresh 42\n", path, sizeof(path));
	unsetenv("SQUALL_CONFIG");
	snprintf(xdg, sizeof(xdg), "%s/xdg", tmpdir);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	sq_conf_init(&c);
	sq_conf_load_default(&c, "/nonexistent");
	assert_int_equal(c.num[SQ_OPT_REFRESH], 42);
	assert_int_equal(c.nmsgs, 0);
	unsetenv("XDG_CONFIG_HOME");
}

/* Every shipped theme loads cleanly; themes hold colour lines only; the
 * built-in default equals themes/default.theme. */
static void
test_themes(void **state)
{
	static const char *const themes[] = { "default", "light", "mono",
					      "colorblind", NULL };
	struct sq_conf c, builtin;
	struct sq_err err;
	char path[512];
	int i;

	(void)state;
	sq_conf_init(&builtin);
	for (i = 0; themes[i] != NULL; i++) {
		sq_conf_init(&c);
		snprintf(c.theme_dirs[0], sizeof(c.theme_dirs[0]), "themes");
		assert_int_equal(sq_conf_load_theme(&c, themes[i], &err), 0);
		assert_int_equal(c.nmsgs, 0);
		assert_string_equal(c.theme, themes[i]);
	}
	sq_conf_init(&c);
	assert_int_equal(sq_conf_load_file(&c, "themes/default.theme", 1, 0),
			 0);
	assert_int_equal(c.nmsgs, 0);
	assert_memory_equal(c.colors, builtin.colors, sizeof(c.colors));
	/* every role is set by every theme file */
	for (i = 1; themes[i] != NULL; i++) {
		FILE *fp;
		char line[256];
		int r, seen[SQ_ROLE_COUNT] = { 0 };

		snprintf(path, sizeof(path), "themes/%s.theme", themes[i]);
		fp = fopen(path, "r");
		assert_non_null(fp);
		while (fgets(line, sizeof(line), fp) != NULL) {
			char role[64];

			if (sscanf(line, "color %63s", role) == 1 &&
			    (r = sq_role_from_name(role)) >= 0)
				seen[r] = 1;
		}
		fclose(fp);
		for (r = 0; r < SQ_ROLE_COUNT; r++) {
			if (!seen[r])
				fail_msg("%s does not set %s", path,
					 sq_role_name(r));
		}
	}
	/* a theme file may not run other commands */
	write_file("evil.theme", "color header red blue\nset refresh 1\n", path,
		   sizeof(path));
	sq_conf_init(&c);
	assert_int_equal(sq_conf_load_theme(&c, path, &err), 0);
	assert_int_equal(c.num[SQ_OPT_REFRESH], 10);
	assert_int_equal(c.nmsgs, 1);
	assert_non_null(strstr(c.msgs[0].text, "only color lines"));
	assert_int_equal(sq_conf_load_theme(&c, "no-such-theme", &err), -1);
	assert_int_equal(sq_conf_load_theme(&c, "../../etc/passwd", &err), -1);
}

/* reason NAME TEXT...: templates for @NAME in a node action's reason */
static void
test_reason(void **state)
{
	struct sq_conf c;
	struct sq_err err;
	char path[512], line[600], names[64];
	char *text;
	int i;

	(void)state;
	sq_conf_init(&c);
	assert_int_equal(c.reasons.n, 0); /* no built-in templates */
	assert_int_equal(
	    sq_conf_exec(&c,
			 "reason disk \"Disk failure: replace disk, ticket "
			 "needed\"",
			 "f", 1, &err),
	    0);
	/* unquoted words are joined by one blank */
	assert_int_equal(
	    sq_conf_exec(&c, "reason mem Memory   errors (EDAC)", "f", 2, &err),
	    0);
	assert_int_equal(
	    sq_conf_exec(&c, "reason a.b-c_9 x # comment", "f", 3, &err), 0);
	assert_int_equal(c.reasons.n, 3);
	assert_string_equal(sq_reasons_find(&c.reasons, "disk"),
			    "Disk failure: replace disk, ticket needed");
	assert_string_equal(sq_reasons_find(&c.reasons, "mem"),
			    "Memory errors (EDAC)");
	assert_string_equal(sq_reasons_find(&c.reasons, "a.b-c_9"), "x");
	assert_null(sq_reasons_find(&c.reasons, "Disk")); /* case matters */
	assert_string_equal(sq_reasons_names(&c.reasons, names, sizeof(names)),
			    "disk mem a.b-c_9");

	/* a later line of the same name replaces it, in place */
	assert_int_equal(
	    sq_conf_exec(&c, "reason mem DIMM errors", "f", 4, &err), 0);
	assert_int_equal(c.reasons.n, 3);
	assert_string_equal(c.reasons.r[1].name, "mem");
	assert_string_equal(sq_reasons_find(&c.reasons, "mem"), "DIMM errors");

	/* errors, as file:line, and nothing defined by them */
	assert_int_equal(sq_conf_exec(&c, "reason", "f", 5, &err), -1);
	assert_string_equal(err.msg, "f:5: usage: reason NAME TEXT...");
	assert_int_equal(sq_conf_exec(&c, "reason lonely", "f", 6, &err), -1);
	assert_string_equal(err.msg, "f:6: usage: reason NAME TEXT...");
	assert_int_equal(sq_conf_exec(&c, "reason empty ''", "f", 7, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "reason .dot x", "f", 8, &err), -1);
	assert_non_null(strstr(err.msg, "f:8: bad reason name '.dot'"));
	assert_int_equal(sq_conf_exec(&c, "reason @disk x", "f", 9, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "reason a/b x", "f", 9, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "reason 'two words' x", "f", 9, &err),
			 -1);
	assert_int_equal(
	    sq_conf_exec(&c, "reason n12345678901234567890123456789012 x", "f",
			 9, &err),
	    -1); /* 33 bytes */
	assert_int_equal(
	    sq_conf_exec(&c, "reason n1234567890123456789012345678901 x", "f",
			 9, &err),
	    0); /* 32 bytes */
	/* hostile text is refused when it is defined */
	assert_int_equal(
	    sq_conf_exec(&c, "reason evil \"it's broken\"", "f", 10, &err), -1);
	assert_non_null(strstr(err.msg, "f:10: reason evil: text may not"));
	assert_int_equal(
	    sq_conf_exec(&c, "reason evil $(reboot)", "f", 11, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "reason evil `id`", "f", 11, &err),
			 -1);
	assert_int_equal(sq_conf_exec(&c, "reason evil 'a\\b'", "f", 11, &err),
			 -1);
	assert_int_equal(sq_conf_exec(&c, "reason evil bang!", "f", 11, &err),
			 -1);
	assert_int_equal(
	    sq_conf_exec(&c, "reason evil \"x\x01y\"", "f", 11, &err), -1);
	assert_int_equal(
	    sq_conf_exec(&c, "reason evil \"bad \xff utf8\"", "f", 11, &err),
	    -1);
	assert_null(sq_reasons_find(&c.reasons, "evil"));
	/* a hostile redefinition leaves the old text */
	assert_int_equal(
	    sq_conf_exec(&c, "reason disk $(rm -rf /)", "f", 12, &err), -1);
	assert_string_equal(sq_reasons_find(&c.reasons, "disk"),
			    "Disk failure: replace disk, ticket needed");

	/* 200 bytes of text, not 201 (also when joined from words) */
	text = malloc(260);
	assert_non_null(text);
	memset(text, 'x', 200);
	text[200] = '\0';
	snprintf(line, sizeof(line), "reason long %s", text);
	assert_int_equal(sq_conf_exec(&c, line, "f", 13, &err), 0);
	assert_int_equal(strlen(sq_reasons_find(&c.reasons, "long")), 200);
	snprintf(line, sizeof(line), "reason long2 %s y", text);
	assert_int_equal(sq_conf_exec(&c, line, "f", 14, &err), -1);
	assert_string_equal(
	    err.msg, "f:14: reason long2: the text is longer than 200 bytes");
	snprintf(line, sizeof(line), "reason long2 %sx", text);
	assert_int_equal(sq_conf_exec(&c, line, "f", 15, &err), -1);
	free(text);

	/* at most 32 templates; replacing one still works when full */
	for (i = (int)c.reasons.n; i < SQ_REASON_MAX; i++) {
		snprintf(line, sizeof(line), "reason r%d text %d", i, i);
		assert_int_equal(sq_conf_exec(&c, line, "f", 20 + i, &err), 0);
	}
	assert_int_equal(c.reasons.n, SQ_REASON_MAX);
	assert_int_equal(sq_conf_exec(&c, "reason one-more x", "f", 99, &err),
			 -1);
	assert_string_equal(
	    err.msg, "f:99: reason one-more: more than 32 reason templates");
	assert_int_equal(c.reasons.n, SQ_REASON_MAX);
	assert_int_equal(sq_conf_exec(&c, "reason mem ECC", "f", 100, &err), 0);
	assert_string_equal(sq_reasons_find(&c.reasons, "mem"), "ECC");
	/* the name list says when it is cut */
	sq_reasons_names(&c.reasons, names, sizeof(names));
	assert_true(strlen(names) < sizeof(names));
	assert_non_null(strstr(names, "..."));

	/* from a file: bad lines recorded as file:line, the rest defined */
	sq_conf_init(&c);
	write_file("reasons",
		   "# site reasons\n"
		   "reason maint Planned maintenance\n"
		   "reason bad it$s\n"
		   "reason psu 'PSU failed'\n",
		   path, sizeof(path));
	assert_int_equal(sq_conf_load_file(&c, path, 0, 0), 0);
	assert_int_equal(c.reasons.n, 2);
	assert_string_equal(sq_reasons_find(&c.reasons, "maint"),
			    "Planned maintenance");
	assert_string_equal(sq_reasons_find(&c.reasons, "psu"), "PSU failed");
	assert_int_equal(c.nmsgs, 1);
	snprintf(line, sizeof(line), "%s:3: reason bad: text may not", path);
	assert_non_null(strstr(c.msgs[0].text, line));
	/* a theme file holds no reason lines */
	write_file("r.theme", "reason x y\n", path, sizeof(path));
	assert_int_equal(sq_conf_load_file(&c, path, 1, 0), 0);
	assert_null(sq_reasons_find(&c.reasons, "x"));
	assert_int_equal(c.nmsgs, 2);
}

/* The whole of a small file, for comparing. */
static const char *
slurp(const char *path, char *buf, size_t n)
{
	FILE *fp = fopen(path, "r");
	size_t got;

	assert_non_null(fp);
	got = fread(buf, 1, n - 1, fp);
	buf[got] = '\0';
	fclose(fp);
	return buf;
}

/* `view NAME key=value...`: a built-in view's columns, sort and filter, a
 * new view with of=, the errors; read back from the file it writes. */
static void
test_view(void **state)
{
	struct sq_conf c;
	struct sq_err err;
	const struct sq_saved_view *v;
	char line[1400], path[512], buf[2048];

	(void)state;
	sq_conf_init(&c);
	assert_int_equal(
	    sq_conf_exec(&c, "view jobs columns=job_id,name,user,state", "f", 1,
			 &err),
	    0);
	assert_true(c.changed & SQ_CONF_CH_VIEWS);
	v = sq_saved_find(&c.views, "jobs");
	assert_non_null(v);
	assert_false(v->custom);
	assert_int_equal(v->has, SQ_SAVED_COLUMNS);
	assert_string_equal(v->columns, "job_id,name,user,state");
	/* an alias names the same view; later keys add to it */
	assert_int_equal(
	    sq_conf_exec(&c, "view j sort=-priority", "f", 2, &err), 0);
	assert_int_equal(c.views.n, 1);
	assert_int_equal(v->has, SQ_SAVED_COLUMNS | SQ_SAVED_SORT);
	assert_string_equal(v->sort, "-priority");
	/* a new view over jobs, its filter quoted */
	assert_int_equal(sq_conf_exec(&c,
				      "view gpujobs of=jobs filter='@gres=gpu' "
				      "columns=job_id,gres",
				      "f", 3, &err),
			 0);
	v = sq_saved_find(&c.views, "gpujobs");
	assert_non_null(v);
	assert_true(v->custom);
	assert_ptr_equal(v->of, &sq_view_jobs);
	assert_string_equal(v->filter, "@gres=gpu");
	/* errors: unknown column, unknown key, unknown view, built-in of= */
	assert_int_equal(
	    sq_conf_exec(&c, "view jobs columns=job_id,nope", "f", 4, &err),
	    -1);
	assert_non_null(strstr(err.msg, "f:4: view jobs has no column 'nope'"));
	assert_int_equal(sq_conf_exec(&c, "view jobs sort=-nope", "f", 5, &err),
			 -1);
	assert_int_equal(sq_conf_exec(&c, "view jobs color=red", "f", 6, &err),
			 -1);
	assert_int_equal(
	    sq_conf_exec(&c, "view nothere sort=user", "f", 7, &err), -1);
	assert_int_equal(
	    sq_conf_exec(&c, "view nodes of=jobs sort=user", "f", 8, &err), -1);
	assert_int_equal(sq_conf_exec(&c, "view jobs", "f", 9, &err), -1);
	assert_int_equal(c.views.n, 2);
	/* the line reads back as the same view */
	sq_saved_line(v, line, sizeof(line));
	assert_string_equal(line, "view gpujobs of=jobs columns=job_id,gres "
				  "filter=\"@gres=gpu\"");
	{
		struct sq_conf c2;

		sq_conf_init(&c2);
		assert_int_equal(sq_conf_exec(&c2, line, "f", 1, &err), 0);
		assert_string_equal(sq_saved_find(&c2.views, "gpujobs")->filter,
				    "@gres=gpu");
	}
	/* the writer: only the view's last line changes */
	write_file("viewrc",
		   "set refresh 5\n"
		   "view jobs columns=job_id\n"
		   "# a comment\n"
		   "view jobs sort=user\n"
		   "view jobsx sort=user\n"
		   "bind x :jobs\n",
		   path, sizeof(path));
	assert_int_equal(
	    sq_saved_write_file(path, "view jobs columns=job_id,name", &err),
	    0);
	assert_string_equal(slurp(path, buf, sizeof(buf)),
			    "set refresh 5\n"
			    "view jobs columns=job_id\n"
			    "# a comment\n"
			    "view jobs columns=job_id,name\n"
			    "view jobsx sort=user\n"
			    "bind x :jobs\n");
	/* a view without a line is added at the end (no newline there) */
	write_file("viewrc2", "set refresh 5", path, sizeof(path));
	assert_int_equal(
	    sq_saved_write_file(path, "view nodes sort=-cpus_alloc", &err), 0);
	assert_string_equal(slurp(path, buf, sizeof(buf)),
			    "set refresh 5\nview nodes sort=-cpus_alloc\n");
	/* a missing file is created */
	snprintf(path, sizeof(path), "%s/newrc", tmpdir);
	assert_int_equal(sq_saved_write_file(path, "view jobs sort=user", &err),
			 0);
	assert_string_equal(slurp(path, buf, sizeof(buf)),
			    "view jobs sort=user\n");
	/* a fresh home: the directories are made, 0700 (issue 41) */
	snprintf(path, sizeof(path), "%s/home/.config/squall/config", tmpdir);
	assert_int_equal(sq_saved_write_file(path, "view jobs sort=user", &err),
			 0);
	assert_string_equal(slurp(path, buf, sizeof(buf)),
			    "view jobs sort=user\n");
	{
		struct stat st;

		snprintf(path, sizeof(path), "%s/home/.config/squall", tmpdir);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0700);
		snprintf(path, sizeof(path), "%s/home/.config", tmpdir);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0700);
	}
	/* a file where a directory should be: an error, nothing written */
	write_file("afile", "x", path, sizeof(path));
	strncat(path, "/squall/config", sizeof(path) - strlen(path) - 1);
	assert_int_equal(sq_saved_write_file(path, "view jobs sort=user", &err),
			 -1);
	assert_non_null(strstr(err.msg, "afile"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_color),
		cmocka_unit_test(test_cluster),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_source_loop),
		cmocka_unit_test(test_default_env),
		cmocka_unit_test(test_themes),
		cmocka_unit_test(test_reason),
		cmocka_unit_test(test_view),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
