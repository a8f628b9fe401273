/*
 * worker.h - one thread per connected cluster that owns the backend and
 * runs every call on it (open, fetch; later act), so the UI thread never
 * blocks on a command or the network. It fetches the kinds the UI wants,
 * each at its interval, through the fetch plan (session/plan.h: what a
 * kind joins), and publishes immutable snapshots through a
 * mutex-protected slot and a pipe that wakes poll().
 *
 * Thread rules: sq_worker_* functions are called from the UI thread only;
 * snapshots returned by sq_worker_get() are new references the caller
 * drops with sq_snapshot_unref().
 */
#ifndef SQ_WORKER_H
#define SQ_WORKER_H

#include <time.h>

#include "core/conf/cluster.h"
#include "core/base/err.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"

struct sq_worker;

enum sq_worker_state {
	SQ_WORKER_CONNECTING, /* open() running or waiting to retry */
	SQ_WORKER_READY,
	SQ_WORKER_FAILED, /* open() failed; retried with backoff */
};

struct sq_worker_kind {
	time_t fetched;      /* wall time of the published data, 0: none */
	double fetch_ms;     /* duration of the last successful fetch */
	int failures;        /* consecutive failures */
	int unsupported;     /* the backend said it cannot serve this */
	char error[300];     /* last failure, "" after a success */
	time_t error_time;   /* wall time of that failure */
	double next_in;      /* seconds until the next scheduled fetch */
	unsigned long nrows; /* rows in the published snapshot */
};

struct sq_worker_status {
	enum sq_worker_state state;
	char backend[16];
	char version[32];
	unsigned caps;
	char error[512]; /* last error of any kind (open or fetch) */
	time_t error_time;
	int busy;               /* a call is running */
	enum sq_kind busy_kind; /* which kind (when busy) */
	double busy_secs;       /* for how long */
	/* what squall cost the cluster: slurmctld RPCs (as sdiag counts
	 * them) and slurmdbd queries, in the last 60 s and since start */
	unsigned queries_per_min;
	unsigned dbd_per_min;
	unsigned long queries;
	unsigned long dbd_queries;
	unsigned gen; /* bumped at every publish */
	struct sq_worker_kind kind[SQ_KIND_COUNT];
	/* a question of the backend waiting for the user (ssh host key,
	 * password): answer it with sq_worker_answer() */
	int question;      /* 1: confirm (y/N), 2: ask (a line) */
	int question_echo; /* ask: 0 for a secret */
	char question_text[1024];
};

/*
 * Start a worker for cfg (copied). *fd becomes readable whenever the
 * status or a snapshot changed; drain it with sq_worker_drain().
 * fast/slow: refresh intervals (seconds) of the job queue and of every
 * other kind. NULL with err set when the thread cannot start.
 */
struct sq_worker *sq_worker_start(const struct sq_cluster_cfg *cfg, int fast,
				  int slow, struct sq_err *err);
int sq_worker_fd(const struct sq_worker *w);
void sq_worker_drain(struct sq_worker *w);

/*
 * Stop the thread and free the worker. A call still running in the
 * backend is waited for at most wait_ms; after that the thread is left to
 * finish on its own (it frees nothing the caller still uses) and the
 * process may exit. Then the SQ_WREQ_BIT mask of the calls it may still
 * be running (their arg still in use), else 0.
 */
int sq_worker_stop(struct sq_worker *w, int wait_ms);

/* The kinds (SQ_KIND_BIT mask) the screen needs now; others are not
 * fetched. Of those, partners are only joined into a shown kind (the
 * queue into the events): they refresh at the slowest of their own and
 * their joiners' intervals. Wakes the worker when the set changes. */
void sq_worker_want(struct sq_worker *w, unsigned kinds, unsigned partners);
/* Fetch these kinds now (r, or after a view switch), even if fresh. */
void sq_worker_refresh(struct sq_worker *w, unsigned kinds);
void sq_worker_intervals(struct sq_worker *w, int fast, int slow);
/* The history window (core/analysis/history.h: "2h", a date; "" 24h) of
 * the fetches from now on: the worker hands it to the backend with each
 * fetch (its cfg's history_since). */
void sq_worker_since(struct sq_worker *w, const char *spec);

/* A new reference to the newest snapshot of kind, or NULL. */
struct sq_snapshot *sq_worker_get(struct sq_worker *w, enum sq_kind kind);
void sq_worker_status(struct sq_worker *w, struct sq_worker_status *st);

/*
 * Answer the backend's pending question: yes (confirm) or answered (ask),
 * with the typed line (copied; the caller wipes its own copy).
 */
void sq_worker_answer(struct sq_worker *w, int yes, const char *line);

struct sq_prompt;
/* The question hooks to give sq_backend_set_prompt(): they run on the
 * worker thread and wait for the UI's answer. */
const struct sq_prompt *sq_worker_prompt_hooks(void);

/* The UI's requests to the worker: each type has its own slot, so an
 * action and the live pane never refuse each other. */
enum sq_worker_req {
	SQ_WREQ_ACTION, /* describe() and act(), tui/action_dialog.c */
	SQ_WREQ_LIVE,   /* the detail pane's job_live() (sstat), tui/live.c */
	SQ_WREQ_OUTPUT, /* the output pane's file reads, tui/pane_output.c */
	SQ_WREQ_GPUMAP, /* a node's GPU holders (job_gres), tui/gpumap.c */
	SQ_WREQ_COUNT
};
#define SQ_WREQ_BIT(t) (1 << (t))

struct sq_backend;
/*
 * Run fn(b, arg) on the worker thread with its open backend, before the
 * next fetch; queued calls run one at a time, in request type order.
 * One call per type: -1 when this type's is queued or not collected yet,
 * or the backend is not open. When fn has returned the pipe wakes the UI
 * and sq_worker_call_done() of the same type hands arg back, once (NULL
 * until then).
 */
int sq_worker_call(struct sq_worker *w, enum sq_worker_req type,
		   void (*fn)(struct sq_backend *b, void *arg), void *arg);
void *sq_worker_call_done(struct sq_worker *w, enum sq_worker_req type);

/* The refresh interval of a kind with the given settings. */
int sq_worker_interval(enum sq_kind kind, int fast, int slow);

#endif
