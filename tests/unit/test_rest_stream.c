/*
 * test_rest_stream.c - the HTTP layer's streamed answers
 * (sq_http_request_sink) against a one-shot server on 127.0.0.1: a 2xx
 * body goes to the sink in pieces and parses into the same rows as the
 * recorded file, an error answer goes to the buffer for its message, and
 * a sink that refuses the body stops the transfer with the status kept.
 * Built only with the rest backend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tests/unit/fake_backend.h"
#include "tests/unit/test_util.h"

#if SQ_HAVE_REST
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backends/rest/rest.h"
#include "backends/slurmjson/slurmjson.h"

struct server {
	int fd;
	int port;
	const char *head; /* status line and headers, without the blank line */
	const char *body;
	size_t len;
	pthread_t th;
};

static void *
serve(void *arg)
{
	struct server *sv = arg;
	char req[8192], hdr[512];
	size_t off = 0;
	int c = accept(sv->fd, NULL, NULL);

	if (c == -1)
		return NULL;
	sq_fake_read_request(c, req, sizeof(req));
	snprintf(hdr, sizeof(hdr),
		 "%s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
		 sv->head, sv->len);
	if (write(c, hdr, strlen(hdr)) < 0)
		goto out;
	/* the body in small writes, as a server streams it */
	while (off < sv->len) {
		size_t n = sv->len - off < 7001 ? sv->len - off : 7001;
		ssize_t w = write(c, sv->body + off, n);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
out:
	close(c);
	return NULL;
}

static void
server_start(struct server *sv, const char *head, const char *body, size_t len)
{
	struct sockaddr_in a;
	socklen_t al = sizeof(a);

	sv->head = head;
	sv->body = body;
	sv->len = len;
	sv->fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(sv->fd >= 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(sv->fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(sv->fd, 1), 0);
	assert_int_equal(getsockname(sv->fd, (struct sockaddr *)&a, &al), 0);
	sv->port = ntohs(a.sin_port);
	assert_int_equal(pthread_create(&sv->th, NULL, serve, sv), 0);
}

static void
server_stop(struct server *sv)
{
	pthread_join(sv->th, NULL);
	close(sv->fd);
}

struct sink_state {
	struct sq_sj_stream *st;
	size_t calls, bytes;
	int refuse_after; /* -1 after this many calls; 0: never */
};

static int
sink_write(void *arg, const char *p, size_t n)
{
	struct sink_state *ss = arg;
	struct sq_err err;

	ss->calls++;
	ss->bytes += n;
	if (ss->refuse_after > 0 && ss->calls >= (size_t)ss->refuse_after)
		return -1;
	return sq_slurmjson_stream_feed(ss->st, p, n, &err);
}

/* GET from the one-shot server through the sink; rows into *snap. */
static int
get(const char *head, const char *body, size_t len, int refuse_after,
    struct sq_snapshot **snap, struct sq_buf *out, long *status,
    struct sink_state *ss, struct sq_err *err)
{
	struct server sv;
	struct sq_http *h;
	struct sq_http_sink sink = { sink_write, ss };
	char url[64];
	int rc;

	memset(ss, 0, sizeof(*ss));
	ss->refuse_after = refuse_after;
	*snap = sq_snapshot_new(SQ_KIND_JOBS, 0);
	ss->st =
	    sq_slurmjson_stream_new(SQ_KIND_JOBS, 1795986600, *snap, NULL, err);
	assert_non_null(ss->st);
	server_start(&sv, head, body, len);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", sv.port);
	h = sq_http_open(url, 0, 10, err);
	assert_non_null(h);
	rc = sq_http_request_sink(h, "GET", "/slurm/v0.0.38/jobs", NULL, NULL,
				  &sink, out, status, err);
	sq_http_close(h);
	server_stop(&sv);
	return rc;
}

static void
test_ok_streamed(void **state)
{
	size_t len;
	char *b = sq_test_fixture("rest/v0.0.38/slurm_jobs.json", &len);
	struct sq_snapshot *s, *ref = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sink_state ss;
	struct sq_buf out;
	struct sq_err err;
	long status;
	size_t i;

	(void)state;
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, b, len, 1795986600,
					    ref, NULL, &err),
			 0);
	assert_true(ref->nrows > 5);
	sq_buf_init(&out, 1024 * 1024);
	assert_int_equal(
	    get("HTTP/1.1 200 OK", b, len, 0, &s, &out, &status, &ss, &err), 0);
	assert_int_equal(status, 200);
	/* in pieces, none of it kept in out */
	assert_true(ss.calls > 1);
	assert_int_equal(ss.bytes, len);
	assert_int_equal(out.len, 0);
	assert_int_equal(sq_slurmjson_stream_end(ss.st, &err), 0);
	assert_int_equal(s->nrows, ref->nrows);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_job *a = sq_snapshot_row(s, i);
		const struct sq_job *r = sq_snapshot_row(ref, i);

		assert_string_equal(a->id, r->id);
		assert_string_equal(a->name, r->name);
		assert_string_equal(a->state, r->state);
		assert_string_equal(a->reason, r->reason);
		assert_int_equal(a->time_limit, r->time_limit);
	}
	sq_slurmjson_stream_free(ss.st);
	sq_snapshot_unref(s);
	sq_snapshot_unref(ref);
	sq_buf_free(&out);
	free(b);
}

