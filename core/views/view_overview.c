/*
 * view_overview.c - the overview view: one line per aggregate of the
 * cluster at a glance (core/analysis/overview.c), with the numbers a script can
 * read; the console draws each line's bar and sparkline beside it.
 */
#include <stdio.h>

#include "core/analysis/overview.h"
#include "core/views/view_cols.h"

#define O struct sq_ov_row

SQ_STR_FIELD(c_section, O, r->section)
SQ_STR_FIELD(c_key, O, r->key)
SQ_STR_FIELD(c_value, O, r->value)
SQ_STR_FIELD(c_view, O, r->view)
SQ_STR_FIELD(c_filter, O, r->filter)
SQ_INT_FIELD(c_num, O, r->num)
SQ_INT_FIELD(c_used, O, r->used)
SQ_INT_FIELD(c_total, O, r->total)

static const char *
c_pct(const void *rec, char *buf, size_t n)
{
	const O *r = rec;

	if (r->total <= 0)
		return NULL;
	snprintf(buf, n, "%lld%%", (long long)(r->used * 100 / r->total));
	return buf;
}

static int
c_pct_num(const void *rec, long long *v)
{
	const O *r = rec;

	if (r->total <= 0)
		return -1;
	*v = (long long)(r->used * 100 / r->total);
	return 0;
}

static const struct sq_column cols[] = {
	{ "section", "SECTION",
	  "nodes, partition, reason, user, account, gpus, ctld", 9, SQ_LEFT,
	  c_section, NULL, 0 },
	{ "key", "WHAT",
	  "node state, partition and resource, pending reason, user, "
	  "account, controller statistic",
	  18, SQ_LEFT, c_key, NULL, 0 },
	{ "value", "VALUE", "the line's figures", 14, SQ_RIGHT, c_value, NULL,
	  0 },
	{ "pct", "USE", "the bar's filled part of total in percent", 4,
	  SQ_RIGHT, c_pct, c_pct_num, SQ_COL_NUM | SQ_COL_HIDDEN },
	{ "num", "NUM", "the number the sparkline follows", 8, SQ_RIGHT, c_num,
	  c_num_num, SQ_COL_NUM | SQ_COL_HIDDEN },
	{ "used", "USED", "the bar's filled part: what the line counts", 8,
	  SQ_RIGHT, c_used, c_used_num, SQ_COL_NUM | SQ_COL_HIDDEN },
	{ "total", "TOTAL", "the bar's total (0: no bar)", 8, SQ_RIGHT, c_total,
	  c_total_num, SQ_COL_NUM | SQ_COL_HIDDEN },
	{ "view", "VIEW", "the view Enter opens", 10, SQ_LEFT, c_view, NULL,
	  SQ_COL_HIDDEN },
	{ "filter", "FILTER", "the filter Enter applies there", 24, SQ_LEFT,
	  c_filter, NULL, SQ_COL_HIDDEN },
};

static const char *const aliases[] = { "ov", "glance", "dashboard", NULL };

const struct sq_view_def sq_view_overview = {
	.name = "overview",
	.aliases = aliases,
	.help = "the cluster at a glance: nodes, partitions, queue, "
		"controller, with the last hour's trend",
	.kind = SQ_KIND_OVERVIEW,
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.default_sort = NULL,
};
