/*
 * http.c - the HTTP transport (http.h) of the rest backend and of the
 * local backend's metrics reads, on libcurl: URL
 * checking (http/https/unix socket; plain http only to loopback unless
 * forced), TLS verification always on, no redirects, no proxies for plain
 * http, connect and total timeouts, a size cap on answers.
 *
 * The token is put in a request header and nowhere else: never in a URL,
 * never in an error message, and curl's verbose mode is never enabled.
 */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sys/stat.h>

#include "config.h"
#include "backends/http/http.h"

struct sq_http {
	CURL *curl;
	char base[600];    /* scheme://host[:port][/prefix], no trailing '/' */
	char where[600];   /* for messages */
	char sock[512];    /* unix socket path, or "" */
	char ca_file[512]; /* CURLOPT_CAINFO, or "": the system's CAs */
	int https;
	int timeout;
	char errbuf[CURL_ERROR_SIZE];
};

/* libcurl's global init, once per process whichever worker opens first */
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static int curl_ok;

static void
curl_init_once(void)
{
	curl_ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

static int
url_char_ok(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || strchr("._~-/:[]%", c) != NULL;
}

/* Is host (no brackets) a loopback address or "localhost"? */
static int
is_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;

	if (strcasecmp(host, "localhost") == 0)
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1)
		return memcmp(&a6, &in6addr_loopback, sizeof(a6)) == 0;
	return 0;
}

/* Split http(s)://AUTHORITY[/prefix] and check each part. */
static int
parse_web_url(struct sq_http *h, const char *url, int insecure,
	      struct sq_err *err)
{
	const char *rest, *slash, *p;
	char auth[300], host[300];
	size_t alen, i;
	long port = 0;

	if (strncasecmp(url, "https://", 8) == 0) {
		h->https = 1;
		rest = url + 8;
	} else {
		rest = url + 7;
	}
	for (p = url; *p != '\0'; p++) {
		if (!url_char_ok((unsigned char)*p))
			return sq_err_set(
			    err, SQ_ERR_USAGE,
			    "URL %s: character '%c' not allowed "
			    "(no user:password@, query or spaces)",
			    url, *p);
	}
	slash = strchr(rest, '/');
	alen = slash ? (size_t)(slash - rest) : strlen(rest);
	if (alen == 0 || alen >= sizeof(auth))
		return sq_err_set(err, SQ_ERR_USAGE, "URL %s: no host", url);
	memcpy(auth, rest, alen);
	auth[alen] = '\0';
	if (auth[0] == '[') {
		char *close = strchr(auth, ']');

		if (close == NULL)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "URL %s: unterminated [IPv6]", url);
		*close = '\0';
		snprintf(host, sizeof(host), "%s", auth + 1);
		p = close + 1;
	} else {
		char *colon = strchr(auth, ':');
		size_t hl = colon ? (size_t)(colon - auth) : strlen(auth);

		snprintf(host, sizeof(host), "%.*s", (int)hl, auth);
		p = auth + hl;
	}
	if (*p == ':') {
		char *end;

		port = strtol(p + 1, &end, 10);
		if (end == p + 1 || *end != '\0' || port < 1 || port > 65535)
			return sq_err_set(err, SQ_ERR_USAGE, "URL %s: bad port",
					  url);
	} else if (*p != '\0') {
		return sq_err_set(err, SQ_ERR_USAGE, "URL %s: bad host part",
				  url);
	}
	if (host[0] == '\0' || strchr(host, '%') != NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "URL %s: bad host", url);
	for (i = 0; host[i] != '\0'; i++) {
		if (strchr("/[]", host[i]) != NULL)
			return sq_err_set(err, SQ_ERR_USAGE, "URL %s: bad host",
					  url);
	}
	if (!h->https && !insecure && !is_loopback(host))
		return sq_err_set(
		    err, SQ_ERR_USAGE,
		    "refusing plain http to %s: the token would "
		    "cross the network unencrypted; use https://, "
		    "a unix: socket, or --insecure-http",
		    host);
	snprintf(h->base, sizeof(h->base), "%s", url);
	alen = strlen(h->base);
	while (alen > 8 && h->base[alen - 1] == '/')
		h->base[--alen] = '\0';
	snprintf(h->where, sizeof(h->where), "%s", h->base);
	return 0;
}

int
sq_http_ca_file(struct sq_http *h, const char *path, struct sq_err *err)
{
	struct stat st;
	FILE *fp;

	if (!h->https)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "ca-file %s: only an https:// URL has a "
				  "certificate to verify",
				  path);
	if (strlen(path) >= sizeof(h->ca_file))
		return sq_err_set(err, SQ_ERR_USAGE, "ca-file: path too long");
	/* a FIFO or a device would hang or feed the TLS library junk */
	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode))
		return sq_err_set(err, SQ_ERR_USAGE,
				  "ca-file %s: not a regular file", path);
	fp = fopen(path, "r");
	if (fp == NULL)
		return sq_err_set(err, SQ_ERR_USAGE, "ca-file %s: cannot read",
				  path);
	fclose(fp);
	snprintf(h->ca_file, sizeof(h->ca_file), "%s", path);
	return 0;
}

