/*
 * test_maint.c - the maintenance data parsers on outputs recorded from
 * the 22.05, 24.11 and 26.05 testbeds (tests/fixtures/licenses, see its
 * README): `scontrol -o show licenses` and REST /licenses agree on every
 * release; `sacctmgr show event` node events (a drain with its reason,
 * user and times); the degenerate inputs (no licenses, a '|' in a
 * reason, garbage).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/model/model_admin.h"
#include "core/action/node_audit.h"
#include "core/analysis/node_flap.h"
#include "core/model/view.h"
#include "tests/unit/test_util.h"

#define FIX "licenses/"

static struct sq_snapshot *
parse_json(const char *name)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_LICENSES, 0);
	struct sq_err err;
	size_t len;
	char *body = sq_test_fixture(name, &len);

	assert_non_null(s);
	sq_err_clear(&err);
	if (sq_slurmjson_parse(SQ_KIND_LICENSES, body, len, 0, s, NULL, &err) !=
	    0)
		fail_msg("%s: %s", name, err.msg);
	free(body);
	return s;
}

static const struct sq_license *
lic_find(const struct sq_snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_license *l = sq_snapshot_row(s, i);

		if (strcmp(l->name, name) == 0)
			return l;
	}
	return NULL;
}

/* 22.05: matlab:2 and abaqus:8 (tests/testbed/start), none in use when
 * recorded */
static void
test_licenses_2205(void **state)
{
	struct sq_snapshot *s =
	    sq_test_cli_parse(SQ_KIND_LICENSES, sq_parse_licenses,
			      FIX "22.05/scontrol_licenses.txt", NULL, 0);
	const struct sq_license *l;

	(void)state;
	assert_int_equal(s->nrows, 2);
	l = lic_find(s, "matlab");
	assert_non_null(l);
	assert_int_equal(l->total, 2);
	assert_int_equal(l->used, 0);
	assert_int_equal(l->free, 2);
	assert_int_equal(l->reserved, 0);
	assert_string_equal(l->remote, "no");
	l = lic_find(s, "abaqus");
	assert_non_null(l);
	assert_int_equal(l->total, 8);
	assert_int_equal(l->used, 0);
	assert_int_equal(l->free, 8);
	sq_snapshot_unref(s);
}

/* Every release: the CLI and REST give the same licenses. */
static void
test_licenses_cli_rest(void **state)
{
	static const char *const rel[][2] = { { "22.05", "38" },
					      { "24.11", "42" },
					      { "26.05", "45" } };
	size_t r, i;

	(void)state;
	for (r = 0; r < sizeof(rel) / sizeof(rel[0]); r++) {
		char cli[128], js[128];
		struct sq_snapshot *c, *j;

		snprintf(cli, sizeof(cli), FIX "%s/scontrol_licenses.txt",
			 rel[r][0]);
		snprintf(js, sizeof(js), FIX "%s/slurm_v0.0.%s_licenses.json",
			 rel[r][0], rel[r][1]);
		c = sq_test_cli_parse(SQ_KIND_LICENSES, sq_parse_licenses, cli,
				      NULL, 0);
		j = parse_json(js);
		assert_int_equal(c->nrows, j->nrows);
		for (i = 0; i < c->nrows; i++) {
			const struct sq_license *a = sq_snapshot_row(c, i);
			const struct sq_license *b = lic_find(j, a->name);

			assert_non_null(b);
			assert_int_equal(a->total, b->total);
			assert_int_equal(a->used, b->used);
			assert_int_equal(a->free, b->free);
			assert_int_equal(a->reserved, b->reserved);
			assert_string_equal(a->remote, b->remote);
		}
		sq_snapshot_unref(c);
		sq_snapshot_unref(j);
	}
}

static void
test_licenses_degenerate(void **state)
{
	struct sq_snapshot *s;
	const struct sq_license *l;

	(void)state;
	s = sq_test_cli_parse(SQ_KIND_LICENSES, sq_parse_licenses, NULL,
			      "No licenses configured in Slurm.\n", 0);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
	s = sq_test_cli_parse(SQ_KIND_LICENSES, sq_parse_licenses, NULL,
			      "LicenseName=x Total=3 Used=1 Free=2 Reserved=0 "
			      "Remote=yes LastConsumed=0\n",
			      0);
	assert_int_equal(s->nrows, 1);
	l = sq_snapshot_row(s, 0);
	assert_string_equal(l->remote, "yes");
	assert_int_equal(l->free, 2);
	sq_snapshot_unref(s);
	s = sq_test_cli_parse(SQ_KIND_LICENSES, sq_parse_licenses, NULL,
			      "LicenseName=x Total=many\n", -1);
	sq_snapshot_unref(s);
	s = sq_test_cli_parse(SQ_KIND_LICENSES, sq_parse_licenses, NULL,
			      "PartitionName=x\n", -1);
	sq_snapshot_unref(s);
}

