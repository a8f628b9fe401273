/*
 * pane.c - the lines of a text pane (tui/pane.h): cleared with a title,
 * appended one formatted line at a time, freed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/pane.h"

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
