/*
 * record.c - `squall --record DIR`: keep the raw output of every Slurm
 * command a CLI backend runs, so a session can be replayed without the
 * cluster (backends/replay/). Only argv and stdout are written: a CLI
 * argv never holds a secret. The directory and files are private (0700,
 * 0600).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/cli/cli.h"

/* mkdir -p with mode 0700 for the components we create. */
static int
mkdirs(const char *dir)
{
	char p[512];
	size_t i, n = strlen(dir);

	if (n == 0 || n >= sizeof(p))
		return -1;
	memcpy(p, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0700) == -1 && errno != EEXIST)
			return -1;
		p[i] = i < n ? '/' : '\0';
	}
	return 0;
}

static int
write_file(const char *path, const void *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const char *p = data;

	if (fd == -1)
		return -1;
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return close(fd);
}

/* The highest sequence number already in dir's index (a second session
 * recording into the same directory continues after it). */
static unsigned
last_seq(const char *dir)
{
	char path[600], line[256];
	unsigned seq = 0, v;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	fp = fopen(path, "r");
	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "%u", &v) == 1 && v > seq)
			seq = v;
	}
	fclose(fp);
	return seq;
}

void
sq_cli_record(struct sq_cli *cli, const char *const argv[], int status,
	      const struct sq_buf *out)
{
	const char *dir = cli->b->cfg.record_dir;
	const char *base = strrchr(argv[0], '/');
	char file[64], path[700];
	FILE *idx;
	unsigned seq;
	size_t i;

	if (mkdirs(dir) == -1)
		return;
	if (cli->record_seq == 0)
		cli->record_seq = last_seq(dir);
	seq = ++cli->record_seq;
	base = base != NULL ? base + 1 : argv[0];
	snprintf(file, sizeof(file), "%06u-%.40s.out", seq, base);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (write_file(path, sq_buf_str(out), out->len) == -1)
		return;
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	idx = fopen(path, "a");
	if (idx == NULL)
		return;
	fchmod(fileno(idx), 0600);
	fprintf(idx, "%06u\t%d\t%s", seq, status, file);
	for (i = 0; argv[i] != NULL; i++)
		fprintf(idx, "\t%s", argv[i]);
	fputc('\n', idx);
	fclose(idx);
}
