/*
 * spec_load.c - a cluster spec file (JSON) into struct sq_spec: a cluster
 * spec's orchestratorSpec.slurmSpec (snake_case or camelCase), or the
 * Slinky slurm-operator's resources (slinky.slurm.net NodeSet, Controller,
 * LoginSet, RestApi, Accounting) as kubectl prints them. Every error
 * names the JSON path; nothing in the file can crash or abort the run.
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

#include "core/hostlist.h"
#include "spec_load.h"

#define PATH_LEN 512

struct ld {
	struct sq_spec *spec;
	const char *file;
	struct sq_err *err;
	size_t cparts, cconfig, cpools, cnodesets, ccomps;
};

static int fail(struct ld *l, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct ld *l, const char *path, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sq_err_set(l->err, SQ_ERR_USAGE, "%s: %s: %s", l->file,
			  path[0] ? path : "(top level)", msg);
}

static int
enomem(struct ld *l)
{
	return sq_err_set(l->err, SQ_ERR_SYSTEM, "%s: out of memory", l->file);
}

/* Paths longer than PATH_LEN are cut; they only go into messages. */
static void
child(char *out, const char *parent, const char *key)
{
	int n;

	if (parent[0] == '\0')
		n = snprintf(out, PATH_LEN, "%s", key);
	else
		n = snprintf(out, PATH_LEN, "%s.%s", parent, key);
	if (n < 0)
		out[0] = '\0';
}

static void
elem(char *out, const char *parent, size_t i)
{
	if (snprintf(out, PATH_LEN, "%s[%zu]", parent, i) < 0)
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

static const char *
type_name(json_object *v)
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

static int
want(struct ld *l, json_object *v, json_type t, const char *path)
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
	return fail(l, path, "expected %s, not %s", names[t], type_name(v));
}

/* A string with no control characters, copied to the spec arena. */
static int
str(struct ld *l, json_object *v, const char *path, int nonempty,
    const char **out)
{
	const char *s, *p;

	if (want(l, v, json_type_string, path) == -1)
		return -1;
	s = json_object_get_string(v);
	if (nonempty && *s == '\0')
		return fail(l, path, "must not be empty");
	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return fail(l, path, "control character in a name");
	}
	*out = sq_arena_strdup(&l->spec->arena, s);
	return *out == NULL ? enomem(l) : 0;
}

static const char *
adup(struct ld *l, const char *s)
{
	const char *d = sq_arena_strdup(&l->spec->arena, s);

	return d ? d : "";
}

/* Grow an arena array to hold n + 1 elements (old copies are left). */
static int
grow(struct ld *l, void **arr, size_t n, size_t *cap, size_t size)
{
	void *nv;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	nv = sq_arena_alloc(&l->spec->arena, ncap * size);
	if (nv == NULL)
		return enomem(l);
	if (n > 0)
		memcpy(nv, *arr, n * size);
	*arr = nv;
	*cap = ncap;
	return 0;
}

static int
add_pool(struct ld *l, const char *id, const char *nodes, const char *path)
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
	if (grow(l, (void **)&s->pools, s->npools, &l->cpools, sizeof(*p)) ==
	    -1)
		return -1;
	p = &s->pools[s->npools++];
	p->id = id;
	p->nodes = nodes;
	p->path = path;
	return 0;
}

static int
add_param(struct ld *l, const char *key, const char *value, const char *path)
{
	struct sq_spec *s = l->spec;
	struct sq_spec_param *p;
	size_t i;

	for (i = 0; i < s->nconfig; i++) { /* a later declaration wins */
		if (strcasecmp(s->config[i].key, key) == 0) {
			s->config[i].value = adup(l, value);
			s->config[i].path = adup(l, path);
			return 0;
		}
	}
	if (grow(l, (void **)&s->config, s->nconfig, &l->cconfig, sizeof(*p)) ==
	    -1)
		return -1;
	p = &s->config[s->nconfig++];
	p->key = adup(l, key);
	p->value = adup(l, value);
	p->path = adup(l, path);
	return 0;
}

