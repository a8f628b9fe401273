/*
 * reason.c - reason templates (core/action/reason.h): defining, finding and
 * expanding @NAME. The text is checked with sq_valid_text when it is
 * defined and again, as every value, when an action takes it.
 */
#include <stdio.h>
#include <string.h>

#include "core/action/reason.h"
#include "core/base/validate.h"

int
sq_reasons_define(struct sq_reasons *rs, const char *name, const char *text,
		  struct sq_err *err)
{
	struct sq_err verr;
	size_t i;

	if (sq_valid_name(name, NULL) == -1 ||
	    strlen(name) > SQ_REASON_NAME_MAX)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "bad reason name '%.40s': letters, digits, "
				  "_ . - (not first), at most %d bytes",
				  name, SQ_REASON_NAME_MAX);
	if (*text == '\0')
		return sq_err_set(err, SQ_ERR_USAGE,
				  "usage: reason NAME TEXT...");
	if (strlen(text) > SQ_REASON_TEXT_MAX)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "reason %s: the text is longer than %d bytes",
				  name, SQ_REASON_TEXT_MAX);
	if (sq_valid_text(text, &verr) == -1)
		return sq_err_set(err, SQ_ERR_DENIED, "reason %s: %s", name,
				  verr.msg);
	for (i = 0; i < rs->n; i++) {
		if (strcmp(rs->r[i].name, name) == 0)
			break;
	}
	if (i == rs->n && rs->n == SQ_REASON_MAX)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "reason %s: more than %d reason templates",
				  name, SQ_REASON_MAX);
	snprintf(rs->r[i].name, sizeof(rs->r[i].name), "%s", name);
	snprintf(rs->r[i].text, sizeof(rs->r[i].text), "%s", text);
	if (i == rs->n)
		rs->n++;
	return 0;
}

const char *
sq_reasons_find(const struct sq_reasons *rs, const char *name)
{
	size_t i;

	for (i = 0; rs != NULL && i < rs->n; i++) {
		if (strcmp(rs->r[i].name, name) == 0)
			return rs->r[i].text;
	}
	return NULL;
}

const char *
sq_reasons_names(const struct sq_reasons *rs, char *buf, size_t n)
{
	size_t i, off = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; rs != NULL && i < rs->n; i++) {
		size_t l = strlen(rs->r[i].name) + (i > 0);

		if (off + l + 4 >= n) {
			snprintf(buf + off, n - off, "%s...", i > 0 ? " " : "");
			break;
		}
		snprintf(buf + off, n - off, "%s%s", i > 0 ? " " : "",
			 rs->r[i].name);
		off += l;
	}
	return buf;
}

const char *
sq_reasons_expand(const struct sq_reasons *rs, const char *value,
		  struct sq_err *err)
{
	const char *text;
	char names[300];

	if (value[0] != '@')
		return value;
	if (value[1] == '@')
		return value + 1;
	if (sq_valid_name(value + 1, NULL) == -1 ||
	    strlen(value + 1) > SQ_REASON_NAME_MAX) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "'%.60s': a reason template is written @NAME "
			   "alone (@@ for a text that starts with @)",
			   value);
		return NULL;
	}
	text = sq_reasons_find(rs, value + 1);
	if (text != NULL)
		return text;
	if (rs == NULL || rs->n == 0)
		sq_err_set(err, SQ_ERR_USAGE,
			   "unknown reason template '%.40s': none are defined "
			   "(reason NAME TEXT in the config file)",
			   value);
	else
		sq_err_set(err, SQ_ERR_USAGE,
			   "unknown reason template '%.40s' (defined: %s)",
			   value, sq_reasons_names(rs, names, sizeof(names)));
	return NULL;
}
