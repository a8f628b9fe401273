/*
 * exec.h - running one action end to end: read-only policy (enforced
 * here, where actions are dispatched), the backend's describe(), the
 * audit intent line, act() with its verification, the audit result line.
 * Shared by `squall --exec` (batch) and the TUI's worker thread.
 */
#ifndef SQ_EXEC_H
#define SQ_EXEC_H

#include <stddef.h>

#include "backends/backend.h"
#include "core/action/action.h"
#include "core/action/audit.h"
#include "core/conf/cluster.h"
#include "core/base/err.h"

/*
 * The exact command line or HTTP call of a into buf. -1 (err says why)
 * when the backend cannot do this action.
 */
int sq_exec_describe(struct sq_backend *b, const struct sq_action *a, char *buf,
		     size_t n, struct sq_err *err);

/*
 * The targets of an action read before it runs (the backend's
 * read_targets(), the same for every backend): keep[i] 0 for a target
 * that does not exist (nmissing) or is in a state the action does not
 * apply to (nskipped, core/action/action_policy.h). read 0 when they could not
 * be read (note says why): then every target is kept and the backend's
 * verification decides. before: all the backend read (backends/backend.h;
 * NULL when it keeps none), owned here and freed by sq_exec_check_free();
 * sq_exec_preview() hands it to describe() and sq_exec_run() to act(),
 * cut down to the targets kept, so neither reads the targets again.
 */
struct sq_exec_check {
	size_t n, nrun, nmissing, nskipped;
	unsigned char *keep;
	struct sq_target_state *st;
	int read;
	char note[256];
	struct sq_targets_read *before;
};
int sq_exec_check(struct sq_backend *b, const struct sq_action *a,
		  struct sq_exec_check *c);
void sq_exec_check_free(struct sq_exec_check *c);

/*
 * The preview: the targets read first (sq_exec_check), describe() of
 * the action on those that remain (with that read: the targets are read
 * once), then one line per target left out
 * ("999999 not found (no such job)", "12 skipped: RUNNING (hold
 * applies to PENDING jobs)"). *nrun: how many targets would be acted on
 * (0: nothing would run; buf then starts "nothing to run:").
 */
int sq_exec_preview(struct sq_backend *b, const struct sq_action *a, char *buf,
		    size_t n, size_t *nrun, struct sq_err *err);

/*
 * Log a refusal (read-only, validation, unsupported) as one "refused"
 * audit line. Any of a, command may be NULL.
 */
void sq_exec_refused(struct sq_audit *au, const struct sq_cluster_cfg *cfg,
		     const char *backend, const struct sq_action *a,
		     const char *command, const char *why);

/*
 * Run a on b: policy check (readonly refuses mutating actions: audited,
 * -1), audit intent (an action is not run when its intent cannot be
 * logged), act() (which verifies), audit result. command is the
 * describe() text shown to the user (NULL: describe again). The targets
 * are read first (sq_exec_check): those not found or in another state
 * are not acted on, and counted in res. res is filled (free with
 * sq_result_free). Returns 0 when every target succeeded and was
 * verified; -1 otherwise.
 */
int sq_exec_run(struct sq_backend *b, struct sq_audit *au,
		const struct sq_action *a, int readonly, const char *command,
		struct sq_result *res, struct sq_err *err);

/*
 * squall --exec LINE: parse LINE (the `:` grammar; @NAME in a reason is a
 * template of reasons, which may be NULL), print the command,
 * ask y/N on the terminal (and the count over the bulk threshold) unless
 * yes, run, print one line per target and the undo line. Returns the
 * exit status: 0 all targets done and verified, 1 otherwise, 2 usage.
 */
struct sq_reasons;
int sq_exec_main(const struct sq_cluster_cfg *cfg,
		 const struct sq_reasons *reasons, const char *line, int yes);

#endif
