/*
 * replay.c - the replay backend: the CLI layer over a transport that
 * serves the outputs a `squall --record DIR` session wrote, so a session
 * can be looked at again without any cluster (bug reports, offline review,
 * deterministic screen tests). Each command's recorded outputs are served
 * in order; after the last, the last one again. It never changes anything:
 * actions are described but refused.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/cli/actions.h"
#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "backends/cli/fetch.h"
#include "backends/cli/metrics.h"

struct sq_replay_entry {
	char *key;  /* argv joined with tabs */
	char *file; /* output file, relative to the directory */
	int status;
	int served;
};

struct sq_replay {
	char dir[512];
	struct sq_replay_entry *e;
	size_t n;
};

static void
replay_free(struct sq_replay *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->e[i].key);
		free(r->e[i].file);
	}
	free(r->e);
	free(r);
}

/*
 * A command line (argv joined by tabs) without what changes from run to
 * run: the nonces (cli.h), and sacct's --delimiter=<nonce> as a whole
 * (masked to "--delimiter=|"), so that recordings made before squall
 * passed it still match; the same for sinfo's User and TimeStamp fields
 * (the parser reads lines without them).
 */
static void
mask_key(char *key)
{
	static const char arg[] = "\t--delimiter=|\t";
	static const char who[] = "User:|,TimeStamp:|,";
	char *p;

	sq_cli_nonce_mask(key);
	while ((p = strstr(key, arg)) != NULL)
		memmove(p, p + sizeof(arg) - 2,
			strlen(p + sizeof(arg) - 2) + 1);
	while ((p = strstr(key, who)) != NULL)
		memmove(p, p + sizeof(who) - 1,
			strlen(p + sizeof(who) - 1) + 1);
}

/*
 * A recorded key in the current command's words: sacct's history format
 * before TRESUsageInMax and squeue's GPU jobs format before NodeList
 * (cli_admin.h) are today's, as their parsers read both. A new string,
 * or key itself when nothing changes.
 */
static char *
upgrade_one(char *key, const char *old, const char *now)
{
	char *p = key != NULL ? strstr(key, old) : NULL, *n;
	size_t lo = strlen(old), ln = strlen(now), lk;

	if (p == NULL || (p[lo] != '\0' && p[lo] != '\t'))
		return key;
	lk = strlen(key);
	n = malloc(lk - lo + ln + 1);
	if (n == NULL) {
		free(key);
		return NULL;
	}
	memcpy(n, key, (size_t)(p - key));
	memcpy(n + (p - key), now, ln);
	memcpy(n + (p - key) + ln, p + lo, lk - (size_t)(p - key) - lo + 1);
	free(key);
	return n;
}

static char *
upgrade_key(char *key)
{
	key = upgrade_one(key, sq_cli_sacct_history_fmt_v1,
			  sq_cli_sacct_history_fmt);
	return upgrade_one(key, sq_cli_gpujobs_fmt_v1, sq_cli_gpujobs_fmt);
}

