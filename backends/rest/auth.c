/*
 * auth.c - credentials for slurmrestd: a JWT from a token file (regular,
 * owned by the user, mode 0600/0400) or from SLURM_JWT, the user name
 * sent beside it, and the token's expiry. The token is kept in one
 * buffer that is locked in memory when possible and wiped when freed; it
 * never appears in an error message, and this file prints nothing.
 *
 * Third source: a token minted with `scontrol token` over an ssh
 * companion of the same cluster (mint.c), renewed before its exp; a token
 * file is re-read before exp instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/rest/rest.h"
#include "core/base/validate.h"

void
sq_rest_secret_free(char *p, size_t len)
{
	volatile char *v = p;
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < len; i++)
		v[i] = 0;
	munlock(p, len);
	free(p);
}

/* A buffer for a secret, locked in memory when the system lets us. */
static char *
secret_alloc(size_t n)
{
	char *p = calloc(1, n);

	if (p != NULL)
		(void)mlock(p, n); /* best effort: RLIMIT_MEMLOCK may say no */
	return p;
}

/* JWTs are base64url parts joined by dots; nothing else may reach an
 * HTTP header (no blanks, no CR/LF, no ':'). */
static int
token_chars_ok(const char *t, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.' || c == '=' || c == '+' || c == '/' || c == '~'))
			return 0;
	}
	return 1;
}

/* Trim blanks and a "SLURM_JWT=" prefix in place: the token then starts
 * at buf + *off and is *n bytes long. */
static void
token_trim(const char *buf, size_t len, size_t *off, size_t *n)
{
	size_t a = 0, b = len;

	while (a < b && strchr(" \t\r\n", buf[a]) != NULL && buf[a] != '\0')
		a++;
	while (b > a && strchr(" \t\r\n", buf[b - 1]) != NULL &&
	       buf[b - 1] != '\0')
		b--;
	if (b - a > 10 && memcmp(buf + a, "SLURM_JWT=", 10) == 0)
		a += 10;
	*off = a;
	*n = b - a;
}

/* Copy a checked token into a new secret buffer. */
static int
token_keep(const char *src, size_t n, const char *what, char **tok, size_t *len,
	   struct sq_err *err)
{
	char *p;

	if (n == 0)
		return sq_err_set(err, SQ_ERR_DENIED, "%s holds no token",
				  what);
	if (n > SQ_REST_TOKEN_MAX)
		return sq_err_set(err, SQ_ERR_DENIED,
				  "%s: token longer than %d bytes", what,
				  SQ_REST_TOKEN_MAX);
	if (!token_chars_ok(src, n))
		return sq_err_set(err, SQ_ERR_DENIED,
				  "%s does not hold a JWT (characters other "
				  "than base64url and '.')",
				  what);
	p = secret_alloc(n + 1);
	if (p == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	memcpy(p, src, n);
	p[n] = '\0';
	*tok = p;
	*len = n;
	return 0;
}

int
sq_rest_token_text(const char *buf, size_t len, const char *what, char **tok,
		   size_t *tlen, struct sq_err *err)
{
	size_t off, n;

	token_trim(buf, len, &off, &n);
	return token_keep(buf + off, n, what, tok, tlen, err);
}

int
sq_rest_token_file(const char *path, uid_t uid, char **tok, size_t *len,
		   struct sq_err *err)
{
	struct stat st;
	char *buf = NULL, what[600];
	size_t got = 0, off, n;
	int fd, rc = -1;

