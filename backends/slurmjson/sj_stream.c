/*
 * sj_stream.c - a Slurm JSON answer read piece by piece as it arrives:
 * a small scanner finds the boundaries of the elements of the data list
 * ("jobs", "nodes") and hands each one to json-c on its own, maps it and
 * frees it; everything else (meta, errors, warnings, last_update) is
 * kept as the "envelope" and checked at the end exactly as a whole body
 * is. The elements are parsed and mapped on a second thread, in batches
 * of 64 KiB, while the scanner reads on. Peak memory is a few batches
 * and the envelope, not a tree of the whole answer. json-c does all the
 * parsing; the scanner only tracks strings, escapes and nesting, drops
 * the whitespace between tokens, and leaves out the members of a job
 * the mapping never reads (most of its bytes), so a malformed value
 * there goes unnoticed where a whole-body parse would refuse the
 * answer. It does not follow json-c's lenient extensions (single-quoted
 * strings, comments): those are refused.
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/model/model.h"

enum mode {
	M_ENV,       /* copying the envelope, looking for the data key */
	M_RAW,       /* copying the rest as it is (no more scanning) */
	M_ARR_FIRST, /* after the list's '[': an element or ']' */
	M_ARR_NEXT,  /* after ',': an element (or ']': json-c allows it) */
	M_ARR_ELEM,  /* inside an element */
	M_ARR_AFTER  /* after an element: ',' or ']' */
};

enum key_state {
	KS_NONE,
	KS_WANT_KEY,  /* after the root's '{' or a ',' at depth 1 */
	KS_IN_KEY,    /* inside a member name at depth 1 */
	KS_AFTER_KEY, /* the name read, ':' expected */
	KS_WANT_VALUE /* after ':', the value's first byte decides */
};

/* a growable byte buffer filled without per-byte checks: room for n
 * more bytes is made before a piece is scanned */
struct sbuf {
	char *p;
	size_t len, cap;
};

/* Complete elements, one after another in bytes: where each one is in
 * bytes (off, len) and in the body (start, for messages). */
struct span {
	size_t off, len, start;
};

struct batch {
	struct sbuf bytes;
	struct span *span;
	size_t n, cap;
};

/* The elements go on in batches of this many bytes (once whitespace and
 * the members nobody reads are out: some 60 jobs); up to NSLOTS batches
 * wait for the worker. A smaller answer is parsed at its end. */
#define BATCH_BYTES ((size_t)64 * 1024)
#define NSLOTS 4

struct sq_sj_stream {
	enum sq_kind kind;
	const char *key; /* "jobs", "nodes" */
	int elements;    /* the kind has a per-element mapper */
	struct sq_sj_ctx c;
	struct sq_sj_info local, *info;
	json_tokener *tok;
	struct sbuf env;
	struct batch cur; /* the scanner's batch; cur.bytes holds the element
			   * being read after the complete ones */
	size_t total; /* bytes fed so far (no bound: a list of any length) */
	size_t limit; /* bytes kept whole: the envelope, or one element */
	enum mode mode;
	/* envelope scanner */
	size_t depth;
	int in_str, esc;
	enum key_state ks;
	char name[8];
	size_t name_len;
	int name_esc, name_match;
	int intercepted;
	size_t gap_at;  /* envelope offset of the list's ']' */
	size_t gap_len; /* bytes of the body not in the envelope */
	/* the current element */
	size_t idx;        /* elements seen */
	size_t elem_start; /* body offset of its first byte */
	size_t elem_off;   /* where it starts in cur.bytes */
	size_t edepth;
	int ekind; /* '{' (a container), '"' (a string), 's' (scalar) */
	enum key_state eks;      /* member names of the element's object */
	size_t kpos;             /* where the name being read starts in bytes */
	int skip;                /* inside a member the mapper does not read */
	const char *const *keys; /* the members it reads, NULL: all */
	size_t klen[48];         /* their lengths */
	/* the keys by a hash of a name (kbucket[h][0..kbn[h]-1]: indexes
	 * into keys) */
	unsigned char kbucket[64][4], kbn[64];
	int kesc; /* the name being read has a backslash */
	/* errors: a fatal one ends the stream; a mapping one is reported
	 * after the envelope (whose errors[] come first, as for a whole
	 * body) */
	int failed, map_failed;
	struct sq_err fatal, map_err;
	/* The elements' parse and mapping: json-c's share of the work, on a
	 * thread of their own once the answer is big enough to fill a
	 * batch, while the scanner reads on (two cores: the body that
	 * slurmrestd writes at the end of its work is read and parsed at
	 * once). Only the worker touches c, tok, idx, map_failed and
	 * map_err while it runs. An element's error (efatal, then efailed
	 * set) comes before any of the scanner's in the body. */
	size_t batch_bytes;
	size_t feed_left; /* bytes of the piece being fed, for room */
	int threaded;     /* the worker runs */
	int no_thread;    /* it could not start: batches parsed here */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch slot[NSLOTS];
	size_t head, count; /* the batches waiting, from slot[head] */
	int done;           /* no more batches */
	atomic_int stop;    /* the stream is dropped: parse no more */
	atomic_int efailed;
	struct sq_err efatal;
};

