/*
 * rpc_fetch.h - the rpc kind (the rpc-types and rpc-users views): sdiag
 * read through the backend and turned into rates (core/analysis/rpc.h) with the
 * counters of the connection's earlier reads; and the diag kind with
 * its "changed" rows first (core/analysis/diag_trend.h), from the same reads.
 * Each backend has its own history, kept here by the backend's address and
 * cluster (a table of SQ_RPC_FETCH_CONNS, the oldest reused), under a mutex:
 * any thread.
 */
#ifndef SQ_RPC_FETCH_H
#define SQ_RPC_FETCH_H

#include "core/base/err.h"
#include "core/model/snapshot.h"

struct sq_backend;

#define SQ_RPC_FETCH_CONNS 16
/* batch mode's gap between its two reads, seconds */
#define SQ_RPC_BATCH_GAP 5

/*
 * Read sdiag through b and make the rpc snapshot (*out, one reference).
 * twice: when b has no earlier read, read again SQ_RPC_BATCH_GAP seconds
 * later so that the rows have a rate (batch mode). 0, or -1 with err.
 */
int sq_rpc_fetch(struct sq_backend *b, int twice, struct sq_snapshot **out,
		 struct sq_err *err);

/* Read sdiag through b: its rows after the "changed" ones. 0, or -1. */
int sq_rpc_fetch_diag(struct sq_backend *b, struct sq_snapshot **out,
		      struct sq_err *err);

/* The user b connects as: its configured user, else the local one. */
const char *sq_rpc_self(const struct sq_backend *b, char *buf, size_t n);

#endif
