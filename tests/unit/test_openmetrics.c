/*
 * test_openmetrics.c - slurmctld's OpenMetrics answers (recorded on 26.05,
 * tests/fixtures/metrics/README.md) read by core/base/openmetrics.c, the
 * figures core/analysis/overview_om.c takes from them, the overview built from
 * them (its source line too), the text format's corners, the
 * controller's address from `scontrol show config` (backends/cli/metrics.c),
 * and the console's METRICS kind: the sets as a snapshot and back
 * (core/analysis/om_snapshot.c), fetched by its plan row through a recording
 * (session/metrics_fetch.c) or saying why not.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backends/backend.h"
#include "backends/cli/metrics.h"
#include "core/analysis/om_snapshot.h"
#include "core/base/openmetrics.h"
#include "core/analysis/overview.h"
#include "core/analysis/overview_om.h"
#include "session/plan.h"
#include "tests/unit/test_util.h"

static void
load(const char *name, struct sq_om *om)
{
	char path[128], err[128] = "";
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "metrics/%s", name);
	text = sq_test_fixture(path, &len);
	assert_non_null(text);
	memset(om, 0, sizeof(*om));
	if (sq_om_parse(text, len, om, err, sizeof(err)) != 0)
		fail_msg("%s: %s", name, err);
	free(text);
}

static double
get(const struct sq_om *om, const char *name, const char *k, const char *v)
{
	double d = -1;

	if (sq_om_get(om, name, k, v, &d) != 0)
		fail_msg("no %s", name);
	return d;
}

static void
test_fixtures(void **state)
{
	struct sq_om om;

	(void)state;
	load("nodes-26.05.txt", &om);
	assert_int_equal(om.n, 4 * 10 + 28);
	assert_false(om.eof); /* 26.05 writes no # EOF */
	assert_true(get(&om, "slurm_nodes", NULL, NULL) == 4);
	assert_true(get(&om, "slurm_node_cpus", "node", "n3") == 8);
	assert_true(get(&om, "slurm_node_gpus", "node", "n4") == 4);
	assert_true(get(&om, "slurm_node_memory_bytes", "node", "n1") == 8000);
	/* a labelled metric is not its unlabelled namesake */
	assert_int_equal(
	    sq_om_get(&om, "slurm_node_cpus", NULL, NULL, &(double){ 0 }), -1);
	sq_om_free(&om);

	load("partitions-26.05.txt", &om);
	assert_true(get(&om, "slurm_partitions", NULL, NULL) == 3);
	assert_true(get(&om, "slurm_partition_cpus", "partition", "gpu") == 16);
	assert_true(
	    get(&om, "slurm_partition_jobs_pending", "partition", "low") == 27);
	sq_om_free(&om);

	load("jobs-26.05.txt", &om);
	assert_true(get(&om, "slurm_jobs", NULL, NULL) == 40);
	assert_true(get(&om, "slurm_jobs_running", NULL, NULL) == 12);
	assert_true(get(&om, "slurm_jobs_pending", NULL, NULL) == 28);
	sq_om_free(&om);

	load("jobs-users-accts-26.05.txt", &om);
	assert_true(get(&om, "slurm_user_jobs_cpus_alloc", "username", "bob") ==
		    15);
	sq_om_free(&om);

	load("scheduler-26.05.txt", &om);
	assert_true(om.n > 50);
	sq_om_free(&om);

	/* slurmctld without MetricsType: 200 and nothing */
	load("nodes-off-26.05.txt", &om);
	assert_int_equal(om.n, 0);
	sq_om_free(&om);
}

static void
test_index_is_not_metrics(void **state)
{
	char err[128] = "", *text;
	struct sq_om om = { 0 };
	size_t len;

	(void)state;
	text = sq_test_fixture("metrics/index-26.05.txt", &len);
	assert_non_null(text);
	assert_int_equal(sq_om_parse(text, len, &om, err, sizeof(err)), -1);
	assert_string_equal(err, "line 1: bad sample");
	assert_int_equal(om.n, 0);
	free(text);
}

static int
parse(const char *t, struct sq_om *om, char *err, size_t n)
{
	memset(om, 0, sizeof(*om));
	return sq_om_parse(t, strlen(t), om, err, n);
}

