/*
 * spec_compare.c - a declared cluster (struct sq_spec) against the live
 * one: one SPEC row per declared item with its declared value, live value
 * and status. Pure: reads snapshots the caller fetched, writes rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/buf.h"
#include "core/base/hostlist.h"
#include "core/spec/spec.h"

void
sq_spec_init(struct sq_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	sq_arena_init(&spec->arena);
	spec->file = spec->format = "";
	spec->default_partition = spec->default_path = "";
	spec->login_pool = spec->home_storage = "";
	spec->prolog_path = spec->epilog_path = "";
}

void
sq_spec_free(struct sq_spec *spec)
{
	sq_arena_free(&spec->arena);
	memset(spec, 0, sizeof(*spec));
}

const struct sq_spec_pool *
sq_spec_pool(const struct sq_spec *spec, const char *id)
{
	size_t i;

	for (i = 0; i < spec->npools; i++) {
		if (strcmp(spec->pools[i].id, id) == 0)
			return &spec->pools[i];
	}
	return NULL;
}

void
sq_spec_pool_def(const struct sq_spec *spec, const char *id,
		 const struct sq_nodeset_def *conf_sets, size_t nconf_sets,
		 struct sq_nodeset_def *def)
{
	const struct sq_spec_pool *pool = sq_spec_pool(spec, id);
	size_t i;

	memset(def, 0, sizeof(*def));
	def->name = id;
	def->source = SQ_NS_POOL;
	def->declared = SQ_NONE;
	if (pool != NULL && pool->nodes[0] != '\0') {
		def->nodes = pool->nodes;
		def->declared = sq_hostlist_count(pool->nodes);
		return;
	}
	for (i = 0; i < nconf_sets; i++) {
		if (strcmp(conf_sets[i].name, id) == 0) {
			def->nodes = conf_sets[i].nodes;
			def->feature = conf_sets[i].feature;
			return;
		}
	}
	for (i = 0; i < spec->nnodesets; i++) {
		if (strcmp(spec->nodesets[i].name, id) == 0) {
			def->feature = spec->nodesets[i].feature;
			def->prefix = spec->nodesets[i].prefix;
			return;
		}
	}
	def->feature = id;
	def->prefix = id;
}

int
sq_spec_nodeset_defs(const struct sq_spec *spec,
		     const struct sq_nodeset_def *conf_sets, size_t nconf_sets,
		     struct sq_nodeset_def **defs, size_t *ndefs)
{
	size_t i, n = 0;
	struct sq_nodeset_def *d;

	*defs = NULL;
	*ndefs = 0;
	if (nconf_sets > 0) {
		d = calloc(nconf_sets, sizeof(*d));
		if (d == NULL)
			return -1;
		memcpy(d, conf_sets, nconf_sets * sizeof(*d));
		*defs = d;
		*ndefs = nconf_sets;
		return 0;
	}
	if (spec == NULL)
		return 0;
	if (spec->nnodesets > 0) {
		d = calloc(spec->nnodesets, sizeof(*d));
		if (d == NULL)
			return -1;
		memcpy(d, spec->nodesets, spec->nnodesets * sizeof(*d));
		*defs = d;
		*ndefs = spec->nnodesets;
		return 0;
	}
	if (spec->npools == 0)
		return 0;
	d = calloc(spec->npools, sizeof(*d));
	if (d == NULL)
		return -1;
	for (i = 0; i < spec->npools; i++) {
		/* the login pool is not a set of compute nodes */
		if (strcmp(spec->pools[i].id, spec->login_pool) == 0)
			continue;
		sq_spec_pool_def(spec, spec->pools[i].id, conf_sets, nconf_sets,
				 &d[n++]);
	}
	*defs = d;
	*ndefs = n;
	return 0;
}

/* --- rows ---------------------------------------------------------- */

static int
row(struct sq_snapshot *out, const char *item, const char *declared,
    const char *live, const char *status, const char *path, const char *note)
{
	struct sq_spec_row *r = sq_snapshot_add(out);

	if (r == NULL)
		return -1;
	r->item = sq_snapshot_str(out, item);
	r->declared = sq_snapshot_str(out, declared ? declared : "");
	r->live = sq_snapshot_str(out, live ? live : "");
	r->status = status;
	r->path = sq_snapshot_str(out, path ? path : "");
	r->note = sq_snapshot_str(out, note ? note : "");
	return 0;
}

