/*
 * om_snapshot.c - the METRICS kind's snapshot (core/analysis/om_snapshot.h):
 * each set's samples copied into rows with their set, strings in the arena;
 * read back as one sample array per set whose strings stay the
 * snapshot's.
 */
#include <stdlib.h>
#include <string.h>

#include "core/analysis/om_snapshot.h"

/* Copy one sample into a new row of s: 0, or -1 on ENOMEM. */
static int
add(struct sq_snapshot *s, int set, const struct sq_om_sample *from)
{
	struct sq_om_row *r = sq_snapshot_add(s);
	int i;

	if (r == NULL)
		return -1;
	r->set = set;
	r->s.name = sq_snapshot_str(s, from->name);
	r->s.nlabels = from->nlabels;
	for (i = 0; i < from->nlabels && i < SQ_OM_MAX_LABELS; i++) {
		r->s.label[i].key = sq_snapshot_str(s, from->label[i].key);
		r->s.label[i].val = sq_snapshot_str(s, from->label[i].val);
	}
	r->s.value = from->value;
	return 0;
}

struct sq_snapshot *
sq_om_snapshot_new(const struct sq_om *om, const char *why, time_t now)
{
	struct sq_snapshot *s =
	    sq_snapshot_new(SQ_KIND_METRICS, sizeof(struct sq_om_row));
	size_t i, n = 0;
	int k;

	if (s == NULL)
		return NULL;
	s->fetched = now;
	if (om == NULL) {
		s->source = "slurmctld /metrics (not used)";
		s->note = sq_snapshot_str(
		    s, why != NULL && why[0] != '\0' ? why : "not read");
		return s;
	}
	s->source = "GET /metrics/nodes, /metrics/partitions, "
		    "/metrics/scheduler";
	for (k = 0; k < SQ_OM_SETS; k++)
		n += om[k].n;
	if (sq_snapshot_reserve(s, n) == -1)
		goto oom;
	for (k = 0; k < SQ_OM_SETS; k++) {
		for (i = 0; i < om[k].n; i++) {
			if (add(s, k, &om[k].v[i]) == -1)
				goto oom;
		}
	}
	return s;
oom:
	sq_snapshot_unref(s);
	return NULL;
}

int
sq_om_snapshot_served(const struct sq_snapshot *s)
{
	return s != NULL && s->kind == SQ_KIND_METRICS && s->note == NULL;
}

int
sq_om_snapshot_sets(const struct sq_snapshot *s, struct sq_om *om)
{
	size_t i, at[SQ_OM_SETS] = { 0 };
	int k;

	memset(om, 0, SQ_OM_SETS * sizeof(*om));
	if (!sq_om_snapshot_served(s))
		return -1;
	for (i = 0; i < s->nrows; i++) {
		const struct sq_om_row *r = sq_snapshot_row(s, i);

		if (r->set >= 0 && r->set < SQ_OM_SETS)
			om[r->set].n++;
	}
	for (k = 0; k < SQ_OM_SETS; k++) {
		om[k].cap = om[k].n;
		if (om[k].n == 0)
			continue;
		om[k].v = calloc(om[k].n, sizeof(*om[k].v));
		if (om[k].v == NULL)
			goto oom;
	}
	for (i = 0; i < s->nrows; i++) {
		const struct sq_om_row *r = sq_snapshot_row(s, i);

		if (r->set >= 0 && r->set < SQ_OM_SETS)
			om[r->set].v[at[r->set]++] = r->s;
	}
	return 0;
oom:
	for (k = 0; k < SQ_OM_SETS; k++)
		sq_om_free(&om[k]);
	return -1;
}
