/*
 * om_snapshot.h - the METRICS kind: the three sets of slurmctld's metrics
 * the overview reads (/metrics/nodes, /partitions, /scheduler,
 * core/base/openmetrics.h) held as one snapshot's rows, so that the console's
 * worker publishes them like any other kind, and read back as the sets
 * core/analysis/overview_om.h takes. A snapshot without rows whose note says
 * why
 * ("Slurm 24.11 has none (25.11+)", "SQUALL_METRICS=off") stands for
 * metrics that were not served. Pure: no I/O.
 */
#ifndef SQ_OM_SNAPSHOT_H
#define SQ_OM_SNAPSHOT_H

#include <time.h>

#include "core/base/openmetrics.h"
#include "core/model/snapshot.h"

/* The sets, in the order the overview's input names them. */
enum sq_om_set {
	SQ_OM_NODES,      /* GET /metrics/nodes */
	SQ_OM_PARTITIONS, /* GET /metrics/partitions */
	SQ_OM_SCHEDULER,  /* GET /metrics/scheduler */
	SQ_OM_SETS
};

/* One sample of one set (an SQ_KIND_METRICS row); its strings are in
 * the snapshot's arena. */
struct sq_om_row {
	int set; /* enum sq_om_set */
	struct sq_om_sample s;
};

/*
 * A new SQ_KIND_METRICS snapshot (one reference) fetched at now: the
 * samples of om[SQ_OM_SETS] copied, or, with om NULL, none and why in
 * its note. NULL on ENOMEM.
 */
struct sq_snapshot *sq_om_snapshot_new(const struct sq_om *om, const char *why,
				       time_t now);

/* Were the metrics served (s holds them), or is s the why-not (s->note)?
 * 0 for NULL. */
int sq_om_snapshot_served(const struct sq_snapshot *s);

/*
 * The sets of a served snapshot into om[SQ_OM_SETS]: their samples
 * point into s, so they are read only while s is held; sq_om_free()
 * each. 0, or -1 (not served, or ENOMEM) with om empty.
 */
int sq_om_snapshot_sets(const struct sq_snapshot *s, struct sq_om *om);

#endif
