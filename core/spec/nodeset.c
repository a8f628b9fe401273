/*
 * nodeset.c - membership of nodes in node sets, per-set totals, and the
 * NodeSet=/NodeName= lines of a slurm.conf text. No I/O: the caller
 * reads files and fetches nodes.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base/buf.h"
#include "core/base/hostlist.h"
#include "core/spec/nodeset.h"
#include "core/base/parse.h"

static const char *const source_names[] = {
#define SQ_NS_NAME(e, n) n,
	SQ_NODESET_SOURCES(SQ_NS_NAME)
#undef SQ_NS_NAME
};

const char *
sq_nodeset_source_name(enum sq_nodeset_source s)
{
	if ((unsigned)s >= sizeof(source_names) / sizeof(source_names[0]))
		return "?";
	return source_names[s];
}

static int
set(const char *s)
{
	return s != NULL && *s != '\0';
}

/* Is item one of the comma-separated entries of list? */
static int
in_list(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == n && strncmp(p, item, n) == 0)
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

static int
prefix_match(const char *prefix, const char *node)
{
	size_t l = strlen(prefix);
	const char *p;

	if (strncmp(node, prefix, l) != 0)
		return 0;
	p = node + l;
	if (*p == '\0')
		return 1;
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '\0';
}

int
sq_nodeset_match(const struct sq_nodeset_def *def, const char *node,
		 const char *features)
{
	if (set(def->nodes) && sq_hostlist_contains(def->nodes, node))
		return 1;
	if (set(def->feature) && features != NULL &&
	    in_list(features, def->feature))
		return 1;
	if (set(def->prefix) && prefix_match(def->prefix, node))
		return 1;
	return 0;
}

static int
feat_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sq_kv *)a)->key,
		      ((const struct sq_kv *)b)->key);
}

/* the table is sorted by node name (sq_nodeset_parse_conf): one binary
 * search a node, not a scan of every host of slurm.conf */
const char *
sq_nodeset_features(const struct sq_kv *feats, size_t nfeats, const char *node)
{
	struct sq_kv want;
	const struct sq_kv *kv;

	if (feats == NULL || nfeats == 0 || node == NULL)
		return NULL;
	memset(&want, 0, sizeof(want));
	want.key = node;
	kv = bsearch(&want, feats, nfeats, sizeof(*feats), feat_cmp);
	return kv != NULL ? kv->value : NULL;
}

const char *
sq_nodeset_state_class(const char *state)
{
	char s[64];
	size_t i;

	if (state == NULL)
		return "other";
	for (i = 0; state[i] != '\0' && i < sizeof(s) - 1; i++)
		s[i] = (char)tolower((unsigned char)state[i]);
	s[i] = '\0';
	/* sinfo long states: idle, mixed, allocated, drained, draining,
	 * down, fail, failing, completing ... with flags * ~ # ! % $ @ ^ - */
	if (strncmp(s, "drain", 5) == 0 || strncmp(s, "drng", 4) == 0)
		return "drain";
	if (strncmp(s, "down", 4) == 0 || strncmp(s, "fail", 4) == 0 ||
	    strncmp(s, "not_responding", 14) == 0)
		return "down";
	if (strncmp(s, "idle", 4) == 0)
		return "idle";
	if (strncmp(s, "mix", 3) == 0)
		return "mixed";
	if (strncmp(s, "alloc", 5) == 0)
		return "alloc";
	return "other";
}

static void
count_node(struct sq_nodeset *r, const struct sq_node *nd)
{
	const char *c = sq_nodeset_state_class(nd->state);

	r->nodes++;
	if (strcmp(c, "idle") == 0)
		r->idle++;
	else if (strcmp(c, "mixed") == 0)
		r->mixed++;
	else if (strcmp(c, "alloc") == 0)
		r->alloc++;
	else if (strcmp(c, "drain") == 0)
		r->drain++;
	else if (strcmp(c, "down") == 0)
		r->down++;
	else
		r->other++;
	if (nd->cpus_total > 0)
		r->cpus_total += nd->cpus_total;
	if (nd->cpus_alloc > 0)
		r->cpus_alloc += nd->cpus_alloc;
	if (nd->gpus_total > 0)
		r->gpus_total += nd->gpus_total;
	if (nd->gpus_alloc > 0)
		r->gpus_alloc += nd->gpus_alloc;
}

