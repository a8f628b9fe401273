/*
 * parse_squeue.c - the job queue from `squeue -h -a -O <sq_cli_squeue_fmt>`.
 *
 * One job (or one collapsed pending array) per line, fields separated by
 * '|', the job name last so it may itself contain '|'. A line with too few
 * fields or a malformed number fails the whole parse: a queue with a job
 * silently missing is worse than an error on the status line. Except after
 * a record: any user may put a line break in a job name, and the lines
 * that follow it, up to the next line that is a record, are the rest of
 * that name.
 *
 * A name could also hold a whole well-formed line that would pass for a
 * job. squall's squeue line therefore carries a nonce after the first
 * field (sq_cli_squeue_fmt_nonce: "12|sqn<16 hex>|12|..."), new for
 * every fetch: the first line of the output is always squeue's own, so
 * the parser learns the nonce there, and after that only a line with the
 * nonce in that place starts a job. Text without a nonce (fixtures,
 * recordings of older versions) is read as before, by the shape of its
 * lines.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/stream.h"
#include "core/base/gres.h"
#include "core/base/parse.h"
#include "core/base/strtab.h"

enum {
	F_ID,
	F_JOBID,
	F_ARRAYJOB,
	F_ARRAYTASK,
	F_USER,
	F_ACCOUNT,
	F_PART,
	F_QOS,
	F_STATE_C,
	F_STATE,
	F_PRIO,
	F_NODES,
	F_CPUS,
	F_TRES,
	F_LIMIT,
	F_USED,
	F_SUBMIT,
	F_START,
	F_NODELIST,
	F_RESTARTS,
	F_REASON,
	F_NAME,
	F_COUNT
};

static int
num(const char *s, int64_t *v)
{
	return sq_parse_int(s, v);
}

/* the same into a 32-bit field (sq_i32) */
static int
num32(const char *s, int32_t *v)
{
	int64_t w;

	if (num(s, &w) == -1)
		return -1;
	*v = sq_i32(w);
	return 0;
}

static uint32_t
u32(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	return (end == s || v > 0xffffffffUL) ? 0 : (uint32_t)v;
}

/* Does line (not yet split) start a job, in output without a nonce? When
 * it has every field and a JobID that is a number. */
