/*
 * submit.c - `:submit` through slurmrestd: POST /slurm/vX/job/submit with
 * {"script": ..., "job": {...}} built from the same validated options as
 * sbatch's, a working directory (-D, else the user's home when this host
 * knows the user, else /tmp) and a minimal environment (PATH only; an
 * object on v0.0.38, "K=V" strings from v0.0.40). The preview shows the
 * body with the script abbreviated. The new job is read back with GET
 * /slurm/vX/job/ID. Options REST cannot express are refused, not dropped.
 */
#include <ctype.h>
#include <json-c/json.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/act.h"
#include "backends/backend.h"
#include "backends/rest/rest.h"
#include "backends/rest/submit.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/parse.h"
#include "core/action/submit.h"
#include "core/base/util.h"

#define SUBMIT_PATH_ENV "PATH=/usr/local/bin:/usr/bin:/bin"

/* An integer field: plain on v0.0.38, {"set","infinite","number"} from
 * v0.0.40 (the *_no_val types). */
static json_object *
num(int v, int64_t n)
{
	json_object *o;

	if (v < 40)
		return json_object_new_int64(n);
	o = json_object_new_object();
	json_object_object_add(o, "set", json_object_new_boolean(1));
	json_object_object_add(o, "infinite", json_object_new_boolean(0));
	json_object_object_add(o, "number", json_object_new_int64(n));
	return o;
}

/* "4G" -> 4096 (MB) */
static int
mem_mb(const char *s, int64_t *mb)
{
	char *end;
	long long n = strtoll(s, &end, 10);

	switch (toupper((unsigned char)*end)) {
	case '\0':
	case 'M':
		*mb = n;
		break;
	case 'K':
		*mb = (n + 1023) / 1024;
		break;
	case 'G':
		*mb = n * 1024;
		break;
	case 'T':
		*mb = n * 1024 * 1024;
		break;
	default:
		return -1;
	}
	return 0;
}

/* --begin over REST: epoch seconds or now+N[seconds|minutes|hours|days]
 * (the API takes a UNIX time); the rest is refused. */
static int
begin_time(const char *s, int64_t *t)
{
	char *end;
	long long n;
	static const struct {
		const char *unit;
		int64_t mul;
	} units[] = { { "", 1 },         { "s", 1 },     { "sec", 1 },
		      { "seconds", 1 },  { "m", 60 },    { "min", 60 },
		      { "minutes", 60 }, { "h", 3600 },  { "hour", 3600 },
		      { "hours", 3600 }, { "d", 86400 }, { "day", 86400 },
		      { "days", 86400 } };
	size_t i;

	if (strspn(s, "0123456789") == strlen(s)) {
		*t = strtoll(s, NULL, 10);
		return 0;
	}
	if (strncmp(s, "now+", 4) != 0 || !isdigit((unsigned char)s[4]))
		return -1;
	n = strtoll(s + 4, &end, 10);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) == 0) {
			*t = (int64_t)time(NULL) + n * units[i].mul;
			return 0;
		}
	}
	return -1;
}

static int
refuse(struct sq_err *err, const char *opt, int v, const char *why)
{
	return sq_err_set(
	    err, SQ_ERR_UNSUPPORTED,
	    "submit: --%s is not supported over REST (v0.0.%d)%s%s"
	    "; use the local or ssh backend",
	    opt, v, why ? ": " : "", why ? why : "");
}

/* An option that is one string or integer field of the job (the same in
 * every version) into job: 0, or -1 if key is not one. */
static int
add_field(json_object *job, const char *key, const char *val)
{
	static const struct {
		const char *key, *field;
	} strs[] = {
		{ "partition", "partition" },
		{ "account", "account" },
		{ "qos", "qos" },
		{ "job-name", "name" },
		{ "array", "array" },
		{ "output", "standard_output" },
		{ "error", "standard_error" },
		{ "chdir", "current_working_directory" },
		{ "dependency", "dependency" },
		{ "comment", "comment" },
		{ "reservation", "reservation" },
	};
	static const struct {
		const char *key, *field;
	} ints[] = {
		{ "ntasks", "tasks" },
		{ "cpus-per-task", "cpus_per_task" },
		{ "nice", "nice" },
	};
	size_t i;

	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		if (strcmp(key, strs[i].key) == 0) {
			json_object_object_add(job, strs[i].field,
					       json_object_new_string(val));
			return 0;
		}
	}
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (strcmp(key, ints[i].key) == 0) {
			json_object_object_add(
			    job, ints[i].field,
			    json_object_new_int64(atoll(val)));
			return 0;
		}
	}
	return -1;
}

