/*
 * spec_operator.c - the Slinky slurm-operator's resources (group
 * slinky.slurm.net: NodeSet, Controller, LoginSet, RestApi, Accounting)
 * as `kubectl get ... -o json` prints them, into struct sq_spec. Field
 * names from the operator's api/v1beta1 types (see
 * tests/fixtures/spec/README.md).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec/spec_int.h"

json_object *
sq_spec_member(json_object *o, const char *a, const char *b, const char *c)
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
replicas(struct sq_spec_ld *l, json_object *spec, const char *path,
	 int64_t *out)
{
	json_object *v = sq_spec_member(spec, "replicas", NULL, NULL);
	char p[SQ_SPEC_PATH];

	*out = 1; /* the CRDs' default */
	if (v == NULL || json_object_is_type(v, json_type_null))
		return 0;
	sq_spec_child(p, path, "replicas");
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return sq_spec_fail(l, p, "expected a count, not %s",
				    sq_spec_type_name(v));
	*out = json_object_get_int64(v);
	return 0;
}

static int
add_comp(struct sq_spec_ld *l, const char *kind, const char *name, int64_t n,
	 const char *path)
{
	struct sq_spec *s = l->spec;
	struct sq_spec_component *c;

	if (sq_spec_grow(l, (void **)&s->comps, s->ncomps, &l->ccomps,
			 sizeof(*c)) == -1)
		return -1;
	c = &s->comps[s->ncomps++];
	c->kind = kind;
	c->name = name;
	c->replicas = n;
	c->path = sq_spec_adup(l, path);
	return 0;
}

static int
load_nodeset(struct sq_spec_ld *l, json_object *item, const char *name,
	     const char *path)
{
	struct sq_spec *s = l->spec;
	json_object *spec = sq_spec_member(item, "spec", NULL, NULL), *v;
	struct sq_nodeset_def *d;
	char p[SQ_SPEC_PATH];
	const char *slurm = name;
	int64_t n;

	sq_spec_child(p, path, "spec");
	if (spec != NULL && sq_spec_want(l, spec, json_type_object, p) == -1)
		return -1;
	if (spec != NULL && replicas(l, spec, p, &n) == -1)
		return -1;
	if (spec == NULL)
		n = 1;
	v = spec ? sq_spec_member(spec, "scalingMode", NULL, NULL) : NULL;
	if (v != NULL && json_object_is_type(v, json_type_string) &&
	    strcasecmp(json_object_get_string(v), "DaemonSet") == 0)
		n = SQ_NONE;
	/* the Slurm NodeSet name: the pod template's hostname, else the
	 * resource name (GetSlurmNodeSetName in the operator) */
	v = spec ? sq_spec_member(spec, "template", "spec", "hostname") : NULL;
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
			slurm = sq_spec_adup(l, hs);
	}
	if (sq_spec_grow(l, (void **)&s->nodesets, s->nnodesets, &l->cnodesets,
			 sizeof(*d)) == -1)
		return -1;
	{
		/* keep the path array in step with the definitions */
		const char **np =
		    sq_arena_alloc(&s->arena, l->cnodesets * sizeof(*np));

		if (np == NULL)
			return sq_spec_enomem(l);
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
	s->nodeset_paths[s->nnodesets] = sq_spec_adup(l, path);
	s->nnodesets++;
	v = spec ? sq_spec_member(spec, "partition", "enabled", NULL) : NULL;
	if (v != NULL && json_object_is_type(v, json_type_boolean) &&
	    json_object_get_boolean(v)) {
		struct sq_spec_partition *sp;

		if (sq_spec_grow(l, (void **)&s->parts, s->nparts, &l->cparts,
				 sizeof(*sp)) == -1)
			return -1;
		sp = &s->parts[s->nparts++];
		memset(sp, 0, sizeof(*sp));
		sp->id = slurm;
		sq_spec_child(p, path, "spec.partition");
		sp->path = sq_spec_adup(l, p);
		sp->pools = sq_arena_alloc(&s->arena, sizeof(*sp->pools));
		if (sp->pools == NULL)
			return sq_spec_enomem(l);
		sp->pools[0] = slurm;
		sp->npools = 1;
		sp->from_nodeset = 1;
	}
	return 0;
}

/* Controller.spec.extraConf: slurm.conf lines appended by the operator */
static int
extra_conf(struct sq_spec_ld *l, const char *text, const char *path)
{
	const char *line = text;
	int lineno = 0;

	while (line != NULL && *line != '\0') {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[1024], *k, *eq, *e, p[SQ_SPEC_PATH];

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
		if (!sq_spec_param_name_ok(k) ||
		    strcasecmp(k, "NodeName") == 0 ||
		    strcasecmp(k, "PartitionName") == 0 ||
		    strcasecmp(k, "NodeSet") == 0 ||
		    strcasecmp(k, "DownNodes") == 0 ||
		    strcasecmp(k, "Include") == 0)
			continue;
		if (snprintf(p, sizeof(p), "%s (line %d)", path, lineno) < 0)
			p[0] = '\0';
		if (sq_spec_add_param(l, k, eq + 1, p) == -1)
			return -1;
	}
	return 0;
}

