/*
 * fuzz_core.c - libFuzzer harness for the small parsers and filters of
 * core/: GRES/TRES strings, the GPU totals built from them and the GPU
 * peaks of a TRESUsageInMax string (gres),
 * Slurm's numbers, durations, times and Key=Value lines (parse), the
 * display filter (sanitize), the command-line whitelists and quoting
 * (validate), Slurm host lists (hostlist) and the row filter with its
 * field terms and list matching (filter), slurmctld's OpenMetrics text
 * and the overview built from it (openmetrics). Each checks properties,
 * not only the absence of crashes.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/base/buf.h"
#include "core/query/filter.h"
#include "core/analysis/gpus.h"
#include "core/base/gres.h"
#include "core/analysis/history.h"
#include "core/base/hostlist.h"
#include "core/base/openmetrics.h"
#include "core/analysis/overview.h"
#include "core/analysis/overview_om.h"
#include "core/base/parse.h"
#include "core/base/sanitize.h"
#include "core/base/validate.h"
#include "core/model/view.h"
#include "tests/fuzz/fuzz.h"

#ifndef SQ_FUZZ_NAME
#error "build with -DSQ_FUZZ_NAME=\"gres\" (see tests/fuzz/run)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Split text at '\n' into at most max parts (missing parts are ""). */
static void
parts(char *text, char **p, int max)
{
	int i;

	for (i = 0; i < max; i++) {
		char *nl;

		p[i] = text;
		nl = strchr(text, '\n');
		if (nl != NULL) {
			*nl = '\0';
			text = nl + 1;
		} else {
			text += strlen(text);
		}
	}
}

/* --- gres ----------------------------------------------------------- */

static void
fuzz_gres(char *text)
{
	struct sq_gres_item items[8];
	struct sq_snapshot *s;
	char *p[4];
	int n, i;

	n = sq_gres_parse(text, items, 8);
	SQ_FUZZ_CHECK(n >= -1 && n <= 8);
	for (i = 0; i < n; i++) {
		SQ_FUZZ_CHECK(
		    memchr(items[i].name, '\0', sizeof(items[i].name)) != NULL);
		SQ_FUZZ_CHECK(
		    memchr(items[i].type, '\0', sizeof(items[i].type)) != NULL);
		(void)sq_gres_is_accel(items[i].name);
	}
	(void)sq_gres_count(text, "gpu");
	(void)sq_gres_count(text, "shard");
	{ /* TRESUsageInMax: a figure is never negative; garbage is -1 */
		int64_t u, m;

		if (sq_history_gpu_usage(text, &u, &m) == 0) {
			SQ_FUZZ_CHECK(u == SQ_NONE || u >= 0);
			SQ_FUZZ_CHECK(m == SQ_NONE || m >= 0);
		}
		if (sq_history_bytes(text, &u) == 0)
			SQ_FUZZ_CHECK(u >= 0);
	}

	/* node Gres, GresUsed, a job's TRES and its partition */
	parts(text, p, 4);
	s = sq_snapshot_new(SQ_KIND_GPUS, 0);
	SQ_FUZZ_CHECK(s != NULL);
	SQ_FUZZ_CHECK(sq_gpus_add_node(s, "n1", p[3], p[0], p[1]) == 0);
	SQ_FUZZ_CHECK(sq_gpus_add_node(s, "n2", "gpu", p[0], p[0]) == 0);
	SQ_FUZZ_CHECK(sq_gpus_add_job(s, "bob", "chemistry", p[3], p[2]) == 0);
	SQ_FUZZ_CHECK(sq_gpus_add_job(s, p[3], p[3], "gpu", p[1]) == 0);
	/* an untyped job on nodes given as a host list */
	SQ_FUZZ_CHECK(
	    sq_gpus_add_job_on(s, "al", "physics", p[3], p[1], p[2]) == 0);
	SQ_FUZZ_CHECK(sq_gpus_finish(s, "not collected") == 0);
	sq_fuzz_render(s);
	sq_gpus_keep(s, SQ_GPU_USER);
	sq_snapshot_unref(s);
}

/* --- parse ---------------------------------------------------------- */

