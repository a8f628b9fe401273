/*
 * plan.c - the fetch plan's table (one row per kind of data a view
 * shows) and the one function that runs a row: fetch (or, for a kind the
 * backend does not read, build it from the kinds it does), then join
 * with the partners held or fetched. The one place that combines kinds:
 * a backend reads one kind a fetch. To add a view kind, add its row to
 * plans[].
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "core/action/audit.h"
#include "core/analysis/completing.h"
#include "core/analysis/events.h"
#include "core/analysis/gpus.h"
#include "core/analysis/gpuuse.h"
#include "core/analysis/history.h"
#include "core/base/util.h"
#include "core/model/join.h"
#include "core/action/node_audit.h"
#include "core/analysis/node_flap.h"
#include "core/analysis/rpc.h"
#include "session/glance.h"
#include "session/plan.h"
#include "session/plan_build.h"
#include "session/rpc_fetch.h"

#define BIT(k) SQ_KIND_BIT(SQ_KIND_##k)

/* Join the partners (indexed by kind, NULL where absent) into s. */
typedef void (*join_fn)(struct sq_snapshot *s,
			struct sq_snapshot *const partner[SQ_KIND_COUNT]);

/* Build s, a new empty snapshot of the kind, from in
 * (session/plan_build.h). */
typedef int (*build_fn)(struct sq_snapshot *s,
			const struct sq_plan_build_in *in, struct sq_err *err);

struct plan {
	/* how the kind is fetched; NULL: the backend's fetch() */
	int (*fetch)(struct sq_backend *b, enum sq_kind kind,
		     struct sq_snapshot **out, struct sq_err *err);
	/* or this, told whether it is batch mode (no source) */
	int (*fetch_mode)(struct sq_backend *b, int batch,
			  struct sq_snapshot **out, struct sq_err *err);
	/* where the backend does not read the kind (its ops' .built), or
	 * on every backend (built_always): build() from the kinds
	 * build_from (those of build_optional may be absent), before the
	 * joins. They are read in this order: build_first, the needed
	 * ones, the optional ones; those of build_raw as the backend reads
	 * them (the capability checked, not by their own plan rows, never
	 * from a source), the kind itself (its part the backend reads) by
	 * the backend's fetch(); build_kinds, where given, names the ones
	 * wanted given those read so far (the rest are not read). ready,
	 * where given, is checked before any (the what-if's weights). */
	int built_always;
	unsigned build_from;
	unsigned build_optional;
	unsigned build_first;
	unsigned build_raw;
	unsigned (*build_kinds)(struct sq_snapshot *const from[SQ_KIND_COUNT]);
	int (*ready)(const struct sq_backend *b, struct sq_err *err);
	build_fn build;
	unsigned joins;    /* partner kinds join() uses */
	unsigned lazy;     /* of those, fetched by the console only when
			      shown (batch mode always fetches them) */
	unsigned optional; /* of those, a failed fetch leaves the join out */
	join_fn join;
	/* scope: the scope a view of this kind shows (-1: all rows), and
	 * a row's scope; keep() drops the other scopes' rows */
	int (*view_scope)(const char *view_name);
	int (*row_scope)(const void *rec);
	void (*keep)(struct sq_snapshot *s, int scope);
	enum sq_plan_interval interval;
};

static void
join_jobs(struct sq_snapshot *s, struct sq_snapshot *const p[SQ_KIND_COUNT])
{
	if (p[SQ_KIND_PRIO] != NULL)
		sq_jobs_join_prio(s, p[SQ_KIND_PRIO]);
	if (p[SQ_KIND_GPUUSE] != NULL)
		sq_jobs_join_gpuuse(s, p[SQ_KIND_GPUUSE]);
}

/* util per node, partition, user and account from the GPU jobs' use */
static void
join_gpus(struct sq_snapshot *s, struct sq_snapshot *const p[SQ_KIND_COUNT])
{
	sq_gpus_join_use(s, p[SQ_KIND_GPUUSE]);
}

