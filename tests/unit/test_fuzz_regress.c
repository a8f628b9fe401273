/*
 * test_fuzz_regress.c - one test for each crash the libFuzzer harnesses
 * (tests/fuzz/) found, with the input that triggered it cut down to what
 * matters. Built with --enable-sanitizers these fail loudly on the old
 * code (UBSan overflow, ASan use-after-free); they also check that the
 * fixed code still reads the ordinary values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/actions.h"
#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/action/action.h"
#include "core/analysis/events.h"
#include "core/query/filter.h"
#include "core/base/gres.h"
#include "core/analysis/history.h"
#include "core/model/view.h"
#include "core/model/join.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"
#include "core/base/validate.h"
#include "core/analysis/why.h"
#include "tests/unit/test_util.h"

/* One squeue -O line of a pending job (sq_cli_squeue_fmt). */
#define SQ_LINE(id, user, prio, restarts)                                      \
	id "|" id "|" id "|N/A|" user "|chemistry|low|normal|PD|PENDING|" prio \
	   "|1|1|N/A|1-00:00:00|0:00|1795989962|N/A||" restarts                \
	   "|Priority|" user "-job\n"

/* fuzz json_qos: a MaxWall of INT64_MAX minutes overflowed int64_t when
 * turned into seconds; it reads as no limit, an ordinary one as seconds */
static void
test_json_wall_overflow(void **state)
{
	static const char body[] =
	    "{\"qos\":[{\"name\":\"big\",\"limits\":{\"max\":{"
	    "\"wall_clock\":{\"per\":{\"job\":{\"set\":true,"
	    "\"infinite\":false,\"number\":9223372036854775807},"
	    "\"qos\":{\"set\":true,\"infinite\":false,\"number\":90}}}}}}]}";
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_QOS, 0);
	struct sq_err err;
	const struct sq_qos *q;

	(void)state;
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_QOS, body, strlen(body), 0,
					    s, NULL, &err),
			 0);
	assert_int_equal(s->nrows, 1);
	q = sq_snapshot_row(s, 0);
	assert_int_equal(q->max_wall, SQ_NONE);
	assert_int_equal(q->grp_wall, 90 * 60);
	sq_snapshot_unref(s);
}

/* fuzz json_partitions (long run, 744,679th execution): a partition's
 * max_time_limit of INT64_MAX minutes overflowed int64_t when the view
 * turned it into seconds; a job's time_limit the same way. Both are
 * garbage now, an ordinary one still shows. */
static void
test_json_minutes_overflow(void **state)
{
	static const char parts[] =
	    "{\"meta\":{\"plugin\":{\"type\":\"openapi/v0.0.38\"}},"
	    "\"errors\":[],\"partitions\":["
	    "{\"name\":\"big\",\"max_time_limit\":9223372036854775807},"
	    "{\"name\":\"day\",\"max_time_limit\":1440}]}";
	static const char jobs[] =
	    "{\"meta\":{\"plugin\":{\"type\":\"openapi/v0.0.38\"}},"
	    "\"errors\":[],\"jobs\":["
	    "{\"job_id\":1,\"job_state\":\"PENDING\","
	    "\"time_limit\":9223372036854775807},"
	    "{\"job_id\":2,\"job_state\":\"PENDING\",\"time_limit\":90}]}";
	const struct sq_view_def *v = sq_view_find("partitions");
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_PARTITIONS, 0);
	const struct sq_column *col = NULL;
	const struct sq_job *j;
	struct sq_err err;
	char buf[64];
	size_t i;

	(void)state;
	assert_non_null(v);
	for (i = 0; i < v->ncols; i++)
		if (strcmp(v->cols[i].id, "max_time") == 0)
			col = &v->cols[i];
	assert_non_null(col);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_PARTITIONS, parts,
					    strlen(parts), 0, s, NULL, &err),
			 0);
	assert_int_equal(s->nrows, 2);
	assert_null(col->text(sq_snapshot_row(s, 0), buf, sizeof(buf)));
	assert_string_equal(col->text(sq_snapshot_row(s, 1), buf, sizeof(buf)),
			    "1-00:00:00");
	sq_snapshot_unref(s);
	s = sq_snapshot_new(SQ_KIND_JOBS, 0);
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, jobs, strlen(jobs),
					    1795986600, s, NULL, &err),
			 0);
	assert_int_equal(s->nrows, 2);
	j = sq_snapshot_row(s, 0);
	assert_int_equal(j->time_limit, SQ_NONE);
	j = sq_snapshot_row(s, 1);
	assert_int_equal(j->time_limit, 90 * 60);
	sq_snapshot_unref(s);
}

