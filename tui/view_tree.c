/*
 * view_tree.c - the account trees: fairshare (sshare), associations and
 * accounts shown as a tree that folds and unfolds (- and +). Parents come
 * from the records (an account's parent account; a user's account);
 * siblings keep the table's sort order. With a filter, matching rows whose
 * parent is filtered out become roots.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/model_admin.h"
#include "core/model/name_index.h"
#include "tui/app.h"
#include "tui/keys.h"
#include "tui/table.h"
#include "tui/views.h"

/* A record's place in the tree: its account, user and partition (the
 * three make its id), and the account it hangs under ("" for a root). */
struct tkey {
	const char *acct, *user, *part, *up;
};

static struct tkey
key_of(enum sq_kind kind, const void *rec)
{
	struct tkey k = { "", "", "", "" };

	if (kind == SQ_KIND_SHARES) {
		const struct sq_share *s = rec;

		k = (struct tkey){ s->account, s->user, s->partition,
				   s->parent };
	} else if (kind == SQ_KIND_ASSOCS) {
		const struct sq_assoc *a = rec;

		k = (struct tkey){ a->account, a->user, a->partition,
				   a->parent };
	} else if (kind == SQ_KIND_ACCOUNTS) {
		const struct sq_account *a = rec;

		k = (struct tkey){ a->name, "", "", a->parent };
	}
	/* a user's row hangs under its account's */
	if (k.user[0] != '\0')
		k.up = k.acct;
	return k;
}

/* The fold id of a row: "tree:" account, user, partition. */
static void
fold_id(const struct tkey *k, char *id, size_t n)
{
	snprintf(id, n, "tree:%s\x1f%s\x1f%s", k->acct, k->user, k->part);
}

/*
 * The tree's state, kept in the table (t->vstate): the parent record of
 * every record of the snapshot it was made for (a snapshot's serial),
 * found once by a name index of the account rows, cycles cut; and the
 * scratch of an arrangement. A keystroke (filter, sort, fold) then
 * arranges in time linear in the shown rows.
 */
struct tree_state {
	uint64_t serial;
	int32_t *up;  /* snapshot row -> parent snapshot row, -1 */
	int32_t *at;  /* snapshot row -> place in the rows arranged, -1 */
	size_t nrecs; /* rows of up[] and at[] */
	struct link {
		int32_t first, next, last; /* children, -1 */
		unsigned kids;
		int up; /* has a parent among the shown rows */
	} * lk;
	size_t lcap;
	/* the rows array before the last arrangement, for the next one
	 * (two arrays in turn: no fresh memory a keystroke) */
	struct sq_table_row *spare;
	size_t spare_cap;
};

static void
free_state(void *p)
{
	struct tree_state *st = p;

	if (st == NULL)
		return;
	free(st->up);
	free(st->at);
	free(st->lk);
	free(st->spare);
	free(st);
}

/* Would linking rec under p make a cycle (p descends from rec)? */
static int
cycle(const int32_t *up, int32_t rec, int32_t p)
{
	int guard = 0;

	for (; p >= 0 && guard++ < 100; p = up[p]) {
		if (p == rec)
			return 1;
	}
	return 0;
}

/* The parent record of every record of s into st->up; -1 without
 * memory. */
