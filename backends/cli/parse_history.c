/*
 * parse_history.c - job runs and their steps from `sacct -a -D -n -P -S
 * <start> -E now -o <sq_cli_sacct_history_fmt>` (no -X: the steps come in
 * the same query). -D keeps every run of a requeued job as its own line;
 * a step line ("12.batch") belongs to the last run line of its job id
 * before it. JobName is last so a name with '|' stays whole; a line break
 * in a job name leaves a tail line that is skipped. The separator is
 * squall's --delimiter=<nonce>, learnt from the first line (cli.h), so
 * that tail is never a record, whatever its shape; "|" in older text.
 * TRESUsageInMax gives each step's GPU peaks (gres/gpuutil, gres/gpumem;
 * 23.02+); a recording of the older format without it (21 fields, learnt
 * from the first line) still reads, with no GPU use.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/analysis/history.h"
#include "core/base/parse.h"
#include "core/base/strtab.h"

const char sq_cli_sacct_history_fmt[] =
    "JobIDRaw,JobID,User,Account,Partition,QOS,State,ExitCode,Submit,Start,"
    "End,ElapsedRaw,AllocCPUS,ReqMem,AllocTRES,NNodes,NTasks,NodeList,"
    "TotalCPU,MaxRSS,TRESUsageInMax,JobName";

/* The format before TRESUsageInMax (recordings made with it replay). */
const char sq_cli_sacct_history_fmt_v1[] =
    "JobIDRaw,JobID,User,Account,Partition,QOS,State,ExitCode,Submit,Start,"
    "End,ElapsedRaw,AllocCPUS,ReqMem,AllocTRES,NNodes,NTasks,NodeList,"
    "TotalCPU,MaxRSS,JobName";

enum {
	F_IDRAW,
	F_ID,
	F_USER,
	F_ACCOUNT,
	F_PART,
	F_QOS,
	F_STATE,
	F_EXIT,
	F_SUBMIT,
	F_START,
	F_END,
	F_ELAPSED,
	F_CPUS,
	F_REQMEM,
	F_TRES,
	F_NNODES,
	F_NTASKS,
	F_NODES,
	F_TOTCPU,
	F_MAXRSS,
	F_USAGE, /* TRESUsageInMax: GPU peaks of the steps */
	F_NAME,
	F_COUNT
};

/* "123" or "123.batch" / "123.0" / "123+1.0": the job id, the step part
 * (NULL for a job line); 0 when s is not a job id. */
static unsigned long
raw_id(const char *s, const char **step)
{
	unsigned long v = 0;
	const char *p = s;

	*step = NULL;
	while (*p >= '0' && *p <= '9' && p - s < 10)
		v = v * 10 + (unsigned long)(*p++ - '0');
	if (p == s || v == 0 || v > UINT32_MAX)
		return 0;
	if (*p == '+') { /* hetjob component: 20+1 */
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == '.' && p[1] != '\0') {
		*step = p + 1;
		return v;
	}
	return *p == '\0' ? v : 0;
}

static int
bad(struct sq_err *err, int lineno, const char *what)
{
	return sq_err_set(err, SQ_ERR_PARSE, "sacct line %d: bad %s", lineno,
			  what);
}

/* ReqMem as 22.05+ prints it ("500M", older "500Mn"/"2Gc"). */
static int
req_mem(char *s, int64_t *out)
{
	size_t l = strlen(s);

	if (l > 1 && (s[l - 1] == 'n' || s[l - 1] == 'c'))
		s[l - 1] = '\0';
	return sq_parse_mem_mb(s, out);
}

static int
num(const char *s, int64_t *out)
{
	if (sq_parse_int(s, out) == -1)
		return -1;
	if (*out == SQ_INFINITE)
		*out = SQ_NONE;
	return 0;
}

/*
 * The layout, from the first line (a run's: its usage field is empty in
 * today's layout): F_COUNT - 1 fields, or in '|' text (older, a name may
 * hold '|') a usage field without '=' (a piece of the name), is the
 * format before TRESUsageInMax. A nonce never is in a name.
 */
