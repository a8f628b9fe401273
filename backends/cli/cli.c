/*
 * cli.c - the CLI layer: running a command through the transport (the
 * environment, timeouts, recording), the format nonces and the version;
 * which command serves each kind is fetch.c.
 *
 * Every command is a fixed argv; no value from the user or the cluster is
 * ever pasted into a format string here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/random.h>
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define HAVE_SSE2 1
#endif

#include "backends/cli/cli.h"
#include "core/base/parse.h"
#include "core/base/util.h"

/*
 * squeue -O: "Field:|" means no padding and "|" as a suffix; Name goes
 * last so a job name containing "|" stays whole.
 */
const char sq_cli_squeue_fmt[] =
    "JobArrayID:|,JobID:|,ArrayJobID:|,ArrayTaskID:|,UserName:|,"
    "Account:|,Partition:|,QOS:|,StateCompact:|,State:|,PriorityLong:|,"
    "NumNodes:|,NumCPUs:|,tres-per-node:|,TimeLimit:|,TimeUsed:|,"
    "SubmitTime:|,StartTime:|,NodeList:|,RestartCnt:|,Reason:|,Name:";

int
sq_cli_nonce_new(char *out, struct sq_err *err)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char r[8];
	size_t i;

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return sq_err_set(err, SQ_ERR_SYSTEM,
				  "no random bytes for the output nonce");
	out[0] = '|';
	memcpy(out + 1, SQ_CLI_NONCE_PREFIX, 3);
	for (i = 0; i < sizeof(r); i++) {
		out[4 + 2 * i] = hex[r[i] >> 4];
		out[5 + 2 * i] = hex[r[i] & 15];
	}
	out[SQ_CLI_NONCE_LEN + 1] = '|';
	out[SQ_CLI_NONCE_LEN + 2] = '\0';
	return 0;
}

int
sq_cli_fmt_nonce(const char *base, char *fmt, size_t n, struct sq_err *err)
{
	const char *rest = strchr(base, ',');
	char nonce[SQ_CLI_NONCE_LEN + 3];
	int len;

	if (rest == NULL || rest - base < 2 || rest[-2] != ':' ||
	    rest[-1] != '|')
		return sq_err_set(err, SQ_ERR_SYSTEM,
				  "squeue format without a first field");
	if (sq_cli_nonce_new(nonce, err) == -1)
		return -1;
	/* the first field is "Name:|": its suffix becomes |NONCE| */
	len = snprintf(fmt, n, "%.*s%s%s", (int)(rest - base - 1), base, nonce,
		       rest);
	if (len < 0 || (size_t)len >= n)
		return sq_err_set(err, SQ_ERR_SYSTEM, "squeue format too long");
	return 0;
}

int
sq_cli_squeue_fmt_nonce(char *fmt, size_t n, struct sq_err *err)
{
	return sq_cli_fmt_nonce(sq_cli_squeue_fmt, fmt, n, err);
}

static int
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* "|sqn<16 hex>|" at p? */
static int
nonce_at(const char *p)
{
	int i;

	if (p[0] != '|' || strncmp(p + 1, SQ_CLI_NONCE_PREFIX, 3) != 0)
		return 0;
	for (i = 4; i <= SQ_CLI_NONCE_LEN; i++)
		if (!is_hex(p[i]))
			return 0;
	return p[SQ_CLI_NONCE_LEN + 1] == '|';
}

int
sq_cli_nonce_line(char *line, char *nonce, int first)
{
	char *p = strchr(line, '|');

	if (first && p != NULL && nonce_at(p))
		memcpy(nonce, p, SQ_CLI_NONCE_LEN + 2);
	if (nonce[0] == '\0')
		return 0;
	if (p == NULL || strncmp(p, nonce, SQ_CLI_NONCE_LEN + 2) != 0)
		return -1;
	/* "12|sqn...|12|..." -> "12|12|..." */
	memmove(p, p + SQ_CLI_NONCE_LEN + 1,
		strlen(p + SQ_CLI_NONCE_LEN + 1) + 1);
	return 1;
}

void
sq_cli_nonce_mask(char *s)
{
	char *p = s;

	while ((p = strstr(p, "|" SQ_CLI_NONCE_PREFIX)) != NULL) {
		if (nonce_at(p))
			memmove(p + 1, p + SQ_CLI_NONCE_LEN + 2,
				strlen(p + SQ_CLI_NONCE_LEN + 2) + 1);
		p++;
	}
}

int
sq_cli_delim_learn(const char *line, char *delim)
{
	const char *p = strchr(line, '|');

	if (p != NULL && p != line && nonce_at(p)) {
		memcpy(delim, p, SQ_CLI_NONCE_LEN + 2);
		delim[SQ_CLI_NONCE_LEN + 2] = '\0';
		return 1;
	}
	strcpy(delim, "|");
	return 0;
}

