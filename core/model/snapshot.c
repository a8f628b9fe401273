/*
 * snapshot.c - reference-counted snapshots. Rows grow by doubling one
 * array; strings go to the arena; the count is updated atomically so the
 * UI and the worker can share a snapshot without a lock.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/model.h"
#include "core/model/snapshot.h"

/* the last serial handed out */
static uint64_t serials;

struct sq_snapshot *
sq_snapshot_new(enum sq_kind kind, size_t rowsize)
{
	struct sq_snapshot *s;

	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->kind = kind;
	s->refs = 1;
	s->rowsize = rowsize ? rowsize : sq_kind_rowsize(kind);
	s->fetched = time(NULL);
	s->source = "";
	s->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	sq_arena_init(&s->arena);
	return s;
}

void *
sq_snapshot_add(struct sq_snapshot *s)
{
	void *row;

	if (s->nrows == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		void *p = realloc(s->rows, ncap * s->rowsize);

		if (p == NULL)
			return NULL;
		s->rows = p;
		s->cap = ncap;
	}
	row = (char *)s->rows + s->nrows * s->rowsize;
	memset(row, 0, s->rowsize);
	s->nrows++;
	return row;
}

int
sq_snapshot_reserve(struct sq_snapshot *s, size_t n)
{
	void *p;

	if (n == 0 || s->cap - s->nrows >= n)
		return 0;
	if (n > SIZE_MAX / s->rowsize - s->nrows)
		return -1;
	p = realloc(s->rows, (s->nrows + n) * s->rowsize);
	if (p == NULL)
		return -1;
	s->rows = p;
	s->cap = s->nrows + n;
	return 0;
}

int
sq_snapshot_append(struct sq_snapshot *dst, struct sq_snapshot *src)
{
	assert(dst->rowsize == src->rowsize);
	if (src->nrows > 0) {
		if (sq_snapshot_reserve(dst, src->nrows) == -1)
			return -1;
		memcpy((char *)dst->rows + dst->nrows * dst->rowsize, src->rows,
		       src->nrows * src->rowsize);
		dst->nrows += src->nrows;
	}
	sq_arena_adopt(&dst->arena, &src->arena);
	return 0;
}

void
sq_snapshot_fit(struct sq_snapshot *s)
{
	void *p;

	if (s->base != NULL || s->nrows == s->cap || s->nrows == 0)
		return;
	p = realloc(s->rows, s->nrows * s->rowsize);
	if (p != NULL) {
		s->rows = p;
		s->cap = s->nrows;
	}
}

void *
sq_snapshot_row(const struct sq_snapshot *s, size_t i)
{
	assert(i < s->nrows);
	return (char *)s->rows + i * s->rowsize;
}

struct sq_snapshot *
sq_snapshot_ref(struct sq_snapshot *s)
{
	if (s != NULL)
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	return s;
}

void
sq_snapshot_unref(struct sq_snapshot *s)
{
	if (s == NULL)
		return;
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	sq_snapshot_unref(s->dep);
	sq_snapshot_unref(s->dep_gpu);
	sq_arena_free(&s->arena);
	if (s->base == NULL)
		free(s->rows);
	sq_snapshot_unref(s->base);
	free(s);
}

const char *
sq_snapshot_strn(struct sq_snapshot *s, const char *p, size_t n)
{
	const char *r;

	if (p == NULL || n == 0)
		return "";
	r = sq_arena_strndup(&s->arena, p, n);
	return r != NULL ? r : "";
}

const char *
sq_snapshot_str(struct sq_snapshot *s, const char *p)
{
	if (p == NULL)
		return "";
	return sq_snapshot_strn(s, p, strlen(p));
}

const struct sq_job_more *
sq_snapshot_job_more(struct sq_snapshot *s, const char *tres_alloc,
		     const char *prio_by_part, int32_t restart_cnt)
{
	struct sq_job_more *m;

	if (tres_alloc == NULL && prio_by_part == NULL && restart_cnt == 0)
		return NULL;
	if (tres_alloc != NULL && *tres_alloc == '\0' && prio_by_part != NULL &&
	    *prio_by_part == '\0' && restart_cnt == 0)
		return &sq_job_more_none;
	m = sq_arena_alloc(&s->arena, sizeof(*m));
	if (m == NULL)
		return &sq_job_more_none;
	m->tres_alloc = tres_alloc;
	m->prio_by_part = prio_by_part;
	m->restart_cnt = restart_cnt;
	m->gpu = NULL;
	m->gpu_note = NULL;
	return m;
}

struct sq_snapshot *
sq_snapshot_slice(struct sq_snapshot *base, size_t first, size_t n)
{
	struct sq_snapshot *s = sq_snapshot_new(base->kind, base->rowsize);

	if (s == NULL)
		return NULL;
	assert(first <= base->nrows && n <= base->nrows - first);
	s->base = sq_snapshot_ref(base);
	s->rows = (char *)base->rows + first * base->rowsize;
	s->nrows = s->cap = n;
	s->fetched = base->fetched;
	s->fetch_ms = base->fetch_ms;
	s->source = base->source;
	s->note = base->note;
	return s;
}

size_t
sq_snapshot_bytes(const struct sq_snapshot *s)
{
	if (s->base != NULL)
		return sizeof(*s) + s->arena.reserved;
	return sizeof(*s) + s->cap * s->rowsize + s->arena.reserved;
}
