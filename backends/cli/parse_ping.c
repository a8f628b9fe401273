/*
 * parse_ping.c - the controllers from `scontrol ping` as key/value rows
 * of section "controller" (appended to the diag snapshot): one row per
 * SlurmctldHost, key "ROLE HOST" (role as scontrol prints it: primary,
 * backup, backup2...), value "UP" or "DOWN". 22.05 prints
 *   Slurmctld(primary) at vm is UP
 *   Slurmctld(backup) at vm-backup is DOWN
 * and a banner of asterisks when one is down (skipped). Which one is in
 * control is the session's to say (core/analysis/ctld_track.h).
 */
#include <stdio.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

/* "Slurmctld(ROLE) at HOST is STATE": 1 and the words, else 0 */
static int
ping_line(const char *line, char *role, size_t rn, char *host, size_t hn,
	  char *state, size_t sn)
{
	const char *p = strstr(line, "Slurmctld("), *e, *h, *he, *st;

	if (p == NULL)
		return 0;
	p += strlen("Slurmctld(");
	e = strchr(p, ')');
	if (e == NULL || e == p || (size_t)(e - p) >= rn ||
	    strncmp(e, ") at ", 5) != 0)
		return 0;
	h = e + 5;
	he = strstr(h, " is ");
	if (he == NULL || he == h || (size_t)(he - h) >= hn)
		return 0;
	st = he + 4;
	if (*st == '\0' || strlen(st) >= sn || strchr(st, ' ') != NULL)
		return 0;
	snprintf(role, rn, "%.*s", (int)(e - p), p);
	snprintf(host, hn, "%.*s", (int)(he - h), h);
	snprintf(state, sn, "%s", st);
	return 1;
}

int
sq_parse_scontrol_ping(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line;
	char role[32], host[256], state[32], key[300];

	while ((line = sq_next_line(&pos)) != NULL) {
		if (!ping_line(line, role, sizeof(role), host, sizeof(host),
			       state, sizeof(state)))
			continue;
		snprintf(key, sizeof(key), "%s %s", role, host);
		if (sq_kv_add(s, "controller", key, state, err) == -1)
			return -1;
	}
	return 0;
}
