/*
 * order.c - the order of a snapshot's rows by one column, as the console
 * and batch mode sort them: numbers as numbers, text in natural order
 * ("n2" before "n10"), rows without a value last either way, ties by
 * job id for the kinds whose rows are jobs (else in snapshot order: the
 * queue's order changes from one squeue to the next). Radix sorts keep 100,000
 * rows in milliseconds; their scratch memory can be kept from one sort to the
 * next (struct sq_order_ws): fresh pages cost more than the sort on some
 * machines.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/query/order.h"
#include "core/query/order_int.h"

void *
sq_order_ws_get(struct sq_order_ws *w, int i, size_t n, int keep)
{
	void *p;

	if (n == 0)
		n = 1;
	if (w->cap[i] >= n)
		return w->buf[i];
	if (keep) {
		p = realloc(w->buf[i], n);
	} else {
		free(w->buf[i]);
		w->buf[i] = NULL;
		w->cap[i] = 0;
		p = malloc(n);
	}
	if (p == NULL)
		return NULL;
	w->buf[i] = p;
	w->cap[i] = n;
	return p;
}

void
sq_order_ws_free(struct sq_order_ws *w)
{
	size_t i;

	for (i = 0; i < SQ_ORDER_WS_BUFS; i++)
		free(w->buf[i]);
	memset(w, 0, sizeof(*w));
}

struct sortkey {
	size_t rec;
	size_t seq; /* its place in tie order */
	int missing;
	int pooled; /* txt is an offset + 1 into the pool until fixed up */
	long long num;
	const char *txt;
};

/* the comparator's direction: qsort has no context argument (one per
 * thread: the UI thread and the console's sort thread, table_prep.c) */
static _Thread_local int sort_desc_;

/* Do a and b hold the same value (cmp_key without the row)? */
static int
same_val(const struct sortkey *a, const struct sortkey *b)
{
	if (a->missing || b->missing)
		return a->missing == b->missing;
	if (a->txt == NULL || b->txt == NULL)
		return a->txt == b->txt && a->num == b->num;
	return a->txt == b->txt || sq_order_natcmp(a->txt, b->txt) == 0;
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
		else if (a->txt != b->txt) /* the same string: equal */
			c = sq_order_natcmp(a->txt, b->txt);
		if (sort_desc_)
			c = -c;
	}
	if (c == 0)
		c = a->seq < b->seq ? -1 : a->seq > b->seq;
	return c;
}

/* Stable LSD radix sort by k (ties keep their order): O(n), where
 * qsort's comparisons cost tens of milliseconds at 100,000 rows. The
 * general case: eight passes of a byte over 16-byte elements. */
static int
radix_sort(struct rkey *a, size_t n, struct sq_order_ws *w)
{
	struct rkey *tmp = sq_order_ws_get(w, WS_TMP, n * sizeof(*tmp), 0),
		    *src = a, *dst = tmp;
	size_t cnt[8][256], i;
	int b;

	if (tmp == NULL)
		return -1;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++) {
		for (b = 0; b < 8; b++)
			cnt[b][(a[i].k >> (8 * b)) & 0xff]++;
	}
	for (b = 0; b < 8; b++) {
		size_t sum = 0, v, *c = cnt[b];

		/* a byte all keys share changes nothing */
		if (c[(a[0].k >> (8 * b)) & 0xff] == n)
			continue;
		for (v = 0; v < 256; v++) {
			size_t x = c[v];

			c[v] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++)
			dst[c[(src[i].k >> (8 * b)) & 0xff]++] = src[i];
		dst = src;
		src = src == a ? tmp : a;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	return 0;
}

#define NARROW_DIGIT 11 /* bits of a digit of the narrow sort */
#define NARROW_PASSES 3 /* 33 bits: enough for 32 */

/*
 * The rows of a[] (n of them, in ascending rec order) into order by k,
 * ties in rec order. Keys whose spread (max - min) fits 32 bits (ranks of
 * texts, most numbers: priorities, times, ids) are sorted as one 8-byte
 * word each, (k - min) << 32 | rec, in as few passes of at most 11 bits
 * as the spread needs: half the memory traffic of radix_sort and at most
 * three passes (at a million rows the passes are the cost). Wider keys
 * go through radix_sort. -1 on ENOMEM.
 */
