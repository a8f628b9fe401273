/*
 * spec_load.c - a cluster spec file (JSON) into struct sq_spec: a cluster
 * spec's orchestratorSpec.slurmSpec (snake_case or camelCase), the
 * helpers the loaders share, and the entry points (the operator's
 * resources are read by spec_operator.c). Every error names the JSON
 * path; nothing in the file can crash or abort the run.
 */
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <json-c/json_object_iterator.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/base/hostlist.h"
#include "spec/spec_int.h"
#include "spec/spec_load.h"

int
sq_spec_fail(struct sq_spec_ld *l, const char *path, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sq_err_set(l->err, SQ_ERR_USAGE, "%s: %s: %s", l->file,
			  path[0] ? path : "(top level)", msg);
}

int
sq_spec_enomem(struct sq_spec_ld *l)
{
	return sq_err_set(l->err, SQ_ERR_SYSTEM, "%s: out of memory", l->file);
}

/* Paths longer than SQ_SPEC_PATH are cut; they only go into messages. */
void
sq_spec_child(char *out, const char *parent, const char *key)
{
	int n;

	if (parent[0] == '\0')
		n = snprintf(out, SQ_SPEC_PATH, "%s", key);
	else
		n = snprintf(out, SQ_SPEC_PATH, "%s.%s", parent, key);
	if (n < 0)
		out[0] = '\0';
}

void
sq_spec_elem(char *out, const char *parent, size_t i)
{
	if (snprintf(out, SQ_SPEC_PATH, "%s[%zu]", parent, i) < 0)
		out[0] = '\0';
}

/* snake_case to camelCase: node_pool_ids -> nodePoolIds */
static void
camel(const char *snake, char *out, size_t n)
{
	size_t j = 0;
	int up = 0;

	for (; *snake != '\0' && j + 1 < n; snake++) {
		if (*snake == '_') {
			up = 1;
			continue;
		}
		out[j++] = up ? (char)toupper((unsigned char)*snake) : *snake;
		up = 0;
	}
	out[j] = '\0';
}

#define KEY_LEN 64

/* Member snake (or its camelCase form); key gets the spelling found. */
static json_object *
get(json_object *obj, const char *snake, char key[KEY_LEN])
{
	json_object *v;

	snprintf(key, KEY_LEN, "%s", snake);
	if (json_object_object_get_ex(obj, snake, &v))
		return v;
	camel(snake, key, KEY_LEN);
	if (strcmp(key, snake) != 0 && json_object_object_get_ex(obj, key, &v))
		return v;
	snprintf(key, KEY_LEN, "%s", snake);
	return NULL;
}

const char *
sq_spec_type_name(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
	case json_type_int:
		return "a number";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "?";
}

int
sq_spec_want(struct sq_spec_ld *l, json_object *v, json_type t,
	     const char *path)
{
	static const char *const names[] = {
		[json_type_null] = "null",
		[json_type_boolean] = "a boolean",
		[json_type_double] = "a number",
		[json_type_int] = "a number",
		[json_type_object] = "an object",
		[json_type_array] = "an array",
		[json_type_string] = "a string",
	};

	if (json_object_is_type(v, t))
		return 0;
	return sq_spec_fail(l, path, "expected %s, not %s", names[t],
			    sq_spec_type_name(v));
}

/* A string with no control characters, copied to the spec arena. */
int
sq_spec_str(struct sq_spec_ld *l, json_object *v, const char *path,
	    int nonempty, const char **out)
{
	const char *s, *p;

	if (sq_spec_want(l, v, json_type_string, path) == -1)
		return -1;
	s = json_object_get_string(v);
	if (nonempty && *s == '\0')
		return sq_spec_fail(l, path, "must not be empty");
	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return sq_spec_fail(l, path,
					    "control character in a name");
	}
	*out = sq_arena_strdup(&l->spec->arena, s);
	return *out == NULL ? sq_spec_enomem(l) : 0;
}

const char *
sq_spec_adup(struct sq_spec_ld *l, const char *s)
{
	const char *d = sq_arena_strdup(&l->spec->arena, s);

	return d ? d : "";
}

/* Grow an arena array to hold n + 1 elements (old copies are left). */
int
sq_spec_grow(struct sq_spec_ld *l, void **arr, size_t n, size_t *cap,
	     size_t size)
{
	void *nv;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	nv = sq_arena_alloc(&l->spec->arena, ncap * size);
	if (nv == NULL)
		return sq_spec_enomem(l);
	if (n > 0)
		memcpy(nv, *arr, n * size);
	*arr = nv;
	*cap = ncap;
	return 0;
}

