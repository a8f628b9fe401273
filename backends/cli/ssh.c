/*
 * ssh.c - the ssh backend: the CLI layer of cli.c over a transport that
 * runs each Slurm command on its own exec channel of one long-lived libssh
 * session to a login node. No PTY, no agent forwarding, stdin closed;
 * stdout and stderr are read apart, stdout is capped, every command has a
 * deadline. A dropped session is reported and re-established, with
 * backoff, by the following queries. Never prints.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/cli/actions.h"
#include "backends/cli/fetch.h"
#include "backends/cli/fileread.h"
#include "backends/cli/live.h"
#include "backends/cli/ssh.h"
#include "backends/cli/ssh_int.h"
#include "core/base/util.h"
#include "core/base/validate.h"

#define BACKOFF_MAX 60 /* seconds between reconnection attempts, at most */
#define POLL_SLICE 50  /* ms; how late stderr-only output may be noticed */

/* A host name, an address or a ~/.ssh/config alias; no user@, no option. */
static int
valid_host(const char *h)
{
	size_t i, n = strlen(h);

	if (n == 0 || n > 253 || h[0] == '-' || h[0] == '.')
		return -1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)h[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("._-:", c) != NULL))
			return -1;
	}
	return 0;
}

static void
disconnect(struct sq_ssh *t)
{
	if (t->s == NULL)
		return;
	ssh_disconnect(t->s);
	ssh_free(t->s);
	t->s = NULL;
}

/* "user@host:port" from the session's resolved options. */
static void
set_target(struct sq_ssh *t)
{
	char *host = NULL, *user = NULL;
	unsigned port = 22;

	if (ssh_options_get(t->s, SSH_OPTIONS_HOST, &host) != SSH_OK)
		host = NULL;
	if (ssh_options_get(t->s, SSH_OPTIONS_USER, &user) != SSH_OK)
		user = NULL;
	ssh_options_get_port(t->s, &port);
	snprintf(t->target, sizeof(t->target), "%s%s%s:%u",
		 user ? user : (t->user[0] ? t->user : ""),
		 user || t->user[0] ? "@" : "", host ? host : t->host, port);
	ssh_string_free_char(host);
	ssh_string_free_char(user);
}

/* A new session with ~/.ssh/config (or --ssh-config) applied, then the
 * command line's settings on top, as ssh(1) does. */
static int
setup(struct sq_ssh *t, struct sq_err *err)
{
	long timeout = t->timeout;
	int verbosity = SSH_LOG_NOLOG, nodelay = 1, rc;
	unsigned port = (unsigned)t->port;
	bool no = false;

	t->s = ssh_new();
	if (t->s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	snprintf(t->target, sizeof(t->target), "%s%s%s", t->user,
		 t->user[0] ? "@" : "", t->host);
	if (ssh_options_set(t->s, SSH_OPTIONS_HOST, t->host) < 0 ||
	    ssh_options_set(t->s, SSH_OPTIONS_TIMEOUT, &timeout) < 0)
		goto opt_error;
	if (t->ssh_config[0] != '\0') {
		if (access(t->ssh_config, R_OK) != 0)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "cannot read ssh config %s: %s",
					  t->ssh_config, strerror(errno));
		rc = ssh_options_parse_config(t->s, t->ssh_config);
	} else {
		rc = ssh_options_parse_config(t->s, NULL);
	}
	if (rc < 0)
		goto opt_error;
	/* parsed once here; ssh_connect must not parse ~/.ssh/config again */
	if (ssh_options_set(t->s, SSH_OPTIONS_PROCESS_CONFIG, &no) < 0)
		goto opt_error;
	if (t->port != 0 && ssh_options_set(t->s, SSH_OPTIONS_PORT, &port) < 0)
		goto opt_error;
	if (t->user[0] != '\0' &&
	    ssh_options_set(t->s, SSH_OPTIONS_USER, t->user) < 0)
		goto opt_error;
	if (t->identity[0] != '\0' &&
	    ssh_options_set(t->s, SSH_OPTIONS_ADD_IDENTITY, t->identity) < 0)
		goto opt_error;
	if (t->known_hosts[0] != '\0' &&
	    ssh_options_set(t->s, SSH_OPTIONS_KNOWNHOSTS, t->known_hosts) < 0)
		goto opt_error;
	/* many small request/reply packets: without TCP_NODELAY each exec
	 * waits ~40 ms for a delayed ACK (48 ms vs 6 ms per command here) */
	if (ssh_options_set(t->s, SSH_OPTIONS_NODELAY, &nodelay) < 0)
		goto opt_error;
	/* libssh would log to stderr (a LogLevel line, say): never */
	if (ssh_options_set(t->s, SSH_OPTIONS_LOG_VERBOSITY, &verbosity) < 0)
		goto opt_error;
	memset(&t->cb, 0, sizeof(t->cb));
	t->cb.userdata = t;
	t->cb.auth_function = sq_ssh_passphrase_cb;
	ssh_callbacks_init(&t->cb);
	if (ssh_set_callbacks(t->s, &t->cb) != SSH_OK)
		goto opt_error;
	return 0;
opt_error:
	return sq_err_set(err, SQ_ERR_USAGE, "ssh %s: %s", t->target,
			  ssh_get_error(t->s));
}

