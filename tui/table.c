/*
 * table.c - the table widget's logic: which rows are shown and in what
 * order (filter, sort, a view's arrangement), the cursor that follows its
 * row id across refreshes, tags, folds and the column set. No drawing and
 * no curses here (table_draw.c draws); UI thread only.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"
#include "tui/app.h"
#include "tui/table.h"
#include "tui/views.h"

/* Column ids that identify a row when the view has no job_id/node. */
static const char *const key_ids[] = {
	"cluster", "section", "scope", "account", "user", "partition",
	"qos",     "name",    "node",  "key",     "type", NULL,
};

static void
pick_idcols(struct sq_table *t)
{
	const struct sq_view_def *d = t->def;
	size_t i;
	int k;

	t->nidcols = 0;
	for (i = 0; i < d->ncols; i++) {
		if (strcmp(d->cols[i].id, "job_id") == 0 ||
		    (d->kind == SQ_KIND_NODES &&
		     strcmp(d->cols[i].id, "node") == 0)) {
			t->idcols[0] = (int)i;
			t->nidcols = 1;
			return;
		}
	}
	for (k = 0; key_ids[k] != NULL && t->nidcols < 6; k++) {
		for (i = 0; i < d->ncols; i++) {
			if (strcmp(d->cols[i].id, key_ids[k]) == 0)
				t->idcols[t->nidcols++] = (int)i;
		}
	}
	if (t->nidcols == 0 && d->ncols > 0)
		t->idcols[t->nidcols++] = 0;
}

static int
col_index(const struct sq_view_def *d, const char *id)
{
	size_t i;

	for (i = 0; i < d->ncols; i++) {
		if (strcmp(d->cols[i].id, id) == 0)
			return (int)i;
	}
	return -1;
}

void
sq_table_init(struct sq_table *t, const struct sq_view_def *def)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->def = def;
	t->ops = sq_tui_view_for(def);
	sq_filter_init(&t->filter);
	for (i = 0; i < def->ncols && t->ncols < SQ_TABLE_MAX_COLS; i++) {
		if (!(def->cols[i].flags & SQ_COL_HIDDEN))
			t->cols[t->ncols++] = (int)i;
	}
	t->sort = -1;
	if (def->default_sort != NULL && *def->default_sort != '\0') {
		const char *s = def->default_sort;

		t->sort_desc = *s == '-';
		t->sort = col_index(def, s + (*s == '-'));
	}
	pick_idcols(t);
}

static void
free_strings(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
sq_table_free(struct sq_table *t)
{
	sq_snapshot_unref(t->snap);
	sq_filter_free(&t->filter);
	free(t->rows);
	free_strings(t->tags, t->ntags);
	free_strings(t->folds, t->nfolds);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------ text */

const char *
sq_table_cell(const struct sq_table *t, int i, const void *rec, char *buf,
	      size_t n)
{
	char raw[SQ_TABLE_CELL];
	const char *s = t->def->cols[t->cols[i]].text(rec, raw, sizeof(raw));

	return sq_sanitize(s ? s : "", buf, n);
}

const char *
sq_table_rowtext(const struct sq_table *t, const void *rec, char *buf, size_t n)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < t->ncols && o + 3 < n; i++) {
		char cell[SQ_TABLE_CELL];
		size_t l;

		sq_table_cell(t, i, rec, cell, sizeof(cell));
		if (i > 0) {
			buf[o++] = ' ';
			buf[o++] = ' ';
		}
		l = strlen(cell);
		if (o + l >= n)
			l = n - o - 1;
		memcpy(buf + o, cell, l);
		o += l;
		buf[o] = '\0';
	}
	return buf;
}

const char *
sq_table_id(const struct sq_table *t, const void *rec, char *buf, size_t n)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < t->nidcols; i++) {
		char raw[SQ_TABLE_CELL];
		const char *s =
		    t->def->cols[t->idcols[i]].text(rec, raw, sizeof(raw));
		int w = snprintf(buf + o, n - o, "%s%s", i ? "\x1f" : "",
				 s ? s : "");

		if (w < 0 || (size_t)w >= n - o)
			break;
		o += (size_t)w;
	}
	return buf;
}

