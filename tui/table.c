/*
 * table.c - the table widget's logic: which rows are shown and in what
 * order (filter, sort, a view's arrangement), the cursor that follows its
 * row id across refreshes, tags, folds and the column set. No drawing and
 * no curses here (table_draw.c draws); UI thread only.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/order.h"
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

static void cache_drop(struct sq_table_cache *c);

void
sq_table_free(struct sq_table *t)
{
	sq_snapshot_unref(t->snap);
	sq_filter_free(&t->filter);
	free(t->rows);
	free_strings(t->tags, t->ntags);
	free_strings(t->folds, t->nfolds);
	if (t->cache != NULL)
		cache_drop(t->cache);
	free(t->cache);
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
	for (i = 0; i < t->ncols; i++) {
		char cell[SQ_TABLE_CELL];

		sq_table_cell(t, i, rec, cell, sizeof(cell));
		if (!sq_filter_text_add(buf, n, &o, cell, i == 0))
			break;
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

/* ------------------------------------------------------------ caches */

/*
 * At 100,000 jobs, making each row's text or sort key costs much more
 * than matching or comparing it, and a keystroke changes one input of a
 * rebuild only (one more letter of the filter, another sort column). So
 * while the snapshot stays, the table keeps: every snapshot row in sort
 * order for the last few sort columns, one bit per row for the last few
 * filters (over the columns mcols: erasing a letter finds the bits of the
 * shorter pattern again), and the rows' shown text that a regex runs over
 * (for the columns tcols; made only when a regex filter needs it). A new
 * snapshot invalidates them all but keeps their memory: fresh pages cost
 * more than the work at 100,000 rows on some machines, so nothing is
 * allocated per keystroke once the buffers have grown. Without memory for
 * one, rebuild works row by row as if it were not there.
 */
#define NORDERS 4   /* sort orders kept */
#define NMATCHES 16 /* filters' bits kept */

struct sq_table_cache {
	const struct sq_snapshot *snap; /* built for (t->snap holds a ref) */
	unsigned long tick;             /* for least recently used */

	struct sq_order_ws ws; /* sq_order_rows' scratch */
	struct {
		uint32_t *v;
		size_t cap;
		int ok, sort, desc;
		unsigned long used;
	} ord[NORDERS];
	uint32_t *order; /* the current one in ord[], NULL: snapshot order */
	int order_ok, sort, desc;

	struct {
		unsigned char *bits; /* bit i: snapshot row i passes */
		size_t cap;
		int ok;
		unsigned long used;
		char text[256]; /* as struct sq_filter's text */
	} mat[NMATCHES];
	unsigned char *match; /* the current one in mat[] */
	int match_ok, mcur;
	char mtext[256];
	int mcols[SQ_TABLE_MAX_COLS], mncols;

	struct sq_arena text; /* the rows' texts (no realloc: no copies) */
	const char **trow;    /* row i's text */
	uint32_t *tlen;       /* and its length */
	size_t tdone; /* rows made so far (sq_table_warm works in slices) */
	int text_ok;
	int tcols[SQ_TABLE_MAX_COLS], tncols;

	uint32_t *pre, *pre2; /* the last rebuild's rows before the */
	size_t pcap, pcap2;   /* arrangement, and the scratch of the next */
	size_t npre;
	int pre_ok, pre_all; /* pre_all: all rows, no filter (pre unset) */

	size_t cur_rec; /* the snapshot row of t->cur_id, when cur_ok */
	int cur_ok;
};

static void text_drop(struct sq_table_cache *c);

/* What was worked out for another snapshot goes; the memory stays. */
static void
cache_reset(struct sq_table_cache *c)
{
	int i;

	for (i = 0; i < NORDERS; i++)
		c->ord[i].ok = 0;
	for (i = 0; i < NMATCHES; i++)
		c->mat[i].ok = 0;
	c->order = NULL;
	c->order_ok = 0;
	c->match = NULL;
	c->match_ok = 0;
	c->pre_ok = 0;
	c->cur_ok = 0;
	text_drop(c);
	c->snap = NULL;
}

