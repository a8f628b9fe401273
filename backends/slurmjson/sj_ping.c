/*
 * sj_ping.c - the controllers from GET /slurm/vX/ping as the rows
 * `scontrol ping` gives (backends/cli/parse_ping.c): section
 * "controller", key "ROLE HOST", value "UP" or "DOWN". v0.0.38 says
 * "ping", v0.0.39-41 "pinged", v0.0.42+ add "responding" (bool, which
 * wins) and "primary" (bool), deprecating "mode" and "pinged". A
 * controller without a mode is the primary (the first) or a backup.
 */
#include <stdio.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "core/model/model_admin.h"

static int
add_row(struct sq_snapshot *s, const char *key, const char *value,
	struct sq_err *err)
{
	return sq_kv_add(s, "controller", key, value, err);
}

/* "UP"/"DOWN" of one ping element: responding, else ping/pinged */
static const char *
state_of(json_object *p)
{
	json_object *r = sq_sj_get(p, "responding");
	const char *t;

	if (r != NULL && json_object_is_type(r, json_type_boolean))
		return json_object_get_boolean(r) ? "UP" : "DOWN";
	t = sq_sj_cstr(sq_sj_get(p, "pinged"));
	if (t == NULL)
		t = sq_sj_cstr(sq_sj_get(p, "ping"));
	return t != NULL && strcmp(t, "UP") == 0 ? "UP" : "DOWN";
}

int
sq_sj_pings(struct sq_sj_ctx *c, json_object *pings, struct sq_err *err)
{
	size_t i, n = json_object_array_length(pings);
	char key[300];

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pings, i);
		const char *host = sq_sj_cstr(sq_sj_get(p, "hostname"));
		const char *mode = sq_sj_cstr(sq_sj_get(p, "mode"));

		if (p == NULL || !json_object_is_type(p, json_type_object) ||
		    host == NULL || host[0] == '\0')
			continue;
		if (mode == NULL || mode[0] == '\0')
			mode = i == 0 ? "primary" : "backup";
		snprintf(key, sizeof(key), "%.31s %.255s", mode, host);
		if (add_row(c->s, key, state_of(p), err) == -1)
			return -1;
	}
	return 0;
}