/* Live nodes a definition takes, as a malloc'd array of names. */
static const char **
members(const struct sq_nodeset_def *def, const struct sq_spec_live *live,
	size_t *n)
{
	const char **v = calloc(live->nodes->nrows + 1, sizeof(*v));
	size_t i;

	*n = 0;
	if (v == NULL)
		return NULL;
	for (i = 0; i < live->nodes->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(live->nodes, i);

		if (sq_nodeset_match(def, nd->name,
				     sq_nodeset_features(live->features,
							 live->nfeatures,
							 nd->name)))
			v[(*n)++] = nd->name;
	}
	return v;
}

static int
live_node(const struct sq_spec_live *live, const char *name)
{
	size_t i;

	for (i = 0; i < live->nodes->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(live->nodes, i);

		if (strcmp(nd->name, name) == 0)
			return 1;
	}
	return 0;
}

/* Words for how a pool finds its nodes, for the note column. */
static void
rule_text(const struct sq_nodeset_def *d, struct sq_buf *b)
{
	if (d->nodes != NULL && d->nodes[0] != '\0' &&
	    d->source == SQ_NS_POOL && d->declared != SQ_NONE)
		sq_buf_printf(b, "node_pools");
	else if (d->nodes != NULL && d->nodes[0] != '\0')
		sq_buf_printf(b, "NodeSet Nodes=%s", d->nodes);
	else if (d->feature != NULL && d->prefix != NULL &&
		 strcmp(d->feature, d->prefix) == 0)
		sq_buf_printf(b, "feature or name %s", d->feature);
	else if (d->feature != NULL && d->feature[0] != '\0')
		sq_buf_printf(b, "feature %s", d->feature);
	else if (d->prefix != NULL)
		sq_buf_printf(b, "name %s", d->prefix);
}

static const struct sq_partition *
live_partition(const struct sq_spec_live *live, const char *name)
{
	size_t i;

	for (i = 0; i < live->partitions->nrows; i++) {
		const struct sq_partition *p =
		    sq_snapshot_row(live->partitions, i);

		if (strcmp(p->name, name) == 0)
			return p;
	}
	return NULL;
}

/* Fold a host list into its canonical short form. */
static void
canonical(const char *expr, struct sq_buf *b)
{
	size_t n;
	char **v = sq_hostlist_names(expr, &n);

	if (n == (size_t)-1) {
		sq_buf_printf(b, "%s", expr);
		return;
	}
	sq_hostlist_fold((const char *const *)v, n, b);
	sq_hostlist_free_names(v, n);
}

