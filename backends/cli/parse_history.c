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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/analysis/history.h"
#include "core/base/parse.h"
#include "core/base/strtab.h"
#include "core/base/util.h"

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
old_layout(char **f, size_t *fl, int n, const char *delim)
{
	if (n == F_COUNT) { /* a name holding the delimiter ('|' text) */
		size_t dl = strlen(delim);

		if (dl == 0)
			f[F_NAME][-1] = '|';
		else
			memcpy(f[F_NAME] - dl, delim, dl);
		fl[F_USAGE] += (dl ? dl : 1) + fl[F_NAME];
		n--;
	}
	if (n != F_COUNT - 1)
		return n;
	f[F_NAME] = f[F_USAGE];
	fl[F_NAME] = fl[F_USAGE];
	f[F_USAGE] = "";
	fl[F_USAGE] = 0;
	return F_COUNT;
}

/* A line's fields, their lengths (sq_cli_split_len); the string each
 * field gave last (a step's node list is its run's, a line before). */
struct fields {
	char *f[F_COUNT];
	size_t fl[F_COUNT];
	const char *last[F_COUNT];
	size_t lastn[F_COUNT];
};

/*
 * The string tables of a parse: one per kind of field, each small enough
 * to stay in the cache (a week's few thousand users and hundreds of
 * accounts were probed in one table with its tens of thousands of node
 * lists: a cache miss a field).
 */
enum { T_MISC, T_USER, T_FEW, T_NODES, T_COUNT };

static const unsigned char tab_of[F_COUNT] = {
	[F_USER] = T_USER, [F_ACCOUNT] = T_FEW, [F_PART] = T_FEW,
	[F_QOS] = T_FEW,   [F_STATE] = T_FEW,   [F_NODES] = T_NODES,
};

/* Field i interned (its length known from the split). */
static const char *
intern(struct sq_strtab *t, struct fields *x, int i)
{
	const char *r;

	if (x->last[i] != NULL && x->lastn[i] == x->fl[i] &&
	    memcmp(x->last[i], x->f[i], x->fl[i]) == 0)
		return x->last[i];
	r = sq_strtab_get(&t[tab_of[i]], x->f[i], x->fl[i]);
	if (r[0] != '\0') { /* not "" of a failed copy */
		x->last[i] = r;
		x->lastn[i] = x->fl[i];
	}
	return r;
}

/* A state as sacct prints it, "CANCELLED by 1234" cut at the space. */
static const char *
state(struct sq_strtab *t, const struct fields *x)
{
	const char *sp = memchr(x->f[F_STATE], ' ', x->fl[F_STATE]);

	return sq_strtab_get(&t[T_FEW], x->f[F_STATE],
			     sp ? (size_t)(sp - x->f[F_STATE])
				: x->fl[F_STATE]);
}

/*
 * The GPUs and memory of an AllocTRES string, remembered by its shared
 * copy (a week's million runs have a few thousand distinct ones): the
 * TRES parse was a tenth of a big history's. A string the table did not
 * keep (a plain copy) is only missed, never mistaken: the arena never
 * frees or reuses a string during the parse.
 */
#define TRES_MEMO 1024
struct tres_memo {
	const char *k[TRES_MEMO];
	int32_t gpus[TRES_MEMO], mem[TRES_MEMO];
};

static void
tres_of(struct tres_memo *m, struct sq_hist *h)
{
	size_t i = ((uintptr_t)h->tres >> 3) & (TRES_MEMO - 1);

	if (m->k[i] != h->tres) {
		m->k[i] = h->tres;
		m->gpus[i] = sq_i32(sq_history_gpus(h->tres));
		m->mem[i] = sq_i32(sq_history_tres_mem(h->tres));
	}
	h->gpus = m->gpus[i];
	h->alloc_mem = m->mem[i];
}

/*
 * A step line ("12.batch") to its run: the last job line of this id
 * (sacct prints the steps right after their run; a few lines back at
 * most). 0 done or skipped (its job line is outside the output), -1 out
 * of memory, -2 a bad field.
 */
static int
step_line(struct sq_hist_build *b, struct sq_strtab *t, size_t last,
	  unsigned long id, const char *step, struct fields *x)
{
	char *const *f = x->f;
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
	st->step = sq_strtab_get(&t[T_MISC], step,
				 x->fl[F_IDRAW] - (size_t)(step - f[F_IDRAW]));
	st->name = intern(t, x, F_NAME);
	st->state = state(t, x);
	st->nodelist = sq_is_none(f[F_NODES]) ? "" : intern(t, x, F_NODES);
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
	 struct fields *x, struct tres_memo *tm)
{
	char *const *f = x->f;
	int64_t ex, sig, el, cpus, mem, nodes, rss;

