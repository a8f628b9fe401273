/*
 * worker.c - the worker thread of one cluster: opens the backend, fetches
 * the kinds the UI wants (never two calls at once, so never more than one
 * query of a kind in flight) through the fetch plan (session/plan.h: what
 * each kind joins, its interval), publishes, backs off on failures and
 * slow calls, and counts queries per minute. It never touches the terminal.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "session/plan.h"
#include "tui/worker.h"

#define QRING 2048 /* calls kept for the per-minute rates */
#define MAX_BACKOFF 600.0

struct slot {
	struct sq_snapshot *snap;
	struct sq_worker_kind info;
	double last_try; /* monotonic seconds of the last attempt, -1 never */
	double prev_ms;  /* the successful fetch before the last one, ms */
	double next;     /* monotonic due time */
};

struct sq_worker {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_cond_t done_cv;
	int pipe_r, pipe_w;
	struct sq_cluster_cfg cfg;

	/* UI -> worker (under mu) */
	unsigned want;
	unsigned partners; /* of want, the kinds only joined, not shown */
	unsigned refresh;
	int fast, slow;
	int stop;

	/* worker -> UI (under mu) */
	struct slot slots[SQ_KIND_COUNT];
	struct sq_worker_status st;
	double busy_since;
	struct {
		double t;           /* monotonic seconds the call ended */
		unsigned ctld, dbd; /* slurmctld RPCs, slurmdbd queries */
	} qring[QRING];
	unsigned qhead, qcount;
	int done;     /* the thread has finished */
	int detached; /* the UI gave up waiting: the thread frees w */

	/* the backend's question (under mu) */
	pthread_cond_t q_cv;
	int q_answered, q_yes;
	char q_line[512];

	/* the UI's calls, one slot per request type (sq_worker_call; under
	 * mu): state 0 none, 1 queued, 2 running, 3 done and not collected */
	struct {
		void (*fn)(struct sq_backend *b, void *arg);
		void *arg;
		int state;
	} calls[SQ_WREQ_COUNT];

	/* worker only */
	struct sq_backend *b;
	int open_failures;
	double open_next;
};

/* The worker of the calling thread, for the backend's questions. */
static _Thread_local struct sq_worker *self;

static struct sq_snapshot *
ref_or_null(struct sq_snapshot *s)
{
	return s != NULL ? sq_snapshot_ref(s) : NULL;
}

static double
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int
sq_worker_interval(enum sq_kind kind, int fast, int slow)
{
	return sq_plan_interval(kind, fast, slow);
}

/* Wake the UI: one byte; a full pipe already means "wake up". */
static void
notify(struct sq_worker *w)
{
	char c = 1;
	ssize_t r;

	w->st.gen++;
	r = write(w->pipe_w, &c, 1);
	(void)r;
}

/* What one call cost (the backend's counters went from q0/d0 to b's). */
static void
count_queries(struct sq_worker *w, const struct sq_backend *b, unsigned q0,
	      unsigned d0, double now)
{
	unsigned ctld = b->queries - q0, dbd = b->dbd_queries - d0;

	w->st.queries += ctld;
	w->st.dbd_queries += dbd;
	if (ctld == 0 && dbd == 0)
		return;
	w->qring[w->qhead].t = now;
	w->qring[w->qhead].ctld = ctld;
	w->qring[w->qhead].dbd = dbd;
	w->qhead = (w->qhead + 1) % QRING;
	if (w->qcount < QRING)
		w->qcount++;
}

/* slurmctld RPCs and slurmdbd queries of the last 60 s */
static void
queries_last_minute(const struct sq_worker *w, double now, unsigned *ctld,
		    unsigned *dbd)
{
	unsigned i;

	*ctld = *dbd = 0;
	for (i = 0; i < w->qcount; i++) {
		unsigned k = (w->qhead + QRING - 1 - i) % QRING;

		if (now - w->qring[k].t > 60.0)
			break;
		*ctld += w->qring[k].ctld;
		*dbd += w->qring[k].dbd;
	}
}

/* The interval of kind k now: its own, or the plan's for a kind wanted
 * only as a partner (the events view's queue: with the events). */
static int
kind_interval(const struct sq_worker *w, enum sq_kind k)
{
	if (w->partners & SQ_KIND_BIT(k))
		return sq_plan_interval_joined(k, w->want, w->fast, w->slow);
	return sq_plan_interval(k, w->fast, w->slow);
}

/* Seconds until kind k may be fetched again after an attempt that took
 * ms and failed (failures > 0) or not. */
