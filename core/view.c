/*
 * view.c - small helpers for column functions and views (the registry of
 * views, sq_views[], is view_registry.c).
 */
#include <stdio.h>
#include <string.h>

#include "core/view.h"

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