static int
layout(char **f, int n, const char *delim)
{
	if (n == F_COUNT - 1)
		return F_COUNT - 1;
	if (n == F_COUNT && strlen(delim) <= 1 && f[F_USAGE][0] != '\0' &&
	    strchr(f[F_USAGE], '=') == NULL)
		return F_COUNT - 1;
	return F_COUNT;
}

/* A line of the format without TRESUsageInMax: its name (last) where
 * the layout has it, a delimiter in it put back; the count as if new. */
static int
old_layout(char **f, int n, const char *delim)
{
	if (n == F_COUNT) { /* a name holding the delimiter ('|' text) */
		size_t dl = strlen(delim);

		if (dl == 0)
			f[F_NAME][-1] = '|';
		else
			memcpy(f[F_NAME] - dl, delim, dl);
		n--;
	}
	if (n != F_COUNT - 1)
		return n;
	f[F_NAME] = f[F_USAGE];
	f[F_USAGE] = "";
	return F_COUNT;
}

/*
 * A step line ("12.batch") to its run: the last job line of this id
 * (sacct prints the steps right after their run; a few lines back at
 * most). 0 done or skipped (its job line is outside the output), -1 out
 * of memory, -2 a bad field.
 */
static int
step_line(struct sq_hist_build *b, struct sq_strtab *t, size_t last,
	  unsigned long id, const char *step, char **f)
{
	struct sq_snapshot *s = b->s;
	struct sq_hist_step *st;
	size_t run = last;
	int back = 0;
	int64_t ex, sig, el, nodes, tasks, rss, util;

	while (run != (size_t)-1 &&
	       ((struct sq_hist *)sq_snapshot_row(s, run))->job_id != id)
		run = run == 0 || ++back > 16 ? (size_t)-1 : run - 1;
	if (run == (size_t)-1)
		return 0;
	st = sq_history_add_step(b, run);
	if (st == NULL)
		return -1;
	st->step = sq_strtab_str(t, step);
	st->name = sq_strtab_str(t, f[F_NAME]);
	st->state = sq_strtab_get(t, f[F_STATE], strcspn(f[F_STATE], " "));
	st->nodelist =
	    sq_is_none(f[F_NODES]) ? "" : sq_strtab_str(t, f[F_NODES]);
	if (sq_history_exit(f[F_EXIT], &ex, &sig) == -1 ||
	    num(f[F_ELAPSED], &el) == -1 || num(f[F_NNODES], &nodes) == -1 ||
	    num(f[F_NTASKS], &tasks) == -1 ||
	    sq_history_cpu_time(f[F_TOTCPU], &st->total_cpu) == -1 ||
	    sq_history_kb(f[F_MAXRSS], &rss) == -1 ||
	    sq_history_gpu_usage(f[F_USAGE], &util, &st->gpu_mem) == -1)
		return -2;
	st->exit_code = (int16_t)(ex < -1 || ex > INT16_MAX ? INT16_MAX : ex);
	st->signal = (int16_t)(sig < -1 || sig > INT16_MAX ? INT16_MAX : sig);
	st->elapsed = sq_i32(el);
	st->nodes = sq_i32(nodes);
	st->tasks = sq_i32(tasks);
	st->max_rss = sq_i32(rss);
	st->gpu_util = sq_i32(util);
	return 0;
}

/* A run line's fields into h (strings shared through t); -1 on a bad
 * field. */
