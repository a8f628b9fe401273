/*
 * test_sj_stream.c - the streamed JSON path (backends/slurmjson/
 * sj_stream.c) against the whole-tree mapping on the recorded answers:
 * the same rows and envelope whatever the pieces (one byte at a time,
 * every two-piece split), a clear error for every truncation, hostile
 * strings (braces, quotes, escapes, a "jobs" key inside a name), and the
 * envelope's errors[] winning wherever they stand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/buf.h"
#include "core/model/model.h"
#include "tests/unit/test_util.h"

#define NOW 1795986600

/* The batch size of every stream made here: 0 the stream's own (64 KiB:
 * the fixtures are parsed at their end, 20,000 jobs on the thread), 1 in
 * the second run of the suite (every element goes to the thread). */
static size_t batch;

static struct sq_sj_stream *
stream_new(enum sq_kind kind, struct sq_snapshot *s, struct sq_sj_info *info,
	   struct sq_err *err)
{
	struct sq_sj_stream *st =
	    sq_slurmjson_stream_new(kind, NOW, s, info, err);

	if (st != NULL && batch > 0)
		sq_slurmjson_stream_batch(st, batch);
	return st;
}

/* Every field of every row, one line a row. */
static void
dump(const struct sq_snapshot *s, struct sq_buf *b)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		if (s->kind == SQ_KIND_JOBS) {
			const struct sq_job *j = sq_snapshot_row(s, i);

			sq_buf_printf(
			    b,
			    "%s|%u|%u|%s|%s|%s|%s|%s|%s|%s|%s|%s|%lld|%lld|"
			    "%lld|%s|%lld|%lld|%lld|%lld|%s|%lld\n",
			    j->id, j->job_id, j->array_job_id, j->array_task,
			    j->name, j->user, j->account, j->partition, j->qos,
			    j->state, j->state_compact, j->reason,
			    (long long)j->priority, (long long)j->nodes,
			    (long long)j->cpus, j->gres,
			    (long long)j->time_limit, (long long)j->time_used,
			    (long long)j->submit_time, (long long)j->start_time,
			    j->nodelist, (long long)sq_job_restarts(j));
		} else {
			const struct sq_node *n = sq_snapshot_row(s, i);

			sq_buf_printf(
			    b,
			    "%s|%s|%s|%lld|%lld|%lld|%lld|%lld|%s|%s|%lld|"
			    "%lld|%s\n",
			    n->name, n->state, n->partitions,
			    (long long)n->cpus_alloc, (long long)n->cpus_idle,
			    (long long)n->cpus_total, (long long)n->mem_total,
			    (long long)n->mem_alloc, n->gres, n->gres_used,
			    (long long)n->gpus_total, (long long)n->gpus_alloc,
			    n->reason);
		}
	}
}

static void
dump_info(const struct sq_sj_info *in, struct sq_buf *b)
{
	sq_buf_printf(b, "api %d rel %s err %d warn %d '%s' unch %d lu %lld\n",
		      in->api, in->release, in->nerrors, in->nwarnings,
		      in->warning, in->unchanged, (long long)in->last_update);
}

/* The end of a parse: its rows and envelope into out when it worked (rc
 * 0); s dropped; rc. */
static int
dumped(int rc, struct sq_snapshot *s, const struct sq_sj_info *info,
       struct sq_buf *out)
{
	if (rc == 0) {
		dump(s, out);
		dump_info(info, out);
	}
	sq_snapshot_unref(s);
	return rc;
}

/* The reference: one json-c tree of the whole body, mapped as before
 * the stream existed. rc, message and dump in *out. */
static int
whole_tree(enum sq_kind kind, const char *body, size_t len, struct sq_buf *out,
	   struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	struct sq_sj_info info;
	struct sq_sj_ctx c;
	json_object *root;
	int rc = -1;

	assert_non_null(s);
	sq_sj_info_init(&info);
	root = sq_sj_parse_body(body, len, NULL, err);
	if (root != NULL) {
		if (sq_sj_read_envelope(root, &info, err) == 0) {
			c.s = s;
			c.info = &info;
			c.now = NOW;
			c.api = info.api;
			rc = sq_sj_map_root(kind, &c, root, err);
		}
		json_object_put(root);
	}
	return dumped(rc, s, &info, out);
}

