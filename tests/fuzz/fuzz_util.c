/*
 * fuzz_util.c - helpers shared by the libFuzzer harnesses (see fuzz.h).
 * Linked into every harness; it has no LLVMFuzzerTestOneInput of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/buf.h"
#include "core/analysis/history.h"
#include "core/base/sanitize.h"
#include "core/base/validate.h"
#include "core/model/view.h"
#include "tests/fuzz/fuzz.h"

void
sq_fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", what, file,
		line);
	abort();
}

void
sq_fuzz_tmpdir(char *dir, size_t n, const char *tag)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	int len = snprintf(dir, n, "%s/sqfuzz-%s.XXXXXX", base, tag);

	SQ_FUZZ_CHECK(len > 0 && (size_t)len < n);
	SQ_FUZZ_CHECK(mkdtemp(dir) != NULL);
}

char *
sq_fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

char *
sq_fuzz_fixture(const char *rel, size_t *len)
{
	const char *root = getenv("SQ_FIXTURES");
	char path[1024];
	FILE *fp;
	char *data;
	long n;

	snprintf(path, sizeof(path), "%s/%s", root ? root : "tests/fixtures",
		 rel);
	fp = fopen(path, "rb");
	if (fp == NULL) {
		fprintf(stderr, "fuzz: cannot open fixture %s\n", path);
		abort();
	}
	if (fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET) != 0)
		abort();
	data = malloc((size_t)n + 1);
	if (data == NULL || fread(data, 1, (size_t)n, fp) != (size_t)n)
		abort();
	data[n] = '\0';
	fclose(fp);
	if (len != NULL)
		*len = (size_t)n;
	return data;
}

struct sq_snapshot *
sq_fuzz_parse_fixture(enum sq_kind kind, sq_fuzz_parse_fn parse,
		      const char *rel)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	char *text = sq_fuzz_fixture(rel, NULL);
	struct sq_err err;

	if (s == NULL || parse(text, s, &err) != 0) {
		fprintf(stderr, "fuzz: fixture %s does not parse\n", rel);
		abort();
	}
	free(text);
	return s;
}

/* Is s well-formed UTF-8 without C0, DEL or C1 controls? */
static int
clean_utf8(const unsigned char *s)
{
	while (*s != '\0') {
		unsigned cp;
		size_t n, i;

		if (*s < 0x80) {
			if (*s < 0x20 || *s == 0x7f)
				return 0;
			s++;
			continue;
		}
		if ((*s & 0xe0) == 0xc0) {
			n = 2;
			cp = *s & 0x1f;
		} else if ((*s & 0xf0) == 0xe0) {
			n = 3;
			cp = *s & 0x0f;
		} else if ((*s & 0xf8) == 0xf0) {
			n = 4;
			cp = *s & 0x07;
		} else {
			return 0;
		}
		for (i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i] & 0x3f);
		}
		if (cp < 0xa0 || (cp >= 0xd800 && cp <= 0xdfff) ||
		    cp > 0x10ffff || (n == 3 && cp < 0x800) ||
		    (n == 4 && cp < 0x10000))
			return 0;
		s += n;
	}
	return 1;
}

void
sq_fuzz_check_display(const char *s)
{
	char safe[512];

	if (s == NULL)
		return;
	sq_sanitize(s, safe, sizeof(safe));
	SQ_FUZZ_CHECK(clean_utf8((const unsigned char *)safe));
	SQ_FUZZ_CHECK(sq_display_width(safe) <= strlen(safe));
}

void
sq_fuzz_render(const struct sq_snapshot *s)
{
	size_t v, c, r;

	for (v = 0; sq_views[v] != NULL; v++) {
		const struct sq_view_def *def = sq_views[v];

		if (def->kind != s->kind)
			continue;
		for (r = 0; r < s->nrows; r++) {
			const void *rec = sq_snapshot_row(s, r);

			for (c = 0; c < def->ncols; c++) {
				const struct sq_column *col = &def->cols[c];
				char buf[256];
				long long num;

				buf[0] = '\0';
				if (col->text != NULL) {
					const char *t =
					    col->text(rec, buf, sizeof(buf));

					sq_fuzz_check_display(t);
				}
				if (col->num != NULL)
					(void)col->num(rec, &num);
			}
		}
	}
}

/* Outside single quotes, a joined line holds only these. */
static int
plain(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == ' ' || c == '-' || c == '_' ||
	       c == '=' || c == '%';
}

/* A line for /bin/sh: every byte outside '...' is plain, every quote is
 * closed, and nothing inside is a control byte or one csh/fish see. */
void
sq_fuzz_check_sh_line(const char *s)
{
	int in = 0;

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'') {
			in = !in;
			continue;
		}
		SQ_FUZZ_CHECK(c >= 0x20 && c != 0x7f);
		if (in)
			SQ_FUZZ_CHECK(c != '!' && c != '\\');
		else
			SQ_FUZZ_CHECK(plain((char)c));
	}
	SQ_FUZZ_CHECK(!in);
}

void
sq_fuzz_check_argv(const char *const *argv)
{
	struct sq_buf b;
	size_t i;

	for (i = 0; argv[i] != NULL; i++) {
		const unsigned char *p = (const unsigned char *)argv[i];

		for (; *p != '\0'; p++)
			SQ_FUZZ_CHECK(*p >= 0x20 && *p != 0x7f);
	}
	sq_buf_init(&b, 0);
	if (sq_shell_join(&b, "/usr/bin", argv) != 0) {
		for (i = 0; argv[i] != NULL; i++)
			fprintf(stderr, "argv[%zu] = '%s'\n", i, argv[i]);
		sq_fuzz_fail("sq_shell_join(argv) == 0", __FILE__, __LINE__);
	}
	sq_fuzz_check_sh_line(sq_buf_str(&b));
	sq_buf_free(&b);
}

