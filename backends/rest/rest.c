/*
 * rest.c - the slurmrestd backend: open (URL, credentials, GET
 * /openapi/v3), capabilities from the discovered endpoints, and fetches
 * mapped by backends/slurmjson. HTTP and JSON errors become one-line
 * messages that say what to do; an authentication failure says so
 * plainly instead of passing on slurmrestd's misleading texts.
 *
 * What REST cannot serve (sprio factors and weights on every version,
 * the running config) is refused with the reason, never an empty table;
 * the views it has no endpoint for are built by the fetch plan
 * (session/plan.c) from the kinds read here (rest_views.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/rest/rest.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/analysis/gpuuse.h"
#include "core/analysis/history.h"
#include "core/model/model_admin.h"
#include "core/base/util.h"

/* Cap on an answer kept whole (an error's body, a small answer); a
 * streamed list (/jobs, /nodes) is not capped: it is parsed as it
 * arrives and memory follows the rows kept. */
#define REST_BODY_LIMIT ((size_t)256 * 1024 * 1024)
/* Renew (re-read) the token this long before it expires. */
#define REST_TOKEN_MARGIN 60
/* update_time: refetch everything at least this often, and assume the
 * clocks of squall and slurmctld agree within REST_SKEW seconds when the
 * server does not send last_update (v0.0.38/39). */
#define REST_FULL_EVERY 120
#define REST_SKEW 10

struct rest_priv {
	struct sq_http *http;
	struct sq_rest_auth auth;
	struct sq_rest_api api;
	char default_part[128]; /* for the '*' of node partition lists */
	int default_known;
	struct sq_snapshot *jobs; /* last full jobs answer (update_time) */
	int64_t jobs_since;       /* update_time to send with the next GET */
	time_t jobs_full_at;
	/* incremental history (core/analysis/history.h) */
	struct sq_hist_incr hist;
};

/* A readable reason from an error answer's body: its errors[] text, or
 * the first line of a plain-text body. */
static void
body_reason(const struct sq_buf *out, char *buf, size_t n)
{
	struct sq_err e;
	const char *t = sq_buf_str(out);
	size_t l;

	buf[0] = '\0';
	if (out->len == 0)
		return;
	sq_err_clear(&e);
	if (t[0] == '{') {
		if (sq_slurmjson_check(out->data, out->len, NULL, &e) == -1 &&
		    e.code == SQ_ERR_COMMAND)
			snprintf(buf, n, "%s", e.msg);
		return;
	}
	l = strcspn(t, "\r\n");
	if (l > 200)
		l = 200;
	snprintf(buf, n, "%.*s", (int)l, t);
}

/*
 * Does an error answer mean the credentials were refused? 401 (no or bad
 * headers), 511 and error 1007 (23.11+, and slurmdbd calls on 22.05). On
 * 22.05 a rejected JWT makes every slurmctld call fail with HTTP 500 and
 * only "Unspecified error" (errno -1) or "slurmctld config is unable to
 * load" - and so does a slurmctld that is down (test_faults.sh saw it):
 * 2 for that case, which cannot tell the two apart, 1 for a sure one.
 */
static int
is_auth_failure(long status, const char *reason)
{
	if (status == 401 || status == 511 ||
	    strstr(reason, "Protocol authentication error") != NULL)
		return 1;
	return status == 500 &&
		       (strstr(reason, "config is unable to load") != NULL ||
			(strstr(reason, "Unspecified error") != NULL &&
			 strstr(reason, "error -1") != NULL))
		   ? 2
		   : 0;
}