/* fuzz cli_scontrol_partitions, cli_sacctmgr_*, core_validate: a time
 * limit of 9223372036854775807 days overflowed int64_t */
static void
test_duration_overflow(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(sq_parse_duration("9223372036854775807-0", &v), -1);
	assert_int_equal(sq_parse_duration("9223372036854775807", &v), -1);
	assert_int_equal(sq_parse_duration("666666666666666666", &v), -1);
	assert_int_equal(sq_parse_duration("1:9223372036854775807", &v), -1);
	assert_int_equal(sq_parse_duration("99999999999999999999:00", &v), -1);
	/* ordinary values still read */
	assert_int_equal(sq_parse_duration("1-02:03:04", &v), 0);
	assert_int_equal(v, 93784);
	assert_int_equal(sq_parse_duration("999999999", &v), 0);
	assert_int_equal(v, 59999999940LL);
	assert_int_equal(sq_parse_duration("UNLIMITED", &v), 0);
	assert_int_equal(v, SQ_INFINITE);
	/* fuzz core_parse (long run): the parts fit, the sum printed as
	 * 1000000752-... did not read back */
	assert_int_equal(sq_parse_duration("999999919-19999", &v), -1);
	assert_int_equal(sq_parse_duration("999999999-23:59:59", &v), 0);
}

/* fuzz cli_sinfo_nodes: Memory=3.5e113 was cast to int64_t */
static void
test_mem_out_of_range(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(sq_parse_mem_mb("3.50111e+113", &v), -1);
	assert_int_equal(sq_parse_mem_mb("-1e300G", &v), -1);
	assert_int_equal(sq_parse_mem_mb("nan", &v), -1);
	assert_int_equal(sq_parse_mem_mb("infinity", &v), -1);
	assert_int_equal(sq_parse_mem_mb("8000", &v), 0);
	assert_int_equal(v, 8000);
	assert_int_equal(sq_parse_mem_mb("2G", &v), 0);
	assert_int_equal(v, 2048);
}

/* fuzz core_parse: "9999999999999G" overflowed the multiplication */
static void
test_int_suffix_overflow(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(sq_parse_int("9999999999999G", &v), -1);
	assert_int_equal(sq_parse_int("-9999999999999G", &v), -1);
	assert_int_equal(sq_parse_int("9223372036854775K", &v), 0);
	assert_int_equal(v, 9223372036854775000LL);
	assert_int_equal(sq_parse_int("5K", &v), 0);
	assert_int_equal(v, 5000);
}

/* fuzz cli_sshare: a first row deeper than 0 took its parent from an
 * uninitialised array (a pointer into the arena of an earlier, freed
 * snapshot: use after free when the view drew it) */
static void
test_sshare_deep_first_row(void **state)
{
	struct sq_snapshot *s;
	const struct sq_share *r;

	(void)state;
	s = sq_test_cli_parse(SQ_KIND_SHARES, sq_parse_sshare, NULL,
			      "root|||1|1.0|0|0|0|||cpu=0|cpu=0\n"
			      " chem|||1|1.0|0|0|0|||cpu=0|cpu=0\n"
			      "  sub|||1|1.0|0|0|0|||cpu=0|cpu=0\n"
			      "   subsub|||1|1.0|0|0|0|||cpu=0|cpu=0\n",
			      0);
	sq_snapshot_unref(s);
	s = sq_test_cli_parse(SQ_KIND_SHARES, sq_parse_sshare, NULL,
			      "   deep|||1|0.5|0|0|0|||cpu=0|cpu=0\n"
			      "  up|||1|0.5|0|0|0|||cpu=0|cpu=0\n"
			      "     deeper|||1|0.5|0|0|0|||cpu=0|cpu=0\n",
			      0);
	assert_int_equal(s->nrows, 3);
	r = sq_snapshot_row(s, 0);
	assert_int_equal(r->depth, 3);
	assert_string_equal(r->parent, "");
	r = sq_snapshot_row(s, 2);
	assert_int_equal(r->depth, 5);
	assert_string_equal(r->parent, "");
	sq_snapshot_unref(s);
}

