/*
 * spec_int.h - what spec_load.c and spec_operator.c share: the loader's
 * state and the helpers that check JSON types and build error messages
 * with the JSON path. Private to those two files.
 */
#ifndef SQ_SPEC_INT_H
#define SQ_SPEC_INT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/spec/spec.h"

#define SQ_SPEC_PATH 512 /* longest JSON path kept for messages */

struct sq_spec_ld {
	struct sq_spec *spec;
	const char *file;
	struct sq_err *err;
	size_t cparts, cconfig, cpools, cnodesets, ccomps; /* capacities */
};

/* err = "FILE: PATH: message" (SQ_ERR_USAGE); returns -1. */
int sq_spec_fail(struct sq_spec_ld *l, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int sq_spec_enomem(struct sq_spec_ld *l);
/* out = parent.key, parent[i] (SQ_SPEC_PATH bytes, cut when longer) */
void sq_spec_child(char *out, const char *parent, const char *key);
void sq_spec_elem(char *out, const char *parent, size_t i);
const char *sq_spec_type_name(json_object *v);
/* 0 when v has type t, else -1 with "expected ..., not ..." */
int sq_spec_want(struct sq_spec_ld *l, json_object *v, json_type t,
		 const char *path);
/* A string without control characters, copied to the spec's arena. */
int sq_spec_str(struct sq_spec_ld *l, json_object *v, const char *path,
		int nonempty, const char **out);
/* Arena copy; "" on ENOMEM. */
const char *sq_spec_adup(struct sq_spec_ld *l, const char *s);
/* Grow an arena array to hold n + 1 elements of size bytes. */
int sq_spec_grow(struct sq_spec_ld *l, void **arr, size_t n, size_t *cap,
		 size_t size);
/* Declare a slurm.conf parameter (a later declaration wins). */
int sq_spec_add_param(struct sq_spec_ld *l, const char *key, const char *value,
		      const char *path);
int sq_spec_param_name_ok(const char *k);
/* o.a.b.c when each is an object member, else NULL (b, c may be NULL). */
json_object *sq_spec_member(json_object *o, const char *a, const char *b,
			    const char *c);

/* spec_operator.c: the operator kind of an item ("NodeSet" ...) or NULL,
 * and a kind: List (or a single resource) into l->spec. */
const char *sq_spec_op_kind(json_object *item);
int sq_spec_load_operator(struct sq_spec_ld *l, json_object *root);

#endif
