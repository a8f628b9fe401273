/*
 * parse_dbd_stats.c - slurmdbd's statistics from `sacctmgr show stats`
 * as key/value rows (struct sq_kv) the diag view shows under sdiag's.
 * Section "dbd": "stats output at" and "Data since" (epochs), then each
 * rollup's figures keyed "<rollup>: <label>" ("Internal DBD rollup: Last
 * cycle", "testbed Hour rollup: last ran"; cycles in microseconds);
 * "dbd_type" and "dbd_user": one row per message type or user, value
 * "count=N ave_time=N total_time=N" as sdiag's rows (a uid without a
 * name by its number, as sdiag). Times printed as
 * "Sun Dec 06 10:00:00 2026 (1796551200)" become the epoch.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"

struct st {
	const char *section;
	char rollup[128]; /* the block's name, "" outside a rollup */
	char cluster[64]; /* "Cluster 'x' rollup statistics" */
};

/* "... (1796551200)" at the end: the digits (v cut at the '('), else
 * NULL */
static const char *
epoch(char *v)
{
	char *ep = sq_sdiag_epoch(v);

	if (ep != NULL)
		ep[-1] = '\0';
	return ep;
}

/* A line that starts a block: a section, a rollup's "last ran", a
 * cluster's heading, or a time of the header. */
static int
heading(struct sq_snapshot *s, struct st *st, char *t, struct sq_err *err)
{
	char key[200], *ran;
	const char *ep;

	st->rollup[0] = '\0';
	if (strstr(t, "statistics by message type") != NULL) {
		st->section = "dbd_type";
		return 0;
	}
	if (strstr(t, "statistics by user") != NULL) {
		st->section = "dbd_user";
		return 0;
	}
	st->section = "dbd";
	if (strncmp(t, "Cluster '", 9) == 0) {
		snprintf(st->cluster, sizeof(st->cluster), "%s", t + 9);
		st->cluster[strcspn(st->cluster, "'")] = '\0';
		return 0;
	}
	ep = epoch(t);
	if (ep == NULL)
		return 0; /* "All statistics are in microseconds" */
	ran = strstr(t, " last ran ");
	if (ran != NULL) {
		*ran = '\0';
		t = sq_trim(t);
		if (strcmp(t, "Hour") == 0 || strcmp(t, "Day") == 0 ||
		    strcmp(t, "Month") == 0)
			snprintf(st->rollup, sizeof(st->rollup), "%s %s rollup",
				 st->cluster, t);
		else
			snprintf(st->rollup, sizeof(st->rollup), "%s", t);
		snprintf(key, sizeof(key), "%s: last ran", st->rollup);
		return sq_kv_add(s, "dbd", key, ep, err);
	}
	/* "sacctmgr show stats output at <date>", "Data since    <date>":
	 * the ctime date (24 characters) ends the label */
	t = sq_trim(t);
	if (strlen(t) > 24)
		t[strlen(t) - 24] = '\0';
	t = sq_trim(t);
	if (strncmp(t, "sacctmgr show ", 14) == 0)
		t += 14;
	return sq_kv_add(s, "dbd", t, ep, err);
}

/* "\tLast cycle:   4119" inside a rollup */
static int
figure(struct sq_snapshot *s, const struct st *st, char *line,
       struct sq_err *err)
{
	char key[200], *colon = strchr(line, ':');

	if (colon == NULL || st->rollup[0] == '\0')
		return 0;
	*colon = '\0';
	snprintf(key, sizeof(key), "%s: %s", st->rollup, sq_trim(line));
	return sq_kv_add(s, "dbd", key, sq_trim(colon + 1), err);
}

/* A uid without a user name (a user since removed): sacctmgr prints
 * "nobody (4242)" (uid_to_string_cached), sdiag the number; the row is
 * named by the number as rpc-users names sdiag's (65534 is nobody). */
static int
user_line(struct sq_snapshot *s, char *t, struct sq_err *err)
{
	char buf[512], *open = strchr(t, '('), *end;
	long uid;

	if (open == NULL || strncmp(t, "nobody", 6) != 0 ||
	    strcspn(t, " \t(") != 6)
		return sq_sdiag_rpc_line(s, "dbd_user", t, err);
	uid = strtol(open + 1, &end, 10);
	if (end == open + 1 || uid < 0 || uid == 65534)
		return sq_sdiag_rpc_line(s, "dbd_user", t, err);
	snprintf(buf, sizeof(buf), "%ld %s", uid, open);
	return sq_sdiag_rpc_line(s, "dbd_user", buf, err);
}

int
sq_parse_dbd_stats(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	struct st st = { "dbd", "", "" };
	char *pos = text, *line;
	int seen = 0, rc;

	while ((line = sq_next_line(&pos)) != NULL) {
		int indented = line[0] == '\t' || line[0] == ' ';
		char *t = sq_trim(line);

		if (*t == '\0' || *t == '*')
			continue;
		if (!indented) {
			seen = 1;
			rc = heading(s, &st, t, err);
		} else if (strcmp(st.section, "dbd") == 0) {
			rc = figure(s, &st, t, err);
		} else if (strcmp(st.section, "dbd_user") == 0) {
			rc = user_line(s, t, err);
		} else {
			rc = sq_sdiag_rpc_line(s, st.section, t, err);
		}
		if (rc == -1)
			return -1;
	}
	if (!seen)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "sacctmgr show stats printed nothing");
	return 0;
}
