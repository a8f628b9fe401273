/*
 * fileread.c - a job's files through the CLI backends: its record
 * (`scontrol show job -o`), its batch script (`scontrol write batch_script
 * ID -`), and the size and a region of an output file: local reads it
 * with open/pread; ssh runs fixed commands (stat, dd) on the login node
 * with the path as one validated, single-quoted argument (sq_shell_join).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/cli/cli.h"
#include "backends/cli/fileread.h"
#include "core/base/validate.h"

/* Paths we accept: absolute, no control character, bounded. */
static int
check_path(const char *path, struct sq_err *err)
{
	const unsigned char *p = (const unsigned char *)path;

	if (path[0] != '/' || strlen(path) >= SQ_OUTPATH_MAX)
		return sq_err_set(err, SQ_ERR_DENIED,
				  "not an absolute path: '%.60s'", path);
	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return sq_err_set(err, SQ_ERR_DENIED,
					  "refusing a path with a control "
					  "character");
	}
	return 0;
}

int
sq_cli_job_files(struct sq_backend *b, const char *jobid,
		 struct sq_jobfiles *out, struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	char id[64];
	const char *const argv[] = {
		"scontrol", "show", "job", "-o", id, NULL
	};
	struct sq_buf o;
	int rc;

	if (sq_valid_jobid(jobid, id, sizeof(id), err) == -1)
		return -1;
	sq_buf_init(&o, 1024 * 1024);
	rc = sq_cli_run(cli, argv, &o, err);
	if (rc == 0)
		rc = sq_jobfiles_parse(sq_buf_str(&o), out, err);
	sq_buf_free(&o);
	return rc;
}

int
sq_cli_job_script(struct sq_backend *b, const char *jobid, struct sq_buf *out,
		  struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	char id[64];
	const char *const argv[] = { "scontrol", "write", "batch_script",
				     id,         "-",     NULL };
	struct sq_buf o, e;
	int rc, status = 0;
	unsigned ctld, dbd;

	if (sq_valid_jobid(jobid, id, sizeof(id), err) == -1)
		return -1;
	sq_buf_init(&o, out->limit);
	sq_buf_init(&e, SQ_CLI_ERR_LIMIT);
	sq_cli_cost(argv, &ctld, &dbd);
	b->queries += ctld;
	rc = cli->tr->run(cli->tr_ctx, argv, &o, &e, &status, err);
	/* 22.05 exits 0 with the refusal on stderr ("job script retrieval
	 * failed: Invalid user id"): no script and words on stderr fail */
	if (rc == 0 && (status != 0 || (o.len == 0 && e.len > 0))) {
		const char *m = sq_buf_str(&e);

		while (*m == '\n' || *m == ' ')
			m++;
		rc = sq_err_set(
		    err, SQ_ERR_COMMAND, "scontrol: %.*s",
		    (int)(strcspn(m, "\n") > 300 ? 300 : strcspn(m, "\n")),
		    *m ? m : "exited with an error and no message");
	} else if (rc == 0 && o.truncated) {
		rc = sq_err_set(err, SQ_ERR_COMMAND, "the script is too big");
	}
	if (rc == 0 && o.len > 0 && sq_buf_append(out, o.data, o.len) == -1)
		rc = sq_err_set(err, SQ_ERR_SYSTEM, "the script is too big");
	sq_buf_free(&o);
	sq_buf_free(&e);
	return rc;
}

/* --- local: open and pread, never a command ---------------------------- */

static int
open_regular(const char *path, struct stat *st, struct sq_err *err)
{
	int fd;

	if (check_path(path, err) == -1)
		return -1;
	/* O_NONBLOCK: a FIFO in the job's place must not hang the worker */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd == -1)
		return sq_err_set(err, SQ_ERR_COMMAND, "%s: %s", path,
				  strerror(errno));
	if (fstat(fd, st) == -1 || !S_ISREG(st->st_mode)) {
		close(fd);
		return sq_err_set(err, SQ_ERR_DENIED, "%s: not a regular file",
				  path);
	}
	return fd;
}

