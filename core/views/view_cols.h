/*
 * view_cols.h - macros that generate the small accessor functions of a
 * view's columns (text and numeric value of one record field). Included
 * by the view_*.c files only.
 */
#ifndef SQ_VIEW_COLS_H
#define SQ_VIEW_COLS_H

#include "core/model/view.h"

/* A string field: fn_NAME returns the field or NULL when empty. */
#define SQ_STR_FIELD(name, type, expr)                                         \
	static __attribute__((unused)) const char *name(const void *rec_,      \
							char *buf, size_t n)   \
	{                                                                      \
		const type *r = rec_;                                          \
		(void)buf;                                                     \
		(void)n;                                                       \
		return sq_col_str(expr);                                       \
	}

/* An integer field: name() prints it, name##_num() gives its value. */
#define SQ_INT_FIELD(name, type, expr)                                         \
	static int name##_num(const void *rec_, long long *v)                  \
	{                                                                      \
		const type *r = rec_;                                          \
		*v = (long long)(expr);                                        \
		return 0;                                                      \
	}                                                                      \
	static __attribute__((unused)) const char *name(const void *rec_,      \
							char *buf, size_t n)   \
	{                                                                      \
		long long v;                                                   \
		name##_num(rec_, &v);                                          \
		return sq_col_int(v, buf, n);                                  \
	}

#endif
