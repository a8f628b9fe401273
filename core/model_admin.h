/*
 * model_admin.h - records of the accounting and admin kinds: accounts,
 * users, associations, QOS, fairshare, events, reservations, diag and
 * config. Same rules as model.h: strings in the snapshot arena, never NULL.
 */
#ifndef SQ_MODEL_ADMIN_H
#define SQ_MODEL_ADMIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* A key/value row, used by diag and config (and as a fallback). */
struct sq_kv {
	const char *section;
	const char *key;
	const char *value;
};

/* Row size of an admin kind (0 when the kind is not an admin kind). */
size_t sq_admin_rowsize(enum sq_kind kind);

#endif
