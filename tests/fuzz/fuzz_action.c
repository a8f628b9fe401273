/*
 * fuzz_action.c - libFuzzer harness for actions. "grammar": the command
 * language of the `:` prompt and --exec (core/action/action_parse.c) and the
 * argv and HTTP requests built from what it accepts. "act": an action
 * run through the CLI backend (backends/cli/actions*.c) against a fake
 * transport that answers with the input: the read-back parsers, error
 * words, verification and the inverse offered by :undo.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cli/actions.h"
#include "config.h"
#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "tests/fuzz/fuzz.h"
#if SQ_HAVE_REST
#include "backends/rest/actions.h"
#endif

#ifndef SQ_FUZZ_NAME
#error "build with -DSQ_FUZZ_NAME=\"grammar\" (see tests/fuzz/run)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int nanosleep(const struct timespec *req, struct timespec *rem);

/* act() waits between read-backs; not here. */
int
nanosleep(const struct timespec *req, struct timespec *rem)
{
	(void)req;
	(void)rem;
	return 0;
}

/* Text the TUI shows: a command line for `:undo` must parse into an
 * action on a subset of the original targets, never on others. */
static void
check_inverse(const struct sq_action *a, const char *inv)
{
	char *copy = strdup(inv), *line, *save = NULL;

	SQ_FUZZ_CHECK(copy != NULL);
	sq_fuzz_check_display(inv);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		struct sq_action b;
		struct sq_err err;
		size_t i, j;

		if (sq_action_parse(line, a->def->kind, NULL, 0, &b, &err) ==
		    -1)
			continue;
		for (i = 0; i < b.ntargets; i++) {
			int found = 0;

			for (j = 0; j < a->ntargets; j++)
				found |=
				    strcmp(b.targets[i], a->targets[j]) == 0;
			SQ_FUZZ_CHECK(found);
		}
		sq_action_free(&b);
	}
	free(copy);
}

static void
check_cmds(const struct sq_action *a)
{
	struct sq_cli_cmds cmds;
	struct sq_err err;
	char buf[8192];
	size_t i;

	if (sq_cli_action_cmds(a, NULL, NULL, &cmds, &err) == -1) {
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
		return;
	}
	for (i = 0; i < cmds.n; i++)
		sq_fuzz_check_argv((const char *const *)cmds.v[i].argv);
	if (sq_cli_cmds_format(&cmds, buf, sizeof(buf)) == 0)
		sq_fuzz_check_display(buf);
	sq_cli_cmds_free(&cmds);
#if SQ_HAVE_REST
	{
		static const int vers[] = { 38, 41, 44 };
		size_t v;

		for (v = 0; v < 3; v++) {
			struct sq_rest_reqs r = { NULL, 0, 0 };

			if (sq_rest_action_reqs(a, vers[v], vers[v], "testbed",
						&r, &err) == -1)
				continue;
			for (i = 0; i < r.n; i++) {
				const unsigned char *p =
				    (const unsigned char *)r.v[i].path;

				/* a path holds no blank, quote, control or
				 * non-ASCII byte */
				for (; *p != '\0'; p++)
					SQ_FUZZ_CHECK(*p > 0x20 && *p < 0x7f &&
						      *p != '"' && *p != '\\');
				/* JSON escapes control bytes */
				p = (const unsigned char *)r.v[i].body;
				for (; p != NULL && *p != '\0'; p++)
					SQ_FUZZ_CHECK(*p >= 0x20);
			}
			if (sq_rest_reqs_format(&r, buf, sizeof(buf)) == 0)
				SQ_FUZZ_CHECK(strlen(buf) < sizeof(buf));
			sq_rest_reqs_free(&r);
		}
	}
#endif
}

/* byte 0: the view kind; then the command line; then one target a line
 * (the TUI's tagged rows, which come from the cluster). */
static void
fuzz_grammar(char *text, size_t size)
{
	const char *targets[4];
	size_t nt = 0;
	int kind;
	char *line, *nl, buf[4096], buf2[4096];
	struct sq_action a, b;
	struct sq_err err;

	if (size == 0)
		return;
	kind = (int)((unsigned char)text[0] % (SQ_KIND_COUNT + 1)) - 1;
	line = text + 1;
	nl = strchr(line, '\n');
	if (nl != NULL) {
		char *t = nl + 1;

		*nl = '\0';
		while (nt < 4 && *t != '\0') {
			targets[nt++] = t;
			nl = strchr(t, '\n');
			if (nl == NULL)
				break;
			*nl = '\0';
			t = nl + 1;
		}
	}
	sq_err_clear(&err);
	if (sq_action_parse(line, kind, nt ? targets : NULL, nt, &a, &err) ==
	    -1) {
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
		sq_fuzz_check_display(err.msg);
		return;
	}
	(void)sq_action_check(&a, &err);
	/* the line written back (audit, :undo) reads back the same */
	if (sq_action_format(&a, buf, sizeof(buf)) == 0) {
		sq_fuzz_check_display(buf);
		SQ_FUZZ_CHECK(sq_action_parse(buf, kind, NULL, 0, &b, &err) ==
			      0);
		SQ_FUZZ_CHECK(sq_action_format(&b, buf2, sizeof(buf2)) == 0);
		SQ_FUZZ_CHECK(strcmp(buf, buf2) == 0);
		sq_action_free(&b);
	}
	check_cmds(&a);
	sq_action_free(&a);
}

