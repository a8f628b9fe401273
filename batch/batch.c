/*
 * batch.c - batch mode: one fetch, one print. Everything a cluster sends
 * is treated as hostile on output: control characters never reach the
 * terminal (table), tsv escapes tabs and newlines, JSON is written by
 * json-c.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "batch/batch.h"
#include "core/query/filter.h"
#include "core/query/order.h"
#include "core/base/sanitize.h"
#include "core/analysis/why.h"
#include "core/query/when.h"
#include "session/plan.h"
#include "session/whatif_weights.h"
#include "session/glance.h"

#define MAX_COLS 64

int
sq_format_from_name(const char *name)
{
	if (strcmp(name, "table") == 0)
		return SQ_FMT_TABLE;
	if (strcmp(name, "tsv") == 0)
		return SQ_FMT_TSV;
	if (strcmp(name, "json") == 0)
		return SQ_FMT_JSON;
	return -1;
}

/* A JSON string of text that may come from the cluster: invalid UTF-8
 * would make the whole document invalid JSON, so each bad byte becomes
 * U+FFFD (json-c escapes the control characters). */
static json_object *
jstr(const char *s)
{
	char *u = sq_utf8_dup(s);
	json_object *o = json_object_new_string(u != NULL ? u : "");

	free(u);
	return o;
}