/* the nodes' jobs stuck COMPLETING (core/analysis/completing.h) */
static void
join_nodes(struct sq_snapshot *s, struct sq_snapshot *const p[SQ_KIND_COUNT])
{
	if (p[SQ_KIND_JOBS] != NULL)
		sq_nodes_join_stuck(s, p[SQ_KIND_JOBS], time(NULL));
	/* each node's down/drain events in the window and the flapping
	 * mark (core/analysis/node_flap.h), only when a column or the detail
	 * pane shows them */
	if (p[SQ_KIND_NODE_EVENTS] != NULL)
		sq_nodes_join_events(s, p[SQ_KIND_NODE_EVENTS],
				     sq_flap_cfg_get(), (int64_t)time(NULL));
}

static void
join_partitions(struct sq_snapshot *s,
		struct sq_snapshot *const p[SQ_KIND_COUNT])
{
	if (p[SQ_KIND_NODES] != NULL)
		sq_partitions_count(s, p[SQ_KIND_NODES]);
}

/* The queue adds restart counts, names and requeues (core/analysis/events.h); a
 * one-shot view of the queue: no older snapshot to compare with. */
static void
join_events(struct sq_snapshot *s, struct sq_snapshot *const p[SQ_KIND_COUNT])
{
	if (p[SQ_KIND_JOBS] == NULL)
		return;
	sq_events_from_restarts(s, NULL, p[SQ_KIND_JOBS]);
	sq_events_finish(s, p[SQ_KIND_JOBS]);
}

static int
gpu_scope(const void *rec)
{
	return (int)((const struct sq_gpu *)rec)->scope;
}

static void
gpu_keep(struct sq_snapshot *s, int scope)
{
	sq_gpus_keep(s, (enum sq_gpu_scope)scope);
}

static int
hist_scope(const void *rec)
{
	return (int)((const struct sq_hist *)rec)->scope;
}

static void
hist_keep(struct sq_snapshot *s, int scope)
{
	sq_history_keep(s, (enum sq_hist_scope)scope);
}

/* slurmctld's /metrics/nodes, /partitions and /scheduler, or why not
 * (session/metrics_fetch.c): what the overview, the console's
 * (tui/view_overview.c) and batch mode's (its row's build), builds its
 * node, partition and controller lines from where they are served */
static int
metrics_fetch(struct sq_backend *b, enum sq_kind kind, struct sq_snapshot **out,
	      struct sq_err *err)
{
	(void)kind;
	return sq_overview_metrics_fetch(b, out, err);
}

/* sacctmgr's node events and, beside them, squall's own node actions on
 * this cluster in the same window, from the audit log
 * (core/action/node_audit.h; an unreadable log leaves them out, the events
 * stay) */
static int
node_events_fetch(struct sq_backend *b, enum sq_kind kind,
		  struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_audit_entry *v = NULL;
	struct sq_hist_window w;
	struct sq_err e;
	size_t n = 0;

	if (b->ops->fetch(b, kind, out, err) == -1)
		return -1;
	sq_err_clear(&e);
	if (sq_history_window_parse(b->cfg.history_since, &w, &e) == 0 &&
	    sq_audit_read(NULL, 2000, &v, &n, &e) == 0)
		sq_node_events_add_audit(
		    *out, v, n, b->cfg.name,
		    sq_history_window_start(&w, time(NULL)));
	free(v);
	return 0;
}

/* slurmdbd's statistics (sacctmgr show stats) under sdiag's rows. None
 * where the partner is not held (the overview wants sdiag alone); a read
 * that failed is a row that says why (the backends' DBD fetch). */
