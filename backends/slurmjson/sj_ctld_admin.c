/*
 * sj_ctld_admin.c - the admin records slurmctld serves as JSON (sj_admin.c
 * has slurmdbd's): reservations (/slurm/vX/reservations; REST has no
 * state, so ACTIVE is "now in [start,end)" as scontrol says) and, from
 * v0.0.40, the fairshare tree (/slurm/vX/shares) as sshare prints it,
 * account rows with their depth under the parent; licenses
 * (/slurm/vX/licenses, capitalised keys as scontrol prints them).
 */
#include <math.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "core/base/buf.h"
#include "core/model/model_admin.h"
#include "core/base/parse.h"

/* ------------------------------------------------------------ licenses */

static int
map_license(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	const char *name;
	struct sq_license *l =
	    sq_sj_add_named(c->s, o, "LicenseName", "license", idx, &name, err);

	if (l == NULL)
		return -1;
	l->name = name;
	l->total = sq_sj_numk(o, "Total", SQ_NONE);
	l->used = sq_sj_numk(o, "Used", SQ_NONE);
	l->free = sq_sj_numk(o, "Free", SQ_NONE);
	l->reserved = sq_sj_numk(o, "Reserved", SQ_NONE);
	l->remote = sq_sj_bool(sq_sj_get(o, "Remote"), 0) ? "yes" : "no";
	return 0;
}

int
sq_sj_licenses(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	return sq_sj_map_list(c, sq_sj_array(root, "licenses", err),
			      map_license, err);
}

/* -------------------------------------------------------- reservations */

static int
map_resv(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	struct sq_snapshot *s = c->s;
	const char *name;
	struct sq_reservation *r =
	    sq_sj_add_named(s, o, "name", "reservation", idx, &name, err);
	int64_t msd;

	if (r == NULL)
		return -1;
	r->name = name;
	r->start_time = sq_sj_numk(o, "start_time", SQ_NONE);
	r->end_time = sq_sj_numk(o, "end_time", SQ_NONE);
	if (r->start_time <= 0)
		r->start_time = SQ_NONE;
	if (r->end_time <= 0)
		r->end_time = SQ_NONE;
	r->duration = r->start_time >= 0 && r->end_time >= r->start_time
			  ? r->end_time - r->start_time
			  : SQ_NONE;
	/* REST has no state: scontrol's rule is "now in [start,end)" */
	r->state = r->start_time >= 0 && r->end_time >= 0 &&
			   (int64_t)c->now >= r->start_time &&
			   (int64_t)c->now < r->end_time
		       ? "ACTIVE"
		       : "INACTIVE";
	r->nodes = sq_sj_str_or_none(s, sq_sj_get(o, "node_list"));
	r->node_cnt = sq_sj_numk(o, "node_count", SQ_NONE);
	r->core_cnt = sq_sj_numk(o, "core_count", SQ_NONE);
	r->features = sq_sj_str_or_none(s, sq_sj_get(o, "features"));
	r->partition = sq_sj_str_or_none(s, sq_sj_get(o, "partition"));
	r->flags = sq_sj_str_or_none(s, sq_sj_get(o, "flags"));
	r->tres = sq_sj_str_or_none(s, sq_sj_get(o, "tres"));
	r->users = sq_sj_str_or_none(s, sq_sj_get(o, "users"));
	r->groups = sq_sj_str_or_none(s, sq_sj_get(o, "groups"));
	r->accounts = sq_sj_str_or_none(s, sq_sj_get(o, "accounts"));
	r->licenses = sq_sj_str_or_none(s, sq_sj_get(o, "licenses"));
	r->burst_buffer = sq_sj_str_or_none(s, sq_sj_get(o, "burst_buffer"));
	msd = sq_sj_limit(sq_sj_get(o, "max_start_delay"));
	if (msd > 0) {
		char buf[64];

		sq_fmt_duration(msd, buf, sizeof(buf));
		r->max_start_delay = sq_snapshot_str(s, buf);
	} else {
		r->max_start_delay = "";
	}
	return 0;
}

