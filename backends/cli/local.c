/*
 * local.c - the local backend: the CLI layer with a transport that runs
 * Slurm commands on this host with fork/exec, never through a shell.
 *
 * The child gets a cleaned environment (LC_ALL=C, SLURM_TIME_FORMAT=%s,
 * TZ=UTC0 for squeue (sq_shell_utc), no SQUEUE_, SINFO_, SPRIO_, SACCT_ or
 * SSHARE_ formats; SLURM_CONF kept), its stdout and stderr are read
 * separately with a size cap, and it is killed when it runs past the
 * timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/cli/actions.h"
#include "backends/cli/cli.h"
#include "backends/cli/fetch.h"
#include "backends/cli/fileread.h"
#include "backends/cli/live.h"
#include "backends/cli/metrics.h"
#include "core/base/util.h"
#include "core/base/validate.h"

extern char **environ;

struct sq_local {
	char bindir[256];
	int timeout; /* seconds */
};

void *
sq_transport_local_new(const char *bindir, int timeout)
{
	struct sq_local *l = calloc(1, sizeof(*l));

	if (l == NULL)
		return NULL;
	snprintf(l->bindir, sizeof(l->bindir), "%s", bindir ? bindir : "");
	l->timeout = timeout > 0 ? timeout : 30;
	return l;
}

static int
env_dropped(const char *e)
{
	static const char *const prefixes[] = {
		"SQUEUE_", "SINFO_",    "SPRIO_",    "SACCT_",
		"SSHARE_", "SCONTROL_", "SACCTMGR_", "SLURM_TIME_FORMAT=",
		"LC_",     "LANG=",     "LANGUAGE=", "SLURM_JWT=",
		NULL
	};
	int i;

	for (i = 0; prefixes[i] != NULL; i++) {
		if (strncmp(e, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	}
	return 0;
}

/* A NULL-terminated copy of environ, cleaned, for cmd; pointers into
 * environ. */
static char **
child_env(const char *cmd)
{
	int utc = sq_shell_utc(cmd);
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n] != NULL)
		n++;
	env = calloc(n + 4, sizeof(*env));
	if (env == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!env_dropped(environ[i]) &&
		    !(utc && strncmp(environ[i], "TZ=", 3) == 0))
			env[j++] = environ[i];
	}
	env[j++] = "LC_ALL=C";
	env[j++] = "SLURM_TIME_FORMAT=%s";
	if (utc)
		env[j++] = "TZ=UTC0";
	env[j] = NULL;
	return env;
}

/* A running child: the read ends of its stdout and stderr, the write end
 * of its stdin (-1 once closed, or when it reads /dev/null). */
struct child {
	pid_t pid;
	int fd[3]; /* stdout, stderr, stdin */
};

static void
close_pair(int p[2])
{
	if (p[0] != -1)
		close(p[0]);
	if (p[1] != -1)
		close(p[1]);
}

/* Start path (argv, env) with stdout and stderr into pipes and stdin
 * from a pipe (with_in) or /dev/null. -1 with err when it cannot. */
static int
spawn(const char *path, const char *const argv[], char **env, int with_in,
      struct child *c, struct sq_err *err)
{
	posix_spawn_file_actions_t fa;
	int op[2] = { -1, -1 }, ep[2] = { -1, -1 }, ip[2] = { -1, -1 };
	int rc;

	if (pipe(op) == -1 || pipe(ep) == -1 || (with_in && pipe(ip) == -1)) {
		sq_err_set(err, SQ_ERR_SYSTEM, "pipe: %s", strerror(errno));
		close_pair(op);
		close_pair(ep);
		close_pair(ip);
		return -1;
	}
	fcntl(op[0], F_SETFD, FD_CLOEXEC);
	fcntl(ep[0], F_SETFD, FD_CLOEXEC);
	if (with_in) {
		fcntl(ip[1], F_SETFD, FD_CLOEXEC);
		fcntl(ip[1], F_SETFL, O_NONBLOCK);
	}
	posix_spawn_file_actions_init(&fa);
	if (with_in)
		posix_spawn_file_actions_adddup2(&fa, ip[0], 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
						 0);
	posix_spawn_file_actions_adddup2(&fa, op[1], 1);
	posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
	rc = posix_spawnp(&c->pid, path, &fa, NULL, (char *const *)argv, env);
	posix_spawn_file_actions_destroy(&fa);
	close(op[1]);
	close(ep[1]);
	if (ip[0] != -1)
		close(ip[0]);
	if (rc != 0) {
		close(op[0]);
		close(ep[0]);
		if (ip[1] != -1)
			close(ip[1]);
		return sq_err_set(err, SQ_ERR_COMMAND, "cannot run %s: %s",
				  path, strerror(rc));
	}
	c->fd[0] = op[0];
	c->fd[1] = ep[0];
	c->fd[2] = ip[1];
	return 0;
}

/* Write what is left of in to the child's stdin; closed (EOF) once all
 * is written or the reader is gone. */
static void
feed(struct pollfd *p, const char *in, size_t inlen, size_t *inoff)
{
	ssize_t w = (p->revents & POLLOUT)
			? write(p->fd, in + *inoff, inlen - *inoff)
			: -1;

	if (w > 0)
		*inoff += (size_t)w;
	if (*inoff >= inlen || (w == -1 && errno != EAGAIN && errno != EINTR)) {
		close(p->fd);
		p->fd = -1;
	}
}