static void
cache_drop(struct sq_table_cache *c)
{
	int i;

	text_drop(c);
	sq_order_ws_free(&c->ws);
	for (i = 0; i < NORDERS; i++)
		free(c->ord[i].v);
	for (i = 0; i < NMATCHES; i++)
		free(c->mat[i].bits);
	free(c->trow);
	free(c->tlen);
	free(c->pre);
	free(c->pre2);
	memset(c, 0, sizeof(*c));
}

/* The cache for t->snap, reset when it was made for another; NULL on
 * ENOMEM. */
static struct sq_table_cache *
cache_get(struct sq_table *t)
{
	if (t->cache == NULL)
		t->cache = calloc(1, sizeof(*t->cache));
	if (t->cache != NULL && t->cache->snap != t->snap) {
		cache_reset(t->cache);
		t->cache->snap = t->snap;
	}
	return t->cache;
}

/* Grow-only buffer *p of *cap bytes to n bytes (contents lost). */
static void *
grow(void *p, size_t *cap, size_t n)
{
	void *q;

	if (*cap >= n)
		return p;
	free(p);
	*cap = 0;
	q = malloc(n);
	if (q != NULL)
		*cap = n;
	return q;
}

static int
same_cols(const struct sq_table *t, const int *cols, int ncols)
{
	return ncols == t->ncols &&
	       memcmp(cols, t->cols, (size_t)ncols * sizeof(*cols)) == 0;
}

/* Sort every snapshot row by the sort column into c->order: one of the
 * orders kept, or the least recently used one made again. */
static void
build_order(struct sq_table *t, struct sq_table_cache *c)
{
	size_t n = t->snap->nrows;
	int i, lru = 0;

	if (c->order_ok && c->sort == t->sort && c->desc == t->sort_desc)
		return;
	c->order = NULL;
	c->order_ok = 0;
	c->sort = t->sort;
	c->desc = t->sort_desc;
	if (t->sort < 0 || n < 2) {
		c->order_ok = 1;
		return;
	}
	if (n > UINT32_MAX)
		return;
	for (i = 0; i < NORDERS; i++) {
		if (c->ord[i].ok && c->ord[i].sort == t->sort &&
		    c->ord[i].desc == t->sort_desc) {
			c->ord[i].used = ++c->tick;
			c->order = c->ord[i].v;
			c->order_ok = 1;
			return;
		}
		if (!c->ord[i].ok ||
		    (c->ord[lru].ok && c->ord[i].used < c->ord[lru].used))
			lru = i;
	}
	c->ord[lru].ok = 0;
	c->ord[lru].v =
	    grow(c->ord[lru].v, &c->ord[lru].cap, n * sizeof(*c->ord[lru].v));
	if (c->ord[lru].v == NULL ||
	    sq_order_rows_ws(t->snap, &t->def->cols[t->sort], t->sort_desc,
			     c->ord[lru].v, &c->ws) == -1)
		/* no memory: snapshot order this time, another try next
		 * time */
		return;
	c->ord[lru].ok = 1;
	c->ord[lru].sort = t->sort;
	c->ord[lru].desc = t->sort_desc;
	c->ord[lru].used = ++c->tick;
	c->order = c->ord[lru].v;
	c->order_ok = 1;
}

static void
text_drop(struct sq_table_cache *c)
{
	sq_arena_free(&c->text);
	free(c->trow);
	free(c->tlen);
	c->trow = NULL;
	c->tlen = NULL;
	c->tdone = 0;
	c->text_ok = 0;
}

/*
 * The shown text of every snapshot row (sq_table_rowtext), for a regex:
 * made up to max more rows at a time, so the console can make it in idle
 * slices (sq_table_warm) before the first letter of a filter arrives.
 * Returns 1 when complete.
 */