static int
http_error(struct rest_priv *p, const char *method, const char *path,
	   long status, const struct sq_buf *out, struct sq_err *err)
{
	char reason[sizeof(err->msg)];
	int auth;

	body_reason(out, reason, sizeof(reason));
	auth = is_auth_failure(status, reason);
	if (auth == 2 && p->auth.token != NULL)
		return sq_err_set(
		    err, SQ_ERR_COMMAND,
		    "slurmrestd at %s: slurmctld is down or did not accept "
		    "the token for user '%s' (from %s); Slurm 22.05 does not "
		    "say which [HTTP %ld%s%s]",
		    sq_http_where(p->http), p->auth.user, p->auth.source,
		    status, reason[0] ? ": " : "", reason);
	if (auth) {
		if (p->auth.token != NULL)
			return sq_err_set(
			    err, SQ_ERR_DENIED,
			    "slurmrestd at %s did not accept the token for "
			    "user '%s' (from %s): it is wrong, expired, or "
			    "not that user's token [HTTP %ld%s%s]",
			    sq_http_where(p->http), p->auth.user,
			    p->auth.source, status, reason[0] ? ": " : "",
			    reason);
		return sq_err_set(err, SQ_ERR_DENIED,
				  "slurmrestd at %s refused the request "
				  "without a token [HTTP %ld%s%s]; a unix "
				  "socket with rest_auth/local serves only "
				  "the user slurmrestd runs as (and root)",
				  sq_http_where(p->http), status,
				  reason[0] ? ": " : "", reason);
	}
	return sq_err_set(err, status == 403 ? SQ_ERR_DENIED : SQ_ERR_COMMAND,
			  "%s %s: HTTP %ld%s%s", method, path, status,
			  reason[0] ? ": " : "", reason);
}

/* One request with fresh credentials; 0 for a 2xx or 304 answer. A 2xx
 * body goes to sink when there is one, any other to out. */
static int
call_sink(struct sq_backend *b, const char *method, const char *path,
	  const char *body, const struct sq_http_sink *sink, struct sq_buf *out,
	  long *status, struct sq_err *err)
{
	struct rest_priv *p = b->priv;
	struct sq_http_cred cred;
	unsigned ctld, dbd;

	if (sq_rest_auth_fresh(&p->auth, time(NULL), REST_TOKEN_MARGIN, err) ==
	    -1)
		return -1;
	sq_rest_cost(method, path, &ctld, &dbd);
	b->queries += ctld;
	b->dbd_queries += dbd;
	cred.user = p->auth.user;
	cred.token = p->auth.token;
	cred.token_len = p->auth.token_len;
	if (sq_http_request_sink(p->http, method, path, &cred, body, sink, out,
				 status, err) == -1)
		return -1;
	if ((*status >= 200 && *status < 300) || *status == 304)
		return 0;
	return http_error(p, method, path, *status, out, err);
}

static int
call(struct sq_backend *b, const char *method, const char *path,
     const char *body, struct sq_buf *out, long *status, struct sq_err *err)
{
	return call_sink(b, method, path, body, NULL, out, status, err);
}

int
sq_rest_call(struct sq_backend *b, const char *method, const char *path,
	     const char *body, struct sq_buf *out, long *status,
	     struct sq_err *err)
{
	return call(b, method, path, body, out, status, err);
}

const struct sq_rest_api *
sq_rest_backend_api(struct sq_backend *b)
{
	return &((struct rest_priv *)b->priv)->api;
}

const char *
sq_rest_backend_user(struct sq_backend *b)
{
	return ((struct rest_priv *)b->priv)->auth.user;
}

static void
rest_close(struct sq_backend *b)
{
	struct rest_priv *p = b->priv;

	if (p == NULL)
		return;
	sq_snapshot_unref(p->jobs);
	sq_history_incr_free(&p->hist);
	sq_rest_auth_free(&p->auth);
	sq_http_close(p->http);
	free(p);
	b->priv = NULL;
}

static int
rest_open(struct sq_backend *b, const struct sq_cluster_cfg *cfg,
	  struct sq_err *err)
{
	struct rest_priv *p;
	struct sq_buf out;
	long status = 0;
	int rc = -1;

	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	b->priv = p;
	p->hist.enabled = 1;
	p->http = sq_http_open(cfg->url, cfg->insecure_http, cfg->timeout, err);
	if (p->http == NULL)
		return -1;
	if (cfg->ca_file[0] != '\0' &&
	    sq_http_ca_file(p->http, cfg->ca_file, err) == -1)
		return -1;
	if (sq_rest_auth_load(&p->auth, cfg, !sq_http_is_unix(p->http), err) ==
	    -1)
		return -1;
	if (sq_rest_auth_fresh(&p->auth, time(NULL), 0, err) == -1)
		return -1;
	sq_buf_init(&out, 64 * 1024 * 1024);
	if (call(b, "GET", "/openapi/v3", NULL, &out, &status, err) == -1)
		goto done;
	if (sq_rest_discover(out.data, out.len, &p->api, err) == -1)
		goto done;
	snprintf(b->version, sizeof(b->version), "%s", p->api.release);
	rc = 0;
done:
	sq_buf_free(&out);
	return rc;
}