/* The stream, fed in pieces: cuts[] are the offsets where a piece ends
 * (ascending, < len), the last piece runs to len. */
static int
streamed(enum sq_kind kind, const char *body, size_t len, const size_t *cuts,
	 size_t ncuts, struct sq_buf *out, struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new(kind, 0);
	struct sq_sj_info info;
	struct sq_sj_stream *st;
	size_t at = 0, k;
	int rc = 0;

	assert_non_null(s);
	st = stream_new(kind, s, &info, err);
	assert_non_null(st);
	for (k = 0; k <= ncuts && rc == 0; k++) {
		size_t end = k < ncuts ? cuts[k] : len;

		rc = sq_slurmjson_stream_feed(st, body + at, end - at, err);
		at = end;
	}
	if (rc == 0)
		rc = sq_slurmjson_stream_end(st, err);
	sq_slurmjson_stream_free(st);
	return dumped(rc, s, &info, out);
}

/* One byte a piece: every byte boundary at once. */
static int
bytewise(enum sq_kind kind, const char *body, size_t len, struct sq_buf *out,
	 struct sq_err *err)
{
	size_t *cuts = calloc(len ? len : 1, sizeof(*cuts));
	size_t k;
	int rc;

	assert_non_null(cuts);
	for (k = 1; k < len; k++)
		cuts[k - 1] = k;
	rc = streamed(kind, body, len, cuts, len ? len - 1 : 0, out, err);
	free(cuts);
	return rc;
}

/* The stream's failure against the tree's: the same code, and the same
 * message except where json-c saw a different stretch of bytes (a
 * malformed element: both say "malformed JSON answer", the offset and
 * json-c's words may differ). */
static void
same_failure(const struct sq_err *got, const struct sq_err *ref)
{
	assert_int_equal(got->code, ref->code);
	if (strncmp(ref->msg, "malformed JSON answer", 21) == 0)
		assert_true(strncmp(got->msg, "malformed JSON answer", 21) ==
			    0);
	else
		assert_string_equal(got->msg, ref->msg);
}

/* A run of the stream against the tree's: the same rc, then the same
 * rows and envelope, or the same message as the stream in one piece. */
static void
same_answer(int rc, int rc_ref, const struct sq_buf *got,
	    const struct sq_buf *ref, const char *msg, const char *one_msg)
{
	assert_int_equal(rc, rc_ref);
	if (rc == 0)
		assert_string_equal(sq_buf_str(got), sq_buf_str(ref));
	else
		assert_string_equal(msg, one_msg);
}

/* Same rows and envelope as the whole tree: in one piece, byte by byte,
 * and cut in two at every offset (every step-th for the big ones); the
 * pieces never change the stream's answer, not even its message. */
static void
same_as_tree(enum sq_kind kind, const char *body, size_t len, size_t step)
{
	struct sq_buf ref, one, got;
	struct sq_err e_ref, e_one, e;
	int rc_ref, rc;
	size_t k;

	sq_buf_init(&ref, 0);
	sq_buf_init(&one, 0);
	sq_buf_init(&got, 0);
	rc_ref = whole_tree(kind, body, len, &ref, &e_ref);
	rc = streamed(kind, body, len, NULL, 0, &one, &e_one);
	if (rc != rc_ref)
		fail_msg("%s: stream %d (%s), tree %d (%s)", body, rc,
			 rc ? e_one.msg : "", rc_ref, rc_ref ? e_ref.msg : "");
	if (rc == 0)
		assert_string_equal(sq_buf_str(&one), sq_buf_str(&ref));
	else
		same_failure(&e_one, &e_ref);
	rc = bytewise(kind, body, len, &got, &e);
	same_answer(rc, rc_ref, &got, &ref, e.msg, e_one.msg);
	for (k = 1; k < len; k += step) {
		sq_buf_reset(&got);
		rc = streamed(kind, body, len, &k, 1, &got, &e);
		same_answer(rc, rc_ref, &got, &ref, e.msg, e_one.msg);
	}
	sq_buf_free(&ref);
	sq_buf_free(&one);
	sq_buf_free(&got);
}

