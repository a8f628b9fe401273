/*
 * rpc.c - RPC rates from sdiag's counters (rpc.h): the diag kind's
 * "rpc_type" and "rpc_user" rows, the counters of the refreshes kept,
 * and the rows of the rpc-types and rpc-users views.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/model.h"
#include "core/model/model_admin.h"
#include "core/analysis/rpc.h"

/* one type or user's counts at each kept refresh (-1: not listed) */
struct ent {
	enum sq_rpc_scope scope;
	char name[64];
	int64_t c[SQ_RPC_KEEP];
};

struct sq_rpc_hist {
	int n; /* refreshes kept, oldest at 0 */
	time_t t[SQ_RPC_KEEP];
	struct ent *e;
	size_t ne, cap;
};

struct sq_rpc_hist *
sq_rpc_hist_new(void)
{
	return calloc(1, sizeof(struct sq_rpc_hist));
}

void
sq_rpc_hist_free(struct sq_rpc_hist *h)
{
	if (h == NULL)
		return;
	free(h->e);
	free(h);
}

int
sq_rpc_hist_len(const struct sq_rpc_hist *h)
{
	return h == NULL ? 0 : h->n;
}

static int
num_after(const char *v, const char *key, int64_t *out)
{
	const char *p = strstr(v, key);
	char *end;
	long long n;

	*out = SQ_NONE;
	if (p == NULL || (p != v && p[-1] != ' '))
		return -1;
	p += strlen(key);
	errno = 0;
	n = strtoll(p, &end, 10);
	if (end == p || errno != 0 || n < 0 || (*end != ' ' && *end != '\0'))
		return -1;
	*out = n;
	return 0;
}

int
sq_rpc_parse_value(const char *v, int64_t *count, int64_t *ave_time,
		   int64_t *total_time)
{
	(void)num_after(v, "ave_time=", ave_time);
	(void)num_after(v, "total_time=", total_time);
	return num_after(v, "count=", count);
}

/* the reads squall's fetches send (squeue, sinfo, sprio, sdiag, scontrol
 * show ..., scontrol ping for diag's controller lines; slurmrestd's the
 * same, /ping included), as sdiag names them */
static const char *const own_types[] = {
	"REQUEST_JOB_INFO",
	"REQUEST_JOB_INFO_SINGLE",
	"REQUEST_JOB_USER_INFO",
	"REQUEST_NODE_INFO",
	"REQUEST_PARTITION_INFO",
	"REQUEST_PRIORITY_FACTORS",
	"REQUEST_STATS_INFO",
	"REQUEST_BUILD_INFO",
	"REQUEST_RESERVATION_INFO",
	"REQUEST_LICENSE_INFO",
	"REQUEST_ASSOC_MGR_INFO",
	"REQUEST_FED_INFO",
	"REQUEST_JOB_STEP_INFO",
	"REQUEST_STEP_LAYOUT",
	"REQUEST_PING",
};

int
sq_rpc_type_own(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(own_types) / sizeof(own_types[0]); i++) {
		if (strcmp(type, own_types[i]) == 0)
			return 1;
	}
	return 0;
}

static struct ent *
ent_get(struct sq_rpc_hist *h, enum sq_rpc_scope scope, const char *name)
{
	size_t i;
	struct ent *e;

	for (i = 0; i < h->ne; i++) {
		if (h->e[i].scope == scope && strcmp(h->e[i].name, name) == 0)
			return &h->e[i];
	}
	if (h->ne == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		struct ent *n = realloc(h->e, cap * sizeof(*n));

		if (n == NULL)
			return NULL;
		h->e = n;
		h->cap = cap;
	}
	e = &h->e[h->ne++];
	memset(e, 0, sizeof(*e));
	e->scope = scope;
	snprintf(e->name, sizeof(e->name), "%s", name);
	for (i = 0; i < SQ_RPC_KEEP; i++)
		e->c[i] = -1;
	return e;
}

/* Make room for the refresh at t: slot h->n - 1 afterwards. A refresh
 * at the time of the last one (a cached answer) takes its slot. */
static void
hist_step(struct sq_rpc_hist *h, time_t t)
{
	size_t i;

	if (h->n > 0 && h->t[h->n - 1] == t) {
		for (i = 0; i < h->ne; i++)
			h->e[i].c[h->n - 1] = -1;
		return;
	}
	if (h->n == SQ_RPC_KEEP) {
		memmove(h->t, h->t + 1, (SQ_RPC_KEEP - 1) * sizeof(h->t[0]));
		for (i = 0; i < h->ne; i++)
			memmove(h->e[i].c, h->e[i].c + 1,
				(SQ_RPC_KEEP - 1) * sizeof(int64_t));
		h->n--;
	}
	h->t[h->n++] = t;
	for (i = 0; i < h->ne; i++)
		h->e[i].c[h->n - 1] = -1;
}

/* the rate per minute between refreshes i - 1 and i: NAN when unknown
 * (a type not listed before counts from 0 if the refresh before was
 * read; counters that went down were reset) */
static double
rate_at(const struct sq_rpc_hist *h, const struct ent *e, int i)
{
	int64_t a = e->c[i - 1], b = e->c[i];
	double dt = difftime(h->t[i], h->t[i - 1]);

	if (b < 0 || dt <= 0)
		return NAN;
	if (a < 0)
		a = 0;
	if (b < a)
		return NAN;
	return (double)(b - a) * 60.0 / dt;
}