/* Connect, verify the host key, authenticate. On failure the session is
 * gone again. */
static int
connect_session(struct sq_ssh *t, struct sq_err *err)
{
	if (setup(t, err) == -1)
		goto fail;
	if (ssh_connect(t->s) != SSH_OK) {
		unsigned port = 22;

		ssh_options_get_port(t->s, &port);
		sq_err_set(err, SQ_ERR_CONNECT,
			   "cannot connect to %s port %u: %s", t->target, port,
			   ssh_get_error(t->s));
		goto fail;
	}
	set_target(t);
	if (sq_ssh_check_host_key(t, err) == -1 ||
	    sq_ssh_authenticate(t, err) == -1)
		goto fail;
	return 0;
fail:
	disconnect(t);
	return -1;
}

static int
backoff_seconds(int fails, int max)
{
	int s = 1;

	while (--fails > 0 && s < max)
		s *= 2;
	return s < max ? s : max;
}

/* Connect again unless the backoff says wait; err says why not. */
static int
reconnect(struct sq_ssh *t, struct sq_err *err)
{
	double now = sq_util_now_ms();
	int wait;

	if (now < t->next_try) {
		wait = (int)((t->next_try - now) / 1000.0 + 0.999);
		return sq_err_set(err, SQ_ERR_CONNECT,
				  "%s; next attempt in %d s", t->last_err,
				  wait);
	}
	if (connect_session(t, err) == 0) {
		t->fails = 0;
		t->next_try = 0;
		t->last_err[0] = '\0';
		return 0;
	}
	t->fails++;
	wait = backoff_seconds(t->fails, t->backoff_max);
	t->next_try = sq_util_now_ms() + wait * 1000.0;
	snprintf(t->last_err, sizeof(t->last_err), "%s", err->msg);
	return sq_err_set(err, err->code, "%s; next attempt in %d s",
			  t->last_err, wait);
}

static int
alive(const struct sq_ssh *t)
{
	return t->s != NULL && ssh_is_connected(t->s) &&
	       (ssh_get_status(t->s) & (SSH_CLOSED | SSH_CLOSED_ERROR)) == 0;
}

/* Forget a session that failed; the next query connects anew, at once. */
static void
drop(struct sq_ssh *t, const char *why)
{
	disconnect(t);
	snprintf(t->last_err, sizeof(t->last_err), "%s", why);
	t->next_try = 0;
}

struct exit_signal {
	int signo;
};