static void
same_file(enum sq_kind kind, const char *rel)
{
	size_t len;
	char *b = sq_test_fixture(rel, &len);
	struct sq_buf ref;
	struct sq_err e;

	/* the fixture has rows: a comparison of two empty lists would
	 * prove nothing */
	sq_buf_init(&ref, 0);
	assert_int_equal(whole_tree(kind, b, len, &ref, &e), 0);
	assert_true(ref.len > 200);
	sq_buf_free(&ref);
	/* every byte boundary byte by byte; two pieces at 60 places */
	same_as_tree(kind, b, len, len / 60 + 1);
	free(b);
}

static void
test_fixtures_any_pieces(void **state)
{
	static const char *const jobs[] = {
		"rest/v0.0.38/slurm_jobs.json",
		"rest/v0.0.38/jobs.json",
		"rest/v0.0.38/cli_squeue.json",
		"rest/v0.0.39/slurm_jobs.json",
		"rest/v0.0.40/slurm_jobs.json",
		"rest/v0.0.41/slurm_jobs.json",
		"rest/v0.0.42/slurm_jobs.json",
		"live/slurm-26.05/rest/v0.0.43/slurm_jobs.json",
		"live/slurm-26.05/rest/v0.0.44/slurm_jobs.json",
		NULL
	};
	static const char *const nodes[] = { "rest/v0.0.38/slurm_nodes.json",
					     "rest/v0.0.38/cli_sinfo.json",
					     "rest/v0.0.40/slurm_nodes.json",
					     "rest/v0.0.42/slurm_nodes.json",
					     "live/slurm-26.05/rest/v0.0.44/"
					     "slurm_nodes.json",
					     "live/slurm-26.05/rest/v0.0.45/"
					     "slurm_nodes.json",
					     NULL };
	int i;

	(void)state;
	for (i = 0; jobs[i] != NULL; i++)
		same_file(SQ_KIND_JOBS, jobs[i]);
	for (i = 0; nodes[i] != NULL; i++)
		same_file(SQ_KIND_NODES, nodes[i]);
}

/* Names full of what a scanner could mistake for structure. */
static const char hostile[] =
    "{\"meta\":{\"plugin\":{\"type\":\"openapi/v0.0.38\"},"
    "\"jobs\":{\"x\":[1]},\"Slurm\":{\"release\":\"22.05.8\"}},"
    "\"note\":\"\\\"jobs\\\":[{\\\"job_id\\\":1}]\","
    "\"errors\":[],\n  \"jobs\" : [ \n"
    "{\"job_id\":11,\"name\":\"a}b{c]d[e\",\"job_state\":\"PENDING\","
    "\"user_name\":\"q\\\"uo\\\\te\\\\\",\"account\":\"\\u007b\\u0022\"},\n"
    "{\"job_id\" : 12 , \"name\":\"\\\\\\\"],\\\"jobs\\\":[\","
    "\"job_state\":[\"RUNNING\"],\"time_limit\":{\"set\":true,"
    "\"infinite\":false,\"number\":5},\"nodes\":\"n[1-2]\","
    "\"partition\":\"p,q\",\"qos\":\"\xc3\xa9t\xc3\xa9\","
    "\"priority\":\t7 ,\"cpus\":1e1,\"start_time\":1795986000},"
    "{\"job_id\":13,\"name\":\"{}[]\\\"\\\\\\/\\b\\f\\n\\r\\t\","
    "\"job_state\":\"PENDING\",\"extra\":[[[{\"a\":[\"]]]}\"]}]]],"
    "\"x\":{\"jobs\":[1,2,3]}}"
    "],\"warnings\":[],\"last_update\":1795986500}\n";

