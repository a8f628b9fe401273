/*
 * undo.c - what `:undo` offers, read from the audit log (core/action/audit.c):
 * the newest inverse of this session on this cluster, labelled with what
 * it undoes ("undo setlimit chem/carol maxjobs 3 -> 5"), and a note when
 * newer actions failed (so the undo offered is of an older one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/audit.h"

/* The value of key in args ("maxjobs=3,grptres=cpu=4,mem=1G"): up to the
 * next ",K=" where K is a key of d; into buf, NULL when absent. */
static const char *
arg_in(const char *args, const char *key, const struct sq_action_def *d,
       char *buf, size_t n)
{
	size_t kl = strlen(key), len;
	const char *p = args, *v, *q;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, kl) == 0 && p[kl] == '=')
			break;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	if (p == NULL || *p == '\0')
		return NULL;
	v = p + kl + 1;
	for (q = strchr(v, ','); q != NULL; q = strchr(q + 1, ',')) {
		size_t k;

		for (k = 0; k < d->nargs; k++) {
			size_t l = strlen(d->args[k].key);

			if (strncmp(q + 1, d->args[k].key, l) == 0 &&
			    q[1 + l] == '=')
				break;
		}
		if (k < d->nargs)
			break;
	}
	len = q ? (size_t)(q - v) : strlen(v);
	snprintf(buf, n, "%.*s", (int)len, v);
	return buf;
}

/* "a/x,a/y": the targets of the inverse line itself (a line of several
 * undoes only its own), else those of the action. */
static void
put_targets(const struct sq_action *inv, const struct sq_audit_entry *e,
	    char *buf, size_t n, size_t *off)
{
	size_t i;

	if (inv == NULL || inv->ntargets == 0) {
		*off +=
		    (size_t)snprintf(buf + *off, n - *off, " %s", e->targets);
		return;
	}
	for (i = 0; i < inv->ntargets && *off < n; i++)
		*off += (size_t)snprintf(buf + *off, n - *off, "%s%s",
					 i ? "," : " ", inv->targets[i]);
}

void
sq_audit_undo_label_line(const struct sq_audit_entry *e, size_t k, char *buf,
			 size_t n)
{
	char line[1024], was[512];
	const char *p = e->inverse;
	size_t l, off, i;
	struct sq_action inv;
	struct sq_err err;
	int parsed;

	for (; k > 0 && strchr(p, '\n') != NULL; k--)
		p = strchr(p, '\n') + 1;
	l = strcspn(p, "\n");
	snprintf(line, sizeof(line), "%.*s", (int)l, p);
	parsed = sq_action_parse(line, -1, NULL, 0, &inv, &err) == 0;
	off = (size_t)snprintf(buf, n, "undo %s", e->action);
	if (!parsed || strcmp(inv.def->name, e->action) != 0) {
		/* another verb (deluser -> adduser): the line itself */
		put_targets(NULL, e, buf, n, &off);
		if (off < n)
			off +=
			    (size_t)snprintf(buf + off, n - off, ": %s", line);
	} else {
		/* the same verb with the old values: "key now -> then" */
		put_targets(&inv, e, buf, n, &off);
		for (i = 0; i < inv.nargs && off < n; i++) {
			const char *eq = strchr(inv.args[i], '=');
			char key[64];
			const char *now;

			if (eq == NULL ||
			    (size_t)(eq - inv.args[i]) >= sizeof(key))
				continue;
			snprintf(key, sizeof(key), "%.*s",
				 (int)(eq - inv.args[i]), inv.args[i]);
			now = arg_in(e->args, key, inv.def, was, sizeof(was));
			off +=
			    (size_t)snprintf(buf + off, n - off, " %s %s -> %s",
					     key, now ? now : "?", eq + 1);
		}
	}
	if (parsed)
		sq_action_free(&inv);
	/* a bulk action that failed on some targets: its inverse is of the
	 * others only */
	if (off < n && strcmp(e->ok, "false") == 0)
		snprintf(buf + off, n - off,
			 " (of the targets done; the others failed)");
}

void
sq_audit_undo_label(const struct sq_audit_entry *e, char *buf, size_t n)
{
	sq_audit_undo_label_line(e, 0, buf, n);
}

int
sq_audit_last_undo(const char *path, const char *session, const char *cluster,
		   struct sq_audit_undo *u, struct sq_err *err)
{
	struct sq_audit_entry *v;
	size_t nv, i, failed = 0;

	memset(u, 0, sizeof(*u));
	if (sq_audit_read(path, 500, &v, &nv, err) == -1)
		return -1;
	for (i = nv; i-- > 0;) {
		const struct sq_audit_entry *e = &v[i];

		if (strcmp(e->event, "result") != 0 ||
		    (session != NULL && strcmp(e->session, session) != 0) ||
		    (cluster != NULL && strcmp(e->cluster, cluster) != 0))
			continue;
		if (e->inverse[0] == '\0') {
			/* failed (nothing to undo) or without inverse */
			if (strcmp(e->ok, "true") != 0 && failed++ == 0)
				snprintf(u->note, sizeof(u->note),
					 "the last action (%.40s %.80s) failed "
					 "and has nothing to undo",
					 e->action, e->targets);
			continue;
		}
		snprintf(u->inverse, sizeof(u->inverse), "%s", e->inverse);
		sq_audit_undo_label(e, u->label, sizeof(u->label));
		break;
	}
	free(v);
	return 0;
}
