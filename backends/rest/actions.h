/*
 * actions.h - actions through slurmrestd: which HTTP call does what on
 * each API version and what REST cannot do (refused with the reason,
 * never guessed; actions.c), the preview line ("DELETE
 * /slurm/v0.0.38/job/123") and act() (actions_run.c), and the GET that
 * reads a target back (actions_read.c; nodes: actions_node.c). The backend ops
 * themselves are declared in rest.h beside the ops table. Private to
 * backends/rest/.
 */
#ifndef SQ_REST_ACTIONS_H
#define SQ_REST_ACTIONS_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/action/action.h"
#include "core/base/err.h"

struct sq_backend;

struct sq_rest_req {
	char method[8]; /* GET POST DELETE */
	char path[768]; /* with the query, values validated */
	char *body;     /* JSON, malloc'd, or NULL */
	size_t target;  /* index into the action's targets */
};

struct sq_rest_reqs {
	struct sq_rest_req *v;
	size_t n;   /* requests in v */
	size_t cap; /* room in v */
};

/*
 * The requests of a validated action for API versions vslurm (/slurm/)
 * and vdb (/slurmdb/) and the Slurm cluster name (slurmdb calls). -1 with
 * SQ_ERR_UNSUPPORTED and the reason when REST cannot do it.
 */
int sq_rest_action_reqs(const struct sq_action *a, int vslurm, int vdb,
			const char *cluster, struct sq_rest_reqs *out,
			struct sq_err *err);
struct sq_rest_state;
/* The same with each target's record read before (before[i], or NULL):
 * the QOS and association changes from v0.0.40 build their body from it
 * (sq_rest_reqs_read_first). */
int sq_rest_action_reqs_before(const struct sq_action *a, int vslurm, int vdb,
			       const char *cluster,
			       const struct sq_rest_state *before,
			       struct sq_rest_reqs *out, struct sq_err *err);
/* Whether the requests of a on /slurmdb/ version vdb need the targets
 * read first. */
int sq_rest_reqs_read_first(const struct sq_action *a, int vdb);
void sq_rest_reqs_free(struct sq_rest_reqs *r);
/* "METHOD PATH [BODY]" lines joined by '\n'. */
int sq_rest_reqs_format(const struct sq_rest_reqs *r, char *buf, size_t n);

#define SQ_REST_ACT_BODY_LIMIT ((size_t)64 * 1024 * 1024)

/* timelimit= as minutes (actions.c). */
int sq_rest_minutes(const char *v, int64_t *out);

/* --- reading back (actions_read.c) ------------------------------------ */

struct sq_rest_state {
	int found;
	json_object *root; /* owns */
	json_object *rec;  /* inside root */
	/* an association without partition: the user's associations in
	 * the account's other partitions ("gpu,high"), which a DELETE
	 * without partition= would remove too */
	char others[128];
	/* an account read with_coords (v0.0.40+): its coordinators are
	 * known, direct and inherited */
	int coords;
	/* moduser defaultqos= (v0.0.40+): the user's associations in full
	 * (GET /associations?user=), an array inside aroot, or NULL */
	json_object *aroot; /* owns */
	json_object *assocs;
};

void sq_rest_state_free(struct sq_rest_state *s);

/* What read_targets() read (the data of REST's struct sq_targets_read,
 * backend.h): the cluster name it read them with ("" for jobs, nodes and
 * reservations) and each target's state, n of them. */
struct sq_rest_read {
	char cluster[128];
	struct sq_rest_state *st;
	size_t n;
};
/* read's data for a's targets (borrowed), or NULL when read is NULL,
 * not REST's or not of a's targets: then describe() and act() read
 * themselves. */
struct sq_targets_read;
const struct sq_rest_read *
sq_rest_targets_of(const struct sq_action *a,
		   const struct sq_targets_read *read);
/* The Slurm cluster name (slurmdb calls) into buf, or NULL with err. */
const char *sq_rest_cluster_name(struct sq_backend *b, char *buf, size_t n,
				 struct sq_err *err);
/* GET path into st->root: 0 (st->root NULL when Slurm says the target is
 * not there: a 404, or an error naming one of gone's '|'-separated
 * words; gone NULL: every failure is an error), or -1 with err. */
