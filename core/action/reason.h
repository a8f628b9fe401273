/*
 * reason.h - reason templates: named texts for the reason of the node
 * actions (drain, down, reboot, reason). The config language defines them
 * (`reason NAME TEXT...`, core/conf/conf.c); the action grammar expands a
 * reason written @NAME (core/action/action_parse.c). Plain data, no I/O.
 */
#ifndef SQ_REASON_H
#define SQ_REASON_H

#include <stddef.h>

#include "core/base/err.h"

#define SQ_REASON_MAX 32       /* templates */
#define SQ_REASON_NAME_MAX 32  /* bytes of a name */
#define SQ_REASON_TEXT_MAX 200 /* bytes of a text */

struct sq_reason {
	char name[SQ_REASON_NAME_MAX + 1];
	char text[SQ_REASON_TEXT_MAX + 1];
};

/* The templates in definition order; zeroed is empty. */
struct sq_reasons {
	struct sq_reason r[SQ_REASON_MAX];
	size_t n;
};

/*
 * Define NAME (^[A-Za-z0-9_][A-Za-z0-9_.-]*$, at most 32 bytes) as TEXT
 * (sq_valid_text, 1 to 200 bytes); an existing NAME is replaced in place.
 * Returns 0, or -1 (SQ_ERR_USAGE, or SQ_ERR_DENIED for a text that fails
 * its check) with nothing changed.
 */
int sq_reasons_define(struct sq_reasons *rs, const char *name, const char *text,
		      struct sq_err *err);

/* The text of NAME, or NULL. rs may be NULL (no templates). */
const char *sq_reasons_find(const struct sq_reasons *rs, const char *name);

/* The names, blank-separated, into buf ("" when there are none; "..."
 * ends a list that does not fit). */
const char *sq_reasons_names(const struct sq_reasons *rs, char *buf, size_t n);

/*
 * A reason as typed in the action grammar to the reason itself:
 * "@NAME" is the text of template NAME, "@@..." is "@..." (a literal
 * '@'), anything else is itself. A value starting with a single '@' that
 * is not exactly @NAME of a defined template is an error (SQ_ERR_USAGE)
 * naming it and listing the defined names. Returns a pointer into value
 * or into rs, or NULL.
 */
const char *sq_reasons_expand(const struct sq_reasons *rs, const char *value,
			      struct sq_err *err);

#endif
