/*
 * submit_opts.c - the checks of the submit action's sbatch option values
 * (memory, nodes, GRES, arrays, files, begin, dependency): a whitelist per
 * option, since each value reaches sbatch's command line.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/action/submit_opts.h"
#include "core/base/validate.h"

/* --- option values ---------------------------------------------------------
 */

static int
only(const char *v, const char *set, size_t max)
{
	size_t n = strlen(v);

	return n > 0 && n <= max && strspn(v, set) == n;
}

#define DIGITS "0123456789"
#define ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* 4000, 4000M, 4G, 1T (a number and one unit letter) */
static int
valid_mem(const char *v)
{
	size_t d = strspn(v, DIGITS);

	if (d == 0 || d > 12)
		return 0;
	return v[d] == '\0' ||
	       (strchr("KMGTkmgt", v[d]) != NULL && v[d + 1] == '\0');
}

/* N or MIN-MAX */
static int
valid_nodes(const char *v)
{
	size_t d = strspn(v, DIGITS);

	if (d == 0 || d > 6)
		return 0;
	if (v[d] == '\0')
		return 1;
	return v[d] == '-' && strspn(v + d + 1, DIGITS) == strlen(v + d + 1) &&
	       strlen(v + d + 1) > 0 && strlen(v + d + 1) <= 6;
}

/* gpu:1, gpu:tesla:2, gpu:1,mps:100 (names, ':' and counts) */
static int
valid_gres(const char *v)
{
	return only(v, ALNUM "_.:,/-", 256) && isalnum((unsigned char)v[0]);
}

/* 0-9, 1,3,5, 0-15:4, 0-99%10 */
static int
valid_array(const char *v)
{
	return only(v, DIGITS ",-:%", 256) && isdigit((unsigned char)v[0]);
}

/* a file name pattern or a directory: letters, digits and _.,/%+@=~:-
 * (no blank, quote, '$' or '`'); it must not look like an option */
static int
valid_file(const char *v)
{
	return only(v, ALNUM "_.,/%+@=~:-", 1024) && v[0] != '-';
}

/* now+1hour, 2026-12-01T08:00:00, 16:00, midnight, tomorrow */
static int
valid_begin(const char *v)
{
	return only(v, ALNUM ":+-", 64) && isalnum((unsigned char)v[0]);
}

/* afterok:1:2,afterany:3+10, singleton, after:4?afternotok:5 */
static int
valid_dependency(const char *v)
{
	static const char *const types[] = {
		"after:",     "afterany:",         "afterok:", "afternotok:",
		"aftercorr:", "afterburstbuffer:", "expand:",  NULL
	};
	const char *p = v;

	if (!only(v, ALNUM "_:,?+", 512))
		return 0;
	while (*p != '\0') {
		size_t n = strcspn(p, ",?"), i;
		char item[520];

		memcpy(item, p, n);
		item[n] = '\0';
		if (strcmp(item, "singleton") != 0) {
			const char *ids = NULL;

			for (i = 0; types[i] != NULL; i++) {
				if (strncmp(item, types[i], strlen(types[i])) ==
				    0)
					ids = item + strlen(types[i]);
			}
			/* job ids (12, 12_3) with an optional +minutes */
			if (ids == NULL || *ids == '\0' ||
			    strspn(ids, DIGITS "_:+") != strlen(ids) ||
			    !isdigit((unsigned char)ids[0]))
				return 0;
		}
		p += n;
		if (*p != '\0')
			p++;
		if (*p == '\0' && n > 0 && (p[-1] == ',' || p[-1] == '?'))
			return 0;
	}
	return 1;
}

int
sq_submit_check(const char *key, const char *v, struct sq_err *err)
{
	int ok = 0;

	if (key == NULL || v == NULL)
		return sq_err_set(err, SQ_ERR_DENIED, "missing value");
	if (strcmp(key, "job-name") == 0)
		/* free text, but none of a shell's ;&|<>(){} either */
		ok = strlen(v) <= 200 && sq_valid_text(v, NULL) == 0 &&
		     strpbrk(v, ";&|<>(){}") == NULL && *v != '\0';
	else if (strcmp(key, "mem") == 0 || strcmp(key, "mem-per-cpu") == 0)
		ok = valid_mem(v);
	else if (strcmp(key, "nodes") == 0)
		ok = valid_nodes(v);
	else if (strcmp(key, "gres") == 0 || strcmp(key, "gpus") == 0)
		ok = valid_gres(v);
	else if (strcmp(key, "array") == 0)
		ok = valid_array(v);
	else if (strcmp(key, "output") == 0 || strcmp(key, "error") == 0)
		ok = valid_file(v);
	else if (strcmp(key, "chdir") == 0)
		ok = valid_file(v) && v[0] == '/';
	else if (strcmp(key, "nodelist") == 0 || strcmp(key, "exclude") == 0)
		ok = sq_valid_nodelist(v, NULL) == 0;
	else if (strcmp(key, "begin") == 0)
		ok = valid_begin(v);
	else if (strcmp(key, "dependency") == 0)
		ok = valid_dependency(v);
	if (!ok)
		return sq_err_set(err, SQ_ERR_DENIED,
				  "invalid value for --%.20s: '%.60s'", key, v);
	return 0;
}