static void
test_format(void **state)
{
	struct sq_om om;
	char err[128];
	double v;

	(void)state;
	/* labels with escapes and a trailing comma, a timestamp, the
	 * special values, # EOF */
	assert_int_equal(parse("# HELP a_b Some help\n# TYPE a_b gauge\n"
			       "# UNIT a_b seconds\n"
			       "a_b{x=\"q\\\"u\\\\o\\nte\",y=\"\",} 1.5 17\n"
			       "c NaN\nd +Inf\ne -Inf\nf -2e3\n# EOF\n",
			       &om, err, sizeof(err)),
			 0);
	assert_int_equal(om.n, 5);
	assert_true(om.eof);
	assert_string_equal(sq_om_label(&om.v[0], "x"), "q\"u\\o\nte");
	assert_string_equal(sq_om_label(&om.v[0], "y"), "");
	assert_null(sq_om_label(&om.v[0], "z"));
	assert_true(om.v[0].value == 1.5);
	assert_true(isnan(om.v[1].value));
	assert_true(isinf(om.v[2].value) && om.v[2].value > 0);
	assert_int_equal(sq_om_get(&om, "f", NULL, NULL, &v), 0);
	assert_true(v == -2000);
	sq_om_free(&om);

	/* what must not pass for a figure */
	static const char *const bad[] = {
		"a\n",               /* no value */
		"a \n",              /* empty value */
		"a 1x\n",            /* not a number */
		"a{x=\"1\" 2\n",     /* unclosed labels */
		"a{x=1} 2\n",        /* unquoted label */
		"a{x=\"\\t\"} 2\n",  /* unknown escape */
		"a{x=\"1\"}2\n",     /* no space */
		"1a 2\n",            /* bad name */
		"a 1 2 3\n",         /* two timestamps */
		"a 1\n# EOF\nb 2\n", /* text after # EOF */
		"# TYPE\n",          /* TYPE without a name */
		"a{a=\"\",b=\"\",c=\"\",d=\"\",e=\"\",f=\"\",g=\"\",h=\"\","
		"i=\"\"} 1\n", /* too many labels */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &om, err, sizeof(err)) != -1)
			fail_msg("accepted: %s", bad[i]);
		assert_int_equal(om.n, 0);
		assert_non_null(strstr(err, "line "));
	}
	/* a NUL in the body */
	memset(&om, 0, sizeof(om));
	assert_int_equal(sq_om_parse("a 1\0b 2", 7, &om, err, sizeof(err)), -1);
	/* other comments and blank lines are fine; so is no final newline */
	assert_int_equal(parse("# a comment\n\na 1", &om, err, sizeof(err)), 0);
	assert_int_equal(om.n, 1);
	sq_om_free(&om);
}

static void
test_overview_figures(void **state)
{
	struct sq_om nodes, parts, sched;
	struct sq_ov_om_state st[32];
	struct sq_ov_om_part p;
	int64_t used, total, v;
	size_t n;

	(void)state;
	load("nodes-26.05.txt", &nodes);
	load("partitions-26.05.txt", &parts);
	load("scheduler-26.05.txt", &sched);
	assert_int_equal(sq_ov_om_nodes(&nodes), 4);
	n = sq_ov_om_states(&nodes, st, 32);
	assert_int_equal(n, 3);
	assert_string_equal(st[0].name, "allocated");
	assert_int_equal(st[0].n, 2);
	assert_string_equal(st[1].name, "mixed");
	assert_string_equal(st[2].name, "+planned");
	assert_true(st[2].is_flag);
	sq_ov_om_gpus(&nodes, &used, &total);
	assert_int_equal(used, 5);
	assert_int_equal(total, 8);

	assert_string_equal(sq_ov_om_partition(&parts, 0), "low");
	assert_string_equal(sq_ov_om_partition(&parts, 2), "gpu");
	assert_null(sq_ov_om_partition(&parts, 3));
	sq_ov_om_part(&parts, "low", &p);
	assert_int_equal(p.cpu_used, 22);
	assert_int_equal(p.cpu_total, 24);
	assert_int_equal(p.mem_used, 11000);
	assert_int_equal(p.mem_total, 48000);
	assert_int_equal(p.gpu_used, 1);
	assert_int_equal(p.gpu_total, 8);
	sq_ov_om_part(&parts, "nosuch", &p);
	assert_int_equal(p.cpu_total, -1);

	assert_int_equal(sq_ov_om_ctld(&sched, "server threads", &v), 0);
	assert_int_equal(sq_ov_om_ctld(&sched, "backfill depth", &v), 0);
	assert_int_equal(sq_ov_om_ctld(&sched, "sched cycles/min", &v), -1);
	sq_om_free(&nodes);
	sq_om_free(&parts);
	sq_om_free(&sched);
}

