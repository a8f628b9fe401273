/*
 * pane.c - the lines of a text pane (tui/pane.h): cleared with a title,
 * appended one formatted line at a time or as a row of aligned columns
 * (by display width), freed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/pane.h"
#include "tui/text.h"

void
sq_pane_free(struct sq_pane *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->lines[i].text);
	free(p->lines);
	p->lines = NULL;
	p->n = p->cap = 0;
}

void
sq_pane_clear(struct sq_pane *p, const char *title, int kind)
{
	sq_pane_free(p);
	snprintf(p->title, sizeof(p->title), " %s", title);
	p->top = 0;
	p->kind = kind;
	p->nlinks = 0;
	p->row_id[0] = '\0';
}

void
sq_pane_add(struct sq_pane *p, int role, int indent, const char *fmt, ...)
{
	va_list ap;
	char buf[2048];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 64;
		struct sq_pane_line *l = realloc(p->lines, nc * sizeof(*l));

		if (l == NULL)
			return;
		p->lines = l;
		p->cap = nc;
	}
	p->lines[p->n].text = strdup(buf);
	if (p->lines[p->n].text == NULL)
		return;
	p->lines[p->n].role = role;
	p->lines[p->n].indent = indent;
	p->n++;
}

/* Append s to line at *o (cut at the buffer's end). */
static void
put(char *line, size_t n, size_t *o, const char *s)
{
	size_t l = strlen(s);

	if (*o + l >= n)
		l = n - 1 - *o;
	memcpy(line + *o, s, l);
	*o += l;
	line[*o] = '\0';
}

void
sq_pane_row(struct sq_pane *p, int role, const int *w, int n,
	    const char *const *cells)
{
	char line[2048] = "";
	size_t o = 0;
	int start[SQ_PANE_ROW_MAX + 1], col, i;

	if (n < 1 || n > SQ_PANE_ROW_MAX)
		return;
	start[0] = 2;
	for (i = 0; i + 1 < n; i++)
		start[i + 1] = start[i] + w[i] + 1;
	put(line, sizeof(line), &o, "  ");
	col = 2;
	for (i = 0; i < n; i++) {
		if (i > 0 && col >= start[i]) { /* no room: a line of its own */
			sq_pane_add(p, role, start[n - 1], "%s", line);
			o = 0;
			line[0] = '\0';
			col = 0;
		}
		for (; col < start[i]; col++)
			put(line, sizeof(line), &o, " ");
		put(line, sizeof(line), &o, cells[i] != NULL ? cells[i] : "");
		col += sq_width(cells[i] != NULL ? cells[i] : "");
	}
	sq_pane_add(p, role, start[n - 1], "%s", line);
}
