/*
 * rpc.h - who loads slurmctld: sdiag's RPC counters by message type and
 * by user (the diag kind's "rpc_type" and "rpc_user" rows, CLI or REST)
 * turned into rows with a rate per minute between the last two
 * refreshes, a share of the total and the rates of the refreshes kept
 * (the sparkline). The counters of each refresh are kept in a history
 * (struct sq_rpc_hist) the caller owns, one per connection. Pure: no I/O.
 */
#ifndef SQ_RPC_H
#define SQ_RPC_H

#include <stdint.h>
#include <time.h>

#include "core/base/err.h"
#include "core/model/snapshot.h"

/* the refreshes a history keeps (the sparkline's points) */
#define SQ_RPC_KEEP 16

enum sq_rpc_scope { SQ_RPC_TYPE = 0, SQ_RPC_USER = 1 };

/* One RPC type or user (kind SQ_KIND_RPC). */
struct sq_rpc {
	enum sq_rpc_scope scope;
	const char *name; /* REQUEST_JOB_INFO, or a user name */
	int64_t count;    /* RPCs since the statistics' start */
	int64_t ave_time; /* microseconds */
	int64_t total_time;
	double rate;  /* per minute between the last two refreshes; NAN:
			 one refresh only, or the counters were reset */
	double share; /* percent of the scope's count */
	int own;      /* 1: squall's (its user; a type squall issues) */
	int nrates;   /* rates[] of the refreshes kept, oldest first */
	float rates[SQ_RPC_KEEP - 1];
};

struct sq_rpc_hist;

/* An empty history; NULL on ENOMEM. sq_rpc_hist_free() frees it. */
struct sq_rpc_hist *sq_rpc_hist_new(void);
void sq_rpc_hist_free(struct sq_rpc_hist *h);
/* The refreshes h holds. */
int sq_rpc_hist_len(const struct sq_rpc_hist *h);

/* "count=N ave_time=N total_time=N" of a diag rpc row: 0, or -1 when
 * the count is missing or not a number. */
int sq_rpc_parse_value(const char *v, int64_t *count, int64_t *ave_time,
		       int64_t *total_time);

/* Does squall itself send RPCs of this message type? */
int sq_rpc_type_own(const char *type);

/* sdiag's own time of diag ("sdiag output at": a positive whole
 * number of seconds), else diag->fetched. */
time_t sq_diag_time(const struct sq_snapshot *diag);

/*
 * Record the counters of diag (a SQ_KIND_DIAG snapshot) in h, at the
 * sdiag's own time ("sdiag output at") or diag->fetched, and make *out:
 * one row per type and user, rates from h. self is the user squall
 * connects as ("" unknown). 0, or -1 with err set.
 */
int sq_rpc_build(const struct sq_snapshot *diag, struct sq_rpc_hist *h,
		 const char *self, struct sq_snapshot **out,
		 struct sq_err *err);

/* The scope of a view ("rpc-users": SQ_RPC_USER, "rpc-types" TYPE). */
int sq_rpc_view_scope(const char *view_name);
int sq_rpc_row_scope(const void *rec);
void sq_rpc_keep(struct sq_snapshot *s, int scope);

#endif
