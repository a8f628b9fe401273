/*
 * text.c - text on the screen by display width: UTF-8 decoded with
 * mbrtowc and measured with wcwidth, never written past the columns given
 * (a cut marked '~'), invalid bytes and non-printables shown as '?'.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/text.h"

/* Decode the next character of s: its wide char and length (invalid
 * bytes and non-printables become '?', length 1). */
static size_t
next_char(const char *s, wchar_t *wc, int *cw)
{
	mbstate_t ps;
	size_t l;

	/* printable ASCII is itself, one column wide: no mbrtowc (a full
	 * screen of cells is drawn at every keystroke) */
	if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f) {
		*wc = (wchar_t)*s;
		*cw = 1;
		return 1;
	}
	memset(&ps, 0, sizeof(ps));
	l = mbrtowc(wc, s, MB_CUR_MAX, &ps);
	if (l == (size_t)-1 || l == (size_t)-2 || l == 0) {
		*wc = L'?';
		*cw = 1;
		return 1;
	}
	*cw = wcwidth(*wc);
	if (*cw < 0) {
		*wc = L'?';
		*cw = 1;
	}
	return l;
}

int
sq_width(const char *s)
{
	int w = 0, cw;
	wchar_t wc;

	/* printable ASCII, one column a byte, needs no mbrtowc (widths
	 * of a thousand rows are measured at every keystroke) */
	while ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f) {
		s++;
		w++;
	}
	while (*s != '\0') {
		s += next_char(s, &wc, &cw);
		w += cw;
	}
	return w;
}

static int
put_n(int y, int x, int w, const char *s, int attr, int fit)
{
	wchar_t buf[512];
	int used = 0, k = 0, cw;
	wchar_t wc;

	if (w <= 0 || y < 0 || x < 0)
		return 0;
	while (*s != '\0' && k < 510) {
		size_t l = next_char(s, &wc, &cw);

		if (used + cw > w) {
			/* cut: the last column shows that more follows */
			if (fit && k > 0 && w > 1) {
				while (k > 0 && used + 1 > w) {
					used -= wcwidth(buf[k - 1]) > 0
						    ? wcwidth(buf[k - 1])
						    : 0;
					k--;
				}
				buf[k++] = L'~';
				used++;
			}
			break;
		}
		buf[k++] = wc;
		used += cw;
		s += l;
	}
	attrset(attr);
	if (k > 0)
		mvaddnwstr(y, x, buf, k);
	if (fit) {
		int pad = w - used;

		if (pad > 0)
			mvhline(y, x + used, ' ', pad);
		used = w;
	}
	attrset(A_NORMAL);
	return used;
}

int
sq_put(int y, int x, int w, const char *s, int attr)
{
	return put_n(y, x, w, s, attr, 0);
}

int
sq_put_fit(int y, int x, int w, const char *s, int attr)
{
	return put_n(y, x, w, s, attr, 1);
}

void
sq_clear(int y, int x, int w, int attr)
{
	put_n(y, x, w, "", attr, 1);
}
