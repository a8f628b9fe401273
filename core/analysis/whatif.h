/*
 * whatif.h - the priority what-if: each pending job's normalized
 * multifactor factors (sprio -n) times other weights, the new priority
 * and rank per partition beside today's, and a summary. Pure: no I/O;
 * the rows come from a parser (sq_parse_sprio_norm) and the weights from
 * sprio -w and a KEY=VALUE text as slurm.conf spells it.
 */
#ifndef SQ_WHATIF_H
#define SQ_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/model/snapshot.h"
#include "core/model/view.h"

/* The factors with one weight each (TRES has a weight per TRES type). */
enum sq_wf {
	SQ_WF_AGE,
	SQ_WF_FAIRSHARE,
	SQ_WF_JOBSIZE,
	SQ_WF_PARTITION,
	SQ_WF_QOS,
	SQ_WF_ASSOC,
	SQ_WF_COUNT
};

#define SQ_WHATIF_MAX_TRES 12

struct sq_whatif_tres {
	char name[40]; /* cpu, mem, gres/gpu: lower case */
	double v;      /* a weight, or a normalized factor */
};

/* A set of weights: all of them (in force) or the ones a user gave. */
struct sq_whatif_weights {
	double w[SQ_WF_COUNT];
	unsigned set; /* bit (1 << SQ_WF_x) per weight given */
	struct sq_whatif_tres tres[SQ_WHATIF_MAX_TRES];
	size_t ntres;
	int tres_set;      /* PriorityWeightTRES given (replaces the list) */
	int64_t max_age;   /* PriorityMaxAge in seconds, SQ_NONE: not given */
	char ignored[256]; /* keys accepted but not modelled, ", "-joined */
};

/* What a what-if snapshot was computed with, and what came of it. */
struct sq_whatif_info {
	struct sq_whatif_weights old; /* in force (sprio -w) */
	struct sq_whatif_weights new; /* old with the given ones applied */
	int64_t old_max_age;          /* seconds, SQ_NONE: unknown */
	char given[512];              /* the weights text as given */
	char flags[128];              /* PriorityFlags in force, "" none */
	char notes[512];              /* what is not modelled, and why */
	char summary[512];            /* one line: moves, gain, loss, top N */
	size_t jobs, moved;
	size_t model_exact;   /* model == sprio with today's weights */
	int64_t model_maxdev; /* largest |model - sprio| */
	size_t age_bound;     /* jobs whose new age factor is a bound */
	uint32_t gain_job, loss_job;
	int64_t gain, loss; /* rank places (gain > 0, loss < 0) */
};

/* One row of the WHATIF kind: a pending job in one partition. */
struct sq_whatif {
	uint32_t job_id;
	const char *user;
	const char *account; /* from the queue; "" when not joined */
	const char *partition;
	int64_t priority;              /* sprio's */
	int64_t site;                  /* carried unchanged */
	int64_t nice;                  /* carried unchanged (subtracted) */
	int64_t weighted[SQ_WF_COUNT]; /* as sprio printed them */
	double norm[SQ_WF_COUNT];      /* sprio -n */
	const char *tres_w;            /* cpu=38,mem=1 (weighted) */
	const char *tres_n;            /* cpu=0.38,mem=0.09 (normalized) */
	/* computed by sq_whatif_apply */
	int64_t priority_model; /* today's weights times the factors */
	int64_t priority_new;
	int64_t delta; /* priority_new - priority */
	uint32_t rank, rank_new;
	int64_t move;   /* rank - rank_new: > 0 moves up */
	double age_new; /* the age factor under the new PriorityMaxAge */
	int age_bound;  /* age_new is a lower bound */
	const struct sq_whatif_info *info;
};

/* No weight given, max_age SQ_NONE. */
void sq_whatif_weights_init(struct sq_whatif_weights *w);

