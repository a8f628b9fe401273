/*
 * parse_sdiag.c - controller statistics from `sdiag` as key/value rows.
 * Sections: "general" (threads, queues, job counters), "main" (main
 * scheduler, with its exit reasons as "exit: ..." keys, 23.02+),
 * "backfill" (the same), "rpc_type" and "rpc_user" (one row per message
 * type or user: value "count=N ave_time=N total_time=N"), "pending_rpc".
 * Times printed as "Sun Nov 29 22:00:48 2026 (1795989648)" become the
 * epoch in parentheses (the view shows it as a time).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"

/* "... (1795989648)" at the end: the digits (the ')' cut), else NULL;
 * sacctmgr show stats writes its times the same way */
char *
sq_sdiag_epoch(char *v)
{
	size_t n = strlen(v);
	char *open;

	if (n < 3 || v[n - 1] != ')')
		return NULL;
	open = strrchr(v, '(');
	if (open == NULL || open + 1 == v + n - 1)
		return NULL;
	for (char *p = open + 1; p < v + n - 1; p++) {
		if (!isdigit((unsigned char)*p))
			return NULL;
	}
	v[n - 1] = '\0';
	return open + 1;
}

/* "\tNAME  ( 2009) count:884    ave_time:177    total_time:156577" as
 * NAME = "count=884 ave_time=177 total_time=156577" (the name may touch
 * the parenthesis: "DBD_REMOVE_ACCOUNT_COORDS( 1436)"); 0 when the line
 * is not one. sacctmgr show stats prints its RPCs the same way. */
int
sq_sdiag_rpc_line(struct sq_snapshot *s, const char *section, char *line,
		  struct sq_err *err)
{
	char rest[256], *open = strchr(line, '('), *close, *q;
	size_t o = 0;

	if (open == NULL || (close = strchr(open, ')')) == NULL)
		return 0;
	*open = '\0';
	line = sq_trim(line);
	if (*line == '\0')
		return 0;
	for (q = close + 1; *q != '\0' && o + 1 < sizeof(rest); q++) {
		if (*q == ' ' || *q == '\t') {
			if (o > 0 && rest[o - 1] != ' ')
				rest[o++] = ' ';
			continue;
		}
		rest[o++] = *q == ':' ? '=' : *q;
	}
	while (o > 0 && rest[o - 1] == ' ')
		o--;
	rest[o] = '\0';
	return sq_kv_add(s, section, line, rest, err);
}

/* "\tEnd of job queue:12" (sdiag prints "%s:%2u": no space from 10 on)
 * under "Main scheduler exit:" or "Backfill exit": an "exit: " row of
 * the section's own. 1 when the line was one. */
static int
exit_line(struct sq_snapshot *s, const char *section, char *line,
	  struct sq_err *err)
{
	char key[160], *colon = strrchr(line, ':');

	if (colon == NULL)
		return 0;
	*colon = '\0';
	snprintf(key, sizeof(key), "exit: %s", sq_trim(line));
	return sq_kv_add(s, section, key, sq_trim(colon + 1), err) == -1 ? -1
									 : 1;
}

int
sq_parse_sdiag(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line;
	const char *section = "general";
	int seen = 0, exits = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		char *colon, *key, *val, *ep;
		int indented = line[0] == '\t' || line[0] == ' ';

		if (*sq_trim(line) == '\0' || line[0] == '*')
			continue;
		seen = 1;
		if (!indented) {
			char *t = sq_trim(line);

			exits = 0;
			if (strncmp(t, "Main scheduler exit", 19) == 0 ||
			    strncmp(t, "Backfill exit", 13) == 0) {
				section = t[0] == 'M' ? "main" : "backfill";
				exits = 1;
				continue;
			}

			if (strncmp(t, "Main schedule statistics", 24) == 0) {
				section = "main";
				continue;
			}
			if (strncmp(t, "Backfilling stats", 17) == 0) {
				section = "backfill";
				continue;
			}
			if (strstr(t, "statistics by message type") != NULL) {
				section = "rpc_type";
				continue;
			}
			if (strstr(t, "statistics by user") != NULL) {
				section = "rpc_user";
				continue;
			}
			if (strncmp(t, "Pending RPC statistics", 22) == 0) {
				section = "pending_rpc";
				continue;
			}
			section = "general";
		}
		if (strcmp(section, "rpc_type") == 0 ||
		    strcmp(section, "rpc_user") == 0 ||
		    strcmp(section, "pending_rpc") == 0) {
			if (strchr(line, '(') == NULL)
				continue; /* "No pending RPCs" */
			if (sq_sdiag_rpc_line(s, section, line, err) == -1)
				return -1;
			continue;
		}
		if (exits) {
			if (exit_line(s, section, line, err) == -1)
				return -1;
			continue;
		}
		colon = strstr(line, ": ");
		if (colon == NULL) {
			size_t n = strlen(line);

			/* "Data since      Sun Nov 29 21:53:12 2026 (17..)" */
			if (n > 3 && line[n - 1] == ':')
				line[n - 1] = '\0';
			ep = sq_sdiag_epoch(line);
			if (ep == NULL)
				continue;
			/* the ctime date (24 chars) precedes " (" */
			key = sq_trim(line);
			if (ep - 2 - key >= 24)
				ep[-2 - 24] = '\0';
			if (sq_kv_add(s, section, sq_trim(key), ep, err) == -1)
				return -1;
			continue;
		}
		*colon = '\0';
		key = sq_trim(line);
		val = sq_trim(colon + 2);
		ep = sq_sdiag_epoch(val);
		if (sq_kv_add(s, section, key, ep ? ep : val, err) == -1)
			return -1;
	}
	if (!seen)
		return sq_err_set(err, SQ_ERR_PARSE, "sdiag printed nothing");
	return 0;
}
