/*
 * sanitize.c - safe display of untrusted text. A job name like
 * "\033]0;pwned\007" must print as harmless '?' characters.
 */
#include <stdlib.h>
#include <string.h>

#include "core/base/sanitize.h"

/*
 * Length of the UTF-8 sequence at s, or 0 when invalid. *ctl is set for a
 * well-formed sequence that must not be shown (C1 controls).
 */
static size_t
utf8_len(const unsigned char *s, int *ctl)
{
	size_t n, i;
	unsigned cp;

	*ctl = 0;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond Unicode */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	/* C1 controls (U+0080..U+009F) include the 8-bit CSI */
	*ctl = cp < 0xa0;
	return n;
}

char *
sq_sanitize(const char *s, char *out, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	if (n == 0)
		return out;
	while (*p != '\0' && o + 1 < n) {
		int ctl;
		size_t l;

		/* printable ASCII is copied as it is (every cell of a
		 * thousand rows passes here at every keystroke) */
		if (*p >= 0x20 && *p < 0x7f) {
			out[o++] = (char)*p++;
			continue;
		}
		l = utf8_len(p, &ctl);

		if (ctl) {
			out[o++] = '?';
			p += l;
		} else if (l == 0) {
			out[o++] = '?';
			p++;
		} else if (l == 1) {
			if (*p == '\t')
				out[o++] = ' ';
			else if (*p < 0x20 || *p == 0x7f)
				out[o++] = '?';
			else
				out[o++] = (char)*p;
			p++;
		} else {
			if (o + l >= n)
				break;
			memcpy(out + o, p, l);
			o += l;
			p += l;
		}
	}
	out[o] = '\0';
	return out;
}

size_t
sq_display_width(const char *s)
{
	size_t w = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	}
	return w;
}

void
sq_tsv_escape(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++) {
		switch (*p) {
		case '\t':
			fputs("\\t", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(fp, "\\x%02x", *p);
			} else if (*p >= 0x80) {
				/* invalid UTF-8 and C1 controls (U+009B is
				 * CSI to xterm) escaped byte by byte */
				int ctl;
				size_t l = utf8_len(p, &ctl), i;

				if (l == 0 || ctl) {
					for (i = 0; i < (l ? l : 1); i++)
						fprintf(fp, "\\x%02x", p[i]);
				} else {
					fwrite(p, 1, l, fp);
				}
				p += (l ? l : 1) - 1;
			} else {
				fputc(*p, fp);
			}
		}
	}
}

char *
sq_utf8_dup(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0;
	char *out = malloc(n * 3 + 1); /* each bad byte may become 3 */

	if (out == NULL)
		return NULL;
	while (*p != '\0') {
		int ctl;
		size_t l = utf8_len(p, &ctl);

		if (l == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
		} else {
			memcpy(out + o, p, l);
			o += l;
			p += l;
		}
	}
	out[o] = '\0';
	return out;
}