static int
param_name_ok(const char *k)
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
value_text(struct ld *l, json_object *v, const char *path, struct sq_buf *b)
{
	size_t i, n;
	char p[PATH_LEN];

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

			elem(p, path, i);
			if (e == NULL ||
			    json_object_is_type(e, json_type_array) ||
			    json_object_is_type(e, json_type_object))
				return fail(l, p,
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
	return fail(l, path,
		    "expected a string, number, boolean or array, not an "
		    "object");
}

static int
load_config(struct ld *l, json_object *cfg, const char *path)
{
	struct json_object_iterator it, end;
	char p[PATH_LEN];

	if (want(l, cfg, json_type_object, path) == -1)
		return -1;
	it = json_object_iter_begin(cfg);
	end = json_object_iter_end(cfg);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		json_object *v = json_object_iter_peek_value(&it);
		struct sq_buf b;
		int rc;

		child(p, path, k);
		if (!param_name_ok(k))
			return fail(l, p, "not a slurm.conf parameter name");
		sq_buf_init(&b, 1 << 16);
		rc = value_text(l, v, p, &b);
		if (rc == 0 && b.truncated)
			rc = fail(l, p, "value too long");
		if (rc == 0)
			rc = add_param(l, k, sq_buf_str(&b), p);
		sq_buf_free(&b);
		if (rc == -1)
			return -1;
	}
	return 0;
}

/* node_pools: {"gpu": "n[3-4]", "cpu": ["n1", "n2"]} (squall's own) */
static int
load_node_pools(struct ld *l, json_object *m, const char *path)
{
	struct json_object_iterator it, end;
	char p[PATH_LEN], q[PATH_LEN];

	if (want(l, m, json_type_object, path) == -1)
		return -1;
	it = json_object_iter_begin(m);
	end = json_object_iter_end(m);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		json_object *v = json_object_iter_peek_value(&it);
		struct sq_buf b;
		const char *nodes;
		int rc = 0;

		child(p, path, k);
		if (*k == '\0')
			return fail(l, p, "empty pool id");
		sq_buf_init(&b, 1 << 16);
		if (json_object_is_type(v, json_type_string)) {
			sq_buf_printf(&b, "%s", json_object_get_string(v));
		} else if (json_object_is_type(v, json_type_array)) {
			size_t i, n = json_object_array_length(v);

			for (i = 0; i < n && rc == 0; i++) {
				json_object *e =
				    json_object_array_get_idx(v, i);

				elem(q, p, i);
				rc = want(l, e, json_type_string, q);
				if (rc == 0 &&
				    sq_hostlist_count(
					json_object_get_string(e)) < 0)
					rc = fail(l, q, "not a host list");
				if (rc == 0)
					sq_buf_printf(
					    &b, "%s%s", i ? "," : "",
					    json_object_get_string(e));
			}
		} else {
			rc = fail(l, p,
				  "expected a host list (a string) or an "
				  "array of them, not %s",
				  type_name(v));
		}
		if (rc == 0 &&
		    (b.truncated || sq_hostlist_count(sq_buf_str(&b)) < 0))
			rc = fail(l, p, "not a host list");
		nodes = rc == 0 ? adup(l, sq_buf_str(&b)) : "";
		sq_buf_free(&b);
		if (rc == 0)
			rc = add_pool(l, adup(l, k), nodes, adup(l, p));
		if (rc == -1)
			return -1;
	}
	return 0;
}

static int
script_list(struct ld *l, json_object *v, const char *path, int *n)
{
	size_t i, len;
	char p[PATH_LEN];

	if (want(l, v, json_type_array, path) == -1)
		return -1;
	len = json_object_array_length(v);
	for (i = 0; i < len; i++) {
		elem(p, path, i);
		if (!json_object_is_type(json_object_array_get_idx(v, i),
					 json_type_string))
			return fail(l, p,
				    "expected a string (the script text)");
	}
	*n = (int)len;
	return 0;
}