static void
join_diag(struct sq_snapshot *s, struct sq_snapshot *const p[SQ_KIND_COUNT])
{
	const struct sq_snapshot *d = p[SQ_KIND_DBD];
	const struct sq_kv *kv;
	struct sq_kv *to;
	size_t i;

	for (i = 0; d != NULL && i < d->nrows; i++) {
		kv = sq_snapshot_row(d, i);
		to = sq_snapshot_add(s);
		if (to == NULL)
			return;
		to->section = sq_snapshot_str(s, kv->section);
		to->key = sq_snapshot_str(s, kv->key);
		to->value = sq_snapshot_str(s, kv->value);
		if (to->section == NULL || to->key == NULL || to->value == NULL)
			to->section = to->key = to->value = "";
	}
}

/* sdiag's RPC counters with rates (session/rpc_fetch.c); batch mode
 * reads twice so that its one screen has a rate */
/* sdiag with what changed since the connection's reads before */
static int
diag_fetch(struct sq_backend *b, int batch, struct sq_snapshot **out,
	   struct sq_err *err)
{
	(void)batch;
	return sq_rpc_fetch_diag(b, out, err);
}

static int
rpc_fetch(struct sq_backend *b, int batch, struct sq_snapshot **out,
	  struct sq_err *err)
{
	return sq_rpc_fetch(b, batch, out, err);
}

/*
 * The plan, one row per kind. A kind without a row is fetched alone
 * through the backend, refreshed at the slow interval, every row shown.
 */