static void
on_exit_signal(ssh_session session, ssh_channel channel, const char *sig,
	       int core, const char *errmsg, const char *lang, void *userdata)
{
	static const struct {
		const char *name;
		int no;
	} names[] = {
		{ "HUP", SIGHUP },   { "INT", SIGINT },   { "QUIT", SIGQUIT },
		{ "ILL", SIGILL },   { "ABRT", SIGABRT }, { "FPE", SIGFPE },
		{ "KILL", SIGKILL }, { "SEGV", SIGSEGV }, { "PIPE", SIGPIPE },
		{ "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "USR1", SIGUSR1 },
		{ "USR2", SIGUSR2 },
	};
	struct exit_signal *es = userdata;
	size_t i;

	(void)session;
	(void)channel;
	(void)core;
	(void)errmsg;
	(void)lang;
	es->signo = 127; /* unknown name: still not a clean exit */
	for (i = 0; sig != NULL && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(sig, names[i].name) == 0)
			es->signo = names[i].no;
	}
}

/* The remote command's exit status, -1 when the server sent none (killed
 * by a signal). libssh 0.11 (Debian 13) deprecates
 * ssh_channel_get_exit_status for ssh_channel_get_exit_state. */
static int
exit_status(ssh_channel ch)
{
#if LIBSSH_VERSION_INT >= SSH_VERSION_INT(0, 11, 0)
	uint32_t code = 0;

	if (ssh_channel_get_exit_state(ch, &code, NULL, NULL) != SSH_OK)
		return -1;
	return code > INT_MAX ? -1 : (int)code;
#else
	return ssh_channel_get_exit_status(ch);
#endif
}

/* Send ch's command its stdin, in (sbatch's script), in pieces: -1 if
 * the link fails (the session cannot be trusted then). */
static int
send_input(struct sq_ssh *t, ssh_channel ch, const char *name, const char *in,
	   size_t inlen, struct sq_err *err)
{
	int n;

	while (in != NULL && inlen > 0) {
		uint32_t chunk_len = inlen > 32768 ? 32768 : (uint32_t)inlen;

		n = ssh_channel_write(ch, in, chunk_len);
		if (n == SSH_ERROR || n <= 0) {
			sq_err_set(err, SQ_ERR_CONNECT,
				   "%s: cannot send %s its input: %s",
				   t->target, name, ssh_get_error(t->s));
			return -1;
		}
		in += n;
		inlen -= (size_t)n;
	}
	return 0;
}

/* Read ch's stdout to out and stderr to errout until EOF, before
 * deadline (ms; tmo seconds after the command began): -1 on a lost
 * link, output past its cap or the timeout (that one sets *fatal: the
 * link may be a black hole). */
static int
read_output(struct sq_ssh *t, ssh_channel ch, const char *name, int tmo,
	    double deadline, struct sq_buf *out, struct sq_buf *errout,
	    int *fatal, struct sq_err *err)
{
	char chunk[32768];
	double left;
	int i, n;

	for (;;) {
		int progress = 0;

		for (i = 0; i < 2; i++) {
			n = ssh_channel_read_nonblocking(ch, chunk,
							 sizeof(chunk), i);
			if (n == SSH_ERROR) {
				sq_err_set(err, SQ_ERR_CONNECT,
					   "lost the connection to %s while "
					   "%s ran: %s",
					   t->target, name,
					   ssh_get_error(t->s));
				return -1;
			}
			if (n > 0) {
				progress = 1;
				/* stderr past its cap is dropped quietly */
				sq_buf_append(i == 0 ? out : errout, chunk,
					      (size_t)n);
			}
		}
		if (out->truncated) {
			sq_err_set(err, SQ_ERR_COMMAND,
				   "%s printed more than %zu bytes; stopped "
				   "reading (set max-output, in MiB, to read "
				   "more)",
				   name, out->limit);
			return -1;
		}
		if (ssh_channel_is_eof(ch))
			break;
		if (progress)
			continue;
		left = deadline - sq_util_now_ms();
		if (left <= 0) {
			*fatal = 1;
			sq_err_set(err, SQ_ERR_COMMAND,
				   "%s on %s timed out after %d s", name,
				   t->target, tmo);
			return -1;
		}
		n = ssh_channel_poll_timeout(
		    ch, left < POLL_SLICE ? (int)left + 1 : POLL_SLICE, 0);
		if (n == SSH_ERROR) {
			sq_err_set(err, SQ_ERR_CONNECT,
				   "lost the connection to %s while %s ran: "
				   "%s",
				   t->target, name, ssh_get_error(t->s));
			return -1;
		}
	}
	return 0;
}

