/*
 * why.h - "why is this job pending", computed from fetched snapshots
 * only: its rank among the ranked pending jobs of its partition, the job
 * ahead and the priority factor that separates them, what its Reason
 * means, and for Assoc* or QOS* limit reasons which limit of which
 * association or QOS holds it, with usage vs limit (assoc_mgr).
 * Pure: no I/O, no allocation; the TUI and batch mode share it.
 */
#ifndef SQ_WHY_H
#define SQ_WHY_H

#include <stddef.h>
#include <stdint.h>

#include "core/model/model_admin.h"
#include "core/model/snapshot.h"

#define SQ_WHY_MAX_LIMITS 8

struct sq_why_limit {
	char scope[8];   /* "assoc" or "qos" */
	char owner[192]; /* chemistry/carol, chemistry, normal, normal user=bob
			  */
	char limit[32];  /* MaxJobs, GrpTRES, MaxJobsPU ... */
	char tres[64];   /* gres/gpu for TRES limits, else "" */
	int64_t value;
	int64_t used;    /* SQ_NONE when unknown */
	int64_t request; /* what this job adds (1 job, its GPUs ...) or
			    SQ_NONE */
	int at_limit;    /* used >= value, or used + request > value */
};

struct sq_why {
	int pending;
	char reason[64];
	char meaning[240];
	/* place in the partition in Slurm's order (sprio priority, then
	 * submit time, then job id); 0 = not ranked */
	uint32_t rank;
	uint32_t ranked; /* ranked pending jobs in the partition */
	uint32_t ahead_job;
	int64_t priority, ahead_priority;
	/* submit times of this job and the one ahead (SQ_NONE: unknown);
	 * on equal priority Slurm starts the earlier one first */
	int64_t submit_self, submit_ahead;
	/* how old the sprio data is: seconds it was read before the job
	 * rows (0: same moment or newer), SQ_NONE when there is none */
	int64_t prio_age;
	int prio_before_submit; /* sprio was read before this job existed */
	char factor[24]; /* the factor with the largest lead of the job ahead */
	int64_t factor_self, factor_ahead;
	/* limits: set for Assoc* or QOS* limit reasons */
	int limit_reason;
	int limits_known; /* a LIMITS snapshot was given */
	char limit_scope[8];
	char limit_key[32];
	char limit_tres[32]; /* "gres/" matches every GRES */
	int nlimits;
	struct sq_why_limit limits[SQ_WHY_MAX_LIMITS];
};

/*
 * Fill w for job. jobs is the JOBS snapshot job belongs to (joined with
 * sprio, see join.h); limits (LIMITS) and assocs (ASSOCS, for the account
 * tree) may be NULL. Returns 0.
 */
int sq_why_compute(const struct sq_job *job, const struct sq_snapshot *jobs,
		   const struct sq_snapshot *limits,
		   const struct sq_snapshot *assocs, struct sq_why *w);

/*
 * Map a pending reason to the assoc_mgr limit it names: scope "assoc" or
 * "qos", key (GrpTRES, MaxJobs, MaxJobsPU ...), tres ("cpu", "gres/" for
 * any GRES, "" for counts). Returns 0, or -1 when the reason is not a
 * limit reason.
 */
int sq_why_limit_of(const char *reason, char *scope, size_t ns, char *key,
		    size_t nk, char *tres, size_t nt);

/* Write w as "Label: text" lines into buf (always NUL-terminated);
 * returns the length it needed. */
size_t sq_why_format(const struct sq_why *w, char *buf, size_t n);

#endif
