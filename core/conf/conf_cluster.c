/*
 * conf_cluster.c - the `cluster NAME key=value...` command and how the
 * settings squall connects with are resolved from defaults, `set` options,
 * the chosen cluster line and the command line. No I/O here.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/conf/conf.h"
#include "core/conf/conf_int.h"
#include "core/base/validate.h"

/* ------------------------------------------------------------ clusters */

enum ckey_type { CK_STR, CK_INT, CK_FLAG, CK_PATH };

struct ckey {
	const char *name;
	enum ckey_type type;
	size_t off, size;
	long min, max;
};

#define CSTR(n, f, t)                                                          \
	{                                                                      \
		n, t, offsetof(struct sq_cluster_cfg, f),                      \
		    sizeof(((struct sq_cluster_cfg *)0)->f), 0, 0              \
	}
#define CINT(n, f, t, lo, hi)                                                  \
	{                                                                      \
		n, t, offsetof(struct sq_cluster_cfg, f), sizeof(int), lo, hi  \
	}

static const struct ckey cluster_keys[] = {
	CSTR("backend", backend, CK_STR),
	CSTR("host", host, CK_STR),
	CINT("port", port, CK_INT, 1, 65535),
	CSTR("user", user, CK_STR),
	CSTR("url", url, CK_STR),
	CSTR("token-file", token_file, CK_PATH),
	CSTR("ca-file", ca_file, CK_PATH),
	CSTR("replay", replay_dir, CK_PATH),
	CSTR("record", record_dir, CK_PATH),
	CSTR("slurm-bindir", slurm_bindir, CK_PATH),
	CSTR("spec", spec, CK_PATH),
	CSTR("identity", identity, CK_PATH),
	CSTR("known-hosts", known_hosts, CK_PATH),
	CSTR("ssh-config", ssh_config, CK_PATH),
	CINT("readonly", readonly, CK_FLAG, 0, 1),
	CINT("refresh", refresh, CK_INT, 1, 86400),
	CINT("timeout", timeout, CK_INT, 1, 3600),
	CINT("max-output", max_output, CK_INT, 16, 1048576),
	CINT("insecure-http", insecure_http, CK_FLAG, 0, 1),
};