	*tok = NULL;
	*len = 0;
	snprintf(what, sizeof(what), "token file %s", path);
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return sq_err_set(err, SQ_ERR_SYSTEM, "cannot open %s: %s",
				  what, strerror(errno));
	if (fstat(fd, &st) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "cannot stat %s: %s", what,
			   strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		sq_err_set(err, SQ_ERR_DENIED, "%s is not a regular file",
			   what);
		goto out;
	}
	if (st.st_uid != uid) {
		sq_err_set(err, SQ_ERR_DENIED,
			   "refusing %s: it is owned by uid %lu, not by you "
			   "(uid %lu)",
			   what, (unsigned long)st.st_uid, (unsigned long)uid);
		goto out;
	}
	if ((st.st_mode & 077) != 0) {
		sq_err_set(err, SQ_ERR_DENIED,
			   "refusing %s: mode %04o lets others read it; it "
			   "must be 0600 (chmod 600 %s)",
			   what, (unsigned)(st.st_mode & 07777), path);
		goto out;
	}
	if (st.st_size > SQ_REST_TOKEN_MAX + 64) {
		sq_err_set(err, SQ_ERR_DENIED, "%s is too large for a token",
			   what);
		goto out;
	}
	buf = secret_alloc(SQ_REST_TOKEN_MAX + 65);
	if (buf == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto out;
	}
	for (;;) {
		ssize_t r = read(fd, buf + got, SQ_REST_TOKEN_MAX + 64 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			sq_err_set(err, SQ_ERR_SYSTEM, "cannot read %s: %s",
				   what, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		got += (size_t)r;
		if (got >= SQ_REST_TOKEN_MAX + 64) {
			sq_err_set(err, SQ_ERR_DENIED,
				   "%s is too large for a token", what);
			goto out;
		}
	}
	token_trim(buf, got, &off, &n);
	rc = token_keep(buf + off, n, what, tok, len, err);
out:
	sq_rest_secret_free(buf, SQ_REST_TOKEN_MAX + 65);
	close(fd);
	return rc;
}

static int
b64url_val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-' || c == '+')
		return 62;
	if (c == '_' || c == '/')
		return 63;
	return -1;
}

/* Decode base64url (padding optional) into out; -1 on a bad character. */
static int
b64url_decode(const char *in, size_t n, char *out, size_t cap, size_t *olen)
{
	unsigned acc = 0;
	int bits = 0;
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		int v;

		if (in[i] == '=')
			break;
		if ((v = b64url_val((unsigned char)in[i])) < 0)
			return -1;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o + 1 >= cap)
				return -1;
			out[o++] = (char)((acc >> bits) & 0xff);
		}
	}
	out[o] = '\0';
	*olen = o;
	return 0;
}

int
sq_rest_jwt_claims(const char *tok, size_t len, int64_t *exp, char *user,
		   size_t n)
{
	const char *p1, *p2;
	char payload[4096];
	size_t plen;
	json_object *o, *v;
	int rc = -1;

	*exp = -1;
	if (n > 0)
		user[0] = '\0';
	p1 = memchr(tok, '.', len);
	if (p1 == NULL)
		return -1;
	p2 = memchr(p1 + 1, '.', len - (size_t)(p1 + 1 - tok));
	if (p2 == NULL)
		return -1;
	if (b64url_decode(p1 + 1, (size_t)(p2 - p1 - 1), payload,
			  sizeof(payload), &plen) == -1)
		return -1;
	o = json_tokener_parse(payload);
	if (o == NULL || !json_object_is_type(o, json_type_object))
		goto out;
	if (json_object_object_get_ex(o, "exp", &v) &&
	    (json_object_is_type(v, json_type_int) ||
	     json_object_is_type(v, json_type_double)))
		*exp = json_object_get_int64(v);
	if ((json_object_object_get_ex(o, "sun", &v) ||
	     json_object_object_get_ex(o, "username", &v)) &&
	    json_object_is_type(v, json_type_string) && n > 0)
		snprintf(user, n, "%s", json_object_get_string(v));
	rc = 0;
out:
	json_object_put(o);
	return rc;
}

static void
local_user(char *buf, size_t n)
{
	struct passwd pw, *res = NULL;
	char tmp[4096];

	buf[0] = '\0';
	if (getpwuid_r(geteuid(), &pw, tmp, sizeof(tmp), &res) == 0 &&
	    res != NULL)
		snprintf(buf, n, "%s", pw.pw_name);
}

