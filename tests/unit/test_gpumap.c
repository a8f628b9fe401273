/*
 * test_gpumap.c - a node's GPUs one by one (core/analysis/gpumap.c): the IDX
 * lists of GresUsed and of a job's per-node GRES, and the map of a node joined
 * from them and the GPUUSE rows, on what 24.11 printed with the fake GPUs
 * (tests/fixtures/live/slurm-24.11/gpumap), including the jobs sstat
 * refused when read as alice (backends/cli/parse_gpuuse.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "backends/cli/live.h"
#include "core/analysis/gpumap.h"
#include "core/analysis/gpuuse.h"
#include "tests/unit/test_util.h"

#define DIR "live/slurm-24.11/gpumap/"

/* The value of key= in a fixture's text ("Gres" -> "gpu:a100:4(S:0-7)"). */
static void
field(const char *text, const char *key, char *out, size_t n)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(text, pat);
	assert_non_null(p);
	p += strlen(pat);
	snprintf(out, n, "%.*s", (int)strcspn(p, " \n"), p);
}

/* A job's per-node GRES as the job_live op reads it. */
static void
job_gres(const char *id, char *out, size_t n)
{
	char path[128], *text;

	snprintf(path, sizeof(path), DIR "job-%s.txt", id);
	text = sq_test_fixture(path, NULL);
	sq_cli_parse_job_gres(text, out, n);
	free(text);
}

/* GPUUSE rows from squeue.txt and an sstat's out and err files. */
static struct sq_snapshot *
use_of(const char *sstat, const char *err_file, const char *note)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_GPUUSE, 0);
	struct sq_gpuuse_cfg cfg = { 5, 30 };
	struct sq_err err;
	char path[128], *text;

	assert_non_null(s);
	text = sq_test_fixture(DIR "squeue.txt", NULL);
	assert_int_equal(sq_parse_gpuuse_jobs(text, s, &err), 0);
	free(text);
	snprintf(path, sizeof(path), DIR "%s", sstat);
	text = sq_test_fixture(path, NULL);
	assert_int_equal(sq_parse_gpuuse_sstat(text, s, &err), 0);
	free(text);
	sq_gpuuse_finish(s, NULL, 1796536135, cfg, NULL);
	if (err_file != NULL) {
		snprintf(path, sizeof(path), DIR "%s", err_file);
		text = sq_test_fixture(path, NULL);
		/* 75 and 120 are bob's */
		assert_int_equal(sq_parse_gpuuse_sstat_err(text, s, note), 2);
		free(text);
	}
	return s;
}

/* The map of node (n3, n4) with the jobs ids (id:user) of the recording. */
static int
map(const char *node, const char *const *ids, size_t n,
    const struct sq_snapshot *use, struct sq_gpumap_gpu *out)
{
	struct sq_gpumap_job jobs[8];
	char gres[8][256], path[128], cfg[128], used[128], *text;
	size_t i;

	snprintf(path, sizeof(path), DIR "node-%s.txt", node);
	text = sq_test_fixture(path, NULL);
	field(text, "Gres", cfg, sizeof(cfg));
	field(text, "GresUsed", used, sizeof(used));
	free(text);
	for (i = 0; i < n; i++) {
		job_gres(ids[2 * i], gres[i], sizeof(gres[i]));
		jobs[i].id = ids[2 * i];
		jobs[i].user = ids[2 * i + 1];
		jobs[i].gres = gres[i];
		jobs[i].why = NULL;
	}
	return sq_gpumap_build(node, cfg, used, jobs, n, use, out,
			       SQ_GPUMAP_MAX);
}

