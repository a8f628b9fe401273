/*
 * util.h - two small helpers every layer uses: a monotonic clock in
 * milliseconds (how long a fetch or an action took, deadlines) and a
 * string copy that cuts at the destination's size.
 */
#ifndef SQ_UTIL_H
#define SQ_UTIL_H

#include <stddef.h>

/* Milliseconds of CLOCK_MONOTONIC: for durations and deadlines only. */
double sq_util_now_ms(void);

/* Copy s into d (n bytes, always NUL-terminated when n > 0), cut when it
 * does not fit; a NULL s copies "". */
void sq_util_copy(char *d, size_t n, const char *s);

#endif