/*
 * Run cmd on a new channel. *started tells whether the server accepted the
 * command (before that, nothing ran and a retry is harmless). *fatal is
 * set when the session cannot be trusted afterwards (a timeout: the link
 * may be a black hole).
 */
static int
exec_cmd(struct sq_ssh *t, const char *name, const char *cmd, const char *in,
	 size_t inlen, struct sq_buf *out, struct sq_buf *errout, int *status,
	 int *started, int *fatal, struct sq_err *err)
{
	struct ssh_channel_callbacks_struct ccb;
	struct exit_signal es = { 0 };
	int tmo = sq_cli_timeout(name, t->timeout);
	double deadline = sq_util_now_ms() + tmo * 1000.0;
	ssh_channel ch;
	int rc = -1, n;

	*started = *fatal = 0;
	ch = ssh_channel_new(t->s);
	if (ch == NULL)
		return sq_err_set(err, SQ_ERR_CONNECT,
				  "%s: cannot open a channel: %s", t->target,
				  ssh_get_error(t->s));
	memset(&ccb, 0, sizeof(ccb));
	ccb.userdata = &es;
	ccb.channel_exit_signal_function = on_exit_signal;
	ssh_callbacks_init(&ccb);
	ssh_set_channel_callbacks(ch, &ccb);
	if (ssh_channel_open_session(ch) != SSH_OK) {
		sq_err_set(err, SQ_ERR_CONNECT, "%s: cannot open a channel: %s",
			   t->target, ssh_get_error(t->s));
		goto out;
	}
	if (ssh_channel_request_exec(ch, cmd) != SSH_OK) {
		sq_err_set(err, SQ_ERR_CONNECT, "%s: cannot run %s: %s",
			   t->target, name, ssh_get_error(t->s));
		goto out;
	}
	*started = 1;
	/* stdin: the data given (sbatch's script), else nothing like ssh -n;
	 * then EOF */
	if (send_input(t, ch, name, in, inlen, err) == -1) {
		*fatal = 1;
		goto out;
	}
	ssh_channel_send_eof(ch);
	if (read_output(t, ch, name, tmo, deadline, out, errout, fatal, err) ==
	    -1)
		goto out;
	n = exit_status(ch);
	if (n >= 0)
		*status = n;
	else if (es.signo != 0)
		*status = 128 + es.signo;
	else
		*status = 255; /* no status: what ssh(1) reports too */
	rc = 0;
out:
	if (ssh_channel_is_open(ch))
		ssh_channel_close(ch);
	ssh_channel_free(ch);
	return rc;
}

int
sq_transport_ssh_run_in(void *ctx, const char *const argv[], const char *in,
			size_t inlen, struct sq_buf *out, struct sq_buf *errout,
			int *status, struct sq_err *err)
{
	struct sq_ssh *t = ctx;
	struct sq_buf cmd;
	int rc = -1, attempt, started, fatal, fresh;

	sq_buf_init(&cmd, 64 * 1024);
	if (sq_shell_join(&cmd, t->bindir, argv) == -1) {
		sq_err_set(err, SQ_ERR_DENIED,
			   "refusing to run %.40s over ssh: an argument is "
			   "not safe on a remote command line",
			   argv[0] ? argv[0] : "");
		goto done;
	}
	for (attempt = 0; attempt < 2; attempt++) {
		fresh = 0;
		if (t->s == NULL) {
			if (reconnect(t, err) == -1)
				goto done;
			fresh = 1;
		}
		sq_buf_reset(out);
		sq_buf_reset(errout);
		rc = exec_cmd(t, argv[0], sq_buf_str(&cmd), in, inlen, out,
			      errout, status, &started, &fatal, err);
		if (rc == 0)
			break;
		if (fatal || !alive(t)) {
			drop(t, err->msg);
			/* it never ran: try once more on a new session */
			if (!started && !fresh && !fatal)
				continue;
			sq_err_set(err, err->code,
				   "%s; reconnecting on the next query",
				   t->last_err);
		}
		break;
	}
done:
	sq_buf_free(&cmd);
	return rc;
}

