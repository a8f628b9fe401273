/*
 * view_fairshare.c - the fairshare tree (sshare -a; REST /shares from
 * v0.0.40): shares, usage, LevelFS and the FairShare factor per account
 * and user. Rows stay in tree order; "inf" and empty values are kept.
 */
#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define F struct sq_share

SQ_STR_FIELD(c_account, F, r->account)
SQ_STR_FIELD(c_user, F, r->user)
SQ_STR_FIELD(c_part, F, r->partition)
SQ_STR_FIELD(c_parent, F, r->parent)
SQ_STR_FIELD(c_grptresmins, F, r->grp_tres_mins)
SQ_STR_FIELD(c_tresrun, F, r->tres_run_mins)
SQ_INT_FIELD(c_depth, F, r->depth)
SQ_INT_FIELD(c_rawusage, F, r->raw_usage)
SQ_DBL_FIELD(c_normshares, F, r->norm_shares)
SQ_DBL_FIELD(c_normusage, F, r->norm_usage)
SQ_DBL_FIELD(c_effusage, F, r->effective_usage)
SQ_DBL_FIELD(c_fairshare, F, r->fairshare)
SQ_DBL_FIELD(c_levelfs, F, r->level_fs)

static int
c_rawshares_num(const void *rec, long long *v)
{
	*v = ((const F *)rec)->raw_shares;
	return 0;
}

static const char *
c_rawshares(const void *rec, char *buf, size_t n)
{
	const F *r = rec;

	if (r->raw_shares == SQ_INFINITE)
		return "parent";
	return sq_col_int(r->raw_shares, buf, n);
}

static const char *
c_tree(const void *rec, char *buf, size_t n)
{
	const F *r = rec;
	int d = r->depth > 30 ? 30 : r->depth;

	snprintf(buf, n, "%*s%s", 2 * d, "",
		 r->user[0] != '\0' ? r->user : r->account);
	return buf;
}

static const struct sq_column cols[] = {
	{ "tree", "NAME", "account or user, indented by depth", 18, SQ_LEFT,
	  c_tree, NULL, 0 },
	{ "account", "ACCOUNT", "account", 10, SQ_LEFT, c_account, NULL, 0 },
	{ "user", "USER", "user (empty on account rows)", 9, SQ_LEFT, c_user,
	  NULL, 0 },
	{ "partition", "PARTITION", "partition of the association", 9, SQ_LEFT,
	  c_part, NULL, SQ_HID },
	{ "parent", "PARENT", "account above", 10, SQ_LEFT, c_parent, NULL,
	  SQ_HID },
	{ "depth", "DEPTH", "depth in the tree (root 0)", 5, SQ_RIGHT, c_depth,
	  c_depth_num, SQ_NUM | SQ_HID },
	{ "raw_shares", "RAW_SHARES", "RawShares", 10, SQ_RIGHT, c_rawshares,
	  c_rawshares_num, SQ_NUM },
	{ "norm_shares", "NORM_SHARES", "NormShares", 11, SQ_RIGHT,
	  c_normshares, c_normshares_num, 0 },
	{ "raw_usage", "RAW_USAGE", "RawUsage (decayed CPU-seconds)", 10,
	  SQ_RIGHT, c_rawusage, c_rawusage_num, SQ_NUM },
	{ "norm_usage", "NORM_USAGE", "NormUsage", 10, SQ_RIGHT, c_normusage,
	  c_normusage_num, SQ_HID },
	{ "effective_usage", "EFFECTV_USAGE", "EffectvUsage", 13, SQ_RIGHT,
	  c_effusage, c_effusage_num, 0 },
	{ "level_fs", "LEVEL_FS", "LevelFS (inf: no usage)", 10, SQ_RIGHT,
	  c_levelfs, c_levelfs_num, 0 },
	{ "fairshare", "FAIRSHARE", "FairShare factor (users)", 9, SQ_RIGHT,
	  c_fairshare, c_fairshare_num, 0 },
	{ "grp_tres_mins", "GRP_TRES_MINS", "GrpTRESMins", 12, SQ_LEFT,
	  c_grptresmins, NULL, SQ_HID },
	{ "tres_run_mins", "TRES_RUN_MINS", "TRESRunMins", 24, SQ_LEFT,
	  c_tresrun, NULL, SQ_HID },
};

static const char *const aliases[] = { "shares", "sshare", "fs", NULL };

const struct sq_view_def sq_view_fairshare = {
	.name = "fairshare",
	.aliases = aliases,
	.help = "the fairshare tree: shares, usage, LevelFS, FairShare",
	.kind = SQ_KIND_SHARES,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = NULL, /* tree order */
};