static int
add_pool(struct sq_spec_ld *l, const char *id, const char *nodes,
	 const char *path)
{
	struct sq_spec *s = l->spec;
	struct sq_spec_pool *p;
	size_t i;

	for (i = 0; i < s->npools; i++) {
		if (strcmp(s->pools[i].id, id) == 0) {
			if (nodes[0] != '\0') {
				s->pools[i].nodes = nodes;
				s->pools[i].path = path;
			}
			return 0;
		}
	}
	if (sq_spec_grow(l, (void **)&s->pools, s->npools, &l->cpools,
			 sizeof(*p)) == -1)
		return -1;
	p = &s->pools[s->npools++];
	p->id = id;
	p->nodes = nodes;
	p->path = path;
	return 0;
}

int
sq_spec_add_param(struct sq_spec_ld *l, const char *key, const char *value,
		  const char *path)
{
	struct sq_spec *s = l->spec;
	struct sq_spec_param *p;
	size_t i;

	for (i = 0; i < s->nconfig; i++) { /* a later declaration wins */
		if (strcasecmp(s->config[i].key, key) == 0) {
			s->config[i].value = sq_spec_adup(l, value);
			s->config[i].path = sq_spec_adup(l, path);
			return 0;
		}
	}
	if (sq_spec_grow(l, (void **)&s->config, s->nconfig, &l->cconfig,
			 sizeof(*p)) == -1)
		return -1;
	p = &s->config[s->nconfig++];
	p->key = sq_spec_adup(l, key);
	p->value = sq_spec_adup(l, value);
	p->path = sq_spec_adup(l, path);
	return 0;
}

int
sq_spec_param_name_ok(const char *k)
{
	if (!isalpha((unsigned char)*k))
		return 0;
	for (; *k != '\0'; k++) {
		if (!isalnum((unsigned char)*k) && *k != '_')
			return 0;
	}
	return 1;
}

/* A config value as slurm.conf text: strings as they are, numbers,
 * booleans as yes/no, arrays of those joined with ','. */
static int
value_text(struct sq_spec_ld *l, json_object *v, const char *path,
	   struct sq_buf *b)
{
	size_t i, n;
	char p[SQ_SPEC_PATH];

	switch (json_object_get_type(v)) {
	case json_type_null:
		return 0;
	case json_type_boolean:
		sq_buf_printf(b, "%s",
			      json_object_get_boolean(v) ? "yes" : "no");
		return 0;
	case json_type_int:
		sq_buf_printf(b, "%lld", (long long)json_object_get_int64(v));
		return 0;
	case json_type_double:
	case json_type_string:
		sq_buf_printf(b, "%s", json_object_get_string(v));
		return 0;
	case json_type_array:
		n = json_object_array_length(v);
		for (i = 0; i < n; i++) {
			json_object *e = json_object_array_get_idx(v, i);

			sq_spec_elem(p, path, i);
			if (e == NULL ||
			    json_object_is_type(e, json_type_array) ||
			    json_object_is_type(e, json_type_object))
				return sq_spec_fail(
				    l, p,
				    "expected a string, number or "
				    "boolean");
			if (i > 0)
				sq_buf_append(b, ",", 1);
			if (value_text(l, e, p, b) == -1)
				return -1;
		}
		return 0;
	case json_type_object:
		break;
	}
	return sq_spec_fail(
	    l, path,
	    "expected a string, number, boolean or array, not an "
	    "object");
}

static int
load_config(struct sq_spec_ld *l, json_object *cfg, const char *path)
{
	struct json_object_iterator it, end;
	char p[SQ_SPEC_PATH];

	if (sq_spec_want(l, cfg, json_type_object, path) == -1)
		return -1;
	it = json_object_iter_begin(cfg);
	end = json_object_iter_end(cfg);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		json_object *v = json_object_iter_peek_value(&it);
		struct sq_buf b;
		int rc;

		sq_spec_child(p, path, k);
		if (!sq_spec_param_name_ok(k))
			return sq_spec_fail(l, p,
					    "not a slurm.conf parameter name");
		sq_buf_init(&b, 1 << 16);
		rc = value_text(l, v, p, &b);
		if (rc == 0 && b.truncated)
			rc = sq_spec_fail(l, p, "value too long");
		if (rc == 0)
			rc = sq_spec_add_param(l, k, sq_buf_str(&b), p);
		sq_buf_free(&b);
		if (rc == -1)
			return -1;
	}
	return 0;
}

