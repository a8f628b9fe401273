/*
 * actions_node.c - node actions through slurmrestd: drain, down, resume
 * and reason are POST /slurm/vX/node/NAME with an update body (the same
 * from v0.0.39, Slurm 23.02, to v0.0.45: "state" a list of state words,
 * "reason" a string; reason_uid is left out, slurmctld records the
 * caller, and v0.0.45 no longer takes it). v0.0.38 (22.05) answers 405
 * to that POST, and no version has a reboot call (scontrol reboot is its
 * own RPC): both are refused with the reason. Each node is read back
 * with GET /slurm/vX/node/NAME and judged as the CLI backends judge
 * `scontrol show node` (State has DRAIN and the reason is the one set,
 * ...), and the undo is built from the state and reason read before.
 */
#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/rest/actions.h"
#include "backends/rest/rest.h"
#include "core/base/util.h"

/* --- the requests -------------------------------------------------------- */

/* One node name per request: slurmrestd reads the path's name as one
 * node ("n[1-4]" is expanded by the parser before; "ALL" is refused). */
static int
plain_name(const char *t)
{
	size_t i;

	if (t == NULL || t[0] == '\0' || strcasecmp(t, "ALL") == 0)
		return 0;
	for (i = 0; t[i] != '\0'; i++) {
		unsigned char c = (unsigned char)t[i];

		if (!isalnum(c) && c != '_' && c != '.' && c != '-')
			return 0;
	}
	return 1;
}

int
sq_rest_node_check(const struct sq_action *a, int vs, struct sq_err *err)
{
	size_t i;

	if (vs <= 38)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "node updates through slurmrestd (API "
				  "v0.0.%d) are not possible: POST /node "
				  "answers 405 on v0.0.38 (Slurm 22.05); use "
				  "the local or ssh backend",
				  vs);
	if (a->type == SQ_ACTION_NODE_REBOOT)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "reboot through slurmrestd (API v0.0.%d) is "
				  "not possible: slurmrestd has no reboot call "
				  "(scontrol reboot is its own RPC, and POST "
				  "/node takes no reboot state); use the local "
				  "or ssh backend",
				  vs);
	for (i = 0; i < a->ntargets; i++) {
		if (!plain_name(a->targets[i]))
			return sq_err_set(err, SQ_ERR_UNSUPPORTED,
					  "'%.60s': slurmrestd updates one "
					  "named node per request (POST "
					  "/slurm/v0.0.%d/node/NAME); name "
					  "the nodes, or use the local or ssh "
					  "backend",
					  a->targets[i], vs);
	}
	return 0;
}

void
sq_rest_node_path(int vs, const char *t, char *buf, size_t n)
{
	snprintf(buf, n, "/slurm/v0.0.%d/node/%s", vs, t);
}

static void
add_state(json_object *o, const char *word)
{
	json_object *arr = json_object_new_array();

	json_object_array_add(arr, json_object_new_string(word));
	json_object_object_add(o, "state", arr);
}

json_object *
sq_rest_node_body(const struct sq_action *a, struct sq_err *err)
{
	json_object *o = json_object_new_object();
	const char *reason = sq_action_arg(a, "reason");

	switch (a->type) {
	case SQ_ACTION_NODE_DRAIN:
		add_state(o, "DRAIN");
		break;
	case SQ_ACTION_NODE_DOWN:
		add_state(o, "DOWN");
		break;
	case SQ_ACTION_NODE_RESUME:
		add_state(o, "RESUME");
		break;
	case SQ_ACTION_NODE_CANCEL_REBOOT:
		add_state(o, "REBOOT_CANCELED");
		break;
	case SQ_ACTION_NODE_REASON:
		break;
	default:
		json_object_put(o);
		sq_err_set(err, SQ_ERR_UNSUPPORTED, "not a node update");
		return NULL;
	}
	if (reason != NULL)
		json_object_object_add(o, "reason",
				       json_object_new_string(reason));
	return o;
}

/* --- reading a node back ------------------------------------------------- */

static const char *
str_field(json_object *o, const char *key)
{
	json_object *x;

	if (o == NULL || !json_object_object_get_ex(o, key, &x) || x == NULL ||
	    !json_object_is_type(x, json_type_string))
		return "";
	return json_object_get_string(x);
}

/* put word (upper case) after a '+' */
static void
add_word(char *buf, size_t n, size_t *off, const char *w)
{
	size_t i;

	if (*off > 0 && *off + 1 < n)
		buf[(*off)++] = '+';
	for (i = 0; w[i] != '\0' && *off + 1 < n; i++)
		buf[(*off)++] = (char)toupper((unsigned char)w[i]);
	buf[*off] = '\0';
}

static void
add_words(json_object *arr, char *buf, size_t n, size_t *off)
{
	size_t k;

	if (arr == NULL || !json_object_is_type(arr, json_type_array))
		return;
	for (k = 0; k < sq_rest_jlen(arr); k++) {
		json_object *x = json_object_array_get_idx(arr, k);

		if (json_object_is_type(x, json_type_string))
			add_word(buf, n, off, json_object_get_string(x));
	}
}