time_t
sq_diag_time(const struct sq_snapshot *diag)
{
	size_t i;

	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);
		char *end;
		long long v;

		if (strcmp(kv->key, "sdiag output at") != 0)
			continue;
		v = strtoll(kv->value, &end, 10);
		/* a time beyond any clock (broken or hostile) is none */
		if (end != kv->value && *end == '\0' && v > 0 &&
		    v < (1LL << 40))
			return (time_t)v;
	}
	return diag->fetched;
}

static int
scope_of(const char *section, enum sq_rpc_scope *scope)
{
	if (strcmp(section, "rpc_type") == 0)
		*scope = SQ_RPC_TYPE;
	else if (strcmp(section, "rpc_user") == 0)
		*scope = SQ_RPC_USER;
	else
		return -1;
	return 0;
}

/* the counters of diag into h's newest slot */
static int
record(const struct sq_snapshot *diag, struct sq_rpc_hist *h)
{
	size_t i;

	hist_step(h, sq_diag_time(diag));
	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);
		enum sq_rpc_scope scope;
		int64_t c, a, t;
		struct ent *e;

		if (scope_of(kv->section, &scope) == -1 ||
		    sq_rpc_parse_value(kv->value, &c, &a, &t) == -1)
			continue;
		e = ent_get(h, scope, kv->key);
		if (e == NULL)
			return -1;
		e->c[h->n - 1] = c;
	}
	return 0;
}

static void
fill_rates(struct sq_rpc *r, const struct sq_rpc_hist *h, const char *name)
{
	size_t i;
	int k;

	r->rate = NAN;
	r->nrates = 0;
	for (i = 0; i < h->ne; i++) {
		const struct ent *e = &h->e[i];

		if (e->scope != r->scope || strcmp(e->name, name) != 0)
			continue;
		for (k = 1; k < h->n; k++)
			r->rates[r->nrates++] = (float)rate_at(h, e, k);
		if (h->n > 1)
			r->rate = rate_at(h, e, h->n - 1);
		return;
	}
}

static int
add_row(struct sq_snapshot *s, const struct sq_kv *kv, enum sq_rpc_scope scope,
	const struct sq_rpc_hist *h, const char *self)
{
	struct sq_rpc *r;
	int64_t c, a, t;

	if (sq_rpc_parse_value(kv->value, &c, &a, &t) == -1)
		return 0;
	r = sq_snapshot_add(s);
	if (r == NULL)
		return -1;
	r->scope = scope;
	r->name = sq_snapshot_str(s, kv->key);
	r->count = c;
	r->ave_time = a;
	r->total_time = t;
	r->own = scope == SQ_RPC_TYPE
		     ? sq_rpc_type_own(kv->key)
		     : self[0] != '\0' && strcmp(kv->key, self) == 0;
	fill_rates(r, h, kv->key);
	return r->name == NULL ? -1 : 0;
}

static void
shares(struct sq_snapshot *s)
{
	int64_t tot[2] = { 0, 0 };
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_rpc *r = sq_snapshot_row(s, i);

		tot[r->scope] += r->count;
	}
	for (i = 0; i < s->nrows; i++) {
		struct sq_rpc *r = sq_snapshot_row(s, i);

		r->share = tot[r->scope] > 0 ? 100.0 * (double)r->count /
						   (double)tot[r->scope]
					     : NAN;
	}
}

int
sq_rpc_build(const struct sq_snapshot *diag, struct sq_rpc_hist *h,
	     const char *self, struct sq_snapshot **out, struct sq_err *err)
{
	struct sq_snapshot *s;
	size_t i;

	*out = NULL;
	if (record(diag, h) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s = sq_snapshot_new(SQ_KIND_RPC, sizeof(struct sq_rpc));
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	s->fetched = diag->fetched;
	s->fetch_ms = diag->fetch_ms;
	s->source = diag->source ? sq_snapshot_str(s, diag->source) : NULL;
	if (h->n < 2)
		s->note = sq_snapshot_str(s, "rates from the next refresh on "
					     "(one sdiag read so far)");
	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);
		enum sq_rpc_scope scope;

		if (scope_of(kv->section, &scope) == -1)
			continue;
		if (add_row(s, kv, scope, h, self) == -1) {
			sq_snapshot_unref(s);
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		}
	}
	shares(s);
	*out = s;
	return 0;
}

int
sq_rpc_view_scope(const char *view_name)
{
	return strcmp(view_name, "rpc-users") == 0 ? SQ_RPC_USER : SQ_RPC_TYPE;
}

int
sq_rpc_row_scope(const void *rec)
{
	return (int)((const struct sq_rpc *)rec)->scope;
}

void
sq_rpc_keep(struct sq_snapshot *s, int scope)
{
	size_t i, m = 0;

	for (i = 0; i < s->nrows; i++) {
		struct sq_rpc *r = sq_snapshot_row(s, i);

		if ((int)r->scope != scope)
			continue;
		if (m != i)
			memcpy(sq_snapshot_row(s, m), r, s->rowsize);
		m++;
	}
	s->nrows = m;
}
