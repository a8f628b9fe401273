/*
 * stream.c - a command's output parsed as it arrives (stream.h): the
 * output buffer's watch hands each new run of whole lines to the line
 * parser; the rest, a last line without its newline, goes at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/cli/stream.h"

struct stream {
	const struct sq_cli_lines *p;
	const void *ctx;
	struct sq_cli *cli;
	struct sq_snapshot *s;
	const struct sq_cli_gate *gate; /* NULL once passed, or none */
	void *st;                       /* p's state, once begun */
	size_t done;                    /* bytes of the buffer parsed */
	int failed; /* lines() said -1: err holds why, no more calls */
	struct sq_err err;
};

/* Past the gate (or without one): p's state for s, the allocation of its
 * rows made first: the last fetch's count of the kind and an eighth
 * (none the first time: doubling), the slack given back at the end. -1
 * without memory, failed and err set. */
static int
begin(struct stream *cs)
{
	size_t hint = cs->cli->rows_hint[cs->s->kind];

	cs->gate = NULL;
	cs->st = cs->p->begin(cs->s, cs->ctx);
	if (cs->st == NULL) {
		cs->failed = 1;
		return sq_err_set(&cs->err, SQ_ERR_SYSTEM, "out of memory");
	}
	if (hint > 0)
		sq_snapshot_reserve(cs->s, hint + hint / 8 + 64);
	return 0;
}

/* The buffer grew: parse its whole lines past done. The byte after the
 * last newline is the NUL the parser stops at, put back after. */
static void
watch(struct sq_buf *b, void *arg)
{
	struct stream *cs = arg;
	size_t end = b->len;
	char save;

	if (cs->failed)
		return;
	/* a gate holds the parse until the context is made */
	if (cs->gate != NULL &&
	    (!cs->gate->open(cs->gate->arg) || begin(cs) == -1))
		return;
	/* back from the end to the last newline: a line's length at most */
	while (end > cs->done && b->data[end - 1] != '\n')
		end--;
	if (end == cs->done)
		return;
	save = b->data[end];
	b->data[end] = '\0';
	if (cs->p->lines(cs->st, b->data + cs->done, 0, &cs->err) == -1)
		cs->failed = 1;
	b->data[end] = save;
	cs->done = end;
}

int
sq_cli_lines_all(const struct sq_cli_lines *p, const void *ctx, char *text,
		 struct sq_snapshot *s, struct sq_err *err)
{
	void *st = p->begin(s, ctx);
	int rc;

	if (st == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	rc = p->lines(st, text, 1, err);
	p->end(st);
	return rc;
}

int
sq_cli_run_lines_gated(struct sq_cli *cli, const char *const argv[],
		       const struct sq_cli_lines *p, const void *ctx,
		       const struct sq_cli_gate *gate, struct sq_snapshot *s,
		       struct sq_err *err)
{
	struct stream cs = {
		.p = p, .ctx = ctx, .cli = cli, .s = s, .gate = gate
	};
	struct sq_buf buf;
	char empty[1] = "";
	int rc = -1;

	sq_buf_init(&buf, sq_cli_out_limit(cli));
	if (cli->b != NULL && cli->b->cfg.record_dir[0] != '\0') {
		if (sq_cli_run(cli, argv, &buf, err) == 0 &&
		    (gate == NULL || gate->wait(gate->arg, err) == 0))
			rc = sq_cli_lines_all(
			    p, ctx, buf.data ? buf.data : empty, s, err);
		sq_buf_free(&buf);
		return rc;
	}
	if (gate == NULL && begin(&cs) == -1) {
		if (err != NULL)
			*err = cs.err;
		return -1;
	}
	buf.watch = watch;
	buf.watch_arg = &cs;
	if (sq_cli_run(cli, argv, &buf, err) == -1)
		goto done;
	/* the command ended before the gate opened: what it printed is
	 * parsed now, past the gate */
	if (!cs.failed && cs.gate != NULL) {
		if (cs.gate->wait(cs.gate->arg, err) == -1)
			goto done;
		if (begin(&cs) == 0)
			watch(&buf, &cs);
	}
	if (cs.failed) {
		if (err != NULL)
			*err = cs.err;
		goto done;
	}
	/* the rest: a last line without its newline (cut output), or "" */
	if (p->lines(cs.st, buf.data != NULL ? buf.data + cs.done : empty, 1,
		     err) == -1)
		goto done;
	sq_snapshot_fit(s);
	cli->rows_hint[s->kind] = s->nrows;
	rc = 0;
done:
	if (cs.st != NULL)
		p->end(cs.st);
	sq_buf_free(&buf);
	return rc;
}

int
sq_cli_run_lines(struct sq_cli *cli, const char *const argv[],
		 const struct sq_cli_lines *p, const void *ctx,
		 struct sq_snapshot *s, struct sq_err *err)
{
	return sq_cli_run_lines_gated(cli, argv, p, ctx, NULL, s, err);
}
