/*
 * arena.h - bump allocator for the strings and rows of one snapshot.
 *
 * Everything allocated from an arena is freed at once by sq_arena_free.
 * Not thread-safe: an arena is filled by one thread (the worker) and only
 * read after the snapshot that owns it is published.
 */
#ifndef SQ_ARENA_H
#define SQ_ARENA_H

#include <stddef.h>

struct sq_arena_block;

struct sq_arena {
	struct sq_arena_block *head;
	size_t used;     /* bytes handed out, for memory statistics */
	size_t reserved; /* bytes obtained from malloc */
};

void sq_arena_init(struct sq_arena *a);
void sq_arena_free(struct sq_arena *a);
/* n bytes aligned for any type; NULL on ENOMEM. */
void *sq_arena_alloc(struct sq_arena *a, size_t n);
/* Copy of s (NULL gives NULL). */
char *sq_arena_strdup(struct sq_arena *a, const char *s);
/* Copy of the n bytes at s, NUL-terminated. */
char *sq_arena_strndup(struct sq_arena *a, const char *s, size_t n);
/* src's blocks moved into dst (what src handed out stays where it is,
 * now freed with dst); src is left empty. */
void sq_arena_adopt(struct sq_arena *dst, struct sq_arena *src);

#endif