/* ------------------------------------------------------------ sets */

static long
set_find(char **v, size_t n, const char *id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(v[mid], id);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1 - (long)lo;
}

static void
set_put(char ***v, size_t *n, size_t *cap, const char *id, int on)
{
	long i = set_find(*v, *n, id);

	if (on && i < 0) {
		size_t at = (size_t)(-1 - i);
		char *dup = strdup(id);

		if (dup == NULL)
			return;
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 16;
			char **p = realloc(*v, nc * sizeof(**v));

			if (p == NULL) {
				free(dup);
				return;
			}
			*v = p;
			*cap = nc;
		}
		memmove(*v + at + 1, *v + at, (*n - at) * sizeof(**v));
		(*v)[at] = dup;
		(*n)++;
	} else if (!on && i >= 0) {
		free((*v)[i]);
		memmove(*v + i, *v + i + 1, (*n - (size_t)i - 1) * sizeof(**v));
		(*n)--;
	}
}

int
sq_table_tagged(const struct sq_table *t, const char *id)
{
	return t->ntags > 0 && set_find(t->tags, t->ntags, id) >= 0;
}

void
sq_table_tag(struct sq_table *t, const char *id, int on)
{
	set_put(&t->tags, &t->ntags, &t->tcap, id, on);
}

void
sq_table_untag_all(struct sq_table *t)
{
	free_strings(t->tags, t->ntags);
	t->tags = NULL;
	t->ntags = t->tcap = 0;
}

int
sq_table_folded(const struct sq_table *t, const char *id)
{
	int flipped = t->nfolds > 0 && set_find(t->folds, t->nfolds, id) >= 0;

	return flipped ? !t->fold_default : t->fold_default;
}

void
sq_table_set_folded(struct sq_table *t, const char *id, int folded)
{
	set_put(&t->folds, &t->nfolds, &t->fcap, id, folded != t->fold_default);
}

/* ------------------------------------------------------------ rows */

int
sq_table_push(struct sq_table *t, const struct sq_table_row *r)
{
	if (t->nrows == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 256;
		struct sq_table_row *p = realloc(t->rows, nc * sizeof(*p));

		if (p == NULL)
			return -1;
		t->rows = p;
		t->cap = nc;
	}
	t->rows[t->nrows++] = *r;
	return 0;
}

struct sortkey {
	size_t rec;
	int missing;
	long long num;
	const char *txt;
};

static int sort_desc_; /* the comparator's direction (UI thread only) */

