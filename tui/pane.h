/*
 * pane.h - a scrolling text pane (help, detail, messages, a job's output):
 * its lines with their colour roles, and the links of a detail pane to
 * rows of other views. pane.c builds them; the console draws the one in
 * struct sq_app. UI thread only.
 */
#ifndef SQ_TUI_PANE_H
#define SQ_TUI_PANE_H

#include <stddef.h>

/* A line of a text pane, with its colour role. */
struct sq_pane_line {
	char *text;
	int role;   /* enum sq_role */
	int indent; /* columns of hanging indent when wrapped */
};

#define SQ_PANE_LINKS 9

/* A link of a row to rows of another view (cross-navigation). */
struct sq_link {
	char label[96];
	char view[32];    /* target view name */
	char filter[256]; /* applied there, e.g. "@nodelist=n3" */
};

struct sq_pane {
	char title[128];
	struct sq_pane_line *lines;
	size_t n, cap;
	size_t top;
	int kind; /* what the pane shows: SQ_PANE_* */
	/* detail pane: the row it describes */
	char row_id[256];
	struct sq_link links[SQ_PANE_LINKS];
	int nlinks;
};

enum { SQ_PANE_HELP, SQ_PANE_DETAIL, SQ_PANE_MESSAGES, SQ_PANE_OUTPUT };

/* Empty p and give it a title and a kind (SQ_PANE_*). */
void sq_pane_clear(struct sq_pane *p, const char *title, int kind);
/* Append a line (a line without memory is left out). */
void sq_pane_add(struct sq_pane *p, int role, int indent, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/*
 * Append a row of n columns (at most SQ_PANE_ROW_MAX), two columns in:
 * each cell but the last padded to w[i] display columns and a space
 * (wide characters count as two), the last the rest of the line, wrapped
 * under its own column. A cell wider than its column ends the line: the
 * next cell starts a new line in its column, so every column stays
 * aligned.
 */
#define SQ_PANE_ROW_MAX 6
void sq_pane_row(struct sq_pane *p, int role, const int *w, int n,
		 const char *const *cells);
void sq_pane_free(struct sq_pane *p);

#endif
