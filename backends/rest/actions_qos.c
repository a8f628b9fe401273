/*
 * actions_qos.c - addqos, setqos (modqos) and delqos through slurmrestd
 * from API v0.0.40 (Slurm 23.11) on: the body of POST /slurmdb/vN/qos
 * with every key of the QOS vocabulary (core/action/limit_keys.h, its REST
 * field), the check after (each key asked reads back as asked, and on a
 * change no other field of the QOS moved) and the inverse from the QOS
 * read before (setqos with the old values; delqos's undo is addqos with
 * every setting). POST /qos creates a QOS it does not find and changes
 * one it finds, so addqos refuses a QOS that exists and setqos one that
 * does not. A change sends the QOS's preempt mode as read before and
 * flags ["NOT_SET"] unless asked: slurmrestd's parser sets both on every
 * QOS it reads (mode off, no flags), so leaving them out would reset
 * them. Never prints.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/rest/actions.h"
#include "core/action/limit_keys.h"
#include "core/base/util.h"

/* sacctmgr's QOS flag words and data_parser's names (QOS_FLAGS) */
static const struct {
	const char *word, *rest;
} qos_flags[] = {
	{ "DenyOnLimit", "DENY_LIMIT" },
	{ "EnforceUsageThreshold", "ENFORCE_USAGE_THRESHOLD" },
	{ "PartitionMinNodes", "PARTITION_MINIMUM_NODE" },
	{ "PartitionMaxNodes", "PARTITION_MAXIMUM_NODE" },
	{ "PartitionTimeLimit", "PARTITION_TIME_LIMIT" },
	{ "RequiresReservation", "REQUIRED_RESERVATION" },
	{ "OverPartQOS", "OVERRIDE_PARTITION_QOS" },
	{ "NoReserve", "NO_RESERVE" },
	{ "NoDecay", "NO_DECAY" },
	{ "Relative", "RELATIVE" },
	{ "UsageFactorSafe", "USAGE_FACTOR_SAFE" },
};
#define NFLAGS (sizeof(qos_flags) / sizeof(qos_flags[0]))

int
sq_rest_qos_mapped(const struct sq_action *a, int vdb)
{
	return (a->type == SQ_ACTION_QOS_ADD || a->type == SQ_ACTION_QOS_SET ||
		a->type == SQ_ACTION_QOS_DELETE) &&
	       vdb >= 40;
}

int
sq_rest_qos_dp(const struct sq_action *a, const struct sq_rest_state *st)
{
	if (a->type == SQ_ACTION_QOS_ADD || a->type == SQ_ACTION_QOS_DELETE)
		return 1; /* refused before v0.0.40 */
	return a->type == SQ_ACTION_QOS_SET && st != NULL && st->root != NULL &&
	       json_object_object_get_ex(st->root, "qos", NULL);
}

/* flags=DenyOnLimit,NoDecay as ["DENY_LIMIT","NO_DECAY"]; -1: [] */
static json_object *
flags_json(const char *v, struct sq_err *err)
{
	json_object *arr = json_object_new_array();
	const char *p = strcmp(v, "-1") == 0 ? "" : v;

	while (*p != '\0') {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < NFLAGS; i++) {
			if (strlen(qos_flags[i].word) == len &&
			    strncasecmp(qos_flags[i].word, p, len) == 0)
				break;
		}
		if (i == NFLAGS) {
			json_object_put(arr);
			sq_err_set(err, SQ_ERR_USAGE,
				   "unknown QOS flag '%.*s' (flags: "
				   "DenyOnLimit EnforceUsageThreshold "
				   "PartitionMinNodes PartitionMaxNodes "
				   "PartitionTimeLimit RequiresReservation "
				   "OverPartQOS NoReserve NoDecay Relative "
				   "UsageFactorSafe)",
				   (int)(len > 40 ? 40 : len), p);
			return NULL;
		}
		json_object_array_add(
		    arr, json_object_new_string(qos_flags[i].rest));
		p += len + (p[len] == ',');
	}
	return arr;
}

/* preemptmode: off and cluster are data_parser's DISABLED */
static json_object *
mode_json(const char *v)
{
	json_object *arr = json_object_new_array();
	char up[32];
	size_t i;

	if (strcasecmp(v, "off") == 0 || strcasecmp(v, "cluster") == 0)
		snprintf(up, sizeof(up), "DISABLED");
	else
		snprintf(up, sizeof(up), "%s", v);
	for (i = 0; up[i] != '\0'; i++)
		if (up[i] >= 'a' && up[i] <= 'z')
			up[i] = (char)(up[i] - 'a' + 'A');
	json_object_array_add(arr, json_object_new_string(up));
	return arr;
}

