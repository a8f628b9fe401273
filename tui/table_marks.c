/*
 * table_marks.c - the rows a user marked, by row id (sq_table_id): tagged
 * rows (the targets of an action) and folded groups, each a sorted set of
 * ids that survives refreshes and re-sorts. UI thread only.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/table.h"
#include "tui/table_int.h"

static void
free_strings(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
sq_table_marks_free(struct sq_table *t)
{
	free_strings(t->tags, t->ntags);
	free_strings(t->folds, t->nfolds);
}

static long
set_find(char **v, size_t n, const char *id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(v[mid], id);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1 - (long)lo;
}

static void
set_put(char ***v, size_t *n, size_t *cap, const char *id, int on)
{
	long i = set_find(*v, *n, id);

	if (on && i < 0) {
		size_t at = (size_t)(-1 - i);
		char *dup = strdup(id);

		if (dup == NULL)
			return;
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 16;
			char **p = realloc(*v, nc * sizeof(**v));

			if (p == NULL) {
				free(dup);
				return;
			}
			*v = p;
			*cap = nc;
		}
		memmove(*v + at + 1, *v + at, (*n - at) * sizeof(**v));
		(*v)[at] = dup;
		(*n)++;
	} else if (!on && i >= 0) {
		free((*v)[i]);
		memmove(*v + i, *v + i + 1, (*n - (size_t)i - 1) * sizeof(**v));
		(*n)--;
	}
}

int
sq_table_tagged(const struct sq_table *t, const char *id)
{
	return t->ntags > 0 && set_find(t->tags, t->ntags, id) >= 0;
}

void
sq_table_tag(struct sq_table *t, const char *id, int on)
{
	set_put(&t->tags, &t->ntags, &t->tcap, id, on);
}

void
sq_table_untag_all(struct sq_table *t)
{
	free_strings(t->tags, t->ntags);
	t->tags = NULL;
	t->ntags = t->tcap = 0;
}

int
sq_table_folded(const struct sq_table *t, const char *id)
{
	int flipped = t->nfolds > 0 && set_find(t->folds, t->nfolds, id) >= 0;

	return flipped ? !t->fold_default : t->fold_default;
}

void
sq_table_set_folded(struct sq_table *t, const char *id, int folded)
{
	set_put(&t->folds, &t->nfolds, &t->fcap, id, folded != t->fold_default);
}
