/*
 * ssh_hostkey.c - host key verification the OpenSSH way: the user and
 * global known_hosts files (and those ~/.ssh/config names) decide. A
 * changed key is refused loudly and never written; an unknown key is shown
 * by its SHA256 fingerprint and accepted only on an explicit yes.
 */
#include <stdio.h>
#include <string.h>

#include "backends/cli/ssh_int.h"
#include "core/base/buf.h"
#include "core/base/validate.h"

/* "[host]:port" as known_hosts writes it (plain "host" on port 22). */
static void
host_entry_name(ssh_session s, char *buf, size_t n)
{
	char *host = NULL;
	unsigned port = 22;

	if (ssh_options_get(s, SSH_OPTIONS_HOST, &host) != SSH_OK)
		host = NULL;
	ssh_options_get_port(s, &port);
	if (port == 22)
		snprintf(buf, n, "%s", host ? host : "?");
	else
		snprintf(buf, n, "[%s]:%u", host ? host : "?", port);
	ssh_string_free_char(host);
}

/* The file the key was checked against, as the admin names it: "--known-hosts
 * FILE" when one was given, else "known_hosts" (the user's and the global
 * ones). rm gets the command that removes name's old entry from it. */
static void
known_hosts_names(const struct sq_ssh *t, const char *name, char *file,
		  size_t fn, char *rm, size_t rn)
{
	struct sq_buf b;

	sq_buf_init(&b, 4096);
	sq_buf_printf(&b, "ssh-keygen -R ");
	if (sq_shell_quote(&b, name) != 0)
		sq_buf_printf(&b, "HOST");
	if (t->known_hosts[0] != '\0') {
		snprintf(file, fn, "--known-hosts %s", t->known_hosts);
		sq_buf_printf(&b, " -f ");
		if (sq_shell_quote(&b, t->known_hosts) != 0)
			sq_buf_printf(&b, "FILE");
	} else {
		snprintf(file, fn, "known_hosts");
	}
	snprintf(rm, rn, "%s", sq_buf_str(&b) ? sq_buf_str(&b) : "");
	sq_buf_free(&b);
}

/* "ssh-ed25519 SHA256:..." of the server's key; -1 when unavailable. */
static int
server_fingerprint(ssh_session s, char *type, size_t tn, char *fp, size_t fn)
{
	ssh_key key = NULL;
	unsigned char *hash = NULL;
	size_t hlen = 0;
	char *txt;
	const char *name;

	if (ssh_get_server_publickey(s, &key) != SSH_OK)
		return -1;
	if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash,
				   &hlen) != 0) {
		ssh_key_free(key);
		return -1;
	}
	txt = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hlen);
	name = ssh_key_type_to_char(ssh_key_type(key));
	snprintf(type, tn, "%s", name ? name : "unknown");
	snprintf(fp, fn, "%s", txt ? txt : "");
	ssh_string_free_char(txt);
	ssh_clean_pubkey_hash(&hash);
	ssh_key_free(key);
	return fp[0] != '\0' ? 0 : -1;
}

/* Trust an unknown key: write it to the user's known_hosts. A failed write
 * does not undo the trust for this run (t->accepted remembers it). */
static void
remember_key(struct sq_ssh *t, const char *fp)
{
	snprintf(t->accepted, sizeof(t->accepted), "%s", fp);
	(void)ssh_session_update_known_hosts(t->s);
}

int
sq_ssh_check_host_key(struct sq_ssh *t, struct sq_err *err)
{
	enum ssh_known_hosts_e state;
	char name[300], type[64], fp[128], q[700], kh[600], rm[1200];

	host_entry_name(t->s, name, sizeof(name));
	known_hosts_names(t, name, kh, sizeof(kh), rm, sizeof(rm));
	if (server_fingerprint(t->s, type, sizeof(type), fp, sizeof(fp)) == -1)
		return sq_err_set(err, SQ_ERR_CONNECT,
				  "%s: cannot read the server's host key: %s",
				  t->target, ssh_get_error(t->s));
	state = ssh_session_is_known_server(t->s);
	switch (state) {
	case SSH_KNOWN_HOSTS_OK:
		return 0;
	case SSH_KNOWN_HOSTS_CHANGED:
		return sq_err_set(
		    err, SQ_ERR_CONNECT,
		    "WARNING: THE HOST KEY OF %s HAS CHANGED: it is now "
		    "%s %s and does not match %s. Someone may be "
		    "intercepting the connection, or the host was "
		    "reinstalled. squall refuses to connect and leaves "
		    "%s alone; check the key with the admins, "
		    "then remove the old entry (%s)",
		    name, type, fp, kh, kh, rm);
	case SSH_KNOWN_HOSTS_OTHER:
		return sq_err_set(
		    err, SQ_ERR_CONNECT,
		    "WARNING: %s holds a key of another type for "
		    "%s, but the server offered %s %s. squall refuses to "
		    "connect; check the key, then fix %s",
		    kh, name, type, fp, kh);
	case SSH_KNOWN_HOSTS_NOT_FOUND:
	case SSH_KNOWN_HOSTS_UNKNOWN:
		if (t->accepted[0] != '\0' && strcmp(t->accepted, fp) == 0)
			return 0;
		if (t->accept_new) {
			remember_key(t, fp);
			return 0;
		}
		if (t->prompt.confirm != NULL) {
			snprintf(q, sizeof(q),
				 "The authenticity of host %s cannot be "
				 "established.\n%s key fingerprint is %s.\n"
				 "Trust this key and add it to known_hosts?",
				 name, type, fp);
			if (t->prompt.confirm(t->prompt.arg, q) == 1) {
				remember_key(t, fp);
				return 0;
			}
			return sq_err_set(err, SQ_ERR_CONNECT,
					  "%s: host key %s %s not trusted",
					  name, type, fp);
		}
		return sq_err_set(
		    err, SQ_ERR_CONNECT,
		    "the host key of %s is not known (%s %s); check the "
		    "fingerprint, then run again with "
		    "--accept-new-host-key or add the key to %s",
		    name, type, fp, kh);
	case SSH_KNOWN_HOSTS_ERROR:
		break;
	}
	return sq_err_set(err, SQ_ERR_CONNECT, "%s: cannot check %s: %s", name,
			  kh, ssh_get_error(t->s));
}