static int
build_text(struct sq_table *t, struct sq_table_cache *c, size_t max)
{
	size_t n = t->snap->nrows, end;
	char row[4096];

	if (c->trow != NULL && !same_cols(t, c->tcols, c->tncols))
		text_drop(c);
	if (c->text_ok)
		return 1;
	if (c->trow == NULL) {
		c->trow = malloc((n ? n : 1) * sizeof(*c->trow));
		c->tlen = malloc((n ? n : 1) * sizeof(*c->tlen));
		if (c->trow == NULL || c->tlen == NULL) {
			text_drop(c);
			return 0;
		}
		c->tncols = t->ncols;
		memcpy(c->tcols, t->cols, sizeof(c->tcols));
	}
	end = max < n - c->tdone ? c->tdone + max : n;
	for (; c->tdone < end; c->tdone++) {
		const void *rec = sq_snapshot_row(t->snap, c->tdone);
		size_t l = strlen(sq_table_rowtext(t, rec, row, sizeof(row)));
		char *p = sq_arena_strndup(&c->text, row, l);

		if (p == NULL) {
			text_drop(c);
			return 0;
		}
		c->trow[c->tdone] = p;
		c->tlen[c->tdone] = (uint32_t)l;
	}
	if (c->tdone < n)
		return 0;
	c->text_ok = 1;
	return 1;
}

int
sq_table_warm(struct sq_table *t, size_t rows)
{
	struct sq_table_cache *c;

	if (t->snap == NULL)
		return 0;
	c = cache_get(t);
	if (c == NULL)
		return 0;
	if (build_text(t, c, rows))
		return 0;
	/* no memory for it: nothing more to do in idle time */
	return c->trow != NULL;
}

/* Does snapshot row i pass the filter? */
static int
row_passes(struct sq_table *t, const struct sq_table_cache *c, size_t i)
{
	const void *rec = sq_snapshot_row(t->snap, i);
	char text[4096];

	if (t->filter.re == NULL)
		return sq_filter_row(&t->filter, rec, "");
	if (c != NULL && c->text_ok)
		return sq_filter_row_n(&t->filter, rec, c->trow[i], c->tlen[i]);
	sq_table_rowtext(t, rec, text, sizeof(text));
	return sq_filter_row(&t->filter, rec, text);
}

/* A filter that is a plain word: no regex syntax, no '!' or '@'. Adding
 * a letter to one can only drop rows; taking one away can only add. */
static int
literal(const char *f)
{
	if (*f == '\0' || *f == '!' || *f == '@')
		return 0;
	return strpbrk(f, "\\^$.|?*+()[]{}") == NULL;
}

/* The bits of filter text cur from the kept ones: 1 when found. */
static int
match_kept(struct sq_table_cache *c, const char *cur, int *lru)
{
	int k;

	*lru = -1;
	for (k = 0; k < NMATCHES; k++) {
		if (c->mat[k].ok && strcmp(c->mat[k].text, cur) == 0) {
			c->mat[k].used = ++c->tick;
			c->match = c->mat[k].bits;
			c->mcur = k;
			c->match_ok = 1;
			snprintf(c->mtext, sizeof(c->mtext), "%s", cur);
			return 1;
		}
		if (k != c->mcur || !c->match_ok) {
			if (*lru < 0 || !c->mat[k].ok ||
			    (c->mat[*lru].ok &&
			     c->mat[k].used < c->mat[*lru].used))
				*lru = k;
		}
	}
	return 0;
}

