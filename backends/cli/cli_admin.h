/*
 * cli_admin.h - the admin kinds of the CLI backends: the parsers of
 * sacctmgr, sshare, sacct, the controller log, sdiag, scontrol show
 * config / reservation / assoc_mgr / node -d, and the CLI's fetch table
 * that runs them (with the queue's, partitions' and sprio's). Parsers follow
 * cli.h's rules: text is split in place, rows and strings go to the snapshot,
 * nothing is printed.
 */
#ifndef SQ_CLI_ADMIN_H
#define SQ_CLI_ADMIN_H

#include "backends/cli/cli.h"
#include "core/model/model_admin.h"

/* Fixed format strings (shared with tests and record_admin.sh). */
extern const char sq_cli_assoc_fmt[];
extern const char sq_cli_account_fmt[];
extern const char sq_cli_user_fmt[];
extern const char sq_cli_qos_fmt[];
extern const char sq_cli_sshare_fmt[];
extern const char sq_cli_sacct_events_fmt[];
extern const char sq_cli_gpujobs_fmt[];
extern const char sq_cli_gpujobs_fmt_v1[]; /* before NodeList */
extern const char sq_cli_gpupend_fmt[];    /* pending GPU demand */
extern const char sq_cli_sacct_history_fmt[];
extern const char sq_cli_sacct_history_fmt_v1[]; /* before the GPU peaks */

/* Fetch one kind by its row of the CLI's fetch table (cli_admin.c,
 * reads[]: its commands, or its own read); SQ_ERR_UNSUPPORTED for a kind
 * without one. */
int sq_cli_fetch_read(struct sq_cli *cli, enum sq_kind kind,
		      struct sq_snapshot **out, struct sq_err *err);
/* The NODES kind's own read (fetch.c), which that table names: scontrol
 * -o show partition, then scontrol -d -o show node (or sinfo -N). */
int sq_cli_fetch_nodes(struct sq_cli *cli, struct sq_snapshot **out,
		       struct sq_err *err);
/* The GPUUSE kind (fetch_gpuuse.c): squeue, then one sstat of the GPU
 * jobs; the samples carry over from cli->gpuuse_prev. */
int sq_cli_fetch_gpuuse(struct sq_cli *cli, struct sq_snapshot **out,
			struct sq_err *err);
/* SQ_CAP_* flags the admin fetches add for this Slurm version. */
unsigned sq_cli_admin_caps(const struct sq_cli *cli);

/* sacctmgr -n -P (parse_sacctmgr.c) */
int sq_parse_sacctmgr_assoc(char *text, struct sq_snapshot *s,
			    struct sq_err *err);
/* The same; a text of min bytes or more is cut in two at the first line
 * after its middle and the parts parsed at once (two threads), the rows
 * and errors as one parse gives them (sq_parse_sacctmgr_assoc: 1 MiB).
 * The parts it read (1 or 2), or -1 (err says why). */
int sq_parse_sacctmgr_assoc_cut(char *text, size_t min, struct sq_snapshot *s,
				struct sq_err *err);
int sq_parse_sacctmgr_account(char *text, struct sq_snapshot *s,
			      struct sq_err *err);
int sq_parse_sacctmgr_user(char *text, struct sq_snapshot *s,
			   struct sq_err *err);
int sq_parse_sacctmgr_qos(char *text, struct sq_snapshot *s,
			  struct sq_err *err);
/* sshare -P -n -a -o <sq_cli_sshare_fmt> (parse_sshare.c) */
int sq_parse_sshare(char *text, struct sq_snapshot *s, struct sq_err *err);
/* sacct -D -X -n -P -s PR,RQ -o <sq_cli_sacct_events_fmt> (parse_sacct.c) */
int sq_parse_sacct_events(char *text, struct sq_snapshot *s,
			  struct sq_err *err);
/* sacct -a -D -n -P -o <sq_cli_sacct_history_fmt>, runs with their steps
 * (parse_history.c); calls sq_history_finish(). */
int sq_parse_sacct_history(char *text, struct sq_snapshot *s,
			   struct sq_err *err);
/* The same; a text of min bytes or more is cut in two at a run line and
 * the parts parsed at once (two threads), the rows as one parse gives
 * them (sq_parse_sacct_history: 16 MiB). The parts it read (1 or 2), or
 * -1 (err says why). */
int sq_parse_sacct_history_cut(char *text, size_t min, struct sq_snapshot *s,
			       struct sq_err *err);
/* Preemption lines of a slurmctld log (parse_events_log.c, PCRE2):
 * appends events with source "log"; other lines are ignored. */
int sq_parse_events_log(char *text, struct sq_snapshot *s, struct sq_err *err);
/* sdiag (parse_sdiag.c) and scontrol show config (parse_config.c) */
int sq_parse_sdiag(char *text, struct sq_snapshot *s, struct sq_err *err);
/* The epoch at the end of "... (1795989648)": its digits (the ')' cut
 * off in v), else NULL; sdiag and sacctmgr show stats. */
