/*
 * sj_ctld.c - slurmctld records from JSON: partitions, nodes and jobs, in
 * the v0.0.38 shape (flat, lowercase node states, plain numbers) and the
 * v0.0.39+ shape (nested partitions, state arrays, NO_VAL objects). The
 * strings produced match what the CLI parsers produce from scontrol,
 * sinfo and squeue, so a view looks the same whichever backend fed it.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/gres.h"
#include "core/model/node_state.h"

/* The first of several keys that is present. */
static json_object *
first_of(json_object *o, const char *a, const char *b)
{
	json_object *v = sq_sj_get(o, a);

	return v != NULL ? v : sq_sj_get(o, b);
}

/* A job's TRES-per-node in 22.05's spelling (sq_gres_tres_legacy). */
static const char *
gres_legacy(struct sq_snapshot *s, const char *g)
{
	char buf[512];

	if (strstr(g, "gres/") == NULL || strlen(g) >= sizeof(buf))
		return g;
	memcpy(buf, g, strlen(g) + 1);
	return sq_snapshot_str(s, sq_gres_tres_legacy(buf));
}

/* ---------------------------------------------------------- partitions */

/* v0.0.38 preemption_mode ["requeue"] / ["disabled"] as scontrol prints
 * PreemptMode (REQUEUE, OFF, GANG,SUSPEND). */
static const char *
preempt_mode(struct sq_snapshot *s, json_object *v)
{
	char buf[128];
	size_t i, n, l = 0;

	if (v == NULL)
		return "";
	if (!json_object_is_type(v, json_type_array))
		return sq_sj_str(s, v, ",");
	buf[0] = '\0';
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		const char *m = sq_sj_cstr(json_object_array_get_idx(v, i));
		size_t k;

		if (m == NULL || *m == '\0')
			continue;
		if (strcasecmp(m, "disabled") == 0 || strcasecmp(m, "off") == 0)
			m = "OFF";
		if (l > 0 && l + 1 < sizeof(buf))
			buf[l++] = ',';
		for (k = 0; m[k] != '\0' && l + 1 < sizeof(buf); k++)
			buf[l++] = (char)toupper((unsigned char)m[k]);
		buf[l] = '\0';
	}
	return sq_snapshot_str(s, buf);
}

static int
map_partition(struct sq_sj_ctx *c, json_object *o, size_t idx,
	      struct sq_err *err)
{
	json_object *nodes = sq_sj_get(o, "nodes");
	json_object *cpus = sq_sj_get(o, "cpus");
	json_object *prio = sq_sj_get(o, "priority");
	json_object *qos = sq_sj_get(o, "qos");
	json_object *tres = sq_sj_get(o, "tres");
	json_object *st;
	const char *name;
	struct sq_partition *p =
	    sq_sj_add_named(c->s, o, "name", "partition", idx, &name, err);

	if (p == NULL)
		return -1;
	p->name = name;
	/* v0.0.40-v0.0.42 (24.11) carry no flags: unknown, not "no" */
	p->is_default = sq_sj_get(o, "flags") == NULL
			    ? -1
			    : sq_sj_has(sq_sj_get(o, "flags"), "default");
	st = sq_sj_get(o, "state");
	if (st == NULL) /* v0.0.40+; v0.0.39 has no state */
		st = sq_sj_path(o, "partition", "state", NULL);
	p->state = sq_sj_str(c->s, st, ",");
	if (nodes != NULL && json_object_is_type(nodes, json_type_object)) {
		p->nodelist =
		    sq_sj_str_or_none(c->s, sq_sj_get(nodes, "configured"));
		p->nodes_total = sq_sj_numk(nodes, "total", SQ_NONE);
	} else {
		p->nodelist = sq_sj_str_or_none(c->s, nodes);
		p->nodes_total = sq_sj_numk(o, "total_nodes", SQ_NONE);
	}
	p->cpus_total = cpus != NULL ? sq_sj_numk(cpus, "total", SQ_NONE)
				     : sq_sj_numk(o, "total_cpus", SQ_NONE);
	if (prio != NULL) {
		p->priority_tier = sq_sj_numk(prio, "tier", SQ_NONE);
		p->priority_job_factor =
		    sq_sj_numk(prio, "job_factor", SQ_NONE);
	} else {
		p->priority_tier = sq_sj_numk(o, "priority_tier", SQ_NONE);
		p->priority_job_factor =
		    sq_sj_numk(o, "priority_job_factor", SQ_NONE);
	}
	/* v0.0.38 "preemption_mode"; 24.11's v0.0.40-42 have none;
	 * 26.05's v0.0.45 "preempt_mode": ["REQUEUE"] */
	p->preempt_mode =
	    preempt_mode(c->s, sq_sj_get(o, "preemption_mode") != NULL
				   ? sq_sj_get(o, "preemption_mode")
				   : sq_sj_get(o, "preempt_mode"));
	if (sq_sj_get(o, "maximums") != NULL) {
		p->max_time = sq_sj_num(sq_sj_path(o, "maximums", "time", NULL),
					SQ_INFINITE);
		p->default_time =
		    sq_sj_num(sq_sj_path(o, "defaults", "time", NULL), SQ_NONE);
	} else {
		/* v0.0.38 writes null for INFINITE */
		p->max_time = sq_sj_numk(o, "max_time_limit", SQ_INFINITE);
		p->default_time = sq_sj_numk(o, "default_time_limit", SQ_NONE);
	}
	if (qos != NULL && json_object_is_type(qos, json_type_object))
		p->qos = sq_sj_str_or_none(c->s, sq_sj_get(qos, "assigned"));
	else
		p->qos = sq_sj_str_or_none(c->s, qos);
	if (tres != NULL && json_object_is_type(tres, json_type_object))
		p->tres =
		    sq_sj_str_or_none(c->s, sq_sj_get(tres, "configured"));
	else
		p->tres = sq_sj_str_or_none(c->s, tres);
	return 0;
}

