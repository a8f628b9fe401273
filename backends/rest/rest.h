/*
 * rest.h - the slurmrestd backend's parts: the credentials (JWT from SLURM_JWT
 * or a 0600 token file), and version and endpoint discovery from GET
 * /openapi/v3 (the HTTP transport is backends/http/http.h). Private to
 * backends/rest/.
 *
 * Secrets: the token lives in one malloc'd buffer (mlock'ed when the
 * system allows) that is wiped on free. It goes only into the
 * X-SLURM-USER-TOKEN request header; no function here puts it in an error
 * message, and nothing here prints.
 */
#ifndef SQ_REST_H
#define SQ_REST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/http/http.h"
#include "core/base/buf.h"
#include "core/conf/cluster.h"
#include "core/base/err.h"
#include "core/model/snapshot.h"

/* ---------------------------------------------------------------- cost */

/* What a request costs the cluster: slurmctld RPCs and slurmdbd queries
 * (cost.c; measured on 22.05 with sdiag). */
void sq_rest_cost(const char *method, const char *path, unsigned *ctld,
		  unsigned *dbd);

/* ---------------------------------------------------------------- auth */

#define SQ_REST_TOKEN_MAX 16384

struct sq_rest_auth {
	char user[64]; /* X-SLURM-USER-NAME, "" to send none */
	char *token;   /* NULL when no token is used (unix socket) */
	size_t token_len;
	int64_t exp;      /* the JWT's exp claim, or -1 when unknown */
	char source[600]; /* "SLURM_JWT" or "token file PATH" (for messages) */
	char file[512];   /* token file to re-read on refresh, or "" */
	void *mint;       /* ssh transport minting tokens (mint.c), or NULL */
};

/* Lifespan of a token minted over the ssh companion, in seconds. */
#define SQ_REST_MINT_LIFESPAN 3600

/*
 * mint.c: open the ssh companion named by cfg (host, port, user, identity,
 * known_hosts ...) and mint a first token; mint again (before exp); close.
 */
int sq_rest_mint_open(struct sq_rest_auth *a, const struct sq_cluster_cfg *cfg,
		      struct sq_err *err);
int sq_rest_mint(struct sq_rest_auth *a, struct sq_err *err);
void sq_rest_mint_close(struct sq_rest_auth *a);
/* A token from text (blanks and a SLURM_JWT= prefix removed), checked and
 * copied into a wiped-on-free buffer. */
int sq_rest_token_text(const char *buf, size_t len, const char *what,
		       char **tok, size_t *tlen, struct sq_err *err);

/*
 * Read a token file: it must be a regular file owned by uid with no group
 * or other permission bits (0600 or 0400); anything else is refused with
 * a message that says how to fix it. Surrounding blanks and a leading
 * "SLURM_JWT=" are removed; the token must be made of JWT characters.
 * On success *tok is a wiped-on-free buffer (sq_rest_secret_free).
 */
int sq_rest_token_file(const char *path, uid_t uid, char **tok, size_t *len,
		       struct sq_err *err);

/*
 * Fill a from the config: the token from cfg->token_file, else from
 * SLURM_JWT (need_token: an http(s) URL; a unix socket only uses a token
 * given as a file). The user name is cfg->user, else the JWT's `sun`
 * (or `username`) claim, else the local user.
 */
int sq_rest_auth_load(struct sq_rest_auth *a, const struct sq_cluster_cfg *cfg,
		      int need_token, struct sq_err *err);

/*
 * Before a request: when the token expires within margin seconds, re-read
 * its file (a cron job or the ssh companion may have renewed it). -1 with
 * a clear message when it is (about to be) expired and cannot be renewed.
 */
int sq_rest_auth_fresh(struct sq_rest_auth *a, time_t now, int margin,
		       struct sq_err *err);

/* Wipe and free everything a holds. */
void sq_rest_auth_free(struct sq_rest_auth *a);

/* Decode a JWT's payload claims exp and sun/username (no signature check:
 * the server does that). -1 when the token is not a readable JWT. */
