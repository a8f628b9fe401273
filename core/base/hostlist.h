/*
 * hostlist.h - Slurm host lists ("n[1-4],gpu-[01-03,7],login1"): expand
 * one into names, test membership, and fold names back into the short
 * form. Pure functions over strings; nothing here talks to a cluster.
 */
#ifndef SQ_HOSTLIST_H
#define SQ_HOSTLIST_H

#include <stddef.h>

#include "core/base/buf.h"

/* Names a list may expand to before sq_hostlist_expand gives up. */
#define SQ_HOSTLIST_MAX 100000

/*
 * Call fn(arg, name) for every host of expr in order (duplicates kept).
 * Brackets may hold ranges and single numbers ("[01-03,7]"; the width of
 * the first bound is kept) and a name may have several bracket groups
 * ("r[1-2]n[1-3]"). Returns 0, -1 on a syntax error, a list longer than
 * SQ_HOSTLIST_MAX or a name over 255 bytes, or the first non-zero value
 * fn returned. "", "(null)" and "N/A" are empty lists.
 */
int sq_hostlist_expand(const char *expr, int (*fn)(void *arg, const char *name),
		       void *arg);

/* Number of hosts in expr, or -1 when it is malformed. */
long sq_hostlist_count(const char *expr);

/* Is name one of the hosts of expr? 0 also for a malformed expr. */
int sq_hostlist_contains(const char *expr, const char *name);

/*
 * A sorted, duplicate-free array of the hosts of expr, malloc'd (free
 * each name, then the array); *n is its length. Returns NULL with *n = 0
 * for an empty list; NULL with *n = (size_t)-1 on error or ENOMEM.
 */
char **sq_hostlist_names(const char *expr, size_t *n);
void sq_hostlist_free_names(char **names, size_t n);

/*
 * Append the short form of names to out: hosts that differ only in a
 * trailing number of the same width share a bracket ("n[1-4],gpu-[01-02]").
 * names need not be sorted; duplicates are dropped. -1 on ENOMEM.
 */
int sq_hostlist_fold(const char *const *names, size_t n, struct sq_buf *out);

/*
 * Compare two host lists as sets: 0 when equal, 1 when they differ, -1
 * when one is malformed.
 */
int sq_hostlist_cmp(const char *a, const char *b);

#endif