	h->id = sq_snapshot_strn(s, f[F_ID], x->fl[F_ID]);
	h->user = intern(t, x, F_USER);
	h->account = intern(t, x, F_ACCOUNT);
	h->partition = intern(t, x, F_PART);
	h->qos = intern(t, x, F_QOS);
	h->name = intern(t, x, F_NAME);
	h->state = state(t, x);
	h->tres = intern(t, x, F_TRES);
	h->nodelist =
	    sq_is_none(f[F_NODES]) || strcmp(f[F_NODES], "None assigned") == 0
		? ""
		: intern(t, x, F_NODES);
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
	tres_of(tm, h);
	h->exit_code = sq_i32(ex);
	h->signal = sq_i32(sig);
	h->elapsed = sq_i32(el);
	h->alloc_cpus = sq_i32(cpus);
	h->req_mem = sq_i32(mem);
	h->nnodes = sq_i32(nodes);
	h->max_rss = sq_i32(rss);
	return 0;
}

/*
 * A part of the text one thread parses: [text, its NUL) into its own
 * snapshot, build and string tables (a big answer is cut in two at a
 * run line, sq_parse_sacct_history_cut). Why it stopped: rc 0, -1 out of
 * memory, -2 at line bad_line (bad_what, or NULL: bad_n fields).
 */
struct hpart {
	char *text;
	int cut; /* the text ended at a '\n' the cut made a NUL */
	struct sq_snapshot *s;
	struct sq_hist_build b;
	struct sq_strtab t[T_COUNT];
	struct tres_memo tm;
	char delim[SQ_CLI_NONCE_LEN + 3];
	int nf;    /* the layout (F_COUNT or F_COUNT - 1), 0 from line 1 */
	int lines; /* lines read */
	int rc, bad_line, bad_n;
	const char *bad_what;
	pthread_t th;
};

static int
stop_at(struct hpart *p, int lineno, const char *what, int n)
{
	p->bad_line = lineno;
	p->bad_what = what;
	p->bad_n = n;
	return p->rc = -2;
}

static int
lines_of(struct hpart *p)
{
	struct fields x = { 0 };
	struct sq_snapshot *s = p->s;
	char *pos = p->text, *line, **f = x.f;
	int lineno = 0, n;
	size_t last = (size_t)-1; /* the last run row */

	while ((line = sq_next_line(&pos)) != NULL) {
		const char *step;
		unsigned long id;
		int terminated;
		size_t len;

		p->lines = ++lineno;
		if (*line == '\0')
			continue;
		/* a '\n' (or a '\r' at the very end) became its end: the
		 * byte before pos is that NUL (pos != line + strlen(line));
		 * or the cut made the part's last '\n' its end */
		terminated = pos[-1] == '\0' || (p->cut && *pos == '\0');
		/* the line's length without a pass: up to pos, less its
		 * newline and a '\r' made a NUL before it */
		len = (size_t)(pos - line) - (size_t)(pos[-1] == '\0');
		if (len > 0 && line[len - 1] == '\0')
			len--;
		if (p->delim[0] == '\0')
			sq_cli_delim_learn(line, p->delim);
		n = sq_cli_split_len(line, len, p->delim, f, x.fl, F_COUNT);
		if (p->nf == 0) /* the layout: with TRESUsageInMax or not */
			p->nf = layout(f, n, p->delim);
		if (p->nf < F_COUNT)
			n = old_layout(f, x.fl, n, p->delim);
		id = n == F_COUNT ? raw_id(f[F_IDRAW], &step) : 0;
		/* the tail of a job name with a line break: skip; only a
		 * last line cut short (no newline) is truncated output */
		if (id == 0 && s->nrows > 0 && terminated)
			continue;
		if (n == F_COUNT) /* the node lists' table is big: its slot
				   * comes while the other fields are read */
			sq_strtab_prefetch(&p->t[T_NODES], f[F_NODES],
					   x.fl[F_NODES]);
		if (n != F_COUNT)
			return stop_at(p, lineno, NULL, n);
		if (id == 0)
			return stop_at(p, lineno, "job id", 0);
		if (step != NULL) {
			int rc = step_line(&p->b, p->t, last, id, step, &x);

			if (rc == -1)
				return p->rc = -1;
			if (rc == -2)
				return stop_at(p, lineno, "step field", 0);
		} else {
			struct sq_hist *h = sq_history_add_run(&p->b);

			if (h == NULL)
				return p->rc = -1;
			last = s->nrows - 1;
			h->job_id = (uint32_t)id;
			if (run_line(h, s, p->t, &x, &p->tm) == -1)
				return stop_at(p, lineno, "field", 0);
		}
	}
	/* its runs' steps attached, their efficiency and GPU use */
	return p->rc = sq_history_finish_runs(&p->b);
}