int sq_rest_jwt_claims(const char *tok, size_t len, int64_t *exp, char *user,
		       size_t n);

/* Free a secret buffer after overwriting it. */
void sq_rest_secret_free(char *p, size_t len);

/* ----------------------------------------------------------- discovery */

/* Endpoint capability flags at the chosen versions. */
#define SQ_REP_JOBS (1u << 0)         /* GET  /slurm/V/jobs */
#define SQ_REP_JOB_GET (1u << 1)      /* GET  /slurm/V/job/{id} */
#define SQ_REP_JOB_UPDATE (1u << 2)   /* POST /slurm/V/job/{id} */
#define SQ_REP_JOB_DELETE (1u << 3)   /* DELETE /slurm/V/job/{id} */
#define SQ_REP_NODES (1u << 4)        /* GET  /slurm/V/nodes */
#define SQ_REP_NODE_UPDATE (1u << 5)  /* POST /slurm/V/node/{name} */
#define SQ_REP_PARTITIONS (1u << 6)   /* GET  /slurm/V/partitions */
#define SQ_REP_RESERVATIONS (1u << 7) /* GET  /slurm/V/reservations */
#define SQ_REP_DIAG (1u << 8)         /* GET  /slurm/V/diag */
#define SQ_REP_SHARES (1u << 9)       /* GET  /slurm/V/shares */
#define SQ_REP_PING (1u << 10)        /* GET  /slurm/V/ping */
#define SQ_REP_JOBS_DELETE (1u << 11) /* DELETE /slurm/V/jobs */
#define SQ_REP_LICENSES (1u << 12)    /* GET  /slurm/V/licenses */
#define SQ_REP_JOBS_ALL (1u << 13)    /* GET  /slurm/V/jobs?flags=ALL */
#define SQ_REP_ACCOUNTS (1u << 16)    /* GET  /slurmdb/V/accounts */
#define SQ_REP_USERS (1u << 17)       /* GET  /slurmdb/V/users */
#define SQ_REP_ASSOCS (1u << 18)      /* GET  /slurmdb/V/associations */
#define SQ_REP_QOS (1u << 19)         /* GET  /slurmdb/V/qos */
#define SQ_REP_DB_DIAG (1u << 20)     /* GET  /slurmdb/V/diag */
#define SQ_REP_ACCT_UPDATE (1u << 21) /* POST /slurmdb/V/associations */

/* The oldest and newest API versions the mapping understands. */
#define SQ_REST_API_MIN 38
#define SQ_REST_API_MAX 45

struct sq_rest_api {
	int slurm;        /* chosen /slurm/v0.0.N/ (0: none) */
	int slurmdb;      /* chosen /slurmdb/v0.0.N/ (0: none) */
	unsigned eps;     /* SQ_REP_* at those versions */
	int newest_seen;  /* newest version listed, even if unsupported */
	char release[32]; /* Slurm release from info.version, or "" */
};

/*
 * Read a GET /openapi/v3 body: pick the highest supported version under
 * /slurm/ and /slurmdb/ and set the endpoint flags of those versions.
 * -1 when the body is not an OpenAPI document or lists no version we
 * support (the message names the versions it found).
 */
int sq_rest_discover(const char *body, size_t len, struct sq_rest_api *api,
		     struct sq_err *err);

/*
 * The jobs list's path at api: GET /slurm/v0.0.N/jobs, with
 * update_time=since when since > 0, and flags=ALL where the API takes it
 * (SQ_REP_JOBS_ALL): slurmrestd's default is SHOW_ALL|SHOW_DETAIL, whose
 * detail (a running job's job_resources and gres_detail, a few KB a job
 * on one node, more on many) the jobs view never reads. -1 when it does
 * not fit in n.
 */
int sq_rest_jobs_path(char *buf, size_t n, const struct sq_rest_api *api,
		      int64_t since);

/* ------------------------------------------------------------- actions */

struct sq_backend;

/* One request through an open rest backend b (fresh credentials, query
 * count, errors as call() words them); 0 for a 2xx answer. For
 * backends/rest/actions.c. */