/* fuzz cli_squeue: RestartCnt 4768000000 added one event row per
 * restart (out of memory) */
static void
test_restart_jump(void **state)
{
	struct sq_snapshot *old, *cur, *ev;
	int n;

	(void)state;
	old = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue, NULL,
				SQ_LINE("66", "bob", "4768", "0"), 0);
	cur = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue, NULL,
				SQ_LINE("66", "bob", "4768", "4768000000"), 0);
	ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	assert_non_null(ev);
	n = sq_events_from_restarts(ev, old, cur);
	assert_true(n > 0 && n <= 100);
	assert_int_equal(ev->nrows, (size_t)n);
	sq_snapshot_unref(ev);
	/* a real restart still gives one row */
	sq_snapshot_unref(cur);
	cur = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue, NULL,
				SQ_LINE("66", "bob", "4768", "1"), 0);
	ev = sq_snapshot_new(SQ_KIND_EVENTS, 0);
	assert_int_equal(sq_events_from_restarts(ev, old, cur), 1);
	sq_snapshot_unref(ev);
	sq_snapshot_unref(cur);
	sq_snapshot_unref(old);
}

/* fuzz cli_sprio: a factor of 1e37 became INT64_MIN (llround), and
 * nice INT64_MIN against 61 overflowed the difference that picks the
 * factor between two jobs */
static void
test_sprio_extreme(void **state)
{
	struct sq_snapshot *jobs, *prio;
	struct sq_prio *p;
	struct sq_job *j = NULL;
	struct sq_why w;
	struct sq_err err;
	char buf[2048];
	char big[] = "61|bob|low|2171|0|125|1667|167|5|200|0|"
		     "19999999999999999999999999999999999990|cpu=8\n";
	size_t i;

	(void)state;
	prio = sq_snapshot_new(SQ_KIND_PRIO, 0);
	assert_int_equal(sq_parse_sprio(big, prio, &err), -1);
	sq_snapshot_unref(prio);

	/* other backends may fill sprio rows: why.c saturates */
	jobs = sq_test_cli_parse(SQ_KIND_JOBS, sq_parse_squeue, NULL,
				 SQ_LINE("65", "carol", "3813", "0")
				     SQ_LINE("61", "bob", "2171", "0"),
				 0);
	prio = sq_snapshot_new(SQ_KIND_PRIO, 0);
	p = sq_snapshot_add(prio);
	p->job_id = 61;
	p->user = "bob";
	p->partition = "low";
	p->priority = INT64_MIN;
	p->nice = INT64_MAX;
	p->tres = "cpu=9223372036854775807,mem=9223372036854775807";
	p = sq_snapshot_add(prio);
	p->job_id = 65;
	p->user = "carol";
	p->partition = "low";
	p->priority = INT64_MAX;
	p->nice = INT64_MIN;
	p->tres = "cpu=-9223372036854775807,mem=-9223372036854775807";
	sq_prio_rank(prio);
	sq_jobs_join_prio(jobs, prio);
	for (i = 0; i < jobs->nrows; i++) {
		struct sq_job *x = sq_snapshot_row(jobs, i);

		if (x->job_id == 61)
			j = x;
	}
	assert_non_null(j);
	j->priority = INT64_MIN;
	sq_why_compute(j, jobs, NULL, NULL, &w);
	assert_int_equal(w.rank, 2);
	assert_int_equal(w.ahead_job, 65);
	assert_string_equal(w.factor, "nice");
	sq_why_format(&w, buf, sizeof(buf));
	assert_non_null(strstr(buf, "(+9223372036854775807)"));
	assert_non_null(strstr(buf, "lowers it by 9223372036854775807"));
	sq_snapshot_unref(prio);
	sq_snapshot_unref(jobs);
}

/* fuzz json_check: "errors": [""] failed with an empty message */
static void
test_json_empty_error(void **state)
{
	static const char body[] =
	    "{\"meta\":{\"plugin\":{}},\"errors\":[\"\"]}";
	struct sq_err err;

	(void)state;
	sq_err_clear(&err);
	assert_int_equal(sq_slurmjson_check(body, sizeof(body) - 1, NULL, &err),
			 -1);
	assert_string_equal(err.msg, "error");
}