/* A TRES list of every TRES in have with count -1 (clears them all). */
static json_object *
tres_clear_all(json_object *have)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0;
	     have != NULL && json_object_is_type(have, json_type_array) &&
	     i < sq_rest_jlen(have);
	     i++) {
		json_object *it = json_object_array_get_idx(have, i);
		json_object *t = NULL, *n = NULL;

		json_object_object_get_ex(it, "type", &t);
		json_object_object_get_ex(it, "name", &n);
		json_object_array_add(
		    arr,
		    sq_rest_jtres_item(t ? json_object_get_string(t) : "",
				       n ? json_object_get_string(n) : "", -1));
	}
	return arr;
}

json_object *
sq_rest_limit_json(const struct sq_limit_key *k, const char *v,
		   json_object *have, struct sq_err *err)
{
	int64_t n;

	if (strcmp(k->type, "count") == 0)
		return strcmp(v, "-1") == 0
			   ? sq_rest_jclear()
			   : sq_rest_jnum(strtoll(v, NULL, 10));
	if (strcmp(k->type, "time") == 0) {
		if (strcmp(v, "-1") == 0 || strcasecmp(v, "UNLIMITED") == 0)
			return sq_rest_jclear();
		if (sq_rest_minutes(v, &n) == -1) {
			sq_err_set(err, SQ_ERR_USAGE, "bad time '%.40s'", v);
			return NULL;
		}
		return sq_rest_jnum(n);
	}
	if (strcmp(k->type, "seconds") == 0)
		return json_object_new_int64(strtoll(v, NULL, 10));
	if (strcmp(k->type, "factor") == 0) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "set", json_object_new_boolean(1));
		json_object_object_add(o, "number",
				       json_object_new_double(strtod(v, NULL)));
		return o;
	}
	if (strcmp(k->type, "tres") == 0)
		return strcmp(v, "-1") == 0 ? tres_clear_all(have)
					    : sq_rest_jtres(v, err);
	if (strcmp(k->key, "flags") == 0)
		return flags_json(v, err);
	if (strcmp(k->type, "names") == 0)
		return sq_rest_jnames(strcmp(v, "-1") == 0 ? "" : v);
	if (strcmp(k->type, "choice") == 0)
		return mode_json(v);
	sq_err_set(err, SQ_ERR_UNSUPPORTED,
		   "%s through slurmrestd is not mapped in squall", k->key);
	return NULL;
}

/* The key of an argument "key=value" into key (canonical), its value. */
static const char *
arg_split(const char *arg, char *key, size_t n)
{
	size_t kl = strcspn(arg, "=");

	snprintf(key, n, "%.*s", (int)(kl < n ? kl : n - 1), arg);
	return arg[kl] == '=' ? arg + kl + 1 : "";
}

json_object *
sq_rest_qos_body(const struct sq_action *a, const char *name,
		 const struct sq_rest_state *before, struct sq_err *err)
{
	json_object *q, *o, *arr;
	json_object *have = before && before->found ? before->rec : NULL;
	int change = a->type == SQ_ACTION_QOS_SET;
	size_t i;

	if (before == NULL) {
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "%s through slurmrestd reads the QOS first; it "
			   "could not be read",
			   a->def->name);
		return NULL;
	}
	if (change && have == NULL) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "no QOS %s (POST /qos would create it)", name);
		return NULL;
	}
	if (!change && have != NULL) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "QOS %s exists (POST /qos would change it)", name);
		return NULL;
	}
	q = json_object_new_object();
	json_object_object_add(q, "name", json_object_new_string(name));
	for (i = 0; i < a->nargs; i++) {
		char key[64];
		const char *v = arg_split(a->args[i], key, sizeof(key));
		const struct sq_limit_key *k = sq_limit_find(key, SQ_LIM_QOS);
		json_object *j;

		if (k == NULL || k->rest_qos == NULL) {
			json_object_put(q);
			sq_err_set(err, SQ_ERR_UNSUPPORTED,
				   "%s through slurmrestd is not mapped", key);
			return NULL;
		}
		j = sq_rest_limit_json(
		    k, v, have ? sq_rest_jget(have, k->rest_qos) : NULL, err);
		if (j == NULL) {
			json_object_put(q);
			return NULL;
		}
		sq_rest_jput(q, k->rest_qos, j);
	}
	if (change && sq_action_arg(a, "flags") == NULL) {
		arr = json_object_new_array();
		json_object_array_add(arr, json_object_new_string("NOT_SET"));
		json_object_object_add(q, "flags", arr);
	}
	if (change && sq_action_arg(a, "preemptmode") == NULL &&
	    (o = sq_rest_jget(have, "preempt.mode")) != NULL)
		sq_rest_jput(q, "preempt.mode", json_object_get(o));
	arr = json_object_new_array();
	json_object_array_add(arr, q);
	o = json_object_new_object();
	json_object_object_add(o, "qos", arr);
	return o;
}