static const struct plan plans[SQ_KIND_COUNT] = {
	/* sprio and sstat only while columns show them */
	[SQ_KIND_JOBS] = { .joins = BIT(PRIO) | BIT(GPUUSE),
			   .lazy = BIT(PRIO) | BIT(GPUUSE),
			   .optional = BIT(GPUUSE),
			   .join = join_jobs,
			   .interval = SQ_PLAN_FAST },
	[SQ_KIND_PARTITIONS] = { .joins = BIT(NODES), .join = join_partitions },
	/* where the backend serves no sprio: from the queue */
	[SQ_KIND_PRIO] = { .build_from = BIT(JOBS),
			   .build = sq_plan_build_prio },
	[SQ_KIND_LIMITS] = { .build_from = BIT(ASSOCS) | BIT(QOS) | BIT(JOBS),
			     .build = sq_plan_build_limits },
	/* where the backend reads them without their associations
	 * (slurmrestd from v0.0.40): completed from them */
	[SQ_KIND_ACCOUNTS] = { .build_from = BIT(ACCOUNTS) | BIT(ASSOCS),
			       .build = sq_plan_build_accounts },
	[SQ_KIND_USERS] = { .build_from = BIT(USERS) | BIT(ASSOCS),
			    .build = sq_plan_build_users },
	/* the queue only while the stuck_cg column shows, sacctmgr show
	 * event only while the events column or the detail pane does */
	[SQ_KIND_NODES] = { .joins = BIT(JOBS) | BIT(NODE_EVENTS),
			    .lazy = BIT(JOBS) | BIT(NODE_EVENTS),
			    .optional = BIT(JOBS) | BIT(NODE_EVENTS),
			    .join = join_nodes },
	/* where no controller log names the preemptors: inferred from
	 * accounting's runs around them, the queue, partitions and QOS */
	[SQ_KIND_EVENTS] = { .build_from = BIT(PREEMPT_RUNS) | BIT(JOBS) |
					   BIT(PARTITIONS) | BIT(QOS),
			     .build_optional =
				 BIT(JOBS) | BIT(PARTITIONS) | BIT(QOS),
			     .build = sq_plan_build_events,
			     .joins = BIT(JOBS),
			     .optional = BIT(JOBS),
			     .join = join_events },
	[SQ_KIND_GPUS] = { .build_from = BIT(NODES) | BIT(JOBS),
			   .build = sq_plan_build_gpus,
			   .joins = BIT(GPUUSE),
			   .optional = BIT(GPUUSE),
			   .join = join_gpus,
			   .view_scope = sq_gpus_view_scope,
			   .row_scope = gpu_scope,
			   .keep = gpu_keep },
	/* gpus-idle: the idle rows (core/analysis/gpuuse.h) */
	[SQ_KIND_GPUUSE] = { .view_scope = sq_gpuuse_view_scope,
			     .row_scope = sq_gpuuse_row_scope,
			     .keep = sq_gpuuse_keep },
	[SQ_KIND_HISTORY] = { .view_scope = sq_history_view_scope,
			      .row_scope = hist_scope,
			      .keep = hist_keep },
	/* declared vs live on every backend: the spec file (readable
	 * first) against the nodes, the partitions and the config as the
	 * backend reads them (the config optional: its rows unknown
	 * without it), with the local slurm.conf (spec/spec_live.c) */
	[SQ_KIND_SPEC] = { .built_always = 1,
			   .ready = sq_plan_spec_ready,
			   .build_first = BIT(NODES),
			   .build_from =
			       BIT(NODES) | BIT(PARTITIONS) | BIT(CONFIG),
			   .build_optional = BIT(CONFIG),
			   .build_raw =
			       BIT(NODES) | BIT(PARTITIONS) | BIT(CONFIG),
			   .build = sq_plan_build_spec },
	/* the nodes grouped by the spec's, slurm.conf's or the features'
	 * sets */
	[SQ_KIND_NODESETS] = { .built_always = 1,
			       .ready = sq_plan_nodesets_ready,
			       .build_from = BIT(NODES),
			       .build_raw = BIT(NODES),
			       .build = sq_plan_build_spec },
	/* what-if weights over the pending queue's factors on every
	 * backend: sprio -n (the backend's reading of the kind, first:
	 * where it has none it says why, e.g. no sprio -n in slurmrestd),
	 * sprio -w, the queue's accounts and the config, each as the
	 * backend reads it */
	[SQ_KIND_WHATIF] = { .built_always = 1,
			     .ready = sq_plan_whatif_ready,
			     .build_first = BIT(WHATIF),
			     .build_from = BIT(WHATIF) | BIT(PRIO_WEIGHTS) |
					   BIT(JOBS) | BIT(CONFIG),
			     .build_optional = BIT(JOBS) | BIT(CONFIG),
			     .build_raw =
				 BIT(PRIO_WEIGHTS) | BIT(JOBS) | BIT(CONFIG),
			     .build = sq_plan_build_whatif },
	/* batch mode's overview on every backend: slurmctld's metrics
	 * (first, their row's reading: SQUALL_METRICS, why not) where
	 * served, else the nodes and sdiag; the queue; the GPUs' demand
	 * (their row's: built on REST) and use where there are GPUs. A
	 * missing sdiag leaves the controller lines out, a missing GPU use
	 * its line saying why. */
	[SQ_KIND_OVERVIEW] = { .built_always = 1,
			       .build_first = BIT(METRICS),
			       .build_from = BIT(METRICS) | BIT(NODES) |
					     BIT(JOBS) | BIT(DIAG) | BIT(GPUS) |
					     BIT(GPUUSE),
			       .build_optional = BIT(METRICS) | BIT(DIAG) |
						 BIT(GPUS) | BIT(GPUUSE),
			       .build_raw = BIT(NODES) | BIT(JOBS) | BIT(DIAG) |
					    BIT(GPUUSE),
			       .build_kinds = sq_plan_overview_kinds,
			       .build = sq_plan_build_overview },
	/* the console's overview: the metrics for nodes and sdiag, at the
	 * nodes' (slow) pace */
	[SQ_KIND_METRICS] = { .fetch = metrics_fetch },
	/* the diag view leads with what changed between reads */
	[SQ_KIND_DIAG] = { .fetch_mode = diag_fetch,
			   .joins = BIT(DBD),
			   .optional = BIT(DBD),
			   .join = join_diag },
	/* rpc-types, rpc-users: rates from the connection's sdiag reads */
	[SQ_KIND_RPC] = { .fetch_mode = rpc_fetch,
			  .view_scope = sq_rpc_view_scope,
			  .row_scope = sq_rpc_row_scope,
			  .keep = sq_rpc_keep },
	/* sacctmgr's events with squall's own node actions */
	[SQ_KIND_NODE_EVENTS] = { .fetch = node_events_fetch },
	/* sacctmgr show runawayjobs (answered N): alone, at the slow pace
	 * (each read makes slurmdbd build the fix and roll it back) */
	[SQ_KIND_RUNAWAY] = { .interval = SQ_PLAN_SLOW },
	/* sacctmgr show stats: the diag view's partner, at the slow pace */
	[SQ_KIND_DBD] = { .interval = SQ_PLAN_SLOW },
	/* sacctmgr show problem: alone, at the slow pace */
	[SQ_KIND_PROBLEMS] = { .interval = SQ_PLAN_SLOW },
};

