/*
 * parse_sacct.c - preempted and requeued job runs from `sacct -a -D -X
 * -n -P -s PR,RQ -S ... -E now -o <sq_cli_sacct_events_fmt>`. Each run
 * is one record (-D keeps every run of a requeued job); JobName is last
 * so a name with '|' stays whole. Times are epoch (SLURM_TIME_FORMAT=%s).
 * squall adds --delimiter=<nonce> (cli.h): the separator is learnt from
 * the first line, so the rest of a job name after a line break is never
 * a record however it is shaped; text with "|" (older recordings) is
 * read as before.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

const char sq_cli_sacct_events_fmt[] =
    "JobIDRaw,JobID,User,Account,Partition,QOS,State,Start,End,NodeList,"
    "JobName";

enum {
	E_IDRAW,
	E_ID,
	E_USER,
	E_ACCOUNT,
	E_PART,
	E_QOS,
	E_STATE,
	E_START,
	E_END,
	E_NODES,
	E_NAME,
	E_COUNT
};

static int
is_id(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	return p != s && *p == '\0';
}

int
sq_parse_sacct_events(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[E_COUNT], *end;
	char delim[SQ_CLI_NONCE_LEN + 3] = "";
	int lineno = 0, n;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_event *e;
		unsigned long id;
		char *sp;
		int terminated;

		lineno++;
		if (*line == '\0')
			continue;
		terminated = pos != line + strlen(line);
		if (delim[0] == '\0')
			sq_cli_delim_learn(line, delim);
		n = sq_cli_split_delim(line, delim, f, E_COUNT);
		/* JobName is last: after a line break in a job name (any user
		 * may submit one) comes the rest of the name, which is not
		 * kept; only a line cut short at the end (no newline) is
		 * truncated output */
		if (s->nrows > 0 && terminated &&
		    (n != E_COUNT || !is_id(f[E_IDRAW])))
			continue;
		if (n != E_COUNT)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacct line %d: %d fields, expected "
					  "%d (truncated output?)",
					  lineno, n, E_COUNT);
		id = strtoul(f[E_IDRAW], &end, 10);
		if (end == f[E_IDRAW] || *end != '\0' || id == 0 ||
		    id > UINT32_MAX)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacct line %d: bad job id '%s'",
					  lineno, f[E_IDRAW]);
		e = sq_snapshot_add(s);
		if (e == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		e->victim_job = (uint32_t)id;
		e->victim_id = sq_snapshot_str(s, f[E_ID]);
		e->victim_user = sq_snapshot_str(s, f[E_USER]);
		e->victim_account = sq_snapshot_str(s, f[E_ACCOUNT]);
		e->victim_partition = sq_snapshot_str(s, f[E_PART]);
		e->victim_qos = sq_snapshot_str(s, f[E_QOS]);
		/* "CANCELLED by 0" style states: keep the first word */
		sp = strchr(f[E_STATE], ' ');
		if (sp != NULL)
			*sp = '\0';
		e->state = sq_snapshot_str(s, f[E_STATE]);
		if (sq_parse_time(f[E_START], &e->run_start) == -1 ||
		    sq_parse_time(f[E_END], &e->time) == -1)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacct line %d: bad time", lineno);
		e->nodelist = sq_is_none(f[E_NODES])
				  ? ""
				  : sq_snapshot_str(s, f[E_NODES]);
		e->preemptor_user = e->preemptor_partition = e->mode = "";
		e->restarts = SQ_NONE;
		e->source = "sacct";
		e->note = "";
	}
	return 0;
}