static int
compare_partition(const struct sq_spec *spec,
		  const struct sq_spec_partition *sp,
		  const struct sq_spec_live *live, struct sq_snapshot *out)
{
	const struct sq_partition *lp = live_partition(live, sp->id);
	struct sq_buf decl, lv, note, item, all;
	const char **names = NULL;
	size_t i, nn = 0, cap = 0;
	int rc = 0, empty_pool = 0;
	const char *status;

	sq_buf_init(&decl, 0);
	sq_buf_init(&lv, 0);
	sq_buf_init(&note, 0);
	sq_buf_init(&item, 0);
	sq_buf_init(&all, 0);
	for (i = 0; i < sp->npools; i++) {
		struct sq_nodeset_def d;
		const char **m = NULL;
		size_t k, nm = 0;

		sq_spec_pool_def(spec, sp->pools[i], live->conf_sets,
				 live->nconf_sets, &d);
		if (d.source == SQ_NS_POOL && d.declared != SQ_NONE) {
			/* node_pools: the declared hosts themselves */
			size_t nh;
			char **h = sq_hostlist_names(d.nodes, &nh);

			if (nh == (size_t)-1)
				nh = 0;
			nm = nh;
			m = calloc(nh + 1, sizeof(*m));
			for (k = 0; m != NULL && k < nh; k++)
				m[k] = sq_snapshot_str(out, h[k]);
			sq_hostlist_free_names(h, nh == 0 ? 0 : nh);
		} else {
			m = members(&d, live, &nm);
		}
		if (m == NULL) {
			rc = -1;
			goto out;
		}
		if (nm == 0)
			empty_pool = 1;
		if (nn + nm + 1 > cap) {
			const char **nv;

			cap = (nn + nm + 1) * 2;
			nv = realloc(names, cap * sizeof(*nv));
			if (nv == NULL) {
				free(m);
				rc = -1;
				goto out;
			}
			names = nv;
		}
		memcpy(names + nn, m, nm * sizeof(*m));
		nn += nm;
		free(m);
		sq_buf_printf(&note, "%spool %s: ", i ? "; " : "",
			      sp->pools[i]);
		rule_text(&d, &note);
		if (nm == 0)
			sq_buf_printf(&note, " (no node)");
		sq_buf_printf(&decl, "%s%s", i ? "+" : "", sp->pools[i]);
	}
	if (names != NULL)
		sq_hostlist_fold(names, nn, &all);
	sq_buf_printf(&decl, ": %s", all.len ? sq_buf_str(&all) : "(no node)");
	sq_buf_printf(&item, "partition %s", sp->id);
	if (lp == NULL) {
		status = "missing";
	} else {
		canonical(lp->nodelist, &lv);
		status = sq_hostlist_cmp(sq_buf_str(&all), lp->nodelist) == 0 &&
				 !(empty_pool && nn == 0)
			     ? "ok"
			     : "differs";
	}
	rc =
	    row(out, sq_buf_str(&item), sq_buf_str(&decl),
		lp ? sq_buf_str(&lv) : "", status, sp->path, sq_buf_str(&note));
out:
	free(names);
	sq_buf_free(&decl);
	sq_buf_free(&lv);
	sq_buf_free(&note);
	sq_buf_free(&item);
	sq_buf_free(&all);
	return rc;
}

static int
compare_default(const struct sq_spec *spec, const struct sq_spec_live *live,
		struct sq_snapshot *out)
{
	const char *want = spec->default_partition, *have = "";
	const char *status;
	size_t i;

	if (want[0] == '\0' && spec->nparts > 0)
		want = spec->parts[0].id;
	if (want[0] == '\0')
		return 0;
	for (i = 0; i < live->partitions->nrows; i++) {
		const struct sq_partition *p =
		    sq_snapshot_row(live->partitions, i);

		if (p->is_default > 0)
			have = p->name;
	}
	if (have[0] == '\0')
		status = "missing";
	else
		status = strcmp(want, have) == 0 ? "ok" : "differs";
	return row(out, "default_partition", want, have, status,
		   spec->default_path,
		   spec->default_path[0] ? "" : "the first partition");
}

static int
compare_param(const struct sq_spec_param *p, const struct sq_spec_live *live,
	      struct sq_snapshot *out)
{
	struct sq_buf item;
	const char *lv, *status, *note = "";
	int rc;

	sq_buf_init(&item, 0);
	sq_buf_printf(&item, "config %s", p->key);
	lv = sq_spec_config_value(live->config, p->key);
	if (live->config == NULL) {
		status = "unknown";
		note = live->config_error ? live->config_error
					  : "no scontrol show config";
		lv = "";
	} else if (lv == NULL) {
		status = "missing";
		note = "not in scontrol show config";
		lv = "";
	} else {
		status = sq_spec_value_equal(p->key, p->value, lv) ? "ok"
								   : "differs";
	}
	rc = row(out, sq_buf_str(&item), p->value, lv, status, p->path, note);
	sq_buf_free(&item);
	return rc;
}

/* prolog/epilog: the number of scripts against Prolog/Epilog being set */
static int
compare_script(const char *what, const char *key, int n, const char *path,
	       int operator_refs, const struct sq_spec_live *live,
	       struct sq_snapshot *out)
{
	char decl[64];
	const char *lv, *status, *note = "";
	int on;