static struct sq_replay *
replay_load(const char *dir, struct sq_err *err)
{
	struct sq_replay *r;
	char path[600], *line = NULL;
	size_t cap = 0, lineno = 0;
	FILE *fp;

	if (dir[0] == '\0') {
		sq_err_set(err, SQ_ERR_USAGE,
			   "replay needs a directory "
			   "(--replay DIR)");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	fp = fopen(path, "r");
	if (fp == NULL) {
		sq_err_set(err, SQ_ERR_CONNECT,
			   "%s: no recording here (written by squall --record)",
			   dir);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		goto oom;
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	while (getline(&line, &cap, fp) != -1) {
		char *f[3], *p = line, *rest;
		struct sq_replay_entry *ne;
		int i;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < 3; i++) {
			f[i] = p;
			p = strchr(p, '\t');
			if (p == NULL)
				break;
			*p++ = '\0';
		}
		if (i < 3 || strchr(f[2], '/') != NULL || f[2][0] == '.') {
			sq_err_set(err, SQ_ERR_PARSE, "%s:%zu: malformed line",
				   path, lineno);
			goto fail;
		}
		rest = p;
		ne = realloc(r->e, (r->n + 1) * sizeof(*r->e));
		if (ne == NULL)
			goto oom;
		r->e = ne;
		r->e[r->n].key = upgrade_key(strdup(rest));
		/* squeue's and sacct's nonces differ in every recording */
		if (r->e[r->n].key != NULL)
			mask_key(r->e[r->n].key);
		r->e[r->n].file = strdup(f[2]);
		r->e[r->n].status = atoi(f[1]);
		r->e[r->n].served = 0;
		r->n++;
		if (r->e[r->n - 1].key == NULL || r->e[r->n - 1].file == NULL)
			goto oom;
	}
	free(line);
	fclose(fp);
	return r;
oom:
	sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
fail:
	free(line);
	fclose(fp);
	if (r != NULL)
		replay_free(r);
	return NULL;
}

/* "scontrol show node" for "scontrol\t-d\t-o\tshow\tnode": the command's
 * name and what it shows, the options left out (keys are tab-joined). */
static void
summary(const char *key, struct sq_buf *b)
{
	const char *p = strchr(key, '\t'), *w, *slash;
	size_t n = p != NULL ? (size_t)(p - key) : strlen(key);

	for (slash = key; (w = memchr(slash, '/', n - (size_t)(slash - key)));)
		slash = w + 1;
	sq_buf_append(b, slash, n - (size_t)(slash - key));
	for (w = p; w != NULL; w = strchr(w + 1, '\t')) {
		if (strncmp(w, "\tshow\t", 6) != 0)
			continue;
		n = strcspn(w + 6, "\t");
		sq_buf_printf(b, " show %.*s", (int)n, w + 6);
		break;
	}
}

/* What the recording holds, each command once: "sacct, sacctmgr show
 * account, ..., squeue" (the index's order). */
static void
holdings(const struct sq_replay *r, struct sq_buf *out)
{
	struct sq_buf one, seen;
	size_t i;

	sq_buf_init(&one, 0);
	sq_buf_init(&seen, 0);
	sq_buf_printf(&seen, "\n");
	for (i = 0; i < r->n; i++) {
		sq_buf_reset(&one);
		sq_buf_printf(&one, "\n");
		summary(r->e[i].key, &one);
		sq_buf_printf(&one, "\n");
		if (strstr(sq_buf_str(&seen), sq_buf_str(&one)) != NULL)
			continue;
		sq_buf_printf(&seen, "%s", sq_buf_str(&one) + 1);
		sq_buf_printf(out, "%s%.*s", out->len ? ", " : "",
			      (int)(one.len - 2), sq_buf_str(&one) + 1);
	}
	sq_buf_free(&one);
	sq_buf_free(&seen);
}

/* No output of argv: say what was asked and what the recording holds. */
static int
missing(const struct sq_replay *r, const char *key, struct sq_err *err)
{
	struct sq_buf want, has;
	int rc;

	sq_buf_init(&want, 0);
	sq_buf_init(&has, 0);
	summary(key, &want);
	holdings(r, &has);
	rc = sq_err_set(err, SQ_ERR_UNSUPPORTED,
			"the recording has no output of '%s' (not fetched "
			"while it was recorded); it holds: %s",
			sq_buf_str(&want),
			has.len ? sq_buf_str(&has) : "nothing");
	sq_buf_free(&want);
	sq_buf_free(&has);
	return rc;
}

static int
replay_run(void *ctx, const char *const argv[], struct sq_buf *out,
	   struct sq_buf *errout, int *status, struct sq_err *err)
{
	struct sq_replay *r = ctx;
	struct sq_buf key;
	struct sq_replay_entry *pick = NULL, *last = NULL;
	char path[700], chunk[65536];
	struct stat st;
	size_t i, n;
	FILE *fp;
	int fd;

	(void)errout;
	sq_buf_init(&key, 0);
	for (i = 0; argv[i] != NULL; i++)
		sq_buf_printf(&key, "%s%s", i ? "\t" : "", argv[i]);
	if (key.data != NULL)
		mask_key(key.data);
	for (i = 0; i < r->n && pick == NULL; i++) {
		if (strcmp(r->e[i].key, sq_buf_str(&key)) != 0)
			continue;
		last = &r->e[i];
		if (!r->e[i].served)
			pick = &r->e[i];
	}
	if (pick == NULL)
		pick = last;
	if (pick == NULL) {
		int rc = missing(r, sq_buf_str(&key), err);

		sq_buf_free(&key);
		return rc;
	}
	sq_buf_free(&key);
	pick->served = 1;
	snprintf(path, sizeof(path), "%s/%s", r->dir, pick->file);
	/* a recording may come from someone else: a FIFO or a link to
	 * /dev/zero in it must not hang us (O_NONBLOCK: opening a FIFO
	 * would wait for a writer) */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "%s: cannot open", path);
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return sq_err_set(err, SQ_ERR_SYSTEM, "%s: not a regular file",
				  path);
	}
	fp = fdopen(fd, "r");
	if (fp == NULL) {
		close(fd);
		return sq_err_set(err, SQ_ERR_SYSTEM, "%s: cannot open", path);
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		if (sq_buf_append(out, chunk, n) == -1)
			break; /* over the output cap: sq_cli_run says so */
	fclose(fp);
	*status = pick->status;
	return 0;
}

