/*
 * sj_pipe.c - the parse thread of a JSON stream (sj_stream.c): the
 * scanner's batches of whole elements go over a queue of NSLOTS to a
 * thread that parses each with json-c, checks it and maps it into the
 * stream's snapshot, in order; an element's error is set once and
 * flagged, and stands before any of the scanner's in the body. A batch
 * is parsed on the scanner's thread when no thread could start.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/sj_stream_int.h"
#include "core/base/util.h"

int
sq_sj_buf_room(struct sq_sj_buf *b, size_t n)
{
	size_t want = b->len + n + 2, cap = b->cap ? b->cap : 4096;
	char *p;

	if (want <= b->cap)
		return 0;
	while (cap < want) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (p == NULL)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

void
sq_sj_batch_free(struct sq_sj_batch *b)
{
	free(b->bytes.p);
	free(b->span);
}

/* An element's bytes are not JSON: the first such error in the body is
 * the stream's (set once, before efailed says so). */
static int
elem_malformed(struct sq_sj_stream *st, size_t at, const char *what)
{
	sq_err_set(&st->efatal, SQ_ERR_PARSE,
		   "malformed JSON answer at byte %zu: %s", at, what);
	atomic_store_explicit(&st->efailed, 1, memory_order_release);
	return -1;
}

/* One complete element: parse, check, map, free. */
static int
elem_parse(struct sq_sj_stream *st, const char *p, size_t len, size_t start)
{
	json_object *o;
	enum json_tokener_error je;
	size_t end;

	json_tokener_reset(st->tok);
	o = json_tokener_parse_ex(st->tok, p, (int)len);
	je = json_tokener_get_error(st->tok);
	end = json_tokener_get_parse_end(st->tok);
	if (o == NULL) {
		if (je == json_tokener_continue || je == json_tokener_success)
			je = json_tokener_error_parse_eof;
		return elem_malformed(st, start + end,
				      json_tokener_error_desc(je));
	}
	while (end < len && p[end] == ' ')
		end++;
	if (end < len) {
		json_object_put(o);
		return elem_malformed(st, start + end, "unexpected character");
	}
	if (!st->map_failed &&
	    sq_sj_map_elem(st->kind, &st->c, o, st->idx, &st->map_err) == -1)
		st->map_failed = 1;
	json_object_put(o);
	st->idx++;
	return 0;
}

/* The elements of a batch in order, until one is malformed or the
 * stream is dropped. */
static void
batch_run(struct sq_sj_stream *st, const struct sq_sj_batch *b)
{
	size_t k;

	for (k = 0; k < b->n; k++) {
		if (atomic_load_explicit(&st->stop, memory_order_relaxed) ||
		    elem_parse(st, b->bytes.p + b->span[k].off, b->span[k].len,
			       b->span[k].start) == -1)
			return;
	}
}

int
sq_sj_efailed(struct sq_sj_stream *st)
{
	return atomic_load_explicit(&st->efailed, memory_order_acquire);
}

static void *
worker(void *arg)
{
	struct sq_sj_stream *st = arg;

	pthread_mutex_lock(&st->mu);
	for (;;) {
		while (st->count == 0 && !st->done)
			pthread_cond_wait(&st->cv, &st->mu);
		if (st->count == 0)
			break;
		pthread_mutex_unlock(&st->mu);
		/* slot[head] stays counted (the scanner's to leave alone)
		 * until it is parsed */
		if (!sq_sj_efailed(st))
			batch_run(st, &st->slot[st->head]);
		pthread_mutex_lock(&st->mu);
		st->head = (st->head + 1) % NSLOTS;
		st->count--;
		pthread_cond_broadcast(&st->cv);
	}
	pthread_mutex_unlock(&st->mu);
	return NULL;
}

static void
worker_start(struct sq_sj_stream *st)
{
	if (pthread_mutex_init(&st->mu, NULL) != 0) {
		st->no_thread = 1;
		return;
	}
	if (pthread_cond_init(&st->cv, NULL) != 0) {
		pthread_mutex_destroy(&st->mu);
		st->no_thread = 1;
		return;
	}
	if (sq_util_thread_start(&st->thread, worker, st) == -1) {
		pthread_cond_destroy(&st->cv);
		pthread_mutex_destroy(&st->mu);
		st->no_thread = 1; /* parsed here instead */
		return;
	}
	st->threaded = 1;
}

/* The scanner's batch goes to the worker (which starts with the first
 * one), or is parsed here; the scanner goes on in an empty batch with
 * room for the rest of the piece. -1 once an element was malformed. */
int
sq_sj_hand_on(struct sq_sj_stream *st)
{
	struct sq_sj_batch t;

	if (!st->threaded && !st->no_thread)
		worker_start(st);
	if (!st->threaded) {
		batch_run(st, &st->cur);
	} else {
		pthread_mutex_lock(&st->mu);
		while (st->count == NSLOTS)
			pthread_cond_wait(&st->cv, &st->mu);
		/* a free slot: its buffers become the scanner's */
		t = st->slot[(st->head + st->count) % NSLOTS];
		st->slot[(st->head + st->count) % NSLOTS] = st->cur;
		st->cur = t;
		st->count++;
		pthread_cond_broadcast(&st->cv);
		pthread_mutex_unlock(&st->mu);
	}
	st->cur.bytes.len = 0;
	st->cur.n = 0;
	if (sq_sj_buf_room(&st->cur.bytes, st->feed_left) == -1)
		return sq_sj_stream_oom(st);
	if (sq_sj_efailed(st)) {
		st->failed = 1;
		return -1;
	}
	return 0;
}

/* Every element in: the last batch parsed, the worker gone. */
void
sq_sj_pipe_finish(struct sq_sj_stream *st)
{
	if (st->cur.n > 0 && !sq_sj_efailed(st)) {
		if (st->threaded) {
			st->feed_left = 0;
			(void)sq_sj_hand_on(st);
		} else {
			batch_run(st, &st->cur);
		}
	}
	st->cur.n = 0;
	if (!st->threaded)
		return;
	pthread_mutex_lock(&st->mu);
	st->done = 1;
	pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
	pthread_join(st->thread, NULL);
	pthread_cond_destroy(&st->cv);
	pthread_mutex_destroy(&st->mu);
	st->threaded = 0;
}

/* The stream dropped before its end: the worker stops at once. */
void
sq_sj_pipe_stop(struct sq_sj_stream *st)
{
	atomic_store_explicit(&st->stop, 1, memory_order_relaxed);
	st->cur.n = 0;
	sq_sj_pipe_finish(st);
}
