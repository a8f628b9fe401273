/*
 * fake_backend.c - the CLI bed and the unix socket slurmrestd the
 * read-counting unit tests share (see fake_backend.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/fake_backend.h"
#include "tests/unit/test_util.h"

#if SQ_HAVE_REST
#include <sys/socket.h>
#include <sys/un.h>
#endif

void
sq_fake_answer(struct sq_buf *out, const char *fixture)
{
	char *t = sq_test_fixture(fixture, NULL);

	sq_buf_append(out, t, strlen(t));
	free(t);
}

static int
bed_run(void *ctx, const char *const argv[], struct sq_buf *out,
	struct sq_buf *errout, int *status, struct sq_err *err)
{
	struct sq_fake_bed *t = ctx;
	size_t i, off = 0;

	(void)err;
	if (t->f.n < sizeof(t->f.argv) / sizeof(t->f.argv[0])) {
		for (i = 0; argv[i] != NULL && off < sizeof(t->f.argv[0]) - 1;
		     i++)
			off += (size_t)snprintf(t->f.argv[t->f.n] + off,
						sizeof(t->f.argv[0]) - off,
						"%s%s", i ? " " : "", argv[i]);
		t->f.n++;
	}
	*status = t->f.run(t->f.arg, argv, out, errout);
	return 0;
}

static void
bed_close(void *ctx)
{
	(void)ctx;
}

static const struct sq_transport_ops bed_tr = { "fake", bed_run, bed_close,
						NULL, 0 };

void
sq_fake_bed_init(struct sq_fake_bed *t, sq_fake_run_fn run, void *arg)
{
	memset(t, 0, sizeof(*t));
	t->cli.tr = &bed_tr;
	t->cli.tr_ctx = t;
	t->cli.b = &t->b;
	t->cli.major = 22;
	t->cli.minor = 5;
	t->b.ops = &sq_backend_local;
	t->b.priv = &t->cli;
	t->f.run = run;
	t->f.arg = arg;
}

unsigned
sq_fake_count_caps(struct sq_backend *b)
{
	return ((const struct sq_fake_count *)b->priv)->caps;
}

int
sq_fake_count_fetch(struct sq_backend *b, enum sq_kind kind,
		    struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_fake_count *fc = b->priv;

	*out = NULL;
	fc->asked[kind]++;
	return fc->answer(b, kind, out, err);
}

void
sq_fake_read_request(int c, char *req, size_t n)
{
	size_t got = 0, want;
	const char *body, *cl;

	req[0] = '\0';
	while (got < n - 1) {
		ssize_t r = read(c, req + got, n - 1 - got);

		if (r <= 0)
			break;
		got += (size_t)r;
		req[got] = '\0';
		if ((body = strstr(req, "\r\n\r\n")) == NULL)
			continue;
		cl = strstr(req, "Content-Length:");
		want = cl != NULL ? strtoul(cl + 15, NULL, 10) : 0;
		if (got - (size_t)(body + 4 - req) >= want)
			break;
	}
}

#if SQ_HAVE_REST
void
sq_fake_rest_reply(int c, const char *status, const char *body)
{
	char hdr[256];

	snprintf(hdr, sizeof(hdr),
		 "HTTP/1.1 %s\r\nContent-Type: application/json\r\n"
		 "Content-Length: %zu\r\nConnection: close\r\n\r\n",
		 status, strlen(body));
	if (write(c, hdr, strlen(hdr)) < 0 || write(c, body, strlen(body)) < 0)
		return;
}

static void
serve_one(struct sq_fake_rest *f, int c)
{
	char req[16384], method[16], path[512], *t;

	sq_fake_read_request(c, req, sizeof(req));
	if (sscanf(req, "%15s %511s", method, path) != 2)
		return;
	if (strcmp(path, "/openapi/v3") == 0) {
		t = sq_test_fixture("rest/v0.0.38/openapi_v3_paths.json", NULL);
		sq_fake_rest_reply(c, "200 OK", t);
		free(t);
		return;
	}
	if (f->n < sizeof(f->req) / sizeof(f->req[0]))
		snprintf(f->req[f->n++], sizeof(f->req[0]), "%s %.120s", method,
			 path);
	f->serve(f, c, method, path, req);
}

static void *
rest_serve(void *arg)
{
	struct sq_fake_rest *f = arg;
	int c;

	while ((c = accept(f->fd, NULL, NULL)) != -1) {
		serve_one(f, c);
		close(c);
	}
	return NULL;
}

void
sq_fake_rest_start(struct sq_fake_rest *f, sq_fake_serve_fn serve, void *arg,
		   struct sq_backend **b)
{
	struct sockaddr_un a;
	struct sq_cluster_cfg cfg;
	struct sq_err err;

	memset(f, 0, sizeof(*f));
	f->serve = serve;
	f->arg = arg;
	snprintf(f->dir, sizeof(f->dir), "/tmp/sq_fake_rest.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/rest.sock", f->dir);
	f->fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(f->fd >= 0);
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", f->path);
	assert_int_equal(bind(f->fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(f->fd, 8), 0);
	assert_int_equal(pthread_create(&f->th, NULL, rest_serve, f), 0);

	sq_cluster_defaults(&cfg);
	snprintf(cfg.name, sizeof(cfg.name), "fake");
	snprintf(cfg.backend, sizeof(cfg.backend), "rest");
	snprintf(cfg.url, sizeof(cfg.url), "unix:%s", f->path);
	*b = sq_backend_open(&cfg, &err);
	if (*b == NULL)
		fail_msg("rest backend: %s", err.msg);
	f->n = 0;
}

void
sq_fake_rest_stop(struct sq_fake_rest *f, struct sq_backend *b)
{
	sq_backend_close(b);
	shutdown(f->fd, SHUT_RDWR);
	pthread_join(f->th, NULL);
	close(f->fd);
	unlink(f->path);
	rmdir(f->dir);
}
#endif
