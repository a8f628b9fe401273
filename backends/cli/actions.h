/*
 * actions.h - actions through the Slurm CLI (local and ssh backends):
 * the argv of each action (scancel, scontrol, sacctmgr -i), its exact
 * command line for the preview, running it through sq_cli_run(), and the
 * re-read that verifies the effect. Values reach argv only after
 * core/action/action.c validated them; nothing here goes through a shell.
 */
#ifndef SQ_CLI_ACTIONS_H
#define SQ_CLI_ACTIONS_H

#include <stddef.h>

#include "backends/backend.h"
#include "backends/cli/cli.h"
#include "core/action/action.h"

#define SQ_CLI_CMD_MAXARGS 40

/* One command: argv (malloc'd strings, NULL-terminated) and the target it
 * is for (SQ_CLI_ALL_TARGETS when it names all of them). */
#define SQ_CLI_ALL_TARGETS ((size_t)-1)
struct sq_cli_cmd {
	char *argv[SQ_CLI_CMD_MAXARGS + 1];
	int argc;
	size_t target;
};

struct sq_cli_cmds {
	struct sq_cli_cmd *v;
	size_t n;
};

/*
 * Current value of a field of target i, for commands that depend on it
 * (clearlimit grptres needs the TRES names set now). key is the
 * sacctmgr field name ("GrpTRES"). Returns NULL when unknown.
 */
typedef const char *(*sq_cli_lookup_fn)(void *ctx, size_t i, const char *key);

/* Build the commands of a validated action. lookup may be NULL. */
int sq_cli_action_cmds(const struct sq_action *a, sq_cli_lookup_fn lookup,
		       void *ctx, struct sq_cli_cmds *out, struct sq_err *err);
void sq_cli_cmds_free(struct sq_cli_cmds *c);

/* The commands as shell-safe lines joined by '\n': words as they are,
 * or key='value' / 'word' when they hold spaces or other characters. */
int sq_cli_cmds_format(const struct sq_cli_cmds *c, char *buf, size_t n);

/* --- describe and act (actions_run.c) --------------------------------- */

/* The backend ops (local.c and ssh.c point .describe/.act here).
 * describe() may read the cluster (clearlimit of a TRES limit, the
 * account actions of needs_state_for_cmds in actions_run.c): read's state
 * when given (sq_cli_targets_state), else its own read. act() takes the
 * state before from read the same way, runs the commands, then re-reads
 * every target and fills res per target; it returns 0 only when every
 * target was done and verified. */
int sq_cli_describe(struct sq_backend *b, const struct sq_action *a,
		    const struct sq_targets_read *read, char *buf, size_t len);
int sq_cli_act(struct sq_backend *b, const struct sq_action *a,
	       const struct sq_targets_read *read, struct sq_result *res,
	       struct sq_err *err);
/* Where a preview's commands run, at the start of buf: "[ssh user@host] "
 * for the ssh backend, nothing for the others; returns its length. */
size_t sq_cli_describe_where(struct sq_backend *b, char *buf, size_t len);

/* --- submit (submit.c) -------------------------------------------------- */

/* `sbatch --parsable --opt=value...` of a submit action (the script goes
 * to stdin); argv strings malloc'd. */
int sq_cli_submit_cmd(const struct sq_action *a, struct sq_cli_cmd *cmd,
		      struct sq_err *err);
int sq_cli_submit_describe(struct sq_backend *b, const struct sq_action *a,
			   char *buf, size_t len);
int sq_cli_submit_act(struct sq_backend *b, const struct sq_action *a,
		      struct sq_result *res, struct sq_err *err);

/* --- fix-runaway (runaway.c) --------------------------------------------- */

int sq_cli_runaway_describe(struct sq_backend *b, const struct sq_action *a,
			    char *buf, size_t len);
int sq_cli_runaway_act(struct sq_backend *b, const struct sq_action *a,
		       struct sq_result *res, struct sq_err *err);
/* found: the job is in the runaway list now; state its accounting state */
int sq_cli_runaway_read_targets(struct sq_backend *b, const struct sq_action *a,
				struct sq_target_state *out,
				struct sq_err *err);

/* --- verification (actions_verify.c) ---------------------------------- */

/* A record read back from the cluster: field names and values. */
#define SQ_CLI_REC_MAX 32
struct sq_cli_rec {
	int found;
	size_t n;
	char key[SQ_CLI_REC_MAX][24];
	char *val[SQ_CLI_REC_MAX]; /* malloc'd */
};