/* strstr(p, delim) (dl its length, 2 or more): its first byte found
 * with strchr, then the rest; strstr costs more on a big accounting
 * answer's millions of fields. */
static char *
find_delim(char *p, const char *delim, size_t dl)
{
	char *d;

	for (d = strchr(p, delim[0]); d != NULL; d = strchr(d + 1, delim[0])) {
		size_t i;

		/* byte by byte: the line's NUL ends it (no byte read past) */
		for (i = 1; i < dl && d[i] == delim[i]; i++)
			;
		if (i == dl)
			return d;
	}
	return NULL;
}

int
sq_cli_split_delim(char *line, const char *delim, char **f, int max)
{
	size_t dl = strlen(delim);
	char *p = line, *d;
	int n = 0;

	if (dl <= 1)
		return sq_split(line, dl == 1 ? delim[0] : '|', f, max);
	if (max <= 0)
		return 0;
	while (n < max - 1 && (d = find_delim(p, delim, dl)) != NULL) {
		*d = '\0';
		f[n++] = p;
		p = d + dl;
	}
	f[n++] = p;
	return n;
}

/* The first c in [q, end), sixteen bytes at a time; NULL if none. */
static char *
find_byte(char *q, const char *end, char c)
{
#ifdef HAVE_SSE2
	const __m128i cv = _mm_set1_epi8(c);

	for (; end - q >= 16; q += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(
		    _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)q), cv));

		if (m != 0)
			return q + __builtin_ctz(m);
	}
#endif
	for (; q < end; q++)
		if (*q == c)
			return q;
	return NULL;
}

/* The dl bytes at d are delim (dl: the nonce's, a constant the compiler
 * compares inline, or any other). */
static int
delim_at(const char *d, const char *delim, size_t dl)
{
	if (dl == SQ_CLI_NONCE_LEN + 2)
		return memcmp(d, delim, SQ_CLI_NONCE_LEN + 2) == 0;
	return memcmp(d, delim, dl) == 0;
}

int
sq_cli_split_len(char *line, size_t len, const char *delim, char **f,
		 size_t *fl, int max)
{
	size_t dl = strlen(delim);
	char *p = line, *q = line, *d;
	const char *end = line + len;
	int n = 0;

	if (max <= 0)
		return 0;
	if (dl == 0)
		delim = "|", dl = 1;
	while (n < max - 1 && (d = find_byte(q, end, delim[0])) != NULL) {
		if ((size_t)(end - d) < dl || !delim_at(d, delim, dl)) {
			q = d + 1;
			continue;
		}
		*d = '\0';
		f[n] = p;
		fl[n++] = (size_t)(d - p);
		p = q = d + dl;
	}
	f[n] = p;
	fl[n++] = (size_t)(end - p);
	return n;
}

/* sinfo -N: one line per node and partition; who set the reason and
 * when; Reason last. */
const char sq_cli_sinfo_fmt[] =
    "NodeList:|,StateLong:|,Partition:|,CPUsState:|,Memory:|,"
    "AllocMem:|,Gres:|,GresUsed:|,User:|,TimeStamp:|,Reason:";

/* sprio: id user partition priority site age fairshare jobsize
 * partition qos assoc nice tres (TRES last: it has commas) */
const char sq_cli_sprio_fmt[] = "%i|%u|%r|%Y|%S|%A|%F|%J|%P|%Q|%B|%N|%T";
/* sprio -n (what-if): id user partition priority site nice, six weighted
 * factors, the same six normalized, weighted and normalized TRES */
const char sq_cli_sprio_norm_fmt[] =
    "%i|%u|%r|%Y|%S|%N|%A|%F|%J|%P|%Q|%B|%a|%f|%j|%p|%q|%b|%T|%t";

int
sq_cli_run(struct sq_cli *cli, const char *const argv[], struct sq_buf *out,
	   struct sq_err *err)
{
	struct sq_buf eb;
	int rc;

	sq_buf_init(&eb, SQ_CLI_ERR_LIMIT);
	rc = sq_cli_run_err(cli, argv, out, &eb, err);
	sq_buf_free(&eb);
	return rc;
}

/* The one way a command runs: its cost counted, then argv through the
 * transport, with in on its stdin when stdin_too. The transport's rc (-1:
 * it could not run it); *status the exit status. */