/*
 * Read KEY=VALUE pairs, comma- or space-separated, keys as slurm.conf
 * spells them (case-insensitive): PriorityWeightAge, ...Fairshare,
 * ...JobSize, ...Partition, ...QOS, ...Assoc, PriorityWeightTRES=CPU=1,
 * Mem=2,GRES/gpu=3 (the pairs after it belong to it), PriorityMaxAge
 * (a Slurm time: minutes, [D-]HH:MM:SS). Other Priority* keys of
 * slurm.conf are accepted and listed in w->ignored. w is initialised
 * here. 0, or -1 with err (SQ_ERR_USAGE) on an unknown key or a bad value.
 */
int sq_whatif_parse(const char *text, struct sq_whatif_weights *w,
		    struct sq_err *err);

/* A TRES list "CPU=100,Mem=10,GRES/gpu=500" (weights or normalized
 * factors) into w->tres; 0 or -1 on a malformed list. */
int sq_whatif_tres_parse(const char *text, struct sq_whatif_tres *t, size_t max,
			 size_t *n);

/* The weights in force from sprio -w's line (core/model/model.h). */
void sq_whatif_weights_from_sprio(const struct sq_prio_weights *pw,
				  struct sq_whatif_weights *w);

/*
 * Compute a WHATIF snapshot in place (before it is published): the info
 * (allocated in s's arena, pointed to by every row) takes old, the given
 * weights merged over old, old_max_age (seconds or SQ_NONE) and flags
 * (PriorityFlags in force or ""); then each row's model, new priority
 * and ranks, and the summary with the top n per account. -1 on ENOMEM.
 */
int sq_whatif_apply(struct sq_snapshot *s, const struct sq_whatif_weights *old,
		    const struct sq_whatif_weights *given,
		    const char *given_text, int64_t old_max_age,
		    const char *flags, size_t top_n);

/*
 * Build s (a new, empty WHATIF snapshot) from sprio -n's factors (the
 * backend's rows of the kind: s keeps a reference, its strings live
 * there), sprio -w's weights in force, the queue (each job's account;
 * NULL: none) and the config (PriorityMaxAge, PriorityFlags; NULL:
 * unmodelled), with the weights given (sq_whatif_apply). 0, or -1 with
 * err: no weights, or ENOMEM. Pure (core/analysis/whatif_build.c).
 */
int sq_whatif_build(struct sq_snapshot *s, struct sq_snapshot *factors,
		    const struct sq_snapshot *weights,
		    const struct sq_snapshot *jobs,
		    const struct sq_snapshot *config,
		    const struct sq_whatif_weights *given,
		    const char *given_text, size_t top_n, struct sq_err *err);

/*
 * A new WHATIF snapshot with src's rows recomputed for other weights
 * (src's info gives today's weights); it keeps a reference to src (its
 * strings live there). NULL on ENOMEM or when src has no info.
 */
struct sq_snapshot *sq_whatif_derive(struct sq_snapshot *src,
				     const struct sq_whatif_weights *given,
				     const char *given_text, size_t top_n);

/* Join the queue's account to each row (by job id); jobs may be NULL. */
void sq_whatif_join_jobs(struct sq_snapshot *s, const struct sq_snapshot *jobs);

/* The info of a WHATIF snapshot, or NULL (no rows and no info). */
const struct sq_whatif_info *sq_whatif_info(const struct sq_snapshot *s);

/* Name of a factor ("fairshare") and its slurm.conf key. */
const char *sq_whatif_factor_name(enum sq_wf f);
const char *sq_whatif_factor_key(enum sq_wf f);

/*
 * The line of factor f (SQ_WF_COUNT + i: TRES type i of the row's
 * normalized list) of row r for the detail pane: "fairshare 0.5000000 x
 * 10000 = 5000 -> x 0 = 0". Returns 0, or -1 past the last factor.
 */
int sq_whatif_factor_line(const struct sq_whatif *r, size_t f, char *buf,
			  size_t n);

/* The what-if view (core/views/view_whatif.c). */
extern const struct sq_view_def sq_view_whatif;

#endif
