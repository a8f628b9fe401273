/*
 * name_index.c - a snapshot's rows by name while a parser adds them
 * (name_index.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/model/name_index.h"

static size_t
hash(const char *p)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return (size_t)h;
}

int
sq_name_index_init(struct sq_name_index *x, size_t rows, size_t name_off)
{
	size_t cap = 64;

	while (cap < 2 * rows + 2)
		cap *= 2;
	x->slot = calloc(cap, sizeof(*x->slot));
	x->mask = cap - 1;
	x->name_off = name_off;
	return x->slot != NULL && rows < UINT32_MAX ? 0 : -1;
}

void
sq_name_index_free(struct sq_name_index *x)
{
	free(x->slot);
	x->slot = NULL;
}

long
sq_name_index_find(const struct sq_name_index *x, const struct sq_snapshot *s,
		   const char *name, size_t *at)
{
	size_t i = hash(name) & x->mask;

	for (; x->slot[i] != 0; i = (i + 1) & x->mask) {
		const char *row = sq_snapshot_row(s, x->slot[i] - 1);
		const char *n = *(const char *const *)(row + x->name_off);

		if (strcmp(n, name) == 0) {
			*at = i;
			return (long)x->slot[i] - 1;
		}
	}
	*at = i;
	return -1;
}

int
sq_name_index_put(struct sq_name_index *x, size_t at, size_t row)
{
	if (row + 1 >= UINT32_MAX || x->slot[at] != 0)
		return -1;
	x->slot[at] = (uint32_t)(row + 1);
	return 0;
}