int sq_rest_get_target(struct sq_backend *b, const char *path, const char *gone,
		       struct sq_rest_state *st, struct sq_err *err);
/* Does msg hold one of words ("a|b")? */
int sq_rest_words_in(const char *msg, const char *words);
/* The element of root's list key whose "name" is name, or NULL. */
json_object *sq_rest_named(json_object *root, const char *key,
			   const char *name);
/* GET target i of a; st->found 0 when Slurm says it does not exist. */
int sq_rest_read_target(struct sq_backend *b, const struct sq_action *a,
			size_t i, const char *cluster, struct sq_rest_state *st,
			struct sq_err *err);
/* Whether the effect of a shows in st (enum sq_verify), before being the
 * state read before it ran (NULL: not read); msg says what. Jobs and
 * nodes: core's sq_action_verdict() on sq_rest_target_rec(); accounts,
 * users, associations and QOS: core's sq_acct_verdict() on
 * sq_rest_acct_rec(). */
int sq_rest_verify(const struct sq_action *a,
		   const struct sq_rest_state *before,
		   const struct sq_rest_state *st, char *msg, size_t n);
/* A job's or a node's record (st->rec, a member of "jobs" or "nodes")
 * as core's normalized target record (st NULL or not found: not found). */
struct sq_target_rec;
void sq_rest_target_rec(const struct sq_action *a,
			const struct sq_rest_state *st,
			struct sq_target_rec *out);
/* An account's, user's, association's or QOS's record (st->rec) as
 * core's account record (st NULL or not found: not found;
 * actions_acct.c). */
struct sq_acct_rec;
void sq_rest_acct_rec(const struct sq_action *a, const struct sq_rest_state *st,
		      struct sq_acct_rec *out);
/* modaccount, addcoord, delcoord, moduser: nothing of the target moved
 * but what a asks (core's sq_acct_others_same() on sq_rest_acct_rec(),
 * and for defaultqos= the user's associations but for their default
 * QOS): 1, or 0 with what in msg. */
int sq_rest_acct_unchanged(const struct sq_action *a,
			   const struct sq_rest_state *before,
			   const struct sq_rest_state *after, char *msg,
			   size_t n);
/* The inverse of the targets that succeeded, from the states before. */
void sq_rest_inverse(const struct sq_action *a, const struct sq_result *res,
		     const struct sq_rest_state *before, char *buf, size_t n);

/* Reservations (actions_resv.c, API v0.0.43+): the body of POST
 * /slurm/vX/reservation for a reserve or reserve-update of name; GET of
 * target i (found: a reservation of that name); the check after and the
 * inverse (core/action/resv_check.c). */
json_object *sq_rest_resv_body(const struct sq_action *a, const char *name,
			       struct sq_err *err);
int sq_rest_resv_read(struct sq_backend *b, const struct sq_action *a, size_t i,
		      struct sq_rest_state *st, struct sq_err *err);
int sq_rest_resv_verify(const struct sq_action *a,
			const struct sq_rest_state *st, char *msg, size_t n);
void sq_rest_resv_inverse(const struct sq_action *a,
			  const struct sq_result *res,
			  const struct sq_rest_state *before, char *buf,
			  size_t n);

/* Nodes (actions_node.c, API v0.0.39+): refusal (v0.0.38, reboot, a
 * target that is not one node name), POST /slurm/vX/node/NAME and its
 * body, GET of target i (found: a node of that name), its state as
 * scontrol writes it ("IDLE+DRAIN") into buf, and the inverse from the
 * nodes read before (the check after is core's verdict,
 * sq_rest_verify). */
int sq_rest_node_check(const struct sq_action *a, int vs, struct sq_err *err);
void sq_rest_node_path(int vs, const char *t, char *buf, size_t n);
json_object *sq_rest_node_body(const struct sq_action *a, struct sq_err *err);
int sq_rest_node_read(struct sq_backend *b, const struct sq_action *a, size_t i,
		      struct sq_rest_state *st, struct sq_err *err);