/* Resolve the column list; returns the count or -1 (unknown id). */
static int
pick_columns(const struct sq_view_def *v, const char *columns,
	     const struct sq_column **out)
{
	char list[1024], *tok, *save = NULL;
	size_t i;
	int n = 0;

	if (columns == NULL || *columns == '\0') {
		for (i = 0; i < v->ncols && n < MAX_COLS; i++)
			out[n++] = &v->cols[i];
		return n;
	}
	snprintf(list, sizeof(list), "%s", columns);
	for (tok = strtok_r(list, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct sq_column *c = sq_view_column(v, tok);

		if (c == NULL) {
			fprintf(stderr, "squall: view %s has no column '%s'\n",
				v->name, tok);
			return -1;
		}
		if (n < MAX_COLS)
			out[n++] = c;
	}
	return n;
}

static void
print_table(FILE *fp, const struct sq_column **cols, int nc,
	    const struct sq_snapshot *s, const uint32_t *order, size_t nrows)
{
	size_t *w, i;
	int c;
	char buf[256], safe[1024];

	w = calloc((size_t)nc, sizeof(*w));
	if (w == NULL)
		return;
	for (c = 0; c < nc; c++)
		w[c] = strlen(cols[c]->title);
	for (i = 0; i < nrows; i++) {
		const void *r = sq_snapshot_row(s, order ? order[i] : i);

		for (c = 0; c < nc; c++) {
			const char *t =
			    sq_when_cell(cols[c], r, 0, buf, sizeof(buf));
			size_t l = t ? sq_display_width(t) : 0;

			if (l > w[c])
				w[c] = l > 60 ? 60 : l;
		}
	}
	for (c = 0; c < nc; c++)
		fprintf(fp, "%s%-*s", c ? "  " : "",
			c == nc - 1 ? 0 : (int)w[c], cols[c]->title);
	fputc('\n', fp);
	for (i = 0; i < nrows; i++) {
		const void *r = sq_snapshot_row(s, order ? order[i] : i);

		for (c = 0; c < nc; c++) {
			const char *t =
			    sq_when_cell(cols[c], r, 0, buf, sizeof(buf));
			int pad;

			sq_sanitize(t ? t : "", safe, sizeof(safe));
			pad = (int)w[c] - (int)sq_display_width(safe);
			if (c == nc - 1)
				pad = 0;
			if (c)
				fputs("  ", fp);
			if (cols[c]->align == SQ_RIGHT)
				fprintf(fp, "%*s%s", pad > 0 ? pad : 0, "",
					safe);
			else
				fprintf(fp, "%s%*s", safe, pad > 0 ? pad : 0,
					"");
		}
		fputc('\n', fp);
	}
	free(w);
}

static void
print_tsv(FILE *fp, const struct sq_column **cols, int nc,
	  const struct sq_snapshot *s, const uint32_t *order, size_t nrows)
{
	size_t i;
	int c;
	char buf[256];

	for (c = 0; c < nc; c++)
		fprintf(fp, "%s%s", c ? "\t" : "", cols[c]->id);
	fputc('\n', fp);
	for (i = 0; i < nrows; i++) {
		const void *r = sq_snapshot_row(s, order ? order[i] : i);

		for (c = 0; c < nc; c++) {
			const char *t = cols[c]->text(r, buf, sizeof(buf));

			if (c)
				fputc('\t', fp);
			sq_tsv_escape(fp, t ? t : "");
		}
		fputc('\n', fp);
	}
}

/* A sortable column's text that is a decimal fraction ("0.25", "-3.5"):
 * a JSON number, written as the column prints it. Whole numbers of such
 * columns stay strings: "123" in job_id is a string like "11_1". */
static int
is_fraction(const char *t)
{
	const char *p = t;
	int digits = 0, point = 0;

	if (*p == '-')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (*p == '.') {
		point = 1;
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits++;
	}
	return digits > 0 && point && *p == '\0' && p[-1] != '.';
}

static int
print_json(FILE *fp, const struct sq_column **cols, int nc,
	   const struct sq_snapshot *s, const uint32_t *order, size_t nrows)
{
	json_object *arr = json_object_new_array();
	size_t i;
	int c;
	char buf[256];

	if (arr == NULL)
		return -1;
	for (i = 0; i < nrows; i++) {
		const void *r = sq_snapshot_row(s, order ? order[i] : i);
		json_object *o = json_object_new_object();

		for (c = 0; c < nc; c++) {
			const struct sq_column *col = cols[c];
			const char *t = col->text(r, buf, sizeof(buf));
			json_object *v = NULL;
			long long n;

			if (t == NULL)
				v = NULL;
			else if ((col->flags & SQ_COL_NUM) && col->num &&
				 col->num(r, &n) == 0 && n >= 0)
				v = json_object_new_int64(n);
			else if (col->num != NULL && is_fraction(t))
				v = json_object_new_double_s(strtod(t, NULL),
							     t);
			else
				v = jstr(t);
			json_object_object_add(o, col->id, v);
		}
		json_object_array_add(arr, o);
	}
	fputs(
	    json_object_to_json_string_ext(
		arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE),
	    fp);
	fputc('\n', fp);
	json_object_put(arr);
	return 0;
}

/*
 * The order of the rows for sort: "[-]column" ("-": descending), "none"
 * (as fetched), NULL (the view's default, as the console opens it). *out
 * NULL: as fetched. 0, or -1 (unknown column, said on stderr; or out of
 * memory).
 */
static int
sort_rows(const struct sq_view_def *v, const struct sq_snapshot *s,
	  const char *sort, uint32_t **out)
{
	const struct sq_column *col;
	int desc, given = sort != NULL;

	*out = NULL;
	if (sort == NULL)
		sort = v->default_sort;
	if (sort == NULL || *sort == '\0' || strcmp(sort, "none") == 0)
		return 0;
	desc = *sort == '-';
	col = sq_view_column(v, sort + desc);
	if (col == NULL && !given)
		return 0; /* as the console: no such column, no sort */
	if (col == NULL) {
		fprintf(stderr,
			"squall: view %s has no column '%s' to sort by\n",
			v->name, sort + desc);
		return -1;
	}
	if (s->nrows < 2)
		return 0;
	*out = malloc(s->nrows * sizeof(**out));
	if (*out == NULL || sq_order_rows(s, col, desc, *out) == -1) {
		fprintf(stderr, "squall: out of memory\n");
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* Compile filter for view v into f; -1 with the reason on stderr. */
static int
filter_compile(struct sq_filter *f, const struct sq_view_def *v,
	       const char *filter)
{
	char err[256];

	sq_filter_init(f);
	if (sq_filter_set(f, filter, v, err, sizeof(err)) == -1) {
		fprintf(stderr, "squall: --filter '%s': %s\n", filter, err);
		return -1;
	}
	return 0;
}

int
sq_batch_filter_check(const struct sq_view_def *v, const char *filter)
{
	struct sq_filter f;

	if (filter == NULL || *filter == '\0')
		return 0;
	if (filter_compile(&f, v, filter) == -1)
		return -1;
	sq_filter_free(&f);
	return 0;
}

/* The shown text of a row for a regex filter: its printed cells,
 * sanitized, two spaces apart (as the console's table matches). */
static const char *
row_text(const struct sq_column **cols, int nc, const void *r, char *out,
	 size_t n)
{
	char buf[256], safe[1024];
	size_t o = 0;
	int c;

	out[0] = '\0';
	for (c = 0; c < nc; c++) {
		const char *t = cols[c]->text(r, buf, sizeof(buf));

		sq_sanitize(t ? t : "", safe, sizeof(safe));
		if (!sq_filter_text_add(out, n, &o, safe, c == 0))
			break;
	}
	return out;
}

/*
 * Keep the rows filter matches, in the order *order gives (NULL: as
 * fetched; made when needed). *nrows in: the number of rows, out: the
 * number kept. 0, or -1 (bad filter or out of memory, said on stderr).
 */
static int
filter_rows(const struct sq_view_def *v, const struct sq_snapshot *s,
	    const char *filter, const struct sq_column **cols, int nc,
	    uint32_t **order, size_t *nrows)
{
	struct sq_filter f;
	char text[4096];
	size_t i, kept = 0;

	if (filter_compile(&f, v, filter) == -1)
		return -1;
	if (*order == NULL && s->nrows > 0) {
		*order = malloc(s->nrows * sizeof(**order));
		if (*order == NULL) {
			sq_filter_free(&f);
			fprintf(stderr, "squall: out of memory\n");
			return -1;
		}
		for (i = 0; i < s->nrows; i++)
			(*order)[i] = (uint32_t)i;
	}
	for (i = 0; i < *nrows; i++) {
		const void *r = sq_snapshot_row(s, (*order)[i]);
		const char *t = "";

		if (f.re != NULL)
			t = row_text(cols, nc, r, text, sizeof(text));
		if (sq_filter_row(&f, r, t))
			(*order)[kept++] = (*order)[i];
	}
	*nrows = kept;
	sq_filter_free(&f);
	return 0;
}

int
sq_batch_print(FILE *fp, const struct sq_view_def *v,
	       const struct sq_snapshot *s, enum sq_format fmt,
	       const char *columns, const char *sort, const char *filter)
{
	const struct sq_column *cols[MAX_COLS];
	int nc = pick_columns(v, columns, cols), rc = 0;
	uint32_t *order;
	size_t n = s->nrows;

	if (nc < 0 || sort_rows(v, s, sort, &order) == -1)
		return -1;
	if (filter != NULL && *filter != '\0' &&
	    filter_rows(v, s, filter, cols, nc, &order, &n) == -1) {
		free(order);
		return -1;
	}
	switch (fmt) {
	case SQ_FMT_TABLE:
		print_table(fp, cols, nc, s, order, n);
		break;
	case SQ_FMT_TSV:
		print_tsv(fp, cols, nc, s, order, n);
		break;
	case SQ_FMT_JSON:
		rc = print_json(fp, cols, nc, s, order, n);
		break;
	}
	free(order);
	return rc;
}

int
sq_batch_kept(const struct sq_view_def *v, const struct sq_snapshot *s,
	      const char *columns, const char *filter, uint32_t **order,
	      size_t *n)
{
	const struct sq_column *cols[MAX_COLS];
	int nc = pick_columns(v, columns, cols);

	*order = NULL;
	*n = s->nrows;
	if (nc < 0)
		return -1;
	if (filter == NULL || *filter == '\0')
		return 0;
	return filter_rows(v, s, filter, cols, nc, order, n);
}

/* The lazy partners the printed columns need: all of them without
 * --columns (every column is printed), else those the list names. */
static enum sq_plan_want
want_of(const struct sq_view_def *v, const char *columns)
{
	const struct sq_column *cols[MAX_COLS];
	int idx[MAX_COLS], n, i;

	if (columns == NULL || *columns == '\0')
		return SQ_PLAN_ALL;
	n = pick_columns(v, columns, cols);
	if (n < 0)
		return SQ_PLAN_ALL;
	for (i = 0; i < n; i++)
		idx[i] = (int)(cols[i] - v->cols);
	return sq_plan_want_cols(v, idx, n);
}

/* Fetch the view's kind and what it joins, by the plan
 * (session/plan.h), and keep the rows of the view's scope. */
static int
fetch_view(struct sq_backend *b, const struct sq_view_def *v,
	   const char *columns, struct sq_snapshot **out, struct sq_err *err)
{
	if (sq_plan_fetch_want(b, v->kind, want_of(v, columns), out, err) == -1)
		return -1;
	sq_plan_keep(v, *out);
	return 0;
}

int
sq_batch_run(const struct sq_cluster_cfg *cfg, const char *view,
	     enum sq_format fmt, const char *columns, const char *sort,
	     const char *filter)
{
	const struct sq_view_def *v = sq_view_find(view);
	struct sq_backend *b;
	struct sq_snapshot *s = NULL;
	struct sq_err err;
	int rc;

	if (v == NULL) {
		fprintf(stderr, "squall: unknown view '%s'\n", view);
		return 2;
	}
	if (columns != NULL && strcmp(columns, "help") == 0) {
		sq_batch_columns(stdout, v);
		return fflush(stdout) != 0;
	}
	/* a bad filter is a usage error: say so before connecting */
	if (sq_batch_filter_check(v, filter) == -1)
		return 2;
	sq_err_clear(&err);
	if (v->kind == SQ_KIND_CLUSTERS) /* each cluster its own backend */
		return sq_clusters_batch(v, fmt, columns, sort, filter);
	b = sq_backend_open(cfg, &err);
	if (b == NULL) {
		fprintf(stderr, "squall: %s: %s\n", cfg->name, err.msg);
		return err.code == SQ_ERR_USAGE ? 2 : 1;
	}
	if (fetch_view(b, v, columns, &s, &err) == -1) {
		fprintf(stderr, "squall: %s: %s\n", v->name, err.msg);
		sq_backend_close(b);
		return 1;
	}
	if (v->kind == SQ_KIND_WHATIF)
		sq_whatif_print_summary(fmt == SQ_FMT_TABLE ? stdout : stderr,
					s);
	rc = sq_batch_print(stdout, v, s, fmt, columns, sort, filter) == -1 ? 2
									    : 0;
	if (s->note != NULL) /* what the backend could not fill */
		fprintf(stderr, "squall: %s: note: %s\n", v->name, s->note);
	if (fflush(stdout) != 0)
		rc = 1;
	if (rc == 0 && v->kind == SQ_KIND_SPEC)
		rc = sq_batch_spec_drift(v, s, columns, filter);
	sq_snapshot_unref(s);
	sq_backend_close(b);
	return rc;
}

/* The job of the queue named by arg: "123", "123_4" or the id squeue
 * prints, or the pending array row (33_[1-8]) of the task it names
 * (33_2: squeue -j 33_2 lists it); NULL when absent. */
static const struct sq_job *
find_job(const struct sq_snapshot *jobs, const char *arg)
{
	char *end;
	unsigned long id = strtoul(arg, &end, 10);
	size_t i;

	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (strcmp(j->id, arg) == 0 ||
		    (*end == '\0' && j->job_id == id))
			return j;
	}
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (sq_job_has_task(j, arg))
			return j;
	}
	return NULL;
}

static void
detail_text(FILE *fp, const struct sq_job *j, const char *why, int tsv)
{
	const struct sq_view_def *v = &sq_view_jobs;
	char buf[256], safe[1024];
	size_t i;
	const char *p;

	for (i = 0; i < v->ncols; i++) {
		const char *t = v->cols[i].text(j, buf, sizeof(buf));

		if (tsv) {
			fprintf(fp, "%s\t", v->cols[i].id);
			sq_tsv_escape(fp, t ? t : "");
			fputc('\n', fp);
			continue;
		}
		sq_sanitize(t ? t : "-", safe, sizeof(safe));
		fprintf(fp, "%-16s %s\n", v->cols[i].id, safe);
	}
	if (why == NULL)
		return;
	if (!tsv)
		fputs("why pending:\n", fp);
	/* "label: text" lines */
	for (p = why; *p != '\0';) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		const char *colon = memchr(p, ':', l);
		char line[1024];

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		if (tsv && colon != NULL) {
			line[colon - p] = '\0';
			fprintf(fp, "why_%s\t", line);
			sq_tsv_escape(fp, line + (colon - p) + 2);
			fputc('\n', fp);
		} else if (!tsv) {
			sq_sanitize(line, safe, sizeof(safe));
			fprintf(fp, "  %s\n", safe);
		}
		p = nl ? nl + 1 : p + l;
	}
}

