/*
 * metrics.c - slurmctld's OpenMetrics endpoint for the local and replay
 * backends (metrics.h). The first call of a connection finds the
 * address: from the slurm.conf the commands read ($SLURM_CONF, else
 * /etc/slurm/slurm.conf: no RPC), else `scontrol show config` (a
 * configless node), unless SQUALL_METRICS=http://host:port names it;
 * then each call is one HTTP GET with
 * no token (nothing secret goes over the plain HTTP slurmctld speaks).
 * What the answer means, from slurmctld's src/slurmctld/http.c: 200 with
 * a body is served; 200 with an empty body is a slurmctld without
 * MetricsType; 401/403 is MetricsAuthUsers or PrivateData wanting a JWT;
 * 303 is a standby pointing at the primary (not followed: the commands
 * reach the primary anyway). A refusal is kept for the connection, so
 * the commands are used without asking again. A --record run keeps each
 * answer as a "GET path" entry of the recording, with the HTTP status as
 * its exit status, which the replay backend serves back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/cli/cli.h"
#include "backends/cli/metrics.h"
#include "config.h"
#if SQ_HAVE_REST
#include "backends/http/http.h"
#endif

struct sq_cli_metrics {
	int refused;   /* 1: not asked again on this connection */
	char why[200]; /* why it is not used */
	char url[300]; /* "http://addr:port" */
#if SQ_HAVE_REST
	struct sq_http *http;
#endif
};

void
sq_cli_metrics_free(struct sq_cli_metrics *m)
{
	if (m == NULL)
		return;
#if SQ_HAVE_REST
	sq_http_close(m->http);
#endif
	free(m);
}

/* The value of "Key = value" in scontrol show config text, into v. */
static int
config_value(const char *text, const char *key, char *v, size_t n)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (*p != '\0') {
		size_t l = strcspn(p, "\n");

		if (l > kl && strncmp(p, key, kl) == 0 &&
		    (p[kl] == ' ' || p[kl] == '=')) {
			const char *e = p + l, *s = memchr(p, '=', l);

			if (s == NULL)
				return -1;
			for (s++; s < e && *s == ' '; s++)
				;
			while (e > s && (e[-1] == ' ' || e[-1] == '\r'))
				e--;
			if ((size_t)(e - s) >= n)
				return -1;
			memcpy(v, s, (size_t)(e - s));
			v[e - s] = '\0';
			return 0;
		}
		p += l;
		if (*p == '\n')
			p++;
	}
	return -1;
}

static int
addr_ok(const char *a)
{
	if (*a == '\0')
		return 0;
	for (; *a != '\0'; a++)
		if (strchr(
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789.-:",
			*a) == NULL)
			return 0;
	return 1;
}

int
sq_cli_metrics_url(const char *config, char *url, size_t n, char *why,
		   size_t wn)
{
	char host[256], port[64], addr[256];
	const char *o, *c;
	long p;
	char *end;

	if (config_value(config, "SlurmctldHost[0]", host, sizeof(host)) ==
		-1 ||
	    config_value(config, "SlurmctldPort", port, sizeof(port)) == -1) {
		snprintf(why, wn, "no SlurmctldHost or SlurmctldPort");
		return -1;
	}
	/* "host(addr)" or "host" */
	o = strchr(host, '(');
	c = o != NULL ? strchr(o, ')') : NULL;
	if (o != NULL && c != NULL && c > o + 1)
		snprintf(addr, sizeof(addr), "%.*s", (int)(c - o - 1), o + 1);
	else
		snprintf(addr, sizeof(addr), "%.*s", (int)strcspn(host, "("),
			 host);
	/* a floating address for the controllers, when set */
	if (config_value(config, "SlurmctldAddr", host, sizeof(host)) == 0 &&
	    strcmp(host, "(null)") != 0)
		snprintf(addr, sizeof(addr), "%s", host);
	p = strtol(port, &end, 10);
	if (!addr_ok(addr) || end == port || p <= 0 || p > 65535) {
		snprintf(why, wn, "cannot read the controller's address");
		return -1;
	}
	snprintf(url, n,
		 strchr(addr, ':') != NULL ? "http://[%s]:%ld"
					   : "http://%s:%ld",
		 addr, p);
	return 0;
}