	snprintf(decl, sizeof(decl), "%d %s%s", n,
		 operator_refs ? "ConfigMap" : "script", n == 1 ? "" : "s");
	if (live->config == NULL)
		return row(out, what, decl, "", "unknown", path,
			   live->config_error ? live->config_error
					      : "no scontrol show config");
	lv = sq_spec_config_value(live->config, key);
	on = lv != NULL && !sq_spec_value_equal(key, "", lv);
	if (n > 0 && on)
		status = "ok";
	else if (n > 0) {
		status = "missing";
		note =
		    key[0] == 'P' ? "Prolog is not set" : "Epilog is not set";
	} else if (on) {
		status = "extra";
		note = "the spec declares no script";
	} else
		status = "ok";
	return row(out, what, decl, on ? lv : "", status, path, note);
}

/* The sets the spec declares: its NodeSets, else its node pools but
 * the login pool (a row of its own); calloc'd, NULL without memory. */
static struct sq_nodeset_def *
set_defs(const struct sq_spec *spec, const struct sq_spec_live *live,
	 size_t *ndefs)
{
	struct sq_nodeset_def *defs;
	size_t i;

	*ndefs = 0;
	if (spec->nnodesets > 0) {
		defs = calloc(spec->nnodesets, sizeof(*defs));
		if (defs == NULL)
			return NULL;
		memcpy(defs, spec->nodesets, spec->nnodesets * sizeof(*defs));
		*ndefs = spec->nnodesets;
		return defs;
	}
	defs = calloc(spec->npools + 1, sizeof(*defs));
	if (defs == NULL)
		return NULL;
	for (i = 0; i < spec->npools; i++) {
		if (strcmp(spec->pools[i].id, spec->login_pool) == 0)
			continue;
		sq_spec_pool_def(spec, spec->pools[i].id, live->conf_sets,
				 live->nconf_sets, &defs[(*ndefs)++]);
	}
	return defs;
}

/* The texts of one set's row. */
struct set_row {
	struct sq_buf item, decl, note;
	const char *status, *path;
};

/* A NodeSet of the spec: declared count (or DaemonSet) against live. */
static void
nodeset_row(const struct sq_spec *spec, const struct sq_nodeset_def *d,
	    size_t i, size_t nm, struct set_row *r)
{
	sq_buf_printf(&r->item, "nodeset %s", d->name);
	if (d->declared == SQ_NONE)
		sq_buf_printf(&r->decl, "DaemonSet");
	else
		sq_buf_printf(&r->decl, "%lld nodes", (long long)d->declared);
	if (nm == 0)
		r->status = "missing";
	else if (d->declared == SQ_NONE || (int64_t)nm == d->declared)
		r->status = "ok";
	else
		r->status = "differs";
	sq_buf_printf(&r->note, "%zu live; ", nm);
	rule_text(d, &r->note);
	r->path = spec->nodeset_paths ? spec->nodeset_paths[i] : "";
}

/* A node pool of the spec: its hosts (every declared one must exist),
 * or its rule. */
static void
pool_row(const struct sq_spec *spec, const struct sq_spec_live *live,
	 const struct sq_nodeset_def *d, size_t nm, struct set_row *r)
{
	const struct sq_spec_pool *p = sq_spec_pool(spec, d->name);
	size_t nh, missing = 0, k;
	char **h;

	sq_buf_printf(&r->item, "pool %s", d->name);
	r->path = p ? p->path : "";
	rule_text(d, &r->note);
	if (d->declared == SQ_NONE) {
		sq_buf_printf(&r->decl, "(by rule)");
		r->status = nm > 0 ? "ok" : "missing";
		return;
	}
	h = sq_hostlist_names(d->nodes, &nh);
	if (nh == (size_t)-1)
		nh = 0;
	for (k = 0; k < nh; k++) {
		if (!live_node(live, h[k])) {
			sq_buf_printf(
			    &r->note, "%s%s",
			    missing ? "," : "; not in the cluster: ", h[k]);
			missing++;
		}
	}
	sq_hostlist_free_names(h, nh);
	canonical(d->nodes, &r->decl);
	if (nm == 0)
		r->status = "missing";
	else if (missing > 0)
		r->status = "differs";
	else
		r->status = "ok";
}

