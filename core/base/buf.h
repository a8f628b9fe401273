/*
 * buf.h - a growable byte buffer with an optional size cap, used for
 * command output and HTTP bodies. Always NUL-terminated after data.
 */
#ifndef SQ_BUF_H
#define SQ_BUF_H

#include <stddef.h>

struct sq_buf {
	char *data; /* NUL-terminated; NULL until the first append */
	size_t len;
	size_t cap;
	size_t limit;  /* 0 = no limit; appends past it fail */
	int truncated; /* set when an append hit the limit */
	/* told after every append that kept all its bytes (NULL: nobody):
	 * a command's output parsed as it arrives (backends/cli/stream.c);
	 * it may write into data[0..len) but not append */
	void (*watch)(struct sq_buf *b, void *arg);
	void *watch_arg;
};

/* Initialise an empty buffer that refuses to grow past limit (0: none). */
void sq_buf_init(struct sq_buf *b, size_t limit);
/* Append n bytes; returns -1 (and sets truncated) past the limit or on ENOMEM.
 */
int sq_buf_append(struct sq_buf *b, const void *p, size_t n);
/* Append a printf-formatted string. */
int sq_buf_printf(struct sq_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Empty the buffer, keeping its memory. */
void sq_buf_reset(struct sq_buf *b);
/* Release the memory; the buffer may be reused after sq_buf_init. */
void sq_buf_free(struct sq_buf *b);
/* Data as a C string ("" when empty). */
const char *sq_buf_str(const struct sq_buf *b);

#endif