/* The address from the local slurm.conf (the first SlurmctldHost, its
 * SlurmctldPort, 6817 when unset, SlurmctldAddr) into m->url: 0, or -1
 * when it cannot be read there. */
static int
conf_url(struct sq_cli_metrics *m)
{
	static const char *const keys[] = { "SlurmctldHost[0]", "SlurmctldPort",
					    "SlurmctldAddr" };
	const char *path = getenv("SLURM_CONF");
	char line[1024], val[3][300] = { "", "6817", "" }, text[1100];
	int have[3] = { 0, 0, 0 };
	FILE *f;

	f = fopen(path != NULL && path[0] != '\0' ? path
						  : "/etc/slurm/slurm.conf",
		  "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		size_t k;

		line[strcspn(line, "#\r\n")] = '\0';
		for (k = 0; k < 3; k++) {
			size_t kl = strcspn(keys[k], "[");

			if (have[k] || strncasecmp(line, keys[k], kl) != 0 ||
			    line[kl] != '=')
				continue;
			snprintf(val[k], sizeof(val[k]), "%.*s",
				 (int)strcspn(line + kl + 1, " \t"),
				 line + kl + 1);
			have[k] = 1;
		}
	}
	fclose(f);
	if (!have[0])
		return -1;
	snprintf(text, sizeof(text), "%s = %s\n%s = %s\n%s = %s\n", keys[0],
		 val[0], keys[1], val[1], keys[2], have[2] ? val[2] : "(null)");
	return sq_cli_metrics_url(text, m->url, sizeof(m->url), m->why,
				  sizeof(m->why));
}

/* SQUALL_METRICS=http://host:port: the endpoint at that address (a
 * tunnel to the controller; the integration test's stand-in standby)
 * instead of slurm.conf's, into m->url: 0, or -1 when not set so. */
static int
env_url(struct sq_cli_metrics *m)
{
	const char *env = getenv("SQUALL_METRICS"), *a;

	if (env == NULL || strncmp(env, "http://", 7) != 0)
		return -1;
	a = env + 7;
	if (strlen(a) >= sizeof(m->url) - 8 || !addr_ok(a) ||
	    strchr(a, ':') == NULL) {
		m->refused = 1;
		snprintf(m->why, sizeof(m->why),
			 "SQUALL_METRICS: not http://host:port");
		return 0;
	}
	snprintf(m->url, sizeof(m->url), "http://%s", a);
	return 0;
}

/* The connection's state, made at the first call: the release, then
 * the address (not for replay, need_addr 0: the recording answers).
 * NULL on ENOMEM (err set). */
static struct sq_cli_metrics *
state(struct sq_cli *cli, int need_addr, struct sq_err *err)
{
	static const char *const argv[] = { "scontrol", "show", "config",
					    NULL };
	struct sq_cli_metrics *m = cli->metrics;
	struct sq_buf out;
	struct sq_err e;

	if (m != NULL)
		return m;
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	cli->metrics = m;
	if (cli->major < 25 || (cli->major == 25 && cli->minor < 11)) {
		m->refused = 1;
		snprintf(m->why, sizeof(m->why),
			 "Slurm %d.%02d has none (25.11+)", cli->major,
			 cli->minor);
		return m;
	}
	if (!need_addr || env_url(m) == 0 || conf_url(m) == 0)
		return m;
	sq_buf_init(&out, SQ_CLI_OUT_LIMIT);
	sq_err_clear(&e);
	if (sq_cli_run(cli, argv, &out, &e) == -1) {
		m->refused = 1;
		snprintf(m->why, sizeof(m->why), "no address: %.150s", e.msg);
	} else if (sq_cli_metrics_url(sq_buf_str(&out), m->url, sizeof(m->url),
				      m->why, sizeof(m->why)) == -1) {
		m->refused = 1;
	}
	sq_buf_free(&out);
	return m;
}

