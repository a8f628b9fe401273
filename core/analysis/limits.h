/*
 * limits.h - the LIMITS rows (struct sq_limit) built from accounting
 * records and the queue, for a backend without `scontrol show assoc_mgr`
 * (slurmrestd): the limits from the associations and QOS, their use
 * counted from the jobs as slurmctld counts it (running jobs, submitted
 * jobs, allocated TRES, TRES-minutes still to run).
 */
#ifndef SQ_LIMITS_H
#define SQ_LIMITS_H

#include "core/model/snapshot.h"

/*
 * Add a row for every limit set in assocs (ASSOCS) and qos (QOS), with
 * the names assoc_mgr prints (GrpJobs, GrpTRES, MaxJobs, MaxTRESPJ ...
 * and MaxJobsPU/PA per user and account of the QOS that has jobs).
 * Usage that only slurmctld keeps (decayed GrpTRESMins, GrpWall, the
 * accrue counts) is SQ_NONE. Either input may be NULL. -1 on ENOMEM.
 */
int sq_limits_build(struct sq_snapshot *limits,
		    const struct sq_snapshot *assocs,
		    const struct sq_snapshot *qos,
		    const struct sq_snapshot *jobs);

/* Count of a TRES ("cpu", "mem" in MB, "gres/gpu:a100") in a TRES list
 * ("cpu=2,mem=1000M,gres/gpu=1"); 0 when absent. */
int64_t sq_limits_tres(const char *list, const char *name);

#endif
