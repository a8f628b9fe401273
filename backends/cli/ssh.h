/*
 * ssh.h - the ssh transport of the CLI layer (used by the ssh backend and
 * by tests): Slurm commands on a login node over one libssh session. This
 * header does not include libssh. A transport belongs to one thread.
 */
#ifndef SQ_SSH_H
#define SQ_SSH_H

#include "backends/cli/cli.h"
#include "core/conf/cluster.h"
#include "core/base/err.h"

extern const struct sq_transport_ops sq_transport_ssh;

/* run() with inlen bytes of in written to the exec channel, then EOF. */
int sq_transport_ssh_run_in(void *ctx, const char *const argv[], const char *in,
			    size_t inlen, struct sq_buf *out,
			    struct sq_buf *errout, int *status,
			    struct sq_err *err);

/*
 * Check cfg (host, port, user, identity, known_hosts, ssh_config,
 * slurm_bindir, timeout, accept_new_host_key), connect, verify the host
 * key and authenticate, asking through sq_backend_prompt() where allowed.
 * Returns the transport context for sq_transport_ssh, or NULL with err set
 * (SQ_ERR_USAGE for a bad setting, SQ_ERR_CONNECT otherwise).
 */
void *sq_transport_ssh_new(const struct sq_cluster_cfg *cfg,
			   struct sq_err *err);

#endif
