/*
 * acct_verdict.h - what an account, user, association or QOS action
 * means, once for every backend: a backend reads its target (sacctmgr
 * show -P, slurmrestd JSON) into a struct sq_acct_rec, each value put
 * through sq_acct_rec_put() so that both readings of the same state are
 * the same text, and sq_acct_verdict() says whether the target is as the
 * action asked (set, cleared, added, removed, a coordinator), with the
 * same words on every backend. sq_acct_others_same() says, the same
 * way for every backend, that nothing else of the target moved; what a
 * backend can see besides (the other associations of an account and
 * user) stays with that backend.
 */
#ifndef SQ_ACCT_VERDICT_H
#define SQ_ACCT_VERDICT_H

#include <stddef.h>

#include "core/action/action.h"
#include "core/action/action_verdict.h"

#define SQ_ACCT_REC_MAX 32

/* One target as read back: the action keys of its kind ("grpjobs",
 * "maxwall", "defaultaccount", "description"), each value normalized (a
 * count "5", a time as Slurm prints it "2:00:00", a TRES list sorted and
 * mem in MB "cpu=16,mem=2000", names sorted, a choice lower case, a
 * factor with six decimals, "" when not set). A key the backend cannot
 * read is absent and not compared. */
struct sq_acct_rec {
	int found; /* 0: Slurm has no such target */
	size_t n;
	struct {
		char key[24];
		char val[512];
	} f[SQ_ACCT_REC_MAX];
};

/* found 0, no key. */
void sq_acct_rec_init(struct sq_acct_rec *r);
/* Put key of a target of kind with raw (as sacctmgr prints it or as a
 * backend wrote slurmrestd's value: "01:00:00" or "60" minutes for a
 * time, "cpu=16,mem=2000M", "-1"/"UNLIMITED"/"(null)" for not set),
 * normalized; a key kind has no value type for is stored as it is. */
void sq_acct_rec_put(struct sq_acct_rec *r, enum sq_kind kind, const char *key,
		     const char *raw);
/* The normalized value of key, NULL when not read. */
const char *sq_acct_rec_get(const struct sq_acct_rec *r, const char *key);
/* The keys of kind's record, NULL-terminated (ASSOCS and QOS: the limit
 * keys of limit_keys.h, QOS also description; USERS; ACCOUNTS). */
const char *const *sq_acct_rec_keys(enum sq_kind kind);

/* 1 for the actions judged here (kinds ACCOUNTS, USERS, ASSOCS, QOS). */
int sq_acct_has_verdict(enum sq_action_type t);

/* The verdict of a on its target read back (after): done, or not yet
 * with what differs in msg. before (the target read before it ran, NULL:
 * not read) does not change it: an account action applies in any state
 * (the states delaccount and deluser need are read_targets()'s). */
enum sq_verdict sq_acct_verdict(const struct sq_action *a,
				const struct sq_acct_rec *before,
				const struct sq_acct_rec *after, char *msg,
				size_t n);

/* What every backend checks besides the verdict: the keys of before
 * (the target read before a ran) that a does not set read the same in
 * after (an addcoord's or delcoord's coordinators but for its users), so
 * that "done" means the target changed as asked and in nothing else.
 * 1 when they do (or either was not found); else 0 with "changed as
 * asked, but other fields (other coordinators) of the account changed
 * too" in msg. A key either does not hold is not compared. */
int sq_acct_others_same(const struct sq_action *a,
			const struct sq_acct_rec *before,
			const struct sq_acct_rec *after, char *msg, size_t n);

/* moduser defaultqos='s preview, the same on every backend: appended to
 * buf, "\nchanges the default QOS of ASSOC: WAS -> WANT" for an
 * association ("physics/alice/gpu") whose default QOS it changes (""
 * shown as "(none)"), or with assoc NULL "\nUSER: every association has
 * default QOS WANT already"; and when they differ before, the note that
 * the undo sets each back on its own. */
void sq_acct_dq_line(char *buf, size_t n, const char *user, const char *assoc,
		     const char *was, const char *want);
void sq_acct_dq_mixed(char *buf, size_t n);

#endif