/* The state of every target of a (before or after the action); for
 * associations also every association read (all of the targets'
 * accounts), to see what else a command changed. */
struct sq_cli_state {
	size_t n;
	struct sq_cli_rec *rec; /* one per target */
	int ok;                 /* 0 when the read failed */
	char error[256];
	struct sq_cli_rec *all; /* ASSOCS: every row read, nall of them */
	size_t nall;
};

const char *sq_cli_rec_get(const struct sq_cli_rec *r, const char *key);

/* Read the targets' state with the CLI (squeue, scontrol show node,
 * sacctmgr show ...). */
int sq_cli_read_state(struct sq_cli *cli, const struct sq_action *a,
		      struct sq_cli_state *st, struct sq_err *err);
void sq_cli_state_free(struct sq_cli_state *st);
/* The backend op read_targets(): sq_cli_read_state() as found + state;
 * *read (read not NULL) keeps the whole struct sq_cli_state for
 * describe() and act() (backend.h), freed and cut down by the ops
 * read_free() and read_cut() below. */
int sq_cli_read_targets(struct sq_backend *b, const struct sq_action *a,
			struct sq_target_state *out,
			struct sq_targets_read **read, struct sq_err *err);
void sq_cli_targets_read_free(struct sq_targets_read *read);
void sq_cli_targets_read_cut(struct sq_targets_read *read,
			     const unsigned char *keep);
/* The state read holds for a's targets (borrowed), or NULL when read is
 * NULL, not the CLI's, not of a's targets or not read. */
const struct sq_cli_state *
sq_cli_targets_state(const struct sq_action *a,
		     const struct sq_targets_read *read);

/* Parse the outputs used above (exposed for the unit tests). */
int sq_cli_parse_jobs_state(char *text, const struct sq_action *a,
			    struct sq_cli_state *st);
int sq_cli_parse_nodes_state(char *text, const struct sq_action *a,
			     struct sq_cli_state *st);

/* A job or node record as core's normalized target record (r NULL: not
 * read); for an update also whether a's values show in r. */
struct sq_target_rec;
void sq_cli_target_rec(const struct sq_action *a, const struct sq_cli_rec *r,
		       struct sq_target_rec *out);

/* An account's, user's, association's or QOS's record (r NULL or not
 * found: not found) as core's account record (the `show -P` columns of
 * each key, core/action/acct_verdict.h). */
struct sq_acct_rec;
void sq_cli_acct_rec(const struct sq_action *a, const struct sq_cli_rec *r,
		     struct sq_acct_rec *out);
/* The targets of an account action from recorded `sacctmgr -n -P show`
 * outputs, texts[0..n) in the order sq_cli_read_state() runs them
 * (ASSOCS: assoc; QOS: qos; USERS: user, assoc; ACCOUNTS: account,
 * assoc where account=, assoc where parent=); texts are modified. */
int sq_cli_parse_acct_state(char *const *texts, size_t n,
			    const struct sq_action *a, struct sq_cli_state *st);
/*
 * Whether the effect of a on target i is visible in after (before is the
 * state read first). Returns an enum sq_verify; msg says what was seen.
 * Jobs and nodes: core's sq_action_verdict() on sq_cli_target_rec().
 */
int sq_cli_verify(const struct sq_action *a, size_t i,
		  const struct sq_cli_rec *before,
		  const struct sq_cli_rec *after, char *msg, size_t n);

/*
 * The associations other than the targets that a command on an
 * association could change (the same account and user, another
 * partition) and that differ between before and after: "also changed
 * ACC/USER/PART: MaxJobs 5 -> 3" for target i into msg. Returns the
 * number of such associations (0: none changed).
 */
size_t sq_cli_others_changed(const struct sq_action *a, size_t i,
			     const struct sq_cli_state *before,
			     const struct sq_cli_state *after, char *msg,
			     size_t n);

/* moduser of a default account the user has no association in: 1 with
 * the reason (naming the user's accounts) in msg; 0 when it may run. */
int sq_cli_moduser_refused(const struct sq_action *a,
			   const struct sq_cli_state *st, char *msg, size_t n);

/* What a delete removes with it (the association and its limits, the
 * account, its coordinators) and the jobs that block it, as lines
 * appended to the preview in buf (actions_delete.c). */
void sq_cli_delete_listing(struct sq_cli *cli, const struct sq_action *a,
			   const struct sq_cli_state *st, char *buf, size_t n);
/* delaccount's undo: addcoord of the coordinators read before, lines
 * appended to buf. */