/* 26.05: record.sh drained the idle n1 with "fixture: fan check" and
 * resumed it (22.05's and 24.11's nodes all had jobs: no event) */
static void
test_node_events_2605(void **state)
{
	struct sq_snapshot *s =
	    sq_test_cli_parse(SQ_KIND_NODE_EVENTS, sq_parse_node_events,
			      FIX "26.05/sacctmgr_event.txt", NULL, 0);
	const struct sq_node_event *e = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < s->nrows; i++) {
		const struct sq_node_event *x = sq_snapshot_row(s, i);

		if (strcmp(x->reason, "fixture: fan check") == 0)
			e = x;
	}
	assert_non_null(e);
	assert_string_equal(e->node, "n1");
	assert_string_equal(e->state, "DRAIN");
	assert_string_equal(e->set_by, "root");
	assert_true(e->start > 1700000000);
	assert_true(e->end >= e->start);
	assert_int_equal(e->duration, e->end - e->start);
	sq_snapshot_unref(s);
	s = sq_test_cli_parse(SQ_KIND_NODE_EVENTS, sq_parse_node_events,
			      FIX "22.05/sacctmgr_event.txt", NULL, 0);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
}

static void
test_node_events_degenerate(void **state)
{
	struct sq_snapshot *s;
	const struct sq_node_event *e;

	(void)state;
	s = sq_test_cli_parse(SQ_KIND_NODE_EVENTS, sq_parse_node_events, NULL,
			      "", 0);
	assert_int_equal(s->nrows, 0);
	sq_snapshot_unref(s);
	s = sq_test_cli_parse(
	    SQ_KIND_NODE_EVENTS, sq_parse_node_events, NULL,
	    "n1|DRAIN|alice(1001)|1796000000|Unknown|disk|bad\n", 0);
	assert_int_equal(s->nrows, 1);
	e = sq_snapshot_row(s, 0);
	assert_string_equal(e->set_by, "alice");
	assert_string_equal(e->reason, "disk|bad");
	assert_int_equal(e->end, SQ_NONE);
	assert_true(e->duration >= 0);
	sq_snapshot_unref(s);
	s = sq_test_cli_parse(SQ_KIND_NODE_EVENTS, sq_parse_node_events, NULL,
			      "n1|DRAIN|root(0)\n", -1);
	sq_snapshot_unref(s);
	s = sq_test_cli_parse(SQ_KIND_NODE_EVENTS, sq_parse_node_events, NULL,
			      "n1|DRAIN|root(0)|yesterday|Unknown|x\n", -1);
	sq_snapshot_unref(s);
}

/* the nodes view spells out sinfo's reboot marks (@ requested, ^ issued)
 * and leaves every other state as sinfo prints it */
static void
test_nodes_reboot_state(void **state)
{
	const struct sq_view_def *v = sq_view_find("nodes");
	const struct sq_column *c = sq_view_column(v, "state");
	struct sq_node nd;
	char buf[64];

	(void)state;
	assert_non_null(c);
	memset(&nd, 0, sizeof(nd));
	nd.state = "draining@";
	assert_string_equal(c->text(&nd, buf, sizeof(buf)),
			    "draining@ REBOOT_REQUESTED");
	nd.state = "reboot^";
	assert_string_equal(c->text(&nd, buf, sizeof(buf)),
			    "reboot^ REBOOT_ISSUED");
	nd.state = "idle";
	assert_string_equal(c->text(&nd, buf, sizeof(buf)), "idle");
	nd.state = "";
	assert_null(c->text(&nd, buf, sizeof(buf)));
}

static void
add_event(struct sq_snapshot *ev, const char *node, const char *state,
	  int64_t start)
{
	struct sq_node_event *e = sq_snapshot_add(ev);

	e->node = node;
	e->state = state;
	e->start = start;
}

/* the nodes view's events column: down/drain events per node in the
 * window, FLAPPING past flap-events within flap-hours; a node with none
 * reads 0, and without the join (REST) nothing */
