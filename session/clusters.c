/*
 * clusters.c - every configured cluster at once: one detached thread per
 * cluster opens its own backend and reads nodes and jobs through the
 * fetch plan (sq_plan_fetch_served: the capability check, then the
 * kind's plan row, as every other read), never the backend directly;
 * the caller takes the rows when all answered or when the time budget
 * is over (a cluster still working is reported as timed out and its
 * thread ends on its own). No questions are asked: an unknown ssh host
 * key is an error.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/analysis/clusters.h"
#include "core/base/util.h"
#include "session/glance.h"
#include "session/plan.h"

static struct sq_cluster_cfg list[SQ_CONF_MAX_CLUSTERS];
static size_t nlist;

struct one {
	struct sq_cluster_cfg cfg;
	int done;
	char version[32];
	char error[300];
	struct sq_cluster_row row; /* counts only */
};

struct arg {
	struct sq_clusters_run *r;
	size_t i;
};

struct sq_clusters_run {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned refs;
	size_t n, pending;
	int budget;
	struct timespec deadline; /* CLOCK_MONOTONIC */
	struct one v[SQ_CONF_MAX_CLUSTERS];
	struct arg args[SQ_CONF_MAX_CLUSTERS];
};

void
sq_clusters_configure(const struct sq_conf *c, const struct sq_cluster_cfg *cur)
{
	size_t i;

	nlist = 0;
	for (i = 0; i < c->nclusters && nlist < SQ_CONF_MAX_CLUSTERS; i++) {
		struct sq_cluster_cfg cmd;
		struct sq_err err;

		sq_cluster_defaults(&cmd);
		snprintf(cmd.name, sizeof(cmd.name), "%s", c->clusters[i].name);
		if (sq_conf_resolve_cluster(c, &cmd, &list[nlist], &err) == 0)
			nlist++;
	}
	if (nlist == 0 && cur != NULL)
		list[nlist++] = *cur;
}

size_t
sq_clusters_count(void)
{
	return nlist;
}

int
sq_clusters_get(size_t i, struct sq_cluster_cfg *out)
{
	if (i >= nlist)
		return -1;
	*out = list[i];
	return 0;
}

static void
unref(struct sq_clusters_run *r)
{
	int last;

	pthread_mutex_lock(&r->mu);
	last = --r->refs == 0;
	pthread_mutex_unlock(&r->mu);
	if (last) {
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		free(r);
	}
}

/* One cluster's counts from b: its nodes, then its jobs, each by the
 * plan with the capability check (a kind b does not serve is not asked
 * for and says so as everywhere else); error: the first failure's. */
void
sq_clusters_read(struct sq_backend *b, struct sq_cluster_row *row, char *error,
		 size_t len)
{
	struct sq_snapshot *nodes = NULL, *jobs = NULL;
	struct sq_err err;

	sq_err_clear(&err);
	if (sq_plan_fetch_served(b, SQ_KIND_NODES, &nodes, &err) == 0)
		sq_plan_fetch_served(b, SQ_KIND_JOBS, &jobs, &err);
	sq_cluster_row_count(row, nodes, jobs);
	row->fetched = nodes != NULL ? (int64_t)nodes->fetched : SQ_NONE;
	if (len > 0)
		error[0] = '\0';
	if (nodes == NULL || jobs == NULL)
		snprintf(error, len, "%.290s", err.msg);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(jobs);
}

static void *
one_main(void *p)
{
	struct arg *a = p;
	struct sq_clusters_run *r = a->r;
	struct one res;
	struct sq_backend *b;
	struct sq_err err;
	double t0 = sq_util_now_ms();

	pthread_mutex_lock(&r->mu);
	res = r->v[a->i];
	pthread_mutex_unlock(&r->mu);
	sq_err_clear(&err);
	b = sq_backend_open(&res.cfg, &err);
	if (b != NULL) {
		sq_clusters_read(b, &res.row, res.error, sizeof(res.error));
		/* rest learns it from the first answer */
		snprintf(res.version, sizeof(res.version), "%s", b->version);
		sq_backend_close(b);
	} else {
		sq_cluster_row_count(&res.row, NULL, NULL);
		res.row.fetched = SQ_NONE;
		snprintf(res.error, sizeof(res.error), "%.290s", err.msg);
	}
	res.row.ms = (int64_t)(sq_util_now_ms() - t0);
	pthread_mutex_lock(&r->mu);
	res.done = 1;
	r->v[a->i] = res;
	r->pending--;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	unref(r);
	return NULL;
}

