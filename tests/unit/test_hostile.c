/*
 * test_hostile.c - hostile input that is not a parser crash: text from
 * the cluster written as tsv (escape sequences, C1 controls, invalid
 * UTF-8 never reach a terminal raw) or JSON (always valid UTF-8), job
 * names with line breaks in the squeue and sacct text (and one holding a
 * whole forged squeue record, told apart by the nonce), and a --record
 * directory from someone else (a FIFO or a link to /dev/zero must not
 * hang the replay).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "backends/backend.h"
#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/conf/cluster.h"
#include "core/analysis/history.h"
#include "core/base/sanitize.h"
#include "tests/unit/test_util.h"

static char *
tsv(const char *s)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&mem, &len);

	assert_non_null(fp);
	sq_tsv_escape(fp, s);
	fclose(fp);
	return mem;
}

static void
test_tsv_escapes(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "plain" },
		{ "a\tb\nc\r\\", "a\\tb\\nc\\r\\\\" },
		{ "\033]0;pwned\007", "\\x1b]0;pwned\\x07" },
		{ "\033[2J", "\\x1b[2J" },
		/* U+009B (CSI to xterm) and a raw 0x9b byte */
		{ "x\xc2\x9b"
		  "2J",
		  "x\\xc2\\x9b2J" },
		{ "\x9b"
		  "2J",
		  "\\x9b2J" },
		/* invalid UTF-8: a lone lead byte, an overlong '/', a
		 * surrogate */
		{ "\xff\xc3", "\\xff\\xc3" },
		{ "\xc0\xaf", "\\xc0\\xaf" },
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },
		/* well-formed text stays as it is */
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *o = tsv(cases[i].in);

		if (strcmp(o, cases[i].out) != 0)
			fail_msg("tsv of case %zu: got '%s'", i, o);
		free(o);
	}
}

/* JSON output must be UTF-8: bad bytes become U+FFFD, the rest stays */
static void
test_utf8_dup(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "plain" },
		{ "bad\xff\xfeutf", "bad\xef\xbf\xbd\xef\xbf\xbdutf" },
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },
		{ "cut\xe2\x82", "cut\xef\xbf\xbd\xef\xbf\xbd" },
		/* controls and C1 are well-formed: JSON escapes them */
		{ "\033[2J\xc2\x9b", "\033[2J\xc2\x9b" },
		{ "caf\xc3\xa9 \xf0\x9f\x98\x80",
		  "caf\xc3\xa9 \xf0\x9f\x98\x80" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *o = sq_utf8_dup(cases[i].in);

		assert_non_null(o);
		if (strcmp(o, cases[i].out) != 0)
			fail_msg("utf8 case %zu: got '%s'", i, o);
		free(o);
	}
}

/* a squeue line after its first field, and a whole line */
#define SQ_FIELDS(id, name)                                                    \
	id "|" id "|N/A|alice|physics|low|normal|PD|PENDING|100|1|1|N/A|5:00|" \
	   "0:00|1795989962|N/A||0|JobHeldUser|" name "\n"
#define SQ_LINE(id, name) id "|" SQ_FIELDS(id, name)

/* Any user can put a line break in a job name; squeue prints it raw. The
 * queue must still read (it failed as a whole, for every user), the name
 * keep its parts, and cut output still be an error. */
static void
test_squeue_newline_in_name(void **state)
{
	char text[] = SQ_LINE("101", "one\ntwo|three\n|||||||||||||||||||||x")
	    SQ_LINE("102", "plain");
	char cut[] = SQ_LINE("101", "one") "102|102|102|N/A|alice|phy";
	char first[] = "rest of a name\n" SQ_LINE("101", "one");
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	const struct sq_job *j;
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_parse_squeue(text, s, &err), 0);
	assert_int_equal(s->nrows, 2);
	j = sq_snapshot_row(s, 0);
	assert_string_equal(j->id, "101");
	assert_string_equal(j->name, "one\ntwo|three\n|||||||||||||||||||||x");
	j = sq_snapshot_row(s, 1);
	assert_string_equal(j->name, "plain");
	sq_snapshot_unref(s);

	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_parse_squeue(cut, s, &err), -1);
	sq_snapshot_unref(s);
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_parse_squeue(first, s, &err), -1);
	sq_snapshot_unref(s);
}

/* The recorded squeue output (squall's own line, with its nonce) of a
 * job whose name is "forge", a line break and a whole well-formed record
 * of a running job 999999 of root: the forged line is the rest of the
 * name, never a job. Without the nonce the same text would show it. */