int
sq_sj_partitions(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	return sq_sj_map_list(c, sq_sj_array(root, "partitions", err),
			      map_partition, err);
}

/* --------------------------------------------------------------- nodes */

/* Base state and flags from v0.0.38 ("mixed" + state_flags[]) or
 * v0.0.39+ (["MIXED","DRAIN"]). */
static void
node_state_parts(json_object *o, struct sq_node_state *st)
{
	json_object *st_o = sq_sj_get(o, "state");
	json_object *fl = sq_sj_get(o, "state_flags");
	const char *s;
	size_t i, n;

	sq_node_state_init(st);
	if ((s = sq_sj_cstr(st_o)) != NULL) {
		sq_node_state_word(st, s, strlen(s));
	} else if (st_o != NULL && json_object_is_type(st_o, json_type_array)) {
		n = json_object_array_length(st_o);
		for (i = 0; i < n; i++) {
			s = sq_sj_cstr(json_object_array_get_idx(st_o, i));
			if (s != NULL)
				sq_node_state_word(st, s, strlen(s));
		}
	}
	if (fl != NULL && json_object_is_type(fl, json_type_array)) {
		n = json_object_array_length(fl);
		for (i = 0; i < n; i++) {
			s = sq_sj_cstr(json_object_array_get_idx(fl, i));
			if (s != NULL)
				sq_node_state_word(st, s, strlen(s));
		}
	}
}

int
sq_sj_node(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	const char *name;
	struct sq_node_state st;
	struct sq_node *nd =
	    sq_sj_add_named(c->s, o, "name", "node", idx, &name, err);
	char buf[64];

	if (nd == NULL)
		return -1;
	nd->name = name;
	node_state_parts(o, &st);
	sq_node_state_long(&st, buf, sizeof(buf));
	nd->state = sq_snapshot_str(c->s, buf);
	nd->partitions = sq_sj_str(c->s, sq_sj_get(o, "partitions"), ",");
	nd->cpus_total = sq_sj_numk(o, "cpus", SQ_NONE);
	nd->cpus_alloc = sq_sj_numk(o, "alloc_cpus", SQ_NONE);
	nd->cpus_idle =
	    sq_sj_num(first_of(o, "idle_cpus", "alloc_idle_cpus"), SQ_NONE);
	if (nd->cpus_idle == SQ_NONE && nd->cpus_total >= 0 &&
	    nd->cpus_alloc >= 0)
		nd->cpus_idle = nd->cpus_total - nd->cpus_alloc;
	/* sinfo counts the free CPUs of a drained or down node as "other",
	 * not idle */
	if (sq_node_state_cpus_other(&st))
		nd->cpus_idle = 0;
	nd->mem_total = sq_sj_numk(o, "real_memory", SQ_NONE);
	nd->mem_alloc = sq_sj_numk(o, "alloc_memory", SQ_NONE);
	nd->gres = sq_sj_str_or_none(c->s, sq_sj_get(o, "gres"));
	nd->gres_used = sq_sj_str_or_none(c->s, sq_sj_get(o, "gres_used"));
	nd->gpus_total = sq_gres_count(nd->gres, "gpu");
	nd->gpus_alloc = sq_gres_count(nd->gres_used, "gpu");
	nd->reason = sq_sj_str_or_none(c->s, sq_sj_get(o, "reason"));
	/* who set it and when: empty and 0 when no reason is set */
	nd->reason_by =
	    nd->reason[0] == '\0'
		? ""
		: sq_sj_str_or_none(c->s, sq_sj_get(o, "reason_set_by_user"));
	nd->reason_at = sq_sj_numk(o, "reason_changed_at", SQ_NONE);
	if (nd->reason[0] == '\0' || nd->reason_at <= 0)
		nd->reason_at = SQ_NONE;
	return 0;
}

