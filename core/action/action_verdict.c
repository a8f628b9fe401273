/*
 * action_verdict.c - the table of what each job and node action means
 * (the states that say it is done; where it applies and its inverse are
 * the action table's states and inverse) and the one verdict on a target
 * read back, for every backend. Never reads the cluster, never prints.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/action/action_policy.h"
#include "core/action/action_verdict.h"

/* How "done" is seen. */
enum vtest {
	VT_ENDED,    /* gone, or a state of done */
	VT_UNSEEN,   /* nothing to see (a signal) */
	VT_HELD,     /* Priority 0 */
	VT_RELEASED, /* Priority not 0 */
	VT_REQUEUED, /* more restarts than before (and held: requeuehold) */
	VT_STATE,    /* the job state is one of done */
	VT_VALUES,   /* every value set shows (the backend compares) */
	VT_FLAG,     /* the node state has done and the reason is a's */
	VT_UP,       /* the node is neither drained nor down */
	VT_NO_FLAG,  /* the node state no longer has done */
	VT_REASON,   /* the node's reason is a's */
};

static const struct verdict_row {
	enum sq_action_type type;
	enum vtest test;
	const char *done; /* states or flags that mean done */
	const char *word; /* what done is called: "suspended" */
} rows[] = {
	{ SQ_ACTION_JOB_CANCEL, VT_ENDED, SQ_JS_ENDED, "cancelled" },
	{ SQ_ACTION_JOB_SIGNAL, VT_UNSEEN, NULL, "signal sent" },
	{ SQ_ACTION_JOB_HOLD, VT_HELD, "", "held" },
	{ SQ_ACTION_JOB_RELEASE, VT_RELEASED, "", "released" },
	{ SQ_ACTION_JOB_REQUEUE, VT_REQUEUED, "", "requeued" },
	{ SQ_ACTION_JOB_REQUEUE_HOLD, VT_REQUEUED, "", "requeued" },
	{ SQ_ACTION_JOB_SUSPEND, VT_STATE, "SUSPENDED", "suspended" },
	{ SQ_ACTION_JOB_RESUME, VT_STATE, "RUNNING COMPLETING", "resumed" },
	{ SQ_ACTION_JOB_UPDATE, VT_VALUES, "", "updated" },
	{ SQ_ACTION_NODE_DRAIN, VT_FLAG, "DRAIN", "drained" },
	{ SQ_ACTION_NODE_DOWN, VT_FLAG, "DOWN", "down" },
	{ SQ_ACTION_NODE_RESUME, VT_UP, "", "in service" },
	{ SQ_ACTION_NODE_REBOOT, VT_FLAG, "REBOOT", "reboot pending" },
	{ SQ_ACTION_NODE_CANCEL_REBOOT, VT_NO_FLAG, "REBOOT_REQUESTED",
	  "no reboot pending" },
	{ SQ_ACTION_NODE_REASON, VT_REASON, "", "reason" },
};

static const struct verdict_row *
row_of(enum sq_action_type t)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].type == t)
			return &rows[i];
	}
	return NULL;
}

void
sq_target_rec_init(struct sq_target_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->priority = -1;
	r->restarts = -1;
	r->args_ok = -1;
}

int
sq_action_has_verdict(enum sq_action_type t)
{
	return row_of(t) != NULL;
}

const char *
sq_action_done_states(enum sq_action_type t)
{
	const struct verdict_row *r = row_of(t);

	return r != NULL ? r->done : NULL;
}

static int
in_list(const char *list, const char *w)
{
	return list != NULL && sq_action_state_in(list, w);
}

/* A node state has a word (as scontrol prints it: "IDLE+DRAIN"). */
static int
has_word(const char *state, const char *w)
{
	return strstr(state, w) != NULL;
}

static int
node_down(const char *st)
{
	return strncmp(st, "DOWN", 4) == 0;
}

enum sq_verdict
sq_verdict_say(enum sq_verdict v, char *msg, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, n, fmt, ap);
	va_end(ap);
	return v;
}

static enum sq_verdict
job_prio(const struct verdict_row *w, const struct sq_target_rec *r, char *msg,
	 size_t n)
{
	int held = r->priority == 0;

	if (w->test == VT_HELD && held)
		return sq_verdict_say(SQ_VERDICT_DONE, msg, n,
				      "held (Priority=0, %s)", r->reason);
	if (w->test == VT_HELD) {
		if (r->priority < 0)
			return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
					      "not held: Priority=? %s",
					      r->state);
		return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
				      "not held: Priority=%lld %s",
				      (long long)r->priority, r->state);
	}
	if (r->priority > 0)
		return sq_verdict_say(SQ_VERDICT_DONE, msg, n,
				      "released (Priority=%lld)",
				      (long long)r->priority);
	return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
			      "still held (Priority=0, %s)", r->reason);
}

static enum sq_verdict
job_requeued(const struct sq_action *a, const struct sq_target_rec *before,
	     const struct sq_target_rec *r, char *msg, size_t n)
{
	int64_t now = r->restarts > 0 ? r->restarts : 0;
	int64_t was = before != NULL && before->found && before->restarts > 0
			  ? before->restarts
			  : 0;

	if (now > was || (before == NULL && now > 0)) {
		if (a->type == SQ_ACTION_JOB_REQUEUE_HOLD && r->priority != 0 &&
		    strstr(r->reason, "held") == NULL)
			return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
					      "requeued but not held (%s)",
					      r->reason);
		return sq_verdict_say(SQ_VERDICT_DONE, msg, n,
				      "requeued (%s, restarts %lld)", r->state,
				      (long long)now);
	}
	return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
			      "not requeued: %s, restarts %lld", r->state,
			      (long long)now);
}

