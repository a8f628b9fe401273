/*
 * actions_qos.c - what the QOS actions (addqos, setqos/modqos, delqos)
 * need beyond the other account actions: the check that a change left
 * every other field of the QOS as it was, and delqos's undo: addqos with
 * every setting and the description read before, then the lists Slurm
 * took it from (actions_undo.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "core/base/buf.h"
#include "core/action/limit_keys.h"
#include "core/base/parse.h"
#include "core/base/util.h"

/* Is column col one that a sets? */
static int
asked(const struct sq_action *a, const char *col)
{
	size_t i;

	for (i = 0; i < a->nargs; i++) {
		char key[64];
		const char *c;

		if (sq_action_arg_split(a->args[i], key, sizeof(key)) == NULL)
			continue;
		c = sq_limit_column(key, SQ_LIM_QOS);
		if (c != NULL && strcmp(c, col) == 0)
			return 1;
	}
	return 0;
}

int
sq_cli_qos_unchanged(const struct sq_action *a, const struct sq_cli_rec *before,
		     const struct sq_cli_rec *after, char *msg, size_t n)
{
	size_t i;

	if (before == NULL || !before->found || !after->found)
		return 1;
	for (i = 0; i < before->n; i++) {
		const char *was = before->val[i] ? before->val[i] : "";
		const char *now = sq_cli_rec_get(after, before->key[i]);

		if (asked(a, before->key[i]) || now == NULL ||
		    strcmp(was, now) == 0)
			continue;
		snprintf(msg, n, "also changed: %s '%.80s' -> '%.80s'",
			 before->key[i], was, now);
		return 0;
	}
	return 1;
}

/* A value `sacctmgr show` printed as a value of key k for addqos, or
 * NULL. */
static const char *
setting(const struct sq_limit_key *k, const char *have, char *buf, size_t n)
{
	const struct sq_arg_spec *sp =
	    sq_action_arg_spec(sq_action_def(SQ_ACTION_QOS_ADD), k->key);
	int64_t secs;

	if (have == NULL || *have == '\0' || sp == NULL)
		return NULL;
	if (sp->type == SQ_ARG_SECONDS) {
		if (sq_parse_duration(have, &secs) == -1)
			return NULL;
		snprintf(buf, n, "%lld", (long long)secs);
		return buf;
	}
	if (sp->type == SQ_ARG_ENUM) {
		sq_util_copy(buf, n, have);
		sq_action_fold(buf, n);
		return buf;
	}
	return have;
}

int
sq_cli_delqos_inverse(const struct sq_action *a,
		      const struct sq_cli_state *before, char *buf, size_t n)
{
	const struct sq_limit_key *keys;
	size_t nk, i, j, off = 0;

	buf[0] = '\0';
	if (before == NULL || !before->ok)
		return 0;
	keys = sq_limit_keys(&nk);
	for (i = 0; i < a->ntargets && i < before->n; i++) {
		const struct sq_cli_rec *r = &before->rec[i];
		struct sq_action inv;
		char line[1024], v[64];
		const char *val;
		int w;

		if (!r->found)
			continue;
		sq_action_init(&inv, SQ_ACTION_QOS_ADD);
		sq_action_add_target(&inv, a->targets[i], NULL);
		for (j = 0; j < nk; j++) {
			if (!(keys[j].scope & SQ_LIM_QOS))
				continue;
			val = setting(&keys[j],
				      sq_cli_rec_get(r, keys[j].col_qos), v,
				      sizeof(v));
			if (val != NULL)
				sq_action_set_arg(&inv, keys[j].key, val, NULL);
		}
		/* sacctmgr gives a QOS its name as description */
		val = sq_cli_rec_get(r, "Descr");
		if (val != NULL && *val != '\0' &&
		    strcmp(val, a->targets[i]) != 0)
			sq_action_set_arg(&inv, "description", val, NULL);
		if (sq_action_format(&inv, line, sizeof(line)) == 0) {
			w = snprintf(buf + off, n - off, "%s%s",
				     off ? "\n" : "", line);
			if (w > 0 && (size_t)w < n - off)
				off += (size_t)w;
		}
		sq_action_free(&inv);
	}
	return sq_cli_delqos_restore_lines(a, before, buf, n);
}