static double
next_delay(const struct sq_worker *w, enum sq_kind k, const struct slot *s)
{
	double base = kind_interval(w, k);
	double d = base;

	/* slow calls: keep squall's share of the controller small. The
	 * shorter of the last two, so one slow call (the first after a
	 * restart) does not leave the view stale for minutes */
	if (s->info.failures == 0) {
		double ms = s->info.fetch_ms < s->prev_ms ? s->info.fetch_ms
							  : s->prev_ms;

		if (ms / 1000.0 * 5 > d)
			d = ms / 1000.0 * 5;
	}
	/* a failure (the branch above not taken): again at the interval. A
	 * service that is down costs nothing to ask (and a call that timed
	 * out is not load), while a longer wait keeps the view stale after
	 * the service is back: with retries one interval apart it is fresh
	 * within two (the wait, then the fetch), whenever in the wait the
	 * service returns. */
	return d > MAX_BACKOFF ? MAX_BACKOFF : d;
}

/*
 * The next kind to fetch: wanted, servable, due. Partners go first
 * (sq_plan_rank) so the join of a first fetch has them (sprio before
 * squeue before the events, nodes before partitions). Returns -1 and
 * *wait (seconds) when none is due.
 */
static int
pick(struct sq_worker *w, double now, double *wait)
{
	unsigned caps = w->st.caps;
	int best = -1, rank, k;
	double soonest = 3600;

	for (rank = 0; rank < SQ_KIND_COUNT && best < 0; rank++) {
		for (k = 0; k < SQ_KIND_COUNT; k++) {
			struct slot *s;
			double due;

			if (!(w->want & SQ_KIND_BIT(k)) ||
			    sq_plan_rank((enum sq_kind)k) != rank)
				continue;
			s = &w->slots[k];
			/* a kind the backend cannot serve: one try, for its
			 * reason */
			if ((caps & sq_kind_cap((enum sq_kind)k)) == 0 &&
			    s->last_try >= 0 && !(w->refresh & SQ_KIND_BIT(k)))
				continue;
			if (w->refresh & SQ_KIND_BIT(k))
				due = now;
			else if (s->info.unsupported)
				continue;
			else if (s->last_try < 0)
				due = now;
			else
				due = s->next;
			if (due <= now) {
				best = k;
				break;
			}
			if (due - now < soonest)
				soonest = due - now;
		}
	}
	*wait = soonest;
	return best;
}

/* A partner of the kind being fetched: the published snapshot, while
 * the UI wants that kind (a join with data nobody refreshes would go
 * stale). Worker thread, unlocked. */
static struct sq_snapshot *
partner(void *arg, enum sq_kind k)
{
	struct sq_worker *w = arg;
	struct sq_snapshot *s = NULL;

	pthread_mutex_lock(&w->mu);
	if (w->want & SQ_KIND_BIT(k))
		s = ref_or_null(w->slots[k].snap);
	pthread_mutex_unlock(&w->mu);
	return s;
}

/* Fetch kind k (unlocked) by the plan, joined with what was published. */
static int
fetch_one(struct sq_worker *w, enum sq_kind k, struct sq_snapshot **out,
	  struct sq_err *err)
{
	const struct sq_plan_src src = { partner, w };

	return sq_plan_fetch(w->b, k, &src, out, err);
}

static void
open_backend(struct sq_worker *w)
{
	struct sq_err err;
	struct sq_backend *b;

	sq_err_clear(&err);
	pthread_mutex_unlock(&w->mu);
	b = sq_backend_open(&w->cfg, &err);
	pthread_mutex_lock(&w->mu);
	/* what opening cost (a failed one is not known: none) */
	if (b != NULL)
		count_queries(w, b, 0, 0, mono());
	if (b == NULL) {
		double d = 5;
		int i;

		w->open_failures++;
		for (i = 1; i < w->open_failures && d < 120; i++)
			d *= 2;
		w->open_next = mono() + d;
		w->st.state = SQ_WORKER_FAILED;
		snprintf(w->st.error, sizeof(w->st.error), "%s", err.msg);
		w->st.error_time = time(NULL);
	} else {
		w->b = b;
		w->st.state = SQ_WORKER_READY;
		w->st.caps = b->ops->caps(b);
		snprintf(w->st.version, sizeof(w->st.version), "%s",
			 b->version);
		w->st.error[0] = '\0';
		w->open_failures = 0;
	}
	notify(w);
}