static void
test_hostile_strings(void **state)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_sj_info info;
	struct sq_err err;
	const struct sq_job *j;

	(void)state;
	same_as_tree(SQ_KIND_JOBS, hostile, sizeof(hostile) - 1, 1);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, hostile,
					    sizeof(hostile) - 1, NOW, s, &info,
					    &err),
			 0);
	assert_int_equal(s->nrows, 3);
	j = sq_snapshot_row(s, 0);
	assert_string_equal(j->name, "a}b{c]d[e");
	assert_string_equal(j->user, "q\"uo\\te\\");
	assert_string_equal(j->account, "{\"");
	j = sq_snapshot_row(s, 1);
	assert_string_equal(j->name, "\\\"],\"jobs\":[");
	assert_string_equal(j->state, "RUNNING");
	assert_int_equal(j->time_limit, 300);
	assert_int_equal(j->priority, 7);
	assert_int_equal(j->cpus, 10);
	assert_string_equal(j->qos, "\xc3\xa9t\xc3\xa9");
	j = sq_snapshot_row(s, 2);
	assert_string_equal(j->id, "13");
	assert_int_equal(info.last_update, 1795986500);
	assert_string_equal(info.release, "22.05.8");
	assert_int_equal(info.api, 38);
	sq_snapshot_unref(s);
}

/* Small bodies, each cut in two at every offset and fed byte by byte:
 * the stream gives what the tree gives, rows or message. */
static void
test_small_bodies(void **state)
{
	static const char *const bodies[] = {
		/* errors[] after the list win over the rows */
		"{\"jobs\":[{\"job_id\":1}],\"errors\":[{\"description\":"
		"\"boom\",\"error_number\":42,\"error\":\"Bad thing\"}]}",
		/* ... and over a job that cannot be read */
		"{\"jobs\":[{\"job_id\":\"abc\"}],\"errors\":[\"no\"]}",
		"{\"jobs\":[{\"job_id\":\"abc\"}],\"errors\":[]}",
		"{\"jobs\":[1,2]}", "{\"jobs\":[],\"meta\":{}}",
		"{\"jobs\":[{\"job_id\":3},]}", "{\"jobs\":[{\"job_id\":3}],}",
		"{\"jobs\":5}", "{\"jobs\":null,\"warnings\":[\"w\"]}",
		"{\"meta\":{},\"warnings\":[{\"description\":\"No job changes "
		"since update_time\"}]}",
		/* a member name written with escapes: the whole-tree path */
		"{\"jo\\u0062s\":[{\"job_id\":4}]}",
		/* malformed inside and after the list */
		"{\"jobs\":[{\"job_id\":4}}]}",
		"{\"jobs\":[{\"job_id\":4} {\"job_id\":5}]}",
		"{\"jobs\":[,{\"job_id\":4}]}",
		"{\"jobs\":[{\"job_id\":4,\"name\":[1 2]}]}",
		"{\"jobs\":[{\"job_id\":4,\"name\":tru}]}",
		"{\"jobs\":[{\"job_id\":4,\"name\":\"a\" \"b\"}]}",
		"{\"jobs\":[{\"job_id\":4,\"flags\":[],\"name\":\"n\"}]}",
		"{\"jobs\":[{\"flags\":[{\"a\":\"}\"}],\"job_id\":4,\"x\":1}]}",
		"{\"jobs\":[{\"job_id\":4,\"nam\\u0065\":\"e\"}]}",
		"{\"jobs\":[{\"x\":1,\"y\":{}}]}",
		"{\"jobs\":[\"a\\\"]\",{\"job_id\":4}]}",
		"{\"jobs\":[{\"job_id\":4}]} x",
		"{\"jobs\":[{\"job_id\":4}]}\n\n",
		"{\"jobs\":[{\"job_id\":4}],\"meta\":{\"a\":}}",
		"[{\"jobs\":[]}]", "  \"jobs\"", NULL
	};
	int i;

	(void)state;
	for (i = 0; bodies[i] != NULL; i++)
		same_as_tree(SQ_KIND_JOBS, bodies[i], strlen(bodies[i]), 1);
}