static const struct plan *
plan_of(enum sq_kind kind)
{
	static const struct plan none;

	return (unsigned)kind < SQ_KIND_COUNT ? &plans[kind] : &none;
}

static int fetch_checked(struct sq_backend *b, enum sq_kind kind,
			 const struct sq_plan_src *src, int batch,
			 struct sq_snapshot **out, struct sq_err *err);

/* One kind k a build of kind takes into *out: kind itself (its part the
 * backend reads; fetch_checked checked its capability, asking for the
 * backend's reason) by the backend's fetch(), one of build_raw as the
 * backend reads it, any other from src where the console holds it, else
 * by its own plan row through the capability check. */
static int
build_part(struct sq_backend *b, enum sq_kind kind, enum sq_kind k,
	   const struct sq_plan_src *src, int batch, struct sq_snapshot **out,
	   struct sq_err *err)
{
	const struct plan *p = plan_of(kind);

	*out = NULL;
	if (k == kind)
		return b->ops->fetch(b, k, out, err);
	if (p->build_raw & SQ_KIND_BIT(k))
		return sq_backend_fetch_kind(b, k, out, err);
	if (src != NULL && (*out = src->get(src->arg, k)) != NULL)
		return 0;
	return fetch_checked(b, k, src, batch, out, err);
}

/* The kinds a build of kind needs into in, in the row's order
 * (build_first, the needed ones, the optional ones), those build_kinds
 * does not want left out; a needed one that cannot be read ends it, an
 * optional one is left out with why. */
static int
build_partners(struct sq_backend *b, enum sq_kind kind,
	       const struct sq_plan_src *src, int batch,
	       struct sq_plan_build_in *in, struct sq_err *err)
{
	const struct plan *p = plan_of(kind);
	int pass, k;

	for (pass = 0; pass < 3; pass++) {
		unsigned want = pass == 0   ? p->build_first
				: pass == 1 ? ~p->build_optional
					    : p->build_optional;

		want &= p->build_from & (pass == 0 ? ~0u : ~p->build_first);
		for (k = 0; k < SQ_KIND_COUNT; k++) {
			struct sq_err e;

			if (!(want & SQ_KIND_BIT(k)) ||
			    (p->build_kinds != NULL &&
			     !(p->build_kinds(in->from) & SQ_KIND_BIT(k))))
				continue;
			sq_err_clear(&e);
			if (build_part(b, kind, (enum sq_kind)k, src, batch,
				       &in->from[k], &e) == 0)
				continue;
			sq_snapshot_unref(in->from[k]);
			in->from[k] = NULL;
			if (!(p->build_optional & SQ_KIND_BIT(k))) {
				*err = e;
				return -1;
			}
			in->why[k] = strdup(e.msg);
		}
	}
	return 0;
}

/* Build kind, which b does not read (how: its words) or which the plan
 * builds on every backend, by its plan row from its partners
 * (build_partners) with the pure build. */
static int
build(struct sq_backend *b, enum sq_kind kind, const struct sq_plan_src *src,
      int batch, const struct sq_backend_built *how, struct sq_snapshot **out,
      struct sq_err *err)
{
	const struct plan *p = plan_of(kind);
	struct sq_plan_build_in in;
	struct sq_err e;
	double t0 = sq_util_now_ms();
	int k, rc = 0;