static const char *
qos_path(const struct sq_limit_key *k)
{
	return k->rest_qos;
}

int
sq_rest_rec_unchanged(const struct sq_action *a, json_object *before,
		      json_object *after, unsigned scope,
		      const char *(*path)(const struct sq_limit_key *k))
{
	const char *paths[SQ_ACTION_MAX_ARGS];
	size_t i, np = 0;

	for (i = 0; i < a->nargs && np < SQ_ACTION_MAX_ARGS; i++) {
		char key[64];
		const struct sq_limit_key *k;

		arg_split(a->args[i], key, sizeof(key));
		k = sq_limit_find(key, scope);
		if (k != NULL && path(k) != NULL)
			paths[np++] = path(k);
	}
	return sq_rest_jsame_but(before, after, paths, np) == 1;
}

int
sq_rest_qos_unchanged(const struct sq_action *a,
		      const struct sq_rest_state *before,
		      const struct sq_rest_state *after, char *msg, size_t n)
{
	if (a->type != SQ_ACTION_QOS_SET || before == NULL || !before->found ||
	    !after->found)
		return 1;
	if (sq_rest_rec_unchanged(a, before->rec, after->rec, SQ_LIM_QOS,
				  qos_path))
		return 1;
	snprintf(msg, n,
		 "changed as asked, but other fields of the QOS "
		 "changed too");
	return 0;
}

/* The value of k in rec as squall's argument, into buf; NULL when it
 * has none (or, with all, the default a new QOS gets). */
const char *
sq_rest_limit_arg(const struct sq_limit_key *k, json_object *rec,
		  const char *path, int all, char *buf, size_t n)
{
	json_object *got = sq_rest_jget(rec, path);
	int64_t v;
	size_t i, off = 0;

	buf[0] = '\0';
	if (got == NULL)
		return NULL;
	if (strcmp(k->type, "count") == 0 || strcmp(k->type, "time") == 0 ||
	    strcmp(k->type, "seconds") == 0 || strcmp(k->type, "shares") == 0) {
		int r = sq_rest_jlimit(got, &v);

		if (r == 1 && !(all && v == 0 && !k->clears))
			snprintf(buf, n, "%lld", (long long)v);
		else if (r == 0 && k->clears && !all)
			snprintf(buf, n, "-1");
		if (all && strcmp(k->type, "seconds") == 0 && v == 0)
			buf[0] = '\0';
	} else if (strcmp(k->type, "factor") == 0) {
		json_object *x = sq_rest_jget(got, "number");
		double d = x ? json_object_get_double(x) : 1.0;

		if (x != NULL && !(all && fabs(d - 1.0) < 1e-9)) {
			snprintf(buf, n, "%.6f", d);
			for (i = strlen(buf);
			     i > 1 && buf[i - 1] == '0' && buf[i - 2] != '.';
			     i--)
				buf[i - 1] = '\0';
		}
	} else if (strcmp(k->type, "tres") == 0) {
		sq_rest_jtres_text(got, buf, n);
	} else if (strcmp(k->type, "choice") == 0) {
		const char *m = sq_rest_jlen(got) > 0
				    ? json_object_get_string(
					  json_object_array_get_idx(got, 0))
				    : "DISABLED";

		if (strcasecmp(m, "DISABLED") == 0)
			snprintf(buf, n, "%s", all ? "" : "cluster");
		else
			for (i = 0; m[i] != '\0' && i + 1 < n; i++) {
				buf[i] = (char)(m[i] >= 'A' && m[i] <= 'Z'
						    ? m[i] - 'A' + 'a'
						    : m[i]);
				buf[i + 1] = '\0';
			}
	} else if (strcmp(k->type, "names") == 0) {
		for (i = 0; json_object_is_type(got, json_type_array) &&
			    i < sq_rest_jlen(got);
		     i++) {
			const char *s = json_object_get_string(
			    json_object_array_get_idx(got, i));
			size_t f;

			for (f = 0; strcmp(k->key, "flags") == 0 && f < NFLAGS;
			     f++)
				if (strcasecmp(qos_flags[f].rest, s) == 0)
					s = qos_flags[f].word;
			off +=
			    (size_t)snprintf(buf + off, off < n ? n - off : 0,
					     "%s%s", off ? "," : "", s);
		}
		if (off >= n)
			buf[0] = '\0';
	} else if (strcmp(k->type, "name") == 0) {
		snprintf(buf, n, "%s", json_object_get_string(got));
	}
	if (buf[0] == '\0' && !all && k->clears)
		snprintf(buf, n, "-1");
	return buf[0] ? buf : NULL;
}