int
sq_sj_nodes(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	return sq_sj_map_list(c, sq_sj_array(root, "nodes", err), sq_sj_node,
			      err);
}

/* ---------------------------------------------------------------- jobs */

static const struct {
	const char *name, *compact;
	int finished;
} job_states[] = {
	{ "PENDING", "PD", 0 },
	{ "RUNNING", "R", 0 },
	{ "SUSPENDED", "S", 0 },
	{ "COMPLETED", "CD", 1 },
	{ "CANCELLED", "CA", 1 },
	{ "FAILED", "F", 1 },
	{ "TIMEOUT", "TO", 1 },
	{ "NODE_FAIL", "NF", 1 },
	{ "PREEMPTED", "PR", 1 },
	{ "BOOT_FAIL", "BF", 1 },
	{ "DEADLINE", "DL", 1 },
	{ "OUT_OF_MEMORY", "OOM", 1 },
	/* flags, in the order job_state_string() tests them */
	{ "COMPLETING", "CG", 0 },
	{ "STAGE_OUT", "SO", 0 },
	{ "CONFIGURING", "CF", 0 },
	{ "RESIZING", "RS", 0 },
	{ "REQUEUED", "RQ", 0 },
	{ "REQUEUE_FED", "RF", 0 },
	{ "REQUEUE_HOLD", "RH", 0 },
	{ "SPECIAL_EXIT", "SE", 0 },
	{ "STOPPED", "ST", 0 },
	{ "REVOKED", "RV", 0 },
	{ "RESV_DEL_HOLD", "RD", 0 },
	{ "SIGNALING", "SI", 0 },
};
#define NBASE 12
#define NSTATES ((int)(sizeof(job_states) / sizeof(job_states[0])))

static int
job_state_index(const char *s)
{
	int i;

	for (i = 0; i < NSTATES; i++) {
		if (strcasecmp(s, job_states[i].name) == 0)
			return i;
	}
	return -1;
}

/* Count word s into the base state or the first flag seen so far. */
static int
state_word(const char *s, int *base, int *flag)
{
	int k = job_state_index(s);

	if (k < 0)
		return -1;
	if (k < NBASE) {
		if (*base < 0)
			*base = k;
	} else if (*flag < 0 || k < *flag) {
		*flag = k;
	}
	return k;
}

const char *
sq_slurmjson_job_state_word(const char *const *words, size_t n)
{
	int base = -1, flag = -1;
	size_t i;

	for (i = 0; i < n; i++)
		state_word(words[i], &base, &flag);
	if (flag >= 0 || base >= 0)
		return job_states[flag >= 0 ? flag : base].name;
	return n > 0 ? words[0] : "";
}

/*
 * The state squeue prints (a flag such as COMPLETING wins over the base
 * state) and whether squeue hides the job by default (finished and not
 * completing). Returns the index into job_states, or -1 with *raw set to
 * an unknown state string.
 */
static int
job_state(json_object *v, int *hidden, const char **raw)
{
	const char *s;
	size_t i, n;
	int base = -1, flag = -1, k;

	*hidden = 0;
	*raw = NULL;
	if ((s = sq_sj_cstr(v)) != NULL) {
		k = job_state_index(s);
		if (k < 0)
			*raw = s;
		else
			*hidden = job_states[k].finished;
		return k;
	}
	if (v == NULL || !json_object_is_type(v, json_type_array))
		return -1;
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		s = sq_sj_cstr(json_object_array_get_idx(v, i));
		if (s != NULL && state_word(s, &base, &flag) < 0 &&
		    *raw == NULL)
			*raw = s;
	}
	if (base >= 0 && job_states[base].finished &&
	    !(flag >= 0 && strcmp(job_states[flag].name, "COMPLETING") == 0))
		*hidden = 1;
	return flag >= 0 ? flag : base;
}