/* fuzz action_grammar: a node resume was written back as "resume 07",
 * which reads back as resuming job 7 (the undo line of `drain 07`) */
static void
test_format_node_resume(void **state)
{
	struct sq_action a, b;
	struct sq_err err;
	char buf[256];

	(void)state;
	assert_int_equal(
	    sq_action_parse("undrain 07", SQ_KIND_NODES, NULL, 0, &a, &err), 0);
	assert_int_equal(a.def->kind, SQ_KIND_NODES);
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "noderesume 07");
	assert_int_equal(sq_action_parse(buf, -1, NULL, 0, &b, &err), 0);
	assert_int_equal(b.type, a.type);
	assert_string_equal(b.targets[0], "07");
	sq_action_free(&b);
	sq_action_free(&a);
	/* in the jobs view the line is refused, not run on job 7 */
	assert_int_equal(
	    sq_action_parse("noderesume 07", SQ_KIND_JOBS, NULL, 0, &b, &err),
	    -1);
	/* a job resume keeps its name */
	assert_int_equal(sq_action_parse("resume 07", -1, NULL, 0, &a, &err),
			 0);
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "resume 7");
	sq_action_free(&a);
}

/* fuzz cli_sinfo_nodes: gpu:a100:4999999999999999999 on two nodes
 * overflowed the partition totals */
static void
test_gres_huge_counts(void **state)
{
	struct sq_snapshot *nodes, *parts;
	const struct sq_partition *p;
	struct sq_gres_item it[4];

	(void)state;
	assert_int_equal(sq_gres_parse("gpu:a100:4999999999999999999", it, 4),
			 -1);
	assert_int_equal(sq_gres_parse("gres/gpu=99999999999999", it, 4), -1);
	assert_int_equal(sq_gres_count("gpu:a100:4999999999999999999", "gpu"),
			 0);
	assert_int_equal(sq_gres_parse("gpu:a100:1000000000000", it, 4), 1);
	assert_int_equal(sq_gres_count("cpu=2,gres/gpu=2", "gpu"), 2);

	/* CPU totals of nodes that claim INT64_MAX CPUs saturate */
	nodes =
	    sq_test_cli_parse(SQ_KIND_NODES, sq_parse_sinfo_nodes, NULL,
			      "n1|idle|low*|0/9223372036854775807/0/"
			      "9223372036854775807|8000|0|(null)|gpu:0|none\n"
			      "n2|idle|low*|0/20/0/20|8000|0|gpu:a100:4|"
			      "gpu:a100:0(IDX:N/A)|none\n",
			      0);
	parts = sq_test_cli_parse(SQ_KIND_PARTITIONS,
				  sq_parse_scontrol_partitions, NULL,
				  "PartitionName=low Nodes=n[1-2] Default=YES "
				  "State=UP TotalCPUs=0 TotalNodes=0\n",
				  0);
	sq_partitions_count(parts, nodes);
	p = sq_snapshot_row(parts, 0);
	assert_int_equal(p->cpus_total, INT64_MAX);
	assert_int_equal(p->gpus_total, 4);
	sq_snapshot_unref(parts);
	sq_snapshot_unref(nodes);
}

/* fuzz core_validate: "\n1-0" passed as a duration (strtol skips
 * blanks), so a newline could reach a command line */
static void
test_duration_blanks(void **state)
{
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_valid_duration("\n1-0", &err), -1);
	assert_int_equal(sq_valid_duration(" 1-0", &err), -1);
	assert_int_equal(sq_valid_duration("1-0\n", &err), -1);
	assert_int_equal(sq_valid_duration("1-00:00:00", &err), 0);
	assert_int_equal(sq_valid_duration("90", &err), 0);
	assert_int_equal(sq_valid_duration("UNLIMITED", &err), 0);
}

/* fuzz action_grammar: "n,-0[2]" was expanded as one node "n,-02";
 * "n1,n[3,5]" as "n1,n3" and "n1,n5"; "nn[0,x]" as nn0 and nn[0,x] */
