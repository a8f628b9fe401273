/*
 * ssh_auth.c - user authentication on the ssh session: publickey (the
 * agent first, then the keys ~/.ssh/config, --identity and libssh's
 * defaults name), then keyboard-interactive and password, which are asked
 * only through the prompt hook: batch mode fails instead of reading a tty.
 * Answers are wiped after use and never logged. Prompts come from the
 * server: the hook must treat them as untrusted text.
 */
#include <stdio.h>
#include <string.h>

#include "backends/cli/ssh_int.h"

static void
wipe(char *p, size_t n)
{
	volatile char *v = p;

	while (n-- > 0)
		*v++ = 0;
}

int
sq_ssh_passphrase_cb(const char *prompt, char *buf, size_t len, int echo,
		     int verify, void *userdata)
{
	struct sq_ssh *t = userdata;

	(void)verify;
	if (t == NULL || t->prompt.ask == NULL || len == 0)
		return -1;
	if (t->prompt.ask(t->prompt.arg, prompt, echo, buf, len) != 1) {
		wipe(buf, len);
		return -1;
	}
	buf[len - 1] = '\0';
	return 0;
}

static int
kbdint(struct sq_ssh *t)
{
	char ans[256], q[700];
	int rc, i, n;

	while ((rc = ssh_userauth_kbdint(t->s, NULL, NULL)) == SSH_AUTH_INFO) {
		const char *name = ssh_userauth_kbdint_getname(t->s);
		const char *ins = ssh_userauth_kbdint_getinstruction(t->s);

		n = ssh_userauth_kbdint_getnprompts(t->s);
		for (i = 0; i < n; i++) {
			char echo = 0;
			const char *p;

			p = ssh_userauth_kbdint_getprompt(t->s, (unsigned)i,
							  &echo);
			snprintf(q, sizeof(q), "%s%s%s%s%s",
				 name && *name ? name : "",
				 name && *name ? "\n" : "",
				 ins && *ins ? ins : "",
				 ins && *ins ? "\n" : "", p ? p : "");
			memset(ans, 0, sizeof(ans));
			if (t->prompt.ask(t->prompt.arg, q, echo, ans,
					  sizeof(ans)) != 1) {
				wipe(ans, sizeof(ans));
				return SSH_AUTH_DENIED;
			}
			ans[sizeof(ans) - 1] = '\0';
			rc = ssh_userauth_kbdint_setanswer(t->s, (unsigned)i,
							   ans);
			wipe(ans, sizeof(ans));
			if (rc < 0)
				return SSH_AUTH_ERROR;
		}
	}
	return rc;
}

static int
password(struct sq_ssh *t)
{
	char pw[256], q[450];
	int rc;

	snprintf(q, sizeof(q), "%s's password: ", t->target);
	memset(pw, 0, sizeof(pw));
	if (t->prompt.ask(t->prompt.arg, q, 0, pw, sizeof(pw)) != 1) {
		wipe(pw, sizeof(pw));
		return SSH_AUTH_DENIED;
	}
	pw[sizeof(pw) - 1] = '\0';
	rc = ssh_userauth_password(t->s, NULL, pw);
	wipe(pw, sizeof(pw));
	return rc;
}

static void
method_names(int m, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s",
		 m & SSH_AUTH_METHOD_PUBLICKEY ? " publickey" : "",
		 m & SSH_AUTH_METHOD_INTERACTIVE ? " keyboard-interactive" : "",
		 m & SSH_AUTH_METHOD_PASSWORD ? " password" : "",
		 m & SSH_AUTH_METHOD_HOSTBASED ? " hostbased" : "");
	if (buf[0] == '\0')
		snprintf(buf, n, " none");
}

static int
publickey(struct sq_ssh *t)
{
	/* the agent first, then each identity file */
	return ssh_userauth_publickey_auto(t->s, NULL, NULL);
}

/* The ways tried, in order, each when the server accepts its method; asks:
 * it needs the prompt (a console, not batch mode). */
static const struct {
	int method, asks;
	int (*fn)(struct sq_ssh *t);
} ways[] = {
	{ SSH_AUTH_METHOD_PUBLICKEY, 0, publickey },
	{ SSH_AUTH_METHOD_INTERACTIVE, 1, kbdint },
	{ SSH_AUTH_METHOD_PASSWORD, 1, password },
};
#define NWAYS (sizeof(ways) / sizeof(ways[0]))

int
sq_ssh_authenticate(struct sq_ssh *t, struct sq_err *err)
{
	char names[100];
	int rc, methods, asked = 0;
	size_t i;

	rc = ssh_userauth_none(t->s, NULL);
	if (rc == SSH_AUTH_SUCCESS)
		return 0;
	if (rc == SSH_AUTH_ERROR)
		goto error;
	methods = ssh_userauth_list(t->s, NULL);
	for (i = 0; i < NWAYS; i++) {
		if (!(methods & ways[i].method) ||
		    (ways[i].asks && !t->prompt.ask))
			continue;
		asked |= ways[i].asks;
		rc = ways[i].fn(t);
		if (rc == SSH_AUTH_SUCCESS)
			return 0;
		if (rc == SSH_AUTH_ERROR)
			goto error;
		/* a partial success: what is left to try (not after the
		 * last way: the message names the methods known before) */
		if (rc == SSH_AUTH_PARTIAL && i + 1 < NWAYS)
			methods = ssh_userauth_list(t->s, NULL);
	}
	method_names(methods, names, sizeof(names));
	return sq_err_set(
	    err, SQ_ERR_CONNECT,
	    "ssh authentication as %s failed (the server accepts:%s): no "
	    "key from ssh-agent, --identity, ~/.ssh/config or ~/.ssh/id_* "
	    "was accepted%s",
	    t->target, names,
	    asked ? ", and the password or answers were refused"
	    : (methods &
	       (SSH_AUTH_METHOD_PASSWORD | SSH_AUTH_METHOD_INTERACTIVE))
		? "; batch mode does not ask for passwords"
		: "");
error:
	return sq_err_set(err, SQ_ERR_CONNECT,
			  "ssh authentication as %s failed: %s", t->target,
			  ssh_get_error(t->s));
}