/* Elapsed run time as squeue computes it. */
static int64_t
job_time_used(json_object *o, const char *state, time_t now)
{
	int64_t start = sq_sj_numk(o, "start_time", SQ_NONE);
	int64_t end = sq_sj_numk(o, "end_time", SQ_NONE);
	int64_t susp = sq_sj_numk(o, "suspend_time", SQ_NONE);
	int64_t pre = sq_sj_numk(o, "pre_sus_time", SQ_NONE);
	int64_t used;

	if (pre < 0)
		pre = 0;
	if (strcmp(state, "PENDING") == 0 || start <= 0)
		return 0;
	if (strcmp(state, "SUSPENDED") == 0)
		return pre;
	if (strcmp(state, "RUNNING") == 0 || end <= 0 ||
	    strcmp(state, "CONFIGURING") == 0)
		end = (int64_t)now;
	if (susp > 0)
		used = pre + (end - susp);
	else
		used = end - start;
	return used > 0 ? used : 0;
}

/* Job id as squeue's JobArrayID prints it: 12, 13_4, 13_[5-20%2], 7+1. */
static const char *
job_display_id(struct sq_snapshot *s, json_object *o, uint32_t job_id,
	       struct sq_job *j)
{
	char buf[512];
	int64_t ajid = sq_sj_numk(o, "array_job_id", SQ_NONE);
	int64_t task = sq_sj_numk(o, "array_task_id", SQ_NONE);
	int64_t maxt = sq_sj_numk(o, "array_max_tasks", SQ_NONE);
	int64_t het = sq_sj_numk(o, "het_job_id", SQ_NONE);
	int64_t off = sq_sj_numk(o, "het_job_offset", SQ_NONE);
	const char *ts = sq_sj_cstr(sq_sj_get(o, "array_task_string"));

	j->array_task = "";
	if (ajid > 0 && ajid <= UINT32_MAX && ts != NULL && *ts != '\0') {
		if (maxt > 0 && strchr(ts, '%') == NULL)
			snprintf(buf, sizeof(buf), "%s%%%lld", ts,
				 (long long)maxt);
		else
			snprintf(buf, sizeof(buf), "%s", ts);
		j->array_job_id = (uint32_t)ajid;
		j->array_task = sq_snapshot_str(s, buf);
		snprintf(buf, sizeof(buf), "%u_[%s]", j->array_job_id,
			 j->array_task);
		return sq_snapshot_str(s, buf);
	}
	if (ajid > 0 && ajid <= UINT32_MAX && task >= 0) {
		j->array_job_id = (uint32_t)ajid;
		snprintf(buf, sizeof(buf), "%lld", (long long)task);
		j->array_task = sq_snapshot_str(s, buf);
		snprintf(buf, sizeof(buf), "%u_%lld", j->array_job_id,
			 (long long)task);
		return sq_snapshot_str(s, buf);
	}
	if (het > 0 && off >= 0)
		snprintf(buf, sizeof(buf), "%lld+%lld", (long long)het,
			 (long long)off);
	else
		snprintf(buf, sizeof(buf), "%u", job_id);
	return sq_snapshot_str(s, buf);
}

static int64_t
time_or_none(json_object *o, const char *key)
{
	int64_t t = sq_sj_numk(o, key, SQ_NONE);

	return t > 0 ? t : SQ_NONE;
}

/* Every member of a job that map_job() and its helpers read: the stream
 * (sj_stream.c) hands json-c only these. A new sq_sj_get(o, "x") on a job
 * needs its "x" here (test_sj_stream compares with the whole tree). */
const char *const sq_sj_job_keys[] = { "account",
				       "array_job_id",
				       "array_max_tasks",
				       "array_task_id",
				       "array_task_string",
				       "cpus",
				       "end_time",
				       "het_job_id",
				       "het_job_offset",
				       "job_id",
				       "job_state",
				       "name",
				       "node_count",
				       "nodes",
				       "partition",
				       "pre_sus_time",
				       "priority",
				       "priority_by_partition",
				       "qos",
				       "restart_cnt",
				       "start_time",
				       "state_description",
				       "state_reason",
				       "submit_time",
				       "suspend_time",
				       "time_limit",
				       "tres_alloc_str",
				       "tres_per_node",
				       "user_name",
				       NULL };

