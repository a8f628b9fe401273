/*
 * rpc_share.h - the `rpc-user-share` setting (percent) and the user who
 * sent more than that share of slurmctld's RPCs (sdiag's by-user counts
 * since its statistics began), which the overview's controller lines flag.
 */
#ifndef SQ_RPC_SHARE_H
#define SQ_RPC_SHARE_H

#include <stddef.h>

#include "core/model/snapshot.h"

#define SQ_RPC_USER_SHARE_DEFAULT 50 /* percent; 0: never flag */

void sq_rpc_user_share_set(int percent);
int sq_rpc_user_share_get(void);

/* The user of diag's rpc_user rows with the most RPCs into user (n
 * bytes), its count and the total of all users; 0, or -1 when diag has
 * no such rows. */
int sq_rpc_top_user(const struct sq_snapshot *diag, char *user, size_t n,
		    long long *count, long long *total);

#endif