static int
link_records(struct tree_state *st, const struct sq_snapshot *s)
{
	size_t n = s->nrows, i, at;
	struct sq_name_index x;
	size_t off =
	    s->kind == SQ_KIND_ACCOUNTS ? offsetof(struct sq_account, name)
	    : s->kind == SQ_KIND_SHARES ? offsetof(struct sq_share, account)
					: offsetof(struct sq_assoc, account);
	int32_t *up = malloc((n ? n : 1) * sizeof(*up));
	int32_t *atv = malloc((n ? n : 1) * sizeof(*atv));

	if (up == NULL || atv == NULL || n > INT32_MAX ||
	    sq_name_index_init(&x, n, off) == -1) {
		free(up);
		free(atv);
		return -1;
	}
	/* the account rows by name (the first of a name, as before) */
	for (i = 0; i < n; i++) {
		struct tkey k = key_of(s->kind, sq_snapshot_row(s, i));

		up[i] = -1;
		if (k.user[0] == '\0' && k.part[0] == '\0' &&
		    sq_name_index_find(&x, s, k.acct, &at) < 0)
			sq_name_index_put(&x, at, i);
	}
	for (i = 0; i < n; i++) {
		struct tkey k = key_of(s->kind, sq_snapshot_row(s, i));
		long p;

		if (k.up[0] == '\0')
			continue;
		p = sq_name_index_find(&x, s, k.up, &at);
		/* not itself (an account named as its own parent), no
		 * cycle */
		if (p >= 0 && (size_t)p != i && !cycle(up, (int32_t)i, p))
			up[i] = (int32_t)p;
	}
	sq_name_index_free(&x);
	free(st->up);
	free(st->at);
	st->up = up;
	st->at = atv;
	st->nrecs = n;
	st->serial = s->serial;
	return 0;
}

static struct tree_state *
state_for(struct sq_table *t)
{
	struct tree_state *st = t->vstate;

	if (st == NULL) {
		st = calloc(1, sizeof(*st));
		if (st == NULL)
			return NULL;
		t->vstate = st;
	}
	if ((st->up == NULL || st->serial != t->snap->serial) &&
	    link_records(st, t->snap) == -1)
		return NULL;
	if (st->lcap < t->nrows) {
		struct link *lk = realloc(st->lk, t->nrows * sizeof(*lk));

		if (lk == NULL)
			return NULL;
		st->lk = lk;
		st->lcap = t->nrows;
	}
	return st;
}

/* Row i of old and, unless folded, its children after it, depth first,
 * into out from *n on (out has room for every row of old: each is
 * written once at most). */
static void
emit(const struct sq_table *t, const struct sq_table_row *old,
     const struct tree_state *st, int32_t i, unsigned depth,
     struct sq_table_row *out, size_t *n)
{
	struct sq_table_row r = old[i];
	const struct link *l = &st->lk[i];
	int32_t c;

	r.depth = (unsigned short)depth;
	r.flags = l->kids ? SQ_ROW_HASKIDS : 0;
	r.hidden = 0;
	if (l->kids) {
		int folded = t->fold_default;

		if (t->nfolds > 0) {
			struct tkey k = key_of(t->def->kind,
					       sq_snapshot_row(t->snap, r.rec));
			char id[320];

			fold_id(&k, id, sizeof(id));
			folded = sq_table_folded(t, id);
		}
		if (folded) {
			r.flags |= SQ_ROW_FOLDED;
			r.hidden = l->kids;
			out[(*n)++] = r;
			return;
		}
	}
	out[(*n)++] = r;
	for (c = l->first; c >= 0; c = st->lk[c].next)
		emit(t, old, st, c, depth + 1 > 60 ? 60 : depth + 1, out, n);
}

/* The rows in tree order, into the spare array of as many rows (a
 * keystroke on 100,000 associations grows no array row by row); the
 * rows' old array is the next one's spare. */
static void
arrange(struct sq_table *t)
{
	struct sq_table_row *old = t->rows, *out;
	size_t n = t->nrows, i, m = 0, m_cap;
	struct tree_state *st;

	if (n == 0 || n > INT32_MAX || (st = state_for(t)) == NULL)
		return;
	if (st->spare_cap < n) {
		out = realloc(st->spare, n * sizeof(*out));
		if (out == NULL)
			return;
		st->spare = out;
		st->spare_cap = n;
	}
	out = st->spare;
	memset(st->at, 0xff, st->nrecs * sizeof(*st->at));
	for (i = 0; i < n; i++) {
		st->at[old[i].rec] = (int32_t)i;
		st->lk[i] = (struct link){ -1, -1, -1, 0, 0 };
	}
	/* each shown row under its parent when that is shown too, the
	 * children in the rows' (sorted) order; the others are roots */
	for (i = 0; i < n; i++) {
		int32_t pr = st->up[old[i].rec], p = pr >= 0 ? st->at[pr] : -1;
		struct link *pl;

		if (p < 0)
			continue;
		pl = &st->lk[p];
		if (pl->last >= 0)
			st->lk[pl->last].next = (int32_t)i;
		else
			pl->first = (int32_t)i;
		pl->last = (int32_t)i;
		pl->kids++;
		st->lk[i].up = 1;
	}
	for (i = 0; i < n; i++) {
		if (!st->lk[i].up)
			emit(t, old, st, (int32_t)i, 0, out, &m);
	}
	m_cap = st->spare_cap;
	st->spare = old;
	st->spare_cap = t->cap;
	t->rows = out;
	t->nrows = m;
	t->cap = m_cap;
}

