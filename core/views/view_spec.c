/*
 * view_spec.c - the spec view: one row per item a cluster spec declares
 * (partitions, the default partition, slurm.conf parameters, prolog and
 * epilog, node pools or NodeSets, operator components) with its declared
 * and live value and a status: ok, differs, missing, extra or unknown.
 */
#include <string.h>

#include "core/spec/spec.h"
#include "core/views/view_cols.h"
#include "core/views/view_spec.h"

#define R struct sq_spec_row

SQ_STR_FIELD(c_item, R, r->item)
SQ_STR_FIELD(c_declared, R, r->declared)
SQ_STR_FIELD(c_live, R, r->live)
SQ_STR_FIELD(c_status, R, r->status)
SQ_STR_FIELD(c_path, R, r->path)
SQ_STR_FIELD(c_note, R, r->note)

static const struct sq_column cols[] = {
	{ "item", "ITEM",
	  "what the spec declares: partition NAME, "
	  "default_partition, config KEY, prolog, epilog, "
	  "pool ID, nodeset NAME ...",
	  26, SQ_LEFT, c_item, NULL, 0 },
	{ "status", "STATUS",
	  "ok, differs, missing (declared, not live), extra (live, not "
	  "declared), unknown (not visible to Slurm)",
	  8, SQ_LEFT, c_status, NULL, 0 },
	{ "declared", "DECLARED", "the value in the spec", 24, SQ_LEFT,
	  c_declared, NULL, 0 },
	{ "live", "LIVE", "the value on the cluster", 24, SQ_LEFT, c_live, NULL,
	  0 },
	{ "note", "NOTE", "how the item was matched, or why it is unknown", 30,
	  SQ_LEFT, c_note, NULL, 0 },
	{ "path", "PATH", "JSON path of the declaration", 30, SQ_LEFT, c_path,
	  NULL, SQ_COL_HIDDEN },
};

static const char *const aliases[] = { "declared", "drift", NULL };

const struct sq_view_def sq_view_spec = {
	.name = "spec",
	.aliases = aliases,
	.help = "the cluster spec (--spec) against the live cluster",
	.kind = SQ_KIND_SPEC,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = NULL,
};