static void
tie(unsigned char *ties, size_t i)
{
	ties[i / 8] |= (unsigned char)(1u << (i % 8));
}

int
sq_order_radix(struct rkey *a, size_t n, uint32_t *order, unsigned char *ties,
	       struct sq_order_ws *w)
{
	uint64_t lo, hi, *v, *t, *src, *dst;
	size_t cnt[NARROW_PASSES][1u << NARROW_DIGIT], i;
	unsigned bits, passes, dig, p;

	if (n == 0)
		return 0;
	lo = hi = a[0].k;
	for (i = 1; i < n; i++) {
		if (a[i].k < lo)
			lo = a[i].k;
		if (a[i].k > hi)
			hi = a[i].k;
	}
	if (hi - lo > UINT32_MAX) {
		if (radix_sort(a, n, w) == -1)
			return -1;
		for (i = 0; i < n; i++) {
			order[i] = a[i].rec;
			if (ties != NULL && i > 0 && a[i].k == a[i - 1].k)
				tie(ties, i);
		}
		return 0;
	}
	for (bits = 0; bits < 32 && ((hi - lo) >> bits) != 0; bits++)
		;
	passes = (bits + NARROW_DIGIT - 1) / NARROW_DIGIT;
	if (passes == 0) {
		/* every key the same: rec order */
		for (i = 0; i < n; i++) {
			order[i] = a[i].rec;
			if (ties != NULL && i > 0)
				tie(ties, i);
		}
		return 0;
	}
	dig = (bits + passes - 1) / passes;
	/* the two word arrays share the workspace's 16-byte scratch */
	t = sq_order_ws_get(w, WS_TMP, n * sizeof(struct rkey), 0);
	if (t == NULL)
		return -1;
	v = t;
	t = v + n;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++) {
		uint64_t k = a[i].k - lo;

		v[i] = k << 32 | a[i].rec;
		for (p = 0; p < passes; p++)
			cnt[p][(k >> (p * dig)) & ((1u << dig) - 1)]++;
	}
	src = v;
	dst = t;
	for (p = 0; p < passes; p++) {
		size_t sum = 0, x, *c = cnt[p];
		unsigned sh = 32 + p * dig, mask = (1u << dig) - 1, d;

		for (d = 0; d <= mask; d++) {
			x = c[d];
			c[d] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++)
			dst[c[(src[i] >> sh) & mask]++] = src[i];
		dst = src;
		src = src == v ? t : v;
	}
	for (i = 0; i < n; i++) {
		order[i] = (uint32_t)src[i];
		if (ties != NULL && i > 0 && src[i] >> 32 == src[i - 1] >> 32)
			tie(ties, i);
	}
	return 0;
}

static int
cmp_txt(const void *pa, const void *pb)
{
	return sq_order_natcmp(*(const char *const *)pa,
			       *(const char *const *)pb);
}

static size_t
ptr_hash(const char *p, size_t mask)
{
	return (size_t)(((uintptr_t)p >> 3) * 2654435761u) & mask;
}

/*
 * The present (not missing) keys as numbers that order like cmp_key:
 * numbers as they are, strings by the rank of their text among the
 * distinct strings (parsers share one copy of equal strings, so a user
 * or state column has few to compare). 0, or -1 when that does not work
 * (numbers and strings mixed, ENOMEM): then qsort.
 */
/* The slot of p in an open-addressing table of cap (a power of two). */
static size_t
slot_of(const char *const *slot, size_t cap, const char *p)
{
	size_t h;

	for (h = ptr_hash(p, cap - 1); slot[h] != NULL && slot[h] != p;
	     h = (h + 1) & (cap - 1))
		;
	return h;
}

/* A table twice the size, in the workspace buffer the old one is not
 * in (*which says which holds it). */