/* Add one set row over the nodes for which take[i] is set. */
static int
add_row(struct sq_snapshot *out, const char *name, const char *source,
	int64_t declared, const struct sq_snapshot *nodes,
	const unsigned char *take)
{
	struct sq_nodeset *r = sq_snapshot_add(out);
	const char **names;
	struct sq_buf b;
	size_t i, n = 0;
	int rc = 0;

	if (r == NULL)
		return -1;
	r->name = sq_snapshot_str(out, name);
	r->source = source;
	r->declared = declared;
	names = calloc(nodes->nrows + 1, sizeof(*names));
	if (names == NULL)
		return -1;
	for (i = 0; i < nodes->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(nodes, i);

		if (!take[i])
			continue;
		count_node(r, nd);
		names[n++] = nd->name;
	}
	sq_buf_init(&b, 0);
	if (sq_hostlist_fold(names, n, &b) == -1)
		rc = -1;
	r->nodelist = sq_snapshot_str(out, sq_buf_str(&b));
	sq_buf_free(&b);
	free(names);
	return rc;
}

/* Distinct features of all nodes, in order of first appearance. */
static int
feature_defs(const struct sq_kv *feats, size_t nfeats,
	     const struct sq_snapshot *nodes, struct sq_snapshot *out,
	     unsigned char *take, unsigned char *taken)
{
	size_t i, j;

	for (i = 0; i < nodes->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(nodes, i);
		const char *f = sq_nodeset_features(feats, nfeats, nd->name);
		const char *p = f;

		while (p != NULL && *p != '\0') {
			const char *e = strchr(p, ',');
			size_t l = e ? (size_t)(e - p) : strlen(p);
			char feat[128];
			int seen = 0;

			if (l > 0 && l < sizeof(feat) && !sq_is_none(p)) {
				memcpy(feat, p, l);
				feat[l] = '\0';
				for (j = 0; j < out->nrows; j++) {
					const struct sq_nodeset *r =
					    sq_snapshot_row(out, j);

					if (strcmp(r->name, feat) == 0)
						seen = 1;
				}
				if (!seen) {
					struct sq_nodeset_def d = { 0 };
					size_t k;

					d.feature = feat;
					for (k = 0; k < nodes->nrows; k++) {
						const struct sq_node *o =
						    sq_snapshot_row(nodes, k);

						take[k] = (unsigned char)
						    sq_nodeset_match(
							&d, o->name,
							sq_nodeset_features(
							    feats, nfeats,
							    o->name));
						taken[k] |= take[k];
					}
					if (add_row(out, feat, "features",
						    SQ_NONE, nodes, take) == -1)
						return -1;
				}
			}
			p = e ? e + 1 : NULL;
		}
	}
	return 0;
}

