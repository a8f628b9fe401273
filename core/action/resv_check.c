/*
 * resv_check.c - whether a reservation action shows in the reservation
 * read back (the values asked for are Slurm's), and the arguments of its
 * inverse from the reservation as it was. Shared by the CLI
 * (backends/cli/actions_resv.c) and slurmrestd (backends/rest/
 * actions_resv.c): each reads the reservation into a struct
 * sq_reservation and asks here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base/hostlist.h"
#include "core/model/model.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"
#include "core/action/resv.h"
#include "core/base/util.h"

#define REL_SLACK 300 /* seconds: now+N read back a little later */
#define ABS_SLACK 60

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

/* Is name t (length k) a word of the ','-list have? */
static int
in_csv(const char *have, const char *t)
{
	const char *p = have;

	while (*p != '\0') {
		size_t k = strcspn(p, ",");

		if (k == strlen(t) && strncasecmp(p, t, k) == 0)
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

static size_t
csv_count(const char *s)
{
	size_t m = 0;

	while (*s != '\0') {
		size_t k = strcspn(s, ",");

		m += k > 0;
		s += k + (s[k] == ',');
	}
	return m;
}

/* Each name of want in have; exact: as many too. */
static int
names_in(const char *want, const char *have, int exact)
{
	char cw[1024], *t, *save = NULL;
	size_t n = 0;

	sq_util_copy(cw, sizeof(cw), want);
	for (t = strtok_r(cw, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		n++;
		if (!in_csv(have, t))
			return 0;
	}
	return !exact || n == csv_count(have);
}

/* Every +NAME of want among have, no -NAME (reserve-update's flags). */
static int
changes_in(const char *want, const char *have)
{
	char cw[1024], *t, *save = NULL;

	sq_util_copy(cw, sizeof(cw), want);
	for (t = strtok_r(cw, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if ((*t == '-') == in_csv(have, t + (*t == '+' || *t == '-')))
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

static const char *
nz(const char *s)
{
	return s != NULL ? s : "";
}

/* Does key=want show in r? have: what r has, for the message. */
static int
value_ok(const char *key, const char *want, const struct sq_reservation *r,
	 time_t now, char *have, size_t n)
{
	int64_t d;

	have[0] = '\0';
	if (strcmp(key, "start") == 0 || strcmp(key, "end") == 0) {
		int64_t t = key[0] == 's' ? r->start_time : r->end_time;

		sq_resv_time_format(t, have, n);
		return same_time(want, t, now);
	}
	if (strcmp(key, "duration") == 0) {
		d = r->end_time - r->start_time;
		snprintf(have, n, "%lld minutes", (long long)(d / 60));
		if (strcmp(want, "UNLIMITED") == 0)
			return r->end_time < 0 || d >= 365LL * 86400;
		return sq_parse_duration(want, &d) == 0 &&
		       r->end_time - r->start_time == d;
	}
	if (strcmp(key, "nodes") == 0) {
		sq_util_copy(have, n, nz(r->nodes));
		return same_hosts(want, nz(r->nodes));
	}
	if (strcmp(key, "partition") == 0) {
		sq_util_copy(have, n, nz(r->partition));
		return strcmp(want, nz(r->partition)) == 0;
	}
	if (strcmp(key, "users") == 0 || strcmp(key, "accounts") == 0) {
		const char *h = key[0] == 'u' ? nz(r->users) : nz(r->accounts);

		sq_util_copy(have, n, h);
		return names_in(want, h, 1);
	}
	if (strcmp(key, "flags") == 0) {
		sq_util_copy(have, n, nz(r->flags));
		if (*want == '+' || *want == '-')
			return changes_in(want, nz(r->flags));
		return names_in(want, nz(r->flags), 0);
	}
	return 0;
}

int
sq_resv_verify(const struct sq_action *a, const struct sq_reservation *r,
	       time_t now, char *msg, size_t n)
{
	char have[256];
	size_t i;

	if (a->type == SQ_ACTION_RESV_DELETE) {
		snprintf(msg, n, r != NULL ? "still there" : "deleted");
		return r != NULL ? SQ_VERIFY_FAILED : SQ_VERIFY_OK;
	}
	if (r == NULL) {
		snprintf(msg, n, "no such reservation");
		return SQ_VERIFY_FAILED;
	}
	for (i = 0; i < a->nargs; i++) {
		char key[32];
		const char *val =
		    sq_action_arg_split(a->args[i], key, sizeof(key));

		if (val == NULL)
			continue;
		if (!value_ok(key, val, r, now, have, sizeof(have))) {
			snprintf(msg, n, "%s is %.100s, not %.100s", key,
				 have[0] ? have : "(none)", val);
			return SQ_VERIFY_FAILED;
		}
	}
	snprintf(msg, n, "%s",
		 a->type == SQ_ACTION_RESV_CREATE ? "created" : "updated");
	return SQ_VERIFY_OK;
}

/* key=time of epoch t ("now" for a start gone by) */
static void
set_time(struct sq_action *inv, const char *key, int64_t t, time_t now)
{
	char b[40];

	if (t < 0)
		return;
	if (t <= (int64_t)now && strcmp(key, "start") == 0)
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

	sq_util_copy(copy, sizeof(copy), nz(have));
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

/* The flags an update's undo gives: each +NAME that r did not have taken
 * away again, each -NAME that it had given back. */
static void
unchange_flags(struct sq_action *inv, const char *want, const char *have)
{
	char cw[512], out[512], *t, *save = NULL;
	size_t off = 0;

	sq_util_copy(cw, sizeof(cw), want);
	out[0] = '\0';
	for (t = strtok_r(cw, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int add = *t != '-';
		const char *name = t + (*t == '+' || *t == '-');

		if (add == in_csv(nz(have), name) ||
		    off + strlen(name) + 3 >= sizeof(out))
			continue;
		off += (size_t)snprintf(out + off, sizeof(out) - off, "%s%c%s",
					off ? "," : "", add ? '-' : '+', name);
	}
	set_str(inv, "flags", out);
}

int
sq_resv_inverse_args(const struct sq_action *a, const struct sq_reservation *r,
		     time_t now, struct sq_action *inv)
{
	size_t i;

	if (a->type == SQ_ACTION_RESV_DELETE) {
		set_time(inv, "start", r->start_time, now);
		set_time(inv, "end", r->end_time, now);
		set_str(inv, "nodes", r->nodes);
		set_str(inv, "partition", r->partition);
		set_str(inv, "users", r->users);
		set_str(inv, "accounts", r->accounts);
		set_flags(inv, r->flags);
		return 0;
	}
	for (i = 0; i < a->nargs; i++) {
		const char *k = a->args[i];

		if (strncmp(k, "nodes=", 6) == 0)
			set_str(inv, "nodes", r->nodes);
		else if (strncmp(k, "partition=", 10) == 0)
			set_str(inv, "partition", r->partition);
		else if (strncmp(k, "users=", 6) == 0)
			set_str(inv, "users", r->users);
		else if (strncmp(k, "accounts=", 9) == 0)
			set_str(inv, "accounts", r->accounts);
		else if (strncmp(k, "flags=", 6) == 0)
			unchange_flags(inv, k + 6, r->flags);
		else {
			/* a new start moves the end too (Slurm keeps the
			 * duration): both back; a new end or duration:
			 * the end */
			if (strncmp(k, "start=", 6) == 0)
				set_time(inv, "start", r->start_time, now);
			set_time(inv, "end", r->end_time, now);
		}
	}
	return inv->nargs > 0 ? 0 : -1;
}

int
sq_resv_inverse(const struct sq_action *a, const char *target,
		const struct sq_reservation *before, time_t now, char *buf,
		size_t n)
{
	struct sq_action inv;
	int rc = -1;

	buf[0] = '\0';
	sq_action_init(&inv, a->def->inverse);
	sq_action_add_target(&inv, target, NULL);
	if (a->type == SQ_ACTION_RESV_CREATE ||
	    (before != NULL && sq_resv_inverse_args(a, before, now, &inv) == 0))
		rc = sq_action_format(&inv, buf, n);
	sq_action_free(&inv);
	return rc;
}