static void
fuzz_parse(char *text)
{
	char *copy = strdup(text), *pos, *line;
	int64_t v;
	char buf[64];

	SQ_FUZZ_CHECK(copy != NULL);
	(void)sq_is_none(text);
	(void)sq_parse_int(text, &v);
	(void)sq_parse_mem_mb(text, &v);
	(void)sq_parse_time(text, &v);
	if (sq_parse_duration(text, &v) == 0 && v >= 0) {
		int64_t again;

		/* what we print for a duration reads back the same */
		sq_fmt_duration(v, buf, sizeof(buf));
		SQ_FUZZ_CHECK(sq_parse_duration(buf, &again) == 0);
		SQ_FUZZ_CHECK(again == v);
	}
	sq_fmt_duration(v, buf, sizeof(buf));
	SQ_FUZZ_CHECK(strlen(buf) < sizeof(buf));

	pos = copy;
	while ((line = sq_next_line(&pos)) != NULL) {
		char *f[8], *p, *k, *val;
		char *kv = strdup(line);
		int n, i;

		SQ_FUZZ_CHECK(kv != NULL);
		n = sq_split(line, '|', f, 8);
		SQ_FUZZ_CHECK(n >= 0 && n <= 8);
		for (i = 0; i < n; i++) {
			SQ_FUZZ_CHECK(f[i] != NULL);
			(void)sq_parse_int(f[i], &v);
			(void)sq_parse_duration(f[i], &v);
		}
		p = kv;
		while (sq_kv_next(&p, &k, &val)) {
			/* the first key is whatever precedes '=' */
			SQ_FUZZ_CHECK(k != NULL && val != NULL);
			(void)sq_is_key(k, strlen(k));
			(void)sq_parse_mem_mb(val, &v);
		}
		free(kv);
	}
	free(copy);
}

/* --- sanitize ------------------------------------------------------- */

static void
fuzz_sanitize(const char *text)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 8, 64, 4096 };
	char out[4096], *mem = NULL;
	size_t i, memlen = 0;
	FILE *fp;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		sq_sanitize(text, out, sizes[i]);
		SQ_FUZZ_CHECK(strlen(out) < sizes[i]);
		sq_fuzz_check_display(out);
	}
	(void)sq_display_width(text);

	/* tsv: no control byte is written raw */
	fp = open_memstream(&mem, &memlen);
	SQ_FUZZ_CHECK(fp != NULL);
	sq_tsv_escape(fp, text);
	fclose(fp);
	for (i = 0; i < memlen; i++)
		SQ_FUZZ_CHECK((unsigned char)mem[i] >= 0x20 &&
			      (unsigned char)mem[i] != 0x7f);
	free(mem);
}

/* --- validate ------------------------------------------------------- */

#define NAME_CHARS                                                             \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"

static void
quote_ok(const char *v)
{
	struct sq_buf b;

	sq_buf_init(&b, 0);
	SQ_FUZZ_CHECK(sq_shell_quote(&b, v) == 0);
	sq_fuzz_check_sh_line(sq_buf_str(&b));
	sq_buf_free(&b);
}

static void
fuzz_validate(char *text)
{
	char id[64], id2[64], *argv[9], *p[8];
	struct sq_err err;
	struct sq_buf b;
	size_t i;
	int n;

	if (sq_valid_jobid(text, id, sizeof(id), &err) == 0) {
		/* canonical: validating the output gives itself */
		SQ_FUZZ_CHECK(sq_valid_jobid(id, id2, sizeof(id2), &err) == 0);
		SQ_FUZZ_CHECK(strcmp(id, id2) == 0);
		quote_ok(id);
	}
	if (sq_valid_name(text, &err) == 0) {
		SQ_FUZZ_CHECK(strlen(text) <= 128);
		for (i = 0; text[i] != '\0'; i++)
			SQ_FUZZ_CHECK(strchr(NAME_CHARS, text[i]) != NULL);
		SQ_FUZZ_CHECK(text[0] != '-' && text[0] != '.');
		quote_ok(text);
	}
	if (sq_valid_text(text, &err) == 0) {
		SQ_FUZZ_CHECK(strpbrk(text, "'\"\\!`$") == NULL);
		quote_ok(text);
	}
	if (sq_valid_nodelist(text, &err) == 0)
		quote_ok(text);
	if (sq_valid_tres(text, &err) == 0)
		quote_ok(text);
	if (sq_valid_path(text, &err) == 0) {
		SQ_FUZZ_CHECK(text[0] == '/');
		quote_ok(text);
	}
	if (sq_valid_number(text, &err) == 0)
		quote_ok(text);
	if (sq_valid_duration(text, &err) == 0)
		quote_ok(text);

	/* a whole remote command line: the first line is the bin dir,
	 * then argv, one argument a line */
	parts(text, p, 8);
	for (n = 0; n < 7 && p[n + 1][0] != '\0'; n++)
		argv[n] = p[n + 1];
	argv[n] = NULL;
	sq_buf_init(&b, 0);
	if (sq_shell_join(&b, p[0], (const char *const *)argv) == 0)
		sq_fuzz_check_sh_line(sq_buf_str(&b));
	else
		SQ_FUZZ_CHECK(b.len == 0);
	sq_buf_free(&b);
}