static int
slots_grow(struct sq_order_ws *w, const char ***slot, size_t *cap, int *which)
{
	size_t ncap = *cap ? *cap * 2 : 256, i;
	int to = *which == WS_SLOT ? WS_SLOT2 : WS_SLOT;
	const char **ns = sq_order_ws_get(w, to, ncap * sizeof(*ns), 0);

	if (ns == NULL)
		return -1;
	memset(ns, 0, ncap * sizeof(*ns));
	for (i = 0; i < *cap; i++) {
		if ((*slot)[i] != NULL)
			ns[slot_of(ns, ncap, (*slot)[i])] = (*slot)[i];
	}
	*slot = ns;
	*cap = ncap;
	*which = to;
	return 0;
}

/*
 * Replace the string pointers in a[].k by the rank of their text among
 * the distinct strings (parsers share one copy of equal strings, so a
 * user or state column has few to compare): equal text, equal rank.
 * -1 on ENOMEM.
 */
static int
rank_texts(struct rkey *a, size_t m, struct sq_order_ws *w)
{
	const char **uniq, **slot = NULL;
	uint32_t *rank;
	size_t i, nu = 0, cap = 0;
	int which = WS_SLOT2;

	for (i = 0; i < m; i++) {
		const char *p = (const char *)(uintptr_t)a[i].k;
		size_t h;

		/* distinct strings: a table that grows with them */
		if ((nu + 1) * 2 > cap &&
		    slots_grow(w, &slot, &cap, &which) == -1)
			return -1;
		h = slot_of(slot, cap, p);
		if (slot[h] == NULL) {
			slot[h] = p;
			nu++;
		}
	}
	if (nu == 0)
		return 0;
	uniq = sq_order_ws_get(w, WS_UNIQ, nu * sizeof(*uniq), 0);
	rank = sq_order_ws_get(w, WS_RANK, cap * sizeof(*rank), 0);
	if (uniq == NULL || rank == NULL)
		return -1;
	for (i = 0, nu = 0; i < cap; i++) {
		if (slot[i] != NULL)
			uniq[nu++] = slot[i];
	}
	qsort(uniq, nu, sizeof(*uniq), cmp_txt);
	for (i = 0; i < nu; i++) {
		uint32_t r = (uint32_t)i;

		if (i > 0 && sq_order_natcmp(uniq[i - 1], uniq[i]) == 0)
			r = rank[slot_of(slot, cap, uniq[i - 1])];
		rank[slot_of(slot, cap, uniq[i])] = r;
	}
	for (i = 0; i < m; i++)
		a[i].k =
		    rank[slot_of(slot, cap, (const char *)(uintptr_t)a[i].k)];
	return 0;
}

/*
 * The present (not missing) keys as numbers that order like cmp_key:
 * numbers as they are, strings by their rank. 0, or -1 when that does
 * not work (numbers and strings mixed, ENOMEM): then qsort.
 */
static int
radix_keys(const struct sortkey *k, size_t n, int desc, struct rkey *out,
	   size_t *nout, struct sq_order_ws *w)
{
	size_t i, m = 0, ntxt = 0;

	for (i = 0; i < n; i++) {
		if (k[i].missing)
			continue;
		if (k[i].txt == NULL) {
			out[m].k = (uint64_t)k[i].num ^ ((uint64_t)1 << 63);
		} else {
			out[m].k = (uintptr_t)k[i].txt; /* a rank once known */
			ntxt++;
		}
		out[m++].rec = (uint32_t)k[i].rec;
	}
	if (ntxt != 0 && ntxt != m)
		return -1;
	if (ntxt != 0 && rank_texts(out, m, w) == -1)
		return -1;
	if (desc) {
		for (i = 0; i < m; i++)
			out[i].k = ~out[i].k;
	}
	*nout = m;
	return 0;
}

/* A string made in buf (not the record's own) goes to the workspace's
 * pool: its offset there, or -1 on ENOMEM. */
static long long
pool_add(struct sq_order_ws *w, size_t *used, const char *s)
{
	size_t l = strlen(s) + 1, at = *used;

	if (at + l > w->cap[WS_POOL]) {
		size_t nc = w->cap[WS_POOL] ? w->cap[WS_POOL] * 2 : 65536;

		while (nc < at + l)
			nc *= 2;
		if (sq_order_ws_get(w, WS_POOL, nc, 1) == NULL)
			return -1;
	}
	memcpy((char *)w->buf[WS_POOL] + at, s, l);
	*used = at + l;
	return (long long)at;
}