struct sq_http *
sq_http_open(const char *url, int insecure_http, int timeout,
	     struct sq_err *err)
{
	struct sq_http *h;

	if (url == NULL || *url == '\0') {
		sq_err_set(err, SQ_ERR_USAGE,
			   "the rest backend needs a URL (-u "
			   "http(s)://host:port or unix:/path/to/socket)");
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (h == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	h->timeout = timeout > 0 ? timeout : 30;
	if (strncmp(url, "unix:", 5) == 0) {
		const char *path = url + 5;
		const char *p;

		if (strncmp(path, "//", 2) == 0)
			path += 2; /* unix:///run/x.sock */
		if (path[0] != '/' || strlen(path) >= sizeof(h->sock)) {
			sq_err_set(err, SQ_ERR_USAGE,
				   "URL %s: expected unix:/absolute/path", url);
			goto fail;
		}
		for (p = path; *p != '\0'; p++) {
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				sq_err_set(err, SQ_ERR_USAGE,
					   "URL: control character in the "
					   "socket path");
				goto fail;
			}
		}
		snprintf(h->sock, sizeof(h->sock), "%s", path);
		snprintf(h->base, sizeof(h->base), "http://localhost");
		snprintf(h->where, sizeof(h->where), "unix:%s", path);
	} else if (strncasecmp(url, "http://", 7) == 0 ||
		   strncasecmp(url, "https://", 8) == 0) {
		if (parse_web_url(h, url, insecure_http, err) == -1)
			goto fail;
	} else {
		sq_err_set(err, SQ_ERR_USAGE,
			   "URL %s: use http://host:port, https://host:port "
			   "or unix:/path/to/socket",
			   url);
		goto fail;
	}
	pthread_once(&curl_once, curl_init_once);
	if (!curl_ok) {
		sq_err_set(err, SQ_ERR_SYSTEM, "libcurl init failed");
		goto fail;
	}
	h->curl = curl_easy_init();
	if (h->curl == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "libcurl init failed");
		goto fail;
	}
	return h;
fail:
	free(h);
	return NULL;
}

void
sq_http_close(struct sq_http *h)
{
	if (h == NULL)
		return;
	if (h->curl != NULL)
		curl_easy_cleanup(h->curl);
	free(h);
}

int
sq_http_is_unix(const struct sq_http *h)
{
	return h->sock[0] != '\0';
}

const char *
sq_http_where(const struct sq_http *h)
{
	return h->where;
}

/* Where the body goes: out, or the sink once the status is a 2xx. */
struct write_ctx {
	CURL *curl;
	struct sq_buf *out;
	const struct sq_http_sink *sink;
	int decided, to_sink, sink_stopped;
	size_t sunk; /* bytes given to the sink (not capped: see rest.h) */
};

static size_t
write_cb(char *p, size_t size, size_t nmemb, void *arg)
{
	struct write_ctx *w = arg;
	size_t n = size * nmemb;

	if (!w->decided) {
		long code = 0;

		/* the headers are in when the body starts */
		curl_easy_getinfo(w->curl, CURLINFO_RESPONSE_CODE, &code);
		w->to_sink = w->sink != NULL && code >= 200 && code < 300;
		w->decided = 1;
	}
	if (w->to_sink) {
		w->sunk += n;
		if (w->sink->write(w->sink->arg, p, n) == -1) {
			w->sink_stopped = 1;
			return 0;
		}
		return n;
	}
	if (sq_buf_append(w->out, p, n) == -1)
		return 0; /* makes curl stop with CURLE_WRITE_ERROR */
	return n;
}

/* Append "Name: value" to a header list; value is checked for CR/LF. */
static int
add_header(struct curl_slist **l, const char *name, const char *val,
	   size_t vlen)
{
	struct curl_slist *nl;
	size_t nlen = strlen(name), i;
	char *line;

	for (i = 0; i < vlen; i++) {
		if (val[i] == '\r' || val[i] == '\n' || val[i] == '\0')
			return -1;
	}
	line = calloc(1, nlen + vlen + 3);
	if (line == NULL)
		return -1;
	memcpy(line, name, nlen);
	/* "Name:" with nothing after it removes a header curl would add */
	memcpy(line + nlen, vlen ? ": " : ":", vlen ? 2 : 1);
	if (vlen)
		memcpy(line + nlen + 2, val, vlen);
	nl = curl_slist_append(*l, line);
	/* the token header line is a secret too: wipe our copy */
	memset(line, 0, nlen + vlen + 2);
	free(line);
	if (nl == NULL)
		return -1;
	*l = nl;
	return 0;
}

static void
set_protocols(CURL *c, int https)
{
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, https ? "https" : "http");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR,
			 https ? "https" : "http");
#else
	curl_easy_setopt(c, CURLOPT_PROTOCOLS,
			 (long)(https ? CURLPROTO_HTTPS : CURLPROTO_HTTP));
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS,
			 (long)(https ? CURLPROTO_HTTPS : CURLPROTO_HTTP));
#endif
}

