/*
 * view_admin_cols.h - column accessor macros the admin views add to
 * view_cols.h: fractions (NAN = no value, "inf"), durations in seconds
 * shown as Slurm prints them, and epoch times shown as local ISO times.
 * Included by the admin view_*.c files only.
 */
#ifndef SQ_VIEW_ADMIN_COLS_H
#define SQ_VIEW_ADMIN_COLS_H

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "core/model/model_admin.h"
#include "core/base/parse.h"
#include "core/views/view_cols.h"

static __attribute__((unused)) const char *
sq_col_double(double v, char *buf, size_t n)
{
	if (isnan(v))
		return NULL;
	if (isinf(v))
		return "inf";
	snprintf(buf, n, "%.6f", v);
	return buf;
}

/* Sort key of a fraction: millionths; inf sorts last, NAN first. */
static __attribute__((unused)) long long
sq_col_double_key(double v)
{
	if (isnan(v))
		return SQ_NONE;
	if (isinf(v))
		return (long long)9e18;
	return llround(v * 1e6);
}

static __attribute__((unused)) const char *
sq_col_duration(int64_t v, char *buf, size_t n)
{
	if (v == SQ_NONE)
		return NULL;
	if (v == SQ_INFINITE)
		return "UNLIMITED";
	sq_fmt_duration(v, buf, n);
	return buf;
}

static __attribute__((unused)) const char *
sq_col_time(int64_t v, char *buf, size_t n)
{
	struct tm tm;
	time_t t = (time_t)v;

	if (v == SQ_NONE || v < 0 || localtime_r(&t, &tm) == NULL)
		return NULL;
	strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
	return buf;
}

/* A field with a sort key and a text: name##_num() gives key (an
 * expression of the record r), name() prints expr with text(expr, buf, n). */
#define SQ_KEYED_FIELD(name, type, key, text, expr)                            \
	static int name##_num(const void *rec_, long long *v)                  \
	{                                                                      \
		const type *r = rec_;                                          \
		*v = (key);                                                    \
		return 0;                                                      \
	}                                                                      \
	static const char *name(const void *rec_, char *buf, size_t n)         \
	{                                                                      \
		const type *r = rec_;                                          \
		return text(expr, buf, n);                                     \
	}

/* A fraction field: name() text, name##_num() sort key. */
#define SQ_DBL_FIELD(name, type, expr)                                         \
	SQ_KEYED_FIELD(name, type, sq_col_double_key(expr), sq_col_double, expr)

/* A duration in seconds: text D-HH:MM:SS, value seconds. */
#define SQ_DUR_FIELD(name, type, expr)                                         \
	SQ_KEYED_FIELD(name, type, (long long)(expr), sq_col_duration, expr)

/* An epoch time: text local ISO time, value epoch seconds. */
#define SQ_TIME_FIELD(name, type, expr)                                        \
	SQ_KEYED_FIELD(name, type, (long long)(expr), sq_col_time, expr)

#define SQ_NUM SQ_COL_NUM
#define SQ_HID SQ_COL_HIDDEN
#define SQ_COLS(c) (sizeof(c) / sizeof((c)[0]))

#endif