static void
window(const char *spec)
{
	struct sq_hist_window w;
	struct sq_err err;
	char buf[80];
	const char *p;

	if (sq_history_window_parse(spec, &w, &err) == -1) {
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
		return;
	}
	sq_history_window_sacct(&w, buf, sizeof(buf));
	for (p = buf; *p != '\0'; p++)
		SQ_FUZZ_CHECK((*p >= '0' && *p <= '9') ||
			      (*p >= 'a' && *p <= 'z') || *p == '-' ||
			      *p == ':' || *p == 'T');
}

static int64_t
count_runs(const struct sq_snapshot *s, int finished_only)
{
	size_t i;
	int64_t n = 0;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(s, i);

		if (h->scope == SQ_HIST_RUN &&
		    (!finished_only ||
		     sq_history_outcome(h->state) != SQ_HIST_ACTIVE))
			n++;
	}
	return n;
}

/* The incremental refresh's merge (sq_history_merge): a fetch merged
 * with itself holds each run once; merged into an empty fetch, only the
 * finished runs stay; the summaries add up either way. */
static void
merge_check(struct sq_snapshot *s, int64_t runs)
{
	struct sq_snapshot *empty = sq_snapshot_new(SQ_KIND_HISTORY, 0), *m;
	struct sq_hist_build b;

	SQ_FUZZ_CHECK(empty != NULL);
	sq_history_init(&b, empty);
	SQ_FUZZ_CHECK(sq_history_finish(&b) == 0);
	sq_history_free(&b);
	m = sq_history_merge(s, s, SQ_NONE);
	SQ_FUZZ_CHECK(m != NULL);
	SQ_FUZZ_CHECK(count_runs(m, 0) == runs);
	sq_snapshot_unref(m);
	m = sq_history_merge(empty, s, SQ_NONE);
	SQ_FUZZ_CHECK(m != NULL);
	SQ_FUZZ_CHECK(count_runs(m, 0) == count_runs(s, 1));
	sq_snapshot_unref(m);
	sq_snapshot_unref(empty);
}

void
sq_fuzz_history(struct sq_snapshot *s)
{
	size_t i, j;
	int64_t runs = 0, users = 0;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_hist *h = sq_snapshot_row(s, i);

		if (h->scope == SQ_HIST_RUN) {
			runs++;
			SQ_FUZZ_CHECK(h->run >= 1);
			for (j = 0; j < h->nsteps; j++)
				sq_fuzz_check_display(h->steps[j].step);
			window(h->name);
			window(h->state);
		} else if (h->scope == SQ_HIST_USER) {
			users += h->runs;
			SQ_FUZZ_CHECK(h->completed + h->failed + h->timeout +
					  h->oom + h->cancelled + h->preempted +
					  h->node_fail + h->requeued +
					  h->active <=
				      h->runs);
		}
	}
	SQ_FUZZ_CHECK(users == runs);
	merge_check(s, runs);
}

#define NAMES_CAP (SIZE_MAX / 4)

static size_t
sat_add(size_t a, size_t b)
{
	return a >= NAMES_CAP || b >= NAMES_CAP - a ? NAMES_CAP : a + b;
}

static size_t
sat_mul(size_t a, size_t b)
{
	return b != 0 && a >= NAMES_CAP / b ? NAMES_CAP : a * b;
}

/*
 * The decimal number at d[*i] (0 when none), saturating: strtoul reads
 * every digit, so "[9-000000000000000006512]" is 6,504 names; reading 18
 * digits of it made 9-6, one name, and spec_slurmconf met lines of them.
 */
static uint64_t
range_num(const uint8_t *d, size_t n, size_t *i)
{
	uint64_t v = 0;

	while (*i < n && d[*i] >= '0' && d[*i] <= '9') {
		if (v <= (UINT64_MAX - 9) / 10)
			v = v * 10 + (uint64_t)(d[*i] - '0');
		else
			v = UINT64_MAX;
		(*i)++;
	}
	return v;
}

/* The names of d's bracket ranges, words ending at a byte of seps. */
static size_t
range_names(const uint8_t *d, size_t n, const char *seps)
{
	size_t i = 0, total = 0, word = 1;

	while (i < n) {
		size_t g = 0;

		if (d[i] == '[') {
			i++;
		} else if (i + 6 <= n && memcmp(d + i, "\\u005", 5) == 0 &&
			   (d[i + 5] == 'b' || d[i + 5] == 'B')) {
			i += 6;
		} else {
			if (strchr(seps, d[i]) != NULL && d[i] != 0) {
				total = sat_add(total, word > 1 ? word : 0);
				word = 1;
			}
			i++;
			continue;
		}
		/* N or N-M items, comma-separated, up to ']' */
		while (i < n && d[i] != ']') {
			uint64_t a = range_num(d, n, &i), b = a;

			if (i < n && d[i] == '-') {
				i++;
				b = range_num(d, n, &i);
			}
			g = sat_add(g,
				    b >= a ? sat_add((size_t)(b - a), 1) : 1);
			if (i < n && d[i] == ',')
				i++;
			else if (i < n && d[i] != ']')
				break;
		}
		word = sat_mul(word, g > 0 ? g : 1);
	}
	return sat_add(total, word > 1 ? word : 0);
}

size_t
sq_fuzz_range_names(const uint8_t *d, size_t n)
{
	return range_names(d, n, " \t\r\n|\",:");
}

size_t
sq_fuzz_conf_names(const uint8_t *d, size_t n)
{
	return range_names(d, n, " \t,");
}