/* v0.0.42+ priority_by_partition [{partition, priority}] as
 * "high=7346,low=2351"; "" when absent or empty (one partition). */
static const char *
prio_by_part(struct sq_snapshot *s, json_object *v)
{
	char buf[2048];
	size_t i, n, o = 0;

	if (v == NULL || !json_object_is_type(v, json_type_array))
		return "";
	n = json_object_array_length(v);
	buf[0] = '\0';
	for (i = 0; i < n && o < sizeof(buf); i++) {
		json_object *e = json_object_array_get_idx(v, i);
		const char *part = sq_sj_cstr(sq_sj_get(e, "partition"));
		int64_t prio = sq_sj_numk(e, "priority", SQ_NONE);

		if (part == NULL || *part == '\0' || strchr(part, ',') ||
		    strchr(part, '=') || prio < 0)
			continue;
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s=%lld",
				      o ? "," : "", part, (long long)prio);
	}
	return o < sizeof(buf) ? sq_snapshot_str(s, buf) : "";
}

static int
map_job(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	struct sq_snapshot *s = c->s;
	struct sq_job *j;
	const char *raw, *desc, *st, *tres, *pbp;
	int64_t id = sq_sj_numk(o, "job_id", SQ_NONE), tl;
	int32_t restarts;
	int hidden, k;

	if (id <= 0 || id > UINT32_MAX)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "job %zu has no valid job_id", idx + 1);
	k = job_state(sq_sj_get(o, "job_state"), &hidden, &raw);
	if (hidden)
		return 0;
	j = sq_snapshot_add(s);
	if (j == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	j->job_id = (uint32_t)id;
	j->id = job_display_id(s, o, j->job_id, j);
	if (k >= 0) {
		j->state = job_states[k].name;
		j->state_compact = job_states[k].compact;
	} else {
		j->state = raw != NULL ? sq_snapshot_str(s, raw) : "";
		j->state_compact = j->state;
	}
	st = j->state;
	j->name = sq_sj_strk(s, o, "name");
	j->user = sq_sj_strk(s, o, "user_name");
	j->account = sq_sj_strk(s, o, "account");
	j->partition = sq_sj_strk(s, o, "partition");
	j->qos = sq_sj_strk(s, o, "qos");
	/* squeue prints the description when there is one */
	desc = sq_sj_cstr(sq_sj_get(o, "state_description"));
	if (desc != NULL && *desc != '\0')
		j->reason = sq_snapshot_str(s, desc);
	else
		j->reason = sq_sj_str_or_none(s, sq_sj_get(o, "state_reason"));
	j->priority = sq_sj_numk(o, "priority", SQ_NONE);
	j->nodes = sq_i32(sq_sj_numk(o, "node_count", SQ_NONE));
	j->cpus = sq_i32(sq_sj_numk(o, "cpus", SQ_NONE));
	j->gres =
	    gres_legacy(s, sq_sj_str_or_none(s, sq_sj_get(o, "tres_per_node")));
	tres = sq_sj_str_or_none(s, sq_sj_get(o, "tres_alloc_str"));
	pbp = prio_by_part(s, sq_sj_get(o, "priority_by_partition"));
	tl = sq_sj_numk(o, "time_limit", SQ_INFINITE);
	/* minutes; more than seconds can count is no limit we know */
	j->time_limit = sq_i32(tl < 0                ? tl
			       : tl > INT64_MAX / 60 ? SQ_NONE
						     : tl * 60);
	j->time_used = sq_i32(job_time_used(o, st, c->now));
	j->submit_time = time_or_none(o, "submit_time");
	j->start_time = time_or_none(o, "start_time");
	j->nodelist = strcmp(st, "PENDING") == 0
			  ? ""
			  : sq_sj_str_or_none(s, sq_sj_get(o, "nodes"));
	restarts = sq_i32(sq_sj_numk(o, "restart_cnt", SQ_NONE));
	if (restarts == SQ_NONE)
		restarts = 0;
	j->more = sq_snapshot_job_more(s, tres, pbp, restarts);
	j->prio = NULL;
	return 0;
}

int
sq_sj_job(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	if (o == NULL || !json_object_is_type(o, json_type_object))
		return sq_err_set(err, SQ_ERR_PARSE, "job %zu is not an object",
				  idx + 1);
	return map_job(c, o, idx, err);
}

int
sq_sj_jobs(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	return sq_sj_map_list(c, sq_sj_array(root, "jobs", err), sq_sj_job,
			      err);
}