/* The members of a job the mapping never reads are left out unparsed:
 * rows as the tree gives them, and only a malformed value there goes
 * unnoticed (the structure around it is still checked). */
static void
test_unread_members(void **state)
{
	static const char bad_unread[] =
	    "{\"jobs\":[{\"job_id\":4,\"flags\":[tru 1 2],\"name\":\"n\"}]}";
	static const char bad_nesting[] =
	    "{\"jobs\":[{\"job_id\":4,\"flags\":[}]}";
	/* json-c reads '...' as a string and /.../ as a comment: the
	 * structure it sees is not the scan's, so neither passes (found by
	 * the json_stream_jobs harness) */
	static const char *const not_json[] = {
		"{\"jobs\":[{\"job_id\":2,\"\":{'}}]}",
		"{\"jobs\":[{\"job_id\":2,\"x\":[/*]}]}*/1]}]}",
		"{\"jobs\":[{\"job_id\":2,'name':\"n\"}]}", NULL
	};
	static const char quoted[] =
	    "{\"jobs\":[{\"job_id\":4,\"x\":\"it's /a/*b\",\"name\":\"o'n\"}]}";
	int i;
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, bad_unread,
					    sizeof(bad_unread) - 1, NOW, s,
					    NULL, &err),
			 0);
	assert_int_equal(s->nrows, 1);
	assert_string_equal(
	    ((const struct sq_job *)sq_snapshot_row(s, 0))->name, "n");
	sq_snapshot_unref(s);
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, bad_nesting,
					    sizeof(bad_nesting) - 1, NOW, s,
					    NULL, &err),
			 -1);
	sq_snapshot_unref(s);
	for (i = 0; not_json[i] != NULL; i++) {
		s = sq_snapshot_new(SQ_KIND_JOBS, 0);
		assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, not_json[i],
						    strlen(not_json[i]), NOW, s,
						    NULL, &err),
				 -1);
		assert_non_null(
		    strstr(err.msg, "malformed JSON answer at byte"));
		sq_snapshot_unref(s);
	}
	/* inside strings both are plain characters */
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, quoted,
					    sizeof(quoted) - 1, NOW, s, NULL,
					    &err),
			 0);
	assert_int_equal(s->nrows, 1);
	assert_string_equal(
	    ((const struct sq_job *)sq_snapshot_row(s, 0))->name, "o'n");
	sq_snapshot_unref(s);
}

