/*
 * submit.c - `:submit` through the Slurm CLI (local and ssh backends):
 * `sbatch --parsable [validated options]` with the batch script written
 * to sbatch's stdin (a pipe locally, the exec channel over ssh), never
 * on a command line, through sq_cli_run_in (cli.c) as every command runs
 * through sq_cli_run; then the new job id is looked up with squeue (or
 * sacct when it already left the queue) to verify partition, name and
 * user. The inverse is "cancel ID".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/act.h"
#include "backends/cli/actions.h"
#include "backends/cli/cli.h"
#include "core/base/buf.h"
#include "core/action/submit.h"
#include "core/base/util.h"

int
sq_cli_submit_cmd(const struct sq_action *a, struct sq_cli_cmd *cmd,
		  struct sq_err *err)
{
	static const char *const head[] = { "sbatch", "--parsable" };
	char word[1200];
	size_t i;

	memset(cmd, 0, sizeof(*cmd));
	cmd->target = 0;
	if (a->type != SQ_ACTION_JOB_SUBMIT || a->script == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "not a submit action");
	for (i = 0; i < 2; i++)
		cmd->argv[cmd->argc++] = strdup(head[i]);
	for (i = 0; i < a->nargs; i++) {
		if (cmd->argc >= SQ_CLI_CMD_MAXARGS ||
		    sq_submit_word(a, i, word, sizeof(word)) == -1)
			goto bad;
		cmd->argv[cmd->argc++] = strdup(word);
	}
	for (i = 0; i < (size_t)cmd->argc; i++) {
		if (cmd->argv[i] == NULL)
			goto bad;
	}
	cmd->argv[cmd->argc] = NULL;
	return 0;
bad:
	for (i = 0; i < (size_t)cmd->argc; i++)
		free(cmd->argv[i]);
	memset(cmd, 0, sizeof(*cmd));
	return sq_err_set(err, SQ_ERR_SYSTEM, "cannot build the sbatch line");
}

int
sq_cli_submit_describe(struct sq_backend *b, const struct sq_action *a,
		       char *buf, size_t len)
{
	struct sq_cli_cmds cmds;
	struct sq_cli_cmd cmd;
	struct sq_err err;
	char about[1400];
	size_t off = 0;
	int w;

	if (sq_cli_submit_cmd(a, &cmd, &err) == -1) {
		snprintf(buf, len, "(%s)", err.msg);
		return -1;
	}
	off = sq_cli_describe_where(b, buf, len);
	cmds.v = &cmd;
	cmds.n = 1;
	sq_cli_cmds_format(&cmds, buf + off, len - off);
	off += strlen(buf + off);
	sq_submit_about(a, about, sizeof(about));
	snprintf(buf + off, len - off, " < %s", about);
	for (w = 0; w < cmd.argc; w++)
		free(cmd.argv[w]);
	return 0;
}

/* squeue, else sacct: "id|partition|user|state|name" of job id. */
static int
read_job(struct sq_cli *cli, const char *id, char *line, size_t n)
{
	const char *const sq[] = { "squeue",         "-h", "-j", id, "-o",
				   "%i|%P|%u|%T|%j", NULL };
	const char *const sa[] = {
		"sacct", "-X", "-n", "-P",
		"-j",    id,   "-o", "JobID,Partition,User,State,JobName",
		NULL
	};
	const char *const *argvs[2] = { sq, sa };
	int k;

	line[0] = '\0';
	for (k = 0; k < 2; k++) {
		struct sq_buf out;
		struct sq_err e;
		const char *s;

		sq_buf_init(&out, 1 << 20);
		if (sq_cli_run(cli, argvs[k], &out, &e) == 0) {
			s = sq_buf_str(&out);
			while (*s != '\0') {
				size_t l = strcspn(s, "\n");

				/* the job's own line (not an array task's) */
				if (strncmp(s, id, strlen(id)) == 0 &&
				    (s[strlen(id)] == '|' ||
				     s[strlen(id)] == '_')) {
					snprintf(line, n, "%.*s", (int)l, s);
					break;
				}
				s += l + (s[l] == '\n');
			}
		}
		sq_buf_free(&out);
		if (line[0] != '\0')
			return 0;
	}
	return -1;
}

