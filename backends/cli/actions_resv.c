/*
 * actions_resv.c - reservations through the Slurm CLI: read the targets
 * (`scontrol -o show reservation`, parsed as the reservations view
 * parses it), see that a reserve, reserve-update or reserve-delete shows
 * (the values asked for are the values Slurm has), and the inverse from
 * the state before (delete what was created, put back what was changed,
 * create again what was deleted).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "backends/cli/actions.h"
#include "backends/cli/cli_admin.h"
#include "core/hostlist.h"
#include "core/model_admin.h"
#include "core/parse.h"
#include "core/resv.h"
#include "core/util.h"

#define REL_SLACK 300 /* seconds: now+N read back a little later */
#define ABS_SLACK 60

static void
put(struct sq_cli_rec *r, const char *key, const char *val)
{
	if (r->n >= SQ_CLI_REC_MAX)
		return;
	sq_util_copy(r->key[r->n], sizeof(r->key[0]), key);
	r->val[r->n++] = strdup(val ? val : "");
}

static void
put_num(struct sq_cli_rec *r, const char *key, int64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%lld", (long long)v);
	put(r, key, b);
}

static void
fill(struct sq_cli_rec *r, const struct sq_reservation *v)
{
	r->found = 1;
	put(r, "State", v->state);
	put_num(r, "StartTime", v->start_time);
	put_num(r, "EndTime", v->end_time);
	put_num(r, "Duration", v->duration);
	put(r, "Nodes", v->nodes);
	put(r, "PartitionName", v->partition);
	put(r, "Users", v->users);
	put(r, "Accounts", v->accounts);
	put(r, "Flags", v->flags);
}

int
sq_cli_read_resv(struct sq_cli *cli, const struct sq_action *a,
		 struct sq_cli_state *st, struct sq_err *err)
{
	static const char *const argv[] = { "scontrol", "-o", "show",
					    "reservation", NULL };
	struct sq_snapshot *s;
	struct sq_buf out;
	char none[1] = "";
	size_t i, k;
	int rc = -1;

	s = sq_snapshot_new(SQ_KIND_RESERVATIONS,
			    sizeof(struct sq_reservation));
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	sq_buf_init(&out, 0);
	if (sq_cli_run(cli, argv, &out, err) == 0 &&
	    sq_parse_reservations(out.data ? out.data : none, s, err) == 0) {
		for (i = 0; i < a->ntargets; i++) {
			for (k = 0; k < s->nrows; k++) {
				const struct sq_reservation *v =
				    sq_snapshot_row(s, k);

				if (strcmp(v->name, a->targets[i]) == 0)
					fill(&st->rec[i], v);
			}
		}
		rc = 0;
	}
	sq_buf_free(&out);
	sq_snapshot_unref(s);
	return rc;
}

static int64_t
num(const struct sq_cli_rec *r, const char *key)
{
	const char *v = sq_cli_rec_get(r, key);

	return v != NULL && *v != '\0' ? strtoll(v, NULL, 10) : SQ_NONE;
}

/* Every host of want in have and as many of them. */
static int
same_hosts(const char *want, const char *have)
{
	size_t nw = 0, nh = 0, i;
	char **w, **h;
	int ok;

	if (strcmp(want, "ALL") == 0)
		return *have != '\0';
	w = sq_hostlist_names(want, &nw);
	h = sq_hostlist_names(have, &nh);
	ok = w != NULL && h != NULL && nw == nh;
	for (i = 0; ok && i < nw; i++)
		ok = sq_hostlist_contains(have, w[i]);
	if (w != NULL)
		sq_hostlist_free_names(w, nw);
	if (h != NULL)
		sq_hostlist_free_names(h, nh);
	return ok;
}

