/*
 * test_console.c - the console's per-connection state (tui/app_state.h)
 * with a real worker on a recorded session (tests/fixtures/replay/22.05):
 * a `:cluster` switch while an action is on its way leaves the next
 * action accepted, and the live pane's cache is dropped; the live pane's
 * sstat and an action are taken by the worker at the same time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/action/action.h"
#include "core/conf/conf.h"
#include "tui/action_dialog.h"
#include "tui/app.h"
#include "tui/app_connect.h"
#include "tui/help.h"
#include "tui/live.h"
#include "tui/pane.h"
#include "tui/pane_output.h"
#include "tui/table.h"
#include "tui/worker.h"
#include "tests/unit/test_util.h"

static struct sq_conf conf;

static void
replay_cfg(struct sq_cluster_cfg *cfg, const char *name)
{
	const char *root = getenv("SQ_FIXTURES");

	sq_cluster_defaults(cfg);
	snprintf(cfg->name, sizeof(cfg->name), "%s", name);
	snprintf(cfg->backend, sizeof(cfg->backend), "replay");
	snprintf(cfg->replay_dir, sizeof(cfg->replay_dir), "%s/replay/22.05",
		 root != NULL ? root : "tests/fixtures");
}

static struct sq_app *
new_app(void)
{
	struct sq_app *app = calloc(1, sizeof(*app));

	assert_non_null(app);
	sq_conf_init(&conf);
	app->conf = &conf;
	app->ntables = 1;
	app->tables = calloc(1, sizeof(*app->tables));
	assert_non_null(app->tables);
	sq_table_init(&app->tables[0], sq_view_find("jobs"));
	return app;
}

static void
free_app(struct sq_app *app)
{
	int left = sq_worker_stop(app->worker, 2000);

	sq_tui_action_reset(app, left);
	sq_tui_live_reset(app, left);
	sq_table_free(&app->tables[0]);
	sq_pane_free(&app->pane);
	free(app->tables);
	free(app);
}

/* the worker's backend is open */
static void
wait_ready(struct sq_app *app)
{
	int i;

	for (i = 0; i < 1000; i++) {
		sq_worker_status(app->worker, &app->st);
		if (app->st.state == SQ_WORKER_READY)
			return;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	fail_msg("the replay worker did not open: %s", app->st.error);
}

/* hold 123 from the jobs view, as the `:` prompt would start it */
static int
start_hold(struct sq_app *app)
{
	const char *targets[] = { "123" };
	struct sq_action a;
	struct sq_err err;

	assert_int_equal(sq_action_parse_with("hold", SQ_KIND_JOBS, targets, 1,
					      &conf.reasons, &a, &err),
			 0);
	return sq_tui_action_start(app, &a, 0);
}

static void
test_connect_resets(void **state)
{
	struct sq_app *app = new_app();
	struct sq_cluster_cfg a, b;
	int i;

	(void)state;
	replay_cfg(&a, "one");
	replay_cfg(&b, "two");
	assert_int_equal(sq_app_connect(app, &a), 0);
	wait_ready(app);
	/* the preview is on its way on cluster one's worker ... */
	assert_int_equal(start_hold(app), 0);
	assert_int_equal(app->act.stage, SQ_ACT_DESCRIBE);
	assert_int_equal(start_hold(app), -1); /* one at a time */
	assert_non_null(strstr(app->msg, "another action is still open"));
	app->live.have_cache = 1; /* a cached sstat of cluster one */
	snprintf(app->live.cache.jobid, sizeof(app->live.cache.jobid), "7");
	/* and a node pane's GPU holders read on cluster one (the app's, so
	 * the switch frees them: the leak check sees one left behind) */
	app->gpumap.cache = calloc(1, 64);
	assert_non_null(app->gpumap.cache);
	/* and a job's output read on cluster one (the replay has no file
	 * access: the answer would say so) */
	assert_int_equal(sq_output_open(app, "7", SQ_OUT_STDOUT), 0);
	assert_int_equal(app->out.open, 1);
	/* ... when the user switches: cluster one's answer never comes */
	assert_int_equal(sq_app_connect(app, &b), 0);
	assert_int_equal(app->act.stage, SQ_ACT_NONE);
	assert_null(app->act.cur);
	assert_int_equal(app->live.have_cache, 0);
	assert_string_equal(app->live.cache.jobid, "");
	assert_null(app->gpumap.cache);
	assert_null(app->gpumap.inflight);
	assert_int_equal(app->out.open, 0);
	assert_null(app->out.inflight);
	/* the next action is accepted and its preview comes back */
	wait_ready(app);
	assert_int_equal(start_hold(app), 0);
	for (i = 0; i < 1000 && app->act.stage == SQ_ACT_DESCRIBE; i++) {
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		sq_tui_action_poll(app);
	}
	assert_int_not_equal(app->act.stage, SQ_ACT_DESCRIBE);
	free_app(app);
}

static void
noop(struct sq_backend *b, void *arg)
{
	(void)b;
	(void)arg;
}

/* The detail pane's sstat is asked for while an action's preview is on
 * its way: both are taken (one slot per request type) and both come back
 * to their owner. */
static void
test_live_and_action(void **state)
{
	struct sq_app *app = new_app();
	struct sq_cluster_cfg a;
	int i;

	(void)state;
	replay_cfg(&a, "one");
	assert_int_equal(sq_app_connect(app, &a), 0);
	wait_ready(app);
	assert_int_equal(start_hold(app), 0);
	sq_pane_clear(&app->pane, "detail", SQ_PANE_DETAIL);
	sq_tui_live_section(app, "123", &app->pane);
	assert_non_null(app->live.inflight); /* not refused by the action */
	/* one request per type: a second live call waits its turn */
	assert_int_equal(sq_worker_call(app->worker, SQ_WREQ_LIVE, noop, app),
			 -1);
	for (i = 0; i < 1000 && (app->act.stage == SQ_ACT_DESCRIBE ||
				 app->live.inflight != NULL);
	     i++) {
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		sq_tui_action_poll(app); /* polls the live pane too */
	}
	assert_null(app->live.inflight);
	assert_int_equal(app->live.have_cache, 1);
	assert_string_equal(app->live.cache.jobid, "123");
	assert_int_not_equal(app->act.stage, SQ_ACT_DESCRIBE);
	free_app(app);
}

/* Is text in one line of the pane? */
static int
pane_has(const struct sq_pane *p, const char *text)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strstr(p->lines[i].text, text) != NULL)
			return 1;
	return 0;
}

