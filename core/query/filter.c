/*
 * filter.c - PCRE2 row filters and "@column=value" field terms (a value
 * may be quoted to hold spaces) for the table widget and batch mode's
 * --filter, plus the small host-list matcher field terms use. A bad
 * pattern is reported, never fatal; a pathological one hits the match
 * limit and simply does not match.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define HAVE_SSE2 1
#endif

#include "core/query/filter.h"

#define MATCH_LIMIT 200000
#define EXPAND_MAX 4096

void
sq_filter_init(struct sq_filter *f)
{
	memset(f, 0, sizeof(*f));
}

void
sq_filter_free(struct sq_filter *f)
{
	if (f->md != NULL)
		pcre2_match_data_free(f->md);
	if (f->re != NULL)
		pcre2_code_free(f->re);
	if (f->mctx != NULL)
		pcre2_match_context_free(f->mctx);
	sq_filter_init(f);
}

int
sq_filter_text_add(char *buf, size_t n, size_t *o, const char *cell, int first)
{
	size_t l;

	if (*o + 3 >= n)
		return 0;
	if (!first) {
		buf[(*o)++] = ' ';
		buf[(*o)++] = ' ';
	}
	l = strlen(cell);
	if (*o + l >= n)
		l = n - *o - 1;
	memcpy(buf + *o, cell, l);
	*o += l;
	buf[*o] = '\0';
	return *o + 3 < n;
}

int
sq_filter_active(const struct sq_filter *f)
{
	return f->text[0] != '\0';
}

static int
has_upper(const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s >= 'A' && *s <= 'Z')
			return 1;
	}
	return 0;
}

/* The first n bytes of a and b are equal (ASCII case folded if fold). */
static int
eqn(const char *a, const char *b, size_t n, int fold)
{
	return (fold ? strncasecmp(a, b, n) : strncmp(a, b, n)) == 0;
}

/*
 * The next space-separated term of *pos into tok (n bytes, at least as
 * long as the text): a quoted part ('...' or "...") keeps its spaces and
 * loses its quotes, so "@reason='Not responding'" is one term. Returns 1,
 * 0 at the end, -1 on a quote left open.
 */
static int
next_term(const char **pos, char *tok, size_t n)
{
	const char *p = *pos;
	size_t o = 0;
	char q = '\0';

	while (*p == ' ')
		p++;
	if (*p == '\0') {
		*pos = p;
		return 0;
	}
	for (; *p != '\0' && (q != '\0' || *p != ' '); p++) {
		if (q == '\0' && (*p == '"' || *p == '\'')) {
			q = *p;
			continue;
		}
		if (q != '\0' && *p == q) {
			q = '\0';
			continue;
		}
		if (o + 1 < n)
			tok[o++] = *p;
	}
	tok[o] = '\0';
	*pos = p;
	return q != '\0' ? -1 : 1;
}

/* "@col=value @col2='a value'" */
static int
parse_terms(struct sq_filter *f, const char *s, const struct sq_view_def *def,
	    char *err, size_t n)
{
	char tok[sizeof(f->text)];
	const char *pos = s;
	int rc;

	while ((rc = next_term(&pos, tok, sizeof(tok))) != 0) {
		char *eq = strchr(tok, '=');
		struct sq_filter_term *t;

		if (rc == -1) {
			snprintf(err, n, "field filter: a quote is not closed");
			return -1;
		}
		if (tok[0] != '@' || eq == NULL || eq == tok + 1) {
			snprintf(err, n,
				 "field filter: expected @column=value, "
				 "not '%.40s'",
				 tok);
			return -1;
		}
		if (f->nterms == SQ_FILTER_MAX_TERMS) {
			snprintf(err, n, "field filter: too many terms");
			return -1;
		}
		*eq = '\0';
		t = &f->terms[f->nterms];
		t->col = sq_view_column(def, tok + 1);
		if (t->col == NULL) {
			snprintf(err, n, "view %s has no column '%.40s'",
				 def->name, tok + 1);
			return -1;
		}
		snprintf(t->value, sizeof(t->value), "%s", eq + 1);
		t->fold = !has_upper(t->value);
		f->nterms++;
	}
	if (f->nterms == 0) {
		snprintf(err, n, "field filter: expected @column=value");
		return -1;
	}
	return 0;
}

/*
 * The literal start of regex p that every match contains: the bytes
 * before the first special character, less the last one when a
 * quantifier follows (ab?c needs "a"); none when the pattern has an
 * alternative (a|b) or starts with one.
 */