int
sq_nodeset_group(const struct sq_nodeset_def *defs, size_t ndefs,
		 const struct sq_kv *feats, size_t nfeats,
		 const struct sq_snapshot *nodes, struct sq_snapshot *out)
{
	unsigned char *take, *taken;
	size_t i, k;
	int rc = 0, rest = 0;

	take = calloc(nodes->nrows + 1, 1);
	taken = calloc(nodes->nrows + 1, 1);
	if (take == NULL || taken == NULL) {
		rc = -1;
		goto out;
	}
	if (ndefs == 0) {
		rc = feature_defs(feats, nfeats, nodes, out, take, taken);
		if (rc == -1)
			goto out;
	}
	for (i = 0; i < ndefs; i++) {
		for (k = 0; k < nodes->nrows; k++) {
			const struct sq_node *nd = sq_snapshot_row(nodes, k);

			take[k] = (unsigned char)sq_nodeset_match(
			    &defs[i], nd->name,
			    sq_nodeset_features(feats, nfeats, nd->name));
			taken[k] |= take[k];
		}
		if (add_row(out, defs[i].name,
			    sq_nodeset_source_name(defs[i].source),
			    defs[i].declared, nodes, take) == -1) {
			rc = -1;
			goto out;
		}
	}
	for (k = 0; k < nodes->nrows; k++) {
		take[k] = !taken[k];
		rest |= take[k];
	}
	if (rest)
		rc = add_row(out, "(none)", "none", SQ_NONE, nodes, take);
out:
	free(take);
	free(taken);
	return rc;
}

struct map_entry {
	char *name;
	size_t set;
};

static int
cmp_entry(const void *a, const void *b)
{
	const struct map_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c != 0)
		return c;
	return x->set < y->set ? -1 : x->set > y->set;
}

void
sq_nodeset_map_free(struct sq_nodeset_map *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->names[i]);
	free(m->names);
	free(m->set);
	memset(m, 0, sizeof(*m));
}

int
sq_nodeset_map_build(const struct sq_snapshot *sets, struct sq_nodeset_map *m)
{
	struct map_entry *e = NULL;
	size_t i, k, n = 0, cap = 0, u;

	memset(m, 0, sizeof(*m));
	for (i = 0; sets != NULL && i < sets->nrows; i++) {
		const struct sq_nodeset *r = sq_snapshot_row(sets, i);
		size_t nn;
		char **v;

		if (strcmp(r->name, "(none)") == 0)
			continue;
		v = sq_hostlist_names(r->nodelist, &nn);
		if (nn == (size_t)-1)
			continue;
		if (n + nn > cap) {
			struct map_entry *ne;

			cap = (n + nn) * 2;
			ne = realloc(e, cap * sizeof(*e));
			if (ne == NULL) {
				sq_hostlist_free_names(v, nn);
				goto fail;
			}
			e = ne;
		}
		for (k = 0; k < nn; k++) {
			e[n].name = v[k];
			e[n++].set = i;
		}
		free(v); /* the names now belong to e */
	}
	if (n == 0) {
		free(e);
		return 0;
	}
	qsort(e, n, sizeof(*e), cmp_entry);
	m->names = calloc(n, sizeof(*m->names));
	m->set = calloc(n, sizeof(*m->set));
	if (m->names == NULL || m->set == NULL) {
		free(m->names);
		free(m->set);
		m->names = NULL;
		m->set = NULL;
		goto fail;
	}
	for (i = 0, u = 0; i < n; i++) {
		if (u > 0 && strcmp(m->names[u - 1], e[i].name) == 0) {
			free(e[i].name); /* a later set: the first one wins */
			continue;
		}
		m->names[u] = e[i].name;
		m->set[u++] = e[i].set;
	}
	m->n = u;
	free(e);
	return 0;
fail:
	for (i = 0; i < n; i++)
		free(e[i].name);
	free(e);
	return -1;
}