static void
wait_for(struct sq_worker *w, double secs)
{
	struct timespec ts;
	double t;

	if (secs > 3600)
		secs = 3600;
	if (secs < 0.001)
		secs = 0.001;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = ts.tv_nsec / 1e9 + secs;
	ts.tv_sec += (time_t)t;
	ts.tv_nsec = (long)((t - (double)(time_t)t) * 1e9);
	pthread_cond_timedwait(&w->cv, &w->mu, &ts);
}

static void
run_fetch(struct sq_worker *w, enum sq_kind k)
{
	struct slot *s = &w->slots[k];
	struct sq_snapshot *snap = NULL;
	struct sq_err err;
	unsigned q0, d0;
	double t0 = mono(), t1;
	size_t n;
	int rc;

	w->refresh &= ~SQ_KIND_BIT(k);
	s->last_try = t0;
	w->st.busy = 1;
	w->st.busy_kind = k;
	w->busy_since = t0;
	notify(w);
	q0 = w->b->queries;
	d0 = w->b->dbd_queries;
	/* the session's history window goes with the fetch */
	memcpy(w->b->cfg.history_since, w->cfg.history_since,
	       sizeof(w->b->cfg.history_since));
	sq_err_clear(&err);
	pthread_mutex_unlock(&w->mu);
	rc = fetch_one(w, k, &snap, &err);
	pthread_mutex_lock(&w->mu);
	t1 = mono();
	count_queries(w, w->b, q0, d0, t1);
	w->st.busy = 0;
	if (rc == 0) {
		sq_snapshot_unref(s->snap);
		s->snap = snap;
		s->info.fetched = snap->fetched;
		s->prev_ms = s->info.fetch_ms;
		s->info.fetch_ms = (t1 - t0) * 1000.0;
		s->info.failures = 0;
		s->info.unsupported = 0;
		s->info.error[0] = '\0';
		s->info.nrows = (unsigned long)snap->nrows;
		/* the error the status line shows came from this kind: over */
		n = strlen(sq_kind_name(k));
		if (strncmp(w->st.error, sq_kind_name(k), n) == 0 &&
		    w->st.error[n] == ':')
			w->st.error[0] = '\0';
	} else {
		s->info.failures++;
		s->info.unsupported = err.code == SQ_ERR_UNSUPPORTED;
		snprintf(s->info.error, sizeof(s->info.error), "%.290s",
			 err.msg);
		s->info.error_time = time(NULL);
		/* "cannot serve" is the view's business, not an error */
		if (!s->info.unsupported) {
			snprintf(w->st.error, sizeof(w->st.error), "%s: %.480s",
				 sq_kind_name(k), err.msg);
			w->st.error_time = s->info.error_time;
		}
	}
	s->next = t1 + next_delay(w, k, s);
	notify(w);
}

static void
wipe(volatile char *p, size_t n)
{
	while (n-- > 0)
		*p++ = 0;
}

/* Post a question to the UI and wait for its answer (worker thread). */
static int
question(int kind, const char *text, int echo, char *buf, size_t n)
{
	struct sq_worker *w = self;
	int yes;

	if (w == NULL)
		return 0;
	pthread_mutex_lock(&w->mu);
	w->st.question = kind;
	w->st.question_echo = echo;
	snprintf(w->st.question_text, sizeof(w->st.question_text), "%s", text);
	w->q_answered = 0;
	notify(w);
	while (!w->q_answered && !w->stop)
		pthread_cond_wait(&w->q_cv, &w->mu);
	yes = w->q_answered && w->q_yes;
	if (yes && buf != NULL && n > 0)
		snprintf(buf, n, "%s", w->q_line);
	wipe(w->q_line, sizeof(w->q_line));
	w->st.question = 0;
	w->st.question_text[0] = '\0';
	notify(w);
	pthread_mutex_unlock(&w->mu);
	return yes;
}

static int
hook_confirm(void *arg, const char *text)
{
	(void)arg;
	return question(1, text, 1, NULL, 0);
}

static int
hook_ask(void *arg, const char *text, int echo, char *buf, size_t n)
{
	(void)arg;
	return question(2, text, echo, buf, n);
}

const struct sq_prompt *
sq_worker_prompt_hooks(void)
{
	static const struct sq_prompt hooks = { hook_confirm, hook_ask, NULL };

	return &hooks;
}

void
sq_worker_answer(struct sq_worker *w, int yes, const char *line)
{
	pthread_mutex_lock(&w->mu);
	w->q_yes = yes;
	snprintf(w->q_line, sizeof(w->q_line), "%s", line ? line : "");
	w->q_answered = 1;
	pthread_cond_broadcast(&w->q_cv);
	pthread_mutex_unlock(&w->mu);
}