int sq_cli_delaccount_coords(const struct sq_action *a,
			     const struct sq_cli_state *before, char *buf,
			     size_t n);

/* deluser's inverse: adduser of each association removed, with the
 * limits it had before. */
int sq_cli_deluser_inverse(const struct sq_action *a,
			   const struct sq_cli_state *before, char *buf,
			   size_t n);

/* Reservations (actions_resv.c): the targets as `scontrol -o show
 * reservation` has them (StartTime, EndTime, Duration in epoch seconds;
 * Nodes, PartitionName, Users, Accounts, Flags, State), whether a's
 * values show in after, and the inverse (delete, put back, create
 * again) from the state before. */
int sq_cli_read_resv(struct sq_cli *cli, const struct sq_action *a,
		     struct sq_cli_state *st, struct sq_err *err);
int sq_cli_verify_resv(const struct sq_action *a,
		       const struct sq_cli_rec *after, char *msg, size_t n);
int sq_cli_resv_inverse(const struct sq_action *a,
			const struct sq_cli_state *before, char *buf, size_t n);
/* --- QOS (actions_qos.c) ------------------------------------------------ */

/* 1 when every column of before that a does not set is the same in
 * after; else 0 and msg says which changed. */
int sq_cli_qos_unchanged(const struct sq_action *a,
			 const struct sq_cli_rec *before,
			 const struct sq_cli_rec *after, char *msg, size_t n);
/* delqos's inverse: addqos of each QOS with every setting it had. */
int sq_cli_delqos_inverse(const struct sq_action *a,
			  const struct sq_cli_state *before, char *buf,
			  size_t n);

/* --- what Slurm changes beyond the targets (actions_undo.c) ------------ */

/* Set key of r (sacctmgr's "(null)" as ""). */
void sq_cli_rec_set(struct sq_cli_rec *r, const char *key, const char *val);
/* Free r's values and empty it (actions_rec.c). */
void sq_cli_rec_clear(struct sq_cli_rec *r);
/* After the targets were read: deluser's users (UserAssocs, UserDefAcct,
 * UserAdmin, UserWCKey, UserCoords on each target's record); delqos's
 * associations holding it (st->all: Account, User, Partition, QOS,
 * DefaultQOS) and the QOS preempting it (st->all: Name, Preempt). */
int sq_cli_read_undo_extra(struct sq_cli *cli, const struct sq_action *a,
			   struct sq_cli_state *st, struct sq_err *err);
/* The preview's lines of it: the user record a deluser removes, the
 * lists a delqos takes the QOS from (and the default QOS that block it),
 * every association a moduser defaultqos= changes. */
void sq_cli_undo_listing(const struct sq_action *a,
			 const struct sq_cli_state *st, char *buf, size_t n);
/* Undo lines appended to buf: moduser (default account, admin level)
 * and addcoord of each user a deluser removed; setqos preempt= and
 * setlimit qos= (defaultqos=) giving a deleted QOS back. */
int sq_cli_deluser_user_lines(const struct sq_action *a,
			      const struct sq_cli_state *before, char *buf,
			      size_t n);
int sq_cli_delqos_restore_lines(const struct sq_action *a,
				const struct sq_cli_state *before, char *buf,
				size_t n);
/* moduser defaultqos= of a user whose associations had different default
 * QOS: 1. Its inverse sets each association back (setlimit). */
int sq_cli_moduser_mixed(const struct sq_action *a,
			 const struct sq_cli_state *st);
int sq_cli_moduser_inverse(const struct sq_action *a,
			   const struct sq_cli_state *before, char *buf,
			   size_t n);
/* The user's associations in after whose default QOS is not the one
 * moduser asked, appended to msg; returns how many. */
size_t sq_cli_moduser_dq_unchanged(const struct sq_action *a, const char *user,
				   const struct sq_cli_state *after, char *msg,
				   size_t n);

/* The inverse of a as command lines of the grammar ('\n'-separated), from
 * the state before; "" when none. */
int sq_cli_inverse(const struct sq_action *a, const struct sq_cli_state *before,
		   char *buf, size_t n);

/* The record field (a `show -P` column) that shows argument key of an
 * action on kind, or NULL (actions_fields.c). */
const char *sq_cli_field_of(enum sq_kind kind, const char *key);
/* One TRES of a list ("cpu=4,gres/gpu=2") into buf, or NULL when not in
 * it. */
const char *sq_cli_tres_get(const char *list, const char *name, char *buf,
			    size_t n);

#endif
