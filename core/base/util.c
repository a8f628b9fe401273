/*
 * util.c - the monotonic clock in milliseconds, the cutting string copy
 * mkdir -p for our private directories, the settings' locked copy and
 * a helper thread's start (see util.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include "core/base/util.h"

double
sq_util_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

size_t
sq_util_keep(void *v, size_t n, size_t size, const unsigned char *keep,
	     void (*drop)(void *elem))
{
	char *base = v;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (!keep[i]) {
			if (drop != NULL)
				drop(base + i * size);
			continue;
		}
		if (k != i)
			memcpy(base + k * size, base + i * size, size);
		k++;
	}
	if (k < n)
		memset(base + k * size, 0, (n - k) * size);
	return k;
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

int
sq_util_mkdir_parents(const char *path, char *dir, size_t n)
{
	char *p;

	if (n == 0 || strlen(path) >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	sq_util_copy(dir, n, path);
	p = strrchr(dir, '/');
	if (p == NULL || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) == -1 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(dir, 0700) == -1 && errno != EEXIST)
		return -1;
	return 0;
}

static pthread_mutex_t setting_mu = PTHREAD_MUTEX_INITIALIZER;

void
sq_util_setting_copy(void *dst, const void *src, size_t n)
{
	pthread_mutex_lock(&setting_mu);
	memcpy(dst, src, n);
	pthread_mutex_unlock(&setting_mu);
}

int
sq_util_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc == 0 ? 0 : -1;
}

void
sq_util_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1),
		  e = ((uintptr_t)p + n) & ~(huge - 1);

	if (p == NULL || n < ((size_t)4 << 20) || e <= a)
		return;
	(void)madvise((void *)a, (size_t)(e - a), MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}
