/*
 * sj_history.c - job runs and their steps from GET /slurmdb/vX/jobs (the
 * sacct of slurmrestd) into HISTORY rows, for v0.0.38 (22.05: every run
 * of a requeued job is listed) and v0.0.40+ (?show_duplicates=true).
 * The shapes differ in small ways: states and exit statuses are strings
 * or arrays, signal.signal_id or signal.id, step ids "batch" or
 * "6.batch", numbers plain or {set,infinite,number}; TRES names null or "".
 * MaxRSS is the step's tres.requested.max mem (bytes, as TRESUsageInMax),
 * the GPU peaks its gres gpuutil (percent) and gpumem (bytes) items.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/buf.h"
#include "core/analysis/history.h"

/* The first word of a string or of an array of strings, or "". */
static const char *
first(json_object *v)
{
	const char *s = sq_sj_cstr(v);

	if (s == NULL && v != NULL && json_object_is_type(v, json_type_array) &&
	    json_object_array_length(v) > 0)
		s = sq_sj_cstr(json_object_array_get_idx(v, 0));
	return s != NULL ? s : "";
}

/* A record's state as sacct prints it: 26.05's v0.0.45 lists a requeued
 * record as ["PENDING", "REQUEUED"], and Slurm names such a state by its
 * REQUEUED flag (job_state_string), as sacct and older versions do. */
static const char *
record_state(json_object *v)
{
	size_t i, n;

	if (v != NULL && json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		for (i = 1; i < n; i++) {
			const char *f =
			    sq_sj_cstr(json_object_array_get_idx(v, i));

			if (f != NULL && strcmp(f, "REQUEUED") == 0)
				return f;
		}
	}
	return first(v);
}

/* exit_code {status, return_code, signal{signal_id|id}} as sacct's
 * "code:signal"; SQ_NONE when not finished. */
static void
exit_of(json_object *e, int64_t *code, int64_t *sig)
{
	const char *st = first(sq_sj_get(e, "status"));
	json_object *sg = sq_sj_get(e, "signal");
	int64_t rc = sq_sj_numk(e, "return_code", SQ_NONE);
	int64_t s = sq_sj_numk(sg, "signal_id", SQ_NONE);

	if (s == SQ_NONE)
		s = sq_sj_numk(sg, "id", SQ_NONE);
	*code = *sig = SQ_NONE;
	if (e == NULL || strcmp(st, "PENDING") == 0)
		return;
	if (strcmp(st, "SIGNALED") == 0) {
		*code = rc >= 0 ? rc : 0;
		*sig = s >= 0 ? s : 0;
		return;
	}
	*code = rc >= 0 ? rc : 0;
	*sig = 0;
}

/* {seconds, microseconds} into seconds, NAN when missing. */
static double
cpu_of(json_object *t)
{
	int64_t s = sq_sj_numk(t, "seconds", SQ_NONE);
	int64_t us = sq_sj_numk(t, "microseconds", 0);

	if (t == NULL || s < 0)
		return NAN;
	return (double)s + (us > 0 ? (double)us / 1e6 : 0);
}

static int64_t
epoch(json_object *o, const char *key)
{
	int64_t v = sq_sj_numk(o, key, SQ_NONE);

	return v > 0 ? v : SQ_NONE;
}

/* count of the TRES of type and name ("gres", "gpuutil"; name NULL: the
 * first of that type) in a list; SQ_NONE */
static int64_t
tres_named(json_object *list, const char *type, const char *name)
{
	size_t i, n;

	if (list == NULL || !json_object_is_type(list, json_type_array))
		return SQ_NONE;
	n = json_object_array_length(list);
	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(list, i);
		const char *ty = sq_sj_cstr(sq_sj_get(t, "type"));
		const char *nm = sq_sj_cstr(sq_sj_get(t, "name"));

		if (ty != NULL && strcmp(ty, type) == 0 &&
		    (name == NULL || (nm != NULL && strcmp(nm, name) == 0)))
			return sq_sj_numk(t, "count", SQ_NONE);
	}
	return SQ_NONE;
}

/* A TRES list as sacct prints AllocTRES: cpu=4,mem=2000M,gres/gpu=2 */
static const char *
tres_text(struct sq_snapshot *s, json_object *list)
{
	struct sq_buf b;
	size_t i, n;
	const char *r;

	if (list == NULL || !json_object_is_type(list, json_type_array))
		return "";
	sq_buf_init(&b, 4096);
	n = json_object_array_length(list);
	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(list, i);
		const char *ty = sq_sj_cstr(sq_sj_get(t, "type"));
		const char *nm = sq_sj_cstr(sq_sj_get(t, "name"));
		int64_t c = sq_sj_numk(t, "count", SQ_NONE);
		char item[200];

		if (ty == NULL || c < 0 || strchr(ty, ',') != NULL ||
		    (nm != NULL && strchr(nm, ',') != NULL))
			continue;
		snprintf(item, sizeof(item), "%s%s%s%s=%lld%s",
			 b.len ? "," : "", ty, nm != NULL && *nm ? "/" : "",
			 nm != NULL ? nm : "", (long long)c,
			 strcmp(ty, "mem") == 0 ? "M" : "");
		sq_buf_append(&b, item, strlen(item));
	}
	r = b.data != NULL ? sq_snapshot_str(s, sq_buf_str(&b)) : "";
	sq_buf_free(&b);
	return r;
}