int
sq_sj_reservations(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	return sq_sj_map_list(c, sq_sj_array(root, "reservations", err),
			      map_resv, err);
}

/* ---------------------------------------------------------- fairshare */

/* "cpu=N,..." from [{name, value}] lists, skipping unset values;
 * divide converts run seconds into minutes. */
static const char *
tres_values(struct sq_snapshot *s, json_object *v, int64_t divide)
{
	struct sq_buf b;
	const char *r;
	size_t i, n;

	if (v == NULL || !json_object_is_type(v, json_type_array))
		return "";
	sq_buf_init(&b, 64 * 1024);
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		const char *name = sq_sj_cstr(sq_sj_get(e, "name"));
		int64_t x = sq_sj_numk(e, "value", SQ_NONE);

		if (name == NULL || x < 0)
			continue;
		sq_buf_printf(&b, "%s%s=%lld", b.len ? "," : "", name,
			      (long long)(x / divide));
	}
	r = sq_snapshot_strn(s, b.data, b.len);
	sq_buf_free(&b);
	return r;
}

/* Depth of an account row: one more than its parent's (found above). */
static int
share_depth(const struct sq_snapshot *s, size_t upto, const char *parent)
{
	size_t i;

	if (parent[0] == '\0')
		return 0;
	for (i = upto; i > 0; i--) {
		const struct sq_share *p = sq_snapshot_row(s, i - 1);

		if (p->user[0] == '\0' && strcmp(p->account, parent) == 0)
			return p->depth + 1;
	}
	return 1;
}

static int
map_share(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	struct sq_snapshot *s = c->s;
	json_object *tres = sq_sj_get(o, "tres");
	const char *parent = sq_sj_cstr(sq_sj_get(o, "parent"));
	int is_user = sq_sj_has(sq_sj_get(o, "type"), "USER");
	const char *name;
	struct sq_share *r =
	    sq_sj_add_named(s, o, "name", "share", idx, &name, err);
	int64_t raw;

	if (r == NULL)
		return -1;
	if (parent == NULL)
		parent = "";
	if (is_user) {
		r->user = name;
		r->account = sq_snapshot_str(s, parent);
		r->parent = r->account;
		r->depth = share_depth(s, s->nrows - 1, r->account);
	} else {
		r->user = "";
		r->account = name;
		r->parent = sq_snapshot_str(s, parent);
		r->depth = share_depth(s, s->nrows - 1, r->parent);
	}
	r->partition = sq_sj_str_or_none(s, sq_sj_get(o, "partition"));
	raw = sq_sj_numk(o, "shares", SQ_NONE);
	r->raw_shares = raw == SQ_SJ_FS_USE_PARENT ? SQ_INFINITE : raw;
	r->norm_shares = sq_sj_double(sq_sj_get(o, "shares_normalized"));
	r->raw_usage = sq_sj_numk(o, "usage", SQ_NONE);
	r->norm_usage = sq_sj_double(sq_sj_get(o, "usage_normalized"));
	r->effective_usage = sq_sj_double(sq_sj_get(o, "effective_usage"));
	/* sshare leaves FairShare empty on account rows */
	r->fairshare =
	    is_user ? sq_sj_double(sq_sj_path(o, "fairshare", "factor", NULL))
		    : NAN;
	r->level_fs = sq_sj_double(sq_sj_path(o, "fairshare", "level", NULL));
	if (r->level_fs == 4294967294.0) /* NO_VAL in v0.0.40/41 */
		r->level_fs = NAN;
	r->grp_tres_mins = tres_values(s, sq_sj_get(tres, "group_minutes"), 1);
	r->tres_run_mins = tres_values(s, sq_sj_get(tres, "run_seconds"), 60);
	return 0;
}

int
sq_sj_shares(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	json_object *sh = sq_sj_get(root, "shares");

	return sq_sj_map_list(c, sq_sj_array(sh, "shares", err), map_share,
			      err);
}
