/*
 * completing.h - jobs stuck in COMPLETING: how long a job has been
 * completing (since it ended: its start plus the time it ran, as squeue
 * and slurmrestd give them) and the `completing-stuck` setting (minutes
 * after which the overview and the nodes view flag it). The setting is
 * set once by the front end (and again by `set`), read by any thread.
 */
#ifndef SQ_COMPLETING_H
#define SQ_COMPLETING_H

#include <stdint.h>
#include <time.h>

#include "core/model/model.h"
#include "core/model/snapshot.h"

#define SQ_COMPLETING_STUCK_DEFAULT 10 /* minutes */

/* The setting, minutes (0: never flag). */
void sq_completing_stuck_set(int minutes);
int sq_completing_stuck_get(void);

/* Seconds job j has been COMPLETING at now, SQ_NONE when it is not
 * completing or its end is not known. */
int64_t sq_job_completing_for(const struct sq_job *j, time_t now);

/* 1 when j has been completing for the setting's minutes or more. */
int sq_job_stuck_completing(const struct sq_job *j, time_t now);

/* Each node's stuck_cg: its jobs (by nodelist) stuck completing at now. */
void sq_nodes_join_stuck(struct sq_snapshot *nodes,
			 const struct sq_snapshot *jobs, time_t now);

#endif