static void
test_nodes_join_events(void **state)
{
	struct sq_snapshot *nodes = sq_snapshot_new(SQ_KIND_NODES, 0);
	struct sq_snapshot *ev = sq_snapshot_new(SQ_KIND_NODE_EVENTS, 0);
	const struct sq_column *c =
	    sq_view_column(sq_view_find("nodes"), "events");
	struct sq_flap_cfg cfg = { 3, 24 };
	struct sq_node *a, *b;
	int64_t now = 1800000000;
	long long v;
	char buf[64];

	(void)state;
	a = sq_snapshot_add(nodes);
	a->name = "n1";
	b = sq_snapshot_add(nodes);
	b->name = "n2";
	assert_null(c->text(a, buf, sizeof(buf)));
	assert_int_equal(c->num(a, &v), -1);
	add_event(ev, "n1", "DRAIN", now - 3600);
	add_event(ev, "n1", "DOWN", now - 7200);
	add_event(ev, "n1", "IDLE+DRAIN", now - 10 * 3600);
	add_event(ev, "n1", "DRAIN", now - 30 * 3600); /* before flap-hours */
	add_event(ev, "n1", "MAINT", now - 60);        /* not a down/drain */
	add_event(ev, "n10", "DOWN", now - 60);        /* another node */
	sq_nodes_join_events(nodes, ev, cfg, now);
	a = sq_snapshot_row(nodes, 0);
	b = sq_snapshot_row(nodes, 1);
	assert_int_equal(a->events, 4);
	assert_int_equal(a->events_recent, 3);
	assert_true(a->flapping);
	assert_string_equal(c->text(a, buf, sizeof(buf)), "4 FLAPPING");
	assert_int_equal(c->num(a, &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(b->events, 0);
	assert_false(b->flapping);
	assert_string_equal(c->text(b, buf, sizeof(buf)), "0");
	cfg.events = 4;
	sq_nodes_join_events(nodes, ev, cfg, now);
	assert_false(((struct sq_node *)sq_snapshot_row(nodes, 0))->flapping);
	assert_true(sq_flap_counts("down*+DRAIN"));
	assert_false(sq_flap_counts("IDLE"));
	assert_false(sq_flap_counts(NULL));
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(ev);
}

static void
audit_entry(struct sq_audit_entry *e, const char *event, const char *action,
	    const char *targets, const char *args, const char *cluster)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->time, sizeof(e->time), "2027-01-15T08:00:00.250Z");
	snprintf(e->event, sizeof(e->event), "%s", event);
	snprintf(e->user, sizeof(e->user), "alice");
	snprintf(e->cluster, sizeof(e->cluster), "%s", cluster);
	snprintf(e->action, sizeof(e->action), "%s", action);
	snprintf(e->targets, sizeof(e->targets), "%s", targets);
	snprintf(e->args, sizeof(e->args), "%s", args);
	snprintf(e->ok, sizeof(e->ok), "true");
}

/* squall's node actions from the audit log beside Slurm's events: result
 * lines of node actions on this cluster in the window, one row per
 * node; never counted as down/drain events */
static void
test_node_events_audit(void **state)
{
	struct sq_snapshot *ev = sq_snapshot_new(SQ_KIND_NODE_EVENTS, 0);
	struct sq_audit_entry v[6];
	const struct sq_node_event *r;
	int64_t at = 1800000000; /* 2027-01-15T08:00:00Z */

	(void)state;
	audit_entry(&v[0], "intent", "drain", "n1", "reason=disk", "lab");
	audit_entry(&v[1], "result", "drain", "n[1-2]", "reason=disk, fan,asap",
		    "lab");
	audit_entry(&v[2], "result", "hold", "42", "", "lab");
	audit_entry(&v[3], "result", "resume", "n3", "", "other");
	audit_entry(&v[4], "result", "reboot", "n4", "asap,nextstate=resume",
		    "lab");
	audit_entry(&v[5], "result", "down", "n1", "reason=x", "lab");
	snprintf(v[5].ok, sizeof(v[5].ok), "false");
	assert_int_equal(sq_node_events_add_audit(ev, v, 6, "lab", at), 4);
	assert_int_equal(ev->nrows, 4);
	r = sq_snapshot_row(ev, 0);
	assert_string_equal(r->node, "n1");
	assert_string_equal(r->state, "squall drain");
	assert_string_equal(r->reason, "disk, fan (squall on lab, verified)");
	assert_string_equal(r->set_by, "alice");
	assert_int_equal(r->start, at);
	assert_false(sq_flap_counts(r->state));
	assert_string_equal(
	    ((const struct sq_node_event *)sq_snapshot_row(ev, 1))->node, "n2");
	r = sq_snapshot_row(ev, 2);
	assert_string_equal(r->state, "squall reboot");
	assert_string_equal(r->reason, "(squall on lab, verified)");
	r = sq_snapshot_row(ev, 3);
	assert_string_equal(r->reason, "x (squall on lab, not verified)");
	/* outside the window: none */
	assert_int_equal(sq_node_events_add_audit(ev, v, 6, "lab", at + 1), 0);
	sq_snapshot_unref(ev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_licenses_2205),
		cmocka_unit_test(test_licenses_cli_rest),
		cmocka_unit_test(test_licenses_degenerate),
		cmocka_unit_test(test_node_events_2605),
		cmocka_unit_test(test_node_events_degenerate),
		cmocka_unit_test(test_nodes_reboot_state),
		cmocka_unit_test(test_nodes_join_events),
		cmocka_unit_test(test_node_events_audit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