static int
run_cmd(struct sq_cli *cli, const char *const argv[], int stdin_too,
	const char *in, size_t inlen, struct sq_buf *out, struct sq_buf *ebuf,
	int *status, struct sq_err *err)
{
	if (cli->b != NULL) {
		unsigned ctld, dbd;

		/* atomic: the nodes fetch runs two commands at once
		 * (fetch.c) */
		sq_cli_cost(argv, &ctld, &dbd);
		__atomic_add_fetch(&cli->b->queries, ctld, __ATOMIC_RELAXED);
		__atomic_add_fetch(&cli->b->dbd_queries, dbd, __ATOMIC_RELAXED);
	}
	*status = 0;
	if (stdin_too)
		return cli->tr->run_in(cli->tr_ctx, argv, in, inlen, out, ebuf,
				       status, err);
	return cli->tr->run(cli->tr_ctx, argv, out, ebuf, status, err);
}

/* A command that exited with status (not 0): -1, the status in
 * err->status, never read from text, and stderr's first line in its
 * message. */
static int
exit_err(const char *const argv[], int status, struct sq_buf *ebuf,
	 struct sq_err *err)
{
	char line[300];
	const char *e = sq_buf_str(ebuf);
	size_t n = strcspn(e, "\n");

	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, e, n);
	line[n] = '\0';
	sq_err_set(err, SQ_ERR_COMMAND, "%s exited with status %d%s%s", argv[0],
		   status, n ? ": " : "", line);
	if (err != NULL)
		err->status = status;
	return -1;
}

size_t
sq_cli_out_limit(const struct sq_cli *cli)
{
	if (cli == NULL || cli->b == NULL || cli->b->cfg.max_output <= 0)
		return SQ_CLI_OUT_LIMIT;
	return (size_t)cli->b->cfg.max_output * 1024 * 1024;
}

int
sq_cli_run_err(struct sq_cli *cli, const char *const argv[], struct sq_buf *out,
	       struct sq_buf *ebuf, struct sq_err *err)
{
	int status, rc;

	rc = run_cmd(cli, argv, 0, NULL, 0, out, ebuf, &status, err);
	if (rc == 0 && cli->b != NULL && cli->b->cfg.record_dir[0] != '\0')
		sq_cli_record(cli, argv, status, out);
	if (rc == 0 && status != 0) {
		rc = exit_err(argv, status, ebuf, err);
	} else if (rc == 0 && out->truncated) {
		sq_err_set(err, SQ_ERR_COMMAND,
			   "%s printed more than %zu bytes (set max-output, "
			   "in MiB, to read more)",
			   argv[0], out->limit);
		rc = -1;
	}
	return rc;
}

int
sq_cli_run_in(struct sq_cli *cli, const char *const argv[], const char *in,
	      size_t inlen, struct sq_buf *out, struct sq_err *err)
{
	struct sq_buf eb;
	int status, rc;

	if (cli->tr->run_in == NULL)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED,
				  "the %s transport cannot send a script",
				  cli->tr->name);
	sq_buf_init(&eb, SQ_CLI_ERR_LIMIT);
	rc = run_cmd(cli, argv, 1, in, inlen, out, &eb, &status, err);
	if (rc == 0 && status != 0)
		rc = exit_err(argv, status, &eb, err);
	sq_buf_free(&eb);
	return rc;
}

int
sq_cli_detect_version(struct sq_cli *cli, char *version, size_t n,
		      struct sq_err *err)
{
	static const char *const argv[] = { "sinfo", "-V", NULL };
	struct sq_buf out;
	int rc = -1;

	sq_buf_init(&out, 4096);
	if (sq_cli_run(cli, argv, &out, err) == -1)
		goto done;
	if (sq_parse_version(sq_buf_str(&out), version, n, &cli->major,
			     &cli->minor) == -1) {
		sq_err_set(err, SQ_ERR_PARSE,
			   "cannot read the Slurm version "
			   "from 'sinfo -V'");
		goto done;
	}
	rc = 0;
done:
	sq_buf_free(&out);
	return rc;
}

void
sq_cli_backend_close(struct sq_backend *b)
{
	struct sq_cli *cli = b->priv;

	if (cli == NULL)
		return;
	if (cli->tr_ctx != NULL)
		cli->tr->close(cli->tr_ctx);
	sq_history_incr_free(&cli->hist);
	sq_snapshot_unref(cli->gpuuse_prev);
	sq_cli_metrics_free(cli->metrics);
	free(cli);
	b->priv = NULL;
}

int
sq_cli_backend_open(struct sq_backend *b, const struct sq_cluster_cfg *cfg,
		    const struct sq_transport_ops *tr,
		    void *(*tr_new)(const struct sq_cluster_cfg *cfg,
				    struct sq_err *err),
		    struct sq_err *err)
{
	struct sq_cli *cli = calloc(1, sizeof(*cli));

	if (cli == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	b->priv = cli;
	cli->b = b;
	cli->tr = tr;
	cli->hist.enabled = 1;
	cli->tr_ctx = tr_new(cfg, err);
	if (cli->tr_ctx == NULL)
		return -1;
	return sq_cli_detect_version(cli, b->version, sizeof(b->version), err);
}
