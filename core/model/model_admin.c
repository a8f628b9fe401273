/*
 * model_admin.c - row sizes of the accounting and admin kinds and the
 * small value helpers their parsers share (fractions, durations, comma
 * lists), and accounts and users completed from the associations (the
 * fetch plan's build where a backend reads them without). Pure
 * functions; nothing here talks to a cluster.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/buf.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"

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
	case SQ_KIND_LICENSES:
		return sizeof(struct sq_license);
	case SQ_KIND_NODE_EVENTS:
		return sizeof(struct sq_node_event);
	case SQ_KIND_RUNAWAY:
		return sizeof(struct sq_runaway);
	case SQ_KIND_PROBLEMS:
		return sizeof(struct sq_problem);
	case SQ_KIND_DIAG:
	case SQ_KIND_DBD:
	case SQ_KIND_CONFIG:
		return sizeof(struct sq_kv);
	default:
		return 0;
	}
}

int
sq_admin_double(const char *s, double *out)
{
	char *end;

	if (sq_is_none(s)) {
		*out = NAN;
		return 0;
	}
	if (strcmp(s, "inf") == 0 || strcmp(s, "INFINITE") == 0 ||
	    strcmp(s, "UNLIMITED") == 0) {
		*out = INFINITY;
		return 0;
	}
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0)
		return -1;
	return 0;
}

int
sq_admin_seconds(const char *s, int64_t *out)
{
	if (sq_is_none(s)) {
		*out = SQ_NONE;
		return 0;
	}
	return sq_parse_duration(s, out);
}

int
sq_admin_in_list(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p = list;

	if (n == 0)
		return 0;
	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == n && strncmp(p, item, n) == 0)
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

int
sq_admin_list_add(struct sq_snapshot *s, const char **list, const char *add)
{
	struct sq_buf b;
	const char *p = add;
	int changed = 0, rc = 0;

	if (add == NULL || *add == '\0')
		return 0;
	sq_buf_init(&b, 0);
	if (*list != NULL && **list != '\0')
		sq_buf_printf(&b, "%s", *list);
	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		char item[256];

		if (l > 0 && l < sizeof(item)) {
			memcpy(item, p, l);
			item[l] = '\0';
			if (!sq_admin_in_list(sq_buf_str(&b), item)) {
				if (b.len > 0)
					sq_buf_append(&b, ",", 1);
				sq_buf_append(&b, item, l);
				changed = 1;
			}
		}
		p = e ? e + 1 : NULL;
	}
	if (b.truncated)
		rc = -1;
	else if (changed)
		*list = sq_snapshot_str(s, sq_buf_str(&b));
	sq_buf_free(&b);
	return rc;
}

int
sq_kv_add(struct sq_snapshot *s, const char *section, const char *key,
	  const char *value, struct sq_err *err)
{
	struct sq_kv *kv = sq_snapshot_add(s);

	if (kv == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	kv->section = section;
	kv->key = sq_snapshot_str(s, key);
	kv->value = sq_snapshot_str(s, value);
	if (kv->key == NULL || kv->value == NULL) {
		kv->key = kv->key != NULL ? kv->key : "";
		kv->value = kv->value != NULL ? kv->value : "";
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	return 0;
}

int
sq_accounts_join_assocs(struct sq_snapshot *accounts,
			const struct sq_snapshot *assocs)
{
	size_t i, j;

	for (i = 0; i < accounts->nrows; i++) {
		struct sq_account *a = sq_snapshot_row(accounts, i);

		for (j = 0; j < assocs->nrows; j++) {
			const struct sq_assoc *x = sq_snapshot_row(assocs, j);

			if (strcmp(x->account, a->name) != 0)
				continue;
			if (x->user[0] == '\0') {
				a->parent =
				    sq_snapshot_str(accounts, x->parent);
				a->shares = x->shares;
			} else if (!sq_admin_in_list(a->users, x->user)) {
				if (sq_admin_list_add(accounts, &a->users,
						      x->user) == -1)
					return -1;
				a->nusers++;
			}
		}
	}
	return 0;
}

int
sq_users_join_assocs(struct sq_snapshot *users,
		     const struct sq_snapshot *assocs)
{
	size_t i, j;

	for (i = 0; i < users->nrows; i++) {
		struct sq_user *u = sq_snapshot_row(users, i);

		for (j = 0; j < assocs->nrows; j++) {
			const struct sq_assoc *x = sq_snapshot_row(assocs, j);

			if (strcmp(x->user, u->name) != 0)
				continue;
			/* 24.11's GET /users leaves default.account empty
			 * unless with_assocs: the association says it */
			if (u->default_account[0] == '\0' && x->is_default > 0)
				u->default_account =
				    sq_snapshot_str(users, x->account);
			if (sq_admin_list_add(users, &u->accounts,
					      x->account) == -1 ||
			    sq_admin_list_add(users, &u->qos, x->qos) == -1)
				return -1;
			/* the default account's default QOS wins */
			if (x->default_qos[0] != '\0' &&
			    (u->default_qos[0] == '\0' ||
			     strcmp(x->account, u->default_account) == 0))
				u->default_qos =
				    sq_snapshot_str(users, x->default_qos);
		}
	}
	return 0;
}
