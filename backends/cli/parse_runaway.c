/*
 * parse_runaway.c - runaway jobs from `sacctmgr -n -P show runawayjobs
 * format=<sq_cli_runaway_fmt>` (ID|Cluster|Partition|State|Submit|Start|
 * End|Name, times as epochs; the name last, so a '|' in it stays in it).
 * sacctmgr prints more around the rows: "NOTE: Runaway jobs are ...",
 * its question "Would you like to fix these runaway jobs? ... (N/y): ",
 * then "Changes Discarded" (answered N) or nothing (-i, fixed); with no
 * runaway job only "Runaway Jobs: No runaway jobs found on cluster C".
 * Lines that do not start with a job id and a '|' are those words and
 * are skipped; sq_runaway_discarded() tells whether the answer was N.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

#define NF 8

static int
all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* A time field: an epoch, or Unknown/None/0 (not set) as SQ_NONE. */
static int
when(const char *s, int64_t *out)
{
	if (strcmp(s, "0") == 0 || *s == '\0') {
		*out = SQ_NONE;
		return 0;
	}
	return sq_parse_time(s, out);
}

static int
row(struct sq_snapshot *s, char **f, int lineno, struct sq_err *err)
{
	struct sq_runaway *r;
	unsigned long id;
	char *end;

	id = strtoul(f[0], &end, 10);
	if (*end != '\0' || id == 0 || id > 0xffffffffUL)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "sacctmgr line %d: bad job id", lineno);
	r = sq_snapshot_add(s);
	if (r == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	r->id = (uint32_t)id;
	r->cluster = sq_snapshot_str(s, f[1]);
	r->partition = sq_snapshot_str(s, f[2]);
	r->state = sq_snapshot_str(s, f[3]);
	r->name = sq_snapshot_str(s, f[7]);
	if (when(f[4], &r->submit) == -1 || when(f[5], &r->start) == -1 ||
	    when(f[6], &r->end) == -1)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "sacctmgr line %d: bad time", lineno);
	if (r->cluster == NULL || r->partition == NULL || r->state == NULL ||
	    r->name == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return 0;
}

int
sq_parse_runaway(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[NF];
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		size_t n = strspn(line, "0123456789");

		lineno++;
		if (n == 0 || line[n] != '|')
			continue; /* sacctmgr's words around the rows */
		if (sq_split(line, '|', f, NF) != NF || !all_digits(f[0]))
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacctmgr line %d: not a runaway "
					  "job (want %d fields)",
					  lineno, NF);
		if (row(s, f, lineno, err) == -1)
			return -1;
	}
	return 0;
}

int
sq_runaway_discarded(const char *text)
{
	return strstr(text, "Changes Discarded") != NULL;
}

int
sq_runaway_none(const char *text)
{
	return strstr(text, "No runaway jobs found") != NULL;
}