static void
test_nodelist_split(void **state)
{
	struct sq_action a;
	struct sq_err err;

	(void)state;
	assert_int_equal(sq_action_parse("reboot n,-0[2]cas", SQ_KIND_NODES,
					 NULL, 0, &a, &err),
			 -1);
	assert_int_equal(sq_action_parse("drain n1,n[3,5] reason=x",
					 SQ_KIND_NODES, NULL, 0, &a, &err),
			 0);
	assert_int_equal(a.ntargets, 3);
	assert_string_equal(a.targets[0], "n1");
	assert_string_equal(a.targets[1], "n3");
	assert_string_equal(a.targets[2], "n5");
	sq_action_free(&a);
	assert_int_equal(sq_action_parse("reboot n[1-2],gpu[01-02]",
					 SQ_KIND_NODES, NULL, 0, &a, &err),
			 0);
	assert_int_equal(a.ntargets, 4);
	assert_string_equal(a.targets[3], "gpu02");
	sq_action_free(&a);
	/* a group that is not all numbers stays whole, nothing of it is
	 * expanded */
	assert_int_equal(sq_action_parse("reboot nn[0,delcoord2]cap",
					 SQ_KIND_NODES, NULL, 0, &a, &err),
			 0);
	assert_int_equal(a.ntargets, 1);
	assert_string_equal(a.targets[0], "nn[0,delcoord2]cap");
	sq_action_free(&a);
}

/* fuzz action_grammar: a node named asap was written back as "reboot n1
 * asap", which reads back as the asap flag */
static void
test_node_named_like_flag(void **state)
{
	struct sq_action a, b;
	struct sq_err err;
	char buf[256];

	(void)state;
	assert_int_equal(
	    sq_action_parse("reboot n1,asap", SQ_KIND_NODES, NULL, 0, &a, &err),
	    0);
	assert_int_equal(a.ntargets, 2);
	assert_null(sq_action_arg(&a, "asap"));
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "reboot n1 asap,");
	assert_int_equal(sq_action_parse(buf, SQ_KIND_NODES, NULL, 0, &b, &err),
			 0);
	assert_int_equal(b.ntargets, 2);
	assert_string_equal(b.targets[1], "asap");
	assert_null(sq_action_arg(&b, "asap"));
	sq_action_free(&b);
	sq_action_free(&a);
	/* the flag itself is still a flag */
	assert_int_equal(
	    sq_action_parse("reboot n1 asap", SQ_KIND_NODES, NULL, 0, &a, &err),
	    0);
	assert_int_equal(a.ntargets, 1);
	assert_non_null(sq_action_arg(&a, "asap"));
	sq_action_free(&a);
}

/* The GrpTRES an association has now, as sacctmgr would print it. */
static const char *
hostile_tres(void *ctx, size_t i, const char *key)
{
	(void)i;
	(void)key;
	return ctx;
}

/* fuzz action_act: clearlimit names each TRES set now, read from the
 * cluster, and put those names into the sacctmgr argv unchecked
 * ("grptres=cpu\333\333=-1": refused by the ssh quoting, but raw in a
 * local argv) */
static void
test_clearlimit_tres_from_cluster(void **state)
{
	struct sq_action a;
	struct sq_cli_cmds cmds;
	struct sq_err err;
	char bad[] = "cpu\333\333=4,mem=1G";
	char opt[] = "cpu=4,-o=1";
	char ok[] = "cpu=4,gres/gpu:a100=2";
	int i, found = 0;

	(void)state;
	assert_int_equal(sq_action_parse("clearlimit sqa_fixture/bob grptres",
					 -1, NULL, 0, &a, &err),
			 0);
	assert_int_equal(sq_cli_action_cmds(&a, hostile_tres, bad, &cmds, &err),
			 -1);
	assert_int_equal(sq_cli_action_cmds(&a, hostile_tres, opt, &cmds, &err),
			 -1);
	assert_int_equal(sq_cli_action_cmds(&a, hostile_tres, ok, &cmds, &err),
			 0);
	assert_int_equal(cmds.n, 1);
	for (i = 0; i < cmds.v[0].argc; i++)
		found |= strcmp(cmds.v[0].argv[i],
				"grptres=cpu=-1,gres/gpu:a100=-1") == 0;
	assert_true(found);
	sq_cli_cmds_free(&cmds);
	sq_action_free(&a);
}