static int
is_record(const char *line)
{
	const char *p;
	int bars = 0;

	for (p = line; *p != '\0'; p++)
		bars += *p == '|';
	if (bars < F_COUNT - 1)
		return 0;
	p = strchr(line, '|') + 1;
	if (*p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '|';
}

/* Append "\n" and line to the name of the last job. */
static int
continue_name(struct sq_snapshot *s, const char *line)
{
	struct sq_job *prev = sq_snapshot_row(s, s->nrows - 1);
	size_t a = strlen(prev->name), b = strlen(line);
	char *both = malloc(a + b + 2);

	if (both == NULL)
		return -1;
	memcpy(both, prev->name, a);
	both[a] = '\n';
	memcpy(both + a + 1, line, b + 1);
	prev->name = sq_snapshot_str(s, both);
	free(both);
	return 0;
}

/* Job j's text fields from its squeue fields f, the ones many jobs
 * share stored once in st. */
static void
job_strings(struct sq_job *j, char **f, struct sq_strtab *st)
{
	if (!sq_is_none(f[F_ARRAYTASK])) {
		j->array_job_id = u32(f[F_ARRAYJOB]);
		j->array_task = sq_strtab_str(st, f[F_ARRAYTASK]);
	} else {
		j->array_task = "";
	}
	j->user = sq_strtab_str(st, f[F_USER]);
	/* without accounting (AccountingStorageType none), 26.05
	 * prints "(null)" for the account and QOS: no value */
	j->account =
	    sq_is_none(f[F_ACCOUNT]) ? "" : sq_strtab_str(st, f[F_ACCOUNT]);
	j->partition = sq_strtab_str(st, f[F_PART]);
	j->qos = sq_is_none(f[F_QOS]) ? "" : sq_strtab_str(st, f[F_QOS]);
	j->state_compact = sq_strtab_str(st, f[F_STATE_C]);
	j->state = sq_strtab_str(st, f[F_STATE]);
	j->gres = sq_is_none(f[F_TRES])
		      ? ""
		      : sq_strtab_str(st, sq_gres_tres_legacy(f[F_TRES]));
	j->nodelist = sq_strtab_str(st, f[F_NODELIST]);
	j->reason =
	    sq_is_none(f[F_REASON]) ? "" : sq_strtab_str(st, f[F_REASON]);
	j->name = sq_strtab_str(st, f[F_NAME]);
}

/* Job j's numbers and times from its squeue fields f: -1 if one is
 * malformed. */
static int
job_numbers(struct sq_snapshot *s, struct sq_job *j, char **f)
{
	int64_t v;
	int32_t restarts;

	if (num(f[F_PRIO], &j->priority) == -1 ||
	    num32(f[F_NODES], &j->nodes) == -1 ||
	    num32(f[F_CPUS], &j->cpus) == -1 ||
	    num32(f[F_RESTARTS], &restarts) == -1 ||
	    (j->more = sq_snapshot_job_more(s, "", "", restarts), 0) ||
	    sq_parse_duration(f[F_LIMIT], &v) == -1 ||
	    (j->time_limit = sq_i32(v), 0) ||
	    sq_parse_duration(f[F_USED], &v) == -1 ||
	    (j->time_used = sq_i32(v), 0) ||
	    sq_parse_time(f[F_SUBMIT], &j->submit_time) == -1 ||
	    sq_parse_time(f[F_START], &j->start_time) == -1)
		return -1;
	return 0;
}

/* A parse under way: the rows so far, the strings they share, the nonce
 * learnt from the first line, the lines read. */
struct squeue_st {
	struct sq_snapshot *s;
	struct sq_strtab st;
	char nonce[SQ_CLI_NONCE_LEN + 3];
	int lineno;
};

static void *
squeue_begin(struct sq_snapshot *s, const void *ctx)
{
	struct squeue_st *p = calloc(1, sizeof(*p));

	(void)ctx;
	if (p == NULL)
		return NULL;
	p->s = s;
	/* the fields most jobs share (user, account, partition, state,
	 * reason, an array's name ...) stored once: at 100,000 jobs that
	 * is most of the memory */
	sq_strtab_init(&p->st, &s->arena, 0);
	return p;
}

static void
squeue_end(void *st)
{
	struct squeue_st *p = st;

	sq_strtab_free(&p->st);
	free(p);
}

/* One line of the output (its newline gone; nl: it had one) into the
 * rows: a job, the rest of the last job's name, or nothing. */
static int
squeue_line(struct squeue_st *p, char *line, int nl, struct sq_err *err)
{
	struct sq_snapshot *s = p->s;
	char *f[F_COUNT];
	struct sq_job *j;
	int n, rec;

	p->lineno++;
	/* 1: a record, its nonce taken out; -1: not one; 0: output without
	 * a nonce, told by the shape of its lines */
	rec = sq_cli_nonce_line(line, p->nonce, p->lineno == 1);
	/* the rest of a name with a line break; a line cut short at the end
	 * (no newline) is truncated output, not a name */
	if (s->nrows > 0 && nl &&
	    (rec == -1 || (rec == 0 && !is_record(line)))) {
		if (continue_name(s, line) == -1)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return 0;
	}
	if (*line == '\0')
		return 0;
	if (rec == -1)
		return sq_err_set(
		    err, SQ_ERR_PARSE,
		    "squeue line %d: no nonce (truncated output?)", p->lineno);
	n = sq_split(line, '|', f, F_COUNT);
	if (n != F_COUNT)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "squeue line %d: %d fields, expected "
				  "%d (truncated output?)",
				  p->lineno, n, F_COUNT);
	j = sq_snapshot_add(s);
	if (j == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	j->id = sq_snapshot_str(s, f[F_ID]);
	j->job_id = u32(f[F_JOBID]);
	if (j->job_id == 0)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "squeue line %d: bad job id", p->lineno);
	job_strings(j, f, &p->st);
	if (job_numbers(s, j, f) == -1)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "squeue line %d: malformed number in job %s",
				  p->lineno, j->id);
	return 0;
}

static int
squeue_lines(void *st, char *text, int last, struct sq_err *err)
{
	struct squeue_st *p = st;
	char *pos = text, *line;

	/* the whole output at once: its rows in one allocation */
	if (last && p->s->nrows == 0)
		sq_snapshot_reserve(p->s, sq_count_lines(text));
	while ((line = sq_next_line(&pos)) != NULL) {
		if (squeue_line(p, line, pos != line + strlen(line), err) == -1)
			return -1;
	}
	return 0;
}

const struct sq_cli_lines sq_squeue_lines = { squeue_begin, squeue_lines,
					      squeue_end };

int
sq_parse_squeue(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	return sq_cli_lines_all(&sq_squeue_lines, NULL, text, s, err);
}