	if (p->build == NULL)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s backend cannot serve the %s view",
				  b->ops->name, sq_kind_name(kind));
	memset(&in, 0, sizeof(in));
	in.how = how;
	in.b = b;
	if (p->ready != NULL)
		rc = p->ready(b, err);
	if (rc == 0)
		rc = build_partners(b, kind, src, batch, &in, err);
	if (rc == 0 && how->reads) { /* completed: the read's rows */
		*out = in.from[kind];
		in.from[kind] = NULL;
	} else if (rc == 0 && (*out = sq_snapshot_new(kind, 0)) == NULL) {
		rc = sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	sq_err_clear(&e);
	if (rc == 0 && p->build(*out, &in, &e) == -1) {
		sq_snapshot_unref(*out);
		*out = NULL;
		if (e.code != SQ_OK)
			*err = e;
		else
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		rc = -1;
	}
	for (k = 0; k < SQ_KIND_COUNT; k++) {
		/* the rows are as old as the oldest kind they were built from
		 * (a console's held queue: the jobs view's "rank:Ns older") */
		if (rc == 0 && in.from[k] != NULL &&
		    in.from[k]->fetched < (*out)->fetched)
			(*out)->fetched = in.from[k]->fetched;
		sq_snapshot_unref(in.from[k]);
		free(in.why[k]);
	}
	if (rc == 0) {
		/* a completed read keeps its own source */
		if (how->source != NULL && !how->reads)
			(*out)->source = how->source;
		if ((*out)->note == NULL)
			(*out)->note = how->note;
		(*out)->fetch_ms = sq_util_now_ms() - t0;
	}
	return rc;
}

/* Fetch kind alone, by its plan's way (src: the snapshots a build may
 * take, or NULL; batch: no console). */
static int
fetch_alone(struct sq_backend *b, enum sq_kind kind,
	    const struct sq_plan_src *src, int batch, struct sq_snapshot **out,
	    struct sq_err *err)
{
	/* the words of a kind the plan builds on every backend: none */
	static const struct sq_backend_built plain;
	const struct plan *p = plan_of(kind);
	const struct sq_backend_built *how = sq_backend_built(b, kind);

	*out = NULL;
	if (how == NULL && p->built_always)
		how = &plain;
	if (how != NULL)
		return build(b, kind, src, batch, how, out, err);
	if (p->fetch_mode != NULL)
		return p->fetch_mode(b, batch, out, err);
	if (p->fetch != NULL)
		return p->fetch(b, kind, out, err);
	return b->ops->fetch(b, kind, out, err);
}

/* fetch_alone() where b's capabilities serve kind; else -1 with the
 * backend's reason (it knows why, e.g. "no sprio in slurmrestd"), or a
 * generic one. */
static int
fetch_checked(struct sq_backend *b, enum sq_kind kind,
	      const struct sq_plan_src *src, int batch,
	      struct sq_snapshot **out, struct sq_err *err)
{
	if ((b->ops->caps(b) & sq_kind_cap(kind)) != 0)
		return fetch_alone(b, kind, src, batch, out, err);
	if (fetch_alone(b, kind, src, batch, out, err) == -1 &&
	    err->code == SQ_ERR_UNSUPPORTED)
		return -1;
	sq_snapshot_unref(*out);
	*out = NULL;
	return sq_err_set(err, SQ_ERR_UNSUPPORTED,
			  "the %s backend cannot serve the %s view",
			  b->ops->name, sq_kind_name(kind));
}

/* Batch mode's partners: fetched now, where the backend serves them,
 * but those of skip. */
static int
fetch_partners(struct sq_backend *b, const struct plan *p, unsigned skip,
	       struct sq_snapshot *part[SQ_KIND_COUNT], struct sq_err *err)
{
	unsigned caps = b->ops->caps(b);
	int k;

