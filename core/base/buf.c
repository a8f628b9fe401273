/*
 * buf.c - growable byte buffer. Grows geometrically; never writes past
 * the caller's limit, so a runaway command cannot exhaust memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/buf.h"

void
sq_buf_init(struct sq_buf *b, size_t limit)
{
	memset(b, 0, sizeof(*b));
	b->limit = limit;
}

static int
grow(struct sq_buf *b, size_t need)
{
	size_t ncap;
	char *p;

	if (need + 1 <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 256;
	while (ncap < need + 1)
		ncap *= 2;
	p = realloc(b->data, ncap);
	if (p == NULL)
		return -1;
	b->data = p;
	b->cap = ncap;
	return 0;
}

int
sq_buf_append(struct sq_buf *b, const void *p, size_t n)
{
	if (b->limit != 0 && b->len + n > b->limit) {
		b->truncated = 1;
		n = b->limit - b->len;
		if (n == 0)
			return -1;
		if (grow(b, b->len + n) == -1)
			return -1;
		memcpy(b->data + b->len, p, n);
		b->len += n;
		b->data[b->len] = '\0';
		return -1;
	}
	if (grow(b, b->len + n) == -1)
		return -1;
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	if (b->watch != NULL && n > 0)
		b->watch(b, b->watch_arg);
	return 0;
}

int
sq_buf_printf(struct sq_buf *b, const char *fmt, ...)
{
	va_list ap;
	char small[256], *big;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof(small))
		return sq_buf_append(b, small, (size_t)n);
	big = malloc((size_t)n + 1);
	if (big == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	rc = sq_buf_append(b, big, (size_t)n);
	free(big);
	return rc;
}

void
sq_buf_reset(struct sq_buf *b)
{
	b->len = 0;
	b->truncated = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

void
sq_buf_free(struct sq_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->truncated = 0;
}

const char *
sq_buf_str(const struct sq_buf *b)
{
	return b->data != NULL ? b->data : "";
}
