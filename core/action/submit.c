/*
 * submit.c - the submit action's own grammar (FILE plus sbatch-style
 * options from a whitelist), the checks of its option values, reading the
 * batch script on the client, SHA-256 for the audit log, and the sbatch
 * words of a parsed action. See core/action/submit.h.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/action/submit.h"
#include "core/action/submit_opts.h"
#include "core/base/validate.h"

/* --- SHA-256 (FIPS 180-4) ------------------------------------------------ */

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void
sha_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 =
		    ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 =
		    ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3];
	e = h[4], f = h[5], g = h[6], hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		     ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		hh = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void
sq_sha256_hex(const void *data, size_t len, char out[65])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const unsigned char *p = data;
	unsigned char last[128];
	size_t left = len, k, tail;
	uint64_t bits = (uint64_t)len * 8;
	int i;

	while (left >= 64) {
		sha_block(h, p);
		p += 64;
		left -= 64;
	}
	memset(last, 0, sizeof(last));
	if (left > 0)
		memcpy(last, p, left);
	last[left] = 0x80;
	tail = left + 1 + 8 <= 64 ? 64 : 128;
	for (k = 0; k < 8; k++)
		last[tail - 1 - k] = (unsigned char)(bits >> (8 * k));
	sha_block(h, last);
	if (tail == 128)
		sha_block(h, last + 64);
	for (i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", (unsigned)h[i]);
	out[64] = '\0';
}

/* --- the script -------------------------------------------------------- */

int
sq_submit_load(const char *path, char **script, size_t *len, char sha256[65],
	       char *abspath, size_t n, struct sq_err *err)
{
	struct stat st;
	char real[PATH_MAX], *buf = NULL;
	size_t got = 0;
	int fd;

	*script = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd == -1)
		return sq_err_set(err, SQ_ERR_USAGE, "cannot read %.200s: %s",
				  path, strerror(errno));
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return sq_err_set(err, SQ_ERR_DENIED,
				  "%.200s is not a regular file", path);
	}
	if ((size_t)st.st_size > SQ_SUBMIT_MAX_SCRIPT) {
		close(fd);
		return sq_err_set(err, SQ_ERR_DENIED,
				  "%.200s is %lld bytes; a batch script may "
				  "have at most %zu",
				  path, (long long)st.st_size,
				  SQ_SUBMIT_MAX_SCRIPT);
	}
	buf = malloc(SQ_SUBMIT_MAX_SCRIPT + 2);
	if (buf == NULL) {
		close(fd);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	for (;;) {
		ssize_t r = read(fd, buf + got, SQ_SUBMIT_MAX_SCRIPT + 1 - got);

		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			sq_err_set(err, SQ_ERR_USAGE, "cannot read %.200s: %s",
				   path, strerror(errno));
			goto bad;
		}
		if (r == 0)
			break;
		got += (size_t)r;
		if (got > SQ_SUBMIT_MAX_SCRIPT) {
			sq_err_set(err, SQ_ERR_DENIED,
				   "%.200s is larger than %zu bytes", path,
				   SQ_SUBMIT_MAX_SCRIPT);
			goto bad;
		}
	}
	close(fd);
	fd = -1;
	buf[got] = '\0';
	if (got < 2 || buf[0] != '#' || buf[1] != '!') {
		sq_err_set(err, SQ_ERR_DENIED,
			   "%.200s is not a batch script: it must start with "
			   "#! (e.g. #!/bin/bash)",
			   path);
		goto bad;
	}
	if (memchr(buf, '\0', got) != NULL) {
		sq_err_set(err, SQ_ERR_DENIED,
			   "%.200s holds a NUL byte: not a text script", path);
		goto bad;
	}
	if (realpath(path, real) == NULL) {
		sq_err_set(err, SQ_ERR_USAGE, "%.200s: %s", path,
			   strerror(errno));
		goto bad;
	}
	if (strlen(real) >= n) {
		sq_err_set(err, SQ_ERR_DENIED, "path too long");
		goto bad;
	}
	memcpy(abspath, real, strlen(real) + 1);
	sq_sha256_hex(buf, got, sha256);
	*script = buf;
	*len = got;
	return 0;
bad:
	if (fd != -1)
		close(fd);
	free(buf);
	return -1;
}

/* --- the submit line ----------------------------------------------------- */

struct opt {
	char letter;
	const char *name;
	enum sq_arg_type type;
};

static const struct opt opts[] = {
#define SQ_SUBMIT_OPT(l, n, t, c, h) { l, n, t },
	SQ_SUBMIT_OPTIONS(SQ_SUBMIT_OPT)
#undef SQ_SUBMIT_OPT
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const struct opt *
find_long(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < NOPTS; i++) {
		if (strlen(opts[i].name) == n &&
		    strncmp(opts[i].name, name, n) == 0)
			return &opts[i];
	}
	return NULL;
}

static const struct opt *
find_short(char c)
{
	size_t i;

	for (i = 0; i < NOPTS; i++) {
		if (c != 0 && opts[i].letter == c)
			return &opts[i];
	}
	return NULL;
}

static int
unknown(const char *word, struct sq_err *err)
{
	return sq_err_set(err, SQ_ERR_USAGE,
			  "submit: sbatch option '%.40s' is not allowed here "
			  "(allowed: -p -A -q -t -J -N -n -c --mem "
			  "--mem-per-cpu --gres -G -a -o -e -H --nice -D -w "
			  "-x -b -d --comment --export --reservation "
			  "--exclusive)",
			  word);
}

/*
 * Split s into words at blanks; "..." and '...' group (and are removed)
 * anywhere in a word, so --job-name="a b" is one word. No escapes.
 */
