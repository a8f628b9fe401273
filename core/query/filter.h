/*
 * filter.h - the row filter of the table widget and of `--once --filter`:
 * a PCRE2 regular expression (JIT-compiled, case-insensitive unless it has
 * a capital letter) over the row's shown text, or field terms
 * "@column=value" that match one column exactly (lists and Slurm host
 * lists element-wise, so "@nodelist=n3" finds "n[1-4]"; case-insensitive
 * unless the value has a capital letter, as for a regex; '...' or "..."
 * keep spaces in a value: @reason='Not responding'). A leading '!'
 * inverts either.
 * A filter is used by one thread at a time (it holds match data).
 */
#ifndef SQ_FILTER_H
#define SQ_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "core/model/view.h"

#define SQ_FILTER_MAX_TERMS 8

struct sq_filter_term {
	const struct sq_column *col;
	char value[256];
	int fold; /* compare ASCII case-insensitively (value is lower case) */
};

struct sq_filter {
	char text[256]; /* as typed after '/', "" when off */
	int invert;
	void *re; /* pcre2_code *, NULL for field terms */
	void *md; /* pcre2_match_data * */
	void *mctx;
	int nterms;
	struct sq_filter_term terms[SQ_FILTER_MAX_TERMS];
	/* a regex's literal start that every match contains (ASCII, lower
	 * case when caseless), and whether it is the whole pattern: then a
	 * substring search decides on ASCII text without the regex */
	char lit[256];
	size_t litlen;
	int litall, litfold;
	/* the answer does not depend on the order of the row's cells (field
	 * terms, a plain word without a space: no match can span the two
	 * spaces between cells) */
	int ofree;
};

void sq_filter_init(struct sq_filter *f);
void sq_filter_free(struct sq_filter *f);

/*
 * Compile text for the columns of def. On error f is unchanged and err
 * holds a one-line reason ("missing closing parenthesis at offset 3").
 * An empty text turns the filter off.
 */
int sq_filter_set(struct sq_filter *f, const char *text,
		  const struct sq_view_def *def, char *err, size_t n);
int sq_filter_active(const struct sq_filter *f);

/*
 * Build a row's shown text, the text a regex filter matches: call with
 * each cell in turn (sanitized), *o 0 at the start; cells two spaces
 * apart, cut at n - 1 bytes, buf always terminated. Returns 0 when buf is
 * full (later cells would not fit), else 1.
 */
int sq_filter_text_add(char *buf, size_t n, size_t *o, const char *cell,
		       int first);

/* Does the row match (inversion applied)? rowtext is the row's shown
 * text (for a regex); rec the record (for field terms). */
int sq_filter_row(struct sq_filter *f, const void *rec, const char *rowtext);
/* The same with the length of rowtext known. */
int sq_filter_row_n(struct sq_filter *f, const void *rec, const char *rowtext,
		    size_t len);

/*
 * sq_filter_row_n for a row text known to be ASCII only (ascii 1): a
 * pattern that is a plain word is a substring search, and a regex runs
 * only on the rows that contain its literal start. The same answers as
 * sq_filter_row_n, faster on 100,000 rows.
 */
int sq_filter_row_text(struct sq_filter *f, const void *rec,
		       const char *rowtext, size_t len, int ascii);

/*
 * 0 when the row whose shown text (in any order of its cells) is rowtext
 * cannot match the regex before inversion: its literal start, which has
 * no space, is not in the ASCII text. 1 when it may (or cannot tell).
 */
int sq_filter_may_match(const struct sq_filter *f, const char *rowtext,
			size_t len, int ascii);

/*
 * Can the answer be found cell by cell: a regex whose literal start (see
 * sq_filter_row_text) has no space, so every match lies within one cell
 * of the row's text. Then a row whose cells (ASCII) do not contain the
 * literal cannot match, and when the pattern is that literal (f->litall)
 * a row matches when one of its cells does (inversion aside).
 */
int sq_filter_lit_cells(const struct sq_filter *f);
/*
 * For the n NUL-terminated strings stored back to back in buf (string k
 * at start[k], start[n] one past the last NUL): mark[k] = 1 when string k
 * contains f's literal (ASCII case folded when the pattern has no
 * capital), else 0. Returns how many are marked. (sq_filter_lit_cells)
 */
size_t sq_filter_lit_marks(const struct sq_filter *f, const char *buf,
			   const uint32_t *start, size_t n,
			   unsigned char *mark);

/* First regex match in text: 1 with [*so, *eo) set, else 0 (field
 * terms and inverted filters never highlight). */
int sq_filter_find(struct sq_filter *f, const char *text, size_t *so,
		   size_t *eo);

/* Do two Slurm lists ("n[1-3],n7", "low*,high", "alice") share an
 * element? Trailing '*' (default partition) is ignored. */
int sq_list_overlap(const char *a, const char *b);

#endif