static int
load_partitions(struct ld *l, json_object *arr, const char *path)
{
	struct sq_spec *s = l->spec;
	size_t i, n;
	char p[PATH_LEN], q[PATH_LEN], r[PATH_LEN];

	if (want(l, arr, json_type_array, path) == -1)
		return -1;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *v;
		struct sq_spec_partition *sp;
		char key[KEY_LEN];
		size_t k, np;

		elem(p, path, i);
		if (want(l, o, json_type_object, p) == -1)
			return -1;
		if (grow(l, (void **)&s->parts, s->nparts, &l->cparts,
			 sizeof(*sp)) == -1)
			return -1;
		sp = &s->parts[s->nparts];
		memset(sp, 0, sizeof(*sp));
		sp->path = adup(l, p);
		v = get(o, "id", key);
		child(q, p, key);
		if (v == NULL)
			return fail(l, q, "missing");
		if (str(l, v, q, 1, &sp->id) == -1)
			return -1;
		for (k = 0; k < s->nparts; k++) {
			if (strcmp(s->parts[k].id, sp->id) == 0)
				return fail(l, q, "partition '%s' twice",
					    sp->id);
		}
		s->nparts++;
		v = get(o, "node_pool_ids", key);
		child(q, p, key);
		if (v == NULL)
			continue;
		if (want(l, v, json_type_array, q) == -1)
			return -1;
		np = json_object_array_length(v);
		sp->pools =
		    sq_arena_alloc(&s->arena, (np + 1) * sizeof(*sp->pools));
		if (sp->pools == NULL)
			return enomem(l);
		for (k = 0; k < np; k++) {
			elem(r, q, k);
			if (str(l, json_object_array_get_idx(v, k), r, 1,
				&sp->pools[k]) == -1)
				return -1;
			if (add_pool(l, sp->pools[k], "", "") == -1)
				return -1;
		}
		sp->npools = np;
	}
	return 0;
}

static int
load_slurm_spec(struct ld *l, json_object *o, const char *path)
{
	struct sq_spec *s = l->spec;
	json_object *v;
	char key[KEY_LEN];
	char p[PATH_LEN];

	s->format = "slurmSpec";
	if ((v = get(o, "partitions", key)) != NULL) {
		child(p, path, key);
		if (load_partitions(l, v, p) == -1)
			return -1;
	}
	if ((v = get(o, "default_partition_id", key)) != NULL &&
	    !json_object_is_type(v, json_type_null)) {
		child(p, path, key);
		if (str(l, v, p, 1, &s->default_partition) == -1)
			return -1;
		s->default_path = adup(l, p);
	}
	if ((v = get(o, "login_node_pool_id", key)) != NULL &&
	    !json_object_is_type(v, json_type_null)) {
		child(p, path, key);
		if (str(l, v, p, 1, &s->login_pool) == -1)
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
		s->home_storage = adup(l, shortened);
	}
	if ((v = get(o, "config", key)) != NULL) {
		child(p, path, key);
		if (load_config(l, v, p) == -1)
			return -1;
	}
	if ((v = get(o, "prolog_bash_scripts", key)) != NULL) {
		child(p, path, key);
		if (script_list(l, v, p, &s->nprolog) == -1)
			return -1;
		s->has_prolog = 1;
		s->prolog_path = adup(l, p);
	}
	if ((v = get(o, "epilog_bash_scripts", key)) != NULL) {
		child(p, path, key);
		if (script_list(l, v, p, &s->nepilog) == -1)
			return -1;
		s->has_epilog = 1;
		s->epilog_path = adup(l, p);
	}
	if ((v = get(o, "node_pools", key)) != NULL) {
		child(p, path, key);
		if (load_node_pools(l, v, p) == -1)
			return -1;
	}
	return 0;
}

/* --- the Slinky operator's resources ------------------------------- */

static json_object *
member(json_object *o, const char *a, const char *b, const char *c)
{
	json_object *v = o;

	if (a && !(json_object_is_type(v, json_type_object) &&
		   json_object_object_get_ex(v, a, &v)))
		return NULL;
	if (b && !(json_object_is_type(v, json_type_object) &&
		   json_object_object_get_ex(v, b, &v)))
		return NULL;
	if (c && !(json_object_is_type(v, json_type_object) &&
		   json_object_object_get_ex(v, c, &v)))
		return NULL;
	return v;
}

static int
replicas(struct ld *l, json_object *spec, const char *path, int64_t *out)
{
	json_object *v = member(spec, "replicas", NULL, NULL);
	char p[PATH_LEN];

	*out = 1; /* the CRDs' default */
	if (v == NULL || json_object_is_type(v, json_type_null))
		return 0;
	child(p, path, "replicas");
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return fail(l, p, "expected a count, not %s", type_name(v));
	*out = json_object_get_int64(v);
	return 0;
}

static int
add_comp(struct ld *l, const char *kind, const char *name, int64_t n,
	 const char *path)
{
	struct sq_spec *s = l->spec;
	struct sq_spec_component *c;

	if (grow(l, (void **)&s->comps, s->ncomps, &l->ccomps, sizeof(*c)) ==
	    -1)
		return -1;
	c = &s->comps[s->ncomps++];
	c->kind = kind;
	c->name = name;
	c->replicas = n;
	c->path = adup(l, path);
	return 0;
}