/* A pending array's task bitmap ("0x1FFFF0") as ranges: 4-20 */
static void
task_ranges(const char *hex, char *out, size_t n)
{
	size_t len, i, o = 0;
	long bit, start = -1;

	out[0] = '\0';
	if (strncmp(hex, "0x", 2) != 0) {
		snprintf(out, n, "%s", hex);
		return;
	}
	hex += 2;
	len = strlen(hex);
	if (len > 4096)
		return;
	for (bit = 0; bit <= (long)len * 4; bit++) {
		int on = 0;

		if (bit < (long)len * 4) {
			char c = hex[len - 1 - (size_t)bit / 4];
			int v = c >= '0' && c <= '9'   ? c - '0'
				: c >= 'a' && c <= 'f' ? c - 'a' + 10
				: c >= 'A' && c <= 'F' ? c - 'A' + 10
						       : 0;

			on = (v >> (bit % 4)) & 1;
		}
		if (on && start < 0)
			start = bit;
		if (!on && start >= 0) {
			int w;

			if (start == bit - 1)
				w = snprintf(out + o, n - o, "%s%ld",
					     o ? "," : "", start);
			else
				w = snprintf(out + o, n - o, "%s%ld-%ld",
					     o ? "," : "", start, bit - 1);
			if (w < 0 || (size_t)w >= n - o) {
				out[o] = '\0';
				return;
			}
			o += (size_t)w;
			start = -1;
		}
	}
	(void)i;
}

static const char *
job_id_text(struct sq_snapshot *s, json_object *o, uint32_t id)
{
	json_object *arr = sq_sj_get(o, "array"), *het = sq_sj_get(o, "het");
	int64_t aj = sq_sj_numk(arr, "job_id", 0);
	int64_t task = sq_sj_numk(arr, "task_id", SQ_NONE);
	int64_t hj = sq_sj_numk(het, "job_id", 0);
	int64_t off = sq_sj_numk(het, "job_offset", SQ_NONE);
	const char *mask = sq_sj_cstr(sq_sj_get(arr, "task"));
	char buf[160], r[120];

	if (aj > 0 && task >= 0)
		snprintf(buf, sizeof(buf), "%lld_%lld", (long long)aj,
			 (long long)task);
	else if (aj > 0 && mask != NULL && *mask != '\0') {
		task_ranges(mask, r, sizeof(r));
		snprintf(buf, sizeof(buf), "%lld_[%s]", (long long)aj, r);
	} else if (hj > 0 && off >= 0)
		snprintf(buf, sizeof(buf), "%lld+%lld", (long long)hj,
			 (long long)off);
	else
		snprintf(buf, sizeof(buf), "%lu", (unsigned long)id);
	return sq_snapshot_str(s, buf);
}

static void
fill_step(struct sq_snapshot *s, struct sq_hist_step *x, json_object *st)
{
	json_object *tm = sq_sj_get(st, "time");
	const char *id = sq_sj_cstr(sq_sj_path(st, "step", "id", NULL));
	json_object *max;
	const char *dot;
	int64_t rss, ex, sig, util;

	memset(x, 0, sizeof(*x));
	if (id == NULL)
		id = "";
	dot = strrchr(id, '.'); /* v0.0.40+: "6.batch" */
	x->step = sq_snapshot_str(s, dot != NULL ? dot + 1 : id);
	x->name = sq_sj_str(s, sq_sj_path(st, "step", "name", NULL), ",");
	x->state = sq_snapshot_str(s, first(sq_sj_get(st, "state")));
	exit_of(sq_sj_get(st, "exit_code"), &ex, &sig);
	x->exit_code = (int16_t)(ex > INT16_MAX ? INT16_MAX : ex);
	x->signal = (int16_t)(sig > INT16_MAX ? INT16_MAX : sig);
	x->elapsed = sq_i32(sq_sj_numk(tm, "elapsed", SQ_NONE));
	x->nodelist = sq_sj_str(s, sq_sj_path(st, "nodes", "range", NULL), ",");
	x->nodes =
	    sq_i32(sq_sj_num(sq_sj_path(st, "nodes", "count", NULL), SQ_NONE));
	x->tasks =
	    sq_i32(sq_sj_num(sq_sj_path(st, "tasks", "count", NULL), SQ_NONE));
	x->total_cpu = cpu_of(sq_sj_get(tm, "total"));
	max = sq_sj_path(st, "tres", "requested", "max", NULL);
	rss = tres_named(max, "mem", NULL);
	/* the GPU peaks, as sacct's TRESUsageInMax (percent, bytes) */
	util = tres_named(max, "gres", "gpuutil");
	x->gpu_util = util < 0 ? (int32_t)SQ_NONE : sq_i32(util);
	x->gpu_mem = tres_named(max, "gres", "gpumem");
	if (x->gpu_mem < 0)
		x->gpu_mem = SQ_NONE;
	/* bytes to KB, rounded up (rss + 1023 overflows near INT64_MAX) */
	x->max_rss = rss >= 0 ? sq_i32(rss / 1024 + (rss % 1024 != 0))
			      : (int32_t)SQ_NONE;
}

