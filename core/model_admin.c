/*
 * model_admin.c - row sizes of the accounting and admin kinds.
 */
#include "core/model_admin.h"

size_t
sq_admin_rowsize(enum sq_kind kind)
{
	switch (kind) {
	case SQ_KIND_DIAG:
	case SQ_KIND_CONFIG:
		return sizeof(struct sq_kv);
	default:
		return 0;
	}
}