/* --nodes=N or N-M into job: before v0.0.40 [min, max] (22.05 wants
 * both), from it the text. */
static void
add_nodes(json_object *job, int v, const char *val)
{
	if (v < 40) {
		json_object *a = json_object_new_array();
		const char *dash = strchr(val, '-');

		/* [min, max]: 22.05 wants both */
		json_object_array_add(a, json_object_new_int64(atoll(val)));
		json_object_array_add(a, json_object_new_int64(atoll(
					     dash != NULL ? dash + 1 : val)));
		json_object_object_add(job, "nodes", a);
	} else {
		json_object_object_add(job, "nodes",
				       json_object_new_string(val));
	}
}

/* --gres into job: gres before v0.0.40, tres_per_node from it. */
static void
add_gres(json_object *job, int v, const char *val)
{
	if (v < 40) {
		json_object_object_add(job, "gres",
				       json_object_new_string(val));
	} else {
		char t[300];

		snprintf(t, sizeof(t), "gres/%s", val);
		json_object_object_add(job, "tres_per_node",
				       json_object_new_string(t));
	}
}

/* --exclusive into job: a string before v0.0.40, a list from it. */
static void
add_exclusive(json_object *job, int v)
{
	if (v < 40) {
		json_object_object_add(job, "exclusive",
				       json_object_new_string("true"));
	} else {
		json_object *a = json_object_new_array();

		json_object_array_add(a, json_object_new_string("true"));
		json_object_object_add(job, "exclusive", a);
	}
}

/* One validated option into the job description. */
static int
add_opt(json_object *job, int v, const char *key, const char *val,
	struct sq_err *err)
{
	int64_t n;

	if (add_field(job, key, val) == 0)
		return 0;
	if (strcmp(key, "time") == 0) {
		if (sq_parse_duration(val, &n) == -1 || n < 0)
			return refuse(err, key, v, "not a duration");
		json_object_object_add(job, "time_limit",
				       num(v, (n + 59) / 60));
	} else if (strcmp(key, "hold") == 0) {
		json_object_object_add(job, "hold", json_object_new_boolean(1));
	} else if (strcmp(key, "mem") == 0 || strcmp(key, "mem-per-cpu") == 0) {
		if (mem_mb(val, &n) == -1)
			return refuse(err, key, v, "not a size");
		json_object_object_add(
		    job, key[3] == '\0' ? "memory_per_node" : "memory_per_cpu",
		    num(v, n));
	} else if (strcmp(key, "nodes") == 0) {
		add_nodes(job, v, val);
	} else if (strcmp(key, "gres") == 0) {
		add_gres(job, v, val);
	} else if (strcmp(key, "gpus") == 0) {
		if (v >= 40)
			return refuse(err, key, v, "use --gres=gpu:N");
		json_object_object_add(job, "gpus",
				       json_object_new_string(val));
	} else if (strcmp(key, "nodelist") == 0 ||
		   strcmp(key, "exclude") == 0) {
		json_object *a;

		if (v < 40)
			return refuse(err, key, v, "no such field");
		a = json_object_new_array();
		json_object_array_add(a, json_object_new_string(val));
		json_object_object_add(
		    job, key[0] == 'n' ? "required_nodes" : "excluded_nodes",
		    a);
	} else if (strcmp(key, "begin") == 0) {
		if (begin_time(val, &n) == -1)
			return refuse(err, key, v,
				      "write it as epoch seconds or now+N"
				      "[minutes|hours|days]");
		json_object_object_add(job, "begin_time", num(v, n));
	} else if (strcmp(key, "exclusive") == 0) {
		add_exclusive(job, v);
	} else if (strcmp(key, "export") == 0) {
		return refuse(err, key, v,
			      "the job's environment is PATH only");
	} else {
		return refuse(err, key, v, NULL);
	}
	return 0;
}