int
sq_sj_history_job(struct sq_sj_ctx *c, json_object *o, size_t idx,
		  struct sq_err *err)
{
	struct sq_snapshot *s = c->s;
	struct sq_hist_build b;
	struct sq_hist *h;
	json_object *tm = sq_sj_get(o, "time"), *steps, *alloc;
	int64_t id = sq_sj_numk(o, "job_id", SQ_NONE);
	const char *nodes;
	size_t i, n;
	int64_t ex, sig;

	if (!json_object_is_type(o, json_type_object) || id <= 0 ||
	    id > UINT32_MAX)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "slurmdb job %zu: no job id", idx);
	sq_history_init(&b, s);
	h = sq_history_add_run(&b);
	if (h == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	h->job_id = (uint32_t)id;
	h->id = job_id_text(s, o, h->job_id);
	h->user = sq_sj_strk(s, o, "user");
	h->account = sq_sj_strk(s, o, "account");
	h->partition = sq_sj_strk(s, o, "partition");
	h->qos = sq_sj_strk(s, o, "qos");
	h->name = sq_sj_strk(s, o, "name");
	h->state = sq_snapshot_str(
	    s, record_state(sq_sj_path(o, "state", "current", NULL)));
	exit_of(sq_sj_get(o, "exit_code"), &ex, &sig);
	h->exit_code = sq_i32(ex);
	h->signal = sq_i32(sig);
	h->submit = epoch(tm, "submission");
	h->start = epoch(tm, "start");
	h->end = epoch(tm, "end");
	h->elapsed = sq_i32(sq_sj_numk(tm, "elapsed", SQ_NONE));
	alloc = sq_sj_path(o, "tres", "allocated", NULL);
	h->alloc_cpus = sq_i32(tres_named(alloc, "cpu", NULL));
	if (h->alloc_cpus < 0) /* pending: what it asks for, as sacct */
		h->alloc_cpus = sq_i32(sq_sj_num(
		    sq_sj_path(o, "required", "CPUs", NULL), SQ_NONE));
	h->alloc_mem = sq_i32(tres_named(alloc, "mem", NULL));
	h->req_mem = sq_i32(
	    tres_named(sq_sj_path(o, "tres", "requested", NULL), "mem", NULL));
	h->tres = tres_text(s, alloc);
	h->gpus = sq_i32(sq_history_gpus(h->tres));
	nodes = sq_sj_cstr(sq_sj_get(o, "nodes"));
	h->nodelist = nodes == NULL || strcmp(nodes, "None assigned") == 0
			  ? ""
			  : sq_snapshot_str(s, nodes);
	h->nnodes = sq_i32(sq_sj_numk(o, "allocation_nodes", SQ_NONE));
	h->total_cpu = cpu_of(sq_sj_get(tm, "total"));
	/* a job's steps come with it: straight into the arena */
	steps = sq_sj_get(o, "steps");
	if (steps != NULL && json_object_is_type(steps, json_type_array) &&
	    (n = json_object_array_length(steps)) > 0) {
		struct sq_hist_step *arr =
		    sq_arena_alloc(&s->arena, n * sizeof(*arr));

		if (arr == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		for (i = 0; i < n; i++)
			fill_step(s, &arr[i],
				  json_object_array_get_idx(steps, i));
		h->steps = arr;
		h->nsteps = (uint32_t)n;
	}
	return 0;
}

int
sq_sj_history_finish(struct sq_sj_ctx *c, struct sq_err *err)
{
	struct sq_hist_build b;
	int rc;

	sq_history_init(&b, c->s);
	rc = sq_history_finish(&b);
	sq_history_free(&b);
	if (rc == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return 0;
}

int
sq_sj_history(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	if (sq_sj_map_list(c, sq_sj_array(root, "jobs", err), sq_sj_history_job,
			   err) == -1)
		return -1;
	return sq_sj_history_finish(c, err);
}
