/*
 * backend.c - the registry of built-in backends and the generic open and
 * close around a backend's ops.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "backends/backend.h"

static const struct sq_backend_ops *const registry[] = {
	&sq_backend_local,
#if SQ_HAVE_SSH
	&sq_backend_ssh,
#endif
#if SQ_HAVE_REST
	&sq_backend_rest,
#endif
	&sq_backend_replay, NULL,
};

static struct sq_prompt prompt_hook;

void
sq_backend_set_prompt(const struct sq_prompt *p)
{
	if (p != NULL)
		prompt_hook = *p;
	else
		memset(&prompt_hook, 0, sizeof(prompt_hook));
}

const struct sq_prompt *
sq_backend_prompt(void)
{
	return &prompt_hook;
}

const struct sq_backend_ops *
sq_backend_find(const char *name)
{
	int i;

	for (i = 0; registry[i] != NULL; i++) {
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	}
	return NULL;
}

const char *
sq_backend_names(void)
{
	return "local"
#if SQ_HAVE_SSH
	       " ssh"
#endif
#if SQ_HAVE_REST
	       " rest"
#endif
	       " replay";
}

struct sq_backend *
sq_backend_open(const struct sq_cluster_cfg *cfg, struct sq_err *err)
{
	const struct sq_backend_ops *ops;
	struct sq_backend *b;

	ops = sq_backend_find(cfg->backend);
	if (ops == NULL) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "unknown backend '%s' (built in: %s)", cfg->backend,
			   sq_backend_names());
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (b == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	b->ops = ops;
	b->cfg = *cfg;
	if (ops->open(b, cfg, err) == -1) {
		ops->close(b);
		free(b);
		return NULL;
	}
	return b;
}

void
sq_backend_close(struct sq_backend *b)
{
	if (b == NULL)
		return;
	b->ops->close(b);
	free(b);
}

unsigned
sq_kind_cap(enum sq_kind kind)
{
	switch (kind) {
	case SQ_KIND_PARTITIONS:
		return SQ_CAP_PARTITIONS;
	case SQ_KIND_NODES:
		return SQ_CAP_NODES;
	case SQ_KIND_JOBS:
		return SQ_CAP_JOBS;
	case SQ_KIND_PRIO:
		return SQ_CAP_SPRIO | SQ_CAP_PRIO_QUEUE;
	case SQ_KIND_PRIO_WEIGHTS:
	case SQ_KIND_WHATIF: /* sprio -n and sprio -w, joined with the queue */
		return SQ_CAP_SPRIO;
	case SQ_KIND_ACCOUNTS:
	case SQ_KIND_USERS:
	case SQ_KIND_ASSOCS:
	case SQ_KIND_QOS:
		return SQ_CAP_ACCOUNTING;
	case SQ_KIND_SHARES:
		return SQ_CAP_SHARES;
	case SQ_KIND_EVENTS:
	case SQ_KIND_PREEMPT_RUNS: /* what rest builds the events from */
		return SQ_CAP_EVENTS;
	case SQ_KIND_RESERVATIONS:
		return SQ_CAP_RESERVATIONS;
	case SQ_KIND_DIAG:
	case SQ_KIND_RPC: /* built from sdiag (session/rpc_fetch.c) */
		return SQ_CAP_DIAG;
	case SQ_KIND_CONFIG:
		return SQ_CAP_CONFIG;
	case SQ_KIND_GPUS:
		return SQ_CAP_NODES | SQ_CAP_JOBS;
	case SQ_KIND_LIMITS:
	case SQ_KIND_HISTORY: /* slurmdbd, never slurmctld */
		return SQ_CAP_ACCOUNTING;
	case SQ_KIND_SPEC:
	case SQ_KIND_NODESETS: /* built from partitions, nodes and config */
		return SQ_CAP_NODES;
	case SQ_KIND_OVERVIEW: /* built from metrics or nodes, jobs, sdiag */
		return SQ_CAP_NODES | SQ_CAP_JOBS;
	case SQ_KIND_GPUUSE: /* sstat; the rest backend says why not */
		return SQ_CAP_JOBS;
	case SQ_KIND_CLUSTERS: /* every cluster with its own backend */
		return 0;
	case SQ_KIND_LICENSES:
		return SQ_CAP_LICENSES;
	case SQ_KIND_NODE_EVENTS:
		return SQ_CAP_NODE_EVENTS;
	case SQ_KIND_RUNAWAY:
		return SQ_CAP_RUNAWAY;
	case SQ_KIND_DBD:
		return SQ_CAP_DBD;
	case SQ_KIND_PROBLEMS:
		return SQ_CAP_PROBLEMS;
	case SQ_KIND_METRICS: /* slurmctld's metrics, or why not: they stand
				 for the nodes (session/metrics_fetch.c) */
		return SQ_CAP_NODES;
	case SQ_KIND_COUNT:
		break;
	}
	return 0;
}

const char *
sq_backend_file_note(const struct sq_backend *b, const char *what)
{
	int script = what != NULL && strcmp(what, "script") == 0;

	if (script ? b->ops->job_script != NULL
		   : b->ops->job_files != NULL && b->ops->file_read != NULL &&
			 b->ops->file_stat != NULL)
		return NULL;
	if (strcmp(b->ops->name, "rest") == 0)
		return script ? "the rest backend cannot show a batch script "
				"(slurmrestd's job records hold none)"
			      : "the rest backend has no file access "
				"(slurmrestd serves no job output): use the "
				"local or ssh backend";
	return script ? "this backend cannot show a batch script"
		      : "this backend has no file access";
}

const struct sq_backend_built *
sq_backend_built(const struct sq_backend *b, enum sq_kind kind)
{
	const struct sq_backend_built *t = b->ops->built;

	if (t == NULL || (unsigned)kind >= SQ_KIND_COUNT ||
	    (t[kind].source == NULL && !t[kind].reads))
		return NULL;
	return &t[kind];
}

int
sq_backend_fetch_kind(struct sq_backend *b, enum sq_kind kind,
		      struct sq_snapshot **out, struct sq_err *err)
{
	*out = NULL;
	if (b->ops->caps == NULL || (b->ops->caps(b) & sq_kind_cap(kind)) == 0)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s backend cannot read %s", b->ops->name,
				  sq_kind_name(kind));
	return b->ops->fetch(b, kind, out, err);
}

void
sq_targets_read_free(struct sq_targets_read *r)
{
	if (r != NULL && r->ops != NULL && r->ops->read_free != NULL)
		r->ops->read_free(r);
}

void
sq_targets_read_cut(struct sq_targets_read *r, const unsigned char *keep)
{
	if (r != NULL && r->ops != NULL && r->ops->read_cut != NULL)
		r->ops->read_cut(r, keep);
}