static int
check_cluster_value(const char *key, const char *v, char *why, size_t n)
{
	struct sq_err e;
	const unsigned char *p;

	if (strcmp(key, "backend") == 0) {
		if (strcmp(v, "local") && strcmp(v, "ssh") &&
		    strcmp(v, "rest") && strcmp(v, "replay")) {
			snprintf(why, n,
				 "backend must be local, ssh, rest or replay");
			return -1;
		}
	} else if (strcmp(key, "user") == 0) {
		if (sq_valid_name(v, &e) == -1) {
			snprintf(why, n, "user: %s", e.msg);
			return -1;
		}
	} else if (strcmp(key, "host") == 0) {
		for (p = (const unsigned char *)v; *p != '\0'; p++) {
			if (!((*p >= 'a' && *p <= 'z') ||
			      (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '.' ||
			      *p == '-' || *p == '_' || *p == ':' ||
			      *p == '[' || *p == ']')) {
				snprintf(why, n,
					 "host: bad character in '%.60s'", v);
				return -1;
			}
		}
	} else if (strcmp(key, "url") == 0) {
		if (strncmp(v, "http://", 7) && strncmp(v, "https://", 8) &&
		    strncmp(v, "unix:", 5)) {
			snprintf(why, n,
				 "url must start with http://, https:// or "
				 "unix:");
			return -1;
		}
		for (p = (const unsigned char *)v; *p != '\0'; p++) {
			if (*p <= 0x20 || *p == 0x7f) {
				snprintf(why, n,
					 "url: no blanks or control "
					 "characters");
				return -1;
			}
		}
	} else if (strcmp(key, "slurm-bindir") == 0) {
		/* an absolute directory of plain characters, no ".." */
		if (v[0] != '/' || strstr(v, "..") != NULL) {
			snprintf(why, n,
				 "slurm-bindir must be an absolute "
				 "path without '..'");
			return -1;
		}
		for (p = (const unsigned char *)v; *p != '\0'; p++) {
			if (!((*p >= 'a' && *p <= 'z') ||
			      (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '_' ||
			      *p == '.' || *p == '+' || *p == '-' ||
			      *p == '/')) {
				snprintf(why, n,
					 "slurm-bindir: bad character in "
					 "'%.60s'",
					 v);
				return -1;
			}
		}
	}
	return 0;
}

/* Key ck of cluster cl set to val (NULL: the key alone, a flag on); a
 * path relative to the config file's directory. */
static int
set_cluster_key(struct sq_cluster_cfg *cl, const struct ckey *ck,
		const char *val, const char *file, char *why, size_t n)
{
	char path[1024];
	char *dst = (char *)cl + ck->off;
	long num;

	if (ck->type == CK_FLAG) {
		if (val != NULL && sq_conf_parse_bool(val, &num) == -1) {
			snprintf(why, n, "cluster %s: %s must be on or off",
				 cl->name, ck->name);
			return -1;
		}
		*(int *)((char *)cl + ck->off) = val ? (int)num : 1;
		return 0;
	}
	if (val == NULL || *val == '\0') {
		snprintf(why, n, "cluster %s: %s needs a value", cl->name,
			 ck->name);
		return -1;
	}
	if (ck->type == CK_INT) {
		if (sq_conf_parse_long(val, ck->min, ck->max, &num) == -1) {
			snprintf(why, n,
				 "cluster %s: %s must be a number from "
				 "%ld to %ld",
				 cl->name, ck->name, ck->min, ck->max);
			return -1;
		}
		*(int *)((char *)cl + ck->off) = (int)num;
		return 0;
	}
	if (check_cluster_value(ck->name, val, why, n) == -1)
		return -1;
	if (ck->type == CK_PATH)
		sq_conf_expand_path(val, file, path, sizeof(path));
	else
		snprintf(path, sizeof(path), "%s", val);
	if (strlen(path) >= ck->size) {
		snprintf(why, n, "cluster %s: %s is too long", cl->name,
			 ck->name);
		return -1;
	}
	memcpy(dst, path, strlen(path) + 1);
	return 0;
}

/* cluster NAME [key=value | flag]... (w[0] is NAME) */
int
sq_conf_exec_cluster(struct sq_conf *c, char **w, int nw, const char *file,
		     char *why, size_t n)
{
	struct sq_cluster_cfg cl;
	struct sq_err e;
	char theme[64] = "";
	size_t i, k;
	int j;

	if (nw < 1) {
		snprintf(why, n, "usage: cluster NAME key=value...");
		return -1;
	}
	if (sq_valid_name(w[0], &e) == -1 || strlen(w[0]) >= sizeof(cl.name)) {
		snprintf(why, n, "bad cluster name '%.60s'", w[0]);
		return -1;
	}
	/* 0 and "" mean "not given": sq_conf_resolve_cluster overlays */
	memset(&cl, 0, sizeof(cl));
	snprintf(cl.name, sizeof(cl.name), "%s", w[0]);
	for (j = 1; j < nw; j++) {
		char *eq = strchr(w[j], '=');
		const char *val = eq ? eq + 1 : NULL;
		size_t kl = eq ? (size_t)(eq - w[j]) : strlen(w[j]);
		const struct ckey *ck = NULL;

		for (k = 0; k < sizeof(cluster_keys) / sizeof(cluster_keys[0]);
		     k++) {
			if (strlen(cluster_keys[k].name) == kl &&
			    strncmp(cluster_keys[k].name, w[j], kl) == 0)
				ck = &cluster_keys[k];
		}
		if (kl == 5 && strncmp(w[j], "theme", 5) == 0 && val != NULL) {
			if (strlen(val) >= sizeof(theme) || *val == '\0') {
				snprintf(why, n, "cluster %s: bad theme name",
					 cl.name);
				return -1;
			}
			snprintf(theme, sizeof(theme), "%s", val);
			continue;
		}
		if (ck == NULL) {
			snprintf(why, n, "cluster %s: unknown key '%.*s'",
				 cl.name, (int)(kl > 60 ? 60 : kl), w[j]);
			return -1;
		}
		if (set_cluster_key(&cl, ck, val, file, why, n) == -1)
			return -1;
	}
	if (cl.backend[0] == '\0')
		snprintf(cl.backend, sizeof(cl.backend), "local");
	if (strcmp(cl.backend, "ssh") == 0 && cl.host[0] == '\0') {
		snprintf(why, n,
			 "cluster %s: backend=ssh needs host=", cl.name);
		return -1;
	}
	if (strcmp(cl.backend, "rest") == 0 && cl.url[0] == '\0') {
		snprintf(why, n,
			 "cluster %s: backend=rest needs url=", cl.name);
		return -1;
	}
	for (i = 0; i < c->nclusters; i++) {
		if (strcmp(c->clusters[i].name, cl.name) == 0)
			break;
	}
	if (i == SQ_CONF_MAX_CLUSTERS) {
		snprintf(why, n, "more than %d clusters", SQ_CONF_MAX_CLUSTERS);
		return -1;
	}
	c->clusters[i] = cl; /* a later line redefines the cluster */
	snprintf(c->cluster_theme[i], sizeof(c->cluster_theme[i]), "%s", theme);
	if (i == c->nclusters)
		c->nclusters++;
	c->changed |= SQ_CONF_CH_CLUSTERS;
	return 0;
}

const struct sq_cluster_cfg *
sq_conf_cluster(const struct sq_conf *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nclusters; i++) {
		if (strcmp(c->clusters[i].name, name) == 0)
			return &c->clusters[i];
	}
	return NULL;
}

/* Copy the fields of src that are not "unset" (per the reference). */
static void
overlay(struct sq_cluster_cfg *dst, const struct sq_cluster_cfg *src,
	const struct sq_cluster_cfg *unset)
{
#define OV_STR(f)                                                              \
	if (strcmp(src->f, unset->f) != 0)                                     \
		memcpy(dst->f, src->f, sizeof(dst->f));
#define OV_INT(f)                                                              \
	if (src->f != unset->f)                                                \
		dst->f = src->f;
	OV_STR(backend)
	OV_STR(host)
	OV_STR(user)
	OV_STR(url)
	OV_STR(token_file)
	OV_STR(ca_file)
	OV_STR(replay_dir)
	OV_STR(record_dir)
	OV_STR(slurm_bindir)
	OV_STR(spec)
	OV_STR(identity)
	OV_STR(known_hosts)
	OV_STR(ssh_config)
	OV_INT(port)
	OV_INT(readonly)
	OV_INT(refresh)
	OV_INT(timeout)
	OV_INT(max_output)
	OV_INT(accept_new_host_key)
	OV_INT(insecure_http)
#undef OV_STR
#undef OV_INT
}

int
sq_conf_resolve_cluster(const struct sq_conf *c,
			const struct sq_cluster_cfg *cmdline,
			struct sq_cluster_cfg *out, struct sq_err *err)
{
	struct sq_cluster_cfg defs, none;
	const struct sq_cluster_cfg *cl = NULL;
	const char *name = NULL;
	int given;

	sq_cluster_defaults(&defs);
	memset(&none, 0, sizeof(none));
	*out = defs;
	out->refresh = (int)c->num[SQ_OPT_REFRESH];
	out->timeout = (int)c->num[SQ_OPT_TIMEOUT];
	out->max_output = (int)c->num[SQ_OPT_MAX_OUTPUT];
	out->readonly = (int)c->num[SQ_OPT_READONLY];
	/* -b/-H/-u name the cluster themselves: the config's default
	 * `set cluster` is not it (issue 31) */
	given = strcmp(cmdline->backend, defs.backend) != 0 ||
		cmdline->host[0] != '\0' || cmdline->url[0] != '\0';
	if (strcmp(cmdline->name, defs.name) != 0)
		name = cmdline->name;
	else if (c->str[SQ_OPT_CLUSTER][0] != '\0' && !given)
		name = c->str[SQ_OPT_CLUSTER];
	if (name != NULL) {
		cl = sq_conf_cluster(c, name);
		if (cl == NULL && given) {
			/* -c NAME with -b ...: a label for this session */
			overlay(out, cmdline, &defs);
			snprintf(out->name, sizeof(out->name), "%s", name);
			return 0;
		}
		if (cl == NULL)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "no cluster called '%s' in the "
					  "configuration",
					  name);
		snprintf(out->name, sizeof(out->name), "%s", cl->name);
		memset(out->backend, 0, sizeof(out->backend));
		overlay(out, cl, &none);
		if (out->backend[0] == '\0')
			snprintf(out->backend, sizeof(out->backend), "local");
	}
	overlay(out, cmdline, &defs);
	if (cl == NULL && given)
		sq_conf_derive_name(out, out->name, sizeof(out->name));
	return 0;
}

void
sq_conf_derive_name(const struct sq_cluster_cfg *cfg, char *buf, size_t n)
{
	const char *u = cfg->url;

	if (strcmp(cfg->backend, "ssh") == 0) {
		char port[16] = "";

		if (cfg->port != 0 && cfg->port != 22)
			snprintf(port, sizeof(port), ":%d", cfg->port);
		snprintf(buf, n, "ssh:%s%s%s%s", cfg->user,
			 cfg->user[0] ? "@" : "", cfg->host, port);
	} else if (strcmp(cfg->backend, "rest") == 0) {
		if (strstr(u, "://") != NULL)
			u = strstr(u, "://") + 3;
		snprintf(buf, n, "rest:%.*s", (int)strcspn(u, "/"), u);
	} else {
		snprintf(buf, n, "%s", cfg->backend);
	}
}