/* Feed in to the child and read its stdout and stderr into out and
 * errout until both are closed, or kill it at deadline (ms, returns 1).
 * Every end of c is closed on return. */
static int
pump(struct child *c, const char *in, size_t inlen, struct sq_buf *out,
     struct sq_buf *errout, double deadline)
{
	struct pollfd pfd[3];
	size_t inoff = 0;
	sigset_t pipeset, oldset;
	int i, masked = 0, killed = 0;

	for (i = 0; i < 3; i++) {
		pfd[i].fd = c->fd[i];
		pfd[i].events = i < 2 ? POLLIN : POLLOUT;
	}
	if (pfd[2].fd != -1 && inlen == 0) {
		close(pfd[2].fd);
		pfd[2].fd = -1;
	}
	/* a child that exits before reading its stdin must not kill us with
	 * SIGPIPE: blocked here, and a pending one is taken below */
	if (pfd[2].fd != -1) {
		sigemptyset(&pipeset);
		sigaddset(&pipeset, SIGPIPE);
		pthread_sigmask(SIG_BLOCK, &pipeset, &oldset);
		masked = 1;
	}
	while (pfd[0].fd != -1 || pfd[1].fd != -1) {
		char chunk[65536];
		double left = deadline - sq_util_now_ms();
		int n;

		if (left <= 0) {
			kill(c->pid, SIGKILL);
			killed = 1;
			break;
		}
		n = poll(pfd, 3, (int)left + 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			break;
		if (pfd[2].fd != -1 && pfd[2].revents != 0)
			feed(&pfd[2], in, inlen, &inoff);
		for (i = 0; i < 2; i++) {
			ssize_t r;

			if (pfd[i].fd == -1 || pfd[i].revents == 0)
				continue;
			r = read(pfd[i].fd, chunk, sizeof(chunk));
			if (r == -1 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
				continue;
			}
			/* keep draining past the cap so the child can exit */
			sq_buf_append(i == 0 ? out : errout, chunk, (size_t)r);
		}
	}
	for (i = 0; i < 3; i++) {
		if (pfd[i].fd != -1)
			close(pfd[i].fd);
	}
	if (masked) {
		struct timespec zero = { 0, 0 };

		while (sigtimedwait(&pipeset, NULL, &zero) > 0)
			;
		pthread_sigmask(SIG_SETMASK, &oldset, NULL);
	}
	return killed;
}

int
sq_transport_local_run_in(void *ctx, const char *const argv[], const char *in,
			  size_t inlen, struct sq_buf *out,
			  struct sq_buf *errout, int *status,
			  struct sq_err *err)
{
	struct sq_local *l = ctx;
	struct child c;
	char path[512], **env;
	int ws, tmo, killed, rc;

	if (l->bindir[0] != '\0' && strchr(argv[0], '/') == NULL)
		snprintf(path, sizeof(path), "%s/%s", l->bindir, argv[0]);
	else
		snprintf(path, sizeof(path), "%s", argv[0]);
	env = child_env(argv[0]);
	if (env == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	/* stdin: the data given (a batch script for sbatch), else
	 * /dev/null */
	rc = spawn(path, argv, env, in != NULL, &c, err);
	free(env);
	if (rc == -1)
		return -1;
	tmo = sq_cli_timeout(argv[0], l->timeout);
	killed =
	    pump(&c, in, inlen, out, errout, sq_util_now_ms() + tmo * 1000.0);
	while (waitpid(c.pid, &ws, 0) == -1 && errno == EINTR)
		;
	if (killed)
		return sq_err_set(err, SQ_ERR_COMMAND,
				  "%s timed out after %d s", argv[0], tmo);
	if (WIFEXITED(ws))
		*status = WEXITSTATUS(ws);
	else if (WIFSIGNALED(ws))
		*status = 128 + WTERMSIG(ws);
	else
		*status = 255;
	return 0;
}

static int
local_run(void *ctx, const char *const argv[], struct sq_buf *out,
	  struct sq_buf *errout, int *status, struct sq_err *err)
{
	return sq_transport_local_run_in(ctx, argv, NULL, 0, out, errout,
					 status, err);
}

static void
local_close(void *ctx)
{
	free(ctx);
}

const struct sq_transport_ops sq_transport_local = {
	.name = "local",
	.run = local_run,
	.close = local_close,
	.run_in = sq_transport_local_run_in,
	.concurrent = 1, /* a child and its pipes a call, nothing shared */
};

/* --- the backend ops --------------------------------------------------- */

static void *
local_new(const struct sq_cluster_cfg *cfg, struct sq_err *err)
{
	void *l = sq_transport_local_new(cfg->slurm_bindir, cfg->timeout);

	if (l == NULL)
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	return l;
}

static int
be_open(struct sq_backend *b, const struct sq_cluster_cfg *cfg,
	struct sq_err *err)
{
	return sq_cli_backend_open(b, cfg, &sq_transport_local, local_new, err);
}

const struct sq_backend_ops sq_backend_local = {
	.name = "local",
	.open = be_open,
	SQ_CLI_BACKEND_OPS,
	.file_stat = sq_local_file_stat,
	.file_read = sq_local_file_read,
	.metrics = sq_cli_metrics_local,
};