long
sq_nodeset_map_find(const struct sq_nodeset_map *m, const char *node)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(node, m->names[mid]);

		if (c == 0)
			return (long)m->set[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* --- slurm.conf ---------------------------------------------------- */

struct conf_out {
	struct sq_arena *arena;
	struct sq_nodeset_def *defs;
	size_t ndefs, cdefs;
	struct sq_kv *feats;
	size_t nfeats, cfeats;
	const char *features; /* of the NodeName line being expanded */
	size_t hosts;         /* host names expanded so far, repeats too */
	int enomem;
	size_t *slot; /* feats by host name: index + 1, 0 empty */
	size_t nslot; /* a power of two, at least twice nfeats */
};

static int
grow(void **v, size_t *cap, size_t n, size_t size)
{
	void *nv;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	nv = realloc(*v, ncap * size);
	if (nv == NULL)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* djb2, then a 64-bit finalizer (MurmurHash3's fmix64): host names are
 * runs like n1 ... n71604 whose plain djb2 values are consecutive, and
 * consecutive values in a linearly probed table make long clusters (the
 * spec_slurmconf harness took 1.4 s on one 71,604-host line) */
static size_t
name_hash(const char *s)
{
	uint64_t h = 5381;

	for (; *s != '\0'; s++)
		h = h * 33 + (unsigned char)*s;
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return (size_t)h;
}

/* The slot of name in the index: its entry's, or the empty one it would
 * take (the index is never full). */
static size_t *
feat_slot(const struct conf_out *o, const char *name)
{
	size_t i = name_hash(name) & (o->nslot - 1);

	while (o->slot[i] != 0 &&
	       strcmp(o->feats[o->slot[i] - 1].key, name) != 0)
		i = (i + 1) & (o->nslot - 1);
	return &o->slot[i];
}

/* Room in the index for one more entry. */
static int
index_room(struct conf_out *o)
{
	size_t *old = o->slot, oldn = o->nslot, i;

	if ((o->nfeats + 1) * 2 <= o->nslot)
		return 0;
	o->nslot = oldn != 0 ? oldn * 2 : 64;
	o->slot = calloc(o->nslot, sizeof(*o->slot));
	if (o->slot == NULL) {
		o->slot = old;
		o->nslot = oldn;
		return -1;
	}
	for (i = 0; i < o->nfeats; i++)
		*feat_slot(o, o->feats[i].key) = i + 1;
	free(old);
	return 0;
}

/* Host names read from all NodeName lines, repeats too: one line can
 * hold SQ_HOSTLIST_MAX, a few hundred such lines tens of millions. */
#define CONF_HOSTS_MAX (4 * (size_t)SQ_HOSTLIST_MAX)

/* One host of a NodeName line: a hash index finds its earlier entry (a
 * line of 100,000 hosts must not cost 100,000^2 / 2 compares). At most
 * SQ_HOSTLIST_MAX hosts get an entry; it stops after CONF_HOSTS_MAX. */
static int
add_feat(void *arg, const char *name)
{
	struct conf_out *o = arg;
	struct sq_kv *kv;
	size_t *slot;

	if (o->hosts >= CONF_HOSTS_MAX)
		return -1;
	o->hosts++;
	if (index_room(o) == -1) {
		o->enomem = 1;
		return -1;
	}
	slot = feat_slot(o, name);
	if (*slot != 0) { /* a later line wins */
		o->feats[*slot - 1].value = o->features;
		return 0;
	}
	if (o->nfeats >= SQ_HOSTLIST_MAX)
		return 0;
	if (grow((void **)&o->feats, &o->cfeats, o->nfeats, sizeof(*kv)) ==
	    -1) {
		o->enomem = 1;
		return -1;
	}
	kv = &o->feats[o->nfeats];
	kv->section = "";
	kv->key = sq_arena_strdup(o->arena, name);
	kv->value = o->features;
	if (kv->key == NULL) {
		o->enomem = 1;
		return -1;
	}
	*slot = ++o->nfeats;
	return 0;
}

/* Value of key in the words of one line, or NULL. */
static const char *
word_value(char **words, int nw, const char *key, const char *key2)
{
	int i;

	for (i = 0; i < nw; i++) {
		char *eq = strchr(words[i], '=');
		size_t l;

		if (eq == NULL)
			continue;
		l = (size_t)(eq - words[i]);
		if ((strlen(key) == l && strncasecmp(words[i], key, l) == 0) ||
		    (key2 != NULL && strlen(key2) == l &&
		     strncasecmp(words[i], key2, l) == 0))
			return eq + 1;
	}
	return NULL;
}

static int
conf_line(char *line, struct conf_out *o, char *default_features, size_t dflen)
{
	char *words[64], *p = line;
	int nw = 0;
	const char *name;

	while (*p != '\0' && nw < 64) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		words[nw++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
	if (nw == 0)
		return 0;
	if (strncasecmp(words[0], "NodeSet=", 8) == 0) {
		struct sq_nodeset_def *d;
		const char *f = word_value(words, nw, "Feature", "Features");
		const char *nodes = word_value(words, nw, "Nodes", NULL);

		if (grow((void **)&o->defs, &o->cdefs, o->ndefs, sizeof(*d)) ==
		    -1)
			return -1;
		d = &o->defs[o->ndefs++];
		memset(d, 0, sizeof(*d));
		d->name = sq_arena_strdup(o->arena, words[0] + 8);
		d->feature = f ? sq_arena_strdup(o->arena, f) : NULL;
		d->nodes = nodes ? sq_arena_strdup(o->arena, nodes) : NULL;
		d->source = SQ_NS_SLURMCONF;
		d->declared = SQ_NONE;
		return d->name == NULL ? -1 : 0;
	}
	if (strncasecmp(words[0], "NodeName=", 9) != 0)
		return 0;
	name = words[0] + 9;
	{
		const char *f = word_value(words, nw, "Features", "Feature");

		if (strcasecmp(name, "DEFAULT") == 0) {
			if (f != NULL)
				snprintf(default_features, dflen, "%s", f);
			return 0;
		}
		if (f == NULL && *default_features != '\0')
			f = default_features;
		if (f == NULL || sq_is_none(f) || o->hosts >= CONF_HOSTS_MAX)
			return 0;
		o->features = sq_arena_strdup(o->arena, f);
		if (o->features == NULL)
			return -1;
		/* a malformed host list only loses its features */
		o->enomem = 0;
		if (sq_hostlist_expand(name, add_feat, o) != 0 && o->enomem)
			return -1;
		return 0;
	}
}

int
sq_nodeset_parse_conf(char *text, struct sq_arena *arena,
		      struct sq_nodeset_def **defs, size_t *ndefs,
		      struct sq_kv **feats, size_t *nfeats)
{
	struct conf_out o;
	struct sq_buf logical;
	char *pos = text, *line, dfeat[256] = "";
	int rc = 0;

	memset(&o, 0, sizeof(o));
	o.arena = arena;
	sq_buf_init(&logical, 1 << 20);
	while ((line = sq_next_line(&pos)) != NULL) {
		char *hash = strchr(line, '#');
		size_t l;
		int cont;

		if (hash != NULL)
			*hash = '\0';
		l = strlen(line);
		while (l > 0 && (line[l - 1] == ' ' || line[l - 1] == '\t'))
			line[--l] = '\0';
		cont = l > 0 && line[l - 1] == '\\';
		if (cont)
			line[--l] = '\0';
		if (sq_buf_append(&logical, line, l) == -1 ||
		    sq_buf_append(&logical, " ", 1) == -1) {
			rc = -1;
			break;
		}
		if (cont)
			continue;
		if (conf_line(logical.data, &o, dfeat, sizeof(dfeat)) == -1) {
			rc = -1;
			break;
		}
		sq_buf_reset(&logical);
	}
	if (rc == 0 && logical.len > 0)
		rc = conf_line(logical.data, &o, dfeat, sizeof(dfeat));
	sq_buf_free(&logical);
	free(o.slot);
	if (rc == -1) {
		free(o.defs);
		free(o.feats);
		o.defs = NULL;
		o.feats = NULL;
		o.ndefs = o.nfeats = 0;
	} else if (o.nfeats > 1) {
		/* host names are unique (add_feat merged them): sorted, a
		 * lookup is a binary search */
		qsort(o.feats, o.nfeats, sizeof(*o.feats), feat_cmp);
	}
	*defs = o.defs;
	*ndefs = o.ndefs;
	*feats = o.feats;
	*nfeats = o.nfeats;
	return rc;
}