static int
load_controller(struct sq_spec_ld *l, json_object *item, const char *path)
{
	struct sq_spec *s = l->spec;
	json_object *spec = sq_spec_member(item, "spec", NULL, NULL), *v;
	char p[SQ_SPEC_PATH], q[SQ_SPEC_PATH];

	if (spec == NULL)
		return 0;
	sq_spec_child(p, path, "spec");
	if (sq_spec_want(l, spec, json_type_object, p) == -1)
		return -1;
	if ((v = sq_spec_member(spec, "clusterName", NULL, NULL)) != NULL) {
		const char *cn;

		sq_spec_child(q, p, "clusterName");
		if (sq_spec_str(l, v, q, 1, &cn) == -1 ||
		    sq_spec_add_param(l, "ClusterName", cn, q) == -1)
			return -1;
	}
	if ((v = sq_spec_member(spec, "extraConf", NULL, NULL)) != NULL) {
		sq_spec_child(q, p, "extraConf");
		if (sq_spec_want(l, v, json_type_string, q) == -1 ||
		    extra_conf(l, json_object_get_string(v), q) == -1)
			return -1;
	}
	if ((v = sq_spec_member(spec, "prologScriptRefs", NULL, NULL)) !=
		NULL &&
	    !json_object_is_type(v, json_type_null)) {
		sq_spec_child(q, p, "prologScriptRefs");
		if (sq_spec_want(l, v, json_type_array, q) == -1)
			return -1;
		s->has_prolog = 1;
		s->nprolog += (int)json_object_array_length(v);
		s->prolog_path = sq_spec_adup(l, q);
	}
	if ((v = sq_spec_member(spec, "epilogScriptRefs", NULL, NULL)) !=
		NULL &&
	    !json_object_is_type(v, json_type_null)) {
		sq_spec_child(q, p, "epilogScriptRefs");
		if (sq_spec_want(l, v, json_type_array, q) == -1)
			return -1;
		s->has_epilog = 1;
		s->nepilog += (int)json_object_array_length(v);
		s->epilog_path = sq_spec_adup(l, q);
	}
	return 0;
}

static const char *const op_kinds[] = { "NodeSet", "Controller", "LoginSet",
					"RestApi", "Accounting", NULL };

/* The operator kind of an item (canonical spelling), or NULL. */
const char *
sq_spec_op_kind(json_object *item)
{
	json_object *k = sq_spec_member(item, "kind", NULL, NULL);
	json_object *a = sq_spec_member(item, "apiVersion", NULL, NULL);
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
load_item(struct sq_spec_ld *l, json_object *item, const char *path)
{
	const char *kind, *name;
	json_object *v;
	char p[SQ_SPEC_PATH];
	int64_t n = SQ_NONE;

	if (sq_spec_want(l, item, json_type_object, path) == -1)
		return -1;
	kind = sq_spec_op_kind(item);
	if (kind == NULL)
		return 0; /* not ours: kubectl get all lists pods too */
	sq_spec_child(p, path, "metadata.name");
	v = sq_spec_member(item, "metadata", "name", NULL);
	if (v == NULL)
		return sq_spec_fail(l, p, "missing");
	if (sq_spec_str(l, v, p, 1, &name) == -1)
		return -1;
	if (strcmp(kind, "NodeSet") == 0)
		return load_nodeset(l, item, name, path);
	if (strcmp(kind, "Controller") == 0)
		return load_controller(l, item, path);
	if (strcmp(kind, "LoginSet") == 0 || strcmp(kind, "RestApi") == 0) {
		v = sq_spec_member(item, "spec", NULL, NULL);
		sq_spec_child(p, path, "spec");
		if (v != NULL &&
		    (sq_spec_want(l, v, json_type_object, p) == -1 ||
		     replicas(l, v, p, &n) == -1))
			return -1;
		if (v == NULL)
			n = 1;
	}
	return add_comp(l, kind, name, n, path);
}

int
sq_spec_load_operator(struct sq_spec_ld *l, json_object *root)
{
	json_object *items;
	size_t i, n;
	char p[SQ_SPEC_PATH];

	l->spec->format = "operator";
	if (sq_spec_op_kind(root) != NULL)
		return load_item(l, root, "");
	if (!json_object_object_get_ex(root, "items", &items))
		return sq_spec_fail(l, "items",
				    "missing (a kind: List has items)");
	if (sq_spec_want(l, items, json_type_array, "items") == -1)
		return -1;
	n = json_object_array_length(items);
	for (i = 0; i < n; i++) {
		sq_spec_elem(p, "items", i);
		if (load_item(l, json_object_array_get_idx(items, i), p) == -1)
			return -1;
	}
	return 0;
}
