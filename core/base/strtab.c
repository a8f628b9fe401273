/*
 * strtab.c - string interning: an open-addressing hash table of arena
 * strings (a hash of eight bytes at a time, linear probing, grown at 1/2
 * full; a string's first eight bytes kept in its slot). Strings never
 * move and are never freed here: they belong to the arena.
 */
#include <stdlib.h>
#include <string.h>

#include "core/base/strtab.h"

struct sq_strtab_slot {
	const char *s; /* NULL: empty slot */
	uint32_t hash;
	uint32_t len;
	uint64_t head; /* key8 of the string: one of eight bytes or less is
			* compared here, not in the arena (a cache miss) */
};

void
sq_strtab_init(struct sq_strtab *t, struct sq_arena *arena, size_t max)
{
	memset(t, 0, sizeof(*t));
	t->arena = arena;
	t->max = max ? max : 65536;
}

void
sq_strtab_free(struct sq_strtab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = t->used = 0;
}

/*
 * The n bytes at p as one word, for n <= 8 all of them and only them,
 * read within the n bytes: whole for 8, two overlapping halves for 4-7,
 * three bytes for 1-3 (n itself tells the ways apart: the slot keeps
 * it); for longer strings their first eight.
 */
static uint64_t
key8(const char *p, size_t n)
{
	uint64_t w = 0;
	uint32_t a, b;

	if (n >= 8) {
		memcpy(&w, p, 8);
	} else if (n >= 4) {
		memcpy(&a, p, 4);
		memcpy(&b, p + n - 4, 4);
		w = (uint64_t)a << 32 | b;
	} else if (n > 0) {
		w = (uint64_t)(unsigned char)p[0] << 16 |
		    (uint64_t)(unsigned char)p[n / 2] << 8 |
		    (unsigned char)p[n - 1];
	}
	return w;
}

/*
 * A hash of the n bytes at p, eight at a time (a byte at a time was a
 * tenth of a big accounting parse's interning): the words before the
 * last up to eight bytes, then those (key8 of them); n mixed in first.
 */
static uint32_t
hash(const char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;

	for (; n > 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9u;
		h ^= h >> 29;
	}
	h = (h ^ key8(p, n)) * 0x94d049bb133111ebu;
	return (uint32_t)(h ^ h >> 32);
}

static int
grow(struct sq_strtab *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 256, i;
	struct sq_strtab_slot *ns = calloc(ncap, sizeof(*ns));

	if (ns == NULL)
		return -1;
	for (i = 0; i < t->cap; i++) {
		size_t k;

		if (t->slots[i].s == NULL)
			continue;
		for (k = t->slots[i].hash & (ncap - 1); ns[k].s != NULL;
		     k = (k + 1) & (ncap - 1))
			;
		ns[k] = t->slots[i];
	}
	free(t->slots);
	t->slots = ns;
	t->cap = ncap;
	return 0;
}

const char *
sq_strtab_get(struct sq_strtab *t, const char *p, size_t n)
{
	uint32_t h;
	uint64_t w;
	size_t k;
	const char *s;

	if (p == NULL || n == 0)
		return "";
	if (n > UINT32_MAX)
		goto copy;
	h = hash(p, n);
	w = key8(p, n);
	if (t->cap > 0) {
		for (k = h & (t->cap - 1); t->slots[k].s != NULL;
		     k = (k + 1) & (t->cap - 1)) {
			const struct sq_strtab_slot *e = &t->slots[k];

			if (e->hash == h && e->len == n && e->head == w &&
			    (n <= 8 || memcmp(e->s + 8, p + 8, n - 8) == 0))
				return e->s;
		}
	}
	/* new: remember it while there is room */
	if (t->used >= t->max || ((t->used + 1) * 2 > t->cap && grow(t) == -1))
		goto copy;
	s = sq_arena_strndup(t->arena, p, n);
	if (s == NULL)
		return "";
	for (k = h & (t->cap - 1); t->slots[k].s != NULL;
	     k = (k + 1) & (t->cap - 1))
		;
	t->slots[k].s = s;
	t->slots[k].hash = h;
	t->slots[k].len = (uint32_t)n;
	t->slots[k].head = w;
	t->used++;
	return s;
copy:
	s = sq_arena_strndup(t->arena, p, n);
	return s != NULL ? s : "";
}

void
sq_strtab_prefetch(const struct sq_strtab *t, const char *p, size_t n)
{
	if (t->cap > 0 && n > 0 && n <= UINT32_MAX)
		__builtin_prefetch(&t->slots[hash(p, n) & (t->cap - 1)]);
}

const char *
sq_strtab_str(struct sq_strtab *t, const char *p)
{
	return p == NULL ? "" : sq_strtab_get(t, p, strlen(p));
}
