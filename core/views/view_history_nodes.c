/*
 * view_history_nodes.c - the history-nodes view: the runs of the window
 * grouped by node, each in one outcome column (OK, FAILED, NODE_FAIL,
 * OUT_OF_MEMORY, TIMEOUT ... OTHER: they add up to RUNS), and the last
 * failure, so a broken node stands out, and a node just fixed shows
 * whether its test jobs ran cleanly.
 */
#include "core/views/view_history_cols.h"

SQ_STR_FIELD(c_node, H, SQ_HR_SUM(r, node, NULL))
SQ_HIST_OUTCOME_FIELDS
SQ_TIME_FIELD(c_last, H, SQ_HR_SUM(r, last_failure, SQ_NONE))
SQ_HOURS_FIELD(c_cpuh, SQ_HR_SUM(r, cpu_hours, NAN))

static const struct sq_column cols[] = {
	{ "node", "NODE", "node", 8, SQ_LEFT, c_node, NULL, 0 },
	{ "runs", "RUNS", "runs on this node in the window", 5, SQ_RIGHT,
	  c_runs, c_runs_num, SQ_NUM },
	SQ_HIST_OUTCOME_COLS,
	{ "last_failure", "LAST_FAILURE",
	  "end of the last failed, OOM, node-failed or timed-out run", 19,
	  SQ_LEFT, c_last, c_last_num, SQ_NUM | SQ_COL_TIME },
	{ "cpu_hours", "CPU_H", "Elapsed x AllocCPUS of its runs, hours", 8,
	  SQ_RIGHT, c_cpuh, c_cpuh_num, SQ_HID },
};

static const char *const aliases[] = { "history-node", "hist-nodes", NULL };

const struct sq_view_def sq_view_history_nodes = {
	.name = "history-nodes",
	.aliases = aliases,
	.help = "runs in the window per node: failures and the last one",
	.kind = SQ_KIND_HISTORY,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "-failed",
};
