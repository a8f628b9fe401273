/*
 * sshcmd.h - the command line of `:ssh NODE`: the user's own ssh to a
 * compute node, through the login node (-J) when squall reaches the
 * cluster over ssh, with the files the cluster is configured with
 * (identity, known_hosts, ssh config). Host keys are checked as the
 * user's ssh checks them: never StrictHostKeyChecking=no. Pure.
 */
#ifndef SQ_SSHCMD_H
#define SQ_SSHCMD_H

#include <stddef.h>

#include "core/conf/cluster.h"
#include "core/base/err.h"

#define SQ_SSHCMD_MAXARGS 16

struct sq_sshcmd {
	char *argv[SQ_SSHCMD_MAXARGS]; /* NULL-terminated, into buf */
	char buf[4096];
	char line[4096]; /* argv joined, for the user to read */
};

/*
 * Fill c for node (sq_valid_name) and cfg. The jump host, its user and
 * the file paths are checked too (no option injection: nothing may start
 * with '-'). 0, or -1 with err.
 */
int sq_sshcmd_build(struct sq_sshcmd *c, const struct sq_cluster_cfg *cfg,
		    const char *node, struct sq_err *err);

#endif