static int
in_buf(const char *s, const char *buf, size_t n)
{
	return (uintptr_t)s >= (uintptr_t)buf &&
	       (uintptr_t)s < (uintptr_t)buf + n;
}

/*
 * A text column (no col->num) straight into radix keys by rank: 16 bytes
 * of scratch a row, no per-row record. -1 on ENOMEM.
 */
static int
order_text(const struct sq_snapshot *snap, const struct sq_column *col,
	   int desc, uint32_t *order, unsigned char *ties, size_t *npres,
	   const uint32_t *perm, struct sq_order_ws *w)
{
	const uint64_t pooled = (uint64_t)1 << 63;
	size_t n = snap->nrows, i, j, m = 0, nmiss = 0, used = 0;
	struct rkey *rk = sq_order_ws_get(w, WS_RK, n * sizeof(*rk), 0);
	uint32_t *miss = sq_order_ws_get(w, WS_MISS, n * sizeof(*miss), 0);
	int inpool = 0;

	if (rk == NULL || miss == NULL)
		return -1;
	/* the rows in their order (the memory's); to tie order after */
	for (i = 0; i < n; i++) {
		char buf[SQ_ORDER_CELL];
		const char *s =
		    col->text(sq_snapshot_row(snap, i), buf, sizeof(buf));

		j = perm != NULL ? i : m;
		if (s == NULL && perm != NULL) {
			rk[i].rec = SQ_ORDER_NOVAL;
			continue;
		}
		if (s == NULL) {
			miss[nmiss++] = (uint32_t)i;
			continue;
		}
		if (in_buf(s, buf, sizeof(buf))) {
			long long at = pool_add(w, &used, s);

			if (at < 0)
				return -1;
			rk[j].k = (uint64_t)at | pooled;
			inpool = 1;
		} else {
			/* the record's own string: it lives as long as the
			 * snapshot, no copy */
			rk[j].k = (uintptr_t)s;
		}
		rk[j].rec = (uint32_t)i;
		m++;
	}
	if (perm != NULL) {
		m = 0;
		rk = sq_order_tie_gather(rk, n, perm, miss, &m, &nmiss, w);
		if (rk == NULL)
			return -1;
	}
	/* the pool moved as it grew: offsets become pointers now */
	for (i = 0; inpool && i < m; i++) {
		if (rk[i].k & pooled)
			rk[i].k = (uintptr_t)((char *)w->buf[WS_POOL] +
					      (rk[i].k & ~pooled));
	}
	if (rank_texts(rk, m, w) == -1)
		return -1;
	for (i = 0; desc && i < m; i++)
		rk[i].k = ~rk[i].k;
	if (sq_order_radix(rk, m, order, ties, w) == -1)
		return -1;
	memcpy(order + m, miss, nmiss * sizeof(*miss));
	*npres = m;
	return 0;
}

/*
 * A numeric column straight into radix keys, without the text of a cell
 * unless its value is negative (SQ_NONE, SQ_INFINITE): order as cmp_key
 * would. -1 when a row has no number (then the general path), or ENOMEM.
 */