static json_object *
why_json(const struct sq_why *w)
{
	json_object *o = json_object_new_object(), *arr;
	int i;

	json_object_object_add(o, "reason", jstr(w->reason));
	json_object_object_add(o, "meaning", jstr(w->meaning));
	json_object_object_add(o, "rank",
			       w->rank ? json_object_new_int64(w->rank) : NULL);
	json_object_object_add(
	    o, "ranked", w->rank ? json_object_new_int64(w->ranked) : NULL);
	json_object_object_add(
	    o, "ahead_job",
	    w->ahead_job ? json_object_new_int64(w->ahead_job) : NULL);
	json_object_object_add(
	    o, "ahead_priority",
	    w->ahead_job ? json_object_new_int64(w->ahead_priority) : NULL);
	json_object_object_add(o, "factor",
			       w->factor[0] ? jstr(w->factor) : NULL);
	json_object_object_add(
	    o, "factor_self",
	    w->factor[0] ? json_object_new_int64(w->factor_self) : NULL);
	json_object_object_add(
	    o, "factor_ahead",
	    w->factor[0] ? json_object_new_int64(w->factor_ahead) : NULL);
	json_object_object_add(o, "limit_reason",
			       json_object_new_boolean(w->limit_reason));
	arr = json_object_new_array();
	for (i = 0; i < w->nlimits; i++) {
		const struct sq_why_limit *l = &w->limits[i];
		json_object *lo = json_object_new_object();

		json_object_object_add(lo, "scope", jstr(l->scope));
		json_object_object_add(lo, "owner", jstr(l->owner));
		json_object_object_add(lo, "limit", jstr(l->limit));
		json_object_object_add(lo, "tres", jstr(l->tres));
		json_object_object_add(lo, "value",
				       json_object_new_int64(l->value));
		json_object_object_add(
		    lo, "used",
		    l->used == SQ_NONE ? NULL : json_object_new_int64(l->used));
		json_object_object_add(lo, "request",
				       l->request == SQ_NONE
					   ? NULL
					   : json_object_new_int64(l->request));
		json_object_object_add(lo, "at_limit",
				       json_object_new_boolean(l->at_limit));
		json_object_array_add(arr, lo);
	}
	json_object_object_add(o, "limits", arr);
	return o;
}