/* node_pools: {"gpu": "n[3-4]", "cpu": ["n1", "n2"]} (squall's own) */
static int
load_node_pools(struct sq_spec_ld *l, json_object *m, const char *path)
{
	struct json_object_iterator it, end;
	char p[SQ_SPEC_PATH], q[SQ_SPEC_PATH];

	if (sq_spec_want(l, m, json_type_object, path) == -1)
		return -1;
	it = json_object_iter_begin(m);
	end = json_object_iter_end(m);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		json_object *v = json_object_iter_peek_value(&it);
		struct sq_buf b;
		const char *nodes;
		int rc = 0;

		sq_spec_child(p, path, k);
		if (*k == '\0')
			return sq_spec_fail(l, p, "empty pool id");
		sq_buf_init(&b, 1 << 16);
		if (json_object_is_type(v, json_type_string)) {
			sq_buf_printf(&b, "%s", json_object_get_string(v));
		} else if (json_object_is_type(v, json_type_array)) {
			size_t i, n = json_object_array_length(v);

			for (i = 0; i < n && rc == 0; i++) {
				json_object *e =
				    json_object_array_get_idx(v, i);

				sq_spec_elem(q, p, i);
				rc = sq_spec_want(l, e, json_type_string, q);
				if (rc == 0 &&
				    sq_hostlist_count(
					json_object_get_string(e)) < 0)
					rc = sq_spec_fail(l, q,
							  "not a host list");
				if (rc == 0)
					sq_buf_printf(
					    &b, "%s%s", i ? "," : "",
					    json_object_get_string(e));
			}
		} else {
			rc = sq_spec_fail(
			    l, p,
			    "expected a host list (a string) or an "
			    "array of them, not %s",
			    sq_spec_type_name(v));
		}
		if (rc == 0 &&
		    (b.truncated || sq_hostlist_count(sq_buf_str(&b)) < 0))
			rc = sq_spec_fail(l, p, "not a host list");
		nodes = rc == 0 ? sq_spec_adup(l, sq_buf_str(&b)) : "";
		sq_buf_free(&b);
		if (rc == 0)
			rc = add_pool(l, sq_spec_adup(l, k), nodes,
				      sq_spec_adup(l, p));
		if (rc == -1)
			return -1;
	}
	return 0;
}

static int
script_list(struct sq_spec_ld *l, json_object *v, const char *path, int *n)
{
	size_t i, len;
	char p[SQ_SPEC_PATH];

	if (sq_spec_want(l, v, json_type_array, path) == -1)
		return -1;
	len = json_object_array_length(v);
	for (i = 0; i < len; i++) {
		sq_spec_elem(p, path, i);
		if (!json_object_is_type(json_object_array_get_idx(v, i),
					 json_type_string))
			return sq_spec_fail(
			    l, p, "expected a string (the script text)");
	}
	*n = (int)len;
	return 0;
}

static int
load_partitions(struct sq_spec_ld *l, json_object *arr, const char *path)
{
	struct sq_spec *s = l->spec;
	size_t i, n;
	char p[SQ_SPEC_PATH], q[SQ_SPEC_PATH], r[SQ_SPEC_PATH];

	if (sq_spec_want(l, arr, json_type_array, path) == -1)
		return -1;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *v;
		struct sq_spec_partition *sp;
		char key[KEY_LEN];
		size_t k, np;

		sq_spec_elem(p, path, i);
		if (sq_spec_want(l, o, json_type_object, p) == -1)
			return -1;
		if (sq_spec_grow(l, (void **)&s->parts, s->nparts, &l->cparts,
				 sizeof(*sp)) == -1)
			return -1;
		sp = &s->parts[s->nparts];
		memset(sp, 0, sizeof(*sp));
		sp->path = sq_spec_adup(l, p);
		v = get(o, "id", key);
		sq_spec_child(q, p, key);
		if (v == NULL)
			return sq_spec_fail(l, q, "missing");
		if (sq_spec_str(l, v, q, 1, &sp->id) == -1)
			return -1;
		for (k = 0; k < s->nparts; k++) {
			if (strcmp(s->parts[k].id, sp->id) == 0)
				return sq_spec_fail(
				    l, q, "partition '%s' twice", sp->id);
		}
		s->nparts++;
		v = get(o, "node_pool_ids", key);
		sq_spec_child(q, p, key);
		if (v == NULL)
			continue;
		if (sq_spec_want(l, v, json_type_array, q) == -1)
			return -1;
		np = json_object_array_length(v);
		sp->pools =
		    sq_arena_alloc(&s->arena, (np + 1) * sizeof(*sp->pools));
		if (sp->pools == NULL)
			return sq_spec_enomem(l);
		for (k = 0; k < np; k++) {
			sq_spec_elem(r, q, k);
			if (sq_spec_str(l, json_object_array_get_idx(v, k), r,
					1, &sp->pools[k]) == -1)
				return -1;
			if (add_pool(l, sp->pools[k], "", "") == -1)
				return -1;
		}
		sp->npools = np;
	}
	return 0;
}