/* For a TRES key asked: the old list plus "T=-1" for each TRES asked
 * that the old list did not have. */
static const char *
tres_undo(const char *asked, json_object *had, char *buf, size_t n)
{
	const char *p = asked;
	size_t off;

	sq_rest_jtres_text(had, buf, n);
	off = strlen(buf);
	while (strcmp(asked, "-1") != 0 && *p != '\0') {
		size_t len = strcspn(p, ","), eq = strcspn(p, "=");
		char key[140];

		snprintf(key, sizeof(key), "%.*s", (int)(eq < len ? eq : len),
			 p);
		if (sq_rest_jtres_count(had, key) == -1 && off < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s=-1",
						off ? "," : "", key);
		p += len + (p[len] == ',');
	}
	return buf[0] && off < n ? buf : NULL;
}

void
sq_rest_limits_undo(const struct sq_action *a, struct sq_action *inv,
		    json_object *rec, unsigned scope,
		    const char *(*path)(const struct sq_limit_key *k))
{
	size_t k;

	for (k = 0; k < a->nargs; k++) {
		char key[64], val[1024];
		const char *v = arg_split(a->args[k], key, sizeof(key)), *old;
		const struct sq_limit_key *lk = sq_limit_find(key, scope);

		if (lk == NULL || path(lk) == NULL)
			continue;
		if (strcmp(lk->type, "tres") == 0)
			old = tres_undo(v, sq_rest_jget(rec, path(lk)), val,
					sizeof(val));
		else
			old = sq_rest_limit_arg(lk, rec, path(lk), 0, val,
						sizeof(val));
		if (old != NULL)
			sq_action_set_arg(inv, key, old, NULL);
	}
}

/* delqos's undo: addqos NAME with every setting the QOS had */
static void
delqos_undo(struct sq_action *inv, json_object *rec)
{
	const struct sq_limit_key *keys;
	size_t nk, j;

	keys = sq_limit_keys(&nk);
	for (j = 0; j < nk; j++) {
		char val[1024];
		const char *v;

		if (!(keys[j].scope & SQ_LIM_QOS) || keys[j].rest_qos == NULL)
			continue;
		v = sq_rest_limit_arg(&keys[j], rec, keys[j].rest_qos, 1, val,
				      sizeof(val));
		if (v != NULL)
			sq_action_set_arg(inv, keys[j].key, v, NULL);
	}
}

void
sq_rest_qos_inverse(const struct sq_action *a, const struct sq_result *res,
		    const struct sq_rest_state *before, char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < res->ntargets && i < a->ntargets; i++) {
		struct sq_action inv;
		char line[1024];

		if (!res->targets[i].ok)
			continue;
		if (a->type == SQ_ACTION_QOS_ADD) {
			sq_action_init(&inv, SQ_ACTION_QOS_DELETE);
		} else {
			if (!before[i].found)
				continue;
			sq_action_init(&inv, a->def->inverse);
		}
		sq_action_add_target(&inv, a->targets[i], NULL);
		if (a->type == SQ_ACTION_QOS_SET)
			sq_rest_limits_undo(a, &inv, before[i].rec, SQ_LIM_QOS,
					    qos_path);
		else if (a->type == SQ_ACTION_QOS_DELETE)
			delqos_undo(&inv, before[i].rec);
		if ((inv.nargs > 0 || a->type != SQ_ACTION_QOS_SET) &&
		    sq_action_format(&inv, line, sizeof(line)) == 0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
		sq_action_free(&inv);
	}
}
