/*
 * actions_rec.c - the records the CLI reads targets into (a `show -P`
 * row or a `scontrol -o` line: field names and values) and a whole
 * state of them. Split from actions_read.c.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "core/base/util.h"

const char *
sq_cli_rec_get(const struct sq_cli_rec *r, const char *key)
{
	size_t i;

	if (r == NULL)
		return NULL;
	for (i = 0; i < r->n; i++) {
		if (strcmp(r->key[i], key) == 0)
			return r->val[i] ? r->val[i] : "";
	}
	return NULL;
}

static void
rec_set(struct sq_cli_rec *r, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (strcmp(r->key[i], key) == 0) {
			free(r->val[i]);
			r->val[i] = strdup(val);
			return;
		}
	}
	if (r->n >= SQ_CLI_REC_MAX)
		return;
	if (strcmp(val, "(null)") == 0)
		val = ""; /* Slurm's way to print "not set" */
	sq_util_copy(r->key[r->n], sizeof(r->key[0]), key);
	r->val[r->n++] = strdup(val);
}

void
sq_cli_rec_set(struct sq_cli_rec *r, const char *key, const char *val)
{
	rec_set(r, key, val);
}

void
sq_cli_rec_clear(struct sq_cli_rec *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->val[i]);
	memset(r, 0, sizeof(*r));
}

void
sq_cli_state_free(struct sq_cli_state *st)
{
	size_t i;

	for (i = 0; st->rec != NULL && i < st->n; i++)
		sq_cli_rec_clear(&st->rec[i]);
	for (i = 0; st->all != NULL && i < st->nall; i++)
		sq_cli_rec_clear(&st->all[i]);
	free(st->all);
	free(st->rec);
	memset(st, 0, sizeof(*st));
}