static void
replay_close(void *ctx)
{
	replay_free(ctx);
}

/* Whether the recording's nodes came from sinfo -N (recorded before
 * squall read them with scontrol show node, fetch.c): replayed as such. */
static int
has_sinfo_nodes(const struct sq_replay *r)
{
	static const char key[] = "sinfo\t-h\t-N\t";
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (strncmp(r->e[i].key, key, sizeof(key) - 1) == 0)
			return 1;
	}
	return 0;
}

static const struct sq_transport_ops replay_transport = {
	.name = "replay",
	.run = replay_run,
	.close = replay_close,
};

static int
be_open(struct sq_backend *b, const struct sq_cluster_cfg *cfg,
	struct sq_err *err)
{
	struct sq_cli *cli = calloc(1, sizeof(*cli));

	if (cli == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	b->priv = cli;
	/* replaying never records again */
	b->cfg.record_dir[0] = '\0';
	cli->b = b;
	cli->tr = &replay_transport;
	cli->tr_ctx = replay_load(cfg->replay_dir, err);
	if (cli->tr_ctx == NULL)
		return -1;
	cli->nodes_sinfo = has_sinfo_nodes(cli->tr_ctx);
	return sq_cli_detect_version(cli, b->version, sizeof(b->version), err);
}

static unsigned
be_caps(struct sq_backend *b)
{
	/* what the recorded backend could serve; views without a recorded
	 * command say so when fetched */
	return sq_cli_caps(b->priv) &
	       ~(SQ_CAP_JOB_ACTIONS | SQ_CAP_NODE_UPDATE | SQ_CAP_ACCT_UPDATE);
}

static int
be_act(struct sq_backend *b, const struct sq_action *act,
       const struct sq_targets_read *read, struct sq_result *res,
       struct sq_err *err)
{
	(void)b;
	(void)act;
	(void)read;
	(void)res;
	return sq_err_set(err, SQ_ERR_DENIED,
			  "a replayed session cannot change the cluster");
}

/* Refused before the preview (not after y): nothing is run. */
static int
be_describe(struct sq_backend *b, const struct sq_action *act,
	    const struct sq_targets_read *read, char *buf, size_t len)
{
	(void)b;
	(void)act;
	(void)read;
	snprintf(buf, len, "a replayed session cannot change the cluster");
	return -1;
}

const struct sq_backend_ops sq_backend_replay = {
	.name = "replay",
	.open = be_open,
	.close = sq_cli_backend_close,
	.caps = be_caps,
	.fetch = sq_cli_backend_fetch,
	.describe = be_describe,
	.act = be_act,
	.metrics = sq_cli_metrics_replay,
};
