/*
 * view_tree.c - the account trees: fairshare (sshare), associations and
 * accounts shown as a tree that folds and unfolds (- and +). Parents come
 * from the records (an account's parent account; a user's account);
 * siblings keep the table's sort order. With a filter, matching rows whose
 * parent is filtered out become roots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model_admin.h"
#include "tui/app.h"
#include "tui/keys.h"
#include "tui/table.h"
#include "tui/views.h"

struct node {
	char key[300];
	char parent[300];
	size_t pos; /* position in the sorted rows */
	long up;    /* index of the parent node, -1 for a root */
	long first; /* first child, -1 */
	long next;  /* next sibling, -1 */
	long last;  /* last child (for appending), -1 */
	unsigned kids;
};

static void
keys_of(enum sq_kind kind, const void *rec, char *key, char *parent, size_t n)
{
	const char *acct = "", *user = "", *part = "", *up = "";

	if (kind == SQ_KIND_SHARES) {
		const struct sq_share *s = rec;

		acct = s->account;
		user = s->user;
		part = s->partition;
		up = s->parent;
	} else if (kind == SQ_KIND_ASSOCS) {
		const struct sq_assoc *a = rec;

		acct = a->account;
		user = a->user;
		part = a->partition;
		up = a->parent;
	} else if (kind == SQ_KIND_ACCOUNTS) {
		const struct sq_account *a = rec;

		acct = a->name;
		up = a->parent;
	}
	snprintf(key, n, "%s\x1f%s\x1f%s", acct, user, part);
	if (user[0] != '\0')
		snprintf(parent, n, "%s\x1f\x1f", acct); /* its account */
	else if (up[0] != '\0')
		snprintf(parent, n, "%s\x1f\x1f", up);
	else
		parent[0] = '\0';
}

static int
cmp_key(const void *a, const void *b)
{
	const struct node *const *x = a, *const *y = b;

	return strcmp((*x)->key, (*y)->key);
}

static void
emit(struct sq_table *t, struct sq_table_row *old, struct node *nodes, long i,
     unsigned depth)
{
	struct sq_table_row r = old[nodes[i].pos];
	long c;
	char id[320];

	r.depth = (unsigned short)depth;
	r.flags = nodes[i].kids ? SQ_ROW_HASKIDS : 0;
	r.hidden = 0;
	snprintf(id, sizeof(id), "tree:%s", nodes[i].key);
	if (nodes[i].kids && sq_table_folded(t, id)) {
		r.flags |= SQ_ROW_FOLDED;
		r.hidden = nodes[i].kids;
		sq_table_push(t, &r);
		return;
	}
	sq_table_push(t, &r);
	for (c = nodes[i].first; c >= 0; c = nodes[c].next)
		emit(t, old, nodes, c, depth + 1 > 60 ? 60 : depth + 1);
}

static void
arrange(struct sq_table *t)
{
	struct sq_table_row *old = t->rows;
	size_t n = t->nrows, i;
	struct node *nodes, **byk;

	if (n == 0)
		return;
	nodes = calloc(n, sizeof(*nodes));
	byk = calloc(n, sizeof(*byk));
	if (nodes == NULL || byk == NULL) {
		free(nodes);
		free(byk);
		return;
	}
	for (i = 0; i < n; i++) {
		keys_of(t->def->kind, sq_snapshot_row(t->snap, old[i].rec),
			nodes[i].key, nodes[i].parent, sizeof(nodes[i].key));
		nodes[i].pos = i;
		nodes[i].up = nodes[i].first = nodes[i].next = -1;
		nodes[i].last = -1;
		byk[i] = &nodes[i];
	}
	qsort(byk, n, sizeof(*byk), cmp_key);
	/* link each node under its parent, in sorted order */
	for (i = 0; i < n; i++) {
		struct node key, *kp = &key, **hit;
		long p;

		if (nodes[i].parent[0] == '\0' ||
		    strcmp(nodes[i].parent, nodes[i].key) == 0)
			continue;
		snprintf(key.key, sizeof(key.key), "%s", nodes[i].parent);
		hit = bsearch(&kp, byk, n, sizeof(*byk), cmp_key);
		if (hit == NULL)
			continue;
		p = *hit - nodes;
		/* refuse cycles: the parent must not descend from i */
		{
			long a = p;
			int cycle = 0, guard = 0;

			while (a >= 0 && guard++ < 100) {
				if (a == (long)i) {
					cycle = 1;
					break;
				}
				a = nodes[a].up;
			}
			if (cycle)
				continue;
		}
		nodes[i].up = p;
		if (nodes[p].last >= 0)
			nodes[nodes[p].last].next = (long)i;
		else
			nodes[p].first = (long)i;
		nodes[p].last = (long)i;
		nodes[p].kids++;
	}
	t->rows = NULL;
	t->nrows = t->cap = 0;
	for (i = 0; i < n; i++) {
		if (nodes[i].up < 0)
			emit(t, old, nodes, (long)i, 0);
	}
	free(old);
	free(nodes);
	free(byk);
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
action(struct sq_app *app, struct sq_table *t, int a)
{
	const void *rec = sq_table_cur(t);
	char key[300], parent[300], id[320];

	if (a != SQ_TA_FOLD && a != SQ_TA_UNFOLD)
		return 0;
	if (rec == NULL)
		return 1;
	keys_of(t->def->kind, rec, key, parent, sizeof(key));
	/* folding a leaf folds its parent */
	if (a == SQ_TA_FOLD && !(t->rows[t->cur].flags & SQ_ROW_HASKIDS) &&
	    parent[0] != '\0')
		snprintf(key, sizeof(key), "%s", parent);
	snprintf(id, sizeof(id), "tree:%s", key);
	sq_table_set_folded(t, id, a == SQ_TA_FOLD);
	sq_table_rebuild(t);
	if (a == SQ_TA_FOLD) {
		size_t i;

		for (i = 0; i < t->nrows; i++) {
			char k2[300], p2[300];

			keys_of(t->def->kind,
				sq_snapshot_row(t->snap, t->rows[i].rec), k2,
				p2, sizeof(k2));
			if (strcmp(k2, key) == 0) {
				sq_table_goto(t, i);
				break;
			}
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
};

const struct sq_tui_view sq_tui_view_assocs = {
	.kind = SQ_KIND_ASSOCS,
	.arrange = arrange,
	.prefix = prefix,
	.action = action,
};

const struct sq_tui_view sq_tui_view_accounts = {
	.kind = SQ_KIND_ACCOUNTS,
	.arrange = arrange,
	.prefix = prefix,
	.action = action,
};