static int
load_nodeset(struct ld *l, json_object *item, const char *name,
	     const char *path)
{
	struct sq_spec *s = l->spec;
	json_object *spec = member(item, "spec", NULL, NULL), *v;
	struct sq_nodeset_def *d;
	char p[PATH_LEN];
	const char *slurm = name;
	int64_t n;

	child(p, path, "spec");
	if (spec != NULL && want(l, spec, json_type_object, p) == -1)
		return -1;
	if (spec != NULL && replicas(l, spec, p, &n) == -1)
		return -1;
	if (spec == NULL)
		n = 1;
	v = spec ? member(spec, "scalingMode", NULL, NULL) : NULL;
	if (v != NULL && json_object_is_type(v, json_type_string) &&
	    strcasecmp(json_object_get_string(v), "DaemonSet") == 0)
		n = SQ_NONE;
	/* the Slurm NodeSet name: the pod template's hostname, else the
	 * resource name (GetSlurmNodeSetName in the operator) */
	v = spec ? member(spec, "template", "spec", "hostname") : NULL;
	if (v != NULL && json_object_is_type(v, json_type_string) &&
	    json_object_get_string(v)[0] != '\0') {
		char h[256], *e;
		const char *hs = json_object_get_string(v);

		snprintf(h, sizeof(h), "%s", hs);
		e = strchr(h, ' ');
		if (e)
			*e = '\0';
		for (e = h + strlen(h); e > h && e[-1] == '-';)
			*--e = '\0';
		hs = h;
		while (*hs == '-')
			hs++;
		if (*hs != '\0')
			slurm = adup(l, hs);
	}
	if (grow(l, (void **)&s->nodesets, s->nnodesets, &l->cnodesets,
		 sizeof(*d)) == -1)
		return -1;
	{
		/* keep the path array in step with the definitions */
		const char **np =
		    sq_arena_alloc(&s->arena, l->cnodesets * sizeof(*np));

		if (np == NULL)
			return enomem(l);
		if (s->nnodesets > 0)
			memcpy(np, s->nodeset_paths,
			       s->nnodesets * sizeof(*np));
		s->nodeset_paths = np;
	}
	d = &s->nodesets[s->nnodesets];
	memset(d, 0, sizeof(*d));
	d->name = slurm;
	d->feature = slurm; /* slurmd --conf "Features=<name> ..." */
	d->prefix = slurm;  /* pods are <name>-<ordinal> */
	d->source = SQ_NS_OPERATOR;
	d->declared = n;
	s->nodeset_paths[s->nnodesets] = adup(l, path);
	s->nnodesets++;
	v = spec ? member(spec, "partition", "enabled", NULL) : NULL;
	if (v != NULL && json_object_is_type(v, json_type_boolean) &&
	    json_object_get_boolean(v)) {
		struct sq_spec_partition *sp;

		if (grow(l, (void **)&s->parts, s->nparts, &l->cparts,
			 sizeof(*sp)) == -1)
			return -1;
		sp = &s->parts[s->nparts++];
		memset(sp, 0, sizeof(*sp));
		sp->id = slurm;
		child(p, path, "spec.partition");
		sp->path = adup(l, p);
		sp->pools = sq_arena_alloc(&s->arena, sizeof(*sp->pools));
		if (sp->pools == NULL)
			return enomem(l);
		sp->pools[0] = slurm;
		sp->npools = 1;
		sp->from_nodeset = 1;
	}
	return 0;
}