static void
literal_start(struct sq_filter *f, const char *p)
{
	size_t i = 0;

	f->litlen = 0;
	f->litall = 0;
	f->litfold = !has_upper(p);
	if (strchr(p, '|') != NULL)
		return;
	while (p[i] != '\0' && i + 1 < sizeof(f->lit) &&
	       (unsigned char)p[i] < 0x80 &&
	       strchr("\\^$.|?*+()[]{}", p[i]) == NULL)
		i++;
	f->litall = p[i] == '\0';
	if (p[i] == '?' || p[i] == '*' || p[i] == '{') {
		if (i > 0)
			i--;
		f->litall = 0;
	}
	memcpy(f->lit, p, i);
	f->lit[i] = '\0';
	f->litlen = i;
	if (i == 0)
		f->litall = 0;
}

int
sq_filter_set(struct sq_filter *f, const char *text,
	      const struct sq_view_def *def, char *err, size_t n)
{
	struct sq_filter nf;
	const char *p = text;
	int ecode;
	PCRE2_SIZE eoff;

	sq_filter_init(&nf);
	if (*p == '\0') {
		sq_filter_free(f);
		return 0;
	}
	if (strlen(text) >= sizeof(nf.text)) {
		snprintf(err, n, "filter too long");
		return -1;
	}
	snprintf(nf.text, sizeof(nf.text), "%s", text);
	if (*p == '!') {
		nf.invert = 1;
		p++;
	}
	if (*p == '\0') {
		snprintf(err, n, "empty pattern after '!'");
		return -1;
	}
	if (*p == '@') {
		if (parse_terms(&nf, p, def, err, n) == -1)
			return -1;
	} else {
		uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

		if (!has_upper(p))
			opts |= PCRE2_CASELESS;
		nf.re = pcre2_compile((PCRE2_SPTR)p, PCRE2_ZERO_TERMINATED,
				      opts, &ecode, &eoff, NULL);
		if (nf.re == NULL) {
			PCRE2_UCHAR msg[200];

			pcre2_get_error_message(ecode, msg, sizeof(msg));
			snprintf(err, n, "bad pattern: %s at offset %zu",
				 (char *)msg, (size_t)eoff);
			return -1;
		}
		/* JIT when available; the interpreter otherwise */
		pcre2_jit_compile(nf.re, PCRE2_JIT_COMPLETE);
		nf.md = pcre2_match_data_create_from_pattern(nf.re, NULL);
		nf.mctx = pcre2_match_context_create(NULL);
		if (nf.md == NULL || nf.mctx == NULL) {
			sq_filter_free(&nf);
			snprintf(err, n, "out of memory");
			return -1;
		}
		pcre2_set_match_limit(nf.mctx, MATCH_LIMIT);
		literal_start(&nf, p);
	}
	nf.ofree = nf.re == NULL ||
		   (nf.litall && memchr(nf.lit, ' ', nf.litlen) == NULL);
	sq_filter_free(f);
	*f = nf;
	return 0;
}

int
sq_filter_find(struct sq_filter *f, const char *text, size_t *so, size_t *eo)
{
	int rc;
	PCRE2_SIZE *ov;

	if (f->re == NULL)
		return 0;
	rc = pcre2_match(f->re, (PCRE2_SPTR)text, strlen(text), 0, 0, f->md,
			 f->mctx);
	if (rc < 0)
		return 0;
	ov = pcre2_get_ovector_pointer(f->md);
	*so = ov[0];
	*eo = ov[1];
	return 1;
}

/* ------------------------------------------------------------ lists */

/* Next top-level element of a list (commas inside [] do not split). */
static const char *
next_elem(const char *s, size_t *len)
{
	size_t i = 0;
	int depth = 0;

	if (*s == '\0')
		return NULL;
	while (s[i] != '\0' && (s[i] != ',' || depth > 0)) {
		if (s[i] == '[')
			depth++;
		else if (s[i] == ']' && depth > 0)
			depth--;
		i++;
	}
	*len = i;
	return s;
}

/*
 * The next range of a bracket list ending at rb, from *r (just after the
 * '[' at first): lo-hi (hi = lo for one number), a its first digit and w
 * the width of lo; *r past it and its ',', NULL when something else
 * follows it (the next call says -1). 1 a range, 0 the list is done, -1
 * not a range.
 */
