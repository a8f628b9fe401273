/*
 * sshcmd.c - the argv of `:ssh NODE` (see sshcmd.h). Values are checked,
 * never quoted into a shell string: the console runs argv with
 * posix_spawnp.
 */
#include <stdio.h>
#include <string.h>

#include "core/conf/sshcmd.h"
#include "core/base/validate.h"

struct b {
	struct sq_sshcmd *c;
	size_t used, n;
	int full;
};

static void
add(struct b *b, const char *fmt, const char *v)
{
	struct sq_sshcmd *c = b->c;
	size_t room = sizeof(c->buf) - b->used;
	int k;

	if (b->n + 1 >= SQ_SSHCMD_MAXARGS) {
		b->full = 1;
		return;
	}
	k = snprintf(c->buf + b->used, room, fmt, v);
	if (k < 0 || (size_t)k >= room) {
		b->full = 1;
		return;
	}
	c->argv[b->n++] = c->buf + b->used;
	c->argv[b->n] = NULL;
	b->used += (size_t)k + 1;
}

/* A file path given to ssh: absolute, no control character. */
static int
ok_file(const char *p)
{
	for (const char *s = p; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	}
	return p[0] == '/' || p[0] == '~';
}

int
sq_sshcmd_build(struct sq_sshcmd *c, const struct sq_cluster_cfg *cfg,
		const char *node, struct sq_err *err)
{
	struct b b = { c, 0, 0, 0 };
	char jump[512];
	size_t i;

	memset(c, 0, sizeof(*c));
	if (node == NULL || sq_valid_name(node, NULL) == -1)
		return sq_err_set(err, SQ_ERR_USAGE, "not a node name: '%.60s'",
				  node ? node : "");
	add(&b, "%s", "ssh");
	if (strcmp(cfg->backend, "ssh") == 0) {
		if (cfg->host[0] == '\0' || cfg->host[0] == '-' ||
		    strpbrk(cfg->host, " @:/\\'\"\t\n") != NULL ||
		    (cfg->user[0] != '\0' &&
		     sq_valid_name(cfg->user, NULL) == -1))
			return sq_err_set(err, SQ_ERR_USAGE,
					  "the login node's host or user is "
					  "not safe on a command line");
		if (cfg->ssh_config[0] != '\0') {
			if (!ok_file(cfg->ssh_config))
				goto badfile;
			add(&b, "%s", "-F");
			add(&b, "%s", cfg->ssh_config);
		}
		if (cfg->identity[0] != '\0') {
			if (!ok_file(cfg->identity))
				goto badfile;
			add(&b, "%s", "-i");
			add(&b, "%s", cfg->identity);
		}
		if (cfg->known_hosts[0] != '\0') {
			if (!ok_file(cfg->known_hosts))
				goto badfile;
			add(&b, "%s", "-o");
			add(&b, "UserKnownHostsFile=%s", cfg->known_hosts);
		}
		snprintf(jump, sizeof(jump), "%s%s%s", cfg->user,
			 cfg->user[0] ? "@" : "", cfg->host);
		if (cfg->port > 0 && cfg->port != 22) {
			size_t l = strlen(jump);

			snprintf(jump + l, sizeof(jump) - l, ":%d", cfg->port);
		}
		add(&b, "%s", "-J");
		add(&b, "%s", jump);
		if (cfg->user[0] != '\0') {
			add(&b, "%s", "-l");
			add(&b, "%s", cfg->user);
		}
	}
	add(&b, "%s", "--");
	add(&b, "%s", node);
	if (b.full)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "the ssh command is too long");
	for (i = 0; c->argv[i] != NULL; i++) {
		size_t l = strlen(c->line);

		snprintf(c->line + l, sizeof(c->line) - l, "%s%s", i ? " " : "",
			 c->argv[i]);
	}
	return 0;
badfile:
	return sq_err_set(err, SQ_ERR_USAGE,
			  "a configured ssh file path is not usable here");
}
