/*
 * order_nat.c - natural order of two strings, the order of text columns
 * (order.c): digit runs compare as numbers, "n2" before "n10".
 */
#include <stddef.h>
#include <string.h>

#include "core/query/order.h"

/* Natural order: digit runs compare as numbers ("n2" < "n10"). */
static int
natcmp_slow(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			const char *x = a, *y = b;
			size_t lx, ly;

			while (*x == '0')
				x++;
			while (*y == '0')
				y++;
			lx = strspn(x, "0123456789");
			ly = strspn(y, "0123456789");
			if (lx != ly)
				return lx < ly ? -1 : 1;
			if (strncmp(x, y, lx) != 0)
				return strncmp(x, y, lx);
			a = x + lx;
			b = y + ly;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * natcmp_slow, quicker: up to the first difference both strings are the
 * same bytes, so unless that difference is within a digit run (both
 * digits there, or a digit just before) it decides as a byte compare.
 */
int
sq_order_natcmp(const char *a, const char *b)
{
	size_t i = 0;

	while (a[i] == b[i] && a[i] != '\0')
		i++;
	if (a[i] == b[i])
		return 0;
	if ((is_digit(a[i]) && is_digit(b[i])) ||
	    (i > 0 && is_digit(a[i - 1]))) {
		/* the equal bytes before that run compare equal either way:
		 * start there */
		while (i > 0 && is_digit(a[i - 1]))
			i--;
		return natcmp_slow(a + i, b + i);
	}
	return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
}