static int
next_range(const char **r, const char *rb, const char **a, long *lo, long *hi,
	   size_t *w)
{
	char *end;

	if (*r == NULL)
		return -1;
	if (*r >= rb)
		return 0;
	*a = *r;
	*lo = *hi = strtol(*a, &end, 10);
	*w = (size_t)(end - *a);
	if (end == *a)
		return -1;
	*r = end;
	if (**r == '-') {
		*hi = strtol(*r + 1, &end, 10);
		*r = end;
	}
	if (**r == ',')
		(*r)++;
	else if (*r < rb)
		*r = NULL;
	return 1;
}

/* Does element e (len n, maybe "p[1-3,05]s") contain name? */
static int
elem_has(const char *e, size_t n, const char *name, int fold)
{
	const char *lb, *rb, *r, *a;
	size_t pl, sl, nl = strlen(name), ml, w;
	char mid[32];
	long v, lo, hi;

	if (n > 0 && e[n - 1] == '*')
		n--;
	lb = memchr(e, '[', n);
	if (lb == NULL)
		return n == nl && eqn(e, name, n, fold);
	rb = memchr(lb, ']', n - (size_t)(lb - e));
	if (rb == NULL)
		return 0;
	pl = (size_t)(lb - e);
	sl = n - (size_t)(rb - e) - 1;
	if (nl < pl + sl + 1 || !eqn(name, e, pl, fold) ||
	    !eqn(name + nl - sl, rb + 1, sl, fold))
		return 0;
	ml = nl - pl - sl;
	if (ml >= sizeof(mid))
		return 0;
	memcpy(mid, name + pl, ml);
	mid[ml] = '\0';
	if (strspn(mid, "0123456789") != ml)
		return 0;
	v = strtol(mid, NULL, 10);
	for (r = lb + 1; next_range(&r, rb, &a, &lo, &hi, &w) == 1;) {
		/* zero padding: n[01-10] names n01, not n1 */
		if (v >= lo && v <= hi &&
		    (a[0] == '0' && w > 1 ? ml == w : mid[0] != '0' || ml == 1))
			return 1;
	}
	return 0;
}

static int
list_has(const char *list, const char *name, int fold)
{
	const char *e;
	size_t n;

	for (e = next_elem(list, &n); e != NULL;
	     e = next_elem(e[n] == ',' ? e + n + 1 : e + n, &n)) {
		if (elem_has(e, n, name, fold))
			return 1;
	}
	return 0;
}

/* Is some name of element e (len n) in the list other? Expands at most
 * *budget names. */
static int
expand_elem(const char *e, size_t n, const char *other, int fold, int *budget)
{
	const char *lb, *rb, *r, *a;
	char name[256];
	long lo, hi, v;
	size_t w;

	if (n > 0 && e[n - 1] == '*')
		n--;
	lb = memchr(e, '[', n);
	rb = lb ? memchr(lb, ']', n - (size_t)(lb - e)) : NULL;
	if (lb == NULL || rb == NULL) {
		if (n >= sizeof(name))
			return 0;
		memcpy(name, e, n);
		name[n] = '\0';
		return list_has(other, name, fold);
	}
	for (r = lb + 1; next_range(&r, rb, &a, &lo, &hi, &w) == 1;) {
		for (v = lo; v <= hi; v++) {
			if (--*budget < 0)
				return 0;
			snprintf(name, sizeof(name), "%.*s%0*ld%.*s",
				 (int)(lb - e), e, a[0] == '0' ? (int)w : 1, v,
				 (int)(n - (size_t)(rb - e) - 1), rb + 1);
			if (list_has(other, name, fold))
				return 1;
			/* hi may be LONG_MAX (strtol saturates): no v++ */
			if (v == hi)
				break;
		}
	}
	return 0;
}

static int
overlap(const char *a, const char *b, int fold)
{
	const char *e;
	size_t n;
	int budget = EXPAND_MAX;

	for (e = next_elem(a, &n); e != NULL;
	     e = next_elem(e[n] == ',' ? e + n + 1 : e + n, &n)) {
		if (expand_elem(e, n, b, fold, &budget))
			return 1;
	}
	return 0;
}

int
sq_list_overlap(const char *a, const char *b)
{
	return overlap(a, b, 0);
}

/*
 * Does GRES element e (len n: "gres:gpu:a100:2", "gres/gpu:1",
 * "gpu:a100:2(IDX:0-1)") hold what value names: the whole element, or
 * its name ("gpu") or name and type ("gpu:a100") with a count that is
 * not 0 ("gpu:0(IDX:N/A)" of an idle node's GresUsed holds no GPU)?
 */
