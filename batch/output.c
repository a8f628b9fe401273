/*
 * output.c - `squall --once --job ID --output stdout|stderr|script
 * [--follow]`: print a job's output file (the last SQ_OUTPUT_TAIL bytes
 * first) or its batch script, escaped so no byte reaches the terminal raw;
 * with --follow, keep printing what is appended until the job ends or
 * Ctrl-C. Every read goes through the backend's file ops (bounded).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "batch/output.h"
#include "core/base/buf.h"
#include "core/analysis/outpath.h"

#define CHUNK ((size_t)1024 * 1024)
#define SCRIPT_LIMIT ((size_t)16 * 1024 * 1024)
#define STATE_EVERY 5 /* seconds between two looks at the job's state */

static volatile sig_atomic_t stop;

static void
on_int(int sig)
{
	(void)sig;
	stop = 1;
}

/* Bytes escaped and written to stdout; carry holds a cut UTF-8 tail. */
struct printer {
	char carry[8];
	size_t ncarry;
};

static int
print_bytes(struct printer *pr, const char *p, size_t n, int final)
{
	struct sq_buf in, out;
	size_t used;
	int rc = 0;

	sq_buf_init(&in, 0);
	sq_buf_init(&out, 0);
	if (sq_buf_append(&in, pr->carry, pr->ncarry) == -1 ||
	    (n > 0 && sq_buf_append(&in, p, n) == -1)) {
		rc = -1;
		goto out;
	}
	used = sq_text_escape(sq_buf_str(&in), in.len, final, &out);
	if (used == (size_t)-1) {
		rc = -1;
		goto out;
	}
	pr->ncarry = in.len - used;
	if (pr->ncarry > sizeof(pr->carry))
		pr->ncarry = 0;
	memcpy(pr->carry, in.data + used, pr->ncarry);
	fwrite(sq_buf_str(&out), 1, out.len, stdout);
	if (fflush(stdout) == EOF)
		rc = -1;
out:
	sq_buf_free(&in);
	sq_buf_free(&out);
	return rc;
}

static const char *
human(int64_t n, char *buf, size_t len)
{
	if (n >= (int64_t)1 << 30)
		snprintf(buf, len, "%.1f GiB", (double)n / (1 << 30));
	else if (n >= 1 << 20)
		snprintf(buf, len, "%.1f MiB", (double)n / (1 << 20));
	else
		snprintf(buf, len, "%lld KiB", (long long)(n >> 10));
	return buf;
}

static int
print_script(struct sq_backend *b, const char *jobid)
{
	struct sq_buf s;
	struct printer pr = { { 0 }, 0 };
	struct sq_err err;
	int rc = 1;

	sq_err_clear(&err);
	sq_buf_init(&s, SCRIPT_LIMIT);
	if (b->ops->job_script(b, jobid, &s, &err) == -1)
		fprintf(stderr, "squall: job %s: %s\n", jobid, err.msg);
	else if (print_bytes(&pr, s.data, s.len, 1) == 0)
		rc = 0;
	sq_buf_free(&s);
	return rc;
}

static void
nap(void)
{
	struct timespec ts = { 1, 0 };

	nanosleep(&ts, NULL);
}

/* Read path from *off to its end (at most max bytes) and print it. */
static int
drain(struct sq_backend *b, const char *path, int64_t *off, int64_t max,
      struct printer *pr, struct sq_err *err)
{
	struct sq_buf d;
	int rc = 0;

	sq_buf_init(&d, CHUNK + 1);
	while (max > 0 && !stop) {
		size_t want = max < (int64_t)CHUNK ? (size_t)max : CHUNK;

		sq_buf_reset(&d);
		if (b->ops->file_read(b, path, *off, want, &d, err) == -1) {
			rc = -1;
			break;
		}
		if (d.len > 0 && print_bytes(pr, d.data, d.len, 0) == -1) {
			rc = sq_err_set(err, SQ_ERR_SYSTEM, "cannot write");
			break;
		}
		*off += (int64_t)d.len;
		max -= (int64_t)d.len;
		if (d.len < want)
			break;
	}
	sq_buf_free(&d);
	return rc;
}

/* --follow: print what is appended until the job ends or Ctrl-C. */
static int
follow(struct sq_backend *b, const char *jobid, const char *path, int64_t off,
       struct printer *pr)
{
	struct sq_jobfiles *jf = malloc(sizeof(*jf));
	struct sq_err err;
	time_t last = time(NULL);
	int64_t size;
	int rc = 1, active = 1;