/* Run the UI's call of type t (sq_worker_call) unlocked, like a fetch. */
static void
run_call(struct sq_worker *w, int t)
{
	unsigned q0 = w->b->queries, d0 = w->b->dbd_queries;

	w->calls[t].state = 2;
	w->st.busy = 1;
	notify(w);
	pthread_mutex_unlock(&w->mu);
	w->calls[t].fn(w->b, w->calls[t].arg);
	pthread_mutex_lock(&w->mu);
	count_queries(w, w->b, q0, d0, mono());
	w->st.busy = 0;
	w->calls[t].state = 3;
	notify(w);
}

/* The first queued call, in request type order; -1 if none. */
static int
queued_call(const struct sq_worker *w)
{
	int t;

	for (t = 0; t < SQ_WREQ_COUNT; t++) {
		if (w->calls[t].state == 1)
			return t;
	}
	return -1;
}

/* The worker's snapshots, pipe and locks freed, then w: by the thread
 * when the worker was left to it (detached), else by sq_worker_stop. */
static void
worker_free(struct sq_worker *w)
{
	int i;

	for (i = 0; i < SQ_KIND_COUNT; i++)
		sq_snapshot_unref(w->slots[i].snap);
	close(w->pipe_r);
	close(w->pipe_w);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	pthread_cond_destroy(&w->done_cv);
	pthread_cond_destroy(&w->q_cv);
	free(w);
}

static void *
thread_main(void *arg)
{
	struct sq_worker *w = arg;
	int detached;

	self = w;
	pthread_mutex_lock(&w->mu);
	while (!w->stop) {
		double now = mono(), wait;
		int k;

		if (w->b == NULL) {
			if (w->refresh != 0) {
				w->open_next = now;
				w->refresh = 0;
			}
			if (now >= w->open_next) {
				w->st.state = SQ_WORKER_CONNECTING;
				notify(w);
				open_backend(w);
			} else {
				wait_for(w, w->open_next - now);
			}
			continue;
		}
		if ((k = queued_call(w)) >= 0) {
			run_call(w, k);
			continue;
		}
		k = pick(w, now, &wait);
		if (k < 0) {
			wait_for(w, wait);
			continue;
		}
		run_fetch(w, (enum sq_kind)k);
	}
	pthread_mutex_unlock(&w->mu);
	sq_backend_close(w->b);
	w->b = NULL;
	pthread_mutex_lock(&w->mu);
	w->done = 1;
	detached = w->detached;
	pthread_cond_broadcast(&w->done_cv);
	pthread_mutex_unlock(&w->mu);
	if (detached)
		worker_free(w);
	return NULL;
}

struct sq_worker *
sq_worker_start(const struct sq_cluster_cfg *cfg, int fast, int slow,
		struct sq_err *err)
{
	struct sq_worker *w = calloc(1, sizeof(*w));
	pthread_condattr_t ca;
	sigset_t all, old;
	int p[2], i, rc;