static json_object *live_json(const struct sq_live *l);

static void
detail_json(FILE *fp, const struct sq_job *j, const struct sq_why *w,
	    const struct sq_live *live)
{
	const struct sq_view_def *v = &sq_view_jobs;
	json_object *o = json_object_new_object();
	char buf[256];
	size_t i;

	for (i = 0; i < v->ncols; i++) {
		const struct sq_column *c = &v->cols[i];
		const char *t = c->text(j, buf, sizeof(buf));
		long long n;
		json_object *val = NULL;

		if (t != NULL && (c->flags & SQ_COL_NUM) && c->num != NULL &&
		    c->num(j, &n) == 0 && n >= 0)
			val = json_object_new_int64(n);
		else if (t != NULL)
			val = jstr(t);
		json_object_object_add(o, c->id, val);
	}
	json_object_object_add(o, "why", w != NULL ? why_json(w) : NULL);
	json_object_object_add(o, "live",
			       live != NULL ? live_json(live) : NULL);
	fputs(json_object_to_json_string_ext(
		  o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE),
	      fp);
	fputc('\n', fp);
	json_object_put(o);
}

static void
live_line(void *arg, const char *line)
{
	char safe[1024];

	sq_sanitize(line, safe, sizeof(safe));
	fprintf((FILE *)arg, "  %s\n", safe);
}