static int
load_slurm_spec(struct sq_spec_ld *l, json_object *o, const char *path)
{
	struct sq_spec *s = l->spec;
	json_object *v;
	char key[KEY_LEN];
	char p[SQ_SPEC_PATH];

	s->format = "slurmSpec";
	if ((v = get(o, "partitions", key)) != NULL) {
		sq_spec_child(p, path, key);
		if (load_partitions(l, v, p) == -1)
			return -1;
	}
	if ((v = get(o, "default_partition_id", key)) != NULL &&
	    !json_object_is_type(v, json_type_null)) {
		sq_spec_child(p, path, key);
		if (sq_spec_str(l, v, p, 1, &s->default_partition) == -1)
			return -1;
		s->default_path = sq_spec_adup(l, p);
	}
	if ((v = get(o, "login_node_pool_id", key)) != NULL &&
	    !json_object_is_type(v, json_type_null)) {
		sq_spec_child(p, path, key);
		if (sq_spec_str(l, v, p, 1, &s->login_pool) == -1)
			return -1;
		if (add_pool(l, s->login_pool, "", "") == -1)
			return -1;
	}
	if ((v = get(o, "home_directory_storage", key)) != NULL &&
	    !json_object_is_type(v, json_type_null)) {
		const char *t = json_object_is_type(v, json_type_string)
				    ? json_object_get_string(v)
				    : json_object_to_json_string_ext(
					  v, JSON_C_TO_STRING_PLAIN);
		char shortened[256];

		snprintf(shortened, sizeof(shortened), "%s", t);
		s->home_storage = sq_spec_adup(l, shortened);
	}
	if ((v = get(o, "config", key)) != NULL) {
		sq_spec_child(p, path, key);
		if (load_config(l, v, p) == -1)
			return -1;
	}
	if ((v = get(o, "prolog_bash_scripts", key)) != NULL) {
		sq_spec_child(p, path, key);
		if (script_list(l, v, p, &s->nprolog) == -1)
			return -1;
		s->has_prolog = 1;
		s->prolog_path = sq_spec_adup(l, p);
	}
	if ((v = get(o, "epilog_bash_scripts", key)) != NULL) {
		sq_spec_child(p, path, key);
		if (script_list(l, v, p, &s->nepilog) == -1)
			return -1;
		s->has_epilog = 1;
		s->epilog_path = sq_spec_adup(l, p);
	}
	if ((v = get(o, "node_pools", key)) != NULL) {
		sq_spec_child(p, path, key);
		if (load_node_pools(l, v, p) == -1)
			return -1;
	}
	return 0;
}

/* Does o look like a slurmSpec object itself? */
static int
is_slurm_spec(json_object *o)
{
	static const char *const keys[] = {
		"partitions",
		"default_partition_id",
		"login_node_pool_id",
		"home_directory_storage",
		"config",
		"prolog_bash_scripts",
		"epilog_bash_scripts",
		"node_pools",
		NULL,
	};
	char k[KEY_LEN];
	int i;

	for (i = 0; keys[i] != NULL; i++) {
		if (get(o, keys[i], k) != NULL)
			return 1;
	}
	return 0;
}

static int
line_of(const char *text, size_t off)
{
	int line = 1;
	size_t i;

	for (i = 0; i < off; i++) {
		if (text[i] == '\n')
			line++;
	}
	return line;
}

/* The JSON document of text (len bytes) as one object, or NULL with the
 * error (the line it is on) in err. */
static json_object *
parse_json(const char *text, size_t len, const char *name, struct sq_err *err)
{
	struct json_tokener *tok = json_tokener_new_ex(64);
	json_object *root;
	enum json_tokener_error jerr;
	size_t off, i;

	if (tok == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "%s: out of memory", name);
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	off = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (root == NULL || jerr != json_tokener_success) {
		if (jerr == json_tokener_continue)
			sq_err_set(err, SQ_ERR_USAGE,
				   "%s: line %d: the JSON ends too early", name,
				   line_of(text, len));
		else
			sq_err_set(err, SQ_ERR_USAGE, "%s: line %d: %s", name,
				   line_of(text, off < len ? off : len),
				   json_tokener_error_desc(jerr));
		json_object_put(root);
		return NULL;
	}
	for (i = off; i < len; i++) {
		if (!isspace((unsigned char)text[i])) {
			sq_err_set(err, SQ_ERR_USAGE,
				   "%s: line %d: text after the JSON document",
				   name, line_of(text, i));
			json_object_put(root);
			return NULL;
		}
	}
	return root;
}

