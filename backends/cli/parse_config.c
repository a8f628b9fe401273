/*
 * parse_config.c - `scontrol show config` as key/value rows. The main
 * block is "Key = value"; plugin blocks ("Cgroup Support
 * Configuration:") become sections; the controller status lines at the
 * end ("Slurmctld(primary) at vm is UP") become section "status". The
 * "Configuration data as of" line is kept as key ConfigTime.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

/*
 * 23.02+ print list settings one per line, "Prolog[0] = a", "Prolog[1] =
 * b", where 22.05 printed "Prolog = a": the key without its index, the
 * values joined with ',' into the first row. 1 when value was joined.
 */
static int
indexed_key(struct sq_snapshot *s, const char **key, char *base, size_t n,
	    const char *value)
{
	const char *br = strchr(*key, '[');
	char *end, joined[2048];
	struct sq_kv *prev;
	long idx;

	if (br == NULL || br == *key || (size_t)(br - *key) >= n)
		return 0;
	idx = strtol(br + 1, &end, 10);
	if (end == br + 1 || *end != ']' || end[1] != '\0' || idx < 0)
		return 0;
	snprintf(base, n, "%.*s", (int)(br - *key), *key);
	*key = base;
	if (idx == 0 || s->nrows == 0)
		return 0;
	prev = sq_snapshot_row(s, s->nrows - 1);
	if (strcmp(prev->key, base) != 0 ||
	    (size_t)snprintf(joined, sizeof(joined), "%s,%s", prev->value,
			     value) >= sizeof(joined))
		return 0;
	prev->value = sq_snapshot_str(s, joined);
	return 1;
}

static int
add(struct sq_snapshot *s, const char *section, const char *key,
    const char *value, struct sq_err *err)
{
	char base[128];
	struct sq_kv *kv;

	if (indexed_key(s, &key, base, sizeof(base), value))
		return 0;
	kv = sq_snapshot_add(s);

	if (kv == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	kv->section = section[0] ? sq_snapshot_str(s, section) : "";
	kv->key = sq_snapshot_str(s, key);
	/* scontrol prints unset strings as "(null)": an empty cell */
	kv->value =
	    strcmp(value, "(null)") == 0 ? "" : sq_snapshot_str(s, value);
	return 0;
}

int
sq_parse_config(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line;
	char section[128] = "";
	int seen = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		char *eq, *t = sq_trim(line);
		size_t n = strlen(t);

		if (n == 0)
			continue;
		if (strncmp(t, "Configuration data as of ", 25) == 0) {
			if (add(s, "", "ConfigTime", sq_trim(t + 25), err) ==
			    -1)
				return -1;
			seen = 1;
			continue;
		}
		eq = strstr(t, " = ");
		if (eq == NULL && n > 2 && strcmp(t + n - 2, " =") == 0) {
			/* "PriorityFlags           = " (empty value) */
			t[n - 2] = '\0';
			if (add(s, section, sq_trim(t), "", err) == -1)
				return -1;
			seen = 1;
			continue;
		}
		if (eq == NULL && strchr(t, '=') == NULL && t[n - 1] == ':') {
			t[n - 1] = '\0';
			snprintf(section, sizeof(section), "%s", t);
			continue;
		}
		if (eq != NULL) {
			*eq = '\0';
			if (add(s, section, sq_trim(t), sq_trim(eq + 3), err) ==
			    -1)
				return -1;
			seen = 1;
			continue;
		}
		/* "Slurmctld(primary) at vm is UP" */
		{
			char *is = strstr(t, " is ");

			if (is != NULL) {
				*is = '\0';
				if (add(s, "status", t, is + 4, err) == -1)
					return -1;
			} else if (add(s, "status", t, "", err) == -1) {
				return -1;
			}
		}
	}
	if (!seen)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "scontrol show config printed no settings");
	return 0;
}