/* The working directory of a REST job: -D, else home, else /tmp. */
static void
workdir(const struct sq_action *a, const char *user, char *buf, size_t n)
{
	const char *d = sq_action_arg(a, "chdir");
	struct passwd *pw;

	if (d != NULL) {
		sq_util_copy(buf, n, d);
		return;
	}
	pw = user != NULL && *user != '\0' ? getpwnam(user) : NULL;
	sq_util_copy(buf, n,
		     pw != NULL && pw->pw_dir[0] == '/' ? pw->pw_dir : "/tmp");
}

char *
sq_rest_submit_body(const struct sq_action *a, int v, const char *user,
		    int abbreviate, struct sq_err *err)
{
	json_object *root, *job, *env;
	char cwd[1100], about[1400];
	const char *s;
	char *body = NULL;
	size_t i;

	if (a->type != SQ_ACTION_JOB_SUBMIT || a->script == NULL) {
		sq_err_set(err, SQ_ERR_USAGE, "not a submit action");
		return NULL;
	}
	root = json_object_new_object();
	job = json_object_new_object();
	for (i = 0; i < a->nargs; i++) {
		char key[64];
		const char *val =
		    sq_action_arg_split(a->args[i], key, sizeof(key));

		if (val == NULL)
			continue;
		if (add_opt(job, v, key, val, err) == -1) {
			json_object_put(job);
			json_object_put(root);
			return NULL;
		}
	}
	workdir(a, user, cwd, sizeof(cwd));
	json_object_object_add(job, "current_working_directory",
			       json_object_new_string(cwd));
	if (v < 40) {
		env = json_object_new_object();
		json_object_object_add(
		    env, "PATH",
		    json_object_new_string(strchr(SUBMIT_PATH_ENV, '=') + 1));
	} else {
		env = json_object_new_array();
		json_object_array_add(env,
				      json_object_new_string(SUBMIT_PATH_ENV));
	}
	json_object_object_add(job, "environment", env);
	if (abbreviate) {
		char first[80];
		size_t l = strcspn(a->script, "\n");

		snprintf(first, sizeof(first), "%.*s", (int)(l > 60 ? 60 : l),
			 a->script);
		sq_submit_about(a, about, sizeof(about));
		snprintf(about + strlen(about), sizeof(about) - strlen(about),
			 ": %s ...", first);
		json_object_object_add(root, "script",
				       json_object_new_string(about));
	} else {
		json_object_object_add(
		    root, "script",
		    json_object_new_string_len(a->script, (int)a->script_len));
	}
	json_object_object_add(root, "job", job);
	s = json_object_to_json_string_ext(
	    root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s != NULL)
		body = strdup(s);
	json_object_put(root);
	if (body == NULL)
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return body;
}

int
sq_rest_submit_describe(struct sq_backend *b, const struct sq_action *a,
			char *buf, size_t len)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	struct sq_err err;
	char *body;

	sq_err_clear(&err);
	body = sq_rest_submit_body(a, api->slurm, sq_rest_backend_user(b), 1,
				   &err);
	if (body == NULL) {
		sq_util_copy(buf, len, err.msg);
		return -1;
	}
	snprintf(buf, len, "POST /slurm/v0.0.%d/job/submit %s", api->slurm,
		 body);
	free(body);
	return 0;
}

/* A string field of the job, or "" (v0.0.40+ job_state is an array). */
static const char *
jfield(json_object *job, const char *key)
{
	json_object *o;

	if (!json_object_object_get_ex(job, key, &o) || o == NULL)
		return "";
	if (json_object_is_type(o, json_type_array))
		o = json_object_array_length(o) > 0
			? json_object_array_get_idx(o, 0)
			: NULL;
	return o != NULL ? json_object_get_string(o) : "";
}