/* A running job's live usage (sstat) from the backend, or a note; NULL
 * only without memory. */
static struct sq_live *
fetch_live(struct sq_backend *b, const char *id)
{
	struct sq_live *l = calloc(1, sizeof(*l));
	struct sq_err err;

	if (l == NULL)
		return NULL;
	sq_err_clear(&err);
	if (b->ops->job_live == NULL)
		snprintf(l->note, sizeof(l->note),
			 "live usage: not available through the %s backend "
			 "(no sstat)",
			 b->ops->name);
	else if (b->ops->job_live(b, id, l, &err) == -1)
		snprintf(l->note, sizeof(l->note), "live usage: %.200s",
			 err.msg);
	return l;
}

/* The live usage as a table, or tsv "live" lines. */
static void
print_live(FILE *fp, const struct sq_live *l, int tsv)
{
	size_t i;

	if (tsv) {
		for (i = 0; i < l->n; i++) {
			const struct sq_live_step *s = &l->step[i];

			fprintf(fp, "live\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
				s->step, s->ntasks, s->ave_cpu, s->ave_rss,
				s->max_rss, s->max_rss_node, s->max_vmsize);
		}
		if (l->n == 0)
			fprintf(fp, "live\t%s\n", l->note);
		if (l->gpus[0] != '\0') /* its GPUs by index per node */
			fprintf(fp, "gpus\t%s\n", l->gpus);
	} else {
		fputs("live usage (sstat):\n", fp);
		sq_live_lines(l, live_line, fp);
	}
}

