/*
 * parse_events_log.c - preemptions from slurmctld's log (SlurmctldLogFile,
 * read with tail when the user may read it), matched with PCRE2:
 *   [2026-11-29T20:35:15.471] preempted JobId=2 has been requeued to
 *   reclaim resources for JobId=15
 * and the "has been killed", "had to be killed" and gang "suspended"
 * variants. %pJ prints array tasks as JobId=6_2(8): the id in
 * parentheses is the real job id. Other lines are ignored.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

static const char log_re[] =
    "^\\[(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d)(?:\\.\\d+)?"
    "(Z|[+-]\\d\\d:?\\d\\d)?\\]\\s+(?:[^\\s]+:\\s+)?"
    "preempted JobId=(\\d+)(?:[_+][0-9\\[\\]-]+)?(?:\\((\\d+)\\))?\\s+"
    "(has been requeued|has been killed|had to be killed|"
    "suspended by gang scheduler)"
    "(?: to reclaim resources for JobId=(\\d+)(?:[_+][0-9\\[\\]-]+)?"
    "(?:\\((\\d+)\\))?)?";

enum { G_TIME = 1, G_TZ, G_VICTIM, G_VICTIM_RAW, G_VERB, G_PRE, G_PRE_RAW };

/* Group g of the match as a string in buf ("" when unset). */
static const char *
group(const char *line, PCRE2_SIZE *ov, int rc, int g, char *buf, size_t n)
{
	size_t l;

	buf[0] = '\0';
	if (g >= rc || ov[2 * g] == PCRE2_UNSET)
		return buf;
	l = ov[2 * g + 1] - ov[2 * g];
	if (l >= n)
		l = n - 1;
	memcpy(buf, line + ov[2 * g], l);
	buf[l] = '\0';
	return buf;
}

/* ISO time with an optional zone; local time without one. */
static int64_t
log_time(const char *iso, const char *tz)
{
	struct tm tm;
	int64_t t;
	int sign, hh, mm;

	if (tz[0] == '\0') {
		if (sq_parse_time(iso, &t) == -1)
			return SQ_NONE;
		return t;
	}
	memset(&tm, 0, sizeof(tm));
	if (sscanf(iso, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return SQ_NONE;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	t = (int64_t)timegm(&tm);
	if (tz[0] == 'Z')
		return t;
	sign = tz[0] == '-' ? -1 : 1;
	if (sscanf(tz + 1, "%2d:%2d", &hh, &mm) != 2 &&
	    sscanf(tz + 1, "%2d%2d", &hh, &mm) != 2)
		return t;
	return t - sign * (hh * 3600 + mm * 60);
}

int
sq_parse_events_log(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	pcre2_code *re;
	pcre2_match_data *md;
	int errcode, rc = 0;
	PCRE2_SIZE erroff;
	char *pos = text, *line;

	re = pcre2_compile((PCRE2_SPTR)log_re, PCRE2_ZERO_TERMINATED, 0,
			   &errcode, &erroff, NULL);
	if (re == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM,
				  "log pattern does not compile (%d)", errcode);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	if (md == NULL) {
		pcre2_code_free(re);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_event *e;
		PCRE2_SIZE *ov;
		char tbuf[32], tz[16], v[16], vraw[16], verb[40], p[16],
		    praw[16];
		int m;

		/* cheap filter before the regex */
		if (strstr(line, "preempted JobId=") == NULL)
			continue;
		m = pcre2_match(re, (PCRE2_SPTR)line, PCRE2_ZERO_TERMINATED, 0,
				0, md, NULL);
		if (m < 0)
			continue;
		ov = pcre2_get_ovector_pointer(md);
		group(line, ov, m, G_TIME, tbuf, sizeof(tbuf));
		group(line, ov, m, G_TZ, tz, sizeof(tz));
		group(line, ov, m, G_VICTIM, v, sizeof(v));
		group(line, ov, m, G_VICTIM_RAW, vraw, sizeof(vraw));
		group(line, ov, m, G_VERB, verb, sizeof(verb));
		group(line, ov, m, G_PRE, p, sizeof(p));
		group(line, ov, m, G_PRE_RAW, praw, sizeof(praw));
		e = sq_snapshot_add(s);
		if (e == NULL) {
			rc = sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			break;
		}
		e->time = log_time(tbuf, tz);
		e->victim_job = (uint32_t)strtoul(vraw[0] ? vraw : v, NULL, 10);
		e->preemptor_job =
		    (uint32_t)strtoul(praw[0] ? praw : p, NULL, 10);
		e->victim_id = "";
		if (vraw[0] != '\0') {
			/* the array task as printed: 6_2 */
			size_t l = ov[2 * G_VICTIM_RAW] - 1 - ov[2 * G_VICTIM];

			e->victim_id =
			    sq_snapshot_strn(s, line + ov[2 * G_VICTIM], l);
		} else {
			e->victim_id = sq_snapshot_str(s, v);
		}
		e->victim_user = e->victim_account = e->victim_partition = "";
		e->victim_qos = e->nodelist = "";
		e->preemptor_user = e->preemptor_partition = "";
		e->run_start = SQ_NONE;
		e->restarts = SQ_NONE;
		e->state = "PREEMPTED";
		if (strcmp(verb, "has been requeued") == 0)
			e->mode = "REQUEUE";
		else if (strncmp(verb, "suspended", 9) == 0)
			e->mode = "SUSPEND";
		else
			e->mode = "CANCEL";
		e->source = "log";
		e->note = "";
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return rc;
}
