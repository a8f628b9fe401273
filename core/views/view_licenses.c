/*
 * view_licenses.c - licenses: how many of each, used, free, held by
 * reservations, remote or local (scontrol show licenses; REST /licenses).
 * The jobs waiting on a license are a link of the detail pane.
 */
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define L struct sq_license

SQ_STR_FIELD(c_name, L, r->name)
SQ_INT_FIELD(c_total, L, r->total)
SQ_INT_FIELD(c_used, L, r->used)
SQ_INT_FIELD(c_free, L, r->free)
SQ_INT_FIELD(c_reserved, L, r->reserved)
SQ_STR_FIELD(c_remote, L, r->remote)

static const struct sq_column cols[] = {
	{ "name", "NAME", "license name", 16, SQ_LEFT, c_name, NULL, 0 },
	{ "total", "TOTAL", "licenses configured", 6, SQ_RIGHT, c_total,
	  c_total_num, SQ_NUM },
	{ "used", "USED", "licenses held by jobs", 6, SQ_RIGHT, c_used,
	  c_used_num, SQ_NUM },
	{ "free", "FREE", "licenses free now", 6, SQ_RIGHT, c_free, c_free_num,
	  SQ_NUM },
	{ "reserved", "RESERVED", "licenses held by reservations", 8, SQ_RIGHT,
	  c_reserved, c_reserved_num, SQ_NUM },
	{ "remote", "REMOTE", "yes: a remote license (slurmdbd)", 6, SQ_LEFT,
	  c_remote, NULL, 0 },
};

static const char *const aliases[] = { "license", "lic", NULL };

const struct sq_view_def sq_view_licenses = {
	.name = "licenses",
	.aliases = aliases,
	.help = "licenses: total, used, free, reserved",
	.kind = SQ_KIND_LICENSES,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "name",
};
