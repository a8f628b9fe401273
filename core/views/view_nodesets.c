/*
 * view_nodesets.c - the nodesets view: nodes grouped by node set
 * (slurm.conf NodeSet= lines, else the operator's NodeSets, else the
 * spec's node pools, else node features), with nodes by state, CPUs and
 * accelerators per set.
 */
#include "core/spec/nodeset.h"
#include "core/views/view_cols.h"
#include "core/views/view_spec.h"

#define S struct sq_nodeset

SQ_STR_FIELD(c_name, S, r->name)
SQ_STR_FIELD(c_source, S, r->source)
SQ_STR_FIELD(c_nodelist, S, r->nodelist)
SQ_INT_FIELD(c_declared, S, r->declared)
SQ_INT_FIELD(c_nodes, S, r->nodes)
SQ_INT_FIELD(c_idle, S, r->idle)
SQ_INT_FIELD(c_mixed, S, r->mixed)
SQ_INT_FIELD(c_alloc, S, r->alloc)
SQ_INT_FIELD(c_drain, S, r->drain)
SQ_INT_FIELD(c_down, S, r->down)
SQ_INT_FIELD(c_other, S, r->other)
SQ_INT_FIELD(c_ca, S, r->cpus_alloc)
SQ_INT_FIELD(c_ct, S, r->cpus_total)
SQ_INT_FIELD(c_ga, S, r->gpus_alloc)
SQ_INT_FIELD(c_gt, S, r->gpus_total)

#define NUM(id, title, help, fn)                                               \
	{                                                                      \
		id, title, help, 6, SQ_RIGHT, fn, fn##_num, SQ_COL_NUM         \
	}

static const struct sq_column cols[] = {
	{ "nodeset", "NODESET", "node set, or (none) for nodes in no set", 16,
	  SQ_LEFT, c_name, NULL, 0 },
	{ "source", "SOURCE",
	  "where the set is defined: slurm.conf, operator, spec, features", 10,
	  SQ_LEFT, c_source, NULL, 0 },
	NUM("nodes", "NODES", "nodes in the set", c_nodes),
	NUM("declared", "DECL", "nodes the definition asks for (replicas)",
	    c_declared),
	NUM("idle", "IDLE", "idle nodes", c_idle),
	NUM("mixed", "MIX", "partly allocated nodes", c_mixed),
	NUM("alloc", "ALLOC", "fully allocated nodes", c_alloc),
	NUM("drain", "DRAIN", "drained or draining nodes", c_drain),
	NUM("down", "DOWN", "down or failed nodes", c_down),
	NUM("other", "OTHER", "nodes in any other state", c_other),
	NUM("cpus_alloc", "CPU_A", "allocated CPUs", c_ca),
	NUM("cpus_total", "CPU_T", "CPUs", c_ct),
	NUM("gpus_alloc", "GPU_A", "allocated accelerators", c_ga),
	NUM("gpus_total", "GPU_T", "accelerators", c_gt),
	{ "nodelist", "NODELIST", "members of the set", 20, SQ_LEFT, c_nodelist,
	  NULL, 0 },
};

static const char *const aliases[] = { "nodeset", "ns", NULL };

const struct sq_view_def sq_view_nodesets = {
	.name = "nodesets",
	.aliases = aliases,
	.help = "nodes grouped by node set: states, CPUs, accelerators",
	.kind = SQ_KIND_NODESETS,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = NULL,
};
