/*
 * rpc_fetch.c - the rpc kind from sdiag with each connection's history
 * (rpc_fetch.h).
 */
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "core/analysis/ctld_track.h"
#include "core/analysis/diag_trend.h"
#include "core/analysis/rpc.h"
#include "session/rpc_fetch.h"

struct conn {
	const struct sq_backend *b;
	char name[96]; /* the cluster's name and backend */
	unsigned long used;
	struct sq_rpc_hist *h;
	struct sq_diag_hist *dh;
	struct sq_ctld_track ct; /* which controller, since when */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct conn conns[SQ_RPC_FETCH_CONNS];
static unsigned long ticks;

const char *
sq_rpc_self(const struct sq_backend *b, char *buf, size_t n)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];

	if (b->cfg.user[0] != '\0') {
		snprintf(buf, n, "%s", b->cfg.user);
		return buf;
	}
	buf[0] = '\0';
	if (getpwuid_r(geteuid(), &pw, tmp, sizeof(tmp), &res) == 0 &&
	    res != NULL)
		snprintf(buf, n, "%s", pw.pw_name);
	return buf;
}

/* b's history (made or reused); under mu */
static struct conn *
conn_of(const struct sq_backend *b)
{
	char name[96];
	struct conn *c, *old = &conns[0];
	size_t i;

	snprintf(name, sizeof(name), "%s/%s", b->cfg.name, b->ops->name);
	for (i = 0; i < SQ_RPC_FETCH_CONNS; i++) {
		c = &conns[i];
		if (c->h != NULL && c->b == b && strcmp(c->name, name) == 0) {
			c->used = ++ticks;
			return c;
		}
		if (c->used < old->used)
			old = c;
	}
	sq_rpc_hist_free(old->h);
	sq_diag_hist_free(old->dh);
	old->h = sq_rpc_hist_new();
	old->dh = sq_diag_hist_new();
	if (old->h == NULL || old->dh == NULL) {
		sq_rpc_hist_free(old->h);
		sq_diag_hist_free(old->dh);
		old->h = NULL;
		old->dh = NULL;
		return NULL;
	}
	old->b = b;
	memset(&old->ct, 0, sizeof(old->ct));
	snprintf(old->name, sizeof(old->name), "%s", name);
	old->used = ++ticks;
	return old;
}

/* One DIAG read (*diag), then the lock held and b's histories in *c
 * (NULL and err set: out of memory); -1, no lock, when the read failed. */
static int
diag_locked(struct sq_backend *b, struct sq_snapshot **diag, struct conn **c,
	    struct sq_err *err)
{
	*diag = NULL;
	if (sq_backend_fetch_kind(b, SQ_KIND_DIAG, diag, err) == -1)
		return -1;
	pthread_mutex_lock(&mu);
	*c = conn_of(b);
	if (*c == NULL)
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return 0;
}

/* one sdiag read into the history; *out the rows */
static int
read_once(struct sq_backend *b, const char *self, struct sq_snapshot **out,
	  int *reads, struct sq_err *err)
{
	struct sq_snapshot *diag;
	struct conn *c;
	int rc;

	*out = NULL;
	if (diag_locked(b, &diag, &c, err) == -1)
		return -1;
	rc = c != NULL ? sq_rpc_build(diag, c->h, self, out, err) : -1;
	*reads = c != NULL ? sq_rpc_hist_len(c->h) : 0;
	pthread_mutex_unlock(&mu);
	sq_snapshot_unref(diag);
	return rc;
}

int
sq_rpc_fetch(struct sq_backend *b, int twice, struct sq_snapshot **out,
	     struct sq_err *err)
{
	char self[64];
	int reads = 0;

	sq_rpc_self(b, self, sizeof(self));
	if (read_once(b, self, out, &reads, err) == -1)
		return -1;
	/* a recording has no time between two reads */
	if (!twice || reads > 1 || strcmp(b->ops->name, "replay") == 0)
		return 0;
	sq_snapshot_unref(*out);
	sleep(SQ_RPC_BATCH_GAP);
	return read_once(b, self, out, &reads, err);
}

int
sq_rpc_fetch_diag(struct sq_backend *b, struct sq_snapshot **out,
		  struct sq_err *err)
{
	struct sq_snapshot *diag;
	struct conn *c;
	int rc;

	*out = NULL;
	if (diag_locked(b, &diag, &c, err) == -1)
		return -1;
	if (c == NULL ||
	    sq_ctld_track(diag, &c->ct, (int64_t)time(NULL), err) == -1)
		rc = -1;
	else
		rc = sq_diag_trend(diag, c->dh, out, err);
	pthread_mutex_unlock(&mu);
	sq_snapshot_unref(diag);
	return rc;
}