/* --- hostlist -------------------------------------------------------- */

static int
count_name(void *arg, const char *name)
{
	SQ_FUZZ_CHECK(name != NULL && strlen(name) <= 255);
	(*(long *)arg)++;
	return 0;
}

static int
count_upto(void *arg, const char *name)
{
	SQ_FUZZ_CHECK(name != NULL && strlen(name) <= 255);
	return ++*(long *)arg >= SQ_FUZZ_MAX_NAMES ? 1 : 0;
}

/* the first line is a host list, the second a name */
static void
fuzz_hostlist(char *text)
{
	char *p[2], **names;
	long n = 0, count;
	size_t nn = 0, i;
	struct sq_buf b;
	int rc;

	parts(text, p, 2);
	if (sq_fuzz_range_names((const uint8_t *)p[0], strlen(p[0])) >
	    SQ_FUZZ_MAX_NAMES) {
		/* a big list: its first names only. The corpus fills with
		 * lists of up to 100,000 names, and expanding each three
		 * times an input ran at 200 executions a second; the cap
		 * itself is test_spec's (test_hostlist) */
		rc = sq_hostlist_expand(p[0], count_upto, &n);
		SQ_FUZZ_CHECK(rc == -1 || rc == 0 ||
			      (rc == 1 && n == SQ_FUZZ_MAX_NAMES));
		return;
	}
	count = sq_hostlist_count(p[0]);
	if (sq_hostlist_expand(p[0], count_name, &n) == 0)
		SQ_FUZZ_CHECK(count == n && n <= SQ_HOSTLIST_MAX);
	else
		SQ_FUZZ_CHECK(count == -1);
	(void)sq_hostlist_contains(p[0], p[1]);
	if (count > 2000)
		return; /* the checks below are quadratic: keep runs fast */
	names = sq_hostlist_names(p[0], &nn);
	if (names == NULL) {
		SQ_FUZZ_CHECK(nn == 0 || nn == (size_t)-1);
		return;
	}
	/* sorted and unique; folded back, the same set */
	for (i = 1; i < nn; i++)
		SQ_FUZZ_CHECK(strcmp(names[i - 1], names[i]) < 0);
	for (i = 0; i < nn && i < 20; i++)
		SQ_FUZZ_CHECK(sq_hostlist_contains(p[0], names[i]));
	sq_buf_init(&b, 0);
	SQ_FUZZ_CHECK(sq_hostlist_fold((const char *const *)names, nn, &b) ==
		      0);
	SQ_FUZZ_CHECK(sq_hostlist_cmp(sq_buf_str(&b), p[0]) == 0);
	sq_buf_free(&b);
	sq_hostlist_free_names(names, nn);
}

/* --- filter -------------------------------------------------------- */

/* A plain name (a user, a node): the characters of NAME_CHARS only. */
static int
plain_name(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 200 && strspn(s, NAME_CHARS) == n;
}

/*
 * The first line is a filter as typed after '/', the second a value the
 * cluster sent: a job's user, account, state and node list, and the
 * row's shown text; the third a second list for sq_list_overlap.
 */
static void
fuzz_filter(char *text)
{
	static struct sq_snapshot *ref;
	struct sq_filter f;
	struct sq_job j;
	char *p[3], err[300], term[256], lower[256];
	size_t so, eo, i;
	int m, found;

	if (ref == NULL)
		ref = sq_fuzz_parse_fixture(SQ_KIND_JOBS, sq_parse_squeue,
					    "cli/22.05/squeue.txt");
	parts(text, p, 3);
	j = *(const struct sq_job *)sq_snapshot_row(ref, 0);
	j.user = j.account = j.state = j.nodelist = p[1];

	sq_filter_init(&f);
	err[0] = '\0';
	if (sq_filter_set(&f, p[0], &sq_view_jobs, err, sizeof(err)) == 0) {
		SQ_FUZZ_CHECK(sq_filter_active(&f) == (p[0][0] != '\0'));
		m = sq_filter_row(&f, &j, p[1]);
		SQ_FUZZ_CHECK(m == 0 || m == 1);
		if (f.re != NULL) {
			/* the highlight and the row test agree */
			found = sq_filter_find(&f, p[1], &so, &eo);
			SQ_FUZZ_CHECK(m == (f.invert ? !found : found));
			if (found)
				SQ_FUZZ_CHECK(so <= eo && eo <= strlen(p[1]));
		}
	} else {
		/* refused with a reason, the filter left off */
		SQ_FUZZ_CHECK(err[0] != '\0' && !sq_filter_active(&f));
	}
	sq_filter_free(&f);

	(void)sq_list_overlap(p[1], p[2]);
	(void)sq_list_overlap(p[2], p[1]);
	if (!plain_name(p[1]))
		return;
	/* a name is in a list of itself, whatever the case of a lower-case
	 * term, and never in an exact term of another case */
	SQ_FUZZ_CHECK(sq_list_overlap(p[1], p[1]));
	for (i = 0; p[1][i] != '\0'; i++)
		lower[i] = (char)tolower((unsigned char)p[1][i]);
	lower[i] = '\0';
	snprintf(term, sizeof(term), "@user=%s", lower);
	SQ_FUZZ_CHECK(
	    sq_filter_set(&f, term, &sq_view_jobs, err, sizeof(err)) == 0);
	SQ_FUZZ_CHECK(sq_filter_row(&f, &j, ""));
	sq_filter_free(&f);
	snprintf(term, sizeof(term), "@user=%s", p[1]);
	SQ_FUZZ_CHECK(
	    sq_filter_set(&f, term, &sq_view_jobs, err, sizeof(err)) == 0);
	SQ_FUZZ_CHECK(sq_filter_row(&f, &j, ""));
	sq_filter_free(&f);
}