static int
sbuf_room(struct sbuf *b, size_t n)
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

/* A member name's bucket among the keys the mapper reads (len > 0). */
static unsigned
key_hash(const char *name, size_t len)
{
	return (unsigned)(len * 7 + (unsigned char)name[0] * 3 +
			  (unsigned char)name[len - 1]) %
	       64;
}

struct sq_sj_stream *
sq_slurmjson_stream_new(enum sq_kind kind, time_t now, struct sq_snapshot *s,
			struct sq_sj_info *info, struct sq_err *err)
{
	struct sq_sj_stream *st;
	const char *key = sq_sj_data_key(kind);
	size_t k;

	if (key == NULL || s == NULL || s->kind != kind) {
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "no JSON mapping for the %s view",
			   sq_kind_name(kind));
		return NULL;
	}
	st = calloc(1, sizeof(*st));
	if (st == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	st->kind = kind;
	st->key = key;
	st->elements = sq_sj_has_elem_mapper(kind);
	st->keys = sq_sj_elem_keys(kind);
	for (k = 0; st->keys != NULL && st->keys[k] != NULL; k++) {
		unsigned h;

		st->klen[k] = strlen(st->keys[k]);
		h = key_hash(st->keys[k], st->klen[k]);
		if (k == sizeof(st->klen) / sizeof(st->klen[0]) ||
		    st->klen[k] == 0 || st->kbn[h] == sizeof(st->kbucket[h])) {
			st->keys = NULL; /* (a list too long: keep all) */
			break;
		}
		st->kbucket[h][st->kbn[h]++] = (unsigned char)k;
	}
	st->info = info != NULL ? info : &st->local;
	sq_sj_info_init(st->info);
	st->c.s = s;
	st->c.info = st->info;
	st->c.now = now;
	st->c.api = 0; /* meta may come after the list: mappers ignore it */
	/* the element sits at depth 2 under the root's object and list */
	st->tok = json_tokener_new_ex(SQ_SJ_MAX_DEPTH - 2);
	if (st->tok == NULL) {
		free(st);
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	/* kinds without a per-element mapper are kept whole */
	st->mode = st->elements ? M_ENV : M_RAW;
	st->limit = SQ_SJ_MAX_BODY;
	st->batch_bytes = BATCH_BYTES;
	atomic_init(&st->stop, 0);
	atomic_init(&st->efailed, 0);
	sq_err_clear(&st->efatal);
	sq_err_clear(&st->fatal);
	sq_err_clear(&st->map_err);
	return st;
}

static void
batch_free(struct batch *b)
{
	free(b->bytes.p);
	free(b->span);
}

static void pipe_stop(struct sq_sj_stream *st);

void
sq_slurmjson_stream_free(struct sq_sj_stream *st)
{
	size_t k;

	if (st == NULL)
		return;
	pipe_stop(st);
	json_tokener_free(st->tok);
	free(st->env.p);
	batch_free(&st->cur);
	for (k = 0; k < NSLOTS; k++)
		batch_free(&st->slot[k]);
	free(st);
}

static int
malformed(struct sq_sj_stream *st, size_t at, const char *what)
{
	st->failed = 1;
	sq_err_set(&st->fatal, SQ_ERR_PARSE,
		   "malformed JSON answer at byte %zu: %s", at, what);
	return -1;
}

static int
out_of_memory(struct sq_sj_stream *st)
{
	st->failed = 1;
	sq_err_set(&st->fatal, SQ_ERR_SYSTEM, "out of memory");
	return -1;
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
batch_run(struct sq_sj_stream *st, const struct batch *b)
{
	size_t k;

	for (k = 0; k < b->n; k++) {
		if (atomic_load_explicit(&st->stop, memory_order_relaxed) ||
		    elem_parse(st, b->bytes.p + b->span[k].off, b->span[k].len,
			       b->span[k].start) == -1)
			return;
	}
}

static int
efailed(struct sq_sj_stream *st)
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
		if (!efailed(st))
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
	sigset_t all, old;
	int rc;

	if (pthread_mutex_init(&st->mu, NULL) != 0) {
		st->no_thread = 1;
		return;
	}
	if (pthread_cond_init(&st->cv, NULL) != 0) {
		pthread_mutex_destroy(&st->mu);
		st->no_thread = 1;
		return;
	}
	/* signals are the UI thread's (or batch mode's main thread's):
	 * the parse thread blocks them all */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&st->thread, NULL, worker, st);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
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
static int
hand_on(struct sq_sj_stream *st)
{
	struct batch t;

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
	if (sbuf_room(&st->cur.bytes, st->feed_left) == -1)
		return out_of_memory(st);
	if (efailed(st)) {
		st->failed = 1;
		return -1;
	}
	return 0;
}

/* Every element in: the last batch parsed, the worker gone. */
static void
pipe_finish(struct sq_sj_stream *st)
{
	if (st->cur.n > 0 && !efailed(st)) {
		if (st->threaded) {
			st->feed_left = 0;
			(void)hand_on(st);
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
static void
pipe_stop(struct sq_sj_stream *st)
{
	atomic_store_explicit(&st->stop, 1, memory_order_relaxed);
	st->cur.n = 0;
	pipe_finish(st);
}

/* The element in cur.bytes from elem_off is complete: noted in the
 * batch, which goes on once it is full. */
static int
elem_done(struct sq_sj_stream *st)
{
	struct batch *b = &st->cur;

	/* out of the element: a string element left in_str set, and the
	 * envelope scanner then read the rest of the body inverted (a
	 * second list of the same name went unseen) */
	st->in_str = 0;
	st->esc = 0;
	if (st->ekind == 's')
		b->bytes.p[b->bytes.len++] = ' '; /* ends a number */
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct span *sp = realloc(b->span, cap * sizeof(*sp));

		if (sp == NULL)
			return out_of_memory(st);
		b->span = sp;
		b->cap = cap;
	}
	b->span[b->n].off = st->elem_off;
	b->span[b->n].len = b->bytes.len - st->elem_off;
	b->span[b->n].start = st->elem_start;
	b->n++;
	st->mode = M_ARR_AFTER;
	if (b->bytes.len >= st->batch_bytes)
		return hand_on(st);
	return 0;
}

static int
is_ws(char ch)
{
	return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

/* a byte that may be part of a number or literal: whitespace after it
 * is kept (one space), so "1 2" does not become "12" */
static int
is_word(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || ch == '.' || ch == '-' || ch == '+';
}

/* The envelope scanner: copy p[i], noting the member names at depth 1
 * and the value of the data key. Returns 1 when the list starts. */
static int
env_byte(struct sq_sj_stream *st, char ch)
{
	st->env.p[st->env.len++] = ch;
	if (st->in_str) {
		if (st->esc) {
			st->esc = 0;
			if (st->ks == KS_IN_KEY)
				st->name_esc = 1;
		} else if (ch == '\\') {
			st->esc = 1;
		} else if (ch == '"') {
			st->in_str = 0;
			if (st->ks == KS_IN_KEY) {
				st->ks = KS_AFTER_KEY;
				st->name_match =
				    !st->name_esc &&
				    st->name_len == strlen(st->key) &&
				    memcmp(st->name, st->key, st->name_len) ==
					0;
			}
		} else if (st->ks == KS_IN_KEY) {
			if (st->name_len < sizeof(st->name))
				st->name[st->name_len] = ch;
			st->name_len++;
		}
		return 0;
	}
	if (is_ws(ch))
		return 0;
	if (st->depth == 0) {
		/* the root: an object, or kept whole for parse_body's
		 * messages */
		if (ch != '{') {
			st->mode = M_RAW;
			return 0;
		}
		st->depth = 1;
		st->ks = KS_WANT_KEY;
		return 0;
	}
	if (st->depth == 1 && st->ks == KS_WANT_VALUE) {
		st->ks = KS_NONE;
		if (st->name_match && ch == '[') {
			if (st->intercepted) {
				st->failed = 1;
				sq_err_set(&st->fatal, SQ_ERR_PARSE,
					   "malformed JSON answer: '%s' twice",
					   st->key);
				return -1;
			}
			st->intercepted = 1;
			st->depth++;
			return 1;
		}
	}
	switch (ch) {
	case '"':
		st->in_str = 1;
		if (st->depth == 1 && st->ks == KS_WANT_KEY) {
			st->ks = KS_IN_KEY;
			st->name_len = 0;
			st->name_esc = 0;
		}
		break;
	case ':':
		if (st->depth == 1 && st->ks == KS_AFTER_KEY)
			st->ks = KS_WANT_VALUE;
		break;
	case ',':
		if (st->depth == 1)
			st->ks = KS_WANT_KEY;
		break;
	case '{':
	case '[':
		st->depth++;
		break;
	case '}':
	case ']':
		if (--st->depth == 0)
			st->mode = M_RAW; /* the rest: parse_body checks */
		break;
	default:
		break;
	}
	return 0;
}

/* Is the member name (raw bytes, between the quotes) one the mapper
 * reads? Names written with escapes are kept (json-c decodes them). */
static int
wanted(const struct sq_sj_stream *st, const char *name, size_t len)
{
	unsigned h, k;

	if (st->keys == NULL || st->kesc)
		return 1;
	if (len == 0)
		return 0;
	h = key_hash(name, len);
	for (k = 0; k < st->kbn[h]; k++) {
		size_t i = st->kbucket[h][k];

		if (st->klen[i] == len && memcmp(st->keys[i], name, len) == 0)
			return 1;
	}
	return 0;
}

/* Inside a string of a container element: copy p[*ip..] to *out (not
 * when skip) up to and with the closing quote, or to the end of p; *esc
 * carries a backslash over to the next byte. 1 when the string ended. */
static inline int
copy_string(const char *p, size_t n, size_t *ip, char **out, int skip, int *esc)
{
	size_t i = *ip, j = i;
	char ch;

	if (*esc) {
		*esc = 0;
		if (!skip)
			*(*out)++ = p[i];
		*ip = i + 1;
		return 0;
	}
	while (j < n && p[j] != '"' && p[j] != '\\')
		j++;
	if (!skip) {
		memcpy(*out, p + i, j - i);
		*out += j - i;
	}
	*ip = j;
	if (j == n)
		return 0;
	ch = p[j];
	*ip = j + 1;
	if (!skip)
		*(*out)++ = ch;
	if (ch == '\\') {
		*esc = 1;
		return 0;
	}
	return 1;
}

/* After a member's name at depth 1: if the mapper never reads it, drop
 * the name from cur.bytes (*out back to where it began) and return 1: its
 * value is skipped too. */
static inline int
drop_member(struct sq_sj_stream *st, char *base, char **out)
{
	if (wanted(st, base + st->kpos + 1,
		   (size_t)(*out - base) - st->kpos - 2))
		return 0;
	/* the name goes, and its value */
	*out = base + st->kpos;
	return 1;
}

/* Whitespace outside a string, p[i - 1] the first: skip the run; keep
 * one blank only between two words (unless skipping). Returns the index
 * after the run. */
static inline size_t
skip_blanks(const char *p, size_t n, size_t i, char **out, int skip)
{
	while (i < n && (p[i] == ' ' || p[i] == '\n'))
		i++;
	if (!skip && is_word((*out)[-1]))
		*(*out)++ = ' ';
	return i;
}

/* The container element closed at out: reset the scan state, hand the
 * element on. */
static int
container_done(struct sq_sj_stream *st, const char *out)
{
	st->cur.bytes.len = (size_t)(out - st->cur.bytes.p);
	st->in_str = 0;
	st->esc = 0;
	st->skip = 0;
	st->edepth = 0;
	return elem_done(st);
}

/* A malformed container element, p[i - 1] the byte at fault: keep what
 * was copied (up to out), note where the scan stopped. */
static int
scan_fail(struct sq_sj_stream *st, const char *out, size_t i, size_t *ip,
	  const char *what)
{
	st->cur.bytes.len = (size_t)(out - st->cur.bytes.p);
	*ip = i;
	return malformed(st, st->total + i - 1, what);
}

/* Inside a container element: copy p[*ip..] into cur.bytes until the
 * element closes or the piece ends, without the whitespace outside
 * strings, and without the members of the element's object the mapper
 * never reads (a job's job_resources, flags ... are most of its bytes):
 * json-c parses only what is used. The tight loop of the stream: every
 * byte of the list passes here. */
static int
scan_container(struct sq_sj_stream *st, const char *p, size_t n, size_t *ip)
{
	char *base = st->cur.bytes.p, *out = base + st->cur.bytes.len;
	size_t i = *ip, depth = st->edepth;
	int in_str = st->in_str, esc = st->esc, skip = st->skip;
	enum key_state ks = st->eks;

	while (i < n) {
		char ch;

		if (in_str) {
			if (copy_string(p, n, &i, &out, skip, &esc)) {
				in_str = 0;
				if (ks == KS_IN_KEY)
					ks = KS_AFTER_KEY;
			} else if (esc && ks == KS_IN_KEY) {
				st->kesc = 1;
			}
			continue;
		}
		ch = p[i++];
		switch (ch) {
		case ' ':
		case '\n':
		case '\r':
		case '\t':
			i = skip_blanks(p, n, i, &out, skip);
			continue;
		case '"':
			in_str = 1;
			if (depth == 1 && ks == KS_WANT_KEY) {
				ks = KS_IN_KEY;
				st->kpos = (size_t)(out - base);
				st->kesc = 0;
			}
			break;
		case ':':
			if (depth == 1 && ks == KS_AFTER_KEY) {
				ks = KS_NONE;
				if (drop_member(st, base, &out)) {
					skip = 1;
					continue;
				}
			}
			break;
		case ',':
			if (depth == 1) {
				ks = KS_WANT_KEY;
				if (skip) {
					/* "a":1,"skipped":2,"b":3 */
					skip = 0;
					continue;
				}
			}
			break;
		case '{':
		case '[':
			if (++depth > SQ_SJ_MAX_DEPTH)
				return scan_fail(st, out, i, ip,
						 "nesting too deep");
			break;
		case '}':
		case ']':
			if (--depth == 0)
				skip = 0; /* json-c allows {"a":1,} */
			break;
		case '\'':
		case '/':
			/* json-c's single-quoted strings and comments: not
			 * JSON, and in a skipped member they would hide an
			 * unclosed structure from this scan */
			return scan_fail(st, out, i, ip,
					 "quote or comment outside a string");
		default:
			break;
		}
		if (!skip)
			*out++ = ch;
		if (depth == 0) {
			*ip = i;
			return container_done(st, out);
		}
	}
	st->cur.bytes.len = (size_t)(out - base);
	st->in_str = in_str;
	st->esc = esc;
	st->skip = skip;
	st->eks = ks;
	st->edepth = depth;
	*ip = i;
	return 0;
}

/* Inside a string or scalar element. */
static int
scan_other(struct sq_sj_stream *st, const char *p, size_t n, size_t *ip)
{
	size_t i = *ip;

	while (i < n) {
		char ch = p[i];

		if (st->ekind == 's') {
			if (is_ws(ch) || strchr(",]}[{\":", ch) != NULL) {
				*ip = i; /* the byte is read again after */
				return elem_done(st);
			}
		} else if (st->esc) {
			st->esc = 0;
		} else if (ch == '\\') {
			st->esc = 1;
		} else if (ch == '"') {
			st->cur.bytes.p[st->cur.bytes.len++] = ch;
			*ip = i + 1;
			return elem_done(st);
		}
		st->cur.bytes.p[st->cur.bytes.len++] = ch;
		i++;
	}
	*ip = i;
	return 0;
}

int
sq_slurmjson_stream_feed(struct sq_sj_stream *st, const char *p, size_t n,
			 struct sq_err *err)
{
	size_t i = 0;

	if (st->failed || efailed(st))
		goto failed;
	st->feed_left = n;
	/* what is kept whole (the envelope, all of a kind without a
	 * per-element mapper, the element being read) is bounded; the
	 * bytes of the list that go by are not: a queue of any length */
	if (n > st->limit || st->env.len > st->limit - n ||
	    (st->mode == M_ARR_ELEM &&
	     st->cur.bytes.len - st->elem_off > st->limit - n)) {
		st->failed = 1;
		sq_err_set(&st->fatal, SQ_ERR_PARSE,
			   "JSON answer too large: more than %zu bytes of %s "
			   "to keep whole at byte %zu",
			   st->limit,
			   st->mode == M_ARR_ELEM ? "one list element"
						  : "the answer",
			   st->total);
		goto failed;
	}
	if (sbuf_room(&st->env, n) == -1 ||
	    (st->mode != M_RAW && sbuf_room(&st->cur.bytes, n) == -1)) {
		out_of_memory(st);
		goto failed;
	}
	while (i < n) {
		char ch = p[i];

		switch (st->mode) {
		case M_RAW:
			memcpy(st->env.p + st->env.len, p + i, n - i);
			st->env.len += n - i;
			i = n;
			break;
		case M_ENV:
			i++;
			if (env_byte(st, ch) == 1)
				st->mode = M_ARR_FIRST;
			if (st->failed)
				goto failed;
			break;
		case M_ARR_FIRST:
		case M_ARR_NEXT:
		case M_ARR_AFTER:
			i++;
			if (is_ws(ch))
				break;
			if (ch == ']') {
				/* the list ends (json-c allows "[1,]"):
				 * back to the envelope */
				st->gap_at = st->env.len;
				st->gap_len = st->total + i - 1 - st->env.len;
				st->env.p[st->env.len++] = ']';
				st->depth--;
				st->ks = KS_NONE;
				st->mode = M_ENV;
				break;
			}
			if (st->mode == M_ARR_AFTER) {
				if (ch != ',') {
					malformed(st, st->total + i - 1,
						  "',' or ']' expected after "
						  "a list element");
					goto failed;
				}
				st->mode = M_ARR_NEXT;
				break;
			}
			if (ch == ',' || ch == ':' || ch == '}') {
				malformed(st, st->total + i - 1,
					  "a list element expected");
				goto failed;
			}
			/* an element starts */
			st->mode = M_ARR_ELEM;
			st->elem_start = st->total + i - 1;
			st->elem_off = st->cur.bytes.len;
			st->cur.bytes.p[st->cur.bytes.len++] = ch;
			st->in_str = ch == '"';
			st->esc = 0;
			st->edepth = ch == '{' || ch == '[';
			st->ekind = st->edepth ? '{' : ch == '"' ? '"' : 's';
			st->eks = ch == '{' ? KS_WANT_KEY : KS_NONE;
			st->skip = 0;
			break;
		case M_ARR_ELEM:
			if ((st->ekind == '{' ? scan_container(st, p, n, &i)
					      : scan_other(st, p, n, &i)) == -1)
				goto failed;
			break;
		}
	}
	st->total += n;
	return 0;
failed:
	st->failed = 1;
	*err = efailed(st) ? st->efatal : st->fatal;
	return -1;
}

void
sq_slurmjson_stream_limit(struct sq_sj_stream *st, size_t bytes)
{
	st->limit = bytes < (size_t)INT_MAX ? bytes : (size_t)INT_MAX;
}

void
sq_slurmjson_stream_batch(struct sq_sj_stream *st, size_t bytes)
{
	st->batch_bytes = bytes > 0 ? bytes : BATCH_BYTES;
}

int
sq_slurmjson_stream_end(struct sq_sj_stream *st, struct sq_err *err)
{
	struct sq_sj_gap gap;
	json_object *root, *list;
	int rc = -1;

	/* the elements' errors first: they stand before the scanner's */
	pipe_finish(st);
	if (efailed(st)) {
		*err = st->efatal;
		return -1;
	}
	if (st->failed) {
		*err = st->fatal;
		return -1;
	}
	if (st->total > 0 && st->mode >= M_ARR_FIRST)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "truncated JSON answer (%zu bytes)",
				  st->total);
	gap.at = st->intercepted ? st->gap_at : st->env.len;
	gap.len = st->intercepted ? st->gap_len : 0;
	gap.total = st->total;
	root = sq_sj_parse_body(st->env.p, st->env.len, &gap, err);
	if (root == NULL)
		return -1;
	if (sq_sj_read_envelope(root, st->info, err) == -1)
		goto out;
	st->c.api = st->info->api;
	if (!st->intercepted) {
		/* no list scanned (none, not a list, or a name written
		 * with escapes): the whole-body path reads the envelope */
		rc = sq_sj_map_root(st->kind, &st->c, root, err);
		goto out;
	}
	if (st->map_failed) {
		*err = st->map_err;
		goto out;
	}
	/* the scanned list is "[]" in the envelope, unless a second
	 * member of the same name replaced it */
	list = sq_sj_get(root, st->key);
	if (list == NULL || !json_object_is_type(list, json_type_array) ||
	    json_object_array_length(list) != 0) {
		sq_err_set(err, SQ_ERR_PARSE,
			   "malformed JSON answer: '%s' twice", st->key);
		goto out;
	}
	if (st->c.s->nrows == 0 && sq_sj_unchanged(st->info)) {
		st->info->unchanged = 1;
		rc = 0;
		goto out;
	}
	/* history: efficiency and summaries once every run is in */
	rc =
	    st->kind == SQ_KIND_HISTORY ? sq_sj_history_finish(&st->c, err) : 0;
out:
	json_object_put(root);
	return rc;
}

/* One whole body through the stream: what sq_slurmjson_parse does for
 * the kinds with a per-element mapper. */
int
sq_sj_stream_whole(enum sq_kind kind, const char *body, size_t len, time_t now,
		   struct sq_snapshot *s, struct sq_sj_info *info,
		   struct sq_err *err)
{
	struct sq_sj_stream *st;
	int rc;

	if (body == NULL || len == 0) {
		if (info != NULL)
			sq_sj_info_init(info);
		return sq_err_set(err, SQ_ERR_PARSE,
				  "empty answer where JSON was expected");
	}
	if (len > SQ_SJ_MAX_BODY || len > (size_t)INT_MAX) {
		if (info != NULL)
			sq_sj_info_init(info);
		return sq_err_set(err, SQ_ERR_PARSE,
				  "JSON answer too large (%zu bytes)", len);
	}
	st = sq_slurmjson_stream_new(kind, now, s, info, err);
	if (st == NULL)
		return -1;
	rc = sq_slurmjson_stream_feed(st, body, len, err);
	if (rc == 0)
		rc = sq_slurmjson_stream_end(st, err);
	sq_slurmjson_stream_free(st);
	return rc;
}
