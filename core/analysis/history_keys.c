/*
 * history_keys.c - the distinct keys of a history summary's scope (users,
 * accounts, node names), numbered as first seen (history_keys.h): a hash
 * of the strings, a pointer cache in front (the parsers share one copy of
 * each user and account).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/history_keys.h"

static uint32_t
str_hash(const char *p)
{
	uint32_t h = 2166136261u;

	for (; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

/* The slot of k in slot[0..cap) (a power of two). */
static size_t
slot_of(const uint32_t *slot, size_t cap, const char *const *gk, const char *k)
{
	size_t j = str_hash(k) & (cap - 1);

	while (slot[j] != 0 && gk[slot[j] - 1] != k &&
	       strcmp(gk[slot[j] - 1], k) != 0)
		j = (j + 1) & (cap - 1);
	return j;
}

/* Room for one more key; -1 on ENOMEM. */
static int
groups_grow(struct sq_hist_keys *g)
{
	size_t i;

	if (g->n == g->cap) {
		size_t nc = g->cap ? 2 * g->cap : 256;
		const char **p = realloc(g->k, nc * sizeof(*p));

		if (p == NULL)
			return -1;
		g->k = p;
		g->cap = nc;
	}
	if (2 * (g->n + 1) > g->scap) {
		size_t nc = g->scap ? 2 * g->scap : 1024;
		uint32_t *ns = calloc(nc, sizeof(*ns));

		if (ns == NULL)
			return -1;
		free(g->slot);
		g->slot = ns;
		g->scap = nc;
		for (i = 0; i < g->n; i++)
			ns[slot_of(ns, nc, g->k, g->k[i])] = (uint32_t)i + 1;
	}
	return 0;
}

/* The id of key k (a new one for a string not seen); -1 on ENOMEM. */
int64_t
sq_hist_keys_id(struct sq_hist_keys *g, const char *k)
{
	size_t c = (size_t)(((uintptr_t)k * 0x9e3779b97f4a7c15u) >> 40) &
		   (SQ_HIST_KEYS_CACHE - 1),
	       j;

	if (g->pk[c] == k)
		return g->pg[c];
	j = g->scap ? slot_of(g->slot, g->scap, g->k, k) : 0;
	if (g->scap == 0 || g->slot[j] == 0) {
		if (groups_grow(g) == -1)
			return -1;
		j = slot_of(g->slot, g->scap, g->k, k);
		g->k[g->n] = k;
		g->slot[j] = (uint32_t)++g->n;
	}
	g->pk[c] = k;
	g->pg[c] = g->slot[j] - 1;
	return g->pg[c];
}

void
sq_hist_keys_free(struct sq_hist_keys *g)
{
	free(g->k);
	free(g->slot);
}
