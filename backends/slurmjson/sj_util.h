/*
 * sj_util.h - json-c helpers private to backends/slurmjson: reading a
 * number that may be plain, null or {set,infinite,number}, a string that
 * may be a string array, and walking nested keys. Every helper accepts a
 * NULL or wrongly typed object and answers "not set" instead of failing.
 * And the walk every mapper makes: a list's elements one by one, each
 * named record a new row.
 */
#ifndef SQ_SJ_UTIL_H
#define SQ_SJ_UTIL_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/model/snapshot.h"

/* o[key], or NULL when o is not an object or has no such key. */
json_object *sq_sj_get(json_object *o, const char *key);
/* o[k1][k2]... for a NULL-terminated list of keys. */
json_object *sq_sj_path(json_object *o, ...);

/*
 * A number: plain int or double (rounded toward zero), a numeric string,
 * or {set,infinite,number}. Missing or {set:false} gives SQ_NONE,
 * {infinite:true} gives SQ_INFINITE, null gives null_is.
 */
int64_t sq_sj_num(json_object *v, int64_t null_is);
/* The same for o[key]. */
int64_t sq_sj_numk(json_object *o, const char *key, int64_t null_is);
/* A double (plain, or in {set,infinite,number}); nan when unset. */
double sq_sj_double(json_object *v);
/* A limit: unset and "infinite" (= no limit) are both SQ_NONE. */
int64_t sq_sj_limit(json_object *v);

/* slurmdbd's SLURMDB_FS_USE_PARENT: Fairshare=parent */
#define SQ_SJ_FS_USE_PARENT 0x7fffffff

/* A string value: strings as they are, arrays of strings joined with
 * sep, numbers printed; "" when missing or null. The result is copied
 * into the snapshot arena. */
const char *sq_sj_str(struct sq_snapshot *s, json_object *v, const char *sep);
const char *sq_sj_strk(struct sq_snapshot *s, json_object *o, const char *key);
/* sq_sj_str() with sep ",", and Slurm's spellings of "nothing" (sq_is_none)
 * as "". */
const char *sq_sj_str_or_none(struct sq_snapshot *s, json_object *v);
/* The C string of a string value, or NULL. Not copied. */
const char *sq_sj_cstr(json_object *v);

/* Is name one of the strings of v (a string, or an array of them)?
 * Compared without case. */
int sq_sj_has(json_object *v, const char *name);

/* A boolean (true, or a non-zero number); def when missing. */
int sq_sj_bool(json_object *v, int def);

/* root[key] when it is an array, else NULL with err (SQ_ERR_PARSE). */
json_object *sq_sj_array(json_object *root, const char *key,
			 struct sq_err *err);

struct sq_sj_ctx; /* sj_internal.h */

/* The mapper of one element of a list (idx from 0, for messages): adds
 * its rows to c's snapshot; -1 with err. */
typedef int sq_sj_elem_fn(struct sq_sj_ctx *c, json_object *o, size_t idx,
			  struct sq_err *err);

/* Every element of arr through map, in order; the first -1 stops the
 * walk. arr NULL (sq_sj_array found no list and said so in err): -1. */
int sq_sj_map_list(struct sq_sj_ctx *c, json_object *arr, sq_sj_elem_fn *map,
		   struct sq_err *err);

/* A new row of s for element idx of a list of named records: o[key]
 * must be a non-empty string, copied into the arena as *name. NULL with
 * err: "<what> <idx + 1> has no name" (SQ_ERR_PARSE), or out of memory. */
void *sq_sj_add_named(struct sq_snapshot *s, json_object *o, const char *key,
		      const char *what, size_t idx, const char **name,
		      struct sq_err *err);

#endif