static enum sq_verdict
job_verdict(const struct sq_action *a, const struct verdict_row *w,
	    const struct sq_target_rec *before, const struct sq_target_rec *r,
	    char *msg, size_t n)
{
	if (w->test == VT_ENDED) {
		if (!r->found || in_list(w->done, r->state))
			return sq_verdict_say(
			    SQ_VERDICT_DONE, msg, n, "cancelled (%s)",
			    r->found ? r->state : "gone from the queue");
		return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n, "still %s",
				      r->state);
	}
	if (!r->found)
		return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
				      "no such job");
	switch (w->test) {
	case VT_UNSEEN:
		return sq_verdict_say(SQ_VERDICT_UNSEEN, msg, n,
				      "signal sent (state %s)", r->state);
	case VT_HELD:
	case VT_RELEASED:
		return job_prio(w, r, msg, n);
	case VT_REQUEUED:
		return job_requeued(a, before, r, msg, n);
	case VT_STATE:
		if (a->type == SQ_ACTION_JOB_SUSPEND)
			return in_list(w->done, r->state)
				   ? sq_verdict_say(SQ_VERDICT_DONE, msg, n,
						    "suspended")
				   : sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
						    "not suspended: %s",
						    r->state);
		return in_list(w->done, r->state)
			   ? sq_verdict_say(SQ_VERDICT_DONE, msg, n,
					    "resumed (%s)", r->state)
			   : sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
					    "not running: %s", r->state);
	case VT_VALUES:
		if (r->args_ok == 1)
			return sq_verdict_say(SQ_VERDICT_DONE, msg, n,
					      "updated");
		return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n, "%s",
				      r->args_ok == 0 ? r->mismatch
						      : "not compared");
	default:
		break;
	}
	return sq_verdict_say(SQ_VERDICT_UNSEEN, msg, n, "not checked");
}

static enum sq_verdict
node_verdict(const struct sq_action *a, const struct verdict_row *w,
	     const struct sq_target_rec *r, char *msg, size_t n)
{
	const char *st = r->state, *reason = r->reason;
	const char *want = sq_action_arg(a, "reason");

	if (!r->found)
		return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
				      "no such node");
	switch (w->test) {
	case VT_FLAG:
		if (a->type == SQ_ACTION_NODE_REBOOT)
			return has_word(st, w->done)
				   ? sq_verdict_say(SQ_VERDICT_DONE, msg, n,
						    "reboot pending (%s)", st)
				   : sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
						    "no reboot pending: %s",
						    st);
		if (has_word(st, w->done) && want != NULL &&
		    strcmp(reason, want) == 0)
			return sq_verdict_say(SQ_VERDICT_DONE, msg, n,
					      "%s, reason '%.100s'", st,
					      reason);
		return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
				      "not %s: State=%s Reason='%.100s'",
				      w->word, st, reason);
	case VT_UP:
		/* slurmctld flags a resumed node NOT_RESPONDING until its
		 * slurmd answers a ping: resumed, not in service yet */
		if (has_word(st, "DRAIN") || node_down(st))
			return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
					      "still %s", st);
		if (has_word(st, "NOT_RESPONDING"))
			return sq_verdict_say(
			    SQ_VERDICT_DONE, msg, n,
			    "resumed, not responding yet (%s): "
			    "slurmctld waits for its slurmd",
			    st);
		return sq_verdict_say(SQ_VERDICT_DONE, msg, n,
				      "in service (%s)", st);
	case VT_NO_FLAG:
		return !has_word(st, w->done)
			   ? sq_verdict_say(SQ_VERDICT_DONE, msg, n,
					    "no reboot pending (%s)", st)
			   : sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
					    "reboot still pending: %s", st);
	case VT_REASON:
		if (want != NULL && strcmp(reason, want) == 0)
			return sq_verdict_say(SQ_VERDICT_DONE, msg, n,
					      "reason '%.100s'", reason);
		return sq_verdict_say(SQ_VERDICT_NOT_YET, msg, n,
				      "reason is '%.100s'", reason);
	default:
		break;
	}
	return sq_verdict_say(SQ_VERDICT_UNSEEN, msg, n, "not checked");
}

enum sq_verdict
sq_action_verdict(const struct sq_action *a, const struct sq_target_rec *before,
		  const struct sq_target_rec *after, char *msg, size_t n)
{
	const struct verdict_row *w = row_of(a->type);
	enum sq_verdict v;
	char why[96];

	msg[0] = '\0';
	if (w == NULL)
		return sq_verdict_say(SQ_VERDICT_UNSEEN, msg, n, "not checked");
	if (a->def->kind == SQ_KIND_NODES)
		return node_verdict(a, w, after, msg, n);
	v = job_verdict(a, w, before, after, msg, n);
	/* not done, and it never applied to the state it was in */
	if (v == SQ_VERDICT_NOT_YET && before != NULL && before->found &&
	    !sq_action_applies(a->def, before->state)) {
		sq_action_states_text(a->def, why, sizeof(why));
		return sq_verdict_say(
		    SQ_VERDICT_REFUSED, msg, n,
		    "refused: the job was %s (%s applies to %s)", before->state,
		    a->def->name, why);
	}
	return v;
}

int
sq_verdict_verify(enum sq_verdict v)
{
	switch (v) {
	case SQ_VERDICT_DONE:
		return SQ_VERIFY_OK;
	case SQ_VERDICT_UNSEEN:
		return SQ_VERIFY_UNCHECKED;
	default:
		return SQ_VERIFY_FAILED;
	}
}