static int
order_numeric(const struct sq_snapshot *snap, const struct sq_column *col,
	      int desc, uint32_t *order, unsigned char *ties, size_t *npres,
	      const uint32_t *perm, struct sq_order_ws *w)
{
	size_t n = snap->nrows, i, j, m = 0, nmiss = 0;
	struct rkey *rk = sq_order_ws_get(w, WS_RK, n * sizeof(*rk), 0);
	uint32_t *miss = sq_order_ws_get(w, WS_MISS, n * sizeof(*miss), 0);
	const uint64_t sign = (uint64_t)1 << 63;
	int rc = -1;

	if (rk == NULL || miss == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		const void *rec = sq_snapshot_row(snap, i);
		char buf[SQ_ORDER_CELL];
		long long v;

		/* in row order (the memory's); to tie order after */
		j = perm != NULL ? i : m;
		if (col->num(rec, &v) != 0)
			goto out;
		if (v < 0 && (col->text(rec, buf, sizeof(buf)) == NULL ||
			      v == SQ_NONE)) {
			if (perm != NULL)
				rk[i].rec = SQ_ORDER_NOVAL;
			else
				miss[nmiss++] = (uint32_t)i;
			continue;
		}
		if (v == SQ_INFINITE)
			v = LLONG_MAX;
		rk[j].k = (uint64_t)v ^ sign;
		if (desc)
			rk[j].k = ~rk[j].k;
		rk[j].rec = (uint32_t)i;
		m++;
	}
	if (perm != NULL) {
		m = 0;
		rk = sq_order_tie_gather(rk, n, perm, miss, &m, &nmiss, w);
		if (rk == NULL)
			goto out;
	}
	/* the sorted rows with a value, then those without */
	if (sq_order_radix(rk, m, order, ties, w) == -1)
		goto out;
	memcpy(order + m, miss, nmiss * sizeof(*miss));
	*npres = m;
	rc = 0;
out:
	return rc;
}

int
sq_order_ws_reserve(struct sq_order_ws *w, size_t n)
{
	const int which[] = { WS_RK, WS_TMP, WS_MISS, WS_PERM, WS_RK2 };
	const size_t size[] = { n * sizeof(struct rkey),
				n * sizeof(struct rkey), n * sizeof(uint32_t),
				n * sizeof(uint32_t), n * sizeof(struct rkey) };
	size_t i;

	for (i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		void *p;

		if (w->cap[which[i]] >= size[i])
			continue;
		/* a new buffer: the tie order kept in the old one is gone */
		if (which[i] == WS_PERM)
			w->perm_serial = 0;
		p = sq_order_ws_get(w, which[i], size[i], 0);
		if (p == NULL)
			return -1;
		/* its pages now, not in the first sort */
		memset(p, 0, size[i]);
	}
	return 0;
}

int
sq_order_rows(const struct sq_snapshot *snap, const struct sq_column *col,
	      int desc, uint32_t *order)
{
	struct sq_order_ws w;
	int rc;

	memset(&w, 0, sizeof(w));
	rc = sq_order_rows_ws(snap, col, desc, order, &w);
	sq_order_ws_free(&w);
	return rc;
}

/* sq_order_rows_ws, and when ties is not NULL (zeroed, n / 8 + 1 bytes)
 * a bit per place of order: the row has the value of the one before;
 * *npres the rows with a value (they come first). */
/* The sort key of every row (in tie order perm) into k: its number, or
 * its text (the record's own string, or a copy in the workspace's pool);
 * -1 without memory. */
static int
fill_keys(const struct sq_snapshot *snap, const struct sq_column *col,
	  const uint32_t *perm, struct sortkey *k, struct sq_order_ws *w)
{
	size_t n = snap->nrows, i, used = 0;

	for (i = 0; i < n; i++) {
		const void *rec;
		char buf[SQ_ORDER_CELL];
		const char *s;
		long long v;

		k[i].rec = perm != NULL ? perm[i] : i;
		k[i].seq = i;
		rec = sq_snapshot_row(snap, k[i].rec);
		k[i].missing = 0;
		k[i].pooled = 0;
		k[i].num = 0;
		k[i].txt = NULL;
		/* every column prints a value >= 0, so no text is needed to
		 * know the cell is not empty */
		if (col->num != NULL && col->num(rec, &v) == 0 && v >= 0) {
			k[i].num = v;
			continue;
		}
		s = col->text(rec, buf, sizeof(buf));
		k[i].missing = s == NULL;
		if (col->num != NULL && col->num(rec, &v) == 0) {
			k[i].num = v == SQ_INFINITE ? LLONG_MAX : v;
			if (v == SQ_NONE)
				k[i].missing = 1;
		} else if (s != NULL && !in_buf(s, buf, sizeof(buf))) {
			/* the record's own string: it lives as long as the
			 * snapshot, no copy */
			k[i].txt = s;
		} else if (s != NULL) {
			/* text made in buf goes to one pool; offsets become
			 * pointers after */
			long long at = pool_add(w, &used, s);

			if (at < 0)
				return -1;
			k[i].txt = (const char *)(uintptr_t)(at + 1);
			k[i].pooled = 1;
		}
	}
	for (i = 0; i < n; i++) {
		if (k[i].pooled)
			k[i].txt =
			    (char *)w->buf[WS_POOL] + ((uintptr_t)k[i].txt - 1);
	}
	return 0;
}

