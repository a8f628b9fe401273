/*
 * fuzz_conf.c - libFuzzer harness for the command language (core/conf/conf*.c).
 * "lang": the input as a config file (set, bind, color, theme, source,
 * cluster ...), then every option read back and every cluster resolved.
 * "theme": the input as a theme file through the theme loader. Files are
 * written to a private directory; `source` and `theme` stay inside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "core/conf/cluster.h"
#include "core/conf/conf.h"
#include "tests/fuzz/fuzz.h"

#ifndef SQ_FUZZ_NAME
#error "build with -DSQ_FUZZ_NAME=\"lang\" (see tests/fuzz/run)"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], conf_path[128], theme_path[128];
/* sq_conf_init once; each input starts from a copy (the init parses the
 * built-in theme through the language: half the time of a run) */
static struct sq_conf pristine, conf;

static void
write_file(const char *path, const void *data, size_t size)
{
	FILE *fp = fopen(path, "w");

	SQ_FUZZ_CHECK(fp != NULL);
	SQ_FUZZ_CHECK(size == 0 || fwrite(data, 1, size, fp) == size);
	SQ_FUZZ_CHECK(fclose(fp) == 0);
}

static void
cleanup(void)
{
	char p[160];

	unlink(conf_path);
	unlink(theme_path);
	snprintf(p, sizeof(p), "%s/other.conf", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/squall/themes/mine.theme", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/squall/themes", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/squall", dir);
	rmdir(p);
	rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char other[] = "set refresh 5\nbind x cancel\n"
				    "source fuzz.conf\n";
	static const char mine[] = "color table.header bold white blue\n";
	char p[160];

	(void)argc;
	(void)argv;
	sq_fuzz_tmpdir(dir, sizeof(dir), "conf");
	snprintf(conf_path, sizeof(conf_path), "%s/fuzz.conf", dir);
	snprintf(theme_path, sizeof(theme_path), "%s/fuzz.theme", dir);
	snprintf(p, sizeof(p), "%s/other.conf", dir);
	write_file(p, other, sizeof(other) - 1);
	snprintf(p, sizeof(p), "%s/squall", dir);
	SQ_FUZZ_CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof(p), "%s/squall/themes", dir);
	SQ_FUZZ_CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof(p), "%s/squall/themes/mine.theme", dir);
	write_file(p, mine, sizeof(mine) - 1);
	/* `theme NAME` looks here first, then in the project's themes/ */
	setenv("XDG_CONFIG_HOME", dir, 1);
	setenv("HOME", dir, 1);
	atexit(cleanup);
	sq_conf_init(&pristine);
	snprintf(pristine.theme_dirs[0], sizeof(pristine.theme_dirs[0]),
		 "themes");
	return 0;
}

static int
has(const uint8_t *data, size_t size, const char *word)
{
	size_t n = strlen(word), i;

	for (i = 0; i + n <= size; i++)
		if (memcmp(data + i, word, n) == 0)
			return 1;
	return 0;
}

/* Could the input make `source` or `theme` leave the directory (an
 * absolute or relative path to /dev/zero, a FIFO ...)? */
static int
leaves_dir(const uint8_t *data, size_t size)
{
	return memchr(data, '/', size) != NULL &&
	       (has(data, size, "source") || has(data, size, "theme"));
}

static void
check(const struct sq_conf *c)
{
	char buf[128];
	size_t i;
	int o;

	for (o = 0; o < SQ_OPT_COUNT; o++) {
		const char *v =
		    sq_conf_get(c, (enum sq_option)o, buf, sizeof(buf));

		SQ_FUZZ_CHECK(v != NULL);
		sq_fuzz_check_display(v);
	}
	for (i = 0; i < c->nmsgs; i++)
		sq_fuzz_check_display(c->msgs[i].text);
	SQ_FUZZ_CHECK(c->nbindings <= SQ_CONF_MAX_BINDINGS);
	SQ_FUZZ_CHECK(c->nclusters <= SQ_CONF_MAX_CLUSTERS);
	SQ_FUZZ_CHECK(c->depth == 0);
	for (i = 0; i < c->nclusters; i++) {
		struct sq_cluster_cfg cmd, out;
		struct sq_err err;

		sq_cluster_defaults(&cmd);
		snprintf(cmd.name, sizeof(cmd.name), "%s", c->clusters[i].name);
		if (sq_conf_resolve_cluster(c, &cmd, &out, &err) == -1)
			sq_fuzz_check_display(err.msg);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sq_err err;

	if (leaves_dir(data, size))
		return -1;
	memcpy(&conf, &pristine, sizeof(conf));
	if (strcmp(SQ_FUZZ_NAME, "lang") == 0) {
		write_file(conf_path, data, size);
		(void)sq_conf_load_file(&conf, conf_path, 0, 0);
	} else if (strcmp(SQ_FUZZ_NAME, "theme") == 0) {
		write_file(theme_path, data, size);
		if (sq_conf_load_theme(&conf, theme_path, &err) == -1)
			sq_fuzz_check_display(err.msg);
	} else {
		SQ_FUZZ_CHECK(!"unknown harness");
	}
	check(&conf);
	return 0;
}
