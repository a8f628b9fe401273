/*
 * sj_stream_int.h - the inside of a JSON stream (sj_stream.c), shared with
 * its parse thread (sj_pipe.c): the scanner's state, the batches of whole
 * elements it hands on, the queue and the thread that parses and maps
 * them. Not for other files.
 */
#ifndef SQ_SJ_STREAM_INT_H
#define SQ_SJ_STREAM_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/err.h"
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
struct sq_sj_buf {
	char *p;
	size_t len, cap;
};

/* Complete elements, one after another in bytes: where each one is in
 * bytes (off, len) and in the body (start, for messages). */
struct sq_sj_span {
	size_t off, len, start;
};

struct sq_sj_batch {
	struct sq_sj_buf bytes;
	struct sq_sj_span *span;
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
	struct sq_sj_buf env;
	struct sq_sj_batch cur; /* the scanner's batch; cur.bytes holds the
				 * element being read after the complete ones */
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
	struct sq_sj_batch slot[NSLOTS];
	size_t head, count; /* the batches waiting, from slot[head] */
	int done;           /* no more batches */
	atomic_int stop;    /* the stream is dropped: parse no more */
	atomic_int efailed;
	struct sq_err efatal;
};

/* Room for n more bytes (and two of slack) in b; -1: out of memory. */
int sq_sj_buf_room(struct sq_sj_buf *b, size_t n);
void sq_sj_batch_free(struct sq_sj_batch *b);
/* The stream fails: out of memory (-1). */
int sq_sj_stream_oom(struct sq_sj_stream *st);

/* sj_pipe.c, the scanner's side (the thread that feeds the stream): */
/* an element was malformed (st->efatal says where) */
int sq_sj_efailed(struct sq_sj_stream *st);
/* st->cur is full: to the parse thread (started with the first batch),
 * or parsed here; the scanner goes on in an empty batch with room for
 * st->feed_left bytes. -1 once an element was malformed. */
int sq_sj_hand_on(struct sq_sj_stream *st);
/* every element in: the last batch parsed, the thread joined */
void sq_sj_pipe_finish(struct sq_sj_stream *st);
/* the stream dropped before its end: the thread stops at once */
void sq_sj_pipe_stop(struct sq_sj_stream *st);

#endif
