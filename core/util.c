/*
 * util.c - the monotonic clock in milliseconds and the cutting string
 * copy (see util.h).
 */
#include <string.h>
#include <time.h>

#include "core/util.h"

double
sq_util_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void
sq_util_copy(char *d, size_t n, const char *s)
{
	size_t l;

	if (n == 0)
		return;
	if (s == NULL)
		s = "";
	l = strlen(s);
	if (l >= n)
		l = n - 1;
	memcpy(d, s, l);
	d[l] = '\0';
}
