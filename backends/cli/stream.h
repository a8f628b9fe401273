/*
 * stream.h - a command's output parsed as it arrives. While the command
 * still writes, each run of whole lines read so far goes to a line
 * parser, so squall's parse overlaps the command's own formatting and
 * writing instead of following it (squeue prints 10,000 jobs over tens
 * of milliseconds; scontrol a node at a time). The local and ssh
 * transports both read into a struct sq_buf, whose watch hook
 * (core/base/buf.h) drives it.
 */
#ifndef SQ_CLI_STREAM_H
#define SQ_CLI_STREAM_H

#include "backends/cli/cli.h"

/*
 * A line parser: begin() makes its state for rows appended to s (ctx:
 * what it reads besides the text, NULL for most; NULL on ENOMEM); lines()
 * parses text, a NUL-terminated run of lines of which every one but
 * perhaps the last ended with a newline, and the last did too unless
 * last != 0 (the output's end, where a line without one is cut output);
 * -1 with err set stops it; end() frees the state. The same calls over
 * the whole text at once are the parser's one-shot form.
 */
struct sq_cli_lines {
	void *(*begin)(struct sq_snapshot *s, const void *ctx);
	int (*lines)(void *st, char *text, int last, struct sq_err *err);
	void (*end)(void *st);
};

/*
 * Run argv (sq_cli_run) and parse its stdout with p into s as it
 * arrives. The command's failure comes first (its exit status, output
 * past the cap), then the parser's first error. With --record the
 * output is parsed after the command (the recording is its bytes as
 * printed). 0 or -1 with err set.
 */
int sq_cli_run_lines(struct sq_cli *cli, const char *const argv[],
		     const struct sq_cli_lines *p, const void *ctx,
		     struct sq_snapshot *s, struct sq_err *err);

/*
 * A gate before a parse whose context is still being made (the nodes'
 * partitions, fetched at the same time: fetch.c). open(arg): nonzero
 * once the context is ready, never blocks; wait(arg, err): blocks until
 * it is, -1 with err set when it will not be (then nothing is parsed).
 */
struct sq_cli_gate {
	int (*open)(void *arg);
	int (*wait)(void *arg, struct sq_err *err);
	void *arg;
};

/*
 * sq_cli_run_lines, with p's begin() (and so the parse) held until
 * gate opens: the output read before that waits in the buffer, and is
 * parsed at the first piece after it opens, or after the command, once
 * gate's wait() has returned. gate NULL: sq_cli_run_lines.
 */
int sq_cli_run_lines_gated(struct sq_cli *cli, const char *const argv[],
			   const struct sq_cli_lines *p, const void *ctx,
			   const struct sq_cli_gate *gate,
			   struct sq_snapshot *s, struct sq_err *err);

/* The one-shot form: text (writable) whole through p into s. */
int sq_cli_lines_all(const struct sq_cli_lines *p, const void *ctx, char *text,
		     struct sq_snapshot *s, struct sq_err *err);

/* The parsers that read as the output arrives: squeue's queue
 * (parse_squeue.c); scontrol show node's nodes, ctx the partitions
 * snapshot (parse_scnode.c). */
extern const struct sq_cli_lines sq_squeue_lines;
extern const struct sq_cli_lines sq_scnode_lines;

#endif