static void
test_duplicate_list(void **state)
{
	static const char twice[] =
	    "{\"jobs\":[{\"job_id\":4}],\"jobs\":[{\"job_id\":5}]}";
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_err err;

	(void)state;
	static const char *const bodies[] = {
		"{\"jobs\":[{\"job_id\":4}],\"jo\\u0062s\":[{\"job_id\":5}]}",
		"{\"jobs\":[{\"job_id\":4}],\"jo\\u0062s\":7}",
		"{\"jobs\":[{\"job_id\":4}],\"jobs\":[]}", NULL
	};
	/* fuzz json_stream_jobs (long run, 9,126,609th execution): after
	 * a string element the envelope scanner stayed "in a string", read
	 * the rest inverted and missed the second list, failing on the
	 * element instead; a string element holding \"] before an envelope
	 * with } in a string is still refused for the element */
	static const char after_string[] =
	    "{\"errers\":[4],\"jobs\":[\"jobs\"],\"jobs\":[]}";
	static const char string_elem[] =
	    "{\"jobs\":[\"a\\\"]\"],\"meta\":{\"x\":\"}\"}}";
	size_t cuts[16], ncuts = 0, len = sizeof(after_string) - 1;
	struct sq_buf out;
	int i;

	/* json-c would keep the last; the stream refuses, rather than
	 * show the rows of both or of the wrong one */
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, twice,
					    sizeof(twice) - 1, NOW, s, NULL,
					    &err),
			 -1);
	assert_non_null(strstr(err.msg, "'jobs' twice"));
	sq_snapshot_unref(s);
	for (i = 0; bodies[i] != NULL; i++) {
		s = sq_snapshot_new(SQ_KIND_JOBS, 0);
		assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, bodies[i],
						    strlen(bodies[i]), NOW, s,
						    NULL, &err),
				 -1);
		assert_non_null(strstr(err.msg, "'jobs' twice"));
		sq_snapshot_unref(s);
	}
	sq_buf_init(&out, 0);
	for (ncuts = 0; (ncuts + 1) * 5 < len; ncuts++)
		cuts[ncuts] = (ncuts + 1) * 5;
	assert_int_equal(
	    streamed(SQ_KIND_JOBS, after_string, len, NULL, 0, &out, &err), -1);
	assert_non_null(strstr(err.msg, "'jobs' twice"));
	assert_int_equal(
	    streamed(SQ_KIND_JOBS, after_string, len, cuts, ncuts, &out, &err),
	    -1);
	assert_non_null(strstr(err.msg, "'jobs' twice"));
	assert_int_equal(bytewise(SQ_KIND_JOBS, after_string, len, &out, &err),
			 -1);
	assert_non_null(strstr(err.msg, "'jobs' twice"));
	len = sizeof(string_elem) - 1;
	assert_int_equal(
	    streamed(SQ_KIND_JOBS, string_elem, len, NULL, 0, &out, &err), -1);
	assert_non_null(strstr(err.msg, "job 1 is not an object"));
	assert_int_equal(bytewise(SQ_KIND_JOBS, string_elem, len, &out, &err),
			 -1);
	assert_non_null(strstr(err.msg, "job 1 is not an object"));
	sq_buf_free(&out);
}

/* Prefixes of an answer (each one in two pieces): -1 and "truncated",
 * never rows. */
static void
truncated(enum sq_kind kind, const char *b, size_t len, size_t step)
{
	size_t last = len, k;

	while (last > 0 && b[last - 1] != '}')
		last--;
	assert_true(last > 1);
	for (k = 1; k < last;
	     k = k + step < last || k == last - 1 ? k + step : last - 1) {
		struct sq_buf got;
		struct sq_err err;
		size_t cut = k / 2;

		sq_buf_init(&got, 0);
		assert_int_equal(streamed(kind, b, k, cut ? &cut : NULL,
					  cut ? 1 : 0, &got, &err),
				 -1);
		assert_int_equal(err.code, SQ_ERR_PARSE);
		if (strstr(err.msg, "truncated JSON answer") == NULL)
			fail_msg("prefix %zu: %s", k, err.msg);
		sq_buf_free(&got);
	}
}

static void
test_truncated_everywhere(void **state)
{
	size_t len;
	char *b = sq_test_fixture("rest/v0.0.38/slurm_jobs.json", &len);

	(void)state;
	truncated(SQ_KIND_JOBS, hostile, sizeof(hostile) - 1, 1);
	truncated(SQ_KIND_JOBS, b, len, len / 400 + 1);
	free(b);
	b = sq_test_fixture("rest/v0.0.38/slurm_nodes.json", &len);
	truncated(SQ_KIND_NODES, b, len, 1);
	free(b);
}

