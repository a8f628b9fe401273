/*
 * whatif_fetch.h - the WHATIF snapshot of a cluster: sprio -n (the
 * normalized factors), sprio -w (the weights in force), the queue (each
 * job's account) and the config (PriorityMaxAge, PriorityFlags), joined
 * and handed to the pure model (core/analysis/whatif.h) with the weights to
 * try. Shared by batch mode and the TUI's worker thread.
 */
#ifndef SQ_WHATIF_FETCH_H
#define SQ_WHATIF_FETCH_H

#include <stddef.h>
#include <stdio.h>

#include "backends/backend.h"
#include "core/base/err.h"
#include "core/analysis/whatif.h"

/* How many places per partition the summary's account shares count. */
#define SQ_WHATIF_TOP_N 10

/*
 * The weights of text: KEY=VALUE pairs (sq_whatif_parse), or "spec" for
 * the Priority* keys of the config map of the cluster spec at spec_path.
 * shown gets the pairs that were read (for the view's header). "" gives
 * no weights (today's). -1 with err (SQ_ERR_USAGE) on a bad text, a
 * missing or unreadable spec.
 */
int sq_whatif_weights_read(const char *text, const char *spec_path,
			   struct sq_whatif_weights *w, char *shown, size_t n,
			   struct sq_err *err);

/*
 * Fetch and compute the WHATIF snapshot with the weights of
 * b->cfg.weights (see sq_whatif_weights_read; b->cfg.spec for "spec").
 * The queue and the config are optional (no account; PriorityMaxAge
 * unmodelled). 0 with *out set, or -1 with err.
 */
int sq_whatif_fetch(struct sq_backend *b, struct sq_snapshot **out,
		    struct sq_err *err);

/*
 * The what-if's header lines to fp, each starting "# ": the weights
 * tried, the summary, the model check, what is not modelled. Nothing
 * for a snapshot without rows but one line saying so.
 */
void sq_whatif_print_summary(FILE *fp, const struct sq_snapshot *s);

/* The weights of info as "Age=1000 Fairshare=10000 ... TRES=cpu=100,.."
 * (new: 1 for the weights tried, 0 for today's). */
void sq_whatif_weights_text(const struct sq_whatif_info *in, int new, char *buf,
			    size_t n);

#endif
