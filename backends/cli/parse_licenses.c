/*
 * parse_licenses.c - licenses from `scontrol -o show licenses` (one
 * Key=Value line each: LicenseName, Total, Used, Free, Reserved, Remote).
 * "No licenses configured in Slurm." gives no rows; unknown keys (24.11's
 * LastConsumed, LastDeficit, LastUpdate) are ignored.
 */
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

/* One Key=Value pair into l; 0, or 1 when the value is malformed. */
static int
license_kv(struct sq_snapshot *s, struct sq_license *l, const char *key,
	   const char *val)
{
	if (strcmp(key, "LicenseName") == 0)
		l->name = sq_snapshot_str(s, val);
	else if (strcmp(key, "Total") == 0)
		return sq_parse_int(val, &l->total);
	else if (strcmp(key, "Used") == 0)
		return sq_parse_int(val, &l->used);
	else if (strcmp(key, "Free") == 0)
		return sq_parse_int(val, &l->free);
	else if (strcmp(key, "Reserved") == 0)
		return sq_parse_int(val, &l->reserved);
	else if (strcmp(key, "Remote") == 0)
		l->remote = strcmp(val, "yes") == 0 ? "yes" : "no";
	return 0;
}

int
sq_parse_licenses(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *key, *val, *kp;
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_license *l;
		int bad = 0;

		lineno++;
		if (*line == '\0' || strncmp(line, "No licenses", 11) == 0)
			continue;
		if (strncmp(line, "LicenseName=", 12) != 0)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "scontrol line %d: not a license",
					  lineno);
		l = sq_snapshot_add(s);
		if (l == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		l->name = "";
		l->remote = "no";
		l->total = l->used = l->free = l->reserved = SQ_NONE;
		kp = line;
		while (sq_kv_next(&kp, &key, &val))
			bad |= license_kv(s, l, key, val);
		if (l->name == NULL || l->name[0] == '\0' || bad)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "scontrol line %d: malformed license",
					  lineno);
	}
	return 0;
}