/* A node's state as scontrol prints it: "IDLE+DRAIN" from ["IDLE",
 * "DRAIN"] (v0.0.39+) or from "idle" and state_flags ["DRAIN"]
 * (v0.0.38); the verdicts (actions_read.c) read it too. */
const char *
sq_rest_node_state(json_object *rec, char *buf, size_t n)
{
	json_object *st = NULL, *fl = NULL;
	size_t off = 0;

	if (n == 0)
		return "";
	buf[0] = '\0';
	json_object_object_get_ex(rec, "state", &st);
	/* v0.0.39+: ["IDLE","DRAIN"]; v0.0.38: "idle" and state_flags */
	if (st != NULL && json_object_is_type(st, json_type_string))
		add_word(buf, n, &off, json_object_get_string(st));
	else
		add_words(st, buf, n, &off);
	if (json_object_object_get_ex(rec, "state_flags", &fl))
		add_words(fl, buf, n, &off);
	return buf;
}

int
sq_rest_node_read(struct sq_backend *b, const struct sq_action *a, size_t i,
		  struct sq_rest_state *st, struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	char path[512];

	memset(st, 0, sizeof(*st));
	if (!plain_name(a->targets[i]))
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "'%.60s' is not one node name",
				  a->targets[i]);
	sq_rest_node_path(api->slurm, a->targets[i], path, sizeof(path));
	/* "Failure to query node n9": no such node */
	if (sq_rest_get_target(b, path, "Failure to query node", st, err) == -1)
		return -1;
	st->rec = sq_rest_named(st->root, "nodes", a->targets[i]);
	st->found = st->rec != NULL;
	return 0;
}

/* --- the check after, as the CLI backends judge scontrol's State ---------- */

static int
has_word(const char *state, const char *w)
{
	return strstr(state, w) != NULL;
}

static int
in_service(const char *st)
{
	return !has_word(st, "DRAIN") && strncmp(st, "DOWN", 4) != 0;
}

/* --- the undo ------------------------------------------------------------ */

/*
 * The line that undoes a on the node read before as rec, without its
 * target, into inv (initialised here); -1 when there is none. drain
 * and down: resume. resume: drain or down again with the reason it had
 * (as the CLI backends: "restored by squall undo" when it had none).
 * reason: the reason it had.
 */
static int
inverse_of(const struct sq_action *a, json_object *rec, struct sq_action *inv)
{
	const char *reason = str_field(rec, "reason");
	char s[256];

	sq_rest_node_state(rec, s, sizeof(s));
	switch (a->type) {
	case SQ_ACTION_NODE_DRAIN:
	case SQ_ACTION_NODE_DOWN:
		sq_action_init(inv, SQ_ACTION_NODE_RESUME);
		return 0;
	case SQ_ACTION_NODE_RESUME:
		if (in_service(s))
			return -1;
		sq_action_init(inv, has_word(s, "DRAIN") ? SQ_ACTION_NODE_DRAIN
							 : SQ_ACTION_NODE_DOWN);
		if (*reason == '\0' ||
		    sq_action_set_arg(inv, "reason", reason, NULL) == -1)
			sq_action_set_arg(inv, "reason",
					  "restored by squall undo", NULL);
		return 0;
	case SQ_ACTION_NODE_REASON:
		if (*reason == '\0')
			return -1;
		sq_action_init(inv, SQ_ACTION_NODE_REASON);
		if (sq_action_set_arg(inv, "reason", reason, NULL) == -1) {
			sq_action_free(inv);
			return -1;
		}
		return 0;
	default:
		return -1;
	}
}

void
sq_rest_node_inverse(const struct sq_action *a, const struct sq_result *res,
		     const struct sq_rest_state *before, char *buf, size_t n)
{
	size_t i, j, off = 0;

	buf[0] = '\0';
	/* one line per group of nodes that had the same state and reason */
	for (i = 0; i < res->ntargets; i++) {
		struct sq_action inv, o;
		char key[1024], key2[1024], line[1024];
		int dup = 0;

		if (!res->targets[i].ok || !before[i].found ||
		    inverse_of(a, before[i].rec, &inv) == -1)
			continue;
		sq_action_format(&inv, key, sizeof(key));
		/* grouped with an earlier node already */
		for (j = 0; j < i && !dup; j++) {
			if (!res->targets[j].ok || !before[j].found ||
			    inverse_of(a, before[j].rec, &o) == -1)
				continue;
			sq_action_format(&o, key2, sizeof(key2));
			dup = strcmp(key, key2) == 0;
			sq_action_free(&o);
		}
		for (j = i; j < res->ntargets && !dup; j++) {
			if (!res->targets[j].ok || !before[j].found ||
			    inverse_of(a, before[j].rec, &o) == -1)
				continue;
			sq_action_format(&o, key2, sizeof(key2));
			if (strcmp(key, key2) == 0)
				sq_action_add_target(&inv, a->targets[j], NULL);
			sq_action_free(&o);
		}
		if (!dup && sq_action_format(&inv, line, sizeof(line)) == 0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
		sq_action_free(&inv);
	}
}
