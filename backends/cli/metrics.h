/*
 * metrics.h - slurmctld's OpenMetrics endpoint for the CLI backends
 * (metrics.c): the `metrics` op of the local backend (HTTP to the
 * controller's port, with the REST backend's libcurl code) and of the
 * replay backend (the answers a --record run kept). The ssh backend has
 * none: the controller's port is seldom open to the console's host, and
 * the commands over the same ssh connection are used instead.
 */
#ifndef SQ_CLI_METRICS_H
#define SQ_CLI_METRICS_H

#include "backends/backend.h"
#include "core/base/buf.h"
#include "core/base/err.h"

/* The metrics op of the local and replay backends (backend.h). */
int sq_cli_metrics_local(struct sq_backend *b, const char *path,
			 struct sq_buf *out, struct sq_err *err);
int sq_cli_metrics_replay(struct sq_backend *b, const char *path,
			  struct sq_buf *out, struct sq_err *err);

/*
 * The controller's base URL from `scontrol show config` text:
 * SlurmctldAddr when set, else SlurmctldHost[0]'s address (in
 * parentheses when given, else the host name), and the first port of
 * SlurmctldPort, "http://ADDR:PORT", into
 * url. 0, or -1 with a reason in why.
 */
int sq_cli_metrics_url(const char *config, char *url, size_t n, char *why,
		       size_t wn);

#endif