/* Field i (0-based) of a '|' line into buf; the last field keeps '|'. */
static void
field(const char *line, int i, int last, char *buf, size_t n)
{
	const char *p = line;
	size_t l;

	while (i-- > 0 && p != NULL) {
		p = strchr(p, '|');
		if (p != NULL)
			p++;
	}
	if (p == NULL) {
		buf[0] = '\0';
		return;
	}
	l = last ? strlen(p) : strcspn(p, "|");
	snprintf(buf, n, "%.*s", (int)l, p);
}

/* Does the job read back match what was asked? msg says what was seen. */
static int
check_job(const struct sq_action *a, const char *line, char *msg, size_t n)
{
	char part[256], user[128], state[64], name[512];
	const char *want_p = sq_action_arg(a, "partition");
	const char *want_n = sq_action_arg(a, "job-name");

	field(line, 1, 0, part, sizeof(part));
	field(line, 2, 0, user, sizeof(user));
	field(line, 3, 0, state, sizeof(state));
	field(line, 4, 1, name, sizeof(name));
	snprintf(msg, n, "%.63s in %.100s as %.100s, name %.300s", state, part,
		 user, name);
	if (want_p != NULL && strchr(want_p, ',') == NULL &&
	    strcmp(want_p, part) != 0)
		return SQ_VERIFY_FAILED;
	if (want_n != NULL && strcmp(want_n, name) != 0)
		return SQ_VERIFY_FAILED;
	return SQ_VERIFY_OK;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int
sq_cli_submit_act(struct sq_backend *b, const struct sq_action *a,
		  struct sq_result *res, struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	struct sq_cli_cmd cmd;
	struct sq_buf out;
	struct sq_target_result *t;
	char id[32], line[1024], seen[600] = "";
	double t0 = sq_util_now_ms();
	int rc = -1, k, v = SQ_VERIFY_UNCHECKED;

	if (sq_act_begin(res, a, err) == -1)
		return -1;
	t = &res->targets[0];
	if (sq_cli_submit_cmd(a, &cmd, err) == -1) {
		sq_util_copy(res->message, sizeof(res->message), err->msg);
		return -1;
	}
	sq_buf_init(&out, 64 * 1024);
	if (sq_cli_run_in(cli, (const char *const *)cmd.argv, a->script,
			  a->script_len, &out, err) == -1) {
		res->status = err->status != 0 ? err->status : 255;
		sq_act_submitted(res, NULL, SQ_VERIFY_UNCHECKED, NULL, err);
		goto out;
	}
	if (sq_submit_parse_parsable(sq_buf_str(&out), id, sizeof(id)) == -1) {
		res->status = 1;
		sq_err_set(err, SQ_ERR_PARSE,
			   "sbatch printed no job id: '%.100s'",
			   sq_buf_str(&out));
		snprintf(res->message, sizeof(res->message), "submit: %s",
			 err->msg);
		sq_util_copy(t->message, sizeof(t->message), err->msg);
		goto out;
	}
	/* verify: the new job in squeue (or sacct, if it is done already) */
	for (k = 0; k < 4; k++) {
		if (k > 0)
			sleep_ms(250L * k);
		if (read_job(cli, id, line, sizeof(line)) == 0) {
			v = check_job(a, line, seen, sizeof(seen));
			break;
		}
	}
	rc = sq_act_submitted(res, id, v, seen, err);
	if (v == SQ_VERIFY_UNCHECKED)
		snprintf(t->message, sizeof(t->message),
			 "job %s submitted; not seen in squeue or sacct yet",
			 id);
out:
	if (rc == -1)
		res->nfailed = 1;
	sq_buf_free(&out);
	for (k = 0; k < cmd.argc; k++)
		free(cmd.argv[k]);
	return sq_act_end(res, rc, err, t0);
}
