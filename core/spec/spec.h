/*
 * spec.h - a declared cluster (a cluster spec's slurmSpec, or the Slinky
 * operator's resources) as plain data, and its comparison with the live
 * cluster: the rows of the SPEC kind.
 *
 * The JSON loader (spec.c, json-c) fills struct sq_spec; everything here
 * is pure. Strings of a spec live in its arena and are never NULL once
 * loaded ("" = not declared).
 */
#ifndef SQ_SPEC_H
#define SQ_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/arena.h"
#include "core/model/model_admin.h"
#include "core/spec/nodeset.h"
#include "core/model/snapshot.h"

/* A declared partition: its id and the node pools it spans. */
struct sq_spec_partition {
	const char *id;
	const char *path; /* JSON path, for messages and the path column */
	const char **pools;
	size_t npools;
	int from_nodeset; /* an operator NodeSet's partition (pools[0]) */
};

/* A node pool: id and, when the spec maps it, its hosts. */
struct sq_spec_pool {
	const char *id;
	const char *nodes; /* host list from node_pools, or "" */
	const char *path;
};

/* One slurm.conf parameter the spec declares. */
struct sq_spec_param {
	const char *key;
	const char *value;
	const char *path;
};

/*
 * An operator component Slurm cannot see for itself (LoginSet, RestApi)
 * or can only see through slurm.conf (Accounting).
 */
struct sq_spec_component {
	const char *kind; /* "LoginSet", "RestApi", "Accounting" */
	const char *name;
	int64_t replicas; /* SQ_NONE when not given */
	const char *path;
};

struct sq_spec {
	struct sq_arena arena;
	const char *file;   /* as given, for messages */
	const char *format; /* "slurmSpec" or "operator" */
	struct sq_spec_partition *parts;
	size_t nparts;
	const char *default_partition; /* "" when not declared */
	const char *default_path;      /* "" when defaulted to the first */
	const char *login_pool;
	const char *home_storage;
	struct sq_spec_param *config;
	size_t nconfig;
	int has_prolog, has_epilog; /* the lists are declared */
	int nprolog, nepilog;       /* scripts (or ConfigMaps, operator) */
	const char *prolog_path, *epilog_path;
	struct sq_spec_pool *pools;
	size_t npools;
	struct sq_nodeset_def *nodesets; /* operator NodeSets */
	size_t nnodesets;
	const char **nodeset_paths;
	struct sq_spec_component *comps;
	size_t ncomps;
};

/* An empty spec (arena initialised). */
void sq_spec_init(struct sq_spec *spec);
void sq_spec_free(struct sq_spec *spec);

/* The pool of a spec by id, or NULL. */
const struct sq_spec_pool *sq_spec_pool(const struct sq_spec *spec,
					const char *id);

/*
 * The node set definitions a spec implies, for sq_nodeset_group():
 * the operator's NodeSets when it has any, else one definition per node
 * pool (partition pools first, then the login pool) with the pool rule of
 * sq_spec_pool_def(). *defs is malloc'd (free() it); its strings belong
 * to the spec and to conf_sets. -1 on ENOMEM.
 */
int sq_spec_nodeset_defs(const struct sq_spec *spec,
			 const struct sq_nodeset_def *conf_sets,
			 size_t nconf_sets, struct sq_nodeset_def **defs,
			 size_t *ndefs);

/*
 * How a pool id finds its live nodes (the rule the man page states):
 * the spec's node_pools host list when it has one for the id; else a
 * slurm.conf NodeSet of that name (its Nodes= or Feature=); else an
 * operator NodeSet of that name; else nodes with a feature equal to the
 * id or named after it (id, id7, id-7).
 */
void sq_spec_pool_def(const struct sq_spec *spec, const char *id,
		      const struct sq_nodeset_def *conf_sets, size_t nconf_sets,
		      struct sq_nodeset_def *def);

/* A row of the SPEC kind. */
struct sq_spec_row {
	const char *item;     /* "partition gpu", "config PreemptMode" ... */
	const char *declared; /* "" when the item is not declared (extra) */
	const char *live;     /* "" when absent from the cluster (missing) */
	const char *status;   /* ok, differs, missing, extra, unknown */
	const char *path;     /* JSON path of the declaration, or "" */
	const char *note;     /* how it was compared, or why unknown */
};

/* Does the row say the cluster drifted from the spec (differs, missing,
 * extra)? ok and unknown (not visible to Slurm) do not. */
int sq_spec_row_drifts(const struct sq_spec_row *r);

/* What the comparison reads from the live cluster. */
struct sq_spec_live {
	const struct sq_snapshot *partitions;   /* required */
	const struct sq_snapshot *nodes;        /* required */
	const struct sq_snapshot *config;       /* NULL when unavailable */
	const char *config_error;               /* why config is NULL */
	const struct sq_nodeset_def *conf_sets; /* slurm.conf NodeSet= */
	size_t nconf_sets;
	const struct sq_kv *features; /* node -> features, may be empty */
	size_t nfeatures;
};

/*
 * Compare spec with the live cluster and append one row per declared
 * item to out (a SPEC snapshot), then the live partitions and nodes the
 * spec does not declare (status extra). Returns 0, -1 on ENOMEM.
 */
int sq_spec_compare(const struct sq_spec *spec, const struct sq_spec_live *live,
		    struct sq_snapshot *out);

/*
 * Is a declared slurm.conf value equal to what `scontrol show config`
 * prints for key? Normalises as Slurm reads slurm.conf: key-specific
 * units (time strings where a bare number is minutes, "N sec" values
 * where it is seconds, memory sizes in MB), case, yes/no and true/false,
 * comma lists in any order, and the spellings of "not set".
 */
int sq_spec_value_equal(const char *key, const char *declared,
			const char *live);

/* The live value of key in a CONFIG snapshot (case-insensitive), or NULL. */
const char *sq_spec_config_value(const struct sq_snapshot *config,
				 const char *key);

#endif
