/*
 * fetch.c - the CLI backends' fetch: every kind by its row of the one
 * fetch table (cli_admin.c, reads[]), the nodes' own read that row
 * names (scontrol show partition and node, or sinfo -N), and the
 * backend ops that fetch through it.
 *
 * Every command is a fixed argv; no value from the user or the cluster is
 * ever pasted into a format string here.
 */
#include <pthread.h>
#include <stdatomic.h>
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

static const char *const parts_argv[] = { "scontrol", "-o", "show", "partition",
					  NULL };

/* The partitions the nodes fetch reads, fetched on a thread of their own
 * while the calling thread runs scontrol show node: the two commands run
 * at once, where one after the other the node command would wait for
 * the partition command (a few ms at 33 partitions, a tenth of the
 * fetch at 5,000 nodes). */
struct parts_job {
	struct sq_cli *cli;
	struct sq_scnode_ctx *ctx; /* ctx->parts set when the gate opens */
	struct sq_snapshot *parts;
	struct sq_err err;
	int rc;
	atomic_int done; /* rc, parts and err are made */
	int joined;
	pthread_t tid;
};

static void *
parts_main(void *arg)
{
	struct parts_job *j = arg;

	j->rc = run_parse(j->cli, SQ_KIND_PARTITIONS, parts_argv,
			  sq_parse_scontrol_partitions,
			  "scontrol -o show partition", &j->parts, &j->err);
	atomic_store_explicit(&j->done, 1, memory_order_release);
	return NULL;
}

static int
parts_open(void *arg)
{
	struct parts_job *j = arg;

	if (!atomic_load_explicit(&j->done, memory_order_acquire) ||
	    j->rc == -1)
		return 0;
	j->ctx->parts = j->parts;
	return 1;
}

static int
parts_wait(void *arg, struct sq_err *err)
{
	struct parts_job *j = arg;

	pthread_join(j->tid, NULL);
	j->joined = 1;
	if (j->rc == -1) {
		if (err != NULL)
			*err = j->err;
		return -1;
	}
	j->ctx->parts = j->parts;
	return 0;
}

/* Start j's thread (sq_util_thread_start). -1 when it cannot start (the
 * caller then runs the two commands one after the other). */
static int
parts_start(struct parts_job *j)
{
	return sq_util_thread_start(&j->tid, parts_main, j);
}

/* The nodes as sinfo -N gives them, from scontrol show node and show
 * partition (parse_scnode.c): linear in the nodes, where sinfo -N is
 * quadratic (issue 44). When the transport runs two commands at once
 * (sq_transport_ops.concurrent) and nothing is recorded, the two run
 * together and the node lines wait for the partitions (a gate,
 * stream.h); a failure of the partition command wins, as when it runs
 * first. */
int
sq_cli_fetch_nodes(struct sq_cli *cli, struct sq_snapshot **out,
		   struct sq_err *err)
{
	const char *const nargv[] = { "scontrol", "-d",   "-o",
				      "show",     "node", NULL };
	struct sq_snapshot *parts = NULL, *s = NULL;
	struct sq_scnode_ctx ctx = { NULL, 1 };
	struct parts_job j = { .cli = cli, .ctx = &ctx };
	struct sq_cli_gate gate = { parts_open, parts_wait, &j };
	double t0 = sq_util_now_ms();
	int rc = -1, together;

	*out = NULL;
	if (cli->nodes_sinfo)
		return fetch_nodes_sinfo(cli, out, err);
	atomic_init(&j.done, 0);
	together = cli->tr->concurrent &&
		   (cli->b == NULL || cli->b->cfg.record_dir[0] == '\0') &&
		   parts_start(&j) == 0;
	if (!together &&
	    run_parse(cli, SQ_KIND_PARTITIONS, parts_argv,
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
	if (sq_cli_run_lines_gated(cli, nargv, &sq_scnode_lines, &ctx,
				   together ? &gate : NULL, s, err) == -1)
		goto done;
	s->fetch_ms = sq_util_now_ms() - t0;
	*out = s;
	s = NULL;
	rc = 0;
done:
	if (together) {
		if (!j.joined)
			pthread_join(j.tid, NULL);
		parts = j.parts;
		/* the partition command's failure, as if it had run first
		 * (the gate never opened: no nodes were made) */
		if (j.rc == -1 && err != NULL)
			*err = j.err;
	}
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