static void
test_idx(void **state)
{
	unsigned char m[16];
	char types[16][64];

	(void)state;
	memset(m, 0, sizeof(m));
	assert_int_equal(
	    sq_gpumap_idx("gpu:a100:2(IDX:0,2)", "gpu", m, NULL, 16), 2);
	assert_true(m[0] && !m[1] && m[2] && !m[3]);
	memset(m, 0, sizeof(m));
	assert_int_equal(sq_gpumap_idx("gpu:t4:0(IDX:N/A)", "gpu", m, NULL, 16),
			 0);
	/* two types: indices run over the node's GPUs, commas inside the
	 * IDX list are not item separators; shards are not GPUs */
	memset(m, 0, sizeof(m));
	memset(types, 0, sizeof(types));
	assert_int_equal(sq_gpumap_idx("gpu:a100:2(IDX:0-1),gpu:v100:2(IDX:"
				       "2,5),shard:a100:3(IDX:7)",
				       "gpu", m, types, 16),
			 4);
	assert_string_equal(types[1], "a100");
	assert_string_equal(types[5], "v100");
	assert_false(m[7]);
	/* untyped */
	memset(m, 0, sizeof(m));
	memset(types, 0, sizeof(types));
	assert_int_equal(sq_gpumap_idx("gpu:1(IDX:3)", "gpu", m, types, 16), 1);
	assert_string_equal(types[3], "");
	/* beyond max: ignored; malformed: -1 */
	memset(m, 0, sizeof(m));
	assert_int_equal(
	    sq_gpumap_idx("gpu:x:2(IDX:14-40)", "gpu", m, NULL, 16), 2);
	assert_int_equal(sq_gpumap_idx("gpu:x:2(IDX:a)", "gpu", m, NULL, 16),
			 -1);
	assert_int_equal(sq_gpumap_idx("gpu:x:2(IDX:3-1)", "gpu", m, NULL, 16),
			 -1);
	assert_int_equal(sq_gpumap_idx("gpu:x:2(IDX:1", "gpu", m, NULL, 16),
			 -1);
	assert_int_equal(sq_gpumap_idx("", "gpu", m, NULL, 16), 0);
}

static void
test_node_gres(void **state)
{
	char g[256], out[128];

	(void)state;
	job_gres("120", g, sizeof(g));
	assert_string_equal(g, "n3 gpu:a100:2(IDX:0,2)");
	assert_int_equal(sq_gpumap_node_gres(g, "n3", out, sizeof(out)), 0);
	assert_string_equal(out, "gpu:a100:2(IDX:0,2)");
	assert_int_equal(sq_gpumap_node_gres(g, "n4", out, sizeof(out)), -1);
	assert_int_equal(sq_gpumap_node_gres("n3 gpu:a100:1(IDX:0); n31 "
					     "gpu:a100:2(IDX:1-2)",
					     "n31", out, sizeof(out)),
			 0);
	assert_string_equal(out, "gpu:a100:2(IDX:1-2)");
	assert_int_equal(
	    sq_gpumap_node_gres("n31 gpu:1(IDX:0)", "n3", out, sizeof(out)),
	    -1);
}

/* n3: bob's 120 holds 0 and 2 (30 % summed over two: 15 % each, as the
 * job's mean), alice's 76 holds 1 with no process on it, 3 is free */
static void
test_map_n3(void **state)
{
	static const char *const ids[] = { "120", "bob", "76", "alice" };
	struct sq_snapshot *use = use_of("sstat.txt", NULL, NULL);
	struct sq_gpumap_gpu g[SQ_GPUMAP_MAX];
	int n;

	(void)state;
	n = map("n3", ids, 2, use, g);
	assert_int_equal(n, 4);
	assert_string_equal(g[0].job, "120");
	assert_string_equal(g[0].user, "bob");
	assert_string_equal(g[0].type, "a100");
	assert_int_equal(g[0].util, 15);
	assert_int_equal(g[0].job_gpus, 2);
	assert_string_equal(g[1].job, "76");
	assert_int_equal(g[1].util, SQ_NONE);
	assert_string_equal(g[1].note, "no process on its GPUs");
	assert_string_equal(g[2].job, "120");
	assert_null(g[3].job);
	assert_false(g[3].used);
	assert_string_equal(g[3].note, "free");
	/* GPU use not read (no view showed it yet) */
	n = map("n3", ids, 2, NULL, g);
	assert_int_equal(g[0].util, SQ_NONE);
	assert_string_equal(g[0].note, "GPU use not read yet");
	/* 76 not read: GresUsed says 1 is used, by a job squall has not */
	n = map("n3", ids, 1, use, g);
	assert_true(g[1].used);
	assert_null(g[1].job);
	assert_string_equal(g[1].note, "held by a job not read");
	sq_snapshot_unref(use);
}