int
sq_rest_auth_load(struct sq_rest_auth *a, const struct sq_cluster_cfg *cfg,
		  int need_token, struct sq_err *err)
{
	char sun[64];

	memset(a, 0, sizeof(*a));
	a->exp = -1;
	sun[0] = '\0';
	if (cfg->token_file[0] != '\0') {
		if (sq_rest_token_file(cfg->token_file, geteuid(), &a->token,
				       &a->token_len, err) == -1)
			return -1;
		snprintf(a->source, sizeof(a->source), "token file %s",
			 cfg->token_file);
		snprintf(a->file, sizeof(a->file), "%s", cfg->token_file);
	} else if (need_token &&
		   (getenv("SLURM_JWT") == NULL ||
		    *getenv("SLURM_JWT") == '\0') &&
		   cfg->host[0] != '\0') {
		/* the cluster names a login node: mint a token there */
		if (sq_rest_mint_open(a, cfg, err) == -1) {
			sq_rest_mint_close(a);
			return -1;
		}
	} else if (need_token) {
		const char *env = getenv("SLURM_JWT");
		size_t off, n;

		if (env == NULL || *env == '\0')
			return sq_err_set(err, SQ_ERR_USAGE,
					  "slurmrestd needs a token: set "
					  "SLURM_JWT or give --token-file FILE "
					  "(mode 0600), e.g. from `scontrol "
					  "token lifespan=3600`");
		token_trim(env, strlen(env), &off, &n);
		if (token_keep(env + off, n, "SLURM_JWT", &a->token,
			       &a->token_len, err) == -1)
			return -1;
		snprintf(a->source, sizeof(a->source), "SLURM_JWT");
	}
	if (a->token != NULL)
		(void)sq_rest_jwt_claims(a->token, a->token_len, &a->exp, sun,
					 sizeof(sun));
	if (cfg->user[0] != '\0')
		snprintf(a->user, sizeof(a->user), "%s", cfg->user);
	else if (sun[0] != '\0')
		snprintf(a->user, sizeof(a->user), "%s", sun);
	else if (a->token != NULL)
		local_user(a->user, sizeof(a->user));
	if (a->user[0] != '\0' && sq_valid_name(a->user, err) == -1) {
		sq_rest_auth_free(a);
		return sq_err_set(err, SQ_ERR_USAGE,
				  "the user name for slurmrestd is not a valid "
				  "Slurm user name");
	}
	return 0;
}

static void
fmt_time(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, n, "%lld", (long long)t);
}

int
sq_rest_auth_fresh(struct sq_rest_auth *a, time_t now, int margin,
		   struct sq_err *err)
{
	char when[64];

	if (a->token == NULL || a->exp < 0 || a->exp - (int64_t)now > margin)
		return 0;
	if (a->mint != NULL) {
		if (sq_rest_mint(a, err) == -1)
			return -1;
	} else if (a->file[0] != '\0') {
		char *tok = NULL, sun[64];
		size_t len = 0;
		int64_t exp = -1;

		if (sq_rest_token_file(a->file, geteuid(), &tok, &len, err) ==
		    -1)
			return -1;
		(void)sq_rest_jwt_claims(tok, len, &exp, sun, sizeof(sun));
		if (exp < 0 || exp > a->exp) {
			sq_rest_secret_free(a->token, a->token_len + 1);
			a->token = tok;
			a->token_len = len;
			a->exp = exp;
		} else {
			sq_rest_secret_free(tok, len + 1);
		}
	}
	if (a->exp >= 0 && a->exp <= (int64_t)now) {
		fmt_time(a->exp, when, sizeof(when));
		return sq_err_set(err, SQ_ERR_DENIED,
				  "the token from %s expired at %s; get a new "
				  "one (scontrol token lifespan=SECONDS)",
				  a->source, when);
	}
	return 0;
}

void
sq_rest_auth_free(struct sq_rest_auth *a)
{
	sq_rest_mint_close(a);
	if (a->token != NULL)
		sq_rest_secret_free(a->token, a->token_len + 1);
	a->token = NULL;
	a->token_len = 0;
}