static void *
lines_main(void *arg)
{
	lines_of(arg);
	return NULL;
}

/* A part's tables on its snapshot: users, accounts, names, TRES, node
 * lists (a big site's week has tens of thousands of each). */
static void
part_init(struct hpart *p, char *text, struct sq_snapshot *s)
{
	int i;

	p->text = text;
	p->s = s;
	sq_history_init(&p->b, s);
	for (i = 0; i < T_COUNT; i++)
		sq_strtab_init(&p->t[i], &s->arena, 1u << 18);
}

static void
part_free(struct hpart *p)
{
	int i;

	for (i = 0; i < T_COUNT; i++)
		sq_strtab_free(&p->t[i]);
	sq_history_free(&p->b);
}

/* Why part p (its first line base + 1 of the text) stopped, into err. */
static int
part_err(const struct hpart *p, int base, struct sq_err *err)
{
	if (p->rc == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	if (p->bad_what == NULL)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "sacct line %d: %d fields, expected %d "
				  "(truncated output?)",
				  base + p->bad_line, p->bad_n, F_COUNT);
	return bad(err, base + p->bad_line, p->bad_what);
}

/*
 * Where a text of len bytes is cut in two: the start of the first run
 * line ("<id><delim>", not a step's "<id>.<step>") after its middle.
 * Only with a nonce delimiter (learnt from line 1 into delim, with the
 * layout into *nf), which no job name holds, so a line that starts so is
 * a run's and never a name's tail; NULL for '|' text or no such line.
 */
static char *
cut_at(char *text, size_t len, char *delim, int *nf)
{
	const char *line = text + strspn(text, "\n"), *nl = strchr(line, '\n');
	struct fields x;
	char *first, *p;
	size_t dl;

	/* line 1 as the parse learns it: the first that is not empty */
	if (nl == NULL || (first = strndup(line, (size_t)(nl - line))) == NULL)
		return NULL;
	if (!sq_cli_delim_learn(first, delim)) {
		free(first);
		return NULL;
	}
	*nf = layout(x.f,
		     sq_cli_split_len(first, (size_t)(nl - line), delim, x.f,
				      x.fl, F_COUNT),
		     delim);
	free(first);
	dl = strlen(delim);
	for (p = memchr(text + len / 2, '\n', len - len / 2); p != NULL;
	     p = memchr(p + 1, '\n', len - (size_t)(p + 1 - text))) {
		char *q = p + 1;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q > p + 1 && strncmp(q, delim, dl) == 0)
			return p + 1;
	}
	return NULL;
}

int
sq_parse_sacct_history_cut(char *text, size_t min, struct sq_snapshot *s,
			   struct sq_err *err)
{
	struct hpart *p = calloc(2, sizeof(*p));
	size_t len = strlen(text);
	char *cut = NULL;
	int rc, two = 0;

	if (p == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	part_init(&p[0], text, s);
	if (len >= min && len > 0)
		cut = cut_at(text, len, p[1].delim, &p[1].nf);
	if (cut != NULL && (p[1].s = sq_snapshot_new(s->kind, 0)) != NULL) {
		cut[-1] = '\0'; /* the first part's end: its last '\n' */
		p[0].cut = 1;
		part_init(&p[1], cut, p[1].s);
		/* the second part has no line 1 to learn them from; the
		 * first learns them from its own */
		two = sq_util_thread_start(&p[1].th, lines_main, &p[1]) == 0;
		if (!two) { /* parsed here after the first */
			cut[-1] = '\n';
			p[0].cut = 0;
			part_free(&p[1]);
			sq_snapshot_unref(p[1].s);
		}
	}
	lines_of(&p[0]);
	if (two)
		pthread_join(p[1].th, NULL);
	if (p[0].rc != 0)
		rc = part_err(&p[0], 0, err);
	else if (two && p[1].rc != 0)
		rc = part_err(&p[1], p[0].lines, err);
	else if (two && sq_snapshot_append(s, p[1].s) == -1)
		rc = sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	else if (sq_history_finish_jobs(s) == -1)
		rc = sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	else
		rc = two ? 2 : 1;
	if (two) {
		part_free(&p[1]);
		sq_snapshot_unref(p[1].s);
	}
	part_free(&p[0]);
	free(p);
	return rc;
}

/* Answers of 16 MiB and more (a big site's week of runs) are parsed in
 * two parts at once. */
int
sq_parse_sacct_history(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	return sq_parse_sacct_history_cut(text, (size_t)16 << 20, s, err) < 0
		   ? -1
		   : 0;
}