static void
test_overview_build(void **state)
{
	struct sq_om nodes, parts, sched;
	struct sq_ov_input in = { 0 };
	struct sq_snapshot *ov;
	const struct sq_ov_row *r;

	(void)state;
	load("nodes-26.05.txt", &nodes);
	load("partitions-26.05.txt", &parts);
	load("scheduler-26.05.txt", &sched);
	in.om_nodes = &nodes;
	in.om_parts = &parts;
	in.om_sched = &sched;
	in.top = 5;
	ov = sq_overview_build(&in, 1000);
	assert_non_null(ov);
	assert_string_equal(sq_test_ov_row(ov, "source/metrics")->value,
			    "slurmctld /metrics");
	assert_string_equal(sq_test_ov_row(ov, "nodes/total")->value,
			    "4 nodes");
	r = sq_test_ov_row(ov, "nodes/allocated");
	assert_string_equal(r->value, "2 of 4");
	assert_string_equal(r->filter, "@state=allocated");
	r = sq_test_ov_row(ov, "nodes/+planned");
	assert_string_equal(r->filter, ""); /* a flag: no state filter */
	r = sq_test_ov_row(ov, "partition/low cpu");
	assert_string_equal(r->value, "22/24 CPUs");
	assert_string_equal(sq_test_ov_row(ov, "partition/low mem")->value,
			    "10/46 GB");
	assert_string_equal(
	    sq_test_ov_row(ov, "partition/gpu gpu (jobs)")->value, "4/8 GPUs");
	assert_null(
	    sq_test_ov_row(ov, "partition/low jobs")); /* no queue given */
	assert_string_equal(sq_test_ov_row(ov, "gpus/allocated")->value,
			    "5/8 GPUs");
	assert_non_null(sq_test_ov_row(ov, "ctld/server threads"));
	assert_null(sq_test_ov_row(ov, "ctld/sched cycles/min"));
	sq_snapshot_unref(ov);

	/* not used: the line says why; no metrics, no figures from them */
	memset(&in, 0, sizeof(in));
	in.metrics_note = "Slurm 24.11 has none (25.11+)";
	ov = sq_overview_build(&in, 1000);
	assert_string_equal(sq_test_ov_row(ov, "source/metrics")->value,
			    "not used: Slurm 24.11 has none (25.11+)");
	assert_null(sq_test_ov_row(ov, "nodes/total"));
	sq_snapshot_unref(ov);
	sq_om_free(&nodes);
	sq_om_free(&parts);
	sq_om_free(&sched);
}

static void
test_address(void **state)
{
	char url[300], why[200];

	(void)state;
	assert_int_equal(sq_cli_metrics_url("SlurmctldAddr           = (null)\n"
					    "SlurmctldHost[0]        = "
					    "vm(127.0.0.1)\n"
					    "SlurmctldPort           = 7017\n",
					    url, sizeof(url), why, sizeof(why)),
			 0);
	assert_string_equal(url, "http://127.0.0.1:7017");
	assert_int_equal(sq_cli_metrics_url("SlurmctldHost[0] = ctl1\n"
					    "SlurmctldPort = 6817-6818\n",
					    url, sizeof(url), why, sizeof(why)),
			 0);
	assert_string_equal(url, "http://ctl1:6817");
	assert_int_equal(sq_cli_metrics_url("SlurmctldAddr = 10.0.0.9\n"
					    "SlurmctldHost[0] = ctl1\n"
					    "SlurmctldPort = 6817\n",
					    url, sizeof(url), why, sizeof(why)),
			 0);
	assert_string_equal(url, "http://10.0.0.9:6817");
	assert_int_equal(sq_cli_metrics_url("SlurmctldHost[0] = ctl(::1)\n"
					    "SlurmctldPort = 6817\n",
					    url, sizeof(url), why, sizeof(why)),
			 0);
	assert_string_equal(url, "http://[::1]:6817");
	/* nothing that could change the URL's meaning */
	assert_int_equal(sq_cli_metrics_url("SlurmctldHost[0] = a/b@c\n"
					    "SlurmctldPort = 6817\n",
					    url, sizeof(url), why, sizeof(why)),
			 -1);
	assert_int_equal(sq_cli_metrics_url("SlurmctldPort = 6817\n", url,
					    sizeof(url), why, sizeof(why)),
			 -1);
	assert_int_equal(sq_cli_metrics_url("SlurmctldHost[0] = c\n"
					    "SlurmctldPort = 99999\n",
					    url, sizeof(url), why, sizeof(why)),
			 -1);
}