static void
test_error_answer_buffered(void **state)
{
	size_t len;
	char *b =
	    sq_test_fixture("rest/v0.0.38/err_jobs_garbage_token.json", &len);
	struct sq_snapshot *s;
	struct sink_state ss;
	struct sq_buf out;
	struct sq_err err;
	long status;

	(void)state;
	sq_buf_init(&out, 1024 * 1024);
	assert_int_equal(get("HTTP/1.1 500 Internal Server Error", b, len, 0,
			     &s, &out, &status, &ss, &err),
			 0);
	assert_int_equal(status, 500);
	/* the body is in out for the message, the stream saw nothing */
	assert_int_equal(ss.calls, 0);
	assert_int_equal(out.len, len);
	assert_int_equal(sq_slurmjson_check(out.data, out.len, NULL, &err), -1);
	assert_int_equal(err.code, SQ_ERR_COMMAND);
	sq_slurmjson_stream_free(ss.st);
	sq_snapshot_unref(s);
	sq_buf_free(&out);
	free(b);
}

static void
test_sink_stops(void **state)
{
	size_t len;
	char *b = sq_test_fixture("rest/v0.0.38/slurm_jobs.json", &len);
	struct sq_snapshot *s;
	struct sink_state ss;
	struct sq_buf out;
	struct sq_err err;
	long status;
	char *p;

	(void)state;
	/* a malformed body: the stream refuses at once, the transfer stops
	 * and the status is still there */
	sq_buf_init(&out, 1024 * 1024);
	p = strstr(b, "\"jobs\"");
	assert_non_null(p);
	p = strchr(p, '{');
	assert_non_null(p);
	*p = ':'; /* the first job starts with ':' */
	assert_int_equal(
	    get("HTTP/1.1 200 OK", b, len, 0, &s, &out, &status, &ss, &err), 0);
	assert_int_equal(status, 200);
	assert_true(ss.bytes < len);
	assert_int_equal(sq_slurmjson_stream_end(ss.st, &err), -1);
	assert_int_equal(err.code, SQ_ERR_PARSE);
	sq_slurmjson_stream_free(ss.st);
	sq_snapshot_unref(s);
	/* a sink that gives up after its first piece */
	free(b);
	b = sq_test_fixture("rest/v0.0.38/slurm_jobs.json", &len);
	assert_int_equal(
	    get("HTTP/1.1 200 OK", b, len, 1, &s, &out, &status, &ss, &err), 0);
	assert_int_equal(ss.calls, 1);
	sq_slurmjson_stream_free(ss.st);
	sq_snapshot_unref(s);
	sq_buf_free(&out);
	free(b);
}

/* A streamed body is not capped by the buffer's limit (memory follows
 * the rows kept: a big site's /jobs is hundreds of MB), while an error
 * answer kept whole in the buffer still is. */
static void
test_stream_uncapped(void **state)
{
	size_t len, i;
	char *b = sq_test_fixture("rest/v0.0.38/slurm_jobs.json", &len);
	struct sq_snapshot *s, *ref = sq_snapshot_new(SQ_KIND_JOBS, 0);
	struct sink_state ss;
	struct sq_buf out;
	struct sq_err err;
	long status;

	(void)state;
	assert_int_equal(sq_slurmjson_parse(SQ_KIND_JOBS, b, len, 1795986600,
					    ref, NULL, &err),
			 0);
	sq_buf_init(&out, len / 4);
	assert_int_equal(
	    get("HTTP/1.1 200 OK", b, len, 0, &s, &out, &status, &ss, &err), 0);
	assert_int_equal(status, 200);
	assert_int_equal(ss.bytes, len);
	assert_int_equal(sq_slurmjson_stream_end(ss.st, &err), 0);
	assert_int_equal(s->nrows, ref->nrows);
	for (i = 0; i < s->nrows; i++) {
		const struct sq_job *a = sq_snapshot_row(s, i);
		const struct sq_job *r = sq_snapshot_row(ref, i);

		assert_string_equal(a->id, r->id);
	}
	sq_slurmjson_stream_free(ss.st);
	sq_snapshot_unref(s);
	sq_snapshot_unref(ref);
	sq_buf_free(&out);
	/* the same bytes as an error answer: kept whole, so capped */
	sq_buf_init(&out, len / 4);
	assert_int_equal(get("HTTP/1.1 500 Internal Server Error", b, len, 0,
			     &s, &out, &status, &ss, &err),
			 -1);
	assert_non_null(strstr(err.msg, "larger than"));
	sq_slurmjson_stream_free(ss.st);
	sq_snapshot_unref(s);
	sq_buf_free(&out);
	free(b);
}

/* A server that takes the request and never answers (listening, never
 * accepting: the kernel completes the connection): the request fails at
 * the timeout and the message names the setting that gives it longer (a
 * 100,000-job /jobs takes slurmrestd minutes) */
static void
test_timeout_names_setting(void **state)
{
	struct sockaddr_in a;
	socklen_t al = sizeof(a);
	struct sq_http *h;
	struct sq_buf out;
	struct sq_err err;
	char url[64];
	long status = 0;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)state;
	assert_true(fd >= 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 1), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", ntohs(a.sin_port));
	h = sq_http_open(url, 0, 1, &err);
	assert_non_null(h);
	sq_buf_init(&out, 1 << 20);
	assert_int_equal(sq_http_request(h, "GET", "/slurm/v0.0.45/jobs", NULL,
					 NULL, &out, &status, &err),
			 -1);
	assert_non_null(strstr(err.msg, "GET /slurm/v0.0.45/jobs"));
	assert_non_null(strstr(err.msg, "within 1 s"));
	assert_non_null(strstr(err.msg, "--timeout"));
	sq_buf_free(&out);
	sq_http_close(h);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ok_streamed),
		cmocka_unit_test(test_error_answer_buffered),
		cmocka_unit_test(test_sink_stops),
		cmocka_unit_test(test_stream_uncapped),
		cmocka_unit_test(test_timeout_names_setting),
	};

	/* the server writes on after the client stopped reading */
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int
main(void)
{
	return 0;
}
#endif