static int
gres_elem_has(const char *e, size_t n, const char *value, int fold)
{
	size_t vl = strlen(value);
	const char *p = memchr(e, '(', n), *last;

	if (p != NULL)
		n = (size_t)(p - e);
	if (n >= 5 && eqn(e, "gres", 4, 1) && (e[4] == ':' || e[4] == '/')) {
		e += 5;
		n -= 5;
	}
	if (n == vl && eqn(e, value, n, fold))
		return 1;
	if (n <= vl || !eqn(e, value, vl, fold) || e[vl] != ':')
		return 0;
	/* the part after the last ':' is the count when it is a number */
	for (last = e + n; last > e && last[-1] != ':'; last--)
		;
	return !(last == e + n - 1 && *last == '0');
}

/* Is a GRES named by value in the GRES list (commas inside "(...)" do
 * not split it)? */
static int
gres_has(const char *list, const char *value, int fold)
{
	const char *e = list;
	int depth = 0;
	size_t i;

	for (i = 0;; i++) {
		if (list[i] == '(')
			depth++;
		else if (list[i] == ')' && depth > 0)
			depth--;
		if (list[i] == '\0' || (list[i] == ',' && depth == 0)) {
			if (gres_elem_has(e, (size_t)(list + i - e), value,
					  fold))
				return 1;
			if (list[i] == '\0')
				return 0;
			e = list + i + 1;
		}
	}
}

/* @job_id=78 names the array 78: its tasks "78_1", "78_[2-9]" match. */
static int
array_task_of(const char *col, const char *value, const char *text)
{
	size_t n = strlen(value);

	return strcmp(col, "job_id") == 0 && n > 0 &&
	       strspn(value, "0123456789") == n &&
	       strncmp(text, value, n) == 0 && text[n] == '_';
}

