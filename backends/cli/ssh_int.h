/*
 * ssh_int.h - what ssh.c, ssh_hostkey.c and ssh_auth.c share: the state of
 * one ssh transport (one long-lived libssh session to one login node).
 * Internal to backends/cli/ssh*; the only header of ours that includes
 * libssh. One worker thread owns a transport; nothing here is shared.
 */
#ifndef SQ_SSH_INT_H
#define SQ_SSH_INT_H

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include "backends/backend.h"
#include "core/conf/cluster.h"
#include "core/base/err.h"

struct sq_ssh {
	ssh_session s;                  /* NULL while disconnected */
	struct ssh_callbacks_struct cb; /* passphrase callback */
	struct sq_prompt prompt;        /* copy of the hook at open time */
	char host[256]; /* as given: a name, an address or an alias */
	char user[64];  /* "" : ~/.ssh/config or the local user */
	int port;       /* 0 : ~/.ssh/config or 22 */
	char identity[512];
	char known_hosts[512];
	char ssh_config[512];
	char bindir[256];
	int timeout;        /* seconds, connect and per command */
	int accept_new;     /* --accept-new-host-key */
	char target[400];   /* user@host:port for messages */
	char accepted[128]; /* fingerprint accepted in this run */
	/* reconnection */
	int backoff_max; /* seconds: BACKOFF_MAX, or the refresh if shorter */
	int fails;       /* failed connects in a row */
	double next_try; /* monotonic ms before which we do not try */
	char last_err[512];
};

/*
 * Check the server's host key against known_hosts. Unknown keys are
 * accepted only with accept_new or a yes from the prompt hook; a changed
 * key never. 0 or -1 (err says why, with the SHA256 fingerprint).
 */
int sq_ssh_check_host_key(struct sq_ssh *t, struct sq_err *err);

/*
 * Authenticate: none, then publickey (agent, then the identity files of
 * ~/.ssh/config, --identity and libssh's defaults), then
 * keyboard-interactive and password, only through the prompt hook.
 */
int sq_ssh_authenticate(struct sq_ssh *t, struct sq_err *err);

/* libssh's passphrase callback, bound to t->prompt. */
int sq_ssh_passphrase_cb(const char *prompt, char *buf, size_t len, int echo,
			 int verify, void *userdata);

#endif
