/*
 * table_id.c - a table row's id, which the cursor and the tags follow
 * across refreshes: the columns that make it (a view's own id column or
 * job_id, else the key columns: account, user, partition ...), its text,
 * and whether a record bears a given id without printing its own. Split
 * from table.c. UI thread only.
 */
#include <stdio.h>
#include <string.h>

#include "tui/table.h"
#include "tui/table_int.h"
#include "tui/views.h"

/* Column ids that identify a row when the view has no job_id nor a
 * column of its own (views.h id_col). */
static const char *const key_ids[] = {
	"cluster", "section", "scope", "account", "user", "partition",
	"qos",     "name",    "node",  "key",     "type", NULL,
};

/* Does column id name one row only (a job id, the view's own)? */
static int
is_id_col(const struct sq_table *t, const char *id)
{
	return strcmp(id, "job_id") == 0 ||
	       (t->ops != NULL && t->ops->id_col != NULL &&
		strcmp(id, t->ops->id_col) == 0);
}

void
sq_table_pick_idcols(struct sq_table *t)
{
	const struct sq_view_def *d = t->def;
	size_t i;
	int k;

	t->nidcols = 0;
	for (i = 0; i < d->ncols; i++) {
		if (is_id_col(t, d->cols[i].id)) {
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

/* sq_table_row_has_id for an id of several columns (the account trees:
 * account, user, partition): each column's text against its part of the
 * id, no printing; an id sq_table_id may have cut is compared as
 * printed. */
static int
row_has_ids(const struct sq_table *t, const void *rec, const char *id)
{
	char buf[256], raw[SQ_TABLE_CELL];
	const char *p = id;
	int i;

	if (strlen(id) >= sizeof(buf) - 1)
		return strcmp(sq_table_id(t, rec, buf, sizeof(buf)), id) == 0;
	for (i = 0; i < t->nidcols; i++) {
		const char *s =
		    t->def->cols[t->idcols[i]].text(rec, raw, sizeof(raw));
		size_t l = strcspn(p, "\x1f"), sl;

		s = s ? s : "";
		sl = strlen(s);
		if (sl != l || memcmp(s, p, l) != 0)
			return 0;
		p += l;
		if (i + 1 < t->nidcols) {
			if (*p != '\x1f')
				return 0;
			p++;
		}
	}
	return *p == '\0';
}

int
sq_table_row_has_id(const struct sq_table *t, const void *rec, const char *id)
{
	char buf[256], raw[SQ_TABLE_CELL];
	const char *s;

	if (t->nidcols != 1)
		return row_has_ids(t, rec, id);
	s = t->def->cols[t->idcols[0]].text(rec, raw, sizeof(raw));
	/* sq_table_id keeps sizeof(buf) - 1 bytes of it */
	return strncmp(s ? s : "", id, sizeof(buf) - 1) == 0 &&
	       (strlen(id) == sizeof(buf) - 1 || strcmp(s ? s : "", id) == 0);
}

int
sq_table_id_unique(const struct sq_table *t)
{
	return t->nidcols == 1 && is_id_col(t, t->def->cols[t->idcols[0]].id);
}