	if (jf == NULL)
		return 1;
	sq_err_clear(&err);
	while (!stop) {
		int64_t before = off;

		if (drain(b, path, &off, INT64_MAX, pr, &err) == -1)
			goto fail;
		if (!active)
			break;
		if (off == before &&
		    b->ops->file_stat(b, path, &size, &err) == 0 &&
		    size < off) {
			fprintf(stderr, "squall: %s was truncated\n", path);
			off = 0;
			continue;
		}
		if (time(NULL) - last >= STATE_EVERY) {
			last = time(NULL);
			/* gone from slurmctld or done: one last read */
			if (b->ops->job_files(b, jobid, jf, &err) == -1 ||
			    !sq_jobfiles_active(jf->state))
				active = 0;
			if (!active)
				continue;
		}
		nap();
	}
	print_bytes(pr, NULL, 0, 1);
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "squall: job %s: %s\n", jobid, err.msg);
out:
	free(jf);
	return rc;
}

static int
print_file(struct sq_backend *b, const char *jobid, int err_stream,
	   int follow_it)
{
	struct sq_jobfiles *jf = malloc(sizeof(*jf));
	struct printer pr = { { 0 }, 0 };
	struct sq_err err;
	const char *path;
	int64_t size = 0, off;
	char h1[32], h2[32];
	int rc = 1, said = 0;

	if (jf == NULL)
		return 1;
	sq_err_clear(&err);
	if (b->ops->job_files(b, jobid, jf, &err) == -1)
		goto fail;
	path = err_stream ? jf->stderr_path : jf->stdout_path;
	if (path[0] == '\0') {
		sq_err_set(&err, SQ_ERR_COMMAND, "Slurm reports no %s file",
			   err_stream ? "stderr" : "stdout");
		goto fail;
	}
	/* a pending job has no file yet: say so, and where it will be;
	 * --follow waits for it */
	while (b->ops->file_stat(b, path, &size, &err) == -1) {
		/* (not a FIFO or /dev/null in its place: DENIED) */
		if (sq_jobfiles_waiting(jf->state) &&
		    err.code == SQ_ERR_COMMAND && !said && !stop) {
			char msg[SQ_OUTPATH_MAX + 200];

			fprintf(stderr, "squall: %s%s\n",
				sq_jobfiles_not_started(jobid, jf->state,
							err_stream ? "stderr"
								   : "stdout",
							path, msg, sizeof(msg)),
				follow_it ? "; waiting for it"
					  : " (--follow waits for it)");
			said = 1;
			if (!follow_it)
				goto out;
		}
		if (!follow_it || !sq_jobfiles_active(jf->state) || stop)
			goto fail;
		nap();
		if (b->ops->job_files(b, jobid, jf, &err) == -1)
			goto fail;
	}
	off = size > SQ_OUTPUT_TAIL ? size - SQ_OUTPUT_TAIL : 0;
	if (off > 0)
		fprintf(stderr, "squall: %s: the last %s of %s\n", path,
			human(SQ_OUTPUT_TAIL, h1, sizeof(h1)),
			human(size, h2, sizeof(h2)));
	if (drain(b, path, &off, size - off, &pr, &err) == -1)
		goto fail;
	if (follow_it && sq_jobfiles_active(jf->state))
		rc = follow(b, jobid, path, off, &pr);
	else
		rc = print_bytes(&pr, NULL, 0, 1) == 0 ? 0 : 1;
	free(jf);
	return rc;
fail:
	fprintf(stderr, "squall: job %s: %s\n", jobid, err.msg);
out:
	free(jf);
	return 1;
}

int
sq_batch_output_check(const char *what)
{
	if (what != NULL &&
	    (strcmp(what, "stdout") == 0 || strcmp(what, "stderr") == 0 ||
	     strcmp(what, "script") == 0))
		return 0;
	fprintf(stderr, "squall: --output takes stdout, stderr or script\n");
	return -1;
}

int
sq_batch_output(const struct sq_cluster_cfg *cfg, const char *jobid,
		const char *what, int follow_it)
{
	struct sq_backend *b;
	struct sq_err err;
	struct sigaction sa;
	const char *note;
	int rc;

	if (sq_batch_output_check(what) == -1)
		return 2;
	sq_err_clear(&err);
	b = sq_backend_open(cfg, &err);
	if (b == NULL) {
		fprintf(stderr, "squall: %s: %s\n", cfg->name, err.msg);
		return err.code == SQ_ERR_USAGE ? 2 : 1;
	}
	note = sq_backend_file_note(b, what);
	if (note != NULL) {
		fprintf(stderr, "squall: job %s: %s\n", jobid, note);
		sq_backend_close(b);
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	if (strcmp(what, "script") == 0)
		rc = print_script(b, jobid);
	else
		rc = print_file(b, jobid, strcmp(what, "stderr") == 0,
				follow_it);
	sq_backend_close(b);
	return rc;
}