/* A long error is readable whole in :messages (issue 45, item 6: the
 * message line cut it at "sacctmgr: error: slurm_" and :messages said
 * "No errors."); the same one again is kept once; the configuration's own
 * summary line is not repeated; an information message is not kept. */
static void
test_messages_keep_errors(void **state)
{
	struct sq_app *app = new_app();
	char text[900];
	size_t i;

	(void)state;
	sq_messages_open(app);
	assert_true(pane_has(&app->pane, "No errors."));
	for (i = 0; i < sizeof(text) - 1; i++)
		text[i] = (char)('a' + i % 26);
	text[sizeof(text) - 1] = '\0';
	memcpy(text, "sacctmgr: error: slurm_", 23);
	memcpy(text + sizeof(text) - 5, "END.", 4);
	sq_app_message(app, 1, "modaccount: 1 of 1 failed: %s", text);
	sq_app_message(app, 1, "modaccount: 1 of 1 failed: %s", text);
	sq_app_message(app, 0, "hold: 1 of 1 done and verified");
	sq_app_message(app, 1, "1 config error: x (:messages)");
	assert_int_equal(app->errs.total, 1);
	sq_messages_open(app);
	assert_false(pane_has(&app->pane, "No errors."));
	assert_true(pane_has(&app->pane, text));
	assert_false(pane_has(&app->pane, "done and verified"));
	assert_false(pane_has(&app->pane, "config error"));
	/* the oldest go when more than SQ_APP_ERRS came, and it says so */
	for (i = 0; i < SQ_APP_ERRS + 3; i++)
		sq_app_message(app, 1, "error %zu", i);
	sq_messages_open(app);
	assert_true(pane_has(&app->pane, "(4 older ones dropped)"));
	assert_true(pane_has(&app->pane, "error 34"));
	assert_false(pane_has(&app->pane, text));
	free_app(app);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connect_resets),
		cmocka_unit_test(test_live_and_action),
		cmocka_unit_test(test_messages_keep_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