static unsigned
rest_caps(struct sq_backend *b)
{
	struct rest_priv *p = b->priv;
	unsigned e = p->api.eps, c = 0;

	if (e & SQ_REP_PARTITIONS)
		c |= SQ_CAP_PARTITIONS;
	if (e & SQ_REP_NODES)
		c |= SQ_CAP_NODES;
	if (e & SQ_REP_JOBS)
		c |= SQ_CAP_JOBS;
	if (e & SQ_REP_DIAG)
		c |= SQ_CAP_DIAG;
	if ((e & SQ_REP_DB_DIAG) && p->api.slurmdb != 0)
		c |= SQ_CAP_DBD; /* slurmdbd's statistics, sj_dbd.c */
	if (e & SQ_REP_RESERVATIONS)
		c |= SQ_CAP_RESERVATIONS;
	if (e & SQ_REP_LICENSES)
		c |= SQ_CAP_LICENSES;
	if (e & SQ_REP_SHARES)
		c |= SQ_CAP_SHARES;
	if ((e &
	     (SQ_REP_ACCOUNTS | SQ_REP_USERS | SQ_REP_ASSOCS | SQ_REP_QOS)) ==
	    (SQ_REP_ACCOUNTS | SQ_REP_USERS | SQ_REP_ASSOCS | SQ_REP_QOS))
		c |= SQ_CAP_ACCOUNTING;
	/* never SQ_CAP_SPRIO: no API version has the priority factors;
	 * the pending queue's priorities and ranks come from /jobs */
	if (e & SQ_REP_JOBS)
		c |= SQ_CAP_PRIO_QUEUE;
	/* events: slurmdbd's runs, the queue's restart counts */
	if ((e & SQ_REP_JOBS) && p->api.slurmdb != 0)
		c |= SQ_CAP_EVENTS;
	return c;
}

/* Copy of a jobs snapshot for an unchanged update_time answer: same
 * rows, strings copied, running jobs' elapsed time moved on. */
static struct sq_snapshot *
jobs_copy(const struct sq_snapshot *old, time_t now)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	int64_t delta = (int64_t)(now - old->fetched);
	size_t i;

	if (s == NULL)
		return NULL;
	for (i = 0; i < old->nrows; i++) {
		const struct sq_job *o = sq_snapshot_row(old, i);
		struct sq_job *j = sq_snapshot_add(s);

		if (j == NULL) {
			sq_snapshot_unref(s);
			return NULL;
		}
		*j = *o;
		j->id = sq_snapshot_str(s, o->id);
		j->array_task = sq_snapshot_str(s, o->array_task);
		j->name = sq_snapshot_str(s, o->name);
		j->user = sq_snapshot_str(s, o->user);
		j->account = sq_snapshot_str(s, o->account);
		j->partition = sq_snapshot_str(s, o->partition);
		j->qos = sq_snapshot_str(s, o->qos);
		j->state = sq_snapshot_str(s, o->state);
		j->state_compact = sq_snapshot_str(s, o->state_compact);
		j->reason = sq_snapshot_str(s, o->reason);
		j->gres = sq_snapshot_str(s, o->gres);
		j->more = sq_snapshot_job_more(
		    s, sq_snapshot_str(s, sq_job_tres_alloc(o)),
		    sq_snapshot_str(s, sq_job_prio_by_part(o)),
		    sq_job_restarts(o));
		j->nodelist = sq_snapshot_str(s, o->nodelist);
		j->prio = NULL;
		if (strcmp(j->state, "RUNNING") == 0 && j->time_used >= 0 &&
		    delta > 0)
			j->time_used = sq_i32((int64_t)j->time_used + delta);
	}
	return s;
}