struct sq_clusters_run *
sq_clusters_start(int budget)
{
	struct sq_clusters_run *r = calloc(1, sizeof(*r));
	pthread_condattr_t ca;
	sigset_t all, old;
	size_t i;

	if (r == NULL)
		return NULL;
	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cv, &ca);
	pthread_condattr_destroy(&ca);
	r->budget = budget;
	clock_gettime(CLOCK_MONOTONIC, &r->deadline);
	r->deadline.tv_sec += budget;
	r->refs = 1;
	r->n = nlist;
	/* signals belong to the caller's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_mutex_lock(&r->mu);
	for (i = 0; i < r->n; i++) {
		struct one *o = &r->v[i];
		pthread_t th;

		o->cfg = list[i];
		/* no command may outlive the budget by much */
		if (o->cfg.timeout <= 0 || o->cfg.timeout > budget)
			o->cfg.timeout = budget;
		r->args[i].r = r;
		r->args[i].i = i;
		r->refs++;
		r->pending++;
		if (pthread_create(&th, NULL, one_main, &r->args[i]) != 0) {
			r->refs--;
			r->pending--;
			o->done = 1;
			snprintf(o->error, sizeof(o->error),
				 "cannot start a thread");
			sq_cluster_row_count(&o->row, NULL, NULL);
			o->row.fetched = SQ_NONE;
			continue;
		}
		pthread_detach(th);
	}
	pthread_mutex_unlock(&r->mu);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r;
}

static int
expired(const struct sq_clusters_run *r)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > r->deadline.tv_sec ||
	       (now.tv_sec == r->deadline.tv_sec &&
		now.tv_nsec >= r->deadline.tv_nsec);
}

/* The rows (under r->mu). */
static struct sq_snapshot *
build(struct sq_clusters_run *r)
{
	struct sq_snapshot *s =
	    sq_snapshot_new(SQ_KIND_CLUSTERS, sizeof(struct sq_cluster_row));
	size_t i;

	if (s == NULL)
		return NULL;
	s->fetched = time(NULL);
	s->source = "every cluster of the config";
	for (i = 0; i < r->n; i++) {
		const struct one *o = &r->v[i];
		struct sq_cluster_row *row = sq_snapshot_add(s);
		char msg[64];

		if (row == NULL)
			break;
		if (o->done) {
			*row = o->row;
		} else {
			sq_cluster_row_count(row, NULL, NULL);
			row->fetched = row->ms = SQ_NONE;
		}
		row->cluster = sq_snapshot_str(s, o->cfg.name);
		row->backend = sq_snapshot_str(s, o->cfg.backend);
		row->version = sq_snapshot_str(s, o->done ? o->version : "");
		if (o->done) {
			row->error = sq_snapshot_str(s, o->error);
		} else {
			snprintf(msg, sizeof(msg), "no answer within %d s",
				 r->budget);
			row->error = sq_snapshot_str(s, msg);
		}
	}
	return s;
}

struct sq_snapshot *
sq_clusters_result(struct sq_clusters_run *r, int wait)
{
	struct sq_snapshot *s = NULL;

	pthread_mutex_lock(&r->mu);
	while (wait && r->pending > 0 && !expired(r))
		pthread_cond_timedwait(&r->cv, &r->mu, &r->deadline);
	if (r->pending == 0 || expired(r))
		s = build(r);
	pthread_mutex_unlock(&r->mu);
	return s;
}

void
sq_clusters_release(struct sq_clusters_run *r)
{
	if (r != NULL)
		unref(r);
}

int
sq_clusters_fetch(struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_clusters_run *r = sq_clusters_start(SQ_CLUSTERS_BUDGET);

	*out = NULL;
	if (r == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	*out = sq_clusters_result(r, 1);
	sq_clusters_release(r);
	if (*out == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return 0;
}
