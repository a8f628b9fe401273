/*
 * http.h - the HTTP transport (libcurl) that the rest backend speaks to
 * slurmrestd with and the local backend reads slurmctld's metrics with:
 * URL checks, TLS always verified, no redirects, timeouts, size caps.
 */
#ifndef SQ_BACKENDS_HTTP_HTTP_H
#define SQ_BACKENDS_HTTP_HTTP_H

#include <stddef.h>

#include "core/base/buf.h"
#include "core/base/err.h"

struct sq_http;

/* What a request says of its sender: the X-SLURM-USER-NAME and
 * X-SLURM-USER-TOKEN headers (NULL or "" user: none; NULL token: none).
 * The token goes into that header and nowhere else. */
struct sq_http_cred {
	const char *user;
	const char *token;
	size_t token_len;
};

/*
 * Check a URL and prepare a connection: http(s)://host[:port][/prefix] or
 * unix:/path/to/socket. Plain http is refused unless the host is loopback
 * (127.0.0.0/8, ::1, localhost) or insecure_http is set. timeout is the
 * total time per request in seconds.
 */
struct sq_http *sq_http_open(const char *url, int insecure_http, int timeout,
			     struct sq_err *err);
/* Verify the https server against the CA certificates in path (PEM)
 * instead of the system's: a site's own CA. The file must be a readable
 * regular file; an http:// or unix: URL has nothing to verify (usage
 * error). 0, or -1 with err set. */
int sq_http_ca_file(struct sq_http *h, const char *path, struct sq_err *err);
void sq_http_close(struct sq_http *h);
/* Is this connection a unix socket? */
int sq_http_is_unix(const struct sq_http *h);
/* The URL without secrets, for messages ("http://127.0.0.1:6820"). */
const char *sq_http_where(const struct sq_http *h);

/*
 * One request. path starts with '/'; body may be NULL. The answer's body
 * goes to out (caller-initialised, capped by its limit), the HTTP status
 * to *status. cred may be NULL (no
 * headers of a sender). Returns -1 only when no HTTP answer came (connect, TLS,
 * timeout, size cap); err names the URL and the cause.
 */
int sq_http_request(struct sq_http *h, const char *method, const char *path,
		    const struct sq_http_cred *cred, const char *body,
		    struct sq_buf *out, long *status, struct sq_err *err);

/*
 * The same with the body of a 2xx answer handed to sink->write piece by
 * piece as it arrives (parsed while it is transferred) instead of out;
 * out still gets the body of any other answer, for its error message
 * (capped by out's limit). The streamed body has no size cap: the sink
 * keeps what it maps, not the bytes (slurmrestd 26.05 answers ~8 KB a
 * job for every job slurmctld holds, hundreds of MB at a big site), and
 * the transfer is bounded by the timeout. When sink->write returns -1
 * the transfer stops and 0 is returned with the status: the sink holds
 * its own error.
 */
struct sq_http_sink {
	int (*write)(void *arg, const char *p, size_t n);
	void *arg;
};
int sq_http_request_sink(struct sq_http *h, const char *method,
			 const char *path, const struct sq_http_cred *cred,
			 const char *body, const struct sq_http_sink *sink,
			 struct sq_buf *out, long *status, struct sq_err *err);

#endif