/* GET the job back: its partition, user, state and name. */
static int
verify(struct sq_backend *b, int v, const struct sq_action *a, const char *id,
       char *msg, size_t n)
{
	struct sq_buf out;
	struct sq_err e;
	json_object *root = NULL, *jobs, *job;
	char path[128];
	long status = 0;
	int rc = SQ_VERIFY_UNCHECKED;
	const char *want_p = sq_action_arg(a, "partition");
	const char *want_n = sq_action_arg(a, "job-name");

	snprintf(path, sizeof(path), "/slurm/v0.0.%d/job/%s", v, id);
	sq_buf_init(&out, 16 * 1024 * 1024);
	sq_err_clear(&e);
	if (sq_rest_call(b, "GET", path, NULL, &out, &status, &e) == 0 &&
	    (root = json_tokener_parse(sq_buf_str(&out))) != NULL &&
	    json_object_object_get_ex(root, "jobs", &jobs) &&
	    json_object_is_type(jobs, json_type_array) &&
	    json_object_array_length(jobs) > 0) {
		job = json_object_array_get_idx(jobs, 0);
		snprintf(msg, n, "%s in %s as %s, name %s",
			 jfield(job, "job_state"), jfield(job, "partition"),
			 jfield(job, "user_name"), jfield(job, "name"));
		rc = SQ_VERIFY_OK;
		if (want_p != NULL && strchr(want_p, ',') == NULL &&
		    strcmp(want_p, jfield(job, "partition")) != 0)
			rc = SQ_VERIFY_FAILED;
		if (want_n != NULL && strcmp(want_n, jfield(job, "name")) != 0)
			rc = SQ_VERIFY_FAILED;
	} else {
		snprintf(msg, n, "not seen with GET %s: %.200s", path, e.msg);
	}
	if (root != NULL)
		json_object_put(root);
	sq_buf_free(&out);
	return rc;
}

int
sq_rest_submit_act(struct sq_backend *b, const struct sq_action *a,
		   struct sq_result *res, struct sq_err *err)
{
	const struct sq_rest_api *api = sq_rest_backend_api(b);
	struct sq_buf out;
	json_object *root = NULL, *idv;
	char path[96], id[32], seen[600];
	char *body = NULL;
	long status = 0;
	double t0 = sq_util_now_ms();
	int rc = -1, vr, rcall;
	struct sq_err note;

	if (sq_act_begin(res, a, err) == -1)
		return -1;
	sq_err_clear(&note);
	sq_buf_init(&out, 1024 * 1024);
	body =
	    sq_rest_submit_body(a, api->slurm, sq_rest_backend_user(b), 0, err);
	if (body == NULL)
		goto out;
	snprintf(path, sizeof(path), "/slurm/v0.0.%d/job/submit", api->slurm);
	rcall = sq_rest_call(b, "POST", path, body, &out, &status, err);
	res->status = (int)status;
	if (rcall == 0 &&
	    sq_slurmjson_check(out.data ? out.data : "{}",
			       out.data ? out.len : 2, NULL, &note) == -1)
		/* 22.05 lists "Job is in held state" (2042) for a held job
		 * it did submit: an error only when there is no job_id */
		sq_err_set(err, note.code, "%s", note.msg);
	root = json_tokener_parse(sq_buf_str(&out));
	if (rcall == -1 || root == NULL ||
	    !json_object_object_get_ex(root, "job_id", &idv) ||
	    json_object_get_int64(idv) <= 0) {
		if (rcall == 0 && note.msg[0] == '\0')
			sq_err_set(err, SQ_ERR_PARSE,
				   "slurmrestd answered without a job_id");
		goto out;
	}
	snprintf(id, sizeof(id), "%lld", (long long)json_object_get_int64(idv));
	vr = verify(b, api->slurm, a, id, seen, sizeof(seen));
	rc = sq_act_submitted(res, id, vr, seen, err);
out:
	if (rc == -1 && res->message[0] == '\0')
		sq_act_submitted(res, NULL, SQ_VERIFY_UNCHECKED, NULL, err);
	if (root != NULL)
		json_object_put(root);
	free(body);
	sq_buf_free(&out);
	return sq_act_end(res, rc, err, t0);
}
