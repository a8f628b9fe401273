/*
 * test_submit.c - unit tests of :submit and of live usage: the sbatch
 * option whitelist (good values, hostile ones, unknown options), the
 * script checks (#!, NUL, size, not a file), SHA-256, the sbatch argv and
 * preview, sbatch run through sq_cli_run_in on a fake transport, the
 * REST body for v0.0.38 and v0.0.40+, read-only refusal, the audit line,
 * and the sstat parser on output recorded from the testbed
 * (tests/fixtures/cli/22.05/live, see record.sh there).
 */
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cli/actions.h"
#include "backends/cli/cli.h"
#include "backends/cli/live.h"
#include "config.h"
#include "core/action/action.h"
#include "core/action/action_policy.h"
#include "core/action/audit.h"
#include "core/model/live.h"
#include "core/action/submit.h"
#include "tests/unit/test_util.h"
#if SQ_HAVE_REST
#include "backends/rest/submit.h"
#endif

#define FIX "cli/22.05/live/"
#define SCRIPT "#!/bin/bash\n#SBATCH -o /dev/null\necho MARKER-LINE-TWO\n"

static char dir[PATH_MAX];
static char script[PATH_MAX + 32];

static void
write_file(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

static int
setup(void **state)
{
	char tmpl[] = "/tmp/sq-test-submit.XXXXXX";

	(void)state;
	if (mkdtemp(tmpl) == NULL || realpath(tmpl, dir) == NULL)
		return -1;
	snprintf(script, sizeof(script), "%s/job.sh", dir);
	write_file(script, SCRIPT, strlen(SCRIPT));
	return 0;
}

static int
teardown(void **state)
{
	char p[PATH_MAX + 64];
	const char *names[] = { "job.sh", "nobang.sh", "nul.sh", "big.sh",
				NULL };
	int i;

	(void)state;
	for (i = 0; names[i] != NULL; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
	return 0;
}

static int
parse(const char *fmt, const char *opts, struct sq_action *a,
      struct sq_err *err)
{
	char line[8192];

	snprintf(line, sizeof(line), fmt, script, opts);
	sq_err_clear(err);
	return sq_action_parse(line, -1, NULL, 0, a, err);
}

static void
test_sha256(void **state)
{
	char h[65];

	(void)state;
	sq_sha256_hex("", 0, h);
	assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb924"
			       "27ae41e4649b934ca495991b7852b855");
	sq_sha256_hex("abc", 3, h);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223"
			       "b00361a396177a9cb410ff61f20015ad");
	/* two blocks of padding (56 bytes) */
	sq_sha256_hex(
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, h);
	assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039"
			       "a33ce45964ff2167f6ecedd419db06c1");
}

static void
test_parse_good(void **state)
{
	struct sq_action a;
	struct sq_err err;
	char h[65];

	(void)state;
	assert_int_equal(parse("submit %s %s",
			       "-p low -t 10 -J \"my job\" --mem=4G -N 1-2 -H "
			       "--export=NONE -d afterok:12:13 -a 0-9%2 "
			       "-o /tmp/out-%j.txt -w n[1-2] --nice=-5 -c 2",
			       &a, &err),
			 0);
	assert_int_equal(a.type, SQ_ACTION_JOB_SUBMIT);
	assert_int_equal(a.ntargets, 1);
	assert_string_equal(a.targets[0], script);
	assert_non_null(a.script);
	assert_int_equal(a.script_len, strlen(SCRIPT));
	assert_string_equal(a.script, SCRIPT);
	sq_sha256_hex(SCRIPT, strlen(SCRIPT), h);
	assert_string_equal(a.script_sha256, h);
	assert_string_equal(sq_action_arg(&a, "partition"), "low");
	assert_string_equal(sq_action_arg(&a, "time"), "10");
	assert_string_equal(sq_action_arg(&a, "job-name"), "my job");
	assert_string_equal(sq_action_arg(&a, "mem"), "4G");
	assert_string_equal(sq_action_arg(&a, "nodes"), "1-2");
	assert_string_equal(sq_action_arg(&a, "hold"), "yes");
	assert_string_equal(sq_action_arg(&a, "export"), "none");
	assert_string_equal(sq_action_arg(&a, "dependency"), "afterok:12:13");
	assert_string_equal(sq_action_arg(&a, "array"), "0-9%2");
	assert_string_equal(sq_action_arg(&a, "nodelist"), "n[1-2]");
	assert_string_equal(sq_action_arg(&a, "nice"), "-5");
	assert_string_equal(sq_action_arg(&a, "cpus-per-task"), "2");
	sq_action_free(&a);

	/* the other ways to write an option */
	assert_int_equal(parse("submit %s %s", "-plow", &a, &err), 0);
	assert_string_equal(sq_action_arg(&a, "partition"), "low");
	sq_action_free(&a);
	assert_int_equal(parse("submit %s %s", "--partition low", &a, &err), 0);
	assert_string_equal(sq_action_arg(&a, "partition"), "low");
	sq_action_free(&a);
	assert_int_equal(
	    parse("submit %s %s", "partition=high account=physics", &a, &err),
	    0);
	assert_string_equal(sq_action_arg(&a, "partition"), "high");
	assert_string_equal(sq_action_arg(&a, "account"), "physics");
	sq_action_free(&a);
	/* options before the file */
	assert_int_equal(parse("submit -p low %s %s", "", &a, &err), 0);
	assert_string_equal(a.targets[0], script);
	sq_action_free(&a);
}

