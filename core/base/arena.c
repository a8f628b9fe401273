/*
 * arena.c - bump allocator. Blocks of 64 KiB (or larger for big requests)
 * chained in a list; no per-string malloc.
 */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/arena.h"

#define SQ_ARENA_BLOCK (64 * 1024)

struct sq_arena_block {
	struct sq_arena_block *next;
	size_t size;
	size_t off;
	alignas(max_align_t) unsigned char data[];
};

void
sq_arena_init(struct sq_arena *a)
{
	memset(a, 0, sizeof(*a));
}

void
sq_arena_free(struct sq_arena *a)
{
	struct sq_arena_block *b, *next;

	for (b = a->head; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	memset(a, 0, sizeof(*a));
}

static void *
arena_alloc(struct sq_arena *a, size_t n, size_t align)
{
	struct sq_arena_block *b = a->head;
	size_t off, size;

	if (b != NULL) {
		off = (b->off + align - 1) & ~(align - 1);
		if (off + n <= b->size) {
			b->off = off + n;
			a->used += n;
			return b->data + off;
		}
	}
	size = n > SQ_ARENA_BLOCK / 4 ? n : SQ_ARENA_BLOCK;
	b = malloc(sizeof(*b) + size);
	if (b == NULL)
		return NULL;
	b->size = size;
	b->off = n;
	if (size == n && a->head != NULL) {
		/* a big one-off: keep filling the current block afterwards */
		b->next = a->head->next;
		a->head->next = b;
	} else {
		b->next = a->head;
		a->head = b;
	}
	a->used += n;
	a->reserved += sizeof(*b) + size;
	return b->data;
}

void *
sq_arena_alloc(struct sq_arena *a, size_t n)
{
	return arena_alloc(a, n, alignof(max_align_t));
}

char *
sq_arena_strndup(struct sq_arena *a, const char *s, size_t n)
{
	char *p;

	if (s == NULL)
		return NULL;
	p = arena_alloc(a, n + 1, 1);
	if (p == NULL)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
sq_arena_strdup(struct sq_arena *a, const char *s)
{
	if (s == NULL)
		return NULL;
	return sq_arena_strndup(a, s, strlen(s));
}

void
sq_arena_adopt(struct sq_arena *dst, struct sq_arena *src)
{
	struct sq_arena_block *b = src->head;

	if (b == NULL)
		return;
	/* after dst's current block, which keeps filling */
	while (b->next != NULL)
		b = b->next;
	if (dst->head == NULL) {
		dst->head = src->head;
	} else {
		b->next = dst->head->next;
		dst->head->next = src->head;
	}
	dst->used += src->used;
	dst->reserved += src->reserved;
	memset(src, 0, sizeof(*src));
}