/* n4 as alice reads it: sstat refused bob's 75; alice's 119 is at 80 % */
static void
test_map_n4_refused(void **state)
{
	static const char *const ids[] = { "119", "alice", "75", "bob" };
	const char *note = "sstat refused (Invalid user id): over ssh as "
			   "alice, Slurm answers only for alice's own jobs";
	struct sq_snapshot *use =
	    use_of("sstat-alice.txt", "sstat-alice.err", note);
	struct sq_gpumap_gpu g[SQ_GPUMAP_MAX];
	int n, i;

	(void)state;
	n = map("n4", ids, 2, use, g);
	assert_int_equal(n, 4);
	assert_string_equal(g[0].job, "119");
	assert_int_equal(g[0].util, 80);
	for (i = 1; i <= 2; i++) {
		assert_string_equal(g[i].job, "75");
		assert_int_equal(g[i].util, SQ_NONE);
		assert_string_equal(g[i].note, note);
	}
	/* the jobs view's cell of 120 says the same */
	assert_string_equal(sq_gpuuse_find(use, "120")->note, note);
	/* but a job of alice's not refused keeps its own reason */
	assert_string_equal(sq_gpuuse_find(use, "76")->note,
			    "no process on its GPUs");
	sq_snapshot_unref(use);
}

static void
add(void *arg, const char *line)
{
	char *t = arg;
	size_t l = strlen(t);

	snprintf(t + l, 4096 - l, "%s\n", line);
}

static void
test_lines(void **state)
{
	static const char *const ids[] = { "120", "bob", "76", "alice" };
	struct sq_snapshot *use = use_of("sstat.txt", NULL, NULL);
	struct sq_gpumap_gpu g[SQ_GPUMAP_MAX];
	char *text = calloc(1, 4096);
	int n;

	(void)state;
	n = map("n3", ids, 2, use, g);
	assert_int_equal(sq_gpumap_lines(g, n, add, text), 5);
	assert_string_equal(
	    text,
	    "GPU  type       job          user       use\n"
	    "0    a100       120          bob        15% (the job's mean "
	    "over its 2 GPUs: Slurm measures no GPU alone)\n"
	    "1    a100       76           alice      - (no process on its "
	    "GPUs)\n"
	    "2    a100       120          bob        15% (the job's mean "
	    "over its 2 GPUs: Slurm measures no GPU alone)\n"
	    "3    a100       -            -          - (free)\n");
	free(text);
	sq_snapshot_unref(use);
}

/* a job whose per-node GRES could not be read: its GPUs say why */
static void
test_unread_job(void **state)
{
	struct sq_gpumap_job j[1] = {
		{ "9", "carol", NULL, "scontrol: Invalid job id specified" }
	};
	struct sq_gpumap_gpu g[8];
	int n;

	(void)state;
	n = sq_gpumap_build("n1", "gpu:2", "gpu:1(IDX:1)", j, 1, NULL, g, 8);
	assert_int_equal(n, 2);
	assert_string_equal(g[0].note, "free");
	assert_string_equal(g[1].note, "scontrol: Invalid job id specified");
	/* no GPU at all */
	assert_int_equal(sq_gpumap_build("n1", "(null)", "", j, 1, NULL, g, 8),
			 0);
	/* GresUsed past the configured count still lists the index */
	n = sq_gpumap_build("n1", "gpu:1", "gpu:2(IDX:0-1)", NULL, 0, NULL, g,
			    8);
	assert_int_equal(n, 2);
	assert_true(g[1].used);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idx),
		cmocka_unit_test(test_node_gres),
		cmocka_unit_test(test_map_n3),
		cmocka_unit_test(test_map_n4_refused),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_unread_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
