/*
 * fuzz_json.c - libFuzzer harness for the JSON mapping (backends/
 * slurmjson): slurmrestd answers and `squeue/sinfo --json`, v0.0.38 and
 * the v0.0.39+ family alike. SQ_FUZZ_NAME picks the kind ("jobs",
 * "nodes" ...) or "check" (the envelope alone); accounts and users are
 * then joined with recorded associations, as the rest backend does.
 * "stream_jobs" and "stream_nodes" test the streamed path (sj_stream.c)
 * against the whole-tree mapping: the body fed in pieces of sizes drawn
 * from its bytes must give what one piece gives, and the rows of the
 * tree.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/buf.h"
#include "core/analysis/events.h"
#include "core/analysis/gpus.h"
#include "core/model/join.h"
#include "core/analysis/limits.h"
#include "tests/fuzz/fuzz.h"

#ifndef SQ_FUZZ_NAME
#error "build with -DSQ_FUZZ_NAME=\"jobs\" (see tests/fuzz/run)"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int kind = -1; /* -1: "check" */
static int stream;    /* stream_jobs, stream_nodes */
static struct sq_snapshot *ref_assocs;
static char *users_body;
static size_t users_len;

/* recorded users joined with the associations of the input */
static void
join_users(const struct sq_snapshot *assocs)
{
	struct sq_snapshot *u = sq_snapshot_new(SQ_KIND_USERS, 0);
	struct sq_err err;

	SQ_FUZZ_CHECK(u != NULL);
	SQ_FUZZ_CHECK(sq_slurmjson_parse(SQ_KIND_USERS, users_body, users_len,
					 0, u, NULL, &err) == 0);
	SQ_FUZZ_CHECK(sq_users_join_assocs(u, assocs) == 0);
	sq_fuzz_render(u);
	sq_snapshot_unref(u);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t len;
	char *body;
	struct sq_err err;

	(void)argc;
	(void)argv;
	if (strncmp(SQ_FUZZ_NAME, "stream_", 7) == 0) {
		stream = 1;
		kind = sq_kind_from_name(SQ_FUZZ_NAME + 7);
		SQ_FUZZ_CHECK(kind == SQ_KIND_JOBS || kind == SQ_KIND_NODES);
	} else if (strcmp(SQ_FUZZ_NAME, "check") != 0) {
		/* json_shares: the kind is called "fairshare" */
		kind = sq_kind_from_name(strcmp(SQ_FUZZ_NAME, "shares") == 0
					     ? "fairshare"
					     : SQ_FUZZ_NAME);
		SQ_FUZZ_CHECK(kind >= 0 &&
			      sq_slurmjson_supports((enum sq_kind)kind));
	}
	body = sq_fuzz_fixture("rest/v0.0.41/slurmdb_associations.json", &len);
	ref_assocs = sq_snapshot_new(SQ_KIND_ASSOCS, 0);
	SQ_FUZZ_CHECK(ref_assocs != NULL);
	SQ_FUZZ_CHECK(sq_slurmjson_parse(SQ_KIND_ASSOCS, body, len, 0,
					 ref_assocs, NULL, &err) == 0);
	free(body);
	users_body =
	    sq_fuzz_fixture("rest/v0.0.38/slurmdb_users.json", &users_len);
	return 0;
}

/* Every field of every row and the envelope, for comparisons. */
static void
dump(const struct sq_snapshot *s, const struct sq_sj_info *in, struct sq_buf *b)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		if (s->kind == SQ_KIND_JOBS) {
			const struct sq_job *j = sq_snapshot_row(s, i);

			sq_buf_printf(b,
				      "%s|%u|%s|%s|%s|%s|%s|%s|%lld|%lld|%s\n",
				      j->id, j->job_id, j->array_task, j->name,
				      j->user, j->state, j->reason, j->gres,
				      (long long)j->time_limit,
				      (long long)j->time_used, j->nodelist);
		} else {
			const struct sq_node *n = sq_snapshot_row(s, i);

			sq_buf_printf(b, "%s|%s|%s|%lld|%s\n", n->name,
				      n->state, n->partitions,
				      (long long)n->cpus_idle, n->reason);
		}
	}
	sq_buf_printf(b, "%d %s %d %d %s %d %lld\n", in->api, in->release,
		      in->nerrors, in->nwarnings, in->warning, in->unchanged,
		      (long long)in->last_update);
}