static const char *
prefix(const struct sq_table *t, const struct sq_table_row *r, char *buf,
       size_t n)
{
	size_t ind = (size_t)r->depth * 2, i;

	/* a "tree" column indents by the record's depth already */
	if (t->ncols > 0 && strcmp(t->def->cols[t->cols[0]].id, "tree") == 0)
		ind = 0;
	if (ind + 3 > n)
		ind = n > 3 ? n - 3 : 0;
	for (i = 0; i < ind; i++)
		buf[i] = ' ';
	buf[ind] = r->flags & SQ_ROW_HASKIDS
		       ? (r->flags & SQ_ROW_FOLDED ? '+' : '-')
		       : ' ';
	buf[ind + 1] = ' ';
	buf[ind + 2] = '\0';
	return buf;
}

static int
same_key(const struct tkey *a, const struct tkey *b)
{
	return strcmp(a->acct, b->acct) == 0 && strcmp(a->user, b->user) == 0 &&
	       strcmp(a->part, b->part) == 0;
}

static int
action(struct sq_app *app, struct sq_table *t, int a)
{
	const void *rec = sq_table_cur(t);
	const struct tree_state *st;
	struct tkey k;
	char id[320];
	long want;
	size_t i;

	if (a != SQ_TA_FOLD && a != SQ_TA_UNFOLD)
		return 0;
	if (rec == NULL)
		return 1;
	k = key_of(t->def->kind, rec);
	/* the record the cursor is on after a fold: its own, or the parent
	 * a leaf's fold folds (as the tree linked them; -1: by its key) */
	want = (long)t->rows[t->cur].rec;
	if (a == SQ_TA_FOLD && !(t->rows[t->cur].flags & SQ_ROW_HASKIDS) &&
	    k.up[0] != '\0') {
		k = (struct tkey){ k.up, "", "", "" };
		st = state_for(t);
		want =
		    st != NULL && (size_t)want < st->nrecs ? st->up[want] : -1;
	}
	fold_id(&k, id, sizeof(id));
	sq_table_set_folded(t, id, a == SQ_TA_FOLD);
	sq_table_rebuild(t);
	for (i = 0; a == SQ_TA_FOLD && i < t->nrows; i++) {
		struct tkey r;

		if (want >= 0 && t->rows[i].rec != (uint32_t)want)
			continue;
		r = key_of(t->def->kind,
			   sq_snapshot_row(t->snap, t->rows[i].rec));
		if (same_key(&r, &k)) {
			sq_table_goto(t, i);
			break;
		}
	}
	app->dirty = 1;
	return 1;
}

const struct sq_tui_view sq_tui_view_shares = {
	.kind = SQ_KIND_SHARES,
	.arrange = arrange,
	.prefix = prefix,
	.action = action,
	.free_state = free_state,
};

const struct sq_tui_view sq_tui_view_assocs = {
	.kind = SQ_KIND_ASSOCS,
	.arrange = arrange,
	.prefix = prefix,
	.action = action,
	.free_state = free_state,
};

const struct sq_tui_view sq_tui_view_accounts = {
	.kind = SQ_KIND_ACCOUNTS,
	.arrange = arrange,
	.prefix = prefix,
	.action = action,
	.free_state = free_state,
};
