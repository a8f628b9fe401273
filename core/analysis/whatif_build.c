/*
 * whatif_build.c - the WHATIF snapshot built from the kinds it is made
 * of: sprio -n's factors (the backend's reading of the kind), sprio -w's
 * weights in force, the queue (each job's account) and the config
 * (PriorityMaxAge, PriorityFlags), with the weights to try. Pure: the
 * fetch plan (session/plan.c, the kind's row) fetches them.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/analysis/whatif.h"
#include "core/base/parse.h"
#include "core/model/model_admin.h"

/* The value of key in the config's top section, or NULL. */
static const char *
config_value(const struct sq_snapshot *config, const char *key)
{
	size_t i;

	for (i = 0; i < config->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(config, i);

		if (kv->section[0] == '\0' && strcasecmp(kv->key, key) == 0)
			return kv->value;
	}
	return NULL;
}

/* PriorityMaxAge (seconds, SQ_NONE) and PriorityFlags of the config. */
static void
config_values(const struct sq_snapshot *config, int64_t *max_age, char *flags,
	      size_t n)
{
	const char *v;

	*max_age = SQ_NONE;
	flags[0] = '\0';
	if (config == NULL)
		return;
	v = config_value(config, "PriorityMaxAge");
	if (v == NULL || sq_parse_duration(v, max_age) == -1 || *max_age <= 0)
		*max_age = SQ_NONE;
	v = config_value(config, "PriorityFlags");
	if (v != NULL && !sq_is_none(v) && strcmp(v, "0") != 0)
		snprintf(flags, n, "%s", v);
}

int
sq_whatif_build(struct sq_snapshot *s, struct sq_snapshot *factors,
		const struct sq_snapshot *weights,
		const struct sq_snapshot *jobs,
		const struct sq_snapshot *config,
		const struct sq_whatif_weights *given, const char *given_text,
		size_t top_n, struct sq_err *err)
{
	struct sq_whatif_weights old;
	char flags[128];
	int64_t max_age;
	size_t i;

	if (weights->nrows == 0)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "sprio -w printed no weights");
	sq_whatif_weights_from_sprio(sq_snapshot_row(weights, 0), &old);
	config_values(config, &max_age, flags, sizeof(flags));
	if (factors->nrows > 0) {
		if (sq_snapshot_reserve(s, factors->nrows) == -1)
			goto oom;
		memcpy(s->rows, factors->rows, factors->nrows * s->rowsize);
		s->nrows = factors->nrows;
	}
	/* the rows' strings, source and note live in the factors' arena */
	s->dep = sq_snapshot_ref(factors);
	s->fetched = factors->fetched;
	s->source = factors->source;
	s->note = factors->note;
	sq_whatif_join_jobs(s, jobs);
	/* the accounts were the queue's, which is not kept */
	for (i = 0; i < s->nrows; i++) {
		struct sq_whatif *r = sq_snapshot_row(s, i);

		r->account = sq_snapshot_str(s, r->account);
	}
	if (sq_whatif_apply(s, &old, given, given_text, max_age, flags,
			    top_n) == -1)
		goto oom;
	return 0;
oom:
	return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
}