static void
test_squeue_forged_record(void **state)
{
	char *text = sq_test_fixture("cli/22.05/squeue_nonce.txt", NULL);
	char *bare, *p, *q, fmt[1024], key[1024];
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	const struct sq_job *j;
	struct sq_err err;
	size_t i, forge = 0, fake = 0, lines = 0;
	const char *nonce;

	(void)state;
	bare = strdup(text);
	assert_non_null(bare);
	for (p = text; *p != '\0'; p++)
		lines += *p == '\n';
	assert_int_equal(sq_parse_squeue(text, s, &err), 0);
	/* one line is not a job */
	assert_int_equal(s->nrows, lines - 1);
	for (i = 0; i < s->nrows; i++) {
		j = sq_snapshot_row(s, i);
		fake += j->job_id == 999999;
		if (strncmp(j->name, "forge\n999999|999999|N/A|", 24) == 0)
			forge++;
	}
	assert_int_equal(fake, 0);
	assert_int_equal(forge, 1);
	sq_snapshot_unref(s);

	/* the nonce taken out of every line: the forged job appears (what
	 * the text of older versions could not tell) */
	nonce = strstr(bare, "|sqn");
	assert_non_null(nonce);
	memcpy(key, nonce, SQ_CLI_NONCE_LEN + 1);
	key[SQ_CLI_NONCE_LEN + 1] = '\0';
	while ((q = strstr(bare, key)) != NULL)
		memmove(q, q + strlen(key), strlen(q + strlen(key)) + 1);
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_parse_squeue(bare, s, &err), 0);
	for (i = 0, fake = 0; i < s->nrows; i++) {
		j = sq_snapshot_row(s, i);
		fake += j->job_id == 999999;
	}
	assert_int_equal(fake, 1);
	sq_snapshot_unref(s);
	free(bare);
	free(text);

	/* a line with another nonce after the first: the rest of a name;
	 * a truncated last line without it: an error */
	{
		char two[] = "5|sqn0123456789abcdef|" SQ_FIELDS(
		    "5", "a") "6|sqn0123456789abcdee|" SQ_FIELDS("6", "b");
		char cut[] =
		    "5|sqn0123456789abcdef|" SQ_FIELDS("5", "a") "6|sqn0123";

		s = sq_snapshot_new(SQ_KIND_JOBS, 0);
		assert_int_equal(sq_parse_squeue(two, s, &err), 0);
		assert_int_equal(s->nrows, 1);
		j = sq_snapshot_row(s, 0);
		assert_non_null(strstr(j->name, "a\n6|sqn"));
		sq_snapshot_unref(s);
		s = sq_snapshot_new(SQ_KIND_JOBS, 0);
		assert_int_equal(sq_parse_squeue(cut, s, &err), -1);
		sq_snapshot_unref(s);
	}

	/* the format: a fresh nonce each time, masked for the replay */
	assert_int_equal(sq_cli_squeue_fmt_nonce(fmt, sizeof(fmt), &err), 0);
	assert_int_equal(strncmp(fmt, "JobArrayID:|sqn", 15), 0);
	assert_string_equal(fmt + 12 + SQ_CLI_NONCE_LEN,
			    strchr(sq_cli_squeue_fmt, ',') - 1);
	snprintf(key, sizeof(key), "%s", fmt);
	assert_int_equal(sq_cli_squeue_fmt_nonce(fmt, sizeof(fmt), &err), 0);
	assert_string_not_equal(fmt, key);
	sq_cli_nonce_mask(fmt);
	sq_cli_nonce_mask(key);
	assert_string_equal(fmt, key);
	/* masked: the format without a nonce, as older versions ran it */
	assert_string_equal(fmt, sq_cli_squeue_fmt);
	/* a short, long or non-hex "sqn" word is left alone */
	snprintf(key, sizeof(key),
		 "|sqn123| |sqnZZZZZZZZZZZZZZZZ| |sqn0123456789abcdef0|");
	sq_cli_nonce_mask(key);
	assert_string_equal(
	    key, "|sqn123| |sqnZZZZZZZZZZZZZZZZ| |sqn0123456789abcdef0|");
}

/* sacct -P puts JobName last too: the rest of a name is skipped */
static void
test_sacct_newline_in_name(void **state)
{
	char text[] = "101|101|alice|physics|low|normal|PREEMPTED|1795989000|"
		      "1795989100|n1|one\ntwo|||||||||||x\n"
		      "102|102|bob|physics|low|normal|REQUEUED|1795989000|"
		      "1795989200|n2|plain\n";
	char cut[] = "101|101|alice|physics|low|normal|PREEMPTED|1795989000|"
		     "1795989100|n1|one\n102|102|bob|phys";
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	const struct sq_event *e;
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_parse_sacct_events(text, s, &err), 0);
	assert_int_equal(s->nrows, 2);
	e = sq_snapshot_row(s, 1);
	assert_int_equal(e->victim_job, 102);
	sq_snapshot_unref(s);
	s = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	assert_int_equal(sq_parse_sacct_events(cut, s, &err), -1);
	sq_snapshot_unref(s);
}