/* --- openmetrics ---------------------------------------------------- */

/* A sample's name as the format allows it. */
static int
om_name_ok(const char *n)
{
	if (*n == '\0' || (*n >= '0' && *n <= '9'))
		return 0;
	for (; *n != '\0'; n++)
		if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') ||
		      (*n >= '0' && *n <= '9') || *n == '_' || *n == ':'))
			return 0;
	return 1;
}

static void
fuzz_openmetrics(const uint8_t *data, size_t size)
{
	struct sq_om om = { 0 };
	struct sq_ov_input in = { 0 };
	struct sq_snapshot *ov;
	char err[128] = "";
	size_t i;
	int rc;

	rc = sq_om_parse((const char *)data, size, &om, err, sizeof(err));
	SQ_FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc == -1) {
		SQ_FUZZ_CHECK(om.n == 0 && err[0] != '\0');
		return;
	}
	SQ_FUZZ_CHECK(om.n <= size / 3 + 1); /* "a 1" is the shortest */
	for (i = 0; i < om.n; i++) {
		const struct sq_om_sample *s = &om.v[i];
		double v;
		int k;

		SQ_FUZZ_CHECK(om_name_ok(s->name));
		SQ_FUZZ_CHECK(s->nlabels >= 0 &&
			      s->nlabels <= SQ_OM_MAX_LABELS);
		for (k = 0; k < s->nlabels; k++)
			SQ_FUZZ_CHECK(om_name_ok(s->label[k].key));
		/* a labelless sample is found by its name */
		if (s->nlabels == 0)
			SQ_FUZZ_CHECK(sq_om_get(&om, s->name, NULL, NULL, &v) ==
				      0);
	}
	/* the overview from the same text as all three endpoints: every
	 * count it shows is a count */
	in.om_nodes = in.om_parts = in.om_sched = &om;
	ov = sq_overview_build(&in, 1000);
	SQ_FUZZ_CHECK(ov != NULL);
	for (i = 0; i < ov->nrows; i++) {
		const struct sq_ov_row *r = sq_snapshot_row(ov, i);

		if (strcmp(r->section, "nodes") == 0 ||
		    strcmp(r->section, "ctld") == 0)
			SQ_FUZZ_CHECK(r->num >= 0);
	}
	sq_snapshot_unref(ov);
	sq_om_free(&om);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = sq_fuzz_str(data, size);

	if (strcmp(SQ_FUZZ_NAME, "gres") == 0)
		fuzz_gres(text);
	else if (strcmp(SQ_FUZZ_NAME, "parse") == 0)
		fuzz_parse(text);
	else if (strcmp(SQ_FUZZ_NAME, "sanitize") == 0)
		fuzz_sanitize(text);
	else if (strcmp(SQ_FUZZ_NAME, "validate") == 0)
		fuzz_validate(text);
	else if (strcmp(SQ_FUZZ_NAME, "hostlist") == 0)
		fuzz_hostlist(text);
	else if (strcmp(SQ_FUZZ_NAME, "filter") == 0)
		fuzz_filter(text);
	else if (strcmp(SQ_FUZZ_NAME, "openmetrics") == 0)
		fuzz_openmetrics(data, size);
	else
		SQ_FUZZ_CHECK(!"unknown harness");
	free(text);
	return 0;
}