	for (k = 0; k < SQ_KIND_COUNT; k++) {
		struct sq_err e;

		if (!(p->joins & SQ_KIND_BIT(k)) || (skip & SQ_KIND_BIT(k)) ||
		    (caps & sq_kind_cap((enum sq_kind)k)) == 0)
			continue;
		sq_err_clear(&e);
		if (fetch_alone(b, (enum sq_kind)k, NULL, 1, &part[k], &e) == 0)
			continue;
		part[k] = NULL;
		if (!(p->optional & SQ_KIND_BIT(k))) {
			*err = e;
			return -1;
		}
	}
	return 0;
}

static int plan_fetch(struct sq_backend *b, enum sq_kind kind,
		      const struct sq_plan_src *src, unsigned skip,
		      struct sq_snapshot **out, struct sq_err *err);

int
sq_plan_fetch(struct sq_backend *b, enum sq_kind kind,
	      const struct sq_plan_src *src, struct sq_snapshot **out,
	      struct sq_err *err)
{
	return plan_fetch(b, kind, src, 0, out, err);
}

int
sq_plan_fetch_want(struct sq_backend *b, enum sq_kind kind,
		   enum sq_plan_want want, struct sq_snapshot **out,
		   struct sq_err *err)
{
	unsigned skip = plan_of(kind)->lazy & ~sq_plan_kinds(kind, want);

	return plan_fetch(b, kind, NULL, skip, out, err);
}

int
sq_plan_fetch_plain(struct sq_backend *b, enum sq_kind kind,
		    struct sq_snapshot **out, struct sq_err *err)
{
	return fetch_checked(b, kind, NULL, 1, out, err);
}

int
sq_plan_fetch_served(struct sq_backend *b, enum sq_kind kind,
		     struct sq_snapshot **out, struct sq_err *err)
{
	*out = NULL;
	if (b->ops->caps == NULL || (b->ops->caps(b) & sq_kind_cap(kind)) == 0)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s backend cannot read %s", b->ops->name,
				  sq_kind_name(kind));
	return fetch_alone(b, kind, NULL, 1, out, err);
}

/* Batch mode's partners fetched for the join, as a source for a build
 * (the events' queue is fetched once for both). */
static struct sq_snapshot *
held(void *arg, enum sq_kind kind)
{
	struct sq_snapshot *const *part = arg;

	return part[kind] != NULL ? sq_snapshot_ref(part[kind]) : NULL;
}

static int
plan_fetch(struct sq_backend *b, enum sq_kind kind,
	   const struct sq_plan_src *src, unsigned skip,
	   struct sq_snapshot **out, struct sq_err *err)
{
	const struct plan *p = plan_of(kind);
	struct sq_snapshot *part[SQ_KIND_COUNT] = { NULL };
	const struct sq_plan_src own = { held, part };
	int k, rc = 0,
	       first = src == NULL && p->join != NULL &&
		       sq_backend_built(b, kind) != NULL;

	*out = NULL;
	/* batch mode's partners before a build, which may take them */
	if (first && fetch_partners(b, p, skip, part, err) == -1)
		rc = -1;
	else if (fetch_checked(b, kind, first ? &own : src, src == NULL, out,
			       err) == -1)
		rc = -1;
	else if (p->join != NULL && src == NULL && !first)
		rc = fetch_partners(b, p, skip, part, err);
	else if (p->join != NULL && src != NULL) {
		for (k = 0; k < SQ_KIND_COUNT; k++) {
			if (p->joins & SQ_KIND_BIT(k))
				part[k] = src->get(src->arg, (enum sq_kind)k);
		}
	}
	if (rc == 0 && p->join != NULL)
		p->join(*out, part);
	for (k = 0; k < SQ_KIND_COUNT; k++)
		sq_snapshot_unref(part[k]);
	if (rc == -1) {
		sq_snapshot_unref(*out);
		*out = NULL;
	}
	return rc;
}