/* What an HTTP status says; 0 when the body is the metrics. */
static int
judge(struct sq_cli_metrics *m, long status, const struct sq_buf *out,
      struct sq_err *err)
{
	if (status == 200 && out->len > 0)
		return 0;
	if (status == 200) {
		m->refused = 1;
		snprintf(m->why, sizeof(m->why),
			 "not served (no MetricsType in slurm.conf)");
	} else if (status == 401 || status == 403) {
		m->refused = 1;
		snprintf(m->why, sizeof(m->why),
			 "refused (HTTP %ld: MetricsAuthUsers or PrivateData "
			 "want a JWT)",
			 status);
	} else if (status == 303) {
		snprintf(m->why, sizeof(m->why),
			 "a standby controller (HTTP 303 to the primary)");
	} else {
		if (status == 404)
			m->refused = 1;
		snprintf(m->why, sizeof(m->why), "not served (HTTP %ld)",
			 status);
	}
	return sq_err_set(err, SQ_ERR_UNSUPPORTED, "%s", m->why);
}

/* A --record run keeps the answer as "GET path" with the status. */
static void
record(struct sq_cli *cli, const char *path, long status,
       const struct sq_buf *out)
{
	const char *argv[] = { "GET", path, NULL };

	if (cli->b != NULL && cli->b->cfg.record_dir[0] != '\0')
		sq_cli_record(cli, argv, (int)status, out);
}

int
sq_cli_metrics_local(struct sq_backend *b, const char *path, struct sq_buf *out,
		     struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	struct sq_cli_metrics *m = state(cli, 1, err);
	long status = 0;

	if (m == NULL)
		return -1;
	if (m->refused)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED, "%s", m->why);
#if SQ_HAVE_REST
	if (m->http == NULL) {
		/* plain HTTP to any host: no token is sent */
		m->http = sq_http_open(m->url, 1, 10, err);
		if (m->http == NULL) {
			m->refused = 1;
			snprintf(m->why, sizeof(m->why), "%.190s", err->msg);
			return -1;
		}
	}
	if (sq_http_request(m->http, "GET", path, NULL, NULL, out, &status,
			    err) == -1) {
		m->refused = 1;
		snprintf(m->why, sizeof(m->why), "unreachable: %.170s",
			 err->msg);
		return -1;
	}
	record(cli, path, status, out);
	return judge(m, status, out, err);
#else
	(void)status;
	(void)path;
	(void)out;
	m->refused = 1;
	snprintf(m->why, sizeof(m->why), "built without libcurl");
	return sq_err_set(err, SQ_ERR_UNSUPPORTED, "%s", m->why);
#endif
}

int
sq_cli_metrics_replay(struct sq_backend *b, const char *path,
		      struct sq_buf *out, struct sq_err *err)
{
	struct sq_cli *cli = b->priv;
	struct sq_cli_metrics *m = state(cli, 0, err);
	const char *argv[] = { "GET", path, NULL };
	struct sq_buf eb;
	int status = 0, rc;

	if (m == NULL)
		return -1;
	if (m->refused)
		return sq_err_set(err, SQ_ERR_UNSUPPORTED, "%s", m->why);
	sq_buf_init(&eb, SQ_CLI_ERR_LIMIT);
	rc = cli->tr->run(cli->tr_ctx, argv, out, &eb, &status, err);
	sq_buf_free(&eb);
	if (rc == -1) {
		m->refused = 1;
		snprintf(m->why, sizeof(m->why), "not in the recording");
		return -1;
	}
	return judge(m, status, out, err);
}