/* --- act through a fake transport ---------------------------------- */

/* answers: NUL-separated; the first byte of each is the exit status
 * ('0' for 0), the rest is both stdout and stderr */
struct fake {
	const char *data;
	size_t size, pos;
	unsigned calls;
};

static int
fake_run(void *ctx, const char *const argv[], struct sq_buf *out,
	 struct sq_buf *errout, int *status, struct sq_err *err)
{
	struct fake *f = ctx;
	const char *p;
	size_t n;

	(void)err;
	sq_fuzz_check_argv(argv);
	f->calls++;
	*status = 0;
	if (f->pos >= f->size)
		return 0;
	p = f->data + f->pos;
	n = strnlen(p, f->size - f->pos);
	f->pos += n + 1;
	if (n == 0)
		return 0;
	*status = p[0] == '0' ? 0 : (unsigned char)p[0] % 4;
	sq_buf_append(out, p + 1, n - 1);
	sq_buf_append(errout, p + 1, n - 1);
	return 0;
}

static void
fake_close(void *ctx)
{
	(void)ctx;
}

static const struct sq_transport_ops fake_ops = { "fake", fake_run, fake_close,
						  NULL, 0 };

/* The same answers again, now as session/exec.c runs it: the targets
 * read once (read_targets), that read cut down to those found
 * (read_cut) and handed to describe() and act(). */
static void
fuzz_act_read(struct sq_backend *b, struct fake *f, const struct sq_action *a)
{
	struct sq_target_state *st;
	struct sq_targets_read *rd = NULL;
	struct sq_action sub;
	const struct sq_action *run = a;
	struct sq_result res;
	struct sq_err err;
	unsigned char *keep;
	char desc[4096];
	size_t i, nfound = 0, n = a->ntargets ? a->ntargets : 1;

	if (a->def->flags & SQ_ACT_CREATES)
		return;
	st = calloc(n, sizeof(*st));
	keep = calloc(n, 1);
	b->ops = &sq_backend_local;
	f->pos = 0;
	sq_err_clear(&err);
	if (st == NULL || keep == NULL ||
	    sq_cli_read_targets(b, a, st, &rd, &err) == -1 || rd == NULL)
		goto out;
	SQ_FUZZ_CHECK(rd->n == a->ntargets);
	for (i = 0; i < a->ntargets; i++)
		nfound += keep[i] = st[i].found != 0;
	if (nfound == 0)
		goto out;
	if (nfound < a->ntargets) {
		if (sq_action_subset(a, keep, &sub, &err) == -1)
			goto out;
		sq_targets_read_cut(rd, keep);
		SQ_FUZZ_CHECK(rd->n == sub.ntargets);
		run = &sub;
	}
	if (sq_cli_describe(b, run, rd, desc, sizeof(desc)) == 0)
		sq_fuzz_check_display(desc);
	sq_result_init(&res);
	sq_err_clear(&err);
	if (sq_cli_act(b, run, rd, &res, &err) == -1)
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
	sq_fuzz_check_display(res.message);
	for (i = 0; i < res.ntargets; i++)
		sq_fuzz_check_display(res.targets[i].message);
	check_inverse(run, res.inverse);
	sq_result_free(&res);
	if (run == &sub)
		sq_action_free(&sub);
out:
	sq_targets_read_free(rd);
	b->ops = NULL;
	free(keep);
	free(st);
}

/* first line: the action; the rest: the answers */
static void
fuzz_act(char *text, size_t size)
{
	struct fake f;
	struct sq_cli cli;
	struct sq_backend b;
	struct sq_action a;
	struct sq_result res;
	struct sq_err err;
	char desc[4096];
	size_t nl = strcspn(text, "\n"), i;

	if (nl >= size)
		return;
	text[nl] = '\0';
	if (sq_action_parse(text, -1, NULL, 0, &a, &err) == -1)
		return;
	memset(&f, 0, sizeof(f));
	f.data = text + nl + 1;
	f.size = size - nl - 1;
	memset(&cli, 0, sizeof(cli));
	cli.tr = &fake_ops;
	cli.tr_ctx = &f;
	cli.major = 22;
	cli.minor = 5;
	memset(&b, 0, sizeof(b));
	b.priv = &cli;

	if (sq_cli_describe(&b, &a, NULL, desc, sizeof(desc)) == 0)
		sq_fuzz_check_display(desc);
	f.pos = 0;
	sq_result_init(&res);
	sq_err_clear(&err);
	if (sq_cli_act(&b, &a, NULL, &res, &err) == -1)
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
	sq_fuzz_check_display(err.msg);
	sq_fuzz_check_display(res.message);
	SQ_FUZZ_CHECK(res.ntargets == (a.ntargets ? a.ntargets : 1));
	for (i = 0; i < res.ntargets; i++)
		sq_fuzz_check_display(res.targets[i].message);
	check_inverse(&a, res.inverse);
	sq_result_free(&res);
	fuzz_act_read(&b, &f, &a);
	sq_action_free(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = sq_fuzz_str(data, size);

	if (strcmp(SQ_FUZZ_NAME, "grammar") == 0)
		fuzz_grammar(text, size);
	else if (strcmp(SQ_FUZZ_NAME, "act") == 0)
		fuzz_act(text, size);
	else
		SQ_FUZZ_CHECK(!"unknown harness");
	free(text);
	return 0;
}