static int
run_line(struct sq_hist *h, struct sq_snapshot *s, struct sq_strtab *t,
	 char **f)
{
	int64_t ex, sig, el, cpus, mem, nodes, rss;

	h->id = sq_snapshot_str(s, f[F_ID]);
	h->user = sq_strtab_str(t, f[F_USER]);
	h->account = sq_strtab_str(t, f[F_ACCOUNT]);
	h->partition = sq_strtab_str(t, f[F_PART]);
	h->qos = sq_strtab_str(t, f[F_QOS]);
	h->name = sq_strtab_str(t, f[F_NAME]);
	h->state = sq_strtab_get(t, f[F_STATE], strcspn(f[F_STATE], " "));
	h->tres = sq_strtab_str(t, f[F_TRES]);
	h->nodelist =
	    sq_is_none(f[F_NODES]) || strcmp(f[F_NODES], "None assigned") == 0
		? ""
		: sq_strtab_str(t, f[F_NODES]);
	if (sq_history_exit(f[F_EXIT], &ex, &sig) == -1 ||
	    sq_parse_time(f[F_SUBMIT], &h->submit) == -1 ||
	    sq_parse_time(f[F_START], &h->start) == -1 ||
	    sq_parse_time(f[F_END], &h->end) == -1 ||
	    num(f[F_ELAPSED], &el) == -1 || num(f[F_CPUS], &cpus) == -1 ||
	    req_mem(f[F_REQMEM], &mem) == -1 ||
	    num(f[F_NNODES], &nodes) == -1 ||
	    sq_history_cpu_time(f[F_TOTCPU], &h->total_cpu) == -1 ||
	    sq_history_kb(f[F_MAXRSS], &rss) == -1)
		return -1;
	h->gpus = sq_i32(sq_history_gpus(h->tres));
	h->alloc_mem = sq_i32(sq_history_tres_mem(h->tres));
	h->exit_code = sq_i32(ex);
	h->signal = sq_i32(sig);
	h->elapsed = sq_i32(el);
	h->alloc_cpus = sq_i32(cpus);
	h->req_mem = sq_i32(mem);
	h->nnodes = sq_i32(nodes);
	h->max_rss = sq_i32(rss);
	return 0;
}

static int
parse(char *text, struct sq_snapshot *s, struct sq_strtab *t,
      struct sq_err *err)
{
	struct sq_hist_build b;
	char *pos = text, *line, *f[F_COUNT];
	char delim[SQ_CLI_NONCE_LEN + 3] = "";
	int lineno = 0, n, nf = 0;
	size_t last = (size_t)-1; /* the last run row */

	sq_history_init(&b, s);
	while ((line = sq_next_line(&pos)) != NULL) {
		const char *step;
		unsigned long id;
		int terminated;

		lineno++;
		if (*line == '\0')
			continue;
		/* a '\n' (or a '\r' at the very end) became its end: the
		 * byte before pos is that NUL (pos != line + strlen(line)) */
		terminated = pos[-1] == '\0';
		if (delim[0] == '\0')
			sq_cli_delim_learn(line, delim);
		n = sq_cli_split_delim(line, delim, f, F_COUNT);
		if (nf == 0) /* the layout: with TRESUsageInMax or not */
			nf = layout(f, n, delim);
		if (nf < F_COUNT)
			n = old_layout(f, n, delim);
		id = n == F_COUNT ? raw_id(f[F_IDRAW], &step) : 0;
		/* the tail of a job name with a line break: skip; only a
		 * last line cut short (no newline) is truncated output */
		if (id == 0 && s->nrows > 0 && terminated)
			continue;
		if (n != F_COUNT) {
			sq_history_free(&b);
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sacct line %d: %d fields, expected "
					  "%d (truncated output?)",
					  lineno, n, F_COUNT);
		}
		if (id == 0) {
			sq_history_free(&b);
			return bad(err, lineno, "job id");
		}
		if (step != NULL) {
			int rc = step_line(&b, t, last, id, step, f);

			if (rc == -1)
				goto nomem;
			if (rc == -2) {
				sq_history_free(&b);
				return bad(err, lineno, "step field");
			}
		} else {
			struct sq_hist *h = sq_history_add_run(&b);

			if (h == NULL)
				goto nomem;
			last = s->nrows - 1;
			h->job_id = (uint32_t)id;
			if (run_line(h, s, t, f) == -1) {
				sq_history_free(&b);
				return bad(err, lineno, "field");
			}
		}
	}
	if (sq_history_finish(&b) == -1)
		goto nomem;
	sq_history_free(&b);
	return 0;
nomem:
	sq_history_free(&b);
	return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
}

int
sq_parse_sacct_history(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	int rc;
	struct sq_strtab t;

	/* users, accounts, names, TRES, node lists: a big site's week has
	 * tens of thousands of each */
	sq_strtab_init(&t, &s->arena, 1u << 18);
	rc = parse(text, s, &t, err);
	sq_strtab_free(&t);
	return rc;
}