static int
ssh_run(void *ctx, const char *const argv[], struct sq_buf *out,
	struct sq_buf *errout, int *status, struct sq_err *err)
{
	return sq_transport_ssh_run_in(ctx, argv, NULL, 0, out, errout, status,
				       err);
}

static void
ssh_close(void *ctx)
{
	struct sq_ssh *t = ctx;

	if (t == NULL)
		return;
	disconnect(t);
	free(t);
}

const struct sq_transport_ops sq_transport_ssh = {
	.name = "ssh",
	.run = ssh_run,
	.close = ssh_close,
	.run_in = sq_transport_ssh_run_in,
};

static int
check_cfg(const struct sq_cluster_cfg *cfg, struct sq_err *err)
{
	if (cfg->host[0] == '\0')
		return sq_err_set(err, SQ_ERR_USAGE,
				  "the ssh backend needs a host (--host)");
	if (valid_host(cfg->host) == -1)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "invalid ssh host '%.60s' (a name, an "
				  "address or a ~/.ssh/config alias; the user "
				  "goes in --user)",
				  cfg->host);
	if (cfg->user[0] != '\0' && sq_valid_name(cfg->user, NULL) == -1)
		return sq_err_set(err, SQ_ERR_USAGE, "invalid ssh user '%.40s'",
				  cfg->user);
	if (cfg->slurm_bindir[0] != '\0' &&
	    sq_valid_path(cfg->slurm_bindir, err) == -1) {
		err->code = SQ_ERR_USAGE;
		return -1;
	}
	/* libssh expands %d, %u ... in these two */
	if (strchr(cfg->identity, '%') != NULL ||
	    strchr(cfg->known_hosts, '%') != NULL)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "'%%' is not allowed in --identity or "
				  "--known-hosts");
	if (cfg->identity[0] != '\0' && access(cfg->identity, R_OK) != 0)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "cannot read identity file %s: %s",
				  cfg->identity, strerror(errno));
	return 0;
}

void *
sq_transport_ssh_new(const struct sq_cluster_cfg *cfg, struct sq_err *err)
{
	struct sq_ssh *t;

	if (check_cfg(cfg, err) == -1)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (t == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	/* never wait longer than the refresh between two attempts: the view
	 * must be back within two refreshes of sshd's return */
	t->backoff_max = cfg->refresh > 0 && cfg->refresh < BACKOFF_MAX
			     ? cfg->refresh
			     : BACKOFF_MAX;
	snprintf(t->host, sizeof(t->host), "%s", cfg->host);
	snprintf(t->user, sizeof(t->user), "%s", cfg->user);
	snprintf(t->identity, sizeof(t->identity), "%s", cfg->identity);
	snprintf(t->known_hosts, sizeof(t->known_hosts), "%s",
		 cfg->known_hosts);
	snprintf(t->ssh_config, sizeof(t->ssh_config), "%s", cfg->ssh_config);
	snprintf(t->bindir, sizeof(t->bindir), "%s", cfg->slurm_bindir);
	t->port = cfg->port;
	t->timeout = cfg->timeout > 0 ? cfg->timeout : 30;
	t->accept_new = cfg->accept_new_host_key;
	t->prompt = *sq_backend_prompt();
	if (connect_session(t, err) == -1) {
		free(t);
		return NULL;
	}
	return t;
}

/* --- the backend ops --------------------------------------------------- */

static int
be_open(struct sq_backend *b, const struct sq_cluster_cfg *cfg,
	struct sq_err *err)
{
	return sq_cli_backend_open(b, cfg, &sq_transport_ssh,
				   sq_transport_ssh_new, err);
}

const struct sq_backend_ops sq_backend_ssh = {
	.name = "ssh",
	.open = be_open,
	SQ_CLI_BACKEND_OPS,
	.file_stat = sq_remote_file_stat,
	.file_read = sq_remote_file_read,
};
