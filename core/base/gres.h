/*
 * gres.h - counting accelerators in Slurm's GRES and TRES strings.
 *
 * Accepts node Gres ("gpu:a100:4", "gpu:a100:4(S:0-1)"), GresUsed
 * ("gpu:a100:2(IDX:0-1),tpu:0"), job TRES-per-node ("gres:gpu:a100:2",
 * "gres/gpu:2") and TRES lists ("cpu=4,gres/gpu=2,gres/gpu:a100=2").
 * An accelerator is any GRES named in SQ_ACCEL_NAMES (gpu, tpu, shard,
 * mps, npu, ...); counts of typed and untyped entries are not doubled.
 */
#ifndef SQ_GRES_H
#define SQ_GRES_H

#include <stddef.h>
#include <stdint.h>

struct sq_gres_item {
	char name[32]; /* gpu */
	char type[64]; /* a100, or "" */
	int64_t count;
};

/*
 * Parse a GRES list into at most max items; returns the number of items
 * or -1 on malformed input. "(null)", "N/A" and "" give 0 items.
 */
int sq_gres_parse(const char *s, struct sq_gres_item *items, int max);

/*
 * Total count of the GRES called name ("gpu") in s; types are summed.
 * Returns 0 when absent or unparsable.
 */
int64_t sq_gres_count(const char *s, const char *name);

/*
 * Job TRES-per-node as 22.05 prints it: Slurm 23.02+ writes
 * "gres/gpu:a100:2" where 22.05 wrote "gres:gpu:a100:2"; rewrite each
 * "gres/" at the start of a list item to "gres:" in place (same length),
 * so every release shows one spelling. Returns s.
 */
char *sq_gres_tres_legacy(char *s);

/* Is a GRES name an accelerator (gpu, tpu, shard, mps, ...)? */
int sq_gres_is_accel(const char *name);

#endif
