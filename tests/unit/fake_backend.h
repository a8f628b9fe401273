/*
 * fake_backend.h - the fake clusters of the unit tests that count what a
 * fetch or an action asks (test_fetch_reads.c, test_exec_reads.c): a CLI
 * backend (the local backend's ops) on a transport that records each
 * command as one line and lets the test answer it, and, with the rest
 * backend, a slurmrestd played by a unix socket server that records
 * "METHOD PATH" of each request and lets the test answer it (GET
 * /openapi/v3 answered from the 22.05 recording, and not recorded), and
 * the reading of one HTTP request (test_rest_stream.c's server too); and
 * a backend of any kinds that counts what fetch() is asked (test_plan.c,
 * test_plan_builds.c, test_overview.c).
 */
#ifndef SQ_FAKE_BACKEND_H
#define SQ_FAKE_BACKEND_H

#include "backends/backend.h"
#include "backends/cli/cli.h"
#include "config.h"
#include "core/base/buf.h"

/* Append tests/fixtures/<fixture> to out. */
void sq_fake_answer(struct sq_buf *out, const char *fixture);

/* The test's answer to argv (the line already recorded): fills out and
 * errout, returns the exit status; arg as given to sq_fake_bed_init. */
typedef int (*sq_fake_run_fn)(void *arg, const char *const argv[],
			      struct sq_buf *out, struct sq_buf *errout);

struct sq_fake_bed {
	struct sq_backend b; /* ops: sq_backend_local, priv: cli */
	struct sq_cli cli;   /* Slurm 22.05 */
	struct {
		char argv[32][1400]; /* the commands run, words joined by ' ' */
		unsigned n;
		sq_fake_run_fn run;
		void *arg;
	} f;
};

/* t zeroed and wired: a CLI backend whose commands run answers. */
void sq_fake_bed_init(struct sq_fake_bed *t, sq_fake_run_fn run, void *arg);

/* A backend that counts what fetch() is asked, kind by kind (the plan's
 * tests): b->priv is its struct sq_fake_count; fetch() counts, then
 * answers through the test's function; caps() says what caps holds. */
struct sq_fake_count {
	unsigned asked[SQ_KIND_COUNT]; /* fetch() calls per kind */
	unsigned caps;
	int (*answer)(struct sq_backend *b, enum sq_kind kind,
		      struct sq_snapshot **out, struct sq_err *err);
};

unsigned sq_fake_count_caps(struct sq_backend *b);
int sq_fake_count_fetch(struct sq_backend *b, enum sq_kind kind,
			struct sq_snapshot **out, struct sq_err *err);

/* One HTTP request from connection c into req (n bytes, NUL-terminated):
 * its head, then Content-Length bytes of body. */
void sq_fake_read_request(int c, char *req, size_t n);

#if SQ_HAVE_REST
#include <pthread.h>

struct sq_fake_rest;
/* The test's answer to one request on connection c (req: the whole
 * request, head and body; answer with sq_fake_rest_reply). */
typedef void (*sq_fake_serve_fn)(struct sq_fake_rest *f, int c,
				 const char *method, const char *path,
				 const char *req);

struct sq_fake_rest {
	int fd;
	char path[96], dir[64];
	pthread_t th;
	char req[16][160]; /* "METHOD PATH" of each request after open */
	unsigned n;
	sq_fake_serve_fn serve;
	void *arg;
};

/* The server up and a rest backend opened on it (*b), nothing recorded. */
void sq_fake_rest_start(struct sq_fake_rest *f, sq_fake_serve_fn serve,
			void *arg, struct sq_backend **b);
/* b closed, the server stopped, its socket and directory removed. */
void sq_fake_rest_stop(struct sq_fake_rest *f, struct sq_backend *b);
/* An HTTP/1.1 answer with a JSON body, the connection to be closed. */
void sq_fake_rest_reply(int c, const char *status, const char *body);
#endif

#endif
