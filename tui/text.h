/*
 * text.h - text output that respects display widths (wcwidth) and never
 * writes past w columns (text.c). UI thread only (curses).
 */
#ifndef SQ_TUI_TEXT_H
#define SQ_TUI_TEXT_H

/* Write s at (y, x) in at most w columns; returns the columns used.
 * sq_put_fit pads to w and marks a cut with '~'; sq_clear fills w
 * columns with blanks. attr: curses attributes. */
int sq_put(int y, int x, int w, const char *s, int attr);
int sq_put_fit(int y, int x, int w, const char *s, int attr);
void sq_clear(int y, int x, int w, int attr);
/* Display width of a UTF-8 string (invalid bytes count one). */
int sq_width(const char *s);

#endif
