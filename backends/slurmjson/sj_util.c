/*
 * sj_util.c - tolerant readers for Slurm's JSON values. They absorb the
 * differences between v0.0.38 (plain numbers, null, strings) and the
 * data_parser family (NO_VAL objects, string arrays), and never fail on a
 * wrong type: a value that is not what we expect reads as "not set".
 * And the walk of a list and its named records (sq_sj_map_list,
 * sq_sj_add_named) that every mapper makes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/slurmjson/sj_util.h"
#include "core/base/buf.h"
#include "core/base/err.h"
#include "core/model/model.h"
#include "core/base/parse.h"

json_object *
sq_sj_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (o == NULL || !json_object_is_type(o, json_type_object))
		return NULL;
	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

json_object *
sq_sj_path(json_object *o, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, o);
	while (o != NULL && (k = va_arg(ap, const char *)) != NULL)
		o = sq_sj_get(o, k);
	va_end(ap);
	return o;
}

static int64_t
from_double(double d)
{
	if (isnan(d))
		return SQ_NONE;
	if (isinf(d))
		return SQ_INFINITE;
	if (d >= 9.2e18 || d <= -9.2e18)
		return SQ_NONE;
	return (int64_t)d;
}

int64_t
sq_sj_num(json_object *v, int64_t null_is)
{
	json_object *n;

	if (v == NULL)
		return SQ_NONE;
	switch (json_object_get_type(v)) {
	case json_type_null:
		return null_is;
	case json_type_int:
		return json_object_get_int64(v);
	case json_type_double:
		return from_double(json_object_get_double(v));
	case json_type_boolean:
		return json_object_get_boolean(v) ? 1 : 0;
	case json_type_string: {
		const char *s = json_object_get_string(v);
		char *end;
		long long x;

		if (strcasecmp(s, "infinite") == 0 ||
		    strcasecmp(s, "unlimited") == 0 ||
		    strcasecmp(s, "infinity") == 0)
			return SQ_INFINITE;
		x = strtoll(s, &end, 10);
		if (end == s || *end != '\0')
			return SQ_NONE;
		return x;
	}
	case json_type_object:
		if (sq_sj_bool(sq_sj_get(v, "infinite"), 0))
			return SQ_INFINITE;
		if (!sq_sj_bool(sq_sj_get(v, "set"), 0))
			return SQ_NONE;
		n = sq_sj_get(v, "number");
		if (n == NULL || json_object_is_type(n, json_type_object))
			return SQ_NONE;
		return sq_sj_num(n, SQ_NONE);
	default:
		return SQ_NONE;
	}
}

int64_t
sq_sj_numk(json_object *o, const char *key, int64_t null_is)
{
	json_object *v = sq_sj_get(o, key);

	return v == NULL ? SQ_NONE : sq_sj_num(v, null_is);
}

double
sq_sj_double(json_object *v)
{
	if (v == NULL)
		return NAN;
	switch (json_object_get_type(v)) {
	case json_type_int:
	case json_type_double:
		return json_object_get_double(v);
	case json_type_object:
		if (sq_sj_bool(sq_sj_get(v, "infinite"), 0))
			return INFINITY;
		if (!sq_sj_bool(sq_sj_get(v, "set"), 0))
			return NAN;
		v = sq_sj_get(v, "number");
		if (v == NULL || json_object_is_type(v, json_type_object))
			return NAN;
		return sq_sj_double(v);
	default:
		return NAN;
	}
}

const char *
sq_sj_cstr(json_object *v)
{
	if (v == NULL || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

const char *
sq_sj_str(struct sq_snapshot *s, json_object *v, const char *sep)
{
	struct sq_buf b;
	const char *r;
	size_t i, n;

	if (v == NULL)
		return "";
	switch (json_object_get_type(v)) {
	case json_type_string:
		return sq_snapshot_strn(s, json_object_get_string(v),
					(size_t)json_object_get_string_len(v));
	case json_type_int:
	case json_type_double:
	case json_type_boolean: {
		char tmp[64];

		if (json_object_is_type(v, json_type_boolean))
			snprintf(tmp, sizeof(tmp), "%s",
				 json_object_get_boolean(v) ? "true" : "false");
		else if (json_object_is_type(v, json_type_int))
			snprintf(tmp, sizeof(tmp), "%lld",
				 (long long)json_object_get_int64(v));
		else
			snprintf(tmp, sizeof(tmp), "%g",
				 json_object_get_double(v));
		return sq_snapshot_str(s, tmp);
	}
	case json_type_array:
		sq_buf_init(&b, 1024 * 1024);
		n = json_object_array_length(v);
		for (i = 0; i < n; i++) {
			const char *e =
			    sq_sj_cstr(json_object_array_get_idx(v, i));

			if (e == NULL || *e == '\0')
				continue;
			if (b.len > 0)
				sq_buf_printf(&b, "%s", sep);
			sq_buf_printf(&b, "%s", e);
		}
		r = sq_snapshot_strn(s, b.data, b.len);
		sq_buf_free(&b);
		return r;
	default:
		return "";
	}
}

const char *
sq_sj_strk(struct sq_snapshot *s, json_object *o, const char *key)
{
	return sq_sj_str(s, sq_sj_get(o, key), ",");
}

int
sq_sj_has(json_object *v, const char *name)
{
	size_t i, n;
	const char *e;

	if (v == NULL)
		return 0;
	if ((e = sq_sj_cstr(v)) != NULL)
		return strcasecmp(e, name) == 0;
	if (!json_object_is_type(v, json_type_array))
		return 0;
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		e = sq_sj_cstr(json_object_array_get_idx(v, i));
		if (e != NULL && strcasecmp(e, name) == 0)
			return 1;
	}
	return 0;
}

int
sq_sj_bool(json_object *v, int def)
{
	if (v == NULL)
		return def;
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		return json_object_get_boolean(v) ? 1 : 0;
	case json_type_int:
		return json_object_get_int64(v) != 0;
	case json_type_string:
		return strcasecmp(json_object_get_string(v), "true") == 0 ||
		       strcasecmp(json_object_get_string(v), "yes") == 0;
	default:
		return def;
	}
}

json_object *
sq_sj_array(json_object *root, const char *key, struct sq_err *err)
{
	json_object *a = sq_sj_get(root, key);

	if (a == NULL || !json_object_is_type(a, json_type_array)) {
		sq_err_set(err, SQ_ERR_PARSE, "JSON answer has no '%s' list",
			   key);
		return NULL;
	}
	return a;
}

int
sq_sj_map_list(struct sq_sj_ctx *c, json_object *arr, sq_sj_elem_fn *map,
	       struct sq_err *err)
{
	size_t i, n;

	if (arr == NULL)
		return -1;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		if (map(c, json_object_array_get_idx(arr, i), i, err) == -1)
			return -1;
	}
	return 0;
}

void *
sq_sj_add_named(struct sq_snapshot *s, json_object *o, const char *key,
		const char *what, size_t idx, const char **name,
		struct sq_err *err)
{
	const char *v = sq_sj_cstr(sq_sj_get(o, key));
	void *row;

	if (v == NULL || *v == '\0') {
		sq_err_set(err, SQ_ERR_PARSE, "%s %zu has no name", what,
			   idx + 1);
		return NULL;
	}
	row = sq_snapshot_add(s);
	if (row == NULL || (*name = sq_snapshot_str(s, v)) == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	return row;
}

const char *
sq_sj_str_or_none(struct sq_snapshot *s, json_object *v)
{
	const char *r = sq_sj_str(s, v, ",");

	return sq_is_none(r) ? "" : r;
}

int64_t
sq_sj_limit(json_object *v)
{
	int64_t x = sq_sj_num(v, SQ_NONE);

	return x == SQ_INFINITE || x < 0 ? SQ_NONE : x;
}