const char *sq_rest_node_state(json_object *rec, char *buf, size_t n);
void sq_rest_node_inverse(const struct sq_action *a,
			  const struct sq_result *res,
			  const struct sq_rest_state *before, char *buf,
			  size_t n);

/* --- QOS and association limits from v0.0.40 (actions_json.c,
 * actions_qos.c, actions_assoc.c) --------------------------------------- */

struct sq_limit_key;

/* data_parser values: a number {"set","infinite","number"}, a clear (the
 * number infinite), a TRES list from "cpu=4,gres/gpu=2" (NULL with err
 * when a count is not a whole number) and one TRES; names as an array. */
json_object *sq_rest_jnum(int64_t n);
json_object *sq_rest_jclear(void);
json_object *sq_rest_jtres(const char *list, struct sq_err *err);
json_object *sq_rest_jtres_item(const char *type, const char *name,
				int64_t count);
json_object *sq_rest_jnames(const char *list);
/* A number read back: 1 set (into *n), 0 unset or infinite, -1 none. */
int sq_rest_jlimit(json_object *v, int64_t *n);
/* "gres/gpu" of a TRES item into buf; a TRES's count in a list (-1:
 * absent); a list as "cpu=4,gres/gpu=2" (-1 when it does not fit). */
const char *sq_rest_jtres_key(json_object *item, char *buf, size_t n);
int64_t sq_rest_jtres_count(json_object *arr, const char *key);
int sq_rest_jtres_text(json_object *arr, char *buf, size_t n);
/* before and after alike but for the dotted paths (1), not (0), or -1
 * when either is NULL or cannot be copied. */
int sq_rest_jsame_but(json_object *before, json_object *after,
		      const char *const *paths, size_t np);
/* A dotted path ("limits.max.tres.total") of o: read, set (taking v,
 * making the objects on the way), removed. */
json_object *sq_rest_jget(json_object *o, const char *path);
/* The length of v when it is an array, else 0: a body's list may be
 * anything (json-c asserts on a length or an index of a non-array). */
size_t sq_rest_jlen(json_object *v);
/* The string at path (an array: its first element), "" when absent or
 * null. */
const char *sq_rest_jstr_at(json_object *o, const char *path);
int sq_rest_jput(json_object *o, const char *path, json_object *v);
void sq_rest_jdel(json_object *o, const char *path);

/* The JSON of limit key k set to v (have: its value before, for a TRES
 * -1); NULL with err. */
json_object *sq_rest_limit_json(const struct sq_limit_key *k, const char *v,
				json_object *have, struct sq_err *err);
/* before and after alike but for the fields a asks? */
int sq_rest_rec_unchanged(const struct sq_action *a, json_object *before,
			  json_object *after, unsigned scope,
			  const char *(*path)(const struct sq_limit_key *k));
/* k's value in rec as an argument (all: NULL for a new QOS's default). */
const char *sq_rest_limit_arg(const struct sq_limit_key *k, json_object *rec,
			      const char *path, int all, char *buf, size_t n);
/* The old value of each key a sets, from rec, as arguments of inv. */
void sq_rest_limits_undo(const struct sq_action *a, struct sq_action *inv,
			 json_object *rec, unsigned scope,
			 const char *(*path)(const struct sq_limit_key *k));

/* addqos, setqos, delqos (v0.0.40+): mapped? the body of POST /qos from
 * the QOS read before; the check after; others unchanged (1) or not (0,
 * msg); the inverse. */
int sq_rest_qos_mapped(const struct sq_action *a, int vdb);
/* Is a, read back as st, one of those (v0.0.40's shape)? */
int sq_rest_qos_dp(const struct sq_action *a, const struct sq_rest_state *st);
json_object *sq_rest_qos_body(const struct sq_action *a, const char *name,
			      const struct sq_rest_state *before,
			      struct sq_err *err);
int sq_rest_qos_unchanged(const struct sq_action *a,
			  const struct sq_rest_state *before,
			  const struct sq_rest_state *after, char *msg,
			  size_t n);
void sq_rest_qos_inverse(const struct sq_action *a, const struct sq_result *res,
			 const struct sq_rest_state *before, char *buf,
			 size_t n);

/* setlimit, clearlimit (v0.0.40+) on the one association selected;
 * the data_parser field of an association's limit key (NULL: none). */