/* The row of set i; the live nodes it matches marked in taken. */
static int
compare_set(const struct sq_spec *spec, const struct sq_spec_live *live,
	    const struct sq_nodeset_def *d, size_t i, unsigned char *taken,
	    struct sq_snapshot *out)
{
	struct set_row r;
	struct sq_buf lv;
	const char **m;
	size_t nm = 0, k;
	int rc;

	m = members(d, live, &nm);
	if (m == NULL)
		return -1;
	for (k = 0; k < live->nodes->nrows; k++) {
		const struct sq_node *nd = sq_snapshot_row(live->nodes, k);

		if (sq_nodeset_match(d, nd->name,
				     sq_nodeset_features(live->features,
							 live->nfeatures,
							 nd->name)))
			taken[k] = 1;
	}
	memset(&r, 0, sizeof(r));
	sq_buf_init(&r.item, 0);
	sq_buf_init(&r.decl, 0);
	sq_buf_init(&r.note, 0);
	sq_buf_init(&lv, 0);
	sq_hostlist_fold(m, nm, &lv);
	if (spec->nnodesets > 0)
		nodeset_row(spec, d, i, nm, &r);
	else
		pool_row(spec, live, d, nm, &r);
	rc = row(out, sq_buf_str(&r.item), sq_buf_str(&r.decl), sq_buf_str(&lv),
		 r.status, r.path, sq_buf_str(&r.note));
	free(m);
	sq_buf_free(&r.item);
	sq_buf_free(&r.decl);
	sq_buf_free(&r.note);
	sq_buf_free(&lv);
	return rc;
}

/* The live nodes in no set (not taken): one row, when there are any. */
static int
undeclared(const struct sq_spec *spec, const struct sq_spec_live *live,
	   const unsigned char *taken, struct sq_snapshot *out)
{
	const char **rest = calloc(live->nodes->nrows + 1, sizeof(*rest));
	size_t nr = 0, k;
	int rc = 0;

	if (rest == NULL)
		return -1;
	for (k = 0; k < live->nodes->nrows; k++) {
		const struct sq_node *nd = sq_snapshot_row(live->nodes, k);

		if (!taken[k])
			rest[nr++] = nd->name;
	}
	if (nr > 0) {
		struct sq_buf lv;

		sq_buf_init(&lv, 0);
		sq_hostlist_fold(rest, nr, &lv);
		rc = row(out, "nodes undeclared", "", sq_buf_str(&lv), "extra",
			 "",
			 spec->nnodesets ? "in no NodeSet" : "in no node pool");
		sq_buf_free(&lv);
	}
	free(rest);
	return rc;
}

/* A row per set the spec declares, and one for the live nodes in none. */
static int
compare_sets(const struct sq_spec *spec, const struct sq_spec_live *live,
	     struct sq_snapshot *out)
{
	struct sq_nodeset_def *defs;
	size_t ndefs, i;
	unsigned char *taken;
	int rc = 0;

	defs = set_defs(spec, live, &ndefs);
	if (defs == NULL)
		return -1;
	taken = calloc(live->nodes->nrows + 1, 1);
	if (taken == NULL) {
		free(defs);
		return -1;
	}
	for (i = 0; i < ndefs && rc == 0; i++)
		rc = compare_set(spec, live, &defs[i], i, taken, out);
	if (rc == 0 && ndefs > 0)
		rc = undeclared(spec, live, taken, out);
	free(taken);
	free(defs);
	return rc;
}