/* 20,000 jobs in pieces of 16 KiB, as curl hands them over. */
static void
test_many_jobs(void **state)
{
	struct sq_buf body, got;
	struct sq_err err;
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_sj_stream *st;
	size_t i, at;

	(void)state;
	sq_buf_init(&body, 0);
	sq_buf_init(&got, 0);
	sq_buf_printf(&body, "{\"meta\":{},\"errors\":[],\"jobs\":[");
	for (i = 0; i < 20000; i++)
		sq_buf_printf(
		    &body,
		    "%s{\"job_id\":%zu,\"name\":\"j%zu\",\"job_state\":"
		    "\"PENDING\",\"flags\":[\"A\",\"B\"]}",
		    i ? "," : "", i + 1, i);
	sq_buf_printf(&body, "]}");
	st = stream_new(SQ_KIND_JOBS, s, NULL, &err);
	assert_non_null(st);
	for (at = 0; at < body.len; at += 16384) {
		size_t n = body.len - at < 16384 ? body.len - at : 16384;

		assert_int_equal(
		    sq_slurmjson_stream_feed(st, body.data + at, n, &err), 0);
	}
	assert_int_equal(sq_slurmjson_stream_end(st, &err), 0);
	sq_slurmjson_stream_free(st);
	assert_int_equal(s->nrows, 20000);
	assert_string_equal(
	    ((const struct sq_job *)sq_snapshot_row(s, 19999))->name, "j19999");
	sq_snapshot_unref(s);
	sq_buf_free(&body);
	sq_buf_free(&got);
}

/* 20,000 jobs, job 15,000's id not JSON (json-c's to find, on the
 * thread) and job 19,000's name in single quotes (the scanner's to
 * find, later in the body but sooner in time): the first in the body is
 * the error, with the rows before it, whatever the pieces; without the
 * first flaw the second is the error, with its rows before it. */
static int
flawed(const struct sq_buf *body, size_t piece, struct sq_err *err,
       size_t *nrows)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_sj_stream *st = stream_new(SQ_KIND_JOBS, s, NULL, err);
	size_t at;
	int rc = 0;

	assert_non_null(st);
	for (at = 0; at < body->len && rc == 0; at += piece) {
		size_t n = body->len - at < piece ? body->len - at : piece;

		rc = sq_slurmjson_stream_feed(st, body->data + at, n, err);
	}
	if (rc == 0)
		rc = sq_slurmjson_stream_end(st, err);
	else /* end says it again */
		assert_int_equal(sq_slurmjson_stream_end(st, err), -1);
	sq_slurmjson_stream_free(st);
	*nrows = s->nrows;
	sq_snapshot_unref(s);
	return rc;
}

static void
test_first_error_in_the_body(void **state)
{
	static const size_t pieces[] = { 7, 16384, 1 << 20, 1 << 30 };
	struct sq_buf body;
	struct sq_err err;
	size_t i, k, nrows, from = 0, to = 0, quote = 0;
	char want[128];

	(void)state;
	for (k = 0; k < 2; k++) {
		sq_buf_init(&body, 0);
		sq_buf_printf(&body, "{\"meta\":{},\"errors\":[],\"jobs\":[");
		for (i = 0; i < 20000; i++) {
			if (i == 15000) {
				from = body.len;
			}
			if (i == 15001)
				to = body.len;
			if (i == 19000)
				quote = body.len;
			sq_buf_printf(
			    &body,
			    "%s{\"job_id\":%s,\"name\":%s,\"job_state\":"
			    "\"PENDING\"}",
			    i ? "," : "", i == 15000 && k == 0 ? "12x3" : "7",
			    i == 19000 ? "'j'" : "\"j\"");
		}
		sq_buf_printf(&body, "]}");
		for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
			assert_int_equal(flawed(&body, pieces[i], &err, &nrows),
					 -1);
			assert_int_equal(err.code, SQ_ERR_PARSE);
			if (k == 0) {
				size_t at;

				if (sscanf(err.msg,
					   "malformed JSON answer at byte %zu",
					   &at) != 1 ||
				    at < from || at >= to)
					fail_msg("piece %zu: %s (job 15000 is "
						 "bytes %zu-%zu)",
						 pieces[i], err.msg, from, to);
				assert_int_equal(nrows, 15000);
			} else {
				snprintf(
				    want, sizeof(want),
				    "malformed JSON answer at byte %zu: "
				    "quote or comment outside a string",
				    quote + strlen(",{\"job_id\":7,\"name\":"));
				assert_string_equal(err.msg, want);
				assert_int_equal(nrows, 19000);
			}
		}
		sq_buf_free(&body);
	}
}

