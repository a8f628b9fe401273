/*
 * view_diag.c - controller health from sdiag (REST /diag): what changed
 * since the reads before first (section "changed", core/analysis/diag_trend.h),
 * threads, agent queue, scheduler and backfill cycle times and exit reasons,
 * RPCs by message type and by user, as section/key/value rows; then slurmdbd's
 * (sacctmgr show stats: sections dbd, dbd_type, dbd_user). Times read as times,
 * and keys longer than the column say apart what they count.
 */
#include <stdlib.h>
#include <string.h>

#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define K struct sq_kv

SQ_STR_FIELD(c_section, K, r->section)

/* sdiag's labels that the key column (36 cells) would cut to the same
 * text or to nothing telling, in words that fit */
static const char *const short_keys[][2] = {
	{ "Total backfilled jobs (since last slurm start)",
	  "Backfilled jobs (since slurm start)" },
	{ "Total backfilled jobs (since last stats cycle start)",
	  "Backfilled jobs (since stats reset)" },
	{ "Total backfilled heterogeneous job components",
	  "Backfilled het job components" },
	{ "Latency for 1000 calls to gettimeofday()",
	  "gettimeofday() latency, 1000 calls" },
	{ "exit: Hit table size limit (bf_node_space_size)",
	  "exit: Hit bf_node_space_size" },
};

static const char *
c_key(const void *rec, char *buf, size_t n)
{
	const char *k = ((const K *)rec)->key;
	size_t i;

	(void)buf;
	(void)n;
	for (i = 0; i < sizeof(short_keys) / sizeof(short_keys[0]); i++) {
		if (strcmp(k, short_keys[i][0]) == 0)
			return short_keys[i][1];
	}
	return sq_col_str(k);
}

/* sdiag's moments: epoch seconds in the row, a time on the screen */
static const char *const time_keys[] = {
	"sdiag output at", "Data since",       "Job states ts",
	"Last cycle when", "in control since", "changed after",
};

/* slurmdbd's moments (sacctmgr show stats): "stats output at" and each
 * rollup's "...: last ran" */
static int
is_dbd_time(const char *k)
{
	size_t n = strlen(k);

	return strcmp(k, "stats output at") == 0 ||
	       (n >= 10 && strcmp(k + n - 10, ": last ran") == 0);
}

static const char *
c_value(const void *rec, char *buf, size_t n)
{
	const K *r = rec;
	char *end;
	long long v;
	size_t i;

	for (i = 0; i < sizeof(time_keys) / sizeof(time_keys[0]); i++) {
		if (strcmp(r->key, time_keys[i]) != 0)
			continue;
		v = strtoll(r->value, &end, 10);
		if (end != r->value && *end == '\0' && v > 0)
			return sq_col_time(v, buf, n);
	}
	if (strcmp(r->section, "dbd") == 0 && is_dbd_time(r->key)) {
		v = strtoll(r->value, &end, 10);
		if (end != r->value && *end == '\0' && v > 0)
			return sq_col_time(v, buf, n);
	}
	return sq_col_str(r->value);
}

static const struct sq_column cols[] = {
	{ "section", "SECTION",
	  "changed (levels with the read before and a sparkline, counters as "
	  "a rate per minute), general, main (main scheduler), backfill, "
	  "rpc_type, rpc_user, pending_rpc; slurmdbd's (sacctmgr show stats, "
	  "local and ssh): dbd (rollups), dbd_type, dbd_user (its RPCs)",
	  9, SQ_LEFT, c_section, NULL, 0 },
	{ "key", "KEY",
	  "statistic (\"exit: ...\" why the scheduler's cycles ended), RPC "
	  "message type or user",
	  36, SQ_LEFT, c_key, NULL, 0 },
	{ "value", "VALUE",
	  "value (times: local ISO 8601; cycles: microseconds; RPCs: count, "
	  "ave_time, total_time in microseconds)",
	  30, SQ_LEFT, c_value, NULL, 0 },
};

static const char *const aliases[] = { "sdiag", "health", NULL };

const struct sq_view_def sq_view_diag = {
	.name = "diag",
	.aliases = aliases,
	.help = "controller statistics (sdiag)",
	.kind = SQ_KIND_DIAG,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = NULL,
};