/*
 * core_filter: a bracket bound past LONG_MAX (strtol saturates) made the
 * expansion loop of sq_list_overlap step past it, a signed overflow.
 */
static void
test_list_overlap_huge_bound(void **state)
{
	(void)state;
	assert_false(sq_list_overlap("22[22222222222222222222222ow]", "x"));
	assert_false(sq_list_overlap("n[9223372036854775807]", "n1"));
	assert_true(
	    sq_list_overlap("n[9223372036854775807]", "n9223372036854775807"));
	/* the ordinary lists still match */
	assert_true(sq_list_overlap("n[1-3]", "n[3-4]"));
	assert_false(sq_list_overlap("n[1-3]", "n[4-5]"));
}

/*
 * action_grammar: "reboot asap disk failing" on a selected node stores
 * the flag, then the reason joined from the bare words; its formatted
 * line "reboot n1 asap reason=..." reads back with reason= first (key=
 * words are taken before flags), and the arguments were written in the
 * order stored, so the line written back (audit log, :undo) was not the
 * line read. The arguments are now written in the order of the spec.
 */
static void
test_format_arg_order(void **state)
{
	static const char *const sel[] = { "n1" };
	struct sq_action a, b;
	struct sq_err err;
	char buf[256], buf2[256];

	(void)state;
	assert_int_equal(sq_action_parse("reboot asap disk failing",
					 SQ_KIND_NODES, sel, 1, &a, &err),
			 0);
	assert_string_equal(sq_action_arg(&a, "reason"), "disk failing");
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	assert_int_equal(sq_action_parse(buf, SQ_KIND_NODES, NULL, 0, &b, &err),
			 0);
	assert_int_equal(sq_action_format(&b, buf2, sizeof(buf2)), 0);
	assert_string_equal(buf, buf2);
	assert_string_equal(sq_action_arg(&b, "reason"), "disk failing");
	assert_non_null(sq_action_arg(&b, "asap"));
	sq_action_free(&b);
	sq_action_free(&a);
	/* typed in either order, one line */
	assert_int_equal(sq_action_parse("update 9 comment=x timelimit=5",
					 SQ_KIND_JOBS, NULL, 0, &a, &err),
			 0);
	assert_int_equal(sq_action_parse("update 9 timelimit=5 comment=x",
					 SQ_KIND_JOBS, NULL, 0, &b, &err),
			 0);
	assert_int_equal(sq_action_format(&a, buf, sizeof(buf)), 0);
	assert_int_equal(sq_action_format(&b, buf2, sizeof(buf2)), 0);
	assert_string_equal(buf, buf2);
	sq_action_free(&b);
	sq_action_free(&a);
}

/* fuzz json_history (long run, 7,372,829th execution): a step's
 * tres.requested.max mem of INT64_MAX bytes overflowed int64_t when it
 * was rounded up to KB; ordinary sizes still round up */
static void
test_history_rss_overflow(void **state)
{
	static const char body[] =
	    "{\"jobs\":[{\"job_id\":6,\"steps\":["
	    "{\"step\":{\"id\":\"6.0\"},\"tres\":{\"requested\":{\"max\":"
	    "[{\"type\":\"mem\",\"count\":9223372036854775807}]}}},"
	    "{\"step\":{\"id\":\"6.1\"},\"tres\":{\"requested\":{\"max\":"
	    "[{\"type\":\"mem\",\"count\":2049}]}}}]}]}";
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_HISTORY, 0);
	const struct sq_hist *h;
	struct sq_err err;

	(void)state;
	if (sq_slurmjson_parse(SQ_KIND_HISTORY, body, strlen(body), 0, s, NULL,
			       &err) != 0)
		fail_msg("parse: %s", err.msg);
	assert_true(s->nrows >= 1); /* the run, then summary rows */
	h = sq_snapshot_row(s, 0);
	assert_int_equal(h->job_id, 6);
	assert_int_equal(h->nsteps, 2);
	/* no overflow: KB in 32 bits, saturated */
	assert_int_equal(h->steps[0].max_rss, INT32_MAX);
	assert_int_equal(h->steps[1].max_rss, 3);
	sq_snapshot_unref(s);
}

/* fuzz action_act (long run, 2,177,599th execution): a clearlimit naming
 * more limits than a command line holds failed without a message (the
 * harness checks every failure has one); the action is refused with one
 * now, a short list still builds */