static int
order_rows(const struct sq_snapshot *snap, const struct sq_column *col,
	   int desc, uint32_t *order, unsigned char *ties, size_t *npres,
	   struct sq_order_ws *w)
{
	size_t n = snap->nrows, i, m = 0;
	const uint32_t *perm;
	struct sortkey *k = NULL;
	struct rkey *rk = NULL;
	int rc = -1;

	if (n > UINT32_MAX)
		return -1;
	if (n < 2) {
		/* one row: its value, if any, comes first */
		char buf[SQ_ORDER_CELL];

		for (i = 0; i < n; i++)
			order[i] = (uint32_t)i;
		*npres = n == 1 && col->text(sq_snapshot_row(snap, 0), buf,
					     sizeof(buf)) == NULL
			     ? 0
			     : n;
		return 0;
	}
	if (sq_order_tie(snap, w, &perm) == -1)
		return -1;
	if (col->num != NULL &&
	    order_numeric(snap, col, desc, order, ties, npres, perm, w) == 0)
		return 0;
	if (col->num == NULL &&
	    order_text(snap, col, desc, order, ties, npres, perm, w) == 0)
		return 0;
	if (ties != NULL)
		memset(ties, 0, n / 8 + 1);
	k = sq_order_ws_get(w, WS_KEY, n * sizeof(*k), 0);
	if (k == NULL)
		goto out;
	if (fill_keys(snap, col, perm, k, w) == -1)
		goto out;
	rk = sq_order_ws_get(w, WS_RK, n * sizeof(*rk), 0);
	if (rk != NULL && radix_keys(k, n, desc, rk, &m, w) == 0 &&
	    sq_order_radix(rk, m, order, ties, w) == 0) {
		/* the sorted present rows, then the missing ones */
		*npres = m;
		for (i = 0; i < n; i++) {
			if (k[i].missing)
				order[m++] = (uint32_t)k[i].rec;
		}
	} else {
		if (ties != NULL)
			memset(ties, 0, n / 8 + 1);
		sort_desc_ = desc;
		qsort(k, n, sizeof(*k), cmp_key);
		*npres = 0;
		for (i = 0; i < n; i++) {
			order[i] = (uint32_t)k[i].rec;
			if (!k[i].missing)
				*npres = i + 1;
			if (ties != NULL && i > 0 && !k[i].missing &&
			    same_val(&k[i], &k[i - 1]))
				tie(ties, i);
		}
	}
	rc = 0;
out:
	return rc;
}

int
sq_order_rows_ws(const struct sq_snapshot *snap, const struct sq_column *col,
		 int desc, uint32_t *order, struct sq_order_ws *w)
{
	size_t npres;

	return order_rows(snap, col, desc, order, NULL, &npres, w);
}

int
sq_order_rows_ties(const struct sq_snapshot *snap, const struct sq_column *col,
		   uint32_t *order, unsigned char *ties, size_t *npres,
		   struct sq_order_ws *w)
{
	memset(ties, 0, snap->nrows / 8 + 1);
	return order_rows(snap, col, 0, order, ties, npres, w);
}

void
sq_order_flip(const uint32_t *asc, const unsigned char *ties, size_t npres,
	      size_t n, uint32_t *desc)
{
	size_t end = npres, o = 0;

	/* runs of equal values, the last first, each in its own order */
	while (end > 0) {
		size_t start = end - 1;

		while (start > 0 && (ties[start / 8] >> (start % 8)) & 1)
			start--;
		memcpy(desc + o, asc + start, (end - start) * sizeof(*desc));
		o += end - start;
		end = start;
	}
	/* the rows without a value last, as they were */
	memcpy(desc + o, asc + npres, (n - npres) * sizeof(*desc));
}