/* Natural order: digit runs compare as numbers ("n2" < "n10"). */
static int
natcmp(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			const char *x = a, *y = b;
			size_t lx, ly;

			while (*x == '0')
				x++;
			while (*y == '0')
				y++;
			lx = strspn(x, "0123456789");
			ly = strspn(y, "0123456789");
			if (lx != ly)
				return lx < ly ? -1 : 1;
			if (strncmp(x, y, lx) != 0)
				return strncmp(x, y, lx);
			a = x + lx;
			b = y + ly;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int
cmp_key(const void *pa, const void *pb)
{
	const struct sortkey *a = pa, *b = pb;
	int c = 0;

	/* rows without a value go last either way */
	if (a->missing != b->missing)
		return a->missing ? 1 : -1;
	if (!a->missing) {
		if (a->txt == NULL)
			c = a->num < b->num ? -1 : a->num > b->num;
		else
			c = natcmp(a->txt, b->txt);
		if (sort_desc_)
			c = -c;
	}
	if (c == 0)
		c = a->rec < b->rec ? -1 : a->rec > b->rec;
	return c;
}

static void
sort_rows(struct sq_table *t)
{
	const struct sq_column *col;
	struct sortkey *k;
	char *pool = NULL;
	size_t i, used = 0, cap = 0;

	if (t->sort < 0 || t->nrows < 2)
		return;
	col = &t->def->cols[t->sort];
	k = calloc(t->nrows, sizeof(*k));
	if (k == NULL)
		return;
	/* text keys go to one pool; offsets become pointers after */
	for (i = 0; i < t->nrows; i++) {
		const void *rec = sq_snapshot_row(t->snap, t->rows[i].rec);
		char buf[SQ_TABLE_CELL];
		const char *s = col->text(rec, buf, sizeof(buf));
		long long v;

		k[i].rec = t->rows[i].rec;
		k[i].missing = s == NULL;
		if (col->num != NULL && col->num(rec, &v) == 0) {
			k[i].num = v == SQ_INFINITE ? LLONG_MAX : v;
			if (v == SQ_NONE)
				k[i].missing = 1;
		} else if (s != NULL) {
			size_t l = strlen(s) + 1;

			if (used + l > cap) {
				size_t nc = cap ? cap * 2 : 65536;
				char *p;

				while (nc < used + l)
					nc *= 2;
				p = realloc(pool, nc);
				if (p == NULL)
					goto out;
				pool = p;
				cap = nc;
			}
			memcpy(pool + used, s, l);
			k[i].txt = (const char *)(used + 1); /* offset + 1 */
			used += l;
		}
	}
	for (i = 0; i < t->nrows; i++) {
		if (k[i].txt != NULL)
			k[i].txt = pool + ((size_t)k[i].txt - 1);
	}
	sort_desc_ = t->sort_desc;
	qsort(k, t->nrows, sizeof(*k), cmp_key);
	for (i = 0; i < t->nrows; i++) {
		t->rows[i].rec = k[i].rec;
		t->rows[i].depth = 0;
		t->rows[i].flags = 0;
		t->rows[i].hidden = 0;
	}
out:
	free(pool);
	free(k);
}

static void
compute_widths(struct sq_table *t)
{
	size_t i, n = t->nrows < 1000 ? t->nrows : 1000;
	int c;

	for (c = 0; c < t->ncols; c++) {
		const struct sq_column *col = &t->def->cols[t->cols[c]];
		int w = sq_width(col->title);

		if (t->cols[c] == t->sort)
			w++; /* the sort mark */
		if (w < 1)
			w = 1;
		t->widths[c] = w;
	}
	for (i = 0; i < n; i++) {
		const void *rec = sq_snapshot_row(t->snap, t->rows[i].rec);

		for (c = 0; c < t->ncols; c++) {
			char buf[SQ_TABLE_CELL];
			/* display columns (wcwidth), not code points */
			int w = sq_width(
			    sq_table_cell(t, c, rec, buf, sizeof(buf)));

			if (c == 0)
				w += 2 * t->rows[i].depth + 2;
			if (w > 40)
				w = 40;
			if (w > t->widths[c])
				t->widths[c] = w;
		}
	}
}

void
sq_table_rebuild(struct sq_table *t)
{
	size_t i;
	char text[4096], id[256];

	t->nrows = 0;
	if (t->snap == NULL) {
		t->cur = t->top = 0;
		return;
	}
	for (i = 0; i < t->snap->nrows; i++) {
		const void *rec = sq_snapshot_row(t->snap, i);
		struct sq_table_row r = { i, 0, 0, 0 };

		if (sq_filter_active(&t->filter)) {
			if (t->filter.re != NULL)
				sq_table_rowtext(t, rec, text, sizeof(text));
			if (!sq_filter_row(&t->filter, rec, text))
				continue;
		}
		if (sq_table_push(t, &r) == -1)
			break;
	}
	sort_rows(t);
	if (t->ops != NULL && t->ops->arrange != NULL)
		t->ops->arrange(t);
	/* the cursor stays on its row id when that row is still shown */
	if (t->cur_id[0] != '\0') {
		for (i = 0; i < t->nrows; i++) {
			const void *rec =
			    sq_snapshot_row(t->snap, t->rows[i].rec);

			if (strcmp(sq_table_id(t, rec, id, sizeof(id)),
				   t->cur_id) == 0) {
				t->cur = i;
				break;
			}
		}
	}
	if (t->cur >= t->nrows)
		t->cur = t->nrows ? t->nrows - 1 : 0;
	if (t->nrows > 0)
		sq_table_id(t, sq_snapshot_row(t->snap, t->rows[t->cur].rec),
			    t->cur_id, sizeof(t->cur_id));
	compute_widths(t);
}

void
sq_table_set_snapshot(struct sq_table *t, struct sq_snapshot *snap)
{
	if (snap != NULL)
		sq_snapshot_ref(snap);
	sq_snapshot_unref(t->snap);
	t->snap = snap;
	sq_table_rebuild(t);
}

int
sq_table_filter(struct sq_table *t, const char *text, char *err, size_t n)
{
	if (sq_filter_set(&t->filter, text, t->def, err, n) == -1)
		return -1;
	if (*text != '\0')
		snprintf(t->search, sizeof(t->search), "%s", text);
	sq_table_rebuild(t);
	return 0;
}

void
sq_table_sort(struct sq_table *t, int col, int desc)
{
	t->sort = col;
	t->sort_desc = desc;
	sq_table_rebuild(t);
}

int
sq_table_set_columns(struct sq_table *t, const char *list, char *err, size_t n)
{
	char buf[2048], *save = NULL, *tok;
	int cols[SQ_TABLE_MAX_COLS], nc = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok != NULL;
	     tok = strtok_r(NULL, ", ", &save)) {
		int c = col_index(t->def, tok);

		if (c < 0) {
			snprintf(err, n, "view %s has no column '%.40s'",
				 t->def->name, tok);
			return -1;
		}
		if (nc < SQ_TABLE_MAX_COLS)
			cols[nc++] = c;
	}
	if (nc == 0) {
		snprintf(err, n, "no columns given");
		return -1;
	}
	memcpy(t->cols, cols, (size_t)nc * sizeof(cols[0]));
	t->ncols = nc;
	if (t->curcol >= nc)
		t->curcol = nc - 1;
	/* the filter's regex ran over the old columns */
	if (sq_filter_active(&t->filter)) {
		char text[256], e[200];

		snprintf(text, sizeof(text), "%s", t->filter.text);
		sq_filter_set(&t->filter, text, t->def, e, sizeof(e));
	}
	sq_table_rebuild(t);
	return 0;
}