	if (w == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	if (pipe(p) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "pipe: %s", strerror(errno));
		free(w);
		return NULL;
	}
	for (i = 0; i < 2; i++) {
		fcntl(p[i], F_SETFD, FD_CLOEXEC);
		fcntl(p[i], F_SETFL, fcntl(p[i], F_GETFL) | O_NONBLOCK);
	}
	w->pipe_r = p[0];
	w->pipe_w = p[1];
	w->cfg = *cfg;
	w->fast = fast;
	w->slow = slow;
	snprintf(w->st.backend, sizeof(w->st.backend), "%s", cfg->backend);
	w->st.state = SQ_WORKER_CONNECTING;
	for (i = 0; i < SQ_KIND_COUNT; i++)
		w->slots[i].last_try = -1;
	pthread_mutex_init(&w->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &ca);
	pthread_cond_init(&w->done_cv, &ca);
	pthread_cond_init(&w->q_cv, NULL);
	pthread_condattr_destroy(&ca);
	/* signals (SIGWINCH, SIGINT ...) belong to the UI thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&w->th, NULL, thread_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		sq_err_set(err, SQ_ERR_SYSTEM, "pthread_create: %s",
			   strerror(rc));
		close(p[0]);
		close(p[1]);
		free(w);
		return NULL;
	}
	return w;
}

int
sq_worker_fd(const struct sq_worker *w)
{
	return w->pipe_r;
}

int
sq_worker_call(struct sq_worker *w, enum sq_worker_req type,
	       void (*fn)(struct sq_backend *b, void *arg), void *arg)
{
	int rc = -1;

	pthread_mutex_lock(&w->mu);
	if (w->calls[type].state == 0 && w->st.state == SQ_WORKER_READY) {
		w->calls[type].fn = fn;
		w->calls[type].arg = arg;
		w->calls[type].state = 1;
		pthread_cond_signal(&w->cv);
		rc = 0;
	}
	pthread_mutex_unlock(&w->mu);
	return rc;
}

void *
sq_worker_call_done(struct sq_worker *w, enum sq_worker_req type)
{
	void *arg = NULL;

	pthread_mutex_lock(&w->mu);
	if (w->calls[type].state == 3) {
		arg = w->calls[type].arg;
		w->calls[type].state = 0;
		w->calls[type].arg = NULL;
	}
	pthread_mutex_unlock(&w->mu);
	return arg;
}

void
sq_worker_drain(struct sq_worker *w)
{
	char buf[256];

	while (read(w->pipe_r, buf, sizeof(buf)) > 0)
		;
}

int
sq_worker_stop(struct sq_worker *w, int wait_ms)
{
	struct timespec ts;
	double t;
	int i, left = 0;

	if (w == NULL)
		return 0;
	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_cond_broadcast(&w->q_cv);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = ts.tv_nsec / 1e9 + wait_ms / 1000.0;
	ts.tv_sec += (time_t)t;
	ts.tv_nsec = (long)((t - (double)(time_t)t) * 1e9);
	while (!w->done) {
		if (pthread_cond_timedwait(&w->done_cv, &w->mu, &ts) ==
		    ETIMEDOUT)
			break;
	}
	if (!w->done) {
		/* a call is hanging: let the thread clean up after itself */
		for (i = 0; i < SQ_WREQ_COUNT; i++) {
			if (w->calls[i].state == 2)
				left |= SQ_WREQ_BIT(i);
		}
		w->detached = 1;
		pthread_mutex_unlock(&w->mu);
		pthread_detach(w->th);
		return left;
	}
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	worker_free(w);
	return 0;
}

/* Each fetched kind's due time again, from its last attempt (under mu):
 * the intervals or what is a partner changed. */
static void
reschedule(struct sq_worker *w)
{
	int i;

	for (i = 0; i < SQ_KIND_COUNT; i++) {
		struct slot *s = &w->slots[i];

		if (s->last_try >= 0)
			s->next = s->last_try + next_delay(w, i, s);
	}
}

void
sq_worker_want(struct sq_worker *w, unsigned kinds, unsigned partners)
{
	pthread_mutex_lock(&w->mu);
	partners &= kinds;
	if (kinds != w->want || partners != w->partners) {
		w->want = kinds;
		w->partners = partners;
		reschedule(w);
		pthread_cond_signal(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
}

void
sq_worker_refresh(struct sq_worker *w, unsigned kinds)
{
	pthread_mutex_lock(&w->mu);
	w->refresh |= kinds;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void
sq_worker_since(struct sq_worker *w, const char *spec)
{
	pthread_mutex_lock(&w->mu);
	snprintf(w->cfg.history_since, sizeof(w->cfg.history_since), "%s",
		 spec != NULL ? spec : "");
	pthread_mutex_unlock(&w->mu);
}

void
sq_worker_intervals(struct sq_worker *w, int fast, int slow)
{
	pthread_mutex_lock(&w->mu);
	w->fast = fast;
	w->slow = slow;
	reschedule(w);
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

struct sq_snapshot *
sq_worker_get(struct sq_worker *w, enum sq_kind kind)
{
	struct sq_snapshot *s;

	pthread_mutex_lock(&w->mu);
	s = ref_or_null(w->slots[kind].snap);
	pthread_mutex_unlock(&w->mu);
	return s;
}

void
sq_worker_status(struct sq_worker *w, struct sq_worker_status *st)
{
	double now = mono();
	int i;

	pthread_mutex_lock(&w->mu);
	*st = w->st;
	st->busy_secs = w->st.busy ? now - w->busy_since : 0;
	queries_last_minute(w, now, &st->queries_per_min, &st->dbd_per_min);
	for (i = 0; i < SQ_KIND_COUNT; i++) {
		st->kind[i] = w->slots[i].info;
		st->kind[i].next_in =
		    w->slots[i].last_try < 0 ? 0 : w->slots[i].next - now;
	}
	pthread_mutex_unlock(&w->mu);
}