/* Controller.spec.extraConf: slurm.conf lines appended by the operator */
static int
extra_conf(struct ld *l, const char *text, const char *path)
{
	const char *line = text;
	int lineno = 0;

	while (line != NULL && *line != '\0') {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[1024], *k, *eq, *e, p[PATH_LEN];

		lineno++;
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl ? nl + 1 : NULL;
		if ((e = strchr(buf, '#')) != NULL)
			*e = '\0';
		k = buf;
		while (*k == ' ' || *k == '\t')
			k++;
		e = k + strlen(k);
		while (e > k &&
		       (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		eq = strchr(k, '=');
		if (*k == '\0' || eq == NULL)
			continue;
		*eq = '\0';
		/* node, partition and nodeset lines are not parameters */
		if (!param_name_ok(k) || strcasecmp(k, "NodeName") == 0 ||
		    strcasecmp(k, "PartitionName") == 0 ||
		    strcasecmp(k, "NodeSet") == 0 ||
		    strcasecmp(k, "DownNodes") == 0 ||
		    strcasecmp(k, "Include") == 0)
			continue;
		snprintf(p, sizeof(p), "%s (line %d)", path, lineno);
		if (add_param(l, k, eq + 1, p) == -1)
			return -1;
	}
	return 0;
}

static int
load_controller(struct ld *l, json_object *item, const char *path)
{
	struct sq_spec *s = l->spec;
	json_object *spec = member(item, "spec", NULL, NULL), *v;
	char p[PATH_LEN], q[PATH_LEN];

	if (spec == NULL)
		return 0;
	child(p, path, "spec");
	if (want(l, spec, json_type_object, p) == -1)
		return -1;
	if ((v = member(spec, "clusterName", NULL, NULL)) != NULL) {
		const char *cn;

		child(q, p, "clusterName");
		if (str(l, v, q, 1, &cn) == -1 ||
		    add_param(l, "ClusterName", cn, q) == -1)
			return -1;
	}
	if ((v = member(spec, "extraConf", NULL, NULL)) != NULL) {
		child(q, p, "extraConf");
		if (want(l, v, json_type_string, q) == -1 ||
		    extra_conf(l, json_object_get_string(v), q) == -1)
			return -1;
	}
	if ((v = member(spec, "prologScriptRefs", NULL, NULL)) != NULL &&
	    !json_object_is_type(v, json_type_null)) {
		child(q, p, "prologScriptRefs");
		if (want(l, v, json_type_array, q) == -1)
			return -1;
		s->has_prolog = 1;
		s->nprolog += (int)json_object_array_length(v);
		s->prolog_path = adup(l, q);
	}
	if ((v = member(spec, "epilogScriptRefs", NULL, NULL)) != NULL &&
	    !json_object_is_type(v, json_type_null)) {
		child(q, p, "epilogScriptRefs");
		if (want(l, v, json_type_array, q) == -1)
			return -1;
		s->has_epilog = 1;
		s->nepilog += (int)json_object_array_length(v);
		s->epilog_path = adup(l, q);
	}
	return 0;
}

static const char *const op_kinds[] = { "NodeSet", "Controller", "LoginSet",
					"RestApi", "Accounting", NULL };

/* The operator kind of an item (canonical spelling), or NULL. */
static const char *
op_kind(json_object *item)
{
	json_object *k = member(item, "kind", NULL, NULL);
	json_object *a = member(item, "apiVersion", NULL, NULL);
	int i;

	if (k == NULL || !json_object_is_type(k, json_type_string))
		return NULL;
	if (a != NULL &&
	    (!json_object_is_type(a, json_type_string) ||
	     strncmp(json_object_get_string(a), "slinky.slurm.net/", 17) != 0))
		return NULL;
	for (i = 0; op_kinds[i] != NULL; i++) {
		if (strcasecmp(json_object_get_string(k), op_kinds[i]) == 0)
			return op_kinds[i];
	}
	return NULL;
}

static int
load_item(struct ld *l, json_object *item, const char *path)
{
	const char *kind, *name;
	json_object *v;
	char p[PATH_LEN];
	int64_t n = SQ_NONE;

	if (want(l, item, json_type_object, path) == -1)
		return -1;
	kind = op_kind(item);
	if (kind == NULL)
		return 0; /* not ours: kubectl get all lists pods too */
	child(p, path, "metadata.name");
	v = member(item, "metadata", "name", NULL);
	if (v == NULL)
		return fail(l, p, "missing");
	if (str(l, v, p, 1, &name) == -1)
		return -1;
	if (strcmp(kind, "NodeSet") == 0)
		return load_nodeset(l, item, name, path);
	if (strcmp(kind, "Controller") == 0)
		return load_controller(l, item, path);
	if (strcmp(kind, "LoginSet") == 0 || strcmp(kind, "RestApi") == 0) {
		v = member(item, "spec", NULL, NULL);
		child(p, path, "spec");
		if (v != NULL && (want(l, v, json_type_object, p) == -1 ||
				  replicas(l, v, p, &n) == -1))
			return -1;
		if (v == NULL)
			n = 1;
	}
	return add_comp(l, kind, name, n, path);
}

static int
load_operator(struct ld *l, json_object *root)
{
	json_object *items;
	size_t i, n;
	char p[PATH_LEN];

	l->spec->format = "operator";
	if (op_kind(root) != NULL)
		return load_item(l, root, "");
	if (!json_object_object_get_ex(root, "items", &items))
		return fail(l, "items", "missing (a kind: List has items)");
	if (want(l, items, json_type_array, "items") == -1)
		return -1;
	n = json_object_array_length(items);
	for (i = 0; i < n; i++) {
		elem(p, "items", i);
		if (load_item(l, json_object_array_get_idx(items, i), p) == -1)
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

int
sq_spec_parse(const char *text, size_t len, const char *name,
	      struct sq_spec *spec, struct sq_err *err)
{
	struct ld l;
	struct json_tokener *tok;
	json_object *root = NULL, *v, *o;
	enum json_tokener_error jerr;
	char key[KEY_LEN], key2[KEY_LEN];
	char p[PATH_LEN];
	int rc = -1;

	memset(&l, 0, sizeof(l));
	l.spec = spec;
	l.file = name;
	l.err = err;
	spec->file = adup(&l, name);
	if (len > SQ_SPEC_MAX_BYTES)
		return sq_err_set(err, SQ_ERR_USAGE, "%s: larger than %u bytes",
				  name, SQ_SPEC_MAX_BYTES);
	tok = json_tokener_new_ex(64);
	if (tok == NULL)
		return enomem(&l);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (root == NULL || jerr != json_tokener_success) {
		size_t off = json_tokener_get_parse_end(tok);

		if (jerr == json_tokener_continue)
			sq_err_set(err, SQ_ERR_USAGE,
				   "%s: line %d: the JSON ends too early", name,
				   line_of(text, len));
		else
			sq_err_set(err, SQ_ERR_USAGE, "%s: line %d: %s", name,
				   line_of(text, off < len ? off : len),
				   json_tokener_error_desc(jerr));
		goto out;
	}
	if (json_tokener_get_parse_end(tok) < len) {
		size_t off = json_tokener_get_parse_end(tok), i;

		for (i = off; i < len; i++) {
			if (!isspace((unsigned char)text[i])) {
				sq_err_set(err, SQ_ERR_USAGE,
					   "%s: line %d: text after the JSON "
					   "document",
					   name, line_of(text, i));
				goto out;
			}
		}
	}
	if (want(&l, root, json_type_object, "") == -1)
		goto out;
	v = member(root, "kind", NULL, NULL);
	if (v != NULL) {
		if (!json_object_is_type(v, json_type_string)) {
			want(&l, v, json_type_string, "kind");
			goto out;
		}
		if (strcmp(json_object_get_string(v), "List") == 0 ||
		    op_kind(root) != NULL) {
			rc = load_operator(&l, root);
			goto out;
		}
		fail(&l, "kind",
		     "'%s' is neither a List nor a slinky.slurm.net resource "
		     "(NodeSet, Controller, LoginSet, RestApi, Accounting)",
		     json_object_get_string(v));
		goto out;
	}
	if ((o = get(root, "orchestrator_spec", key)) != NULL) {
		if (want(&l, o, json_type_object, key) == -1)
			goto out;
		v = get(o, "slurm_spec", key2);
		if (v == NULL && strcmp(key, "orchestratorSpec") == 0)
			camel("slurm_spec", key2, KEY_LEN); /* name it alike */
		child(p, key, key2);
		if (v == NULL) {
			fail(&l, p, "missing");
			goto out;
		}
		if (want(&l, v, json_type_object, p) == -1)
			goto out;
		rc = load_slurm_spec(&l, v, p);
	} else if ((v = get(root, "slurm_spec", key)) != NULL) {
		if (want(&l, v, json_type_object, key) == -1)
			goto out;
		rc = load_slurm_spec(&l, v, key);
	} else if (is_slurm_spec(root)) {
		rc = load_slurm_spec(&l, root, "");
	} else {
		fail(&l, "",
		     "neither a cluster spec (orchestratorSpec.slurmSpec, or "
		     "its partitions/config ...) nor operator resources (kind: "
		     "List)");
	}
out:
	json_object_put(root);
	json_tokener_free(tok);
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