/* The stream's side of an HTTP transfer: each piece parsed as it comes
 * (sj_stream.c); its first error stops the transfer. */
static int
sink_write(void *arg, const char *p, size_t n)
{
	struct sq_sj_stream *st = arg;
	struct sq_err ignored; /* kept by the stream for its end */

	return sq_slurmjson_stream_feed(st, p, n, &ignored);
}

int
sq_rest_get_parse(struct sq_backend *b, enum sq_kind kind, const char *path,
		  struct sq_snapshot **out, struct sq_sj_info *info,
		  long *status, struct sq_err *err)
{
	char src[300];
	struct sq_buf buf;
	struct sq_snapshot *s = NULL;
	struct sq_sj_stream *st = NULL;
	struct sq_http_sink sink;
	double t0 = sq_util_now_ms();
	int rc = -1;

	*out = NULL;
	memset(info, 0, sizeof(*info));
	info->last_update = SQ_NONE;
	/* out keeps error answers only; the cap applies to both */
	sq_buf_init(&buf, REST_BODY_LIMIT);
	s = sq_snapshot_new(kind, 0);
	if (s == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto done;
	}
	st = sq_slurmjson_stream_new(kind, time(NULL), s, info, err);
	if (st == NULL)
		goto done;
	sink.write = sink_write;
	sink.arg = st;
	if (call_sink(b, "GET", path, NULL, &sink, &buf, status, err) == -1)
		goto done;
	snprintf(src, sizeof(src), "GET %s", path);
	s->source = sq_snapshot_str(s, src);
	if (*status == 304) {
		info->unchanged = 1;
	} else if (sq_slurmjson_stream_end(st, err) == -1) {
		char m[sizeof(err->msg)];

		snprintf(m, sizeof(m), "%s", err->msg);
		sq_err_set(err, err->code, "GET %s: %s", path, m);
		goto done;
	}
	if (b->version[0] == '\0' && info->release[0] != '\0')
		snprintf(b->version, sizeof(b->version), "%s", info->release);
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	s = NULL;
	rc = 0;
done:
	sq_slurmjson_stream_free(st);
	sq_snapshot_unref(s);
	sq_buf_free(&buf);
	return rc;
}

static void
remember_default(struct rest_priv *p, const struct sq_snapshot *parts)
{
	size_t i;

	p->default_known = 1;
	p->default_part[0] = '\0';
	for (i = 0; i < parts->nrows; i++) {
		const struct sq_partition *pt = sq_snapshot_row(parts, i);

		if (pt->is_default > 0)
			snprintf(p->default_part, sizeof(p->default_part), "%s",
				 pt->name);
	}
}

/* Mark the default partition with '*' in each node's list, as sinfo. */
static void
mark_default(struct rest_priv *p, struct sq_snapshot *nodes)
{
	size_t i, dl = strlen(p->default_part);

	if (dl == 0)
		return;
	for (i = 0; i < nodes->nrows; i++) {
		struct sq_node *nd = sq_snapshot_row(nodes, i);
		const char *s = nd->partitions;
		size_t l = strlen(s), pos = 0;
		char *m;

		while (pos < l) {
			size_t e = strcspn(s + pos, ",");

			if (e == dl &&
			    strncmp(s + pos, p->default_part, dl) == 0)
				break;
			pos += e + 1;
		}
		if (pos >= l)
			continue;
		m = sq_arena_alloc(&nodes->arena, l + 2);
		if (m == NULL)
			return;
		memcpy(m, s, pos + dl);
		m[pos + dl] = '*';
		memcpy(m + pos + dl + 1, s + pos + dl, l - pos - dl + 1);
		nd->partitions = m;
	}
}

/* GET /slurm/vN/what (or /slurmdb/vN/what) into a snapshot of kind. */
static int
fetch_from(struct sq_backend *b, int db, enum sq_kind kind, const char *what,
	   struct sq_snapshot **out, struct sq_err *err)
{
	struct rest_priv *p = b->priv;
	struct sq_sj_info info;
	char path[128];
	long status;

