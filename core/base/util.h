/*
 * util.h - small helpers every layer uses: a monotonic clock in
 * milliseconds (how long a fetch or an action took, deadlines), a string
 * copy that cuts at the destination's size, and the private directories
 * a file of ours is written in (the audit log, the config), the copy of
 * a setting threads share, a helper thread's start, and the advice that
 * a big block of rows be mapped in huge pages.
 */
#ifndef SQ_UTIL_H
#define SQ_UTIL_H

#include <pthread.h>
#include <stddef.h>

/* Milliseconds of CLOCK_MONOTONIC: for durations and deadlines only. */
double sq_util_now_ms(void);

/* Copy s into d (n bytes, always NUL-terminated when n > 0), cut when it
 * does not fit; a NULL s copies "". */
void sq_util_copy(char *d, size_t n, const char *s);

/* Keep the elements of v (n of size bytes) whose keep[i] is set, in
 * order, at the front; drop(element) frees each other one (NULL: none);
 * the slots after them are zeroed. The number kept. */
size_t sq_util_keep(void *v, size_t n, size_t size, const unsigned char *keep,
		    void (*drop)(void *elem));

/* mkdir -p of the directory part of path (a file's path): directories
 * made here are 0700, those already there are left as they are. 0, or
 * -1 with errno set and the directory that failed in dir (n bytes). */
int sq_util_mkdir_parents(const char *path, char *dir, size_t n);

/* memcpy of n bytes under the one lock of the settings the UI thread sets
 * and the workers read (the flap, GPU use, completing-stuck and RPC share
 * thresholds): set copies the new value in, get copies it out. */
void sq_util_setting_copy(void *dst, const void *src, size_t n);

/* pthread_create with every signal blocked in the new thread (signals
 * are the UI thread's, or batch mode's main thread's). 0, or -1 when it
 * cannot start (the caller then does the work itself). */
int sq_util_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

/* Ask the kernel to back the whole 2 MiB pages inside [p, p + n) with
 * huge pages (madvise MADV_HUGEPAGE, where transparent huge pages are
 * "madvise"): a big snapshot's rows are written once, fresh, and a
 * fault per 4 KiB page cost more than the parse (some 0.5 ms a MiB
 * here, against 0.1 in huge pages). Blocks under 4 MiB are left alone;
 * where the system has no such advice, nothing is done. */
void sq_util_huge(void *p, size_t n);

#endif
