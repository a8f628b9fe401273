/*
 * rpc_share.c - the user above `rpc-user-share` of slurmctld's RPCs
 * (rpc_share.h), from the diag snapshot's rpc_user rows ("count=N ...").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/util.h"
#include "core/model/model_admin.h"
#include "core/analysis/rpc_share.h"

static int share = SQ_RPC_USER_SHARE_DEFAULT;

void
sq_rpc_user_share_set(int percent)
{
	int p = percent < 0 ? 0 : percent > 100 ? 100 : percent;

	sq_util_setting_copy(&share, &p, sizeof(p));
}

int
sq_rpc_user_share_get(void)
{
	int p;

	sq_util_setting_copy(&p, &share, sizeof(p));
	return p;
}

int
sq_rpc_top_user(const struct sq_snapshot *diag, char *user, size_t n,
		long long *count, long long *total)
{
	long long best = -1;
	size_t i;

	*count = *total = 0;
	if (n > 0)
		user[0] = '\0';
	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);
		const char *c;
		long long v;

		if (strcmp(kv->section, "rpc_user") != 0)
			continue;
		c = strstr(kv->value, "count=");
		if (c == NULL)
			continue;
		v = strtoll(c + 6, NULL, 10);
		if (v < 0)
			continue;
		*total += v;
		if (v > best) {
			best = v;
			snprintf(user, n, "%s", kv->key);
		}
	}
	if (best < 0)
		return -1;
	*count = best;
	return 0;
}