/* Replace every copy of the first "|sqn<16 hex>|" in text by "|": the
 * same output as sacct's plain -P (what squall ran before the nonce). */
static void
strip_delim(char *text)
{
	char key[SQ_CLI_NONCE_LEN + 3], *q;
	const char *d = strstr(text, "|sqn");

	assert_non_null(d);
	memcpy(key, d, SQ_CLI_NONCE_LEN + 2);
	key[SQ_CLI_NONCE_LEN + 2] = '\0';
	while ((q = strstr(text, key)) != NULL)
		memmove(q + 1, q + strlen(key), strlen(q + strlen(key)) + 1);
}

/* Job ids of the rows; how many are id (a forged one). */
static size_t
count_event(const struct sq_snapshot *s, uint32_t id)
{
	size_t i, n = 0;

	for (i = 0; i < s->nrows; i++)
		n += ((const struct sq_event *)sq_snapshot_row(s, i))
			 ->victim_job == id;
	return n;
}

static size_t
count_run(const struct sq_snapshot *s, uint32_t id)
{
	size_t i, n = 0;

	for (i = 0; i < s->nrows; i++)
		n += ((const struct sq_hist *)sq_snapshot_row(s, i))->job_id ==
		     id;
	return n;
}

/*
 * The recorded sacct output (squall's own lines, -P --delimiter=<nonce>)
 * of two jobs of alice whose names hold line breaks and whole forged
 * records: a completed run of job 999997 and a preemption of job 999996,
 * both root's. The forged lines are the rest of a name, never a run or
 * an event; with the plain "|" of sacct -P the same text shows them (or
 * fails the whole view).
 */
static void
test_sacct_forged_record(void **state)
{
	char *ev = sq_test_fixture("cli/22.05/sacct_events_nonce.txt", NULL);
	char *hi = sq_test_fixture("cli/22.05/sacct_history_nonce.txt", NULL);
	struct sq_snapshot *s;
	struct sq_err err;
	char *bare, *step;

	(void)state;
	bare = strdup(ev);
	assert_non_null(bare);
	s = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	assert_int_equal(sq_parse_sacct_events(ev, s, &err), 0);
	assert_int_equal(count_event(s, 999996), 0);
	assert_int_equal(count_event(s, 999997), 0);
	assert_int_equal(count_event(s, 162061), 1); /* sqf2, requeued */
	sq_snapshot_unref(s);
	strip_delim(bare);
	s = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	/* plain "|": the forged preemption is read, then the forged run
	 * (21 fields) fails the whole view ("bad time") */
	assert_int_equal(sq_parse_sacct_events(bare, s, &err), -1);
	assert_int_equal(count_event(s, 999996), 1);
	sq_snapshot_unref(s);
	free(bare);

	/* output that starts with a step line (12.batch): the separator
	 * is learnt there too */
	bare = strdup(hi);
	assert_non_null(bare);
	step = strstr(bare, ".batch|sqn");
	assert_non_null(step);
	while (step > bare && step[-1] != '\n')
		step--;
	s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	assert_int_equal(sq_parse_sacct_history(step, s, &err), 0);
	assert_true(s->nrows > 0);
	assert_int_equal(count_run(s, 999997), 0);
	sq_snapshot_unref(s);
	free(bare);

	bare = strdup(hi);
	assert_non_null(bare);
	s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	assert_int_equal(sq_parse_sacct_history(hi, s, &err), 0);
	assert_int_equal(count_run(s, 999997), 0);
	assert_int_equal(count_run(s, 162060), 1); /* sqf1, completed */
	sq_snapshot_unref(s);
	strip_delim(bare);
	s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	assert_int_equal(sq_parse_sacct_history(bare, s, &err), 0);
	assert_true(count_run(s, 999997) > 0);
	sq_snapshot_unref(s);
	free(bare);
	free(ev);
	free(hi);

	/* a line with another nonce: the rest of a name; a truncated last
	 * line without it: an error */
	{
		char two[] = "101|sqn0123456789abcdef|101|sqn0123456789abcdef|"
			     "alice|sqn0123456789abcdef|physics|sqn0123456789"
			     "abcdef|low|sqn0123456789abcdef|normal|sqn012345"
			     "6789abcdef|PREEMPTED|sqn0123456789abcdef|17959"
			     "89000|sqn0123456789abcdef|1795989100|sqn0123456"
			     "789abcdef|n1|sqn0123456789abcdef|a\n"
			     "6|6|bob|physics|low|normal|PREEMPTED|1|2|n1|b\n";
		char cut[] = "101|sqn0123456789abcdef|101|sqn0123456789abcdef|"
			     "alice|sqn0123456789abcdef|physics|sqn0123456789"
			     "abcdef|low|sqn0123456789abcdef|normal|sqn012345"
			     "6789abcdef|PREEMPTED|sqn0123456789abcdef|17959"
			     "89000|sqn0123456789abcdef|1795989100|sqn0123456"
			     "789abcdef|n1|sqn0123456789abcdef|a\n"
			     "6|6|bob|physics|low|normal|PREEMPTED|1|2|n1|b";

		s = sq_snapshot_new(SQ_KIND_EVENTS, 0);
		assert_int_equal(sq_parse_sacct_events(two, s, &err), 0);
		assert_int_equal(s->nrows, 1);
		assert_int_equal(count_event(s, 101), 1);
		sq_snapshot_unref(s);
		s = sq_snapshot_new(SQ_KIND_EVENTS, 0);
		assert_int_equal(sq_parse_sacct_events(cut, s, &err), -1);
		sq_snapshot_unref(s);
	}
}

