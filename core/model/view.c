/*
 * view.c - small helpers for column functions and views (the registry of
 * views, sq_views[], is view_registry.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/view.h"

const struct sq_column *
sq_view_column(const struct sq_view_def *v, const char *id)
{
	size_t i;

	for (i = 0; i < v->ncols; i++) {
		if (strcmp(v->cols[i].id, id) == 0)
			return &v->cols[i];
	}
	return NULL;
}

static int
col_pos(const struct sq_view_def *v, const char *id, size_t len)
{
	size_t i;

	for (i = 0; i < v->ncols; i++) {
		if (strlen(v->cols[i].id) == len &&
		    strncmp(v->cols[i].id, id, len) == 0)
			return (int)i;
	}
	return -1;
}

int
sq_view_layout(const struct sq_view_def *v, int *idx, int *prio, int max)
{
	const char *s = v->layout;
	int n = 0;
	size_t i;

	while (s != NULL && *s != '\0' && n < max) {
		size_t len = strcspn(s, ":,");
		int c = col_pos(v, s, len), p = 5;

		s += len;
		if (*s == ':') {
			p = atoi(s + 1);
			s += strcspn(s, ",");
		}
		if (*s == ',')
			s++;
		if (c >= 0) {
			idx[n] = c;
			prio[n++] = p;
		}
	}
	if (n > 0)
		return n;
	for (i = 0; i < v->ncols && n < max; i++) {
		if (!(v->cols[i].flags & SQ_COL_HIDDEN)) {
			idx[n] = (int)i;
			prio[n] = n + 1;
			n++;
		}
	}
	return n;
}

int
sq_view_in_layout(const struct sq_view_def *v, size_t i)
{
	int idx[128], prio[128], n = sq_view_layout(v, idx, prio, 128), k;

	for (k = 0; k < n; k++) {
		if (idx[k] == (int)i)
			return 1;
	}
	return 0;
}

const char *
sq_col_int(long long v, char *buf, size_t n)
{
	if (v == SQ_NONE)
		return NULL;
	if (v == SQ_INFINITE)
		return "UNLIMITED";
	/* by hand: snprintf's cost shows at 100,000 rows (filter text,
	 * sort keys); the same digits as "%lld" */
	if (v >= 0 && n >= 21) {
		char tmp[21];
		size_t k = sizeof(tmp), i = 0;
		unsigned long long u = (unsigned long long)v;

		do {
			tmp[--k] = (char)('0' + u % 10);
			u /= 10;
		} while (u != 0);
		while (k < sizeof(tmp))
			buf[i++] = tmp[k++];
		buf[i] = '\0';
		return buf;
	}
	snprintf(buf, n, "%lld", v);
	return buf;
}

const char *
sq_col_str(const char *s)
{
	return s != NULL && *s != '\0' ? s : NULL;
}