int sq_rest_call(struct sq_backend *b, const char *method, const char *path,
		 const char *body, struct sq_buf *out, long *status,
		 struct sq_err *err);
/* The API versions and endpoints open() chose. */
const struct sq_rest_api *sq_rest_backend_api(struct sq_backend *b);
/* The Slurm user the requests run as ("" when unknown). */
const char *sq_rest_backend_user(struct sq_backend *b);

/* The action ops of the backend's table (rest.c), defined in actions.c
 * (describe, act; submit in submit.c) and actions_read.c (read_targets).
 * describe() writes the exact HTTP calls, or why REST cannot do it; act()
 * sends them, re-reads every target and fills res per target. Both take
 * the targets as read_targets() read them when handed that read, else
 * read what they need themselves. */
struct sq_action;
struct sq_result;
struct sq_target_state;
struct sq_targets_read;
int sq_rest_describe(struct sq_backend *b, const struct sq_action *a,
		     const struct sq_targets_read *read, char *buf, size_t len);
/* *read (read not NULL): the cluster name and every target's state,
 * for describe() and act() (backend.h); read_free() and read_cut() are
 * the two below. */
int sq_rest_read_targets(struct sq_backend *b, const struct sq_action *a,
			 struct sq_target_state *out,
			 struct sq_targets_read **read, struct sq_err *err);
void sq_rest_targets_read_free(struct sq_targets_read *read);
void sq_rest_targets_read_cut(struct sq_targets_read *read,
			      const unsigned char *keep);
int sq_rest_act(struct sq_backend *b, const struct sq_action *a,
		const struct sq_targets_read *read, struct sq_result *res,
		struct sq_err *err);

/* ----------------------------------------------------- joined views */

/* GET a path and map the answer into a new snapshot of kind: the body is
 * parsed while it arrives, one job (node) at a time, never kept whole
 * (rest.c). info: the envelope's; status: the HTTP status. */
struct sq_sj_info;
int sq_rest_get_parse(struct sq_backend *b, enum sq_kind kind, const char *path,
		      struct sq_snapshot **out, struct sq_sj_info *info,
		      long *status, struct sq_err *err);

/* slurmdbd's job runs since start (now-Nseconds or a date) into a new
 * HISTORY snapshot (rest_history.c). */
int sq_rest_fetch_runs(struct sq_backend *b, const char *start,
		       struct sq_snapshot **out, struct sq_err *err);
/* The same with the query given (start_time=...&end_time=...&...: its
 * values already checked and URL-encoded by the caller); show_duplicates
 * is added where the API knows it. */
int sq_rest_fetch_runs_query(struct sq_backend *b, const char *query,
			     struct sq_snapshot **out, struct sq_err *err);
/* What the fetch plan builds for REST (GPUS, PRIO, LIMITS, EVENTS: no
 * endpoint serves them) and REST's words for them, and what it completes
 * (ACCOUNTS, USERS: from the associations); the rest backend's .built
 * (rest_views.c). */
extern const struct sq_backend_built sq_rest_built[SQ_KIND_COUNT];
/* Why slurmrestd serves a kind on no API version (the rest backend's
 * refusal, one line), or NULL (rest_views.c). */
extern const char *const sq_rest_unserved[SQ_KIND_COUNT];
/* PREEMPT_RUNS: slurmdbd's runs of the last day that ended PREEMPTED or
 * REQUEUED, the preempted jobs' other runs, and the runs active around
 * each preemption on its nodes, into a new snapshot of HISTORY records
 * whose fetched time is the window's end (the plan builds EVENTS from
 * it: sq_events_build). Its dep holds the first answer's runs (those
 * that ended PREEMPTED or REQUEUED: the events), NULL when the rows are
 * one answer; its note says when the newest preemptions only are
 * covered. rest_views.c. */
int sq_rest_fetch_preempt_runs(struct sq_backend *b, struct sq_snapshot **out,
			       struct sq_err *err);

#endif