static void
refused(const char *opts, int code, const char *words)
{
	struct sq_action a;
	struct sq_err err;

	if (parse("submit %s %s", opts, &a, &err) != -1)
		fail_msg("'%s' was accepted", opts);
	if ((int)err.code != code)
		fail_msg("'%s': code %d, want %d (%s)", opts, (int)err.code,
			 code, err.msg);
	if (words != NULL && strstr(err.msg, words) == NULL)
		fail_msg("'%s': message '%s' lacks '%s'", opts, err.msg, words);
	assert_int_equal(a.type, SQ_ACTION_NONE);
}

static void
test_parse_hostile(void **state)
{
	(void)state;
	refused("-p 'low;id'", SQ_ERR_DENIED, NULL);
	refused("-J 'x;reboot'", SQ_ERR_DENIED, "job-name");
	refused("-J '$(id)'", SQ_ERR_DENIED, NULL);
	refused("-J '`id`'", SQ_ERR_DENIED, NULL);
	refused("-o '/tmp/$(id)'", SQ_ERR_DENIED, "output");
	refused("-D relative/dir", SQ_ERR_DENIED, "chdir");
	refused("--mem=4G;rm", SQ_ERR_DENIED, "mem");
	refused("-J 'a\"b'", SQ_ERR_DENIED, NULL);
	refused("-d 'afterok:1;id'", SQ_ERR_DENIED, NULL);
	refused("-d afterok:", SQ_ERR_DENIED, NULL);
	refused("-t 1-00:00:00x", SQ_ERR_DENIED, NULL);
	refused("--export=NONE,X=1", SQ_ERR_DENIED, "export");
	refused("-w 'n1 n2'", SQ_ERR_DENIED, "nodelist");
	refused("-w n1 n2", SQ_ERR_USAGE, "arguments to the script");
	/* options that are not on the whitelist */
	refused("--wrap=id", SQ_ERR_USAGE, "not allowed");
	refused("--uid=0", SQ_ERR_USAGE, "not allowed");
	refused("-Z", SQ_ERR_USAGE, "not allowed");
	refused("--get-user-env", SQ_ERR_USAGE, "not allowed");
	refused("-H=yes", SQ_ERR_USAGE, NULL);
	refused("--hold=1", SQ_ERR_USAGE, "takes no value");
	refused("-p", SQ_ERR_USAGE, "needs a value");
	refused("arg1", SQ_ERR_USAGE, "arguments to the script");
	refused("-J 'unterminated", SQ_ERR_USAGE, "quote");
	{
		struct sq_action a;
		struct sq_err err;

		/* a newline in the command line */
		assert_int_equal(parse("submit %s %s", "-J a\nb", &a, &err),
				 -1);
		assert_int_equal(err.code, SQ_ERR_DENIED);
		sq_err_clear(&err);
		assert_int_equal(
		    sq_action_parse("submit", -1, NULL, 0, &a, &err), -1);
		assert_non_null(strstr(err.msg, "no script"));
	}
}