/* The overview's rows as text, one line each (what a view shows of
 * them), into a new string. */
static char *
ov_text(const struct sq_om *nodes, const struct sq_om *parts,
	const struct sq_om *sched)
{
	struct sq_ov_input in = { 0 };
	struct sq_snapshot *ov;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	in.om_nodes = nodes;
	in.om_parts = parts;
	in.om_sched = sched;
	in.top = 5;
	ov = sq_overview_build(&in, 1000);
	assert_non_null(ov);
	for (i = 0; i < ov->nrows; i++) {
		const struct sq_ov_row *r = sq_snapshot_row(ov, i);

		fprintf(fp, "%s|%s|%lld|%lld|%lld|%s|%s|%d\n", r->id, r->value,
			(long long)r->num, (long long)r->used,
			(long long)r->total, r->view, r->filter, r->src);
	}
	fclose(fp);
	sq_snapshot_unref(ov);
	return buf;
}

/* The three sets as a METRICS snapshot and back: the same samples, the
 * same overview; the why-not snapshot has no rows and its note. */
static void
test_om_snapshot(void **state)
{
	struct sq_om om[SQ_OM_SETS], back[SQ_OM_SETS];
	struct sq_snapshot *s;
	char *a, *b;
	size_t i;
	int k;

	(void)state;
	load("nodes-26.05.txt", &om[SQ_OM_NODES]);
	load("partitions-26.05.txt", &om[SQ_OM_PARTITIONS]);
	load("scheduler-26.05.txt", &om[SQ_OM_SCHEDULER]);
	s = sq_om_snapshot_new(om, "", 1234);
	assert_non_null(s);
	assert_int_equal(s->kind, SQ_KIND_METRICS);
	assert_int_equal(s->fetched, 1234);
	assert_int_equal(s->nrows, om[0].n + om[1].n + om[2].n);
	assert_true(sq_om_snapshot_served(s));
	assert_int_equal(sq_om_snapshot_sets(s, back), 0);
	for (k = 0; k < SQ_OM_SETS; k++) {
		assert_int_equal(back[k].n, om[k].n);
		for (i = 0; i < om[k].n; i++) {
			const struct sq_om_sample *x = &om[k].v[i],
						  *y = &back[k].v[i];
			int l;

			assert_string_equal(x->name, y->name);
			assert_int_equal(x->nlabels, y->nlabels);
			for (l = 0; l < x->nlabels; l++) {
				assert_string_equal(x->label[l].key,
						    y->label[l].key);
				assert_string_equal(x->label[l].val,
						    y->label[l].val);
			}
			assert_memory_equal(&x->value, &y->value,
					    sizeof(x->value));
		}
	}
	/* the sets outlive the parsed text: they are the snapshot's */
	for (k = 0; k < SQ_OM_SETS; k++)
		sq_om_free(&om[k]);
	load("nodes-26.05.txt", &om[SQ_OM_NODES]);
	load("partitions-26.05.txt", &om[SQ_OM_PARTITIONS]);
	load("scheduler-26.05.txt", &om[SQ_OM_SCHEDULER]);
	a = ov_text(&om[0], &om[1], &om[2]);
	b = ov_text(&back[0], &back[1], &back[2]);
	assert_string_equal(a, b);
	assert_non_null(strstr(b, "nodes/total|4 nodes|"));
	free(a);
	free(b);
	for (k = 0; k < SQ_OM_SETS; k++) {
		sq_om_free(&om[k]);
		sq_om_free(&back[k]);
	}
	sq_snapshot_unref(s);

	/* not served: no rows, the reason */
	s = sq_om_snapshot_new(NULL, "Slurm 24.11 has none (25.11+)", 5);
	assert_non_null(s);
	assert_int_equal(s->nrows, 0);
	assert_false(sq_om_snapshot_served(s));
	assert_string_equal(s->note, "Slurm 24.11 has none (25.11+)");
	assert_int_equal(sq_om_snapshot_sets(s, back), -1);
	assert_int_equal(back[0].n, 0);
	sq_snapshot_unref(s);
	assert_false(sq_om_snapshot_served(NULL));
}

