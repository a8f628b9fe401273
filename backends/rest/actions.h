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

#include "core/action.h"
#include "core/err.h"

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
};

void sq_rest_state_free(struct sq_rest_state *s);
/* The Slurm cluster name (slurmdb calls) into buf, or NULL with err. */
const char *sq_rest_cluster_name(struct sq_backend *b, char *buf, size_t n,
				 struct sq_err *err);
/* GET target i of a; st->found 0 when Slurm says it does not exist. */
int sq_rest_read_target(struct sq_backend *b, const struct sq_action *a,
			size_t i, const char *cluster, struct sq_rest_state *st,
			struct sq_err *err);
/* Whether the effect of a shows in st (enum sq_verify), before being the
 * state read before it ran (NULL: not read); msg says what. Jobs and
 * nodes: core's sq_action_verdict() on sq_rest_target_rec(). */
int sq_rest_verify(const struct sq_action *a,
		   const struct sq_rest_state *before,
		   const struct sq_rest_state *st, char *msg, size_t n);
/* A job's or a node's record (st->rec, a member of "jobs" or "nodes")
 * as core's normalized target record (st NULL or not found: not found). */
struct sq_target_rec;
void sq_rest_target_rec(const struct sq_action *a,
			const struct sq_rest_state *st,
			struct sq_target_rec *out);
/* The inverse of the targets that succeeded, from the states before. */
void sq_rest_inverse(const struct sq_action *a, const struct sq_result *res,
		     const struct sq_rest_state *before, char *buf, size_t n);

/* Reservations (actions_resv.c, API v0.0.43+): the body of POST
 * /slurm/vX/reservation for a reserve or reserve-update of name; GET of
 * target i (found: a reservation of that name); the check after and the
 * inverse (core/resv_check.c). */
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
 * scontrol writes it ("IDLE+DRAIN") into buf, the check after and the
 * inverse from the nodes read before. */
int sq_rest_node_check(const struct sq_action *a, int vs, struct sq_err *err);
void sq_rest_node_path(int vs, const char *t, char *buf, size_t n);
json_object *sq_rest_node_body(const struct sq_action *a, struct sq_err *err);
int sq_rest_node_read(struct sq_backend *b, const struct sq_action *a, size_t i,
		      struct sq_rest_state *st, struct sq_err *err);
const char *sq_rest_node_state(json_object *rec, char *buf, size_t n);
int sq_rest_node_verify(const struct sq_action *a,
			const struct sq_rest_state *st, char *msg, size_t n);
void sq_rest_node_inverse(const struct sq_action *a,
			  const struct sq_result *res,
			  const struct sq_rest_state *before, char *buf,
			  size_t n);

#endif