static void
test_script_checks(void **state)
{
	struct sq_action a;
	struct sq_err err;
	char p[PATH_MAX + 64], line[PATH_MAX + 100], *big;

	(void)state;
	snprintf(p, sizeof(p), "%s/nobang.sh", dir);
	write_file(p, "echo no shebang\n", 16);
	snprintf(line, sizeof(line), "submit %s", p);
	assert_int_equal(sq_action_parse(line, -1, NULL, 0, &a, &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
	assert_non_null(strstr(err.msg, "#!"));

	snprintf(p, sizeof(p), "%s/nul.sh", dir);
	write_file(p, "#!/bin/sh\necho a\0b\n", 19);
	snprintf(line, sizeof(line), "submit %s", p);
	assert_int_equal(sq_action_parse(line, -1, NULL, 0, &a, &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
	assert_non_null(strstr(err.msg, "NUL"));

	snprintf(p, sizeof(p), "%s/big.sh", dir);
	big = malloc(SQ_SUBMIT_MAX_SCRIPT + 1);
	assert_non_null(big);
	memset(big, '#', SQ_SUBMIT_MAX_SCRIPT + 1);
	big[1] = '!';
	write_file(p, big, SQ_SUBMIT_MAX_SCRIPT + 1);
	free(big);
	snprintf(line, sizeof(line), "submit %s", p);
	assert_int_equal(sq_action_parse(line, -1, NULL, 0, &a, &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
	/* exactly the cap is fine */
	assert_int_equal(truncate(p, (off_t)SQ_SUBMIT_MAX_SCRIPT), 0);
	assert_int_equal(sq_action_parse(line, -1, NULL, 0, &a, &err), 0);
	assert_int_equal(a.script_len, SQ_SUBMIT_MAX_SCRIPT);
	sq_action_free(&a);

	snprintf(line, sizeof(line), "submit %s", dir);
	assert_int_equal(sq_action_parse(line, -1, NULL, 0, &a, &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	snprintf(line, sizeof(line), "submit %s/missing.sh", dir);
	assert_int_equal(sq_action_parse(line, -1, NULL, 0, &a, &err), -1);
	assert_non_null(strstr(err.msg, "cannot read"));
}

static void
test_argv_and_preview(void **state)
{
	struct sq_action a;
	struct sq_err err;
	struct sq_cli_cmd cmd;
	char desc[4096], want[PATH_MAX + 200], line[PATH_MAX + 300];
	const char *expect[] = {
		"sbatch",        "--parsable",         "--partition=low",
		"--time=5",      "--job-name=a b",     "--hold",
		"--export=NONE", "--mem-per-cpu=500M", NULL
	};
	int i;

	(void)state;
	assert_int_equal(parse("submit %s %s",
			       "-p low -t 5 -J 'a b' -H --export=none "
			       "--mem-per-cpu=500M",
			       &a, &err),
			 0);
	assert_int_equal(sq_cli_submit_cmd(&a, &cmd, &err), 0);
	for (i = 0; expect[i] != NULL; i++)
		assert_string_equal(cmd.argv[i], expect[i]);
	assert_int_equal(cmd.argc, i);
	assert_null(cmd.argv[i]);
	/* the script is never an argument */
	for (i = 0; i < cmd.argc; i++) {
		assert_null(strstr(cmd.argv[i], "MARKER"));
		free(cmd.argv[i]);
	}
	assert_int_equal(sq_cli_submit_describe(NULL, &a, desc, sizeof(desc)),
			 0);
	snprintf(want, sizeof(want),
		 "sbatch --parsable --partition=low --time=5 "
		 "--job-name='a b' --hold --export=NONE --mem-per-cpu=500M "
		 "< %s (%zu bytes, sha256 %.16s...)",
		 script, strlen(SCRIPT), a.script_sha256);
	assert_string_equal(desc, want);
	/* written back in the grammar, it parses to the same action */
	assert_int_equal(sq_action_format(&a, line, sizeof(line)), 0);
	snprintf(want, sizeof(want),
		 "submit %s --partition=low --time=5 --job-name=\"a b\" "
		 "--hold --export=NONE --mem-per-cpu=500M",
		 script);
	assert_string_equal(line, want);
	sq_action_free(&a);
	assert_int_equal(sq_action_parse(line, -1, NULL, 0, &a, &err), 0);
	assert_string_equal(sq_action_arg(&a, "job-name"), "a b");
	assert_int_equal(a.nargs, 6);
	sq_action_free(&a);
}

/* A fake transport: what reached it (argv, the stdin) and what it
 * answers: sbatch on run_in, squeue and sacct on run. */
struct fake_sbatch {
	char argv[2][1024]; /* [0]: the command given a stdin; [1]: others */
	char in[512];
	size_t inlen;
	int nrun, nrun_in;
	int status;         /* sbatch's exit status */
	const char *out;    /* sbatch's stdout */
	const char *errout; /* sbatch's stderr */
};

static void
join_argv(const char *const argv[], char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; argv[i] != NULL && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, "%s%s",
					i ? " " : "", argv[i]);
}

static int
fake_run(void *ctx, const char *const argv[], struct sq_buf *out,
	 struct sq_buf *errout, int *status, struct sq_err *err)
{
	static const char job[] = "4242|low|alice|PENDING|a b\n";
	struct fake_sbatch *f = ctx;

	f->nrun++;
	join_argv(argv, f->argv[1], sizeof(f->argv[1]));
	if (strcmp(argv[0], "squeue") == 0)
		sq_buf_append(out, job, strlen(job));
	*status = 0;
	return 0;
}

static int
fake_run_in(void *ctx, const char *const argv[], const char *in, size_t inlen,
	    struct sq_buf *out, struct sq_buf *errout, int *status,
	    struct sq_err *err)
{
	struct fake_sbatch *f = ctx;

	f->nrun_in++;
	join_argv(argv, f->argv[0], sizeof(f->argv[0]));
	assert_true(inlen < sizeof(f->in));
	memcpy(f->in, in, inlen);
	f->inlen = inlen;
	if (f->out != NULL)
		sq_buf_append(out, f->out, strlen(f->out));
	if (f->errout != NULL)
		sq_buf_append(errout, f->errout, strlen(f->errout));
	*status = f->status;
	return 0;
}

static void
fake_close(void *ctx)
{
	(void)ctx;
}

/* :submit runs sbatch through sq_cli_run_in (cli.c) as every command
 * runs through sq_cli_run: the argv of sq_cli_submit_cmd, the script on
 * stdin byte for byte, the exit status from sq_err.status; a transport
 * that cannot send a stdin refuses before anything runs. */
static void
test_submit_through_cli_run(void **state)
{
	static const struct sq_transport_ops tr = { "fake", fake_run,
						    fake_close, fake_run_in,
						    0 };
	static const struct sq_transport_ops no_in = { "fake", fake_run,
						       fake_close, NULL, 0 };
	static const char want_argv[] =
	    "sbatch --parsable --partition=low --time=5 --job-name=a b";
	struct fake_sbatch f;
	struct sq_backend b;
	struct sq_cli cli;
	struct sq_action a;
	struct sq_result res;
	struct sq_err err;

	(void)state;
	assert_int_equal(
	    parse("submit %s %s", "-p low -t 5 -J 'a b'", &a, &err), 0);
	memset(&b, 0, sizeof(b));
	memset(&cli, 0, sizeof(cli));
	cli.tr = &tr;
	cli.tr_ctx = &f;
	cli.b = &b;
	b.ops = &sq_backend_local;
	b.priv = &cli;

	/* submitted, then read back with squeue and verified */
	memset(&f, 0, sizeof(f));
	f.out = "4242\n";
	sq_result_init(&res);
	assert_int_equal(sq_cli_submit_act(&b, &a, &res, &err), 0);
	assert_int_equal(f.nrun_in, 1);
	assert_string_equal(f.argv[0], want_argv);
	assert_int_equal(f.inlen, strlen(SCRIPT));
	assert_memory_equal(f.in, SCRIPT, strlen(SCRIPT));
	assert_int_equal(f.nrun, 1);
	assert_non_null(strstr(f.argv[1], "squeue"));
	assert_int_equal(res.targets[0].verified, SQ_VERIFY_OK);
	assert_string_equal(res.inverse, "cancel 4242");
	assert_true(b.queries > 0); /* counted like every command */
	sq_result_free(&res);

	/* sbatch refuses: its exit status is the result's, read from
	 * sq_err.status; nothing is read back */
	memset(&f, 0, sizeof(f));
	f.status = 7;
	f.errout = "sbatch: error: Batch job submission failed: Invalid "
		   "partition name specified\n";
	sq_result_init(&res);
	sq_err_clear(&err);
	assert_int_equal(sq_cli_submit_act(&b, &a, &res, &err), -1);
	assert_int_equal(err.status, 7);
	assert_int_equal(res.status, 7);
	assert_string_equal(err.msg,
			    "sbatch exited with status 7: sbatch: error: Batch "
			    "job submission failed: Invalid partition name "
			    "specified");
	assert_int_equal(f.nrun_in, 1);
	assert_int_equal(f.nrun, 0);
	assert_string_equal(res.inverse, "");
	sq_result_free(&res);

	/* a transport without a stdin (the replay's): refused, nothing ran */
	memset(&f, 0, sizeof(f));
	cli.tr = &no_in;
	sq_result_init(&res);
	sq_err_clear(&err);
	assert_int_equal(sq_cli_submit_act(&b, &a, &res, &err), -1);
	assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
	assert_string_equal(err.msg, "the fake transport cannot send a script");
	assert_int_equal(f.nrun_in + f.nrun, 0);
	sq_result_free(&res);
	sq_action_free(&a);
}

static void
test_readonly_and_audit(void **state)
{
	struct sq_action a;
	struct sq_err err;
	struct sq_audit_rec r;
	struct sq_buf b;
	char want[PATH_MAX + 200];

	(void)state;
	assert_int_equal(parse("submit %s %s", "-p low", &a, &err), 0);
	assert_int_equal(sq_action_policy_check(&a, 1, &err), -1);
	assert_int_equal(err.code, SQ_ERR_DENIED);
	assert_non_null(strstr(err.msg, "read-only"));
	assert_int_equal(sq_action_policy_check(&a, 0, &err), 0);
	assert_false(sq_action_visible(a.def, 1));
	memset(&r, 0, sizeof(r));
	r.event = "intent";
	r.id = "1";
	r.action = &a;
	r.command = "sbatch --parsable";
	sq_buf_init(&b, 0);
	assert_int_equal(sq_audit_line(&b, &r), 0);
	snprintf(want, sizeof(want),
		 "\"script\":{\"path\":\"%s\",\"size\":%zu,\"sha256\":\"%s\"}",
		 script, strlen(SCRIPT), a.script_sha256);
	assert_non_null(strstr(sq_buf_str(&b), want));
	/* the path, size and hash: not the text */
	assert_null(strstr(sq_buf_str(&b), "MARKER"));
	sq_buf_free(&b);
	sq_action_free(&a);
}

#if SQ_HAVE_REST
static json_object *
body(const struct sq_action *a, int v, const char *user, int abbrev)
{
	struct sq_err err;
	char *s = sq_rest_submit_body(a, v, user, abbrev, &err);
	json_object *o;

	if (s == NULL)
		fail_msg("no body: %s", err.msg);
	o = json_tokener_parse(s);
	free(s);
	assert_non_null(o);
	return o;
}

static json_object *
get(json_object *o, const char *path)
{
	char copy[128], *tok, *save = NULL;
	json_object *v = o;

	snprintf(copy, sizeof(copy), "%s", path);
	for (tok = strtok_r(copy, ".", &save); tok != NULL;
	     tok = strtok_r(NULL, ".", &save)) {
		if (!json_object_object_get_ex(v, tok, &v))
			fail_msg("no %s in the body", path);
	}
	return v;
}

static void
test_rest_body(void **state)
{
	struct sq_action a;
	struct sq_err err;
	json_object *o, *v;

	(void)state;
	assert_int_equal(parse("submit %s %s",
			       "-p low -t 1:30:00 -J x -N 2 --mem=2G -H -n 4",
			       &a, &err),
			 0);
	/* v0.0.38 (Slurm 22.05): plain numbers, environment an object */
	o = body(&a, 38, "no-such-user-sqtest", 0);
	assert_string_equal(json_object_get_string(get(o, "script")), SCRIPT);
	assert_string_equal(json_object_get_string(get(o, "job.partition")),
			    "low");
	assert_string_equal(json_object_get_string(get(o, "job.name")), "x");
	assert_int_equal(json_object_get_int(get(o, "job.time_limit")), 90);
	assert_int_equal(json_object_get_int(get(o, "job.memory_per_node")),
			 2048);
	assert_int_equal(json_object_get_int(get(o, "job.tasks")), 4);
	assert_true(json_object_get_boolean(get(o, "job.hold")));
	v = get(o, "job.nodes");
	assert_int_equal(json_object_array_length(v), 2);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(v, 1)),
			 2);
	assert_string_equal(
	    json_object_get_string(get(o, "job.current_working_directory")),
	    "/tmp");
	assert_string_equal(
	    json_object_get_string(get(o, "job.environment.PATH")),
	    "/usr/local/bin:/usr/bin:/bin");
	json_object_put(o);
	/* v0.0.40+: *_no_val objects, "K=V" strings, nodes a string */
	o = body(&a, 40, "no-such-user-sqtest", 0);
	assert_true(json_object_get_boolean(get(o, "job.time_limit.set")));
	assert_int_equal(json_object_get_int(get(o, "job.time_limit.number")),
			 90);
	assert_int_equal(
	    json_object_get_int(get(o, "job.memory_per_node.number")), 2048);
	assert_string_equal(json_object_get_string(get(o, "job.nodes")), "2");
	v = get(o, "job.environment");
	assert_true(json_object_is_type(v, json_type_array));
	assert_string_equal(
	    json_object_get_string(json_object_array_get_idx(v, 0)),
	    "PATH=/usr/local/bin:/usr/bin:/bin");
	json_object_put(o);
	/* the user's home when this host knows the user; -D overrides */
	o = body(&a, 38, "root", 0);
	assert_string_equal(
	    json_object_get_string(get(o, "job.current_working_directory")),
	    "/root");
	json_object_put(o);
	/* the preview abbreviates the script */
	o = body(&a, 38, "root", 1);
	assert_null(strstr(json_object_get_string(get(o, "script")), "MARKER"));
	{
		char h16[17];

		snprintf(h16, sizeof(h16), "%.16s", a.script_sha256);
		assert_non_null(
		    strstr(json_object_get_string(get(o, "script")), h16));
	}
	json_object_put(o);
	sq_action_free(&a);

	assert_int_equal(parse("submit %s %s", "-D /scratch/x -w n1", &a, &err),
			 0);
	o = body(&a, 41, "root", 0);
	assert_string_equal(
	    json_object_get_string(get(o, "job.current_working_directory")),
	    "/scratch/x");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				get(o, "job.required_nodes"), 0)),
			    "n1");
	json_object_put(o);
	/* what v0.0.38 cannot say is refused, not dropped */
	assert_null(sq_rest_submit_body(&a, 38, "root", 0, &err));
	assert_int_equal(err.code, SQ_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "--nodelist"));
	sq_action_free(&a);
	assert_int_equal(parse("submit %s %s", "--export=ALL", &a, &err), 0);
	assert_null(sq_rest_submit_body(&a, 40, "root", 0, &err));
	assert_non_null(strstr(err.msg, "--export"));
	sq_action_free(&a);
}
#endif

static void
test_parsable(void **state)
{
	size_t len;
	char *txt = sq_test_fixture(FIX "sbatch_parsable.txt", &len);
	char id[32], want[32];

	(void)state;
	snprintf(want, sizeof(want), "%.*s", (int)strcspn(txt, "\n"), txt);
	assert_int_equal(sq_submit_parse_parsable(txt, id, sizeof(id)), 0);
	assert_string_equal(id, want);
	free(txt);
	assert_int_equal(
	    sq_submit_parse_parsable("77;cluster1\n", id, sizeof(id)), 0);
	assert_string_equal(id, "77");
	assert_int_equal(sq_submit_parse_parsable("", id, sizeof(id)), -1);
	assert_int_equal(
	    sq_submit_parse_parsable("sbatch: error: x\n", id, sizeof(id)), -1);
	assert_int_equal(sq_submit_parse_parsable("12x", id, sizeof(id)), -1);
}

static void
test_sstat(void **state)
{
	size_t len;
	char *txt = sq_test_fixture(FIX "sstat_running.txt", &len);
	char *err_txt = sq_test_fixture(FIX "sstat_denied.err", &len);
	char *copy = strdup(txt), *bad;
	struct sq_live *l = calloc(1, sizeof(*l));
	struct sq_err err;
	char line1[256], *bar;

	(void)state;
	assert_non_null(l);
	assert_int_equal(sq_cli_parse_sstat(copy, l, &err), 0);
	assert_int_equal(l->n, 2);
	/* the fixture's own values, field by field */
	snprintf(line1, sizeof(line1), "%.*s", (int)strcspn(txt, "\n"), txt);
	bar = strchr(line1, '|');
	*bar = '\0';
	assert_string_equal(l->step[0].step, line1);
	assert_non_null(strstr(l->step[0].step, ".batch"));
	assert_non_null(strstr(l->step[1].step, ".0"));
	assert_string_equal(l->step[1].ntasks, "1");
	assert_int_equal(l->step[1].max_rss[strlen(l->step[1].max_rss) - 1],
			 'K');
	assert_true(atol(l->step[1].max_rss) > 15000); /* ~20 MB held */
	assert_string_equal(l->step[1].max_rss_node, l->step[0].max_rss_node);
	assert_int_equal(l->step[1].max_rss_node[0], 'n');
	assert_true(atoll(l->step[1].max_disk_read) > 1000000);
	free(copy);
	/* as bob: nothing on stdout, "Invalid user id" on stderr */
	memset(l, 0, sizeof(*l));
	assert_int_equal(sq_cli_parse_sstat((char[]){ "" }, l, &err), 0);
	assert_int_equal(l->n, 0);
	sq_cli_sstat_note(err_txt, l->note, sizeof(l->note));
	assert_non_null(strstr(l->note, "permission denied"));
	sq_cli_sstat_note("", l->note, sizeof(l->note));
	assert_non_null(strstr(l->note, "no step of this job"));
	/* a line with the wrong number of fields */
	bad = strdup("123.0|00:00:01|10K\n");
	assert_int_equal(sq_cli_parse_sstat(bad, l, &err), -1);
	assert_int_equal(err.code, SQ_ERR_PARSE);
	free(bad);
	free(txt);
	free(err_txt);
	free(l);
}

static void
count_line(void *arg, const char *line)
{
	char *last = arg;

	snprintf(last, 256, "%s", line);
}

static void
test_live_format(void **state)
{
	char b[32], last[256];
	struct sq_live l;

	(void)state;
	sq_live_size("14096K", b, sizeof(b));
	assert_string_equal(b, "14M");
	sq_live_size("9000K", b, sizeof(b));
	assert_string_equal(b, "8.8M");
	sq_live_size("224252K", b, sizeof(b));
	assert_string_equal(b, "219M");
	sq_live_size("40000001", b, sizeof(b));
	assert_string_equal(b, "38M");
	sq_live_size("0", b, sizeof(b));
	assert_string_equal(b, "0.0K");
	sq_live_size("n/a", b, sizeof(b));
	assert_string_equal(b, "n/a");
	memset(&l, 0, sizeof(l));
	snprintf(l.note, sizeof(l.note), "sstat: permission denied");
	assert_int_equal(sq_live_lines(&l, count_line, last), 1);
	assert_string_equal(last, "sstat: permission denied");
	l.n = 1;
	snprintf(l.step[0].step, sizeof(l.step[0].step), "9.0");
	snprintf(l.step[0].max_rss, sizeof(l.step[0].max_rss), "2048K");
	assert_int_equal(sq_live_lines(&l, count_line, last), 2);
	assert_non_null(strstr(last, "9.0"));
	assert_non_null(strstr(last, "2.0M"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_hostile),
		cmocka_unit_test(test_script_checks),
		cmocka_unit_test(test_argv_and_preview),
		cmocka_unit_test(test_submit_through_cli_run),
		cmocka_unit_test(test_readonly_and_audit),
#if SQ_HAVE_REST
		cmocka_unit_test(test_rest_body),
#endif
		cmocka_unit_test(test_parsable),
		cmocka_unit_test(test_sstat),
		cmocka_unit_test(test_live_format),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