/* One bit per snapshot row: does it pass the filter? */
static void
build_match(struct sq_table *t, struct sq_table_cache *c)
{
	size_t n = t->snap->nrows, nb = n / 8 + 1, i;
	const char *cur = t->filter.text;
	unsigned char *bits;
	int grow_ = 0, shrink = 0, k, lru;

	if (!same_cols(t, c->mcols, c->mncols)) {
		/* the text a regex ran over changed */
		for (k = 0; k < NMATCHES; k++)
			c->mat[k].ok = 0;
		c->match_ok = 0;
		c->mncols = t->ncols;
		memcpy(c->mcols, t->cols, sizeof(c->mcols));
	}
	if (c->match_ok && strcmp(c->mtext, cur) == 0)
		return;
	if (match_kept(c, cur, &lru))
		return;
	/* one letter typed or erased in a plain word: the rows that matched
	 * before are all the candidates (typed), or all match still (erased) */
	if (c->match_ok && literal(c->mtext) && literal(cur)) {
		size_t lo = strlen(c->mtext), ln = strlen(cur);

		grow_ = ln > lo && strncmp(cur, c->mtext, lo) == 0;
		shrink = ln < lo && strncmp(cur, c->mtext, ln) == 0;
	}
	c->mat[lru].ok = 0;
	bits = grow(c->mat[lru].bits, &c->mat[lru].cap, nb);
	c->mat[lru].bits = bits;
	if (bits == NULL) {
		c->match_ok = 0;
		return;
	}
	if (grow_ || shrink)
		memcpy(bits, c->match, nb);
	else
		memset(bits, 0, nb);
	c->match_ok = 0;
	if (t->filter.re != NULL)
		build_text(t, c, SIZE_MAX);
	for (i = 0; i < n; i++) {
		unsigned char bit = (unsigned char)(1u << (i % 8));
		int was = (bits[i / 8] & bit) != 0;

		if ((grow_ && !was) || (shrink && was))
			continue;
		if (row_passes(t, c, i))
			bits[i / 8] |= bit;
		else
			bits[i / 8] &= (unsigned char)~bit;
	}
	c->mat[lru].ok = 1;
	c->mat[lru].used = ++c->tick;
	snprintf(c->mat[lru].text, sizeof(c->mat[lru].text), "%s", cur);
	c->match = bits;
	c->mcur = lru;
	c->match_ok = 1;
	snprintf(c->mtext, sizeof(c->mtext), "%s", cur);
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

/* Is rec the row with this id? Like comparing sq_table_id(), without
 * printing it when one column makes the id (the common case). */
static int
row_has_id(const struct sq_table *t, const void *rec, const char *id)
{
	char buf[256], raw[SQ_TABLE_CELL];
	const char *s;

	if (t->nidcols != 1)
		return strcmp(sq_table_id(t, rec, buf, sizeof(buf)), id) == 0;
	s = t->def->cols[t->idcols[0]].text(rec, raw, sizeof(raw));
	/* sq_table_id keeps sizeof(buf) - 1 bytes of it */
	return strncmp(s ? s : "", id, sizeof(buf) - 1) == 0 &&
	       (strlen(id) == sizeof(buf) - 1 || strcmp(s ? s : "", id) == 0);
}

/* Does the row id name one row only (a job id, a node name)? Then the
 * cursor's row is found again by its snapshot row while the snapshot
 * stays, without the text of every row before it. */
static int
id_unique(const struct sq_table *t)
{
	const char *id;

	if (t->nidcols != 1)
		return 0;
	id = t->def->cols[t->idcols[0]].id;
	return strcmp(id, "job_id") == 0 ||
	       (t->def->kind == SQ_KIND_NODES && strcmp(id, "node") == 0);
}

/* Put the cursor on the row with t->cur_id, when one is shown. */
static void
find_cursor(struct sq_table *t, struct sq_table_cache *c)
{
	size_t i;

	if (t->cur_id[0] == '\0')
		return;
	if (c != NULL && c->cur_ok && id_unique(t)) {
		for (i = 0; i < t->nrows; i++) {
			if (t->rows[i].rec == c->cur_rec) {
				t->cur = i;
				return;
			}
		}
		return;
	}
	for (i = 0; i < t->nrows; i++) {
		const void *rec = sq_snapshot_row(t->snap, t->rows[i].rec);

		if (row_has_id(t, rec, t->cur_id)) {
			t->cur = i;
			return;
		}
	}
}

/* The cursor is on row t->cur now: remember its id (and snapshot row). */
static void
set_cursor_id(struct sq_table *t)
{
	struct sq_table_cache *c = t->cache;

	sq_table_id(t, sq_snapshot_row(t->snap, t->rows[t->cur].rec), t->cur_id,
		    sizeof(t->cur_id));
	if (c != NULL && c->snap == t->snap) {
		c->cur_rec = t->rows[t->cur].rec;
		c->cur_ok = 1;
	}
}

/* The sorted rows that pass the filter into c->pre2 (then swapped into
 * c->pre); -1 without memory. 1 when filter_only and they are the rows
 * of the last rebuild (c->pre), in the same order. */
static int
build_pre(struct sq_table *t, struct sq_table_cache *c, int filt,
	  int filter_only)
{
	size_t n = t->snap->nrows, i, np = 0;
	uint32_t *pre, *sw;
	size_t swc;

	if (!filt) {
		if (filter_only && c->pre_ok && c->pre_all)
			return 1;
		c->pre_ok = c->pre_all = 1;
		c->npre = n;
		return 0;
	}
	if (n > UINT32_MAX)
		return -1;
	pre = grow(c->pre2, &c->pcap2, (n ? n : 1) * sizeof(*pre));
	c->pre2 = pre;
	if (pre == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		size_t rec = c->order != NULL ? c->order[i] : i;

		if (!(c->match_ok ? (c->match[rec / 8] >> (rec % 8)) & 1
				  : row_passes(t, c, rec)))
			continue;
		pre[np++] = (uint32_t)rec;
	}
	if (filter_only && c->pre_ok && !c->pre_all && np == c->npre &&
	    memcmp(pre, c->pre, np * sizeof(*pre)) == 0)
		return 1;
	sw = c->pre;
	swc = c->pcap;
	c->pre = c->pre2;
	c->pcap = c->pcap2;
	c->pre2 = sw;
	c->pcap2 = swc;
	c->npre = np;
	c->pre_ok = 1;
	c->pre_all = 0;
	return 0;
}

/*
 * Rebuild t->rows. filter_only: only the filter changed since the last
 * rebuild (sq_table_filter); when the rows it keeps are the very rows
 * shown, in the same order, the arrangement, cursor and widths stay as
 * they are (typing "acct" into the filter of a queue where every row has
 * an account changes nothing four times).
 */
static void
rebuild(struct sq_table *t, int filter_only)
{
	struct sq_table_cache *c;
	size_t i, n, np = 0;
	int filt, pre = -1;

	if (t->snap == NULL) {
		t->nrows = 0;
		t->cur = t->top = 0;
		return;
	}
	n = t->snap->nrows;
	c = cache_get(t);
	filt = sq_filter_active(&t->filter);
	if (c != NULL) {
		build_order(t, c);
		if (filt)
			build_match(t, c);
		pre = build_pre(t, c, filt, filter_only);
		if (pre == 1)
			return;
		np = c->npre;
	}
	t->nrows = 0;
	if (pre == 0 && np > t->cap) {
		struct sq_table_row *r = realloc(t->rows, np * sizeof(*r));

		if (r != NULL) {
			t->rows = r;
			t->cap = np;
		}
	}
	if (pre == 0 && t->cap >= np) {
		/* c->pre, or every row in order without a filter */
		const uint32_t *v = c->pre_all ? c->order : c->pre;

		for (i = 0; i < np; i++) {
			struct sq_table_row r = { v != NULL ? v[i] : i, 0, 0,
						  0 };

			t->rows[i] = r;
		}
		t->nrows = np;
	} else {
		for (i = 0; i < n; i++) {
			size_t rec =
			    c != NULL && c->order != NULL ? c->order[i] : i;
			struct sq_table_row r = { rec, 0, 0, 0 };

			if (filt && !row_passes(t, c, rec))
				continue;
			if (sq_table_push(t, &r) == -1)
				break;
		}
	}
	if (t->ops != NULL && t->ops->arrange != NULL)
		t->ops->arrange(t);
	/* the cursor stays on its row id when that row is still shown */
	find_cursor(t, c);
	if (t->cur >= t->nrows)
		t->cur = t->nrows ? t->nrows - 1 : 0;
	if (t->nrows > 0)
		set_cursor_id(t);
	compute_widths(t);
}

void
sq_table_rebuild(struct sq_table *t)
{
	rebuild(t, 0);
}

void
sq_table_set_snapshot(struct sq_table *t, struct sq_snapshot *snap)
{
	if (snap != NULL)
		sq_snapshot_ref(snap);
	/* what was worked out for the old rows goes with them (the memory
	 * stays for the new ones) */
	if (snap != t->snap && t->cache != NULL)
		cache_reset(t->cache);
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
	rebuild(t, 1);
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
	set_cursor_id(t);
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
