/*
 * live.c - live usage of a running job with sstat (local and ssh
 * backends): `sstat -a -n -P -j ID -o JobID,AveCPU,...`, one row per
 * running step. sstat exits 0 even when slurmd refuses ("Invalid user
 * id" for another user's job), so stderr is read to tell "not permitted"
 * from "no running step".
 */
#include <stdio.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/live.h"
#include "core/base/buf.h"
#include "core/base/validate.h"

#define NFIELDS 10

static void
put(char *d, size_t n, const char *s)
{
	size_t l = strlen(s);

	if (l >= n)
		l = n - 1;
	memcpy(d, s, l);
	d[l] = '\0';
}

int
sq_cli_parse_sstat(char *text, struct sq_live *out, struct sq_err *err)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[NFIELDS], *p = line;
		struct sq_live_step *s;
		int k;

		if (line[strspn(line, " \r")] == '\0')
			continue;
		for (k = 0; k < NFIELDS; k++) {
			f[k] = p;
			p = strchr(p, '|');
			if (p == NULL)
				break;
			*p++ = '\0';
		}
		if (k != NFIELDS - 1 || p != NULL)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sstat: %d fields where %d were "
					  "asked for",
					  k + 1 + (p != NULL), NFIELDS);
		f[NFIELDS - 1][strcspn(f[NFIELDS - 1], "\r")] = '\0';
		if (out->n >= SQ_LIVE_MAX_STEPS)
			continue;
		s = &out->step[out->n++];
		put(s->step, sizeof(s->step), f[0]);
		put(s->ave_cpu, sizeof(s->ave_cpu), f[1]);
		put(s->max_rss, sizeof(s->max_rss), f[2]);
		put(s->max_rss_node, sizeof(s->max_rss_node), f[3]);
		put(s->ave_rss, sizeof(s->ave_rss), f[4]);
		put(s->max_vmsize, sizeof(s->max_vmsize), f[5]);
		put(s->ntasks, sizeof(s->ntasks), f[6]);
		put(s->min_cpu, sizeof(s->min_cpu), f[7]);
		put(s->max_disk_read, sizeof(s->max_disk_read), f[8]);
		put(s->max_disk_write, sizeof(s->max_disk_write), f[9]);
	}
	return 0;
}

void
sq_cli_sstat_note(const char *e, char *note, size_t n)
{
	size_t l;

	while (*e == '\n' || *e == ' ')
		e++;
	if (strstr(e, "Invalid user id") != NULL ||
	    strstr(e, "ermission denied") != NULL ||
	    strstr(e, "Access/permission") != NULL) {
		snprintf(note, n,
			 "sstat: permission denied (only the job's user or "
			 "an administrator sees its live usage)");
		return;
	}
	if (*e == '\0') {
		snprintf(note, n,
			 "sstat: no step of this job reports usage (none "
			 "running yet, or slurmd has no data for it)");
		return;
	}
	l = strcspn(e, "\n");
	snprintf(note, n, "%.*s", (int)(l > 200 ? 200 : l), e);
}

void
sq_cli_parse_job_gres(const char *text, char *out, size_t n)
{
	const char *p = text;
	size_t o = 0;

	if (n == 0)
		return;
	out[0] = '\0';
	while ((p = strstr(p, "Nodes=")) != NULL) {
		const char *eol = p + strcspn(p, "\n");
		const char *g = strstr(p, " GRES=");
		size_t nl = strcspn(p + 6, " \n");
		int w;

		/* the per-node line only: "Nodes=n3 CPU_IDs=0 ... GRES=..." */
		if ((p > text && p[-1] != ' ') || g == NULL || g > eol) {
			p = eol;
			continue;
		}
		g += 6;
		if (strcspn(g, " \n") == 0) { /* a node without GRES */
			p = eol;
			continue;
		}
		w = snprintf(out + o, n - o, "%s%.*s %.*s", o ? "; " : "",
			     (int)nl, p + 6, (int)strcspn(g, " \n"), g);
		if (w < 0 || (size_t)w >= n - o) {
			out[o] = '\0';
			return;
		}
		o += (size_t)w;
		p = eol;
	}
}

int
sq_cli_job_gres(struct sq_backend *b, const char *jobid, char *out, size_t n,
		struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	char id[64];
	const char *const argv[] = {
		"scontrol", "-d", "show", "job", id, NULL
	};
	struct sq_buf o;
	int rc;

	if (n > 0)
		out[0] = '\0';
	if (sq_valid_jobid(jobid, id, sizeof(id), err) == -1)
		return -1;
	sq_buf_init(&o, 256 * 1024);
	rc = sq_cli_run(cli, argv, &o, err);
	if (rc == 0 && o.data != NULL)
		sq_cli_parse_job_gres(o.data, out, n);
	sq_buf_free(&o);
	return rc;
}

int
sq_cli_job_live(struct sq_backend *b, const char *jobid, struct sq_live *out,
		struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	char id[64];
	const char *const argv[] = { "sstat", "-a", "-n", "-P",
				     "-j",    id,   "-o", sq_live_sstat_fields,
				     NULL };
	struct sq_buf o, e;
	int status = 0, rc = -1;
	unsigned ctld, dbd;

	memset(out, 0, sizeof(*out));
	if (sq_valid_jobid(jobid, id, sizeof(id), err) == -1)
		return -1;
	put(out->jobid, sizeof(out->jobid), id);
	sq_buf_init(&o, 4 * 1024 * 1024);
	sq_buf_init(&e, SQ_CLI_ERR_LIMIT);
	sq_cli_cost(argv, &ctld, &dbd);
	b->queries += ctld;
	b->dbd_queries += dbd;
	if (cli->tr->run(cli->tr_ctx, argv, &o, &e, &status, err) == -1)
		goto done;
	if (o.data != NULL && sq_cli_parse_sstat(o.data, out, err) == -1)
		goto done;
	if (out->n == 0)
		sq_cli_sstat_note(sq_buf_str(&e), out->note, sizeof(out->note));
	else if (status != 0)
		snprintf(out->note, sizeof(out->note),
			 "sstat exited with status %d", status);
	/* the GPUs it holds, by index, whether or not sstat answered
	 * (nothing when scontrol fails: the rest of the pane stands) */
	{
		struct sq_err e2;

		(void)sq_cli_job_gres(b, id, out->gpus, sizeof(out->gpus), &e2);
	}
	rc = 0;
done:
	sq_buf_free(&o);
	sq_buf_free(&e);
	return rc;
}