int
sq_filter_row(struct sq_filter *f, const void *rec, const char *rowtext)
{
	return sq_filter_row_n(f, rec, rowtext,
			       f->re != NULL ? strlen(rowtext) : 0);
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

#ifdef HAVE_SSE2
/* Is f's literal at s (which has its length)? */
static int
lit_at(const struct sq_filter *f, const char *s)
{
	size_t k;

	for (k = 0; k < f->litlen; k++) {
		unsigned char c = (unsigned char)s[k];

		if ((f->litfold ? lower(c) : c) != (unsigned char)f->lit[k])
			return 0;
	}
	return 1;
}
#endif

/* Where text first contains f's literal (ASCII case folded when
 * f->litfold), or NULL. */
static const char *
find_lit(const struct sq_filter *f, const char *text, size_t len)
{
	const char *lit = f->lit, *end = text + len, *a, *b;
	size_t m = f->litlen, k;
	int c0 = (unsigned char)lit[0], c1;

	if (len < m)
		return NULL;
#ifdef HAVE_SSE2
	if (f->litfold && c0 >= 'a' && c0 <= 'z' && len >= 33) {
		/* either case of a letter: thirty-two places at a time where
		 * the literal's first two bytes are (a byte | 0x20 is both
		 * cases of a letter, and a few other bytes lit_at drops); the
		 * last block ends at the text's end (the second byte's block
		 * one after), over places seen */
		const char *p = text, *last = text + len - m,
			   *lastp = text + len - 32 - (m > 1);
		const __m128i fold = _mm_set1_epi8(0x20),
			      a0 = _mm_set1_epi8((char)c0),
			      a1 = _mm_set1_epi8((char)(lit[m > 1] | 0x20));

		for (;; p += 32) {
			const __m128i *q, *r;
			__m128i e0, e1;
			unsigned mask;

			if (p > lastp)
				p = lastp;
			q = (const __m128i *)p;
			r = (const __m128i *)(p + 1);
			e0 = _mm_cmpeq_epi8(
			    _mm_or_si128(_mm_loadu_si128(q), fold), a0);
			e1 = _mm_cmpeq_epi8(
			    _mm_or_si128(_mm_loadu_si128(q + 1), fold), a0);
			if (m > 1) {
				e0 = _mm_and_si128(
				    e0,
				    _mm_cmpeq_epi8(
					_mm_or_si128(_mm_loadu_si128(r), fold),
					a1));
				e1 = _mm_and_si128(
				    e1, _mm_cmpeq_epi8(
					    _mm_or_si128(_mm_loadu_si128(r + 1),
							 fold),
					    a1));
			}
			mask = (unsigned)_mm_movemask_epi8(e0) |
			       (unsigned)_mm_movemask_epi8(e1) << 16;
			for (; mask != 0; mask &= mask - 1) {
				const char *s = p + __builtin_ctz(mask);

				if (s <= last && lit_at(f, s))
					return s;
			}
			if (p == lastp)
				return NULL;
		}
	}
#endif
	/* no capital in the pattern: its letters match either case */
	c1 = f->litfold && c0 >= 'a' && c0 <= 'z' ? c0 - 32 : -1;
	a = memchr(text, c0, len);
	b = c1 < 0 ? NULL : memchr(text, c1, len);
	while (a != NULL || b != NULL) {
		const char *p = a == NULL ? b : b == NULL ? a : a < b ? a : b;

		if ((size_t)(end - p) < m)
			return NULL;
		for (k = 1; k < m && (f->litfold ? lower((unsigned char)p[k])
						 : p[k]) == lit[k];
		     k++)
			;
		if (k == m)
			return p;
		if (p == a)
			a = memchr(p + 1, c0, (size_t)(end - p - 1));
		else
			b = memchr(p + 1, c1, (size_t)(end - p - 1));
	}
	return NULL;
}

static int
has_lit(const struct sq_filter *f, const char *text, size_t len)
{
	return find_lit(f, text, len) != NULL;
}

int
sq_filter_row_text(struct sq_filter *f, const void *rec, const char *rowtext,
		   size_t len, int ascii)
{
	int m;

	if (!ascii || f->re == NULL || f->litlen == 0 || !sq_filter_active(f))
		return sq_filter_row_n(f, rec, rowtext, len);
	m = has_lit(f, rowtext, len);
	if (m && !f->litall)
		m = pcre2_match(f->re, (PCRE2_SPTR)rowtext, len, 0, 0, f->md,
				f->mctx) >= 0;
	return f->invert ? !m : m;
}

int
sq_filter_lit_cells(const struct sq_filter *f)
{
	return sq_filter_active(f) && f->re != NULL && f->litlen > 0 &&
	       memchr(f->lit, ' ', f->litlen) == NULL;
}

size_t
sq_filter_lit_marks(const struct sq_filter *f, const char *buf,
		    const uint32_t *start, size_t n, unsigned char *mark)
{
	size_t e = 0, hits = 0, len = n > 0 ? start[n] : 0;

	memset(mark, 0, n);
	while (e < n) {
		const char *p = find_lit(f, buf + start[e], len - start[e]);
		size_t at, step = 1, lo, hi;

		if (p == NULL)
			break;
		at = (size_t)(p - buf);
		/* the string that holds it: the last e with start[e] <= at,
		 * galloping from e (hits are often near each other) */
		while (e + step < n && start[e + step] <= at)
			step *= 2;
		lo = e + step / 2;
		hi = e + step < n ? e + step : n;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (start[mid] <= at)
				lo = mid;
			else
				hi = mid;
		}
		mark[lo] = 1;
		hits++;
		e = lo + 1;
	}
	return hits;
}

int
sq_filter_may_match(const struct sq_filter *f, const char *rowtext, size_t len,
		    int ascii)
{
	if (!ascii || f->re == NULL || f->litlen == 0 ||
	    memchr(f->lit, ' ', f->litlen) != NULL)
		return 1;
	return has_lit(f, rowtext, len);
}

int
sq_filter_row_n(struct sq_filter *f, const void *rec, const char *rowtext,
		size_t len)
{
	int m = 1, i;

	if (!sq_filter_active(f))
		return 1;
	if (f->re != NULL) {
		m = pcre2_match(f->re, (PCRE2_SPTR)rowtext, len, 0, 0, f->md,
				f->mctx) >= 0;
	} else {
		for (i = 0; i < f->nterms && m; i++) {
			char buf[256];
			const char *t =
			    f->terms[i].col->text(rec, buf, sizeof(buf));

			m = t != NULL &&
			    (overlap(f->terms[i].value, t, f->terms[i].fold) ||
			     array_task_of(f->terms[i].col->id,
					   f->terms[i].value, t) ||
			     ((f->terms[i].col->flags & SQ_COL_GRES) &&
			      gres_has(t, f->terms[i].value,
				       f->terms[i].fold)));
		}
	}
	return f->invert ? !m : m;
}
