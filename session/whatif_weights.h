/*
 * whatif_weights.h - the what-if's weights to try, read from a text or
 * a cluster spec, and its summary lines. The WHATIF snapshot itself is
 * built by the fetch plan (session/plan.c) from sprio -n (the normalized
 * factors), sprio -w (the weights in force), the queue (each job's
 * account) and the config (PriorityMaxAge, PriorityFlags) with the pure
 * model (core/analysis/whatif.h). Shared by batch mode, the plan and the
 * console.
 */
#ifndef SQ_WHATIF_WEIGHTS_H
#define SQ_WHATIF_WEIGHTS_H

#include <stddef.h>
#include <stdio.h>

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