/* The request's headers into *hdrs: JSON both ways, no "Expect:
 * 100-continue", the user name and token where cred has them; -1
 * without memory. */
static int
request_headers(struct curl_slist **hdrs, const struct sq_http_cred *cred,
		int body)
{
	if (add_header(hdrs, "Accept", "application/json", 16) == -1 ||
	    add_header(hdrs, "Expect", "", 0) == -1 ||
	    (body &&
	     add_header(hdrs, "Content-Type", "application/json", 16) == -1))
		return -1;
	if (cred != NULL && cred->user != NULL && cred->user[0] != '\0' &&
	    add_header(hdrs, "X-SLURM-USER-NAME", cred->user,
		       strlen(cred->user)) == -1)
		return -1;
	if (cred != NULL && cred->token != NULL &&
	    add_header(hdrs, "X-SLURM-USER-TOKEN", cred->token,
		       cred->token_len) == -1)
		return -1;
	return 0;
}

/* The options of every request on h's handle, reset first (the
 * connection cache stays): url, transport, TLS checks, time limits, no
 * proxy for plain HTTP, the body into w. */
static void
set_options(struct sq_http *h, const char *url, struct write_ctx *w)
{
	CURL *c = h->curl;
	const struct sq_http_sink *sink = w->sink;
	const struct sq_buf *out = w->out;

	curl_easy_reset(c); /* keeps the connection cache */
	h->errbuf[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, url);
	if (h->sock[0] != '\0')
		curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, h->sock);
	set_protocols(c, h->https);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 0L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (h->ca_file[0] != '\0')
		curl_easy_setopt(c, CURLOPT_CAINFO, h->ca_file);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT,
			 (long)(h->timeout < 10 ? h->timeout : 10));
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)h->timeout);
	if (!h->https) /* a proxy would see the token in clear */
		curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "squall/" SQ_VERSION);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, h->errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, write_cb);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, w);
	/* bigger pieces for a streamed body (as the curl tool asks) */
	if (sink != NULL)
		curl_easy_setopt(c, CURLOPT_BUFFERSIZE, 100L * 1024);
	/* a streamed body's memory follows the rows its sink keeps, not
	 * the bytes read: only a body kept whole in out is capped */
	if (out->limit > 0 && sink == NULL)
		curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
				 (curl_off_t)out->limit);
}

int
sq_http_request(struct sq_http *h, const char *method, const char *path,
		const struct sq_http_cred *cred, const char *body,
		struct sq_buf *out, long *status, struct sq_err *err)
{
	return sq_http_request_sink(h, method, path, cred, body, NULL, out,
				    status, err);
}

int
sq_http_request_sink(struct sq_http *h, const char *method, const char *path,
		     const struct sq_http_cred *cred, const char *body,
		     const struct sq_http_sink *sink, struct sq_buf *out,
		     long *status, struct sq_err *err)
{
	struct write_ctx w = { h->curl, out, sink, 0, 0, 0, 0 };
	struct curl_slist *hdrs = NULL;
	char url[2048];
	const char *p;
	CURLcode rc;
	CURL *c = h->curl;
	int ret = -1;

	*status = 0;
	for (p = path; *p != '\0'; p++) {
		if ((unsigned char)*p <= 0x20 || *p == 0x7f)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "bad character in request path");
	}
	if (path[0] != '/' || (size_t)snprintf(url, sizeof(url), "%s%s",
					       h->base, path) >= sizeof(url))
		return sq_err_set(err, SQ_ERR_USAGE, "request path too long");
	if (request_headers(&hdrs, cred, body != NULL) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM,
			   "cannot build the request headers");
		goto out;
	}
	set_options(h, url, &w);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	if (strcmp(method, "GET") != 0)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	if (body != NULL) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	}
	rc = curl_easy_perform(c);
	if (w.sink_stopped) {
		/* the sink refused the body (malformed): it has the error */
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
		ret = 0;
		goto out;
	}
	if (rc == CURLE_WRITE_ERROR || rc == CURLE_FILESIZE_EXCEEDED ||
	    out->truncated) {
		sq_err_set(err, SQ_ERR_COMMAND,
			   "%s %s: answer larger than %zu bytes", method, path,
			   out->limit);
		goto out;
	}
	if (rc == CURLE_OPERATION_TIMEDOUT) {
		/* a fixed time a big site reaches: slurmrestd builds a
		 * 100,000-job /jobs (830 MB) for minutes before its first
		 * byte: say which setting gives it longer */
		sq_err_set(err, SQ_ERR_CONNECT,
			   "%s %s: no whole answer from slurmrestd at %s "
			   "within %d s (the timeout setting: --timeout or "
			   "timeout= in the cluster's section, up to 3600)",
			   method, path, h->where, h->timeout);
		goto out;
	}
	if (rc != CURLE_OK) {
		sq_err_set(err, SQ_ERR_CONNECT,
			   "cannot reach slurmrestd at %s: %s", h->where,
			   h->errbuf[0] ? h->errbuf : curl_easy_strerror(rc));
		goto out;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	ret = 0;
out:
	/* drop curl's pointers to our header list before freeing it */
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	curl_slist_free_all(hdrs);
	return ret;
}
