/*
 * sanitize.h - making text from the cluster safe to show: control
 * characters and escape sequences never reach the terminal, invalid UTF-8
 * is replaced, and tsv output escapes its separators.
 */
#ifndef SQ_SANITIZE_H
#define SQ_SANITIZE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Copy s into out (size n, always terminated), replacing control bytes by
 * '?' (tab by a space) and invalid UTF-8 by '?'. Returns out.
 */
char *sq_sanitize(const char *s, char *out, size_t n);

/* Columns a sanitized UTF-8 string takes (one per code point). */
size_t sq_display_width(const char *s);

/* Write s for tsv: \t, \n, \r, \\ escaped; other control bytes, C1
 * controls and invalid UTF-8 as \xNN (a byte each). */
void sq_tsv_escape(FILE *fp, const char *s);

/* A malloc'd copy of s with each byte that is not part of well-formed
 * UTF-8 replaced by U+FFFD (for JSON output, which must be UTF-8);
 * control characters are kept. NULL on ENOMEM. */
char *sq_utf8_dup(const char *s);

#endif