static void
test_clearlimit_too_many(void **state)
{
	struct sq_action a;
	struct sq_cli_cmds cmds;
	struct sq_err err;
	char line[1024] = "clearlimit sqa_fixture/bob maxjobs";
	int i;

	(void)state;
	for (i = 0; i < 35; i++)
		strcat(line, " maxjobs");
	if (sq_action_parse(line, -1, NULL, 0, &a, &err) != 0)
		fail_msg("parse: %s", err.msg);
	sq_err_clear(&err);
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &cmds, &err), -1);
	assert_string_equal(err.msg, "command line too long");
	sq_action_free(&a);
	assert_int_equal(sq_action_parse("clearlimit sqa_fixture/bob "
					 "maxjobs grpjobs",
					 -1, NULL, 0, &a, &err),
			 0);
	assert_int_equal(sq_cli_action_cmds(&a, NULL, NULL, &cmds, &err), 0);
	assert_int_equal(cmds.n, 1);
	assert_string_equal(cmds.v[0].argv[cmds.v[0].argc - 2], "maxjobs=-1");
	assert_string_equal(cmds.v[0].argv[cmds.v[0].argc - 1], "grpjobs=-1");
	sq_cli_cmds_free(&cmds);
	sq_action_free(&a);
}

/* fuzz cli_assoc_mgr: a GrpWall of INT64_MAX minutes overflowed int64_t
 * when the limits view turned it into seconds; it shows as Slurm gave it,
 * an ordinary one as a duration */
static void
test_limits_wall_overflow(void **state)
{
	const struct sq_view_def *v = sq_view_find("limits");
	const struct sq_column *col = NULL;
	struct sq_limit l = { "assoc", "c", "a",       "", "",        "",
			      "",      1,   "GrpWall", "", INT64_MAX, 90 };
	char buf[64];
	size_t i;

	(void)state;
	assert_non_null(v);
	for (i = 0; i < v->ncols; i++)
		if (strcmp(v->cols[i].id, "value") == 0)
			col = &v->cols[i];
	assert_non_null(col);
	assert_string_equal(col->text(&l, buf, sizeof(buf)),
			    "9223372036854775807");
	l.value = 90;
	assert_string_equal(col->text(&l, buf, sizeof(buf)), "1:30:00");
}

/* fuzz action_grammar: a TRES count with a unit Slurm does not know
 * ("gres/gpu=2x") divided by zero in its range check */
static void
test_tres_unknown_unit(void **state)
{
	struct sq_action a;
	struct sq_err err;
	int rc;

	(void)state;
	rc = sq_action_parse("setlimit chemistry/bob grptres=gres/gpu=2x",
			     SQ_KIND_ASSOCS, NULL, 0, &a, &err);
	if (rc == 0)
		sq_action_free(&a);
	/* refused or taken, never a crash; a known unit is ranged */
	assert_int_equal(sq_action_parse("setlimit chemistry/bob "
					 "grptres=mem=99999999999999999999T",
					 SQ_KIND_ASSOCS, NULL, 0, &a, &err),
			 -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_overflow),
		cmocka_unit_test(test_json_wall_overflow),
		cmocka_unit_test(test_mem_out_of_range),
		cmocka_unit_test(test_int_suffix_overflow),
		cmocka_unit_test(test_sshare_deep_first_row),
		cmocka_unit_test(test_restart_jump),
		cmocka_unit_test(test_sprio_extreme),
		cmocka_unit_test(test_json_empty_error),
		cmocka_unit_test(test_clearlimit_tres_from_cluster),
		cmocka_unit_test(test_json_minutes_overflow),
		cmocka_unit_test(test_format_node_resume),
		cmocka_unit_test(test_gres_huge_counts),
		cmocka_unit_test(test_duration_blanks),
		cmocka_unit_test(test_nodelist_split),
		cmocka_unit_test(test_node_named_like_flag),
		cmocka_unit_test(test_list_overlap_huge_bound),
		cmocka_unit_test(test_format_arg_order),
		cmocka_unit_test(test_history_rss_overflow),
		cmocka_unit_test(test_clearlimit_too_many),
		cmocka_unit_test(test_tres_unknown_unit),
		cmocka_unit_test(test_limits_wall_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
