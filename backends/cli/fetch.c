/*
 * fetch.c - the CLI backends' fetch: every kind by its row of the one
 * fetch table (cli_admin.c, reads[]), the nodes' own read that row
 * names (scontrol show partition and node, or sinfo -N), and the
 * backend ops that fetch through it.
 *
 * Every command is a fixed argv; no value from the user or the cluster is
 * ever pasted into a format string here.
 */
#include <stdio.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "backends/cli/fetch.h"
#include "backends/cli/stream.h"
#include "core/model/join.h"
#include "core/base/parse.h"
#include "core/base/util.h"

unsigned
sq_cli_caps(const struct sq_cli *cli)
{
	return SQ_CAP_PARTITIONS | SQ_CAP_NODES | SQ_CAP_JOBS | SQ_CAP_SPRIO |
	       sq_cli_admin_caps(cli);
}

/* Run one command and parse its output into a new snapshot. */
static int
run_parse(struct sq_cli *cli, enum sq_kind kind, const char *const argv[],
	  int (*parse)(char *, struct sq_snapshot *, struct sq_err *),
	  const char *source, struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_buf buf;
	struct sq_snapshot *s;
	double t0 = sq_util_now_ms();
	int rc = -1;

	*out = NULL;
	sq_buf_init(&buf, sq_cli_out_limit(cli));
	if (sq_cli_run(cli, argv, &buf, err) == -1)
		goto done;
	s = sq_snapshot_new(kind, 0);
	if (s == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto done;
	}
	s->source = source;
	if (buf.data == NULL)
		sq_buf_append(&buf, "", 0);
	if (parse(buf.data, s, err) == -1) {
		sq_snapshot_unref(s);
		goto done;
	}
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	rc = 0;
done:
	sq_buf_free(&buf);
	return rc;
}

/* The nodes from sinfo -N: what squall ran before scontrol (replayed
 * recordings hold it). */
static int
fetch_nodes_sinfo(struct sq_cli *cli, struct sq_snapshot **out,
		  struct sq_err *err)
{
	const char *const argv[] = { "sinfo",          "-h", "-N", "-O",
				     sq_cli_sinfo_fmt, NULL };

	return run_parse(cli, SQ_KIND_NODES, argv, sq_parse_sinfo_nodes,
			 "sinfo -N -O", out, err);
}

/* The nodes as sinfo -N gives them, from scontrol show node and show
 * partition (parse_scnode.c): linear in the nodes, where sinfo -N is
 * quadratic (issue 44). */
int
sq_cli_fetch_nodes(struct sq_cli *cli, struct sq_snapshot **out,
		   struct sq_err *err)
{
	const char *const pargv[] = { "scontrol", "-o", "show", "partition",
				      NULL };
	const char *const nargv[] = { "scontrol", "-d",   "-o",
				      "show",     "node", NULL };
	struct sq_snapshot *parts = NULL, *s = NULL;
	struct sq_scnode_ctx ctx = { NULL, 1 };
	double t0 = sq_util_now_ms();
	int rc = -1;

	*out = NULL;
	if (cli->nodes_sinfo)
		return fetch_nodes_sinfo(cli, out, err);
	if (run_parse(cli, SQ_KIND_PARTITIONS, pargv,
		      sq_parse_scontrol_partitions,
		      "scontrol -o show partition", &parts, err) == -1)
		return -1;
	s = sq_snapshot_new(SQ_KIND_NODES, 0);
	if (s == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto done;
	}
	s->source = "scontrol -d -o show node";
	/* parsed as scontrol prints it; sinfo marks MIXED+PLANNED "mixed-"
	 * (24.11, 26.05; 22.05 has no PLANNED) */
	ctx.parts = parts;
	if (sq_cli_run_lines(cli, nargv, &sq_scnode_lines, &ctx, s, err) == -1)
		goto done;
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	s = NULL;
	rc = 0;
done:
	if (s != NULL)
		sq_snapshot_unref(s);
	sq_snapshot_unref(parts);
	return rc;
}

int
sq_cli_fetch(struct sq_cli *cli, enum sq_kind kind, struct sq_snapshot **out,
	     struct sq_err *err)
{
	return sq_cli_fetch_read(cli, kind, out, err);
}

unsigned
sq_cli_backend_caps(struct sq_backend *b)
{
	return sq_cli_caps(b->priv);
}

int
sq_cli_backend_fetch(struct sq_backend *b, enum sq_kind kind,
		     struct sq_snapshot **out, struct sq_err *err)
{
	return sq_cli_fetch(b->priv, kind, out, err);
}