const char *sq_rest_assoc_path(const struct sq_limit_key *k);
int sq_rest_assoc_mapped(const struct sq_action *a, int vdb);
json_object *sq_rest_assoc_body(const struct sq_action *a, const char *acc,
				const char *user, const char *part,
				const char *cluster,
				const struct sq_rest_state *before,
				struct sq_err *err);
int sq_rest_assoc_read(struct sq_backend *b, const struct sq_action *a,
		       size_t i, const char *cluster, struct sq_rest_state *st,
		       struct sq_err *err);
int sq_rest_assoc_unchanged(const struct sq_action *a, size_t i,
			    const struct sq_rest_state *before,
			    const struct sq_rest_state *after, char *msg,
			    size_t n);
void sq_rest_assoc_inverse(const struct sq_action *a,
			   const struct sq_result *res,
			   const struct sq_rest_state *before, char *buf,
			   size_t n);

/* GET /associations?BY=NAME&cluster= (by "user" or "account") into
 * st->aroot, its list as st->assocs (none: an empty list); -1 with err. */
int sq_rest_assocs_read(struct sq_backend *b, int vdb, const char *by,
			const char *name, const char *cluster,
			struct sq_rest_state *st, struct sq_err *err);

/* moduser (v0.0.40+): default account and admin level (POST /users). */
int sq_rest_user_mapped(const struct sq_action *a, int vdb);
int sq_rest_user_check(const struct sq_action *a, int vdb, struct sq_err *err);
/* defaultqos= alone: POST /associations with every association of the
 * user, each as read first with its default QOS changed
 * (sq_rest_user_path says which). */
json_object *sq_rest_user_body(const struct sq_action *a, const char *name,
			       const char *cluster,
			       const struct sq_rest_state *before,
			       struct sq_err *err);
void sq_rest_user_path(const struct sq_action *a, int vdb, char *buf, size_t n);
int sq_rest_user_read(struct sq_backend *b, const struct sq_action *a, size_t i,
		      const char *cluster, struct sq_rest_state *st,
		      struct sq_err *err);
/* defaultqos=: the user's associations as before but for their
 * default QOS (1; also when not read), or not (0). */
int sq_rest_user_assocs_same(const struct sq_action *a,
			     const struct sq_rest_state *before,
			     const struct sq_rest_state *after);
/* defaultqos=: the preview's lines (core's sq_acct_dq_line()), each
 * association whose default QOS the POST changes, appended to buf. */
void sq_rest_user_listing(const struct sq_action *a,
			  const struct sq_rest_state *before, char *buf,
			  size_t n);
void sq_rest_user_inverse(const struct sq_action *a,
			  const struct sq_result *res,
			  const struct sq_rest_state *before, char *buf,
			  size_t n);

/* modaccount description=/organization=, addcoord, delcoord (v0.0.40+):
 * POST /accounts with the account's fields and its whole coordinator
 * list, from the account read first with its coordinators; modaccount
 * parent=/fairshare=: POST /associations with the account's association
 * (user "") as read first, parent_account and shares_raw set
 * (actions_account.c; sq_rest_account_path says which). */
int sq_rest_account_mapped(const struct sq_action *a, int vdb);
int sq_rest_account_check(const struct sq_action *a, int vdb,
			  struct sq_err *err);
json_object *sq_rest_account_body(const struct sq_action *a, const char *name,
				  const char *cluster,
				  const struct sq_rest_state *before,
				  struct sq_err *err);
void sq_rest_account_path(const struct sq_action *a, int vdb, char *buf,
			  size_t n);
/* modaccount: the associations of account name into st (st->assocs)
 * too. */
int sq_rest_account_read_assoc(struct sq_backend *b, int vdb, const char *name,
			       const char *cluster, struct sq_rest_state *st,
			       struct sq_err *err);
/* The account's own association (its name, user "", no partition)
 * among st->assocs, or NULL. */
json_object *sq_rest_account_assoc(const struct sq_rest_state *st);
void sq_rest_account_inverse(const struct sq_action *a,
			     const struct sq_result *res,
			     const struct sq_rest_state *before, char *buf,
			     size_t n);

#endif
