/*
 * test_history_cut.c - a big sacct answer parsed in two parts at once
 * (backends/cli/parse_history.c, sq_parse_sacct_history_cut) gives the
 * very rows one parse gives: runs, steps, run numbers across the cut,
 * the summaries (the node rows on their own thread against none), a job
 * name's line break at the cut, and errors at the line one parse names.
 * Texts: the recorded 22.05, 24.11 and 26.05 answers (tests/fixtures,
 * squall's nonce delimiter), and the 22.05 one copied into hundreds of
 * jobs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/analysis/history.h"
#include "tests/unit/test_util.h"

static void
num(FILE *f, double v)
{
	if (isnan(v))
		fputs(" nan", f);
	else
		fprintf(f, " %.9g", v);
}

/* Every field of row h, as text. */
static void
put_row(FILE *f, const struct sq_hist *h)
{
	uint32_t i;

	fprintf(f, "%d %u %s %s %s %s %s %s %s %d %d %d %d %d %d %d %u",
		(int)h->scope, h->job_id, h->id, h->user, h->account,
		h->partition, h->qos, h->name, h->state, h->run, h->exit_code,
		h->signal, h->elapsed, h->alloc_cpus, h->gpus, h->gpu_idle,
		h->nsteps);
	num(f, h->total_cpu);
	num(f, h->cpu_eff);
	num(f, h->mem_eff);
	if (h->scope == SQ_HIST_RUN) {
		fprintf(f, " %lld %lld %lld %s %s", (long long)h->submit,
			(long long)h->start, (long long)h->end, h->nodelist,
			h->tres);
		num(f, h->gpu_util_max);
		fprintf(f, " %lld %s %d %d %d %d", (long long)h->gpu_mem_max,
			h->gpu_note, h->req_mem, h->alloc_mem, h->max_rss,
			h->nnodes);
		for (i = 0; i < h->nsteps; i++) {
			const struct sq_hist_step *st = &h->steps[i];

			fprintf(
			    f, "\n  step %s %s %s %s %d %d %d %d %d %d %d %lld",
			    st->step, st->name, st->state, st->nodelist,
			    st->exit_code, st->signal, st->elapsed, st->nodes,
			    st->tasks, st->max_rss, st->gpu_util,
			    (long long)st->gpu_mem);
			num(f, st->total_cpu);
		}
	} else {
		fprintf(f, " %s %d %d %d %d %d %d %d %d %d %d %d", h->node,
			h->runs, h->completed, h->failed, h->timeout, h->oom,
			h->cancelled, h->preempted, h->node_fail, h->requeued,
			h->active, h->other);
		num(f, h->cpu_hours);
		num(f, h->gpu_hours);
		num(f, h->gpu_idle_hours);
		fprintf(f, " %lld", (long long)h->last_failure);
	}
	fputc('\n', f);
}

/* The parse of a copy of text with min (the parts it read into *parts),
 * as text of every row; NULL when it failed (its message in msg). */
static char *
parsed(const char *text, size_t min, int *parts, char *msg, size_t msgn)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	char *t = strdup(text), *out = NULL;
	size_t n = 0, i;
	struct sq_err err;
	FILE *f;

	assert_non_null(s);
	assert_non_null(t);
	sq_err_clear(&err);
	*parts = sq_parse_sacct_history_cut(t, min, s, &err);
	free(t);
	snprintf(msg, msgn, "%s", err.msg);
	if (*parts < 0) {
		sq_snapshot_unref(s);
		return NULL;
	}
	f = open_memstream(&out, &n);
	assert_non_null(f);
	for (i = 0; i < s->nrows; i++)
		put_row(f, sq_snapshot_row(s, i));
	fclose(f);
	sq_snapshot_unref(s);
	return out;
}

/* The first line where a and b differ, as a failure. */
static void
same_rows(const char *a, const char *b, const char *what)
{
	size_t line = 1, i;

	if (strcmp(a, b) == 0)
		return;
	for (i = 0; a[i] == b[i]; i++)
		line += a[i] == '\n';
	fail_msg("%s: rows differ at line %zu:\none part:  %.200s\ntwo parts: "
		 "%.200s",
		 what, line, a + (i - (i > 80 ? 80 : i)),
		 b + (i - (i > 80 ? 80 : i)));
}

/* text parsed once and in two parts: the same rows; two parts read. */
static void
both(const char *text, const char *what, int want_two)
{
	char m1[sizeof(((struct sq_err *)0)->msg)], m2[sizeof(m1)];
	int p1, p2;
	char *one, *two;

	/* one part, the summaries on this thread; two parts, the node
	 * rows on their own */
	sq_history_summarise_thread_min(SIZE_MAX);
	one = parsed(text, SIZE_MAX, &p1, m1, sizeof(m1));
	sq_history_summarise_thread_min(0);
	two = parsed(text, 0, &p2, m2, sizeof(m2));

	if (one == NULL || two == NULL)
		fail_msg("%s: %s / %s", what, m1, m2);
	assert_int_equal(p1, 1);
	if (p2 != (want_two ? 2 : 1))
		fail_msg("%s: %d parts, expected %d", what, p2,
			 want_two ? 2 : 1);
	same_rows(one, two, what);
	assert_true(strlen(one) > 100);
	free(one);
	free(two);
}

static void
test_recorded(void **state)
{
	static const char *const rec[] = {
		"cli/22.05/sacct_history_nonce.txt",
		"history/24.11/gpu/squall-history/000002-sacct.out",
		"history/26.05/gpu/squall-history/000002-sacct.out",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rec) / sizeof(*rec); i++) {
		char *t = sq_test_fixture(rec[i], NULL);

		both(t, rec[i], 1);
		free(t);
	}
}