	if (db && p->api.slurmdb == 0)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "slurmrestd offers no /slurmdb/ API this "
				  "mapping understands");
	snprintf(path, sizeof(path), "/%s/v0.0.%d/%s", db ? "slurmdb" : "slurm",
		 db ? p->api.slurmdb : p->api.slurm, what);
	if (sq_rest_get_parse(b, kind, path, out, &info, &status, err) == -1)
		return -1;
	if (info.unchanged) {
		sq_snapshot_unref(*out);
		*out = NULL;
		return sq_err_set(err, SQ_ERR_PARSE,
				  "GET %s: answer without data (%s)", path,
				  info.warning);
	}
	return 0;
}

/* slurmdbd's statistics; a GET that fails is a row saying why, not an
 * error: the diag view joins these rows under slurmctld's */
static int
fetch_dbd(struct sq_backend *b, struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_err e = { 0 };
	char why[300];

	if (fetch_from(b, 1, SQ_KIND_DBD, "diag", out, &e) == 0)
		return 0;
	*out = sq_snapshot_new(SQ_KIND_DBD, 0);
	if (*out == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	snprintf(why, sizeof(why), "not known: GET /slurmdb/diag: %.200s",
		 e.msg);
	sq_kv_add(*out, "dbd", "slurmdbd statistics", why, &e);
	return 0;
}

static int
fetch_jobs(struct sq_backend *b, struct sq_snapshot **out, struct sq_err *err)
{
	struct rest_priv *p = b->priv;
	struct sq_sj_info info;
	char path[160], src[200];
	time_t now = time(NULL);
	double t0 = sq_util_now_ms();
	long status;
	int delta = p->jobs != NULL && p->jobs_since > 0 &&
		    now - p->jobs_full_at < REST_FULL_EVERY;

	sq_rest_jobs_path(path, sizeof(path), &p->api,
			  delta ? p->jobs_since : 0);
	if (sq_rest_get_parse(b, SQ_KIND_JOBS, path, out, &info, &status,
			      err) == -1)
		return -1;
	if (info.unchanged) {
		struct sq_snapshot *s;

		sq_snapshot_unref(*out);
		*out = NULL;
		if (!delta)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "GET %s: answer without jobs (%s)",
					  path, info.warning);
		s = jobs_copy(p->jobs, time(NULL));
		if (s == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		snprintf(src, sizeof(src), "GET %s (not modified)", path);
		s->source = sq_snapshot_str(s, src);
		s->fetch_ms = sq_util_now_ms() - t0;
		*out = s;
		return 0;
	}
	sq_snapshot_unref(p->jobs);
	p->jobs = sq_snapshot_ref(*out);
	p->jobs_full_at = now;
	p->jobs_since =
	    info.last_update > 0 ? info.last_update : (int64_t)now - REST_SKEW;
	return 0;
}

/* Job runs of the window from slurmdbd (never slurmctld). On a
 * console's refresh only the runs active since the last fetch, merged
 * into it (core/analysis/history.h). */
static int
fetch_history(struct sq_backend *b, struct sq_snapshot **out,
	      struct sq_err *err)
{
	struct rest_priv *p = b->priv;
	struct sq_hist_window w;
	char start[80];
	int64_t now = (int64_t)time(NULL);
	int part;

	/* the session's window, set with the fetch (--since, :since) */
	if (sq_history_window_parse(b->cfg.history_since, &w, err) == -1)
		return -1;
	part = sq_history_incr_start(&p->hist, &w, now, start, sizeof(start));
	if (sq_rest_fetch_runs(b, start, out, err) == -1)
		return -1;
	if (sq_history_incr_done(&p->hist, &w, now, part, out) == -1) {
		sq_snapshot_unref(*out);
		*out = NULL;
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	/* v0.0.39 came with 23.02, the first to measure GPU use */
	if (p->api.slurmdb < 39)
		sq_history_gpu_none(*out, SQ_HIST_GPU_OLD);
	return 0;
}

/* The partitions; which one sinfo marks '*' kept for the nodes' lists */
static int
fetch_partitions(struct sq_backend *b, struct sq_snapshot **out,
		 struct sq_err *err)
{
	if (fetch_from(b, 0, SQ_KIND_PARTITIONS, "partitions", out, err) == -1)
		return -1;
	remember_default(b->priv, *out);
	return 0;
}

static int
fetch_shares(struct sq_backend *b, struct sq_snapshot **out, struct sq_err *err)
{
	struct rest_priv *p = b->priv;

	if (!(p->api.eps & SQ_REP_SHARES))
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "slurmrestd v0.0.%d has no /shares (it came "
				  "with Slurm 23.11, v0.0.40); use the local "
				  "or ssh backend for the fairshare view",
				  p->api.slurm);
	return fetch_from(b, 0, SQ_KIND_SHARES, "shares", out, err);
}

/* no rows, and the reason every GPU cell shows */
static int
fetch_gpuuse(struct sq_backend *b, struct sq_snapshot **out, struct sq_err *err)
{
	(void)b;
	*out = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	if (*out == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	(*out)->source = "slurmrestd (no live step usage)";
	(*out)->note = SQ_GPUUSE_REST_NOTE;
	return 0;
}

/* once per connection: which partition sinfo marks '*' */
static int
nodes_want_parts(const struct rest_priv *p)
{
	return !p->default_known && (p->api.eps & SQ_REP_PARTITIONS);
}

/* the default partition marked '*' in each node's list, as sinfo */
static void
nodes_with(struct sq_backend *b, struct sq_snapshot *s,
	   const struct sq_snapshot *parts, const struct sq_err *e)
{
	(void)e; /* asked again on the next read */
	if (parts != NULL)
		remember_default(b->priv, parts);
	if (s != NULL)
		mark_default(b->priv, s);
}

static int
diag_want_ping(const struct rest_priv *p)
{
	return (p->api.eps & SQ_REP_PING) != 0;
}

/* the controllers from GET /ping (rows of section "controller",
 * sj_ping.c); a ping that fails or is not served leaves a row saying
 * why: the statistics stand alone */
static void
diag_with(struct sq_backend *b, struct sq_snapshot *s,
	  const struct sq_snapshot *pings, const struct sq_err *e)
{
	char why[300] = "not known: this slurmrestd serves no /ping";
	struct sq_err ignored;
	size_t i;

	(void)b;
	if (e != NULL)
		snprintf(why, sizeof(why), "not known: %.200s", e->msg);
	for (i = 0; i < (pings != NULL ? pings->nrows : 1); i++) {
		const struct sq_kv *src =
		    pings != NULL ? sq_snapshot_row(pings, i) : NULL;

		if (sq_kv_add(s, "controller",
			      src != NULL ? src->key : "controllers",
			      src != NULL ? src->value : why, &ignored) == -1)
			break;
	}
}

/*
 * How slurmrestd serves a kind: GET path under /slurm/vN/ (or
 * /slurmdb/vN/: db) parsed as the kind, or the kind's own read(). A
 * kind that one Slurm question answers by two GETs, the second made for
 * no other kind (HACKING.md, "One question, several commands"), names
 * the second too: also, parsed as also_kind, asked where also_wanted(),
 * before the first where also_first (else after a first that answered);
 * with() then combines its rows into the kind's (NULL where not asked
 * or failed; e: why it failed, else NULL), or, the first having failed
 * after it, keeps what it told (s NULL).
 */
struct rest_read {
	int db;
	const char *path;
	int (*read)(struct sq_backend *b, struct sq_snapshot **out,
		    struct sq_err *err);
	const char *also;
	enum sq_kind also_kind;
	int also_first;
	int (*also_wanted)(const struct rest_priv *p);
	void (*with)(struct sq_backend *b, struct sq_snapshot *s,
		     const struct sq_snapshot *also, const struct sq_err *e);
};

static const struct rest_read reads[SQ_KIND_COUNT] = {
	[SQ_KIND_PARTITIONS] = { .read = fetch_partitions },
	[SQ_KIND_NODES] = { .path = "nodes",
			    .also = "partitions",
			    .also_kind = SQ_KIND_PARTITIONS,
			    .also_first = 1,
			    .also_wanted = nodes_want_parts,
			    .with = nodes_with },
	[SQ_KIND_JOBS] = { .read = fetch_jobs },
	[SQ_KIND_DIAG] = { .path = "diag",
			   .also = "ping",
			   .also_kind = SQ_KIND_DIAG,
			   .also_wanted = diag_want_ping,
			   .with = diag_with },
	[SQ_KIND_RESERVATIONS] = { .path = "reservations" },
	[SQ_KIND_LICENSES] = { .path = "licenses" },
	[SQ_KIND_DBD] = { .read = fetch_dbd }, /* GET /slurmdb/vN/diag */
	[SQ_KIND_SHARES] = { .read = fetch_shares },
	[SQ_KIND_ASSOCS] = { .db = 1, .path = "associations" },
	[SQ_KIND_QOS] = { .db = 1, .path = "qos" },
	/* without the associations' columns: the plan completes them
	 * (rest_views.c) */
	[SQ_KIND_ACCOUNTS] = { .db = 1, .path = "accounts" },
	[SQ_KIND_USERS] = { .db = 1, .path = "users" },
	[SQ_KIND_HISTORY] = { .read = fetch_history },
	[SQ_KIND_PREEMPT_RUNS] = { .read = sq_rest_fetch_preempt_runs },
	[SQ_KIND_GPUUSE] = { .read = fetch_gpuuse },
};

/* A kind of reads[] by its entry. */
static int
fetch_read(struct sq_backend *b, enum sq_kind kind, const struct rest_read *r,
	   struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_snapshot *also = NULL;
	struct sq_err e;
	int want = r->also != NULL && r->also_wanted(b->priv);

	if (r->read != NULL)
		return r->read(b, out, err);
	sq_err_clear(&e);
	if (want && r->also_first)
		fetch_from(b, r->db, r->also_kind, r->also, &also, &e);
	if (fetch_from(b, r->db, kind, r->path, out, err) == -1) {
		if (also != NULL) /* what it told is kept all the same */
			r->with(b, NULL, also, NULL);
		sq_snapshot_unref(also);
		return -1;
	}
	if (want && !r->also_first)
		fetch_from(b, r->db, r->also_kind, r->also, &also, &e);
	if (r->with != NULL)
		r->with(b, *out, also, want && also == NULL ? &e : NULL);
	sq_snapshot_unref(also);
	return 0;
}

static int
rest_fetch(struct sq_backend *b, enum sq_kind kind, struct sq_snapshot **out,
	   struct sq_err *err)
{
	struct rest_priv *p = b->priv;
	const struct sq_backend_built *how;

	*out = NULL;
	if ((unsigned)kind < SQ_KIND_COUNT && sq_rest_unserved[kind] != NULL)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED, "%s",
				  sq_rest_unserved[kind]);
	how = sq_backend_built(b, kind);
	if (how != NULL && !how->reads)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "slurmrestd has no %s endpoint: the fetch "
				  "plan builds it (session/plan.h)",
				  sq_kind_name(kind));
	if ((unsigned)kind < SQ_KIND_COUNT &&
	    (reads[kind].path != NULL || reads[kind].read != NULL))
		return fetch_read(b, kind, &reads[kind], out, err);
	return sq_err_set(err, SQ_ERR_UNSUPPORTED,
			  "the %s view is not available through "
			  "slurmrestd v0.0.%d",
			  sq_kind_name(kind), p->api.slurm);
}

const struct sq_backend_ops sq_backend_rest = {
	.name = "rest",
	.built = sq_rest_built,
	.open = rest_open,
	.close = rest_close,
	.caps = rest_caps,
	.fetch = rest_fetch,
	.describe = sq_rest_describe,
	.read_targets = sq_rest_read_targets,
	.read_free = sq_rest_targets_read_free,
	.read_cut = sq_rest_targets_read_cut,
	.act = sq_rest_act,
};