/* The same names in any order, any case. */
static int
same_names(const char *want, const char *have)
{
	char cw[1024], *t, *save = NULL;
	size_t n = 0, m = 0;

	sq_util_copy(cw, sizeof(cw), want);
	for (t = strtok_r(cw, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *p = have;
		int in = 0;

		n++;
		while (*p != '\0' && !in) {
			size_t k = strcspn(p, ",");

			in = k == strlen(t) && strncasecmp(p, t, k) == 0;
			p += k + (p[k] == ',');
		}
		if (!in)
			return 0;
	}
	for (t = (char *)have; *t != '\0';
	     t += strcspn(t, ",") + (t[strcspn(t, ",")] == ','))
		m++;
	return n == m;
}

/* Each flag of want among have's. */
static int
has_flags(const char *want, const char *have)
{
	char cw[512], *t, *save = NULL;

	sq_util_copy(cw, sizeof(cw), want);
	for (t = strtok_r(cw, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *p = have;
		int in = 0;

		while (*p != '\0' && !in) {
			size_t k = strcspn(p, ",");

			in = k == strlen(t) && strncasecmp(p, t, k) == 0;
			p += k + (p[k] == ',');
		}
		if (!in)
			return 0;
	}
	return 1;
}

/* Is time value v (start= or end=) what Slurm has (epoch have)? */
static int
same_time(const char *v, int64_t have, time_t now)
{
	int64_t want;
	int rel = 0;

	if (sq_resv_time(v, now, &want, &rel) == -1 || have < 0)
		return 0;
	if (rel) /* asked before now: Slurm's time is at most slack older */
		return have <= want + 5 && have >= want - REL_SLACK;
	return have >= want - ABS_SLACK && have <= want + ABS_SLACK;
}

/* Does key=want show in r? msg: what was seen when not. */
static int
value_ok(const char *key, const char *want, const struct sq_cli_rec *r,
	 char *msg, size_t n)
{
	const char *have = "";
	int ok = 0;
	int64_t d;

	if (strcmp(key, "start") == 0) {
		ok = same_time(want, num(r, "StartTime"), time(NULL));
		have = sq_cli_rec_get(r, "StartTime");
	} else if (strcmp(key, "end") == 0) {
		ok = same_time(want, num(r, "EndTime"), time(NULL));
		have = sq_cli_rec_get(r, "EndTime");
	} else if (strcmp(key, "duration") == 0) {
		have = sq_cli_rec_get(r, "Duration");
		if (strcmp(want, "UNLIMITED") == 0)
			ok = num(r, "Duration") < 0 ||
			     num(r, "Duration") >= 365LL * 86400;
		else
			ok = sq_parse_duration(want, &d) == 0 &&
			     num(r, "Duration") == d;
	} else if (strcmp(key, "nodes") == 0) {
		have = sq_cli_rec_get(r, "Nodes");
		ok = have != NULL && same_hosts(want, have);
	} else if (strcmp(key, "partition") == 0) {
		have = sq_cli_rec_get(r, "PartitionName");
		ok = have != NULL && strcmp(want, have) == 0;
	} else if (strcmp(key, "users") == 0 || strcmp(key, "accounts") == 0) {
		have = sq_cli_rec_get(r, key[0] == 'u' ? "Users" : "Accounts");
		ok = have != NULL && same_names(want, have);
	} else if (strcmp(key, "flags") == 0) {
		have = sq_cli_rec_get(r, "Flags");
		ok = have != NULL && has_flags(want, have);
	}
	if (!ok)
		snprintf(msg, n, "%s is %.100s, not %.100s", key,
			 have && *have ? have : "(none)", want);
	return ok;
}

int
sq_cli_verify_resv(const struct sq_action *a, const struct sq_cli_rec *after,
		   char *msg, size_t n)
{
	size_t i;

	if (a->type == SQ_ACTION_RESV_DELETE) {
		snprintf(msg, n, after->found ? "still there" : "deleted");
		return after->found ? SQ_VERIFY_FAILED : SQ_VERIFY_OK;
	}
	if (!after->found) {
		snprintf(msg, n, "no such reservation");
		return SQ_VERIFY_FAILED;
	}
	for (i = 0; i < a->nargs; i++) {
		char key[32];
		size_t kl = strcspn(a->args[i], "=");

		if (kl >= sizeof(key))
			continue;
		memcpy(key, a->args[i], kl);
		key[kl] = '\0';
		if (!value_ok(key, a->args[i] + kl + 1, after, msg, n))
			return SQ_VERIFY_FAILED;
	}
	snprintf(msg, n, "%s",
		 a->type == SQ_ACTION_RESV_CREATE ? "created" : "updated");
	return SQ_VERIFY_OK;
}

/* key=time of epoch t ("now" for a time gone) */
static void
set_time(struct sq_action *inv, const char *key, int64_t t)
{
	char b[40];

	if (t < 0)
		return;
	if (t <= (int64_t)time(NULL) && strcmp(key, "start") == 0)
		snprintf(b, sizeof(b), "now");
	else
		sq_resv_time_format(t, b, sizeof(b));
	sq_action_set_arg(inv, key, b, NULL);
}

static void
set_str(struct sq_action *inv, const char *key, const char *v)
{
	if (v != NULL && *v != '\0' && strcmp(v, "(null)") != 0)
		sq_action_set_arg(inv, key, v, NULL);
}

/* The flags of r that may be given again (not SPEC_NODES ...). */
static void
set_flags(struct sq_action *inv, const char *have)
{
	char copy[512], out[512], *t, *save = NULL;
	size_t off = 0;

	sq_util_copy(copy, sizeof(copy), have ? have : "");
	out[0] = '\0';
	for (t = strtok_r(copy, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (!sq_resv_flag_settable(t) ||
		    off + strlen(t) + 2 >= sizeof(out))
			continue;
		off += (size_t)snprintf(out + off, sizeof(out) - off, "%s%s",
					off ? "," : "", t);
	}
	set_str(inv, "flags", out);
}

static const char *
field(const char *key)
{
	return strcmp(key, "nodes") == 0       ? "Nodes"
	       : strcmp(key, "partition") == 0 ? "PartitionName"
	       : strcmp(key, "users") == 0     ? "Users"
	       : strcmp(key, "accounts") == 0  ? "Accounts"
					       : NULL;
}

/* The inverse of target i into inv; -1 when there is none. */
static int
inverse_one(const struct sq_action *a, const struct sq_cli_rec *r,
	    struct sq_action *inv)
{
	size_t i;

	if (a->type == SQ_ACTION_RESV_DELETE) {
		set_time(inv, "start", num(r, "StartTime"));
		set_time(inv, "end", num(r, "EndTime"));
		set_str(inv, "nodes", sq_cli_rec_get(r, "Nodes"));
		set_str(inv, "partition", sq_cli_rec_get(r, "PartitionName"));
		set_str(inv, "users", sq_cli_rec_get(r, "Users"));
		set_str(inv, "accounts", sq_cli_rec_get(r, "Accounts"));
		set_flags(inv, sq_cli_rec_get(r, "Flags"));
		return 0;
	}
	for (i = 0; i < a->nargs; i++) {
		char key[32];
		size_t kl = strcspn(a->args[i], "=");

		if (kl >= sizeof(key))
			continue;
		memcpy(key, a->args[i], kl);
		key[kl] = '\0';
		if (field(key) != NULL) {
			set_str(inv, key, sq_cli_rec_get(r, field(key)));
			continue;
		}
		/* a new start moves the end too (Slurm keeps the
		 * duration): both back; a new end or duration: the end */
		if (strcmp(key, "start") == 0)
			set_time(inv, "start", num(r, "StartTime"));
		set_time(inv, "end", num(r, "EndTime"));
	}
	return inv->nargs > 0 ? 0 : -1;
}

int
sq_cli_resv_inverse(const struct sq_action *a,
		    const struct sq_cli_state *before, char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < a->ntargets; i++) {
		struct sq_action inv;
		char line[1024];

		sq_action_init(&inv, a->def->inverse);
		sq_action_add_target(&inv, a->targets[i], NULL);
		if (a->type != SQ_ACTION_RESV_CREATE &&
		    (before == NULL || !before->ok || !before->rec[i].found ||
		     inverse_one(a, &before->rec[i], &inv) == -1)) {
			sq_action_free(&inv);
			continue;
		}
		if (sq_action_format(&inv, line, sizeof(line)) == 0 &&
		    off + strlen(line) + 2 < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s",
						off ? "\n" : "", line);
		sq_action_free(&inv);
	}
	return 0;
}