/* A document with "kind": operator resources (a List, or one slinky
 * resource), or an error naming what it is not. */
static int
load_kind(struct sq_spec_ld *l, json_object *root, json_object *v)
{
	if (!json_object_is_type(v, json_type_string))
		return sq_spec_want(l, v, json_type_string, "kind");
	if (strcmp(json_object_get_string(v), "List") == 0 ||
	    sq_spec_op_kind(root) != NULL)
		return sq_spec_load_operator(l, root);
	sq_spec_fail(l, "kind",
		     "'%s' is neither a List nor a slinky.slurm.net resource "
		     "(NodeSet, Controller, LoginSet, RestApi, Accounting)",
		     json_object_get_string(v));
	return -1;
}

/* orchestrator_spec.slurm_spec (any spelling), o the first. */
static int
load_orchestrator(struct sq_spec_ld *l, json_object *o, const char *key)
{
	char key2[KEY_LEN], p[SQ_SPEC_PATH];
	json_object *v;

	if (sq_spec_want(l, o, json_type_object, key) == -1)
		return -1;
	v = get(o, "slurm_spec", key2);
	if (v == NULL && strcmp(key, "orchestratorSpec") == 0)
		camel("slurm_spec", key2, KEY_LEN); /* name it alike */
	sq_spec_child(p, key, key2);
	if (v == NULL) {
		sq_spec_fail(l, p, "missing");
		return -1;
	}
	if (sq_spec_want(l, v, json_type_object, p) == -1)
		return -1;
	return load_slurm_spec(l, v, p);
}

int
sq_spec_parse(const char *text, size_t len, const char *name,
	      struct sq_spec *spec, struct sq_err *err)
{
	struct sq_spec_ld l;
	json_object *root, *v, *o;
	char key[KEY_LEN];
	int rc = -1;

	memset(&l, 0, sizeof(l));
	l.spec = spec;
	l.file = name;
	l.err = err;
	spec->file = sq_spec_adup(&l, name);
	if (len > SQ_SPEC_MAX_BYTES)
		return sq_err_set(err, SQ_ERR_USAGE, "%s: larger than %u bytes",
				  name, SQ_SPEC_MAX_BYTES);
	root = parse_json(text, len, name, err);
	if (root == NULL)
		return -1;
	if (sq_spec_want(&l, root, json_type_object, "") == -1)
		goto out;
	if ((v = sq_spec_member(root, "kind", NULL, NULL)) != NULL) {
		rc = load_kind(&l, root, v);
	} else if ((o = get(root, "orchestrator_spec", key)) != NULL) {
		rc = load_orchestrator(&l, o, key);
	} else if ((v = get(root, "slurm_spec", key)) != NULL) {
		if (sq_spec_want(&l, v, json_type_object, key) == 0)
			rc = load_slurm_spec(&l, v, key);
	} else if (is_slurm_spec(root)) {
		rc = load_slurm_spec(&l, root, "");
	} else {
		sq_spec_fail(
		    &l, "",
		    "neither a cluster spec (orchestratorSpec.slurmSpec, or "
		    "its partitions/config ...) nor operator resources (kind: "
		    "List)");
	}
out:
	json_object_put(root);
	return rc;
}

int
sq_spec_load(const char *path, struct sq_spec *spec, struct sq_err *err)
{
	FILE *fp;
	struct stat st;
	char *text;
	size_t n;
	int rc;

	fp = fopen(path, "r");
	if (fp == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "%s: %s", path,
				  strerror(errno));
	if (fstat(fileno(fp), &st) == -1 || !S_ISREG(st.st_mode)) {
		fclose(fp);
		return sq_err_set(err, SQ_ERR_USAGE, "%s: not a regular file",
				  path);
	}
	if ((unsigned long long)st.st_size > SQ_SPEC_MAX_BYTES) {
		fclose(fp);
		return sq_err_set(err, SQ_ERR_USAGE, "%s: larger than %u bytes",
				  path, SQ_SPEC_MAX_BYTES);
	}
	text = malloc((size_t)st.st_size + 1);
	if (text == NULL) {
		fclose(fp);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	n = fread(text, 1, (size_t)st.st_size, fp);
	if (ferror(fp)) {
		rc = sq_err_set(err, SQ_ERR_USAGE, "%s: read error", path);
	} else {
		text[n] = '\0';
		rc = sq_spec_parse(text, n, path, spec, err);
	}
	free(text);
	fclose(fp);
	return rc;
}