int
sq_local_file_stat(struct sq_backend *b, const char *path, int64_t *size,
		   struct sq_err *err)
{
	struct stat st;
	int fd = open_regular(path, &st, err);

	if (fd == -1)
		return -1;
	*size = (int64_t)st.st_size;
	close(fd);
	return 0;
}

int
sq_local_file_read(struct sq_backend *b, const char *path, int64_t off,
		   size_t len, struct sq_buf *out, struct sq_err *err)
{
	struct stat st;
	char chunk[65536];
	int fd = open_regular(path, &st, err), rc = 0;

	if (fd == -1)
		return -1;
	while (len > 0) {
		size_t want = len < sizeof(chunk) ? len : sizeof(chunk);
		ssize_t got = pread(fd, chunk, want, (off_t)off);

		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1) {
			rc = sq_err_set(err, SQ_ERR_COMMAND, "%s: %s", path,
					strerror(errno));
			break;
		}
		if (got == 0)
			break;
		if (sq_buf_append(out, chunk, (size_t)got) == -1) {
			rc = sq_err_set(err, SQ_ERR_SYSTEM,
					"%s: more than the buffer holds", path);
			break;
		}
		off += got;
		len -= (size_t)got;
	}
	close(fd);
	return rc;
}

/* --- ssh: fixed commands on the login node ----------------------------- */

/* Run argv (its path argument validated) and append its stdout to out. */
static int
run_into(struct sq_backend *b, const char *const argv[], size_t limit,
	 struct sq_buf *out, struct sq_err *err)
{
	struct sq_buf o;
	int rc;

	sq_buf_init(&o, limit);
	rc = sq_cli_run(b->priv, argv, &o, err);
	if (rc == 0 && o.len > 0 && sq_buf_append(out, o.data, o.len) == -1)
		rc = sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	sq_buf_free(&o);
	return rc;
}

int
sq_remote_file_stat(struct sq_backend *b, const char *path, int64_t *size,
		    struct sq_err *err)
{
	/* GNU stat: -L follows a link, "%s %F" the size and the type, --
	 * ends the options */
	const char *const argv[] = {
		"/usr/bin/stat", "-L", "-c", "%s %F", "--", path, NULL
	};
	struct sq_buf o;
	char *end;
	int rc;

	if (check_path(path, err) == -1)
		return -1;
	sq_buf_init(&o, 0);
	rc = run_into(b, argv, 4096, &o, err);
	if (rc == 0) {
		long long v = strtoll(sq_buf_str(&o), &end, 10);

		if (end == sq_buf_str(&o) || v < 0 || *end != ' ')
			rc = sq_err_set(err, SQ_ERR_PARSE,
					"stat: unexpected output");
		else if (strncmp(end + 1, "regular", 7) != 0)
			rc = sq_err_set(err, SQ_ERR_DENIED,
					"%s: not a regular file", path);
		else
			*size = v;
	}
	sq_buf_free(&o);
	return rc;
}

int
sq_remote_file_read(struct sq_backend *b, const char *path, int64_t off,
		    size_t len, struct sq_buf *out, struct sq_err *err)
{
	char ifarg[SQ_OUTPATH_MAX + 8], skip[40], count[40];
	const char *const argv[] = {
		"/bin/dd",     ifarg, "iflag=skip_bytes,count_bytes",
		skip,          count, "bs=65536",
		"status=none", NULL
	};

	if (check_path(path, err) == -1)
		return -1;
	if (off < 0)
		off = 0;
	snprintf(ifarg, sizeof(ifarg), "if=%s", path);
	snprintf(skip, sizeof(skip), "skip=%" PRId64, off);
	snprintf(count, sizeof(count), "count=%zu", len);
	return run_into(b, argv, len + 1, out, err);
}
