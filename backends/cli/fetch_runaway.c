/*
 * fetch_runaway.c - the runaway view's list and the fix-runaway action's
 * reads, through the CLI backends. `sacctmgr show runawayjobs` lists the
 * jobs, makes the fix in slurmdbd and then asks whether to keep it; the
 * list is read with "N" on its stdin, so the fix is always rolled back
 * (never /dev/null: 22.05 and 24.11 loop on the end of input), and the
 * output must then say "Changes Discarded" (else this refuses the list:
 * the fix may have been kept). -i is never used here: with -i sacctmgr
 * does not ask and the fix is committed (that is the action, runaway.c).
 * The replay transport cannot write to stdin; it serves the recorded
 * output of the same argv.
 */

#include "backends/cli/actions.h"
#include "backends/cli/cli_admin.h"
#include "core/base/util.h"

static const char *const list_argv[] = {
	"sacctmgr", "-n", "-P", "show", "runawayjobs", sq_cli_runaway_fmt, NULL
};

/* Run the listing with "N" answered; the output into out. */
static int
run_list(struct sq_cli *cli, struct sq_buf *out, struct sq_err *err)
{
	int rc;

	if (cli->tr->run_in == NULL) /* the replay: served as recorded */
		return sq_cli_run(cli, list_argv, out, err);
	rc = sq_cli_run_in(cli, list_argv, "N\n", 2, out, err);
	if (rc == 0 && cli->b != NULL && cli->b->cfg.record_dir[0] != '\0')
		sq_cli_record(cli, list_argv, 0, out);
	return rc;
}

int
sq_cli_runaway_list(struct sq_cli *cli, struct sq_snapshot *s,
		    struct sq_err *err)
{
	struct sq_buf buf;
	int rc = -1;

	sq_buf_init(&buf, sq_cli_out_limit(cli));
	if (run_list(cli, &buf, err) == -1)
		goto done;
	if (buf.data == NULL)
		sq_buf_append(&buf, "", 0);
	if (!sq_runaway_none(buf.data) && !sq_runaway_discarded(buf.data)) {
		sq_err_set(err, SQ_ERR_COMMAND,
			   "sacctmgr show runawayjobs did not say that it "
			   "discarded its fix (answered N): not read");
		goto done;
	}
	rc = sq_parse_runaway(buf.data, s, err);
done:
	sq_buf_free(&buf);
	return rc;
}

int
sq_cli_fetch_runaway(struct sq_cli *cli, struct sq_snapshot **out,
		     struct sq_err *err)
{
	struct sq_snapshot *s = sq_snapshot_new(SQ_KIND_RUNAWAY, 0);
	double t0 = sq_util_now_ms();

	*out = NULL;
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s->source = "sacctmgr show runawayjobs";
	if (sq_cli_runaway_list(cli, s, err) == -1) {
		sq_snapshot_unref(s);
		return -1;
	}
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	return 0;
}
