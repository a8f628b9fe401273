/*
 * strtab.h - string interning for parsers: equal strings of a field with
 * few distinct values (user, partition, state, reason ...) are stored
 * once in a snapshot's arena and shared by every row. The table itself is
 * the parser's scratch: it is freed when the parse ends, the strings stay.
 * Not thread-safe (one parser, one table).
 */
#ifndef SQ_STRTAB_H
#define SQ_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/arena.h"

struct sq_strtab_slot;

struct sq_strtab {
	struct sq_arena *arena; /* where new strings go */
	struct sq_strtab_slot *slots;
	size_t cap, used; /* cap: a power of two, or 0 */
	size_t max;       /* distinct strings kept; beyond, plain copies */
};

/* Intern into arena, keeping at most max distinct strings (0: 65536). */
void sq_strtab_init(struct sq_strtab *t, struct sq_arena *arena, size_t max);
void sq_strtab_free(struct sq_strtab *t);

/*
 * The arena copy of the n bytes at p, shared with earlier equal ones.
 * "" for n == 0; "" when out of memory (like sq_snapshot_strn).
 */
const char *sq_strtab_get(struct sq_strtab *t, const char *p, size_t n);
/* Ask the cache for the slot of the n bytes at p, to be looked up a
 * little later (a table bigger than the cache: a miss each lookup). */
void sq_strtab_prefetch(const struct sq_strtab *t, const char *p, size_t n);
/* Same for a NUL-terminated string. */
const char *sq_strtab_str(struct sq_strtab *t, const char *p);

#endif
