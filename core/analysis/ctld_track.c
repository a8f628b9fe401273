/*
 * ctld_track.c - which slurmctld is in control and since when
 * (ctld_track.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/analysis/ctld_track.h"
#include "core/model/model_admin.h"

static int
add(struct sq_snapshot *s, const char *key, const char *value,
    struct sq_err *err)
{
	return sq_kv_add(s, "controller", key, value, err);
}

/* the first answering controller as "HOST (ROLE)" into buf; 1 when the
 * read has controller rows at all */
static int
first_up(const struct sq_snapshot *diag, char *buf, size_t n)
{
	size_t i;
	int any = 0;

	snprintf(buf, n, "none answers");
	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);
		const char *sp;

		if (strcmp(kv->section, "controller") != 0)
			continue;
		sp = strchr(kv->key, ' ');
		if (sp == NULL)
			continue; /* "controllers": not known */
		any = 1;
		if (strcmp(kv->value, "UP") == 0) {
			snprintf(buf, n, "%s (%.*s)", sp + 1,
				 (int)(sp - kv->key), kv->key);
			return 1;
		}
	}
	return any;
}

static int
add_epoch(struct sq_snapshot *s, const char *key, int64_t t, struct sq_err *err)
{
	char v[32];

	snprintf(v, sizeof(v), "%" PRId64, t);
	return add(s, key, v, err);
}

int
sq_ctld_track(struct sq_snapshot *diag, struct sq_ctld_track *t, int64_t now,
	      struct sq_err *err)
{
	char cur[160];

	if (!first_up(diag, cur, sizeof(cur)))
		return 0;
	if (t != NULL) {
		if (t->in_control[0] != '\0' &&
		    strcmp(t->in_control, cur) != 0) {
			snprintf(t->before, sizeof(t->before), "%s",
				 t->in_control);
			t->since = now;
			t->after = t->last;
		}
		snprintf(t->in_control, sizeof(t->in_control), "%s", cur);
		t->last = now;
	}
	if (add(diag, "in control", cur, err) == -1)
		return -1;
	if (t == NULL || t->since == 0)
		return 0;
	if (add_epoch(diag, "in control since", t->since, err) == -1 ||
	    add_epoch(diag, "changed after", t->after, err) == -1)
		return -1;
	return add(diag, "before it", t->before, err);
}

const char *
sq_ctld_in_control(const struct sq_snapshot *diag)
{
	size_t i;

	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);

		if (strcmp(kv->section, "controller") == 0 &&
		    strcmp(kv->key, "in control") == 0)
			return kv->value;
	}
	return NULL;
}