unsigned
sq_plan_kinds(enum sq_kind kind, enum sq_plan_want want)
{
	const struct plan *p = plan_of(kind);
	unsigned k = SQ_KIND_BIT(kind) | p->joins, lazy = p->lazy;

	if (want & SQ_PLAN_PRIO)
		lazy &= ~BIT(PRIO);
	if (want & SQ_PLAN_GPU)
		lazy &= ~BIT(GPUUSE);
	if (want & SQ_PLAN_NODE_EVENTS)
		lazy &= ~BIT(NODE_EVENTS);
	if (want & SQ_PLAN_QUEUE)
		lazy &= ~BIT(JOBS);
	return k & ~lazy;
}

enum sq_plan_want
sq_plan_want_cols(const struct sq_view_def *v, const int *cols, int ncols)
{
	unsigned w = SQ_PLAN_EAGER;
	int c;

	for (c = 0; c < ncols; c++) {
		if (v->cols[cols[c]].flags & SQ_COL_PENDING)
			w |= SQ_PLAN_PRIO;
		if (v->cols[cols[c]].flags & SQ_COL_GPUUSE)
			w |= SQ_PLAN_GPU;
		if (v->cols[cols[c]].flags & SQ_COL_NODE_EVENTS)
			w |= SQ_PLAN_NODE_EVENTS;
		if (v->cols[cols[c]].flags & SQ_COL_QUEUE)
			w |= SQ_PLAN_QUEUE;
	}
	return (enum sq_plan_want)w;
}

int
sq_plan_interval(enum sq_kind kind, int fast, int slow)
{
	return plan_of(kind)->interval == SQ_PLAN_FAST ? fast : slow;
}

int
sq_plan_interval_joined(enum sq_kind kind, unsigned want, int fast, int slow)
{
	int iv = sq_plan_interval(kind, fast, slow), j, jv;

	for (j = 0; j < SQ_KIND_COUNT; j++) {
		if (j == (int)kind || !(want & SQ_KIND_BIT(j)) ||
		    !(plans[j].joins & SQ_KIND_BIT(kind)))
			continue;
		jv = sq_plan_interval((enum sq_kind)j, fast, slow);
		if (jv > iv)
			iv = jv;
	}
	return iv;
}

int
sq_plan_rank(enum sq_kind kind)
{
	const struct plan *p = plan_of(kind);
	int k, r, rank = 0;

	/* joins do not loop (a kind is not its own partner's partner) */
	for (k = 0; k < SQ_KIND_COUNT; k++) {
		if (k == (int)kind || !(p->joins & SQ_KIND_BIT(k)))
			continue;
		r = sq_plan_rank((enum sq_kind)k) + 1;
		if (r > rank)
			rank = r;
	}
	return rank;
}

int
sq_plan_in_scope(const struct sq_view_def *v, const void *rec)
{
	const struct plan *p = plan_of(v->kind);
	int scope;

	if (p->view_scope == NULL)
		return 1;
	scope = p->view_scope(v->name);
	return scope < 0 || p->row_scope(rec) == scope;
}

int
sq_plan_scope_rows(const struct sq_view_def *v, const struct sq_snapshot *s,
		   size_t *first, size_t *n)
{
	const struct plan *p = plan_of(v->kind);
	const char *row = s->rows;
	size_t i, a = 0, b = 0;
	int scope, seen = 0;

	if (p->view_scope == NULL || (scope = p->view_scope(v->name)) < 0)
		return -1;
	for (i = 0; i < s->nrows; i++, row += s->rowsize) {
		if (p->row_scope(row) != scope)
			continue;
		if (!seen)
			a = i;
		else if (b != i)
			return -1;
		seen = 1;
		b = i + 1;
	}
	*first = a;
	*n = b - a;
	return 0;
}

void
sq_plan_keep(const struct sq_view_def *v, struct sq_snapshot *s)
{
	const struct plan *p = plan_of(v->kind);
	int scope;

	if (p->view_scope == NULL)
		return;
	scope = p->view_scope(v->name);
	if (scope >= 0)
		p->keep(s, scope);
}