/* The stream in pieces whose sizes come from the body's own bytes
 * (pieces == 0: one piece). */
static int
run_stream(const char *body, size_t size, int pieces, struct sq_buf *out,
	   struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new((enum sq_kind)kind, 0);
	struct sq_sj_info info;
	struct sq_sj_stream *st;
	size_t at = 0, k = 0;
	int rc = 0;

	SQ_FUZZ_CHECK(s != NULL);
	st = sq_slurmjson_stream_new((enum sq_kind)kind, 1795986600, s, &info,
				     err);
	SQ_FUZZ_CHECK(st != NULL);
	while (at < size && rc == 0) {
		size_t n = size - at;

		if (pieces)
			n = 1 + (unsigned char)body[k++ % size] % 37;
		if (n > size - at)
			n = size - at;
		rc = sq_slurmjson_stream_feed(st, body + at, n, err);
		at += n;
	}
	if (rc == 0)
		rc = sq_slurmjson_stream_end(st, err);
	sq_slurmjson_stream_free(st);
	if (rc == 0) {
		sq_fuzz_render(s);
		dump(s, &info, out);
	} else {
		SQ_FUZZ_CHECK(err->msg[0] != '\0');
		sq_fuzz_check_display(err->msg);
	}
	sq_snapshot_unref(s);
	return rc;
}

/* The whole-tree mapping the stream replaces. */
static int
run_tree(const char *body, size_t size, struct sq_buf *out, struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new((enum sq_kind)kind, 0);
	struct sq_sj_info info;
	struct sq_sj_ctx c;
	json_object *root;
	int rc = -1;

	SQ_FUZZ_CHECK(s != NULL);
	sq_sj_info_init(&info);
	root = sq_sj_parse_body(body, size, NULL, err);
	if (root != NULL) {
		if (sq_sj_read_envelope(root, &info, err) == 0) {
			c.s = s;
			c.info = &info;
			c.now = 1795986600;
			c.api = info.api;
			rc = sq_sj_map_root((enum sq_kind)kind, &c, root, err);
		}
		json_object_put(root);
	}
	if (rc == 0)
		dump(s, &info, out);
	sq_snapshot_unref(s);
	return rc;
}

static void
stream_one(const char *body, size_t size)
{
	struct sq_buf one, many, tree;
	struct sq_err e1, e2, e3;
	int r1, r2, r3;

	sq_buf_init(&one, 0);
	sq_buf_init(&many, 0);
	sq_buf_init(&tree, 0);
	r1 = run_stream(body, size, 0, &one, &e1);
	r2 = run_stream(body, size, 1, &many, &e2);
	/* the pieces never change the answer */
	SQ_FUZZ_CHECK(r1 == r2);
	if (r1 == 0)
		SQ_FUZZ_CHECK(strcmp(sq_buf_str(&one), sq_buf_str(&many)) == 0);
	else
		SQ_FUZZ_CHECK(strcmp(e1.msg, e2.msg) == 0);
	r3 = run_tree(body, size, &tree, &e3);
	/* rows only where the tree has the same rows, or where the tree
	 * saw malformed JSON in a member of a job the mapping never reads
	 * (the stream leaves those out unparsed) */
	if (r1 == 0 && r3 == 0)
		SQ_FUZZ_CHECK(strcmp(sq_buf_str(&one), sq_buf_str(&tree)) == 0);
	if (r1 == 0 && r3 == -1)
		SQ_FUZZ_CHECK(kind == SQ_KIND_JOBS && e3.code == SQ_ERR_PARSE &&
			      strncmp(e3.msg, "malformed JSON answer", 21) ==
				  0);
	/* refused where the tree is not: a list given twice, or json-c's
	 * extensions the scanner does not follow (single quotes, comments,
	 * a NUL byte) */
	if (r1 == -1 && r3 == 0)
		SQ_FUZZ_CHECK(strstr(e1.msg, "twice") != NULL ||
			      memchr(body, '\'', size) != NULL ||
			      memchr(body, '/', size) != NULL ||
			      memchr(body, '\0', size) != NULL);
	sq_buf_free(&one);
	sq_buf_free(&many);
	sq_buf_free(&tree);
}

