/*
 * nodeset.h - node sets: which set a node belongs to and per-set totals
 * of nodes by state, CPUs and accelerators (the NODESETS kind).
 *
 * Pure functions over plain data and snapshots; where the set
 * definitions come from (slurm.conf NodeSet= lines, the operator's
 * NodeSets, a spec's node pools) is the caller's business.
 */
#ifndef SQ_NODESET_H
#define SQ_NODESET_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/arena.h"
#include "core/model/model_admin.h"
#include "core/model/snapshot.h"

/* X(enum suffix, name) - where a set definition came from */
#define SQ_NODESET_SOURCES(X)                                                  \
	X(SLURMCONF, "slurm.conf")                                             \
	X(OPERATOR, "operator")                                                \
	X(POOL, "spec")                                                        \
	X(FEATURE, "features")                                                 \
	X(NONE, "none")

enum sq_nodeset_source {
#define SQ_NS_ENUM(e, n) SQ_NS_##e,
	SQ_NODESET_SOURCES(SQ_NS_ENUM)
#undef SQ_NS_ENUM
};

const char *sq_nodeset_source_name(enum sq_nodeset_source s);

/*
 * One set definition. A node belongs to the set when any given rule
 * matches: nodes (a host list), feature (one of the node's features),
 * prefix (the node's name is prefix, or prefix then digits, or prefix,
 * '-' and digits: "gpu" takes gpu, gpu7 and gpu-0 but not gpux).
 * NULL or "" disables a rule. declared is the number of nodes the set
 * should have (an operator NodeSet's replicas) or SQ_NONE.
 */
struct sq_nodeset_def {
	const char *name;
	const char *nodes;
	const char *feature;
	const char *prefix;
	enum sq_nodeset_source source;
	int64_t declared;
};

/* A row of the NODESETS kind: one set and its totals. */
struct sq_nodeset {
	const char *name;
	const char *source; /* sq_nodeset_source_name() */
	const char
	    *nodelist;    /* folded host list of the members, "" when none */
	int64_t declared; /* SQ_NONE when the definition has no count */
	int64_t nodes;
	int64_t idle;
	int64_t mixed;
	int64_t alloc;
	int64_t drain; /* drained and draining */
	int64_t down;  /* down, fail, not responding */
	int64_t other; /* anything else (completing, maint, planned ...) */
	int64_t cpus_alloc;
	int64_t cpus_total;
	int64_t gpus_alloc;
	int64_t gpus_total;
};

/*
 * Does node (name, and its comma-separated features or NULL) belong to
 * def? Returns 1 or 0.
 */
int sq_nodeset_match(const struct sq_nodeset_def *def, const char *node,
		     const char *features);

/* Features of node in a node -> features table (key = node, sorted by
 * key with strcmp, as sq_nodeset_parse_conf returns it), or NULL. */
const char *sq_nodeset_features(const struct sq_kv *feats, size_t nfeats,
				const char *node);

/* State class of a node's sinfo long state: "idle", "mixed", "alloc",
 * "drain", "down" or "other" (flags like '*' and '~' are ignored). */
const char *sq_nodeset_state_class(const char *state);

/*
 * Group the rows of a NODES snapshot into out (a NODESETS snapshot):
 * one row per definition, in order, then a "(none)" row for the nodes no
 * definition took (only when there are such nodes). A node may be in
 * several sets. With ndefs == 0 the nodes are grouped by feature (from
 * feats; a node with several features counts in each, one without in
 * "(none)"). Returns 0, -1 on ENOMEM.
 */
int sq_nodeset_group(const struct sq_nodeset_def *defs, size_t ndefs,
		     const struct sq_kv *feats, size_t nfeats,
		     const struct sq_snapshot *nodes, struct sq_snapshot *out);

/*
 * Node -> set lookup over the rows of a NODESETS snapshot, for grouping
 * a nodes table of thousands of rows: built once per snapshot, then a
 * binary search per node. find returns the row index of the first set
 * (in snapshot order, "(none)" skipped) that holds node, or -1. build
 * returns -1 on ENOMEM; free is safe on a zeroed map.
 */
struct sq_nodeset_map {
	char **names;
	size_t *set;
	size_t n;
};
int sq_nodeset_map_build(const struct sq_snapshot *sets,
			 struct sq_nodeset_map *m);
long sq_nodeset_map_find(const struct sq_nodeset_map *m, const char *node);
void sq_nodeset_map_free(struct sq_nodeset_map *m);

/*
 * NodeSet= and NodeName= lines of a slurm.conf text (modified in place;
 * comments, continuation lines and case-insensitive keys as Slurm reads
 * them; Include lines are not followed). Each NodeSet becomes a def
 * (source SQ_NS_SLURMCONF, strings in arena); each NodeName line with
 * Features= gives a node -> features row per host (one per host, the
 * last line's features winning, sorted by host name). At most
 * SQ_HOSTLIST_MAX hosts get a row, and NodeName lines are read until
 * 400,000 host names in all (repeats counted). Arrays are malloc'd
 * into *defs and *feats (free() them); -1 on ENOMEM.
 */
int sq_nodeset_parse_conf(char *text, struct sq_arena *arena,
			  struct sq_nodeset_def **defs, size_t *ndefs,
			  struct sq_kv **feats, size_t *nfeats);

#endif