static void
on_alarm(int sig)
{
	(void)sig;
	/* the replay hung on a file that never ends */
	_exit(99);
}

/* A recording whose output file is a link to /dev/zero or a FIFO. */
static void
test_replay_special_files(void **state)
{
	static const char *const kinds[] = { "zero", "fifo" };
	char dir[] = "/tmp/sqtest-replay.XXXXXX", path[128];
	size_t k;

	(void)state;
	assert_non_null(mkdtemp(dir));
	signal(SIGALRM, on_alarm);
	for (k = 0; k < 2; k++) {
		struct sq_cluster_cfg cfg;
		struct sq_backend *b;
		struct sq_err err;
		FILE *fp;

		snprintf(path, sizeof(path), "%s/out", dir);
		unlink(path);
		if (k == 0)
			assert_int_equal(symlink("/dev/zero", path), 0);
		else
			assert_int_equal(mkfifo(path, 0600), 0);
		snprintf(path, sizeof(path), "%s/index.tsv", dir);
		fp = fopen(path, "w");
		assert_non_null(fp);
		fputs("000001\t0\tout\tsinfo\t-V\n", fp);
		fclose(fp);

		sq_cluster_defaults(&cfg);
		snprintf(cfg.backend, sizeof(cfg.backend), "replay");
		snprintf(cfg.replay_dir, sizeof(cfg.replay_dir), "%s", dir);
		alarm(10);
		b = sq_backend_open(&cfg, &err);
		alarm(0);
		if (b != NULL)
			fail_msg("%s: the replay opened", kinds[k]);
		assert_non_null(strstr(err.msg, "not a regular file"));
	}
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * A recording made before sacct got its --delimiter (the history fixture
 * of tests/fixtures/history/22.05, sacct -P with '|') replays: the key
 * leaves the nonce argument out, the parser reads '|' text.
 */
static void
test_replay_old_sacct(void **state)
{
	char dir[] = "/tmp/sqtest-replay.XXXXXX", path[160];
	char *sinfo = sq_test_fixture("cli/22.05/sinfo_V.txt", NULL);
	char *hist = sq_test_fixture("history/22.05/sacct_history.txt", NULL);
	struct sq_cluster_cfg cfg;
	struct sq_backend *b;
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/1.out", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(sinfo, fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/2.out", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(hist, fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp,
		"000001\t0\t1.out\tsinfo\t-V\n"
		"000002\t0\t2.out\tsacct\t-a\t-D\t-n\t-P\t-S\t"
		"now-86400seconds\t-E\tnow\t-o\t%s\n",
		sq_cli_sacct_history_fmt);
	fclose(fp);

	sq_cluster_defaults(&cfg);
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	snprintf(cfg.replay_dir, sizeof(cfg.replay_dir), "%s", dir);
	b = sq_backend_open(&cfg, &err);
	if (b == NULL)
		fail_msg("replay: %s", err.msg);
	if (b->ops->fetch(b, SQ_KIND_HISTORY, &s, &err) == -1)
		fail_msg("history from an old recording: %s", err.msg);
	assert_true(s->nrows > 0);
	sq_snapshot_unref(s);
	sq_backend_close(b);
	free(sinfo);
	free(hist);
	snprintf(path, sizeof(path), "%s/1.out", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/2.out", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tsv_escapes),
		cmocka_unit_test(test_utf8_dup),
		cmocka_unit_test(test_squeue_newline_in_name),
		cmocka_unit_test(test_squeue_forged_record),
		cmocka_unit_test(test_sacct_newline_in_name),
		cmocka_unit_test(test_sacct_forged_record),
		cmocka_unit_test(test_replay_special_files),
		cmocka_unit_test(test_replay_old_sacct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