static int
compare_component(const struct sq_spec_component *c,
		  const struct sq_spec_live *live, struct sq_snapshot *out)
{
	struct sq_buf item, decl;
	const char *lv = "", *status = "unknown", *note;
	int rc;

	sq_buf_init(&item, 0);
	sq_buf_init(&decl, 0);
	if (strcmp(c->kind, "Accounting") == 0) {
		sq_buf_printf(&item, "accounting %s", c->name);
		sq_buf_printf(&decl, "accounting_storage/slurmdbd");
		note = "AccountingStorageType";
		if (live->config == NULL) {
			note = live->config_error ? live->config_error
						  : "no scontrol show config";
		} else {
			lv = sq_spec_config_value(live->config,
						  "AccountingStorageType");
			if (lv == NULL || strstr(lv, "none") != NULL) {
				status = "missing";
				lv = lv ? lv : "";
			} else {
				status =
				    strstr(lv, "slurmdbd") ? "ok" : "differs";
			}
		}
	} else {
		char lower[32];
		size_t i;

		for (i = 0; c->kind[i] != '\0' && i < sizeof(lower) - 1; i++)
			lower[i] = (char)(c->kind[i] | 0x20);
		lower[i] = '\0';
		sq_buf_printf(&item, "%s %s", lower, c->name);
		if (c->replicas == SQ_NONE)
			sq_buf_printf(&decl, "1 replica");
		else
			sq_buf_printf(&decl, "%lld replica%s",
				      (long long)c->replicas,
				      c->replicas == 1 ? "" : "s");
		note = "not visible to Slurm";
	}
	rc = row(out, sq_buf_str(&item), sq_buf_str(&decl), lv, status, c->path,
		 note);
	sq_buf_free(&item);
	sq_buf_free(&decl);
	return rc;
}

int
sq_spec_compare(const struct sq_spec *spec, const struct sq_spec_live *live,
		struct sq_snapshot *out)
{
	size_t i, k;

	for (i = 0; i < spec->nparts; i++) {
		if (compare_partition(spec, &spec->parts[i], live, out) == -1)
			return -1;
	}
	/* live partitions the spec does not declare */
	for (k = 0; spec->nparts > 0 && k < live->partitions->nrows; k++) {
		const struct sq_partition *p =
		    sq_snapshot_row(live->partitions, k);
		int declared = 0;

		for (i = 0; i < spec->nparts; i++) {
			if (strcmp(spec->parts[i].id, p->name) == 0)
				declared = 1;
		}
		if (!declared) {
			struct sq_buf item, lv;
			int rc;

			sq_buf_init(&item, 0);
			sq_buf_init(&lv, 0);
			sq_buf_printf(&item, "partition %s", p->name);
			canonical(p->nodelist, &lv);
			rc = row(out, sq_buf_str(&item), "", sq_buf_str(&lv),
				 "extra", "", "not in the spec");
			sq_buf_free(&item);
			sq_buf_free(&lv);
			if (rc == -1)
				return -1;
		}
	}
	if (spec->nparts > 0 || spec->default_partition[0] != '\0') {
		if (compare_default(spec, live, out) == -1)
			return -1;
	}
	if (spec->login_pool[0] != '\0' &&
	    row(out, "login_node_pool", spec->login_pool, "", "unknown", "",
		"login nodes are not Slurm nodes") == -1)
		return -1;
	if (spec->home_storage[0] != '\0' &&
	    row(out, "home_directory_storage", spec->home_storage, "",
		"unknown", "", "storage is not visible to Slurm") == -1)
		return -1;
	for (i = 0; i < spec->nconfig; i++) {
		if (compare_param(&spec->config[i], live, out) == -1)
			return -1;
	}
	if (spec->has_prolog &&
	    compare_script("prolog", "Prolog", spec->nprolog, spec->prolog_path,
			   strcmp(spec->format, "operator") == 0, live,
			   out) == -1)
		return -1;
	if (spec->has_epilog &&
	    compare_script("epilog", "Epilog", spec->nepilog, spec->epilog_path,
			   strcmp(spec->format, "operator") == 0, live,
			   out) == -1)
		return -1;
	if ((spec->nnodesets > 0 || spec->npools > 0) &&
	    compare_sets(spec, live, out) == -1)
		return -1;
	for (i = 0; i < spec->ncomps; i++) {
		if (compare_component(&spec->comps[i], live, out) == -1)
			return -1;
	}
	return 0;
}

int
sq_spec_row_drifts(const struct sq_spec_row *r)
{
	return strcmp(r->status, "differs") == 0 ||
	       strcmp(r->status, "missing") == 0 ||
	       strcmp(r->status, "extra") == 0;
}