char *sq_sdiag_epoch(char *v);
/* One RPC line of sdiag or sacctmgr show stats ("NAME ( ID) count:N
 * ave_time:T ...") as a row of section; 0 when the line is not one. */
int sq_sdiag_rpc_line(struct sq_snapshot *s, const char *section, char *line,
		      struct sq_err *err);
int sq_parse_config(char *text, struct sq_snapshot *s, struct sq_err *err);
/* scontrol ping (parse_ping.c): "controller" rows, "ROLE HOST" = UP|DOWN */
int sq_parse_scontrol_ping(char *text, struct sq_snapshot *s,
			   struct sq_err *err);
/* sacctmgr -n -P show event event=node (parse_node_events.c) */
#define sq_cli_node_event_fmt "format=NodeName,State,User,Start,End,Reason"
int sq_parse_node_events(char *text, struct sq_snapshot *s, struct sq_err *err);
/* sacctmgr -n -P show runawayjobs <sq_cli_runaway_fmt>, answered N on
 * stdin (parse_runaway.c; fetch_runaway.c runs it). discarded: the output
 * says sacctmgr rolled its fix back ("Changes Discarded"); none: it found
 * no runaway job. */
#define sq_cli_runaway_fmt                                                     \
	"format=ID,Cluster,Partition,State,Submit,Start,End,Name"
int sq_parse_runaway(char *text, struct sq_snapshot *s, struct sq_err *err);
int sq_runaway_discarded(const char *text);
int sq_runaway_none(const char *text);
/* The RUNAWAY kind: the list, never fixing (local and ssh answer N on
 * stdin; replay serves the recorded list). */
int sq_cli_fetch_runaway(struct sq_cli *cli, struct sq_snapshot **out,
			 struct sq_err *err);
/* The same list appended to s (the action's reads before and after). */
int sq_cli_runaway_list(struct sq_cli *cli, struct sq_snapshot *s,
			struct sq_err *err);
/* sacctmgr show stats (parse_dbd_stats.c): rows of section "dbd" (its
 * times, the rollups), "dbd_type" and "dbd_user" (RPCs) */
int sq_parse_dbd_stats(char *text, struct sq_snapshot *s, struct sq_err *err);
/* sacctmgr -n -P show problem <sq_cli_problem_fmt> (parse_problems.c) */
#define sq_cli_problem_fmt "format=Cluster,Account,User,Problem"
int sq_parse_problems(char *text, struct sq_snapshot *s, struct sq_err *err);
/* scontrol -o show licenses (parse_licenses.c) */
int sq_parse_licenses(char *text, struct sq_snapshot *s, struct sq_err *err);
/* scontrol -o show reservation (parse_reservations.c) */
int sq_parse_reservations(char *text, struct sq_snapshot *s,
			  struct sq_err *err);
/* scontrol show assoc_mgr flags=assoc,qos (parse_assoc_mgr.c) */
int sq_parse_assoc_mgr(char *text, struct sq_snapshot *s, struct sq_err *err);
/* GPUs (parse_gpus.c): nodes from scontrol -d -o show node, then running
 * jobs from squeue -O <sq_cli_gpujobs_fmt>; sq_gpus_finish() after both. */
int sq_parse_gpu_nodes(char *text, struct sq_snapshot *s, struct sq_err *err);
int sq_parse_gpu_jobs(char *text, struct sq_snapshot *s, struct sq_err *err);
/* Pending jobs (one line per array task) from squeue -h -a -r -t PD -O
 * <sq_cli_gpupend_fmt>: their GPU demand (sq_gpus_add_pending). */
int sq_parse_gpu_pending(char *text, struct sq_snapshot *s, struct sq_err *err);
/* Live GPU use (parse_gpuuse.c): running jobs holding GPUs from squeue -h
 * -a -t R -O <sq_cli_gpuuse_fmt>, then one sstat -a -n -P -j ID,... -o
 * <sq_cli_gpuuse_sstat_fields>; sq_gpuuse_finish() after both. */
extern const char sq_cli_gpuuse_fmt[];
extern const char sq_cli_gpuuse_sstat_fields[];
int sq_parse_gpuuse_jobs(char *text, struct sq_snapshot *s, struct sq_err *err);
int sq_parse_gpuuse_sstat(char *text, struct sq_snapshot *s,
			  struct sq_err *err);
/* sstat's stderr: each job a step of which it refused ("problem getting
 * step_layout for StepId=120.batch: Invalid user id") and that has no step
 * read gets note (a string that outlives s). Returns how many. */
int sq_parse_gpuuse_sstat_err(const char *text, struct sq_snapshot *s,
			      const char *note);

#endif