/* The 22.05 recording's lines copied n times, job ids (the digits that
 * begin JobIDRaw and JobID) moved by 100000 a copy; copies k and k + n/2
 * share their ids, so every job has a run before the middle and one
 * after (a requeued job's runs on both sides of the cut). */
static char *
copies(int n, char *delim)
{
	char *rec = sq_test_fixture("cli/22.05/sacct_history_nonce.txt", NULL);
	char *out = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int c;

	assert_non_null(f);
	assert_int_equal(sq_cli_delim_learn(rec, delim), 1);
	for (c = 0; c < n; c++) {
		char *r = strdup(rec);

		assert_non_null(r);
		for (line = strtok_r(r, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save)) {
			char *d1 = strstr(line, delim), *d2, *e1, *e2;

			if (d1 == NULL) { /* a name's tail: as it was */
				fprintf(f, "%s\n", line);
				continue;
			}
			d2 = d1 + strlen(delim);
			e1 = line + strspn(line, "0123456789");
			e2 = d2 + strspn(d2, "0123456789");
			fprintf(
			    f, "%ld%.*s%ld%s\n",
			    strtol(line, NULL, 10) + 100000L * (c % (n / 2)),
			    (int)(d2 - e1), e1,
			    strtol(d2, NULL, 10) + 100000L * (c % (n / 2)), e2);
		}
		free(r);
	}
	fclose(f);
	free(rec);
	return out;
}

/* The first run line ("<digits><delim>") that begins after from. */
static char *
run_after(char *from, const char *delim)
{
	char *p;

	for (p = strchr(from, '\n'); p != NULL; p = strchr(p + 1, '\n')) {
		char *q = p + 1;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q > p + 1 && strncmp(q, delim, strlen(delim)) == 0)
			return p + 1;
	}
	return NULL;
}

/* Where the two-part parse cuts text: the first run line after the
 * middle (the rule of parse_history.c's cut_at). */
static char *
cut_of(char *text, const char *delim)
{
	return run_after(text + strlen(text) / 2, delim);
}

static void
test_copies(void **state)
{
	char delim[SQ_CLI_NONCE_LEN + 3];
	char *t = copies(300, delim), *p;

	(void)state;
	both(t, "300 copies", 1);
	/* an empty line first: line 1 is the first that is not empty */
	p = malloc(strlen(t) + 3);
	assert_non_null(p);
	strcpy(p, "\n\n");
	strcat(p, t);
	both(p, "300 copies after empty lines", 1);
	free(p);
	/* '|' text (no nonce): a name may hold the delimiter, no cut */
	{
		size_t dl = strlen(delim), w = 0, r = 0;

		while (t[r] != '\0') {
			if (strncmp(t + r, delim, dl) == 0) {
				t[w++] = '|';
				r += dl;
			} else {
				t[w++] = t[r++];
			}
		}
		t[w] = '\0';
		p = strstr(t, delim);
		assert_null(p);
	}
	both(t, "300 copies, '|'", 0);
	free(t);
}

/* A job name with a line break on the last line before the cut: its
 * tail is the first part's last line, which the cut ended. */
static void
test_name_at_the_cut(void **state)
{
	char delim[SQ_CLI_NONCE_LEN + 3];
	char *t = copies(120, delim), *cut = cut_of(t, delim), *name;

	(void)state;
	assert_non_null(cut);
	/* the line before the cut: its last field (JobName) */
	cut[-1] = '\0';
	name = strrchr(t, '\n');
	assert_non_null(name);
	name = strstr(name, delim);
	while (name != NULL && strstr(name + 1, delim) != NULL)
		name = strstr(name + 1, delim);
	assert_non_null(name);
	name += strlen(delim);
	cut[-1] = '\n';
	assert_true(cut - name >= 3);
	/* "fill-a2" -> "fi\n-a2": the tail "-a2" alone before the cut */
	name[2] = '\n';
	assert_ptr_equal(cut_of(t, delim), cut);
	both(t, "a name's tail before the cut", 1);
	free(t);
}

/* A bad field on line k: both parses say the same line. */
static void
test_errors(void **state)
{
	char delim[SQ_CLI_NONCE_LEN + 3];
	char *t = copies(100, delim), *cut = cut_of(t, delim);
	const char *where[2];
	int w;

	(void)state;
	assert_non_null(cut);
	where[0] = run_after(t + 1000, delim);   /* a run line of part 1 */
	where[1] = run_after(cut + 1000, delim); /* one of part 2 */
	assert_non_null(where[0]);
	assert_non_null(where[1]);
	for (w = 0; w < 2; w++) {
		char *u = strdup(t), *line = u + (where[w] - t), *f = line;
		char m1[sizeof(((struct sq_err *)0)->msg)], m2[sizeof(m1)];
		int p1, p2, k;
		char *r1, *r2;

		assert_non_null(u);
		/* field 12 (ElapsedRaw): its first digit made a letter */
		for (k = 0; k < 11; k++)
			f = strstr(f, delim) + strlen(delim);
		assert_true(*f >= '0' && *f <= '9');
		*f = 'x';
		r1 = parsed(u, SIZE_MAX, &p1, m1, sizeof(m1));
		r2 = parsed(u, 0, &p2, m2, sizeof(m2));
		assert_null(r1);
		assert_null(r2);
		assert_int_equal(p1, -1);
		assert_int_equal(p2, -1);
		assert_non_null(strstr(m1, "bad field"));
		assert_string_equal(m1, m2);
		free(u);
	}
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_copies),
		cmocka_unit_test(test_name_at_the_cut),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
