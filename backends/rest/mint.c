/*
 * mint.c - a JWT for slurmrestd minted on the cluster itself: when a rest
 * cluster also names a login node (host=, the ssh companion) and no token
 * file or SLURM_JWT is given, `scontrol token lifespan=N` runs there over
 * the ssh transport, and runs again before the token's exp. The token
 * travels only on the ssh channel's stdout: never in an argv, a log, the
 * --record directory (the transport is called directly, not through the
 * recording CLI layer) or an error message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "backends/rest/rest.h"

#if SQ_HAVE_SSH
#include "backends/cli/ssh.h"

int
sq_rest_mint_open(struct sq_rest_auth *a, const struct sq_cluster_cfg *cfg,
		  struct sq_err *err)
{
	a->mint = sq_transport_ssh_new(cfg, err);
	if (a->mint == NULL)
		return -1;
	snprintf(a->source, sizeof(a->source),
		 "scontrol token on %.200s over ssh", cfg->host);
	return sq_rest_mint(a, err);
}

int
sq_rest_mint(struct sq_rest_auth *a, struct sq_err *err)
{
	char life[32];
	const char *argv[] = { "scontrol", "token", life, NULL };
	struct sq_buf out, eb;
	char *tok = NULL;
	size_t tlen = 0;
	int status = 0, rc = -1;
	const char *p, *line;

	snprintf(life, sizeof(life), "lifespan=%d", SQ_REST_MINT_LIFESPAN);
	sq_buf_init(&out, 64 * 1024);
	sq_buf_init(&eb, 4096);
	if (sq_transport_ssh.run(a->mint, argv, &out, &eb, &status, err) == -1)
		goto done;
	if (status != 0) {
		/* stderr is Slurm's message, never the token */
		sq_err_set(err, SQ_ERR_DENIED,
			   "scontrol token over ssh failed (status %d): %.200s",
			   status, sq_buf_str(&eb));
		goto done;
	}
	/* the line SLURM_JWT=<token> */
	for (line = sq_buf_str(&out); line != NULL && *line != '\0';
	     line = (p = strchr(line, '\n')) ? p + 1 : NULL) {
		if (strncmp(line, "SLURM_JWT=", 10) == 0)
			break;
	}
	if (line == NULL || *line == '\0') {
		sq_err_set(err, SQ_ERR_PARSE,
			   "scontrol token printed no SLURM_JWT line");
		goto done;
	}
	if (sq_rest_token_text(line, strcspn(line, "\n"), "scontrol token",
			       &tok, &tlen, err) == -1)
		goto done;
	if (a->token != NULL)
		sq_rest_secret_free(a->token, a->token_len + 1);
	a->token = tok;
	a->token_len = tlen;
	a->exp = -1;
	{
		char sun[64];

		(void)sq_rest_jwt_claims(a->token, a->token_len, &a->exp, sun,
					 sizeof(sun));
	}
	rc = 0;
done:
	/* wipe the copy in the output buffer */
	if (out.data != NULL)
		memset(out.data, 0, out.cap);
	sq_buf_free(&out);
	sq_buf_free(&eb);
	return rc;
}

void
sq_rest_mint_close(struct sq_rest_auth *a)
{
	if (a->mint != NULL)
		sq_transport_ssh.close(a->mint);
	a->mint = NULL;
}

#else

int
sq_rest_mint_open(struct sq_rest_auth *a, const struct sq_cluster_cfg *cfg,
		  struct sq_err *err)
{
	(void)a;
	(void)cfg;
	return sq_err_set(err, SQ_ERR_UNSUPPORTED,
			  "minting a token over ssh needs the ssh backend "
			  "(built --without-ssh)");
}

int
sq_rest_mint(struct sq_rest_auth *a, struct sq_err *err)
{
	(void)a;
	return sq_err_set(err, SQ_ERR_UNSUPPORTED, "no ssh backend");
}

void
sq_rest_mint_close(struct sq_rest_auth *a)
{
	a->mint = NULL;
}

#endif
