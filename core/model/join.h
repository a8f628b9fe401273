/*
 * join.h - combining snapshots of different kinds after a fetch: the
 * per-partition counts from the nodes, the rank of each pending job, and
 * the sprio row of each pending job. Used by every backend and the worker.
 * Call these before the target snapshot is published.
 */
#ifndef SQ_JOIN_H
#define SQ_JOIN_H

#include "core/model/snapshot.h"

/* Fill the per-partition node/CPU/GPU counts from a nodes snapshot. */
void sq_partitions_count(struct sq_snapshot *parts,
			 const struct sq_snapshot *nodes);
/*
 * PRIO rows from a queue (JOBS) for a backend without sprio: each
 * pending job that sprio would list (priority above 0, so not held;
 * eligible: not waiting for its begin time, a dependency or its
 * array's task limit), one
 * row per partition it waits in, with its priority there (prio_by_part,
 * REST v0.0.42+) or the job's; every factor SQ_NONE. Then ranked. -1 on
 * ENOMEM.
 */
int sq_prio_from_jobs(struct sq_snapshot *prio, const struct sq_snapshot *jobs);
/* Rank prio rows within their partition (1 = highest priority). */
void sq_prio_rank(struct sq_snapshot *prio);
/* Point each pending job at its sprio row; jobs keeps a reference to prio
 * (replacing any earlier one). */
void sq_jobs_join_prio(struct sq_snapshot *jobs, struct sq_snapshot *prio);

/*
 * The title's note on the priority rows joined to a jobs snapshot when
 * they are more than 2 s older than the queue beside them: "sprio:12s
 * older" when they are sprio's (their source names sprio: the local, ssh
 * and replay backends), "rank:12s older" when they were made from an
 * earlier queue (sq_prio_from_jobs: slurmrestd serves no sprio, so no
 * factor is shown and none is older). "" when nothing is joined or the
 * rows are as new. Returns buf.
 */
const char *sq_jobs_prio_age(const struct sq_snapshot *jobs, char *buf,
			     size_t n);

/* The sum of a sprio row's weighted factors: site, age, fairshare, job
 * size, partition, QOS, association and every TRES factor, less nice.
 * It is the job's priority within sprio's rounding (one per factor). */
int64_t sq_prio_sum(const struct sq_prio *p);

#endif