/* A file of the fixture's text in dir. */
static void
put(const char *dir, const char *name, const char *text)
{
	char path[200];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* The METRICS kind through the plan, on a replay backend of dir. */
static struct sq_snapshot *
metrics_of(const char *dir)
{
	struct sq_cluster_cfg cfg;
	struct sq_backend *b;
	struct sq_snapshot *s = NULL;
	struct sq_err err;

	sq_cluster_defaults(&cfg);
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	snprintf(cfg.replay_dir, sizeof(cfg.replay_dir), "%s", dir);
	b = sq_backend_open(&cfg, &err);
	if (b == NULL)
		fail_msg("replay %s: %s", dir, err.msg);
	if (sq_plan_fetch(b, SQ_KIND_METRICS, NULL, &s, &err) == -1)
		fail_msg("metrics: %s", err.msg);
	sq_backend_close(b);
	return s;
}

/*
 * The console's METRICS kind, fetched by its plan row through a
 * recording of the three GETs (as --record keeps them): the sets as
 * parsed; SQUALL_METRICS=off, a release without them and a recording
 * without one of them: no rows and why, the words of batch mode's
 * source line (the replay's own for the missing answer).
 */
static void
test_metrics_fetch(void **state)
{
	static const char *const names[SQ_OM_SETS] = { "nodes-26.05.txt",
						       "partitions-26.05.txt",
						       "scheduler-26.05.txt" };
	char dir[] = "/tmp/sqtest-om.XXXXXX", path[200], *text;
	struct sq_om om[SQ_OM_SETS], back[SQ_OM_SETS];
	const char *root = getenv("SQ_FIXTURES");
	struct sq_snapshot *s;
	char *a, *b;
	int k;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "v.out", "slurm 26.05.5\n");
	for (k = 0; k < SQ_OM_SETS; k++) {
		snprintf(path, sizeof(path), "metrics/%s", names[k]);
		text = sq_test_fixture(path, NULL);
		assert_non_null(text);
		snprintf(path, sizeof(path), "%d.out", k);
		put(dir, path, text);
		free(text);
		load(names[k], &om[k]);
	}
	put(dir, "index.tsv",
	    "000001\t0\tv.out\tsinfo\t-V\n"
	    "000002\t200\t0.out\tGET\t/metrics/nodes\n"
	    "000003\t200\t1.out\tGET\t/metrics/partitions\n"
	    "000004\t200\t2.out\tGET\t/metrics/scheduler\n");

	s = metrics_of(dir);
	assert_int_equal(s->kind, SQ_KIND_METRICS);
	assert_true(sq_om_snapshot_served(s));
	assert_int_equal(sq_om_snapshot_sets(s, back), 0);
	a = ov_text(&om[0], &om[1], &om[2]);
	b = ov_text(&back[0], &back[1], &back[2]);
	assert_string_equal(a, b);
	free(a);
	free(b);
	for (k = 0; k < SQ_OM_SETS; k++)
		sq_om_free(&back[k]);
	sq_snapshot_unref(s);

	/* asked for the commands */
	setenv("SQUALL_METRICS", "off", 1);
	s = metrics_of(dir);
	unsetenv("SQUALL_METRICS");
	assert_false(sq_om_snapshot_served(s));
	assert_int_equal(s->nrows, 0);
	assert_string_equal(s->note, "SQUALL_METRICS=off");
	sq_snapshot_unref(s);

	/* one endpoint missing: none is used */
	put(dir, "index.tsv",
	    "000001\t0\tv.out\tsinfo\t-V\n"
	    "000002\t200\t0.out\tGET\t/metrics/nodes\n"
	    "000003\t200\t1.out\tGET\t/metrics/partitions\n");
	s = metrics_of(dir);
	assert_false(sq_om_snapshot_served(s));
	assert_non_null(strstr(s->note, "no output of 'GET'"));
	sq_snapshot_unref(s);

	/* a release without them (the 22.05 recording) */
	snprintf(path, sizeof(path), "%s/replay/22.05",
		 root != NULL ? root : "tests/fixtures");
	s = metrics_of(path);
	assert_false(sq_om_snapshot_served(s));
	assert_string_equal(s->note, "Slurm 22.05 has none (25.11+)");
	sq_snapshot_unref(s);

	for (k = 0; k < SQ_OM_SETS; k++) {
		sq_om_free(&om[k]);
		snprintf(path, sizeof(path), "%s/%d.out", dir, k);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/v.out", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_index_is_not_metrics),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_overview_figures),
		cmocka_unit_test(test_overview_build),
		cmocka_unit_test(test_address),
		cmocka_unit_test(test_om_snapshot),
		cmocka_unit_test(test_metrics_fetch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
