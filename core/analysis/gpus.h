/*
 * gpus.h - building the GPUS snapshot (struct sq_gpu rows) from what any
 * backend knows: each node's configured and used GRES, and each running
 * job's allocated TRES. Every accelerator GRES counts (gpu and its types,
 * tpu, shard, mps ...; see gres.h). Call the add functions, then
 * sq_gpus_finish() once, before the snapshot is published.
 */
#ifndef SQ_GPUS_H
#define SQ_GPUS_H

#include "core/model/model_admin.h"
#include "core/model/snapshot.h"

/* One node: partitions comma-separated; gres as configured
 * ("gpu:a100:4"), gres_used with indices ("gpu:a100:2(IDX:0-1)"). */
int sq_gpus_add_node(struct sq_snapshot *s, const char *node,
		     const char *partitions, const char *gres,
		     const char *gres_used);
/* One running job with its allocated TRES ("cpu=2,gres/gpu=2,
 * gres/gpu:a100=2"); jobs without accelerators add nothing. */
int sq_gpus_add_job(struct sq_snapshot *s, const char *user,
		    const char *account, const char *partition,
		    const char *tres_alloc);
/* The same with the job's nodes ("n[1-2]", "" unknown): an untyped
 * allocation is counted on its nodes' GPU type (sq_gpus_finish). */
int sq_gpus_add_job_on(struct sq_snapshot *s, const char *user,
		       const char *account, const char *partition,
		       const char *nodes, const char *tres_alloc);
/*
 * One pending job (or array task) and what it asks for, as squeue -O
 * tres-per-node, tres-per-job and tres-per-task give it ("gres:gpu:2",
 * "gres/gpu:a100:1"; "" or N/A when none): its GPUs are tres-per-job,
 * else tres-per-node x nodes, else tres-per-task x tasks. partition may
 * be a list (a job submitted to several); submit is its SubmitTime
 * (epoch, SQ_NONE unknown) and now the fetch's time; copies the array
 * tasks it stands for (0 or 1: one job). Jobs asking for no
 * accelerator add nothing. -1 on ENOMEM.
 */
struct sq_gpu_pend {
	const char *user, *account, *partition;
	int64_t nodes, tasks;
	const char *per_node, *per_job, *per_task;
	int64_t submit, now;
	int64_t copies;
};
int sq_gpus_add_pending(struct sq_snapshot *s, const struct sq_gpu_pend *p);
/* When the pending jobs could not be read: every row's demand is
 * unknown (SQ_NONE) and says why (a literal or the snapshot's string). */
void sq_gpus_pending_unknown(struct sq_snapshot *s, const char *why);

/*
 * Add every node of a NODES snapshot and every running (R, S, CG) job
 * of a JOBS snapshot with its tres_alloc, as the CLI parsers add
 * scontrol's and squeue's lines (REST and replays), and every pending
 * job with its TRES per node (all a JOBS record keeps of its request:
 * --gpus and --gpus-per-task requests are not in it) times its nodes
 * and array tasks. -1 on ENOMEM.
 */
int sq_gpus_add_records(struct sq_snapshot *s, const struct sq_snapshot *nodes,
			const struct sq_snapshot *jobs);
/*
 * Aggregate: per-partition rows from the nodes, per-user and per-account
 * rows from the jobs, idle = total - alloc; sort by scope and key.
 * util_note explains missing utilisation ("not collected by this
 * cluster ..."); it must outlive the snapshot (a literal). -1 on ENOMEM.
 */
int sq_gpus_finish(struct sq_snapshot *s, const char *util_note);
/* The rows of a backend that serves no GPU lines, built from its nodes
 * and jobs (the fetch plan's build of GPUS, session/plan.c):
 * sq_gpus_add_records, then sq_gpus_finish with util_note. -1 on
 * ENOMEM. */
int sq_gpus_build(struct sq_snapshot *s, const struct sq_snapshot *nodes,
		  const struct sq_snapshot *jobs, const char *util_note);
/* Keep only the rows of one scope (before publishing). */
void sq_gpus_keep(struct sq_snapshot *s, enum sq_gpu_scope scope);

/* Scope shown by a gpus view ("gpus", "gpus-users" ...), or -1. */
int sq_gpus_view_scope(const char *view_name);

#endif