/* The list as a whole has no bound, what is kept whole has: with the
 * limit at 4 KiB, 20,000 jobs (1.5 MB) go through; one job larger than
 * it, or an envelope larger than it, is refused saying so. */
static void
test_limit_kept_whole(void **state)
{
	struct sq_buf body;
	struct sq_err err;
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sq_sj_stream *st;
	size_t i, at;
	int rc = 0;

	(void)state;
	sq_buf_init(&body, 0);
	sq_buf_printf(&body, "{\"meta\":{},\"errors\":[],\"jobs\":[");
	for (i = 0; i < 20000; i++)
		sq_buf_printf(&body,
			      "%s{\"job_id\":%zu,\"name\":\"j%zu\","
			      "\"job_state\":\"PENDING\"}",
			      i ? "," : "", i + 1, i);
	sq_buf_printf(&body, "]}");
	st = stream_new(SQ_KIND_JOBS, s, NULL, &err);
	assert_non_null(st);
	sq_slurmjson_stream_limit(st, 4096);
	for (at = 0; at < body.len; at += 1000) {
		size_t n = body.len - at < 1000 ? body.len - at : 1000;

		assert_int_equal(
		    sq_slurmjson_stream_feed(st, body.data + at, n, &err), 0);
	}
	assert_int_equal(sq_slurmjson_stream_end(st, &err), 0);
	sq_slurmjson_stream_free(st);
	assert_int_equal(s->nrows, 20000);
	assert_true(body.len > 100 * 4096);

	/* one job of 6,000 bytes */
	sq_snapshot_unref(s);
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	sq_buf_free(&body);
	sq_buf_init(&body, 0);
	sq_buf_printf(&body, "{\"jobs\":[{\"job_id\":1,\"name\":\"");
	for (i = 0; i < 6000; i++)
		sq_buf_printf(&body, "x");
	sq_buf_printf(&body, "\"}],\"errors\":[]}");
	st = stream_new(SQ_KIND_JOBS, s, NULL, &err);
	sq_slurmjson_stream_limit(st, 4096);
	for (at = 0; at < body.len && rc == 0; at += 1000) {
		size_t n = body.len - at < 1000 ? body.len - at : 1000;

		rc = sq_slurmjson_stream_feed(st, body.data + at, n, &err);
	}
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, "more than 4096 bytes of one list "
					"element"));
	sq_slurmjson_stream_free(st);

	/* an envelope of 6,000 bytes */
	sq_buf_free(&body);
	sq_buf_init(&body, 0);
	sq_buf_printf(&body, "{\"jobs\":[],\"warnings\":[\"");
	for (i = 0; i < 6000; i++)
		sq_buf_printf(&body, "w");
	sq_buf_printf(&body, "\"]}");
	st = stream_new(SQ_KIND_JOBS, s, NULL, &err);
	sq_slurmjson_stream_limit(st, 4096);
	rc = 0;
	for (at = 0; at < body.len && rc == 0; at += 1000) {
		size_t n = body.len - at < 1000 ? body.len - at : 1000;

		rc = sq_slurmjson_stream_feed(st, body.data + at, n, &err);
	}
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, "of the answer"));
	sq_slurmjson_stream_free(st);
	sq_snapshot_unref(s);
	sq_buf_free(&body);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_any_pieces),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_small_bodies),
		cmocka_unit_test(test_unread_members),
		cmocka_unit_test(test_duplicate_list),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_many_jobs),
		cmocka_unit_test(test_first_error_in_the_body),
		cmocka_unit_test(test_limit_kept_whole),
	};

	int rc;

	batch = 0;
	rc = cmocka_run_group_tests_name("sj_stream", tests, NULL, NULL);
	batch = 1;
	return rc + cmocka_run_group_tests_name("sj_stream, every element on "
						"the thread",
						tests, NULL, NULL);
}
