/*
 * model_admin.c - row sizes of the accounting and admin kinds.
 */
#include "core/model_admin.h"

size_t
sq_admin_rowsize(enum sq_kind kind)
{
	switch (kind) {
	case SQ_KIND_ACCOUNTS:
		return sizeof(struct sq_account);
	case SQ_KIND_USERS:
		return sizeof(struct sq_user);
	case SQ_KIND_ASSOCS:
		return sizeof(struct sq_assoc);
	case SQ_KIND_QOS:
		return sizeof(struct sq_qos);
	case SQ_KIND_SHARES:
		return sizeof(struct sq_share);
	case SQ_KIND_EVENTS:
		return sizeof(struct sq_event);
	case SQ_KIND_GPUS:
		return sizeof(struct sq_gpu);
	case SQ_KIND_LIMITS:
		return sizeof(struct sq_limit);
	case SQ_KIND_RESERVATIONS:
		return sizeof(struct sq_reservation);
	case SQ_KIND_DIAG:
	case SQ_KIND_CONFIG:
		return sizeof(struct sq_kv);
	default:
		return 0;
	}
}