/* The REST backend's joined kinds over a fuzzed queue, nodes or runs
 * (backends/rest/rest_views.c): each must build and render. */
static void
rest_joins(const struct sq_snapshot *s)
{
	struct sq_snapshot *g = sq_snapshot_new(SQ_KIND_GPUS, 0);
	struct sq_snapshot *p = sq_snapshot_new(SQ_KIND_PRIO, 0);
	struct sq_snapshot *l = sq_snapshot_new(SQ_KIND_LIMITS, 0);
	struct sq_snapshot *e = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	int jobs = s->kind == SQ_KIND_JOBS;

	SQ_FUZZ_CHECK(g != NULL && p != NULL && l != NULL && e != NULL);
	SQ_FUZZ_CHECK(sq_gpus_add_records(g,
					  s->kind == SQ_KIND_NODES ? s : NULL,
					  jobs ? s : NULL) == 0);
	SQ_FUZZ_CHECK(sq_gpus_finish(g, "n/a") == 0);
	if (jobs) {
		SQ_FUZZ_CHECK(sq_prio_from_jobs(p, s) == 0);
		SQ_FUZZ_CHECK(sq_limits_build(l, ref_assocs, NULL, s) == 0);
		SQ_FUZZ_CHECK(sq_events_from_restarts(e, NULL, s) >= 0);
		sq_events_finish(e, s);
	}
	if (s->kind == SQ_KIND_HISTORY) {
		SQ_FUZZ_CHECK(sq_events_from_runs(e, s, 0) == 0);
		sq_events_infer(e, s, NULL, NULL, NULL);
	}
	sq_fuzz_render(g);
	sq_fuzz_render(p);
	sq_fuzz_render(l);
	sq_fuzz_render(e);
	sq_snapshot_unref(g);
	sq_snapshot_unref(p);
	sq_snapshot_unref(l);
	sq_snapshot_unref(e);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sq_sj_info info;
	struct sq_err err;
	struct sq_snapshot *s;
	/* the body is not NUL-terminated: a copy of exactly size bytes
	 * lets ASan catch a read past its end */
	char *body;

	if (kind == SQ_KIND_HISTORY &&
	    sq_fuzz_range_names(data, size) > SQ_FUZZ_MAX_ROW_NAMES)
		return 0;
	body = malloc(size ? size : 1);
	SQ_FUZZ_CHECK(body != NULL);
	if (size > 0)
		memcpy(body, data, size);
	sq_err_clear(&err);
	if (stream) {
		stream_one(body, size);
		free(body);
		return 0;
	}
	if (kind < 0) {
		if (sq_slurmjson_check(body, size, &info, &err) == -1)
			SQ_FUZZ_CHECK(err.msg[0] != '\0');
		sq_fuzz_check_display(err.msg);
		sq_fuzz_check_display(info.warning);
		free(body);
		return 0;
	}
	s = sq_snapshot_new((enum sq_kind)kind, 0);
	SQ_FUZZ_CHECK(s != NULL);
	if (sq_slurmjson_parse((enum sq_kind)kind, body, size, 1795986600, s,
			       &info, &err) == 0) {
		if (kind == SQ_KIND_ACCOUNTS)
			SQ_FUZZ_CHECK(sq_accounts_join_assocs(s, ref_assocs) ==
				      0);
		else if (kind == SQ_KIND_USERS)
			SQ_FUZZ_CHECK(sq_users_join_assocs(s, ref_assocs) == 0);
		else if (kind == SQ_KIND_ASSOCS)
			join_users(s);
		else if (kind == SQ_KIND_HISTORY)
			sq_fuzz_history(s);
		if (kind == SQ_KIND_JOBS || kind == SQ_KIND_NODES ||
		    kind == SQ_KIND_HISTORY)
			rest_joins(s);
		sq_fuzz_render(s);
	} else {
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
	}
	sq_fuzz_check_display(err.msg);
	sq_snapshot_unref(s);
	free(body);
	return 0;
}