static int
split(char *s, char **w, size_t max, size_t *nw, struct sq_err *err)
{
	char *r = s, *o = s;

	*nw = 0;
	for (;;) {
		char q = 0;

		while (*r == ' ' || *r == '\t')
			r++;
		if (*r == '\0')
			return 0;
		if (*nw >= max)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "submit: too many words");
		w[(*nw)++] = o;
		for (; *r != '\0'; r++) {
			if (q == 0 && (*r == ' ' || *r == '\t'))
				break;
			if (q == 0 && (*r == '"' || *r == '\'')) {
				q = *r;
				continue;
			}
			if (q != 0 && *r == q) {
				q = 0;
				continue;
			}
			*o++ = *r;
		}
		if (q != 0)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "unterminated %c quote", q);
		if (*r != '\0')
			r++;
		*o++ = '\0';
	}
}

static int
set_opt(struct sq_action *a, const struct opt *o, const char *v,
	struct sq_err *err)
{
	if (o->type == SQ_ARG_FLAG)
		v = "yes";
	if (v == NULL)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "submit: --%s needs a value", o->name);
	return sq_action_set_arg(a, o->name, v, err);
}

#define MAX_WORDS 128

int
sq_submit_parse(char *rest, struct sq_action *a, struct sq_err *err)
{
	char *w[MAX_WORDS], real[PATH_MAX];
	const char *file = NULL;
	size_t nw, i;

	if (split(rest, w, MAX_WORDS, &nw, err) == -1)
		return -1;
	for (i = 0; i < nw; i++) {
		char *word = w[i], *eq;
		const char *val;
		const struct opt *o;

		if (strncmp(word, "--", 2) == 0) {
			/* --name=value, --name value, --flag */
			eq = strchr(word + 2, '=');
			o = find_long(word + 2, eq ? (size_t)(eq - word - 2)
						   : strlen(word + 2));
			if (o == NULL)
				return unknown(word, err);
			if (eq != NULL && o->type == SQ_ARG_FLAG)
				return sq_err_set(err, SQ_ERR_USAGE,
						  "submit: --%s takes no value",
						  o->name);
			if (eq != NULL)
				val = eq + 1;
			else if (o->type == SQ_ARG_FLAG || i + 1 >= nw)
				val = NULL;
			else
				val = w[++i];
			if (set_opt(a, o, val, err) == -1)
				return -1;
		} else if (word[0] == '-' && word[1] != '\0') {
			/* -p value, -pvalue, -H */
			o = find_short(word[1]);
			if (o == NULL ||
			    (o->type == SQ_ARG_FLAG && word[2] != '\0'))
				return unknown(word, err);
			if (o->type == SQ_ARG_FLAG || word[2] != '\0')
				val = word + 2;
			else
				val = i + 1 < nw ? w[++i] : NULL;
			if (set_opt(a, o, val, err) == -1)
				return -1;
		} else if ((eq = strchr(word, '=')) != NULL &&
			   (o = find_long(word, (size_t)(eq - word))) != NULL) {
			/* the key=value form of the other actions */
			if (set_opt(a, o, eq + 1, err) == -1)
				return -1;
		} else if (file == NULL) {
			file = word;
		} else {
			return sq_err_set(err, SQ_ERR_USAGE,
					  "submit: unexpected '%.40s' after "
					  "the script (arguments to the "
					  "script are not supported)",
					  word);
		}
	}
	if (file == NULL)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "submit: no script (usage: %s)",
				  a->def->usage);
	if (sq_submit_load(file, &a->script, &a->script_len, a->script_sha256,
			   real, sizeof(real), err) == -1)
		return -1;
	return sq_action_add_target(a, real, err);
}

int
sq_submit_word(const struct sq_action *a, size_t i, char *buf, size_t n)
{
	const char *s = a->args[i], *eq = strchr(s, '=');
	const struct sq_arg_spec *sp;
	char key[64];
	size_t kl = eq ? (size_t)(eq - s) : 0;
	int w;

	if (eq == NULL || kl >= sizeof(key))
		return -1;
	memcpy(key, s, kl);
	key[kl] = '\0';
	sp = sq_action_arg_spec(a->def, key);
	if (sp == NULL)
		return -1;
	if (sp->type == SQ_ARG_FLAG) {
		w = snprintf(buf, n, "%s", sp->slurm);
	} else if (strcmp(key, "export") == 0) {
		char up[8];
		size_t k;

		for (k = 0; eq[1 + k] != '\0' && k + 1 < sizeof(up); k++)
			up[k] = (char)toupper((unsigned char)eq[1 + k]);
		up[k] = '\0';
		w = snprintf(buf, n, "%s=%s", sp->slurm, up);
	} else {
		w = snprintf(buf, n, "%s=%s", sp->slurm, eq + 1);
	}
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

void
sq_submit_about(const struct sq_action *a, char *buf, size_t n)
{
	snprintf(buf, n, "%s (%zu bytes, sha256 %.16s...)",
		 a->ntargets ? a->targets[0] : "?", a->script_len,
		 a->script_sha256);
}

int
sq_submit_parse_parsable(const char *out, char *id, size_t n)
{
	const char *p = out;
	size_t d;

	while (*p == ' ' || *p == '\n' || *p == '\r')
		p++;
	d = strspn(p, "0123456789");
	if (d == 0 || d >= n || d > 12 ||
	    (p[d] != '\0' && p[d] != ';' && p[d] != '\n' && p[d] != '\r'))
		return -1;
	memcpy(id, p, d);
	id[d] = '\0';
	return 0;
}
