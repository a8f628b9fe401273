/*
 * view_history_nodes.c - the history-nodes view: the runs of the window
 * grouped by node, with their failures (FAILED, NODE_FAIL, OUT_OF_MEMORY,
 * TIMEOUT) and the last one, so a broken node stands out, and a node
 * just fixed shows whether its test jobs ran cleanly.
 */
#include "core/view_history_cols.h"

SQ_STR_FIELD(c_node, H, r->node)
SQ_INT_FIELD(c_runs, H, r->runs)
SQ_INT_FIELD(c_completed, H, r->completed)
SQ_INT_FIELD(c_failed, H, r->failed)
SQ_INT_FIELD(c_nodefail, H, r->node_fail)
SQ_INT_FIELD(c_oom, H, r->oom)
SQ_INT_FIELD(c_timeout, H, r->timeout)
SQ_INT_FIELD(c_cancelled, H, r->cancelled)
SQ_INT_FIELD(c_preempted, H, r->preempted)
SQ_TIME_FIELD(c_last, H, r->last_failure)
SQ_HOURS_FIELD(c_cpuh, r->cpu_hours)

static const struct sq_column cols[] = {
	{ "node", "NODE", "node", 8, SQ_LEFT, c_node, NULL, 0 },
	{ "runs", "RUNS", "runs on this node in the window", 5, SQ_RIGHT,
	  c_runs, c_runs_num, SQ_NUM },
	{ "failed", "FAILED", "FAILED (and BOOT_FAIL)", 6, SQ_RIGHT, c_failed,
	  c_failed_num, SQ_NUM },
	{ "node_fail", "NODEFAIL", "NODE_FAIL", 8, SQ_RIGHT, c_nodefail,
	  c_nodefail_num, SQ_NUM },
	{ "oom", "OOM", "OUT_OF_MEMORY", 4, SQ_RIGHT, c_oom, c_oom_num,
	  SQ_NUM },
	{ "timeout", "TIMEOUT", "TIMEOUT", 7, SQ_RIGHT, c_timeout,
	  c_timeout_num, SQ_NUM },
	{ "last_failure", "LAST_FAILURE",
	  "end of the last failed, OOM, node-failed or timed-out run", 19,
	  SQ_LEFT, c_last, c_last_num, SQ_NUM | SQ_COL_TIME },
	{ "completed", "OK", "COMPLETED", 5, SQ_RIGHT, c_completed,
	  c_completed_num, SQ_NUM | SQ_HID },
	{ "cancelled", "CANCEL", "CANCELLED", 6, SQ_RIGHT, c_cancelled,
	  c_cancelled_num, SQ_NUM | SQ_HID },
	{ "preempted", "PREEMPT", "PREEMPTED", 7, SQ_RIGHT, c_preempted,
	  c_preempted_num, SQ_NUM | SQ_HID },
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