void
sq_table_columns_text(const struct sq_table *t, char *buf, size_t n)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < t->ncols; i++) {
		int w = snprintf(buf + o, n - o, "%s%s", i ? "," : "",
				 t->def->cols[t->cols[i]].id);

		if (w < 0 || (size_t)w >= n - o)
			break;
		o += (size_t)w;
	}
}

/* ------------------------------------------------------------ cursor */

void
sq_table_goto(struct sq_table *t, size_t row)
{
	if (t->nrows == 0) {
		t->cur = 0;
		t->cur_id[0] = '\0';
		return;
	}
	t->cur = row >= t->nrows ? t->nrows - 1 : row;
	sq_table_id(t, sq_snapshot_row(t->snap, t->rows[t->cur].rec), t->cur_id,
		    sizeof(t->cur_id));
}

void
sq_table_move(struct sq_table *t, long delta)
{
	long c = (long)t->cur + delta;

	if (c < 0)
		c = 0;
	sq_table_goto(t, (size_t)c);
}

int
sq_table_search(struct sq_table *t, int dir)
{
	struct sq_filter f;
	char err[200], text[4096];
	size_t i, n = t->nrows;
	int found = 0;

	if (t->search[0] == '\0' || n == 0)
		return 0;
	sq_filter_init(&f);
	if (sq_filter_set(&f, t->search, t->def, err, sizeof(err)) == -1)
		return 0;
	for (i = 1; i <= n; i++) {
		size_t r = dir > 0 ? (t->cur + i) % n : (t->cur + n - i) % n;
		const void *rec = sq_snapshot_row(t->snap, t->rows[r].rec);

		sq_table_rowtext(t, rec, text, sizeof(text));
		if (sq_filter_row(&f, rec, text)) {
			sq_table_goto(t, r);
			found = 1;
			break;
		}
	}
	sq_filter_free(&f);
	return found;
}

const void *
sq_table_cur(const struct sq_table *t)
{
	if (t->snap == NULL || t->nrows == 0)
		return NULL;
	return sq_snapshot_row(t->snap, t->rows[t->cur].rec);
}