/* {"steps": [{step, ntasks, ave_cpu, ...}], "note": ..., "gpus": ...} */
static json_object *
live_json(const struct sq_live *l)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct sq_live_step *s = &l->step[i];
		json_object *r = json_object_new_object();

		json_object_object_add(r, "step", jstr(s->step));
		json_object_object_add(r, "ntasks", jstr(s->ntasks));
		json_object_object_add(r, "ave_cpu", jstr(s->ave_cpu));
		json_object_object_add(r, "min_cpu", jstr(s->min_cpu));
		json_object_object_add(r, "ave_rss", jstr(s->ave_rss));
		json_object_object_add(r, "max_rss", jstr(s->max_rss));
		json_object_object_add(r, "max_rss_node",
				       jstr(s->max_rss_node));
		json_object_object_add(r, "max_vmsize", jstr(s->max_vmsize));
		json_object_object_add(r, "max_disk_read",
				       jstr(s->max_disk_read));
		json_object_object_add(r, "max_disk_write",
				       jstr(s->max_disk_write));
		json_object_array_add(a, r);
	}
	json_object_object_add(o, "steps", a);
	json_object_object_add(o, "note", l->note[0] ? jstr(l->note) : NULL);
	json_object_object_add(o, "gpus", l->gpus[0] ? jstr(l->gpus) : NULL);
	return o;
}

int
sq_batch_job(const struct sq_cluster_cfg *cfg, const char *jobid,
	     enum sq_format fmt)
{
	struct sq_backend *b;
	struct sq_snapshot *jobs = NULL, *limits = NULL, *assocs = NULL;
	const struct sq_job *j;
	struct sq_err err;
	struct sq_why w;
	struct sq_live *live = NULL;
	char why[4096];
	int rc = 1;

	sq_err_clear(&err);
	b = sq_backend_open(cfg, &err);
	if (b == NULL) {
		fprintf(stderr, "squall: %s: %s\n", cfg->name, err.msg);
		return err.code == SQ_ERR_USAGE ? 2 : 1;
	}
	if (fetch_view(b, &sq_view_jobs, NULL, &jobs, &err) == -1) {
		fprintf(stderr, "squall: jobs: %s\n", err.msg);
		goto out;
	}
	j = find_job(jobs, jobid);
	if (j == NULL) {
		fprintf(stderr, "squall: job %s is not in the queue\n", jobid);
		goto out;
	}
	if (sq_job_is_pending(j) &&
	    (b->ops->caps(b) & SQ_CAP_ACCOUNTING) != 0) {
		struct sq_err e2;

		/* usage vs limits needs assoc_mgr (operators and up) and the
		 * account tree; both are optional */
		if (sq_plan_fetch_plain(b, SQ_KIND_LIMITS, &limits, &e2) == -1)
			limits = NULL;
		if (sq_plan_fetch_served(b, SQ_KIND_ASSOCS, &assocs, &e2) == -1)
			assocs = NULL;
	}
	sq_why_compute(j, jobs, limits, assocs, &w);
	sq_why_format(&w, why, sizeof(why));
	/* a running job: its live usage (sstat) */
	if (j->state != NULL && strcmp(j->state, "RUNNING") == 0)
		live = fetch_live(b, j->id);
	if (fmt == SQ_FMT_JSON)
		detail_json(stdout, j, w.pending ? &w : NULL, live);
	else
		detail_text(stdout, j, w.pending ? why : NULL,
			    fmt == SQ_FMT_TSV);
	if (fmt != SQ_FMT_JSON && live != NULL)
		print_live(stdout, live, fmt == SQ_FMT_TSV);
	rc = fflush(stdout) != 0;
out:
	free(live);
	sq_snapshot_unref(limits);
	sq_snapshot_unref(assocs);
	sq_snapshot_unref(jobs);
	sq_backend_close(b);
	return rc;
}
