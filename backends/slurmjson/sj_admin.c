/*
 * sj_admin.c - accounting records from JSON: slurmdbd's associations,
 * accounts, users and QOS, in both the v0.0.38 and data_parser shapes
 * (slurmctld's reservations and fairshare tree are sj_ctld_admin.c).
 *
 * Limits follow sacctmgr: a limit that is not set (null, or the data
 * parser's {set:false,infinite:true}) is SQ_NONE, as an empty sacctmgr
 * field is; TRES lists become "cpu=8,gres/gpu=6" strings; minutes become
 * seconds. Associations come out in sacctmgr's tree order with depths.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/base/buf.h"
#include "core/model/model_admin.h"

/* A limit in minutes, as seconds; one too large to count in seconds is
 * no limit at all (fuzz json_qos: x * 60 overflowed int64_t). */
static int64_t
limit_minutes(json_object *v)
{
	int64_t x = sq_sj_limit(v);

	return x == SQ_NONE || x > INT64_MAX / 60 ? SQ_NONE : x * 60;
}

/* A TRES list [{type,name,count}] as sacctmgr prints it. */
static const char *
tres_list(struct sq_snapshot *s, json_object *v)
{
	struct sq_buf b;
	const char *r;
	size_t i, n;

	if (v == NULL)
		return "";
	if (sq_sj_cstr(v) != NULL)
		return sq_sj_str_or_none(s, v);
	if (!json_object_is_type(v, json_type_array))
		return "";
	sq_buf_init(&b, 64 * 1024);
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(v, i);
		const char *type = sq_sj_cstr(sq_sj_get(t, "type"));
		const char *name = sq_sj_cstr(sq_sj_get(t, "name"));
		int64_t c = sq_sj_numk(t, "count", SQ_NONE);

		if (type == NULL || *type == '\0' || c < 0)
			continue;
		if (b.len > 0)
			sq_buf_append(&b, ",", 1);
		if (name != NULL && *name != '\0')
			sq_buf_printf(&b, "%s/%s=", type, name);
		else
			sq_buf_printf(&b, "%s=", type);
		if (strcmp(type, "mem") == 0 && c > 0 && c % (1024 * 1024) == 0)
			sq_buf_printf(&b, "%lldT", (long long)(c / 1048576));
		else if (strcmp(type, "mem") == 0 && c > 0 && c % 1024 == 0)
			sq_buf_printf(&b, "%lldG", (long long)(c / 1024));
		else if (strcmp(type, "mem") == 0)
			sq_buf_printf(&b, "%lldM", (long long)c);
		else
			sq_buf_printf(&b, "%lld", (long long)c);
	}
	r = sq_snapshot_strn(s, b.data, b.len);
	sq_buf_free(&b);
	return r;
}

/* Names of a list of strings or of {name: ...} objects, joined. */
static const char *
names(struct sq_snapshot *s, json_object *v)
{
	struct sq_buf b;
	const char *r;
	size_t i, n;

	if (v == NULL || !json_object_is_type(v, json_type_array))
		return sq_sj_str_or_none(s, v);
	sq_buf_init(&b, 1024 * 1024);
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		const char *t = sq_sj_cstr(e);

		if (t == NULL)
			t = sq_sj_cstr(sq_sj_get(e, "name"));
		if (t == NULL || *t == '\0')
			continue;
		if (b.len > 0)
			sq_buf_append(&b, ",", 1);
		sq_buf_printf(&b, "%s", t);
	}
	r = sq_snapshot_strn(s, b.data, b.len);
	sq_buf_free(&b);
	return r;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A list of names sorted, as sacctmgr prints QOS lists. */
static const char *
sorted_names(struct sq_snapshot *s, json_object *v)
{
	const char *list[256];
	struct sq_buf b;
	const char *r;
	size_t i, n, m = 0;

	if (v == NULL || !json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) > 256)
		return names(s, v);
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		const char *t = sq_sj_cstr(json_object_array_get_idx(v, i));

		if (t != NULL && *t != '\0')
			list[m++] = t;
	}
	qsort(list, m, sizeof(list[0]), cmp_str);
	sq_buf_init(&b, 1024 * 1024);
	for (i = 0; i < m; i++)
		sq_buf_printf(&b, "%s%s", i ? "," : "", list[i]);
	r = sq_snapshot_strn(s, b.data, b.len);
	sq_buf_free(&b);
	return r;
}

/* -------------------------------------------------------- associations */

struct tree_key {
	const char *cluster, *parent; /* the account this row hangs under */
	int is_account;               /* users first, then sub-accounts */
	const char *name, *partition;
	size_t row;
};

static int
cmp_key(const void *a, const void *b)
{
	const struct tree_key *x = a, *y = b;
	int c;

	if ((c = strcmp(x->cluster, y->cluster)) != 0)
		return c;
	if ((c = strcmp(x->parent, y->parent)) != 0)
		return c;
	if (x->is_account != y->is_account)
		return x->is_account - y->is_account;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return strcmp(x->partition, y->partition);
}

/* First key hanging under (cluster, account), or n. */
static size_t
children_of(const struct tree_key *k, size_t n, const char *cluster,
	    const char *account)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(k[mid].cluster, cluster);

		if (c == 0)
			c = strcmp(k[mid].parent, account);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && strcmp(k[lo].cluster, cluster) == 0 &&
	    strcmp(k[lo].parent, account) == 0)
		return lo;
	return n;
}

static int
cmp_account(const void *a, const void *b)
{
	const struct tree_key *x = *(const struct tree_key *const *)a;
	const struct tree_key *y = *(const struct tree_key *const *)b;
	int c = strcmp(x->cluster, y->cluster);

	return c != 0 ? c : strcmp(x->name, y->name);
}

/* Has account name a row of its own in cluster? acc: the account rows,
 * sorted by cmp_account. */
static int
has_account(const struct tree_key **acc, size_t nacc, const char *cluster,
	    const char *name)
{
	struct tree_key key = { .cluster = cluster, .name = name };
	const struct tree_key *kp = &key;

	return bsearch(&kp, acc, nacc, sizeof(*acc), cmp_account) != NULL;
}

/* The walk of the tree: rows in tree order, their depths. */
struct tree_walk {
	size_t *order, *stack, out;
	int *depth;
	char *done;
};

/* Depth first from root (an index in k, sorted by cmp_key): an account,
 * its users, then its sub-accounts. */
static void
walk_from(const struct tree_key *k, size_t n, size_t root, struct tree_walk *w)
{
	size_t top = 0;

	w->stack[top++] = root;
	w->depth[root] = 0;
	while (top > 0) {
		size_t cur = w->stack[--top], c, last;

		if (w->done[cur])
			continue;
		w->done[cur] = 1;
		w->order[w->out++] = cur;
		if (!k[cur].is_account)
			continue;
		c = children_of(k, n, k[cur].cluster, k[cur].name);
		last = c;
		while (last < n &&
		       strcmp(k[last].cluster, k[cur].cluster) == 0 &&
		       strcmp(k[last].parent, k[cur].name) == 0)
			last++;
		/* push in reverse so the first child comes out first */
		while (last > c) {
			last--;
			if (!w->done[last] && top < n) {
				w->depth[last] = w->depth[cur] + 1;
				w->stack[top++] = last;
			}
		}
	}
}

/*
 * Put the association rows from index first on in sacctmgr's tree order
 * (an account, its users, then its sub-accounts, depth first) and set
 * their depths. Rows whose parent is missing start trees of their own.
 * O(n log n): a parent is looked up in the account rows sorted by name.
 */
static int
assoc_tree(struct sq_snapshot *s, size_t first, struct sq_err *err)
{
	size_t n = s->nrows - first, i, nacc = 0;
	struct tree_key *k = calloc(n ? n : 1, sizeof(*k));
	const struct tree_key **acc = calloc(n ? n : 1, sizeof(*acc));
	struct tree_walk w = { 0 };
	char *tmp = malloc((n ? n : 1) * s->rowsize);
	int rc = -1;

	w.order = calloc(n ? n : 1, sizeof(*w.order));
	w.stack = calloc(n ? n : 1, sizeof(*w.stack));
	w.depth = calloc(n ? n : 1, sizeof(*w.depth));
	w.done = calloc(n ? n : 1, 1);
	if (!k || !acc || !w.order || !w.stack || !w.depth || !w.done || !tmp) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct sq_assoc *a = sq_snapshot_row(s, first + i);

		k[i].cluster = a->cluster;
		k[i].is_account = a->user[0] == '\0';
		k[i].parent = k[i].is_account ? a->parent : a->account;
		k[i].name = k[i].is_account ? a->account : a->user;
		k[i].partition = a->partition;
		k[i].row = first + i;
	}
	qsort(k, n, sizeof(*k), cmp_key);
	for (i = 0; i < n; i++) {
		if (k[i].is_account)
			acc[nacc++] = &k[i];
	}
	qsort(acc, nacc, sizeof(*acc), cmp_account);
	/* roots: accounts whose parent account has no row of its own */
	for (i = 0; i < n; i++) {
		if (k[i].is_account &&
		    (k[i].parent[0] == '\0' ||
		     !has_account(acc, nacc, k[i].cluster, k[i].parent)))
			walk_from(k, n, i, &w);
	}
	/* anything unreachable (a user whose account has no row) */
	for (i = 0; i < n; i++) {
		if (!w.done[i]) {
			w.depth[i] = k[i].is_account ? 0 : 1;
			w.order[w.out++] = i;
		}
	}
	for (i = 0; i < n; i++) {
		struct sq_assoc *a = (struct sq_assoc *)(tmp + i * s->rowsize);

		memcpy(a, sq_snapshot_row(s, k[w.order[i]].row), s->rowsize);
		a->depth = w.depth[w.order[i]];
	}
	if (n > 0)
		memcpy(sq_snapshot_row(s, first), tmp, n * s->rowsize);
	rc = 0;
out:
	free(k);
	free(acc);
	free(w.order);
	free(w.stack);
	free(w.depth);
	free(w.done);
	free(tmp);
	return rc;
}

static int64_t
assoc_id(json_object *v)
{
	int64_t id;

	if (v != NULL && json_object_is_type(v, json_type_object))
		v = sq_sj_get(v, "id"); /* v0.0.40: {account,...,id} */
	id = sq_sj_num(v, SQ_NONE);
	return id > 0 ? id : SQ_NONE; /* v0.0.41+ write 0 for "unknown" */
}

int
sq_sj_assocs(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	json_object *arr = sq_sj_array(root, "associations", err);
	struct sq_snapshot *s = c->s;
	size_t i, n, first = s->nrows;

	if (arr == NULL)
		return -1;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		json_object *mx = sq_sj_get(o, "max");
		const char *acct = sq_sj_cstr(sq_sj_get(o, "account"));
		struct sq_assoc *a;
		int64_t sh;

		if (acct == NULL || *acct == '\0')
			return sq_err_set(err, SQ_ERR_PARSE,
					  "association %zu has no account",
					  i + 1);
		a = sq_snapshot_add(s);
		if (a == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		a->cluster = sq_sj_str_or_none(s, sq_sj_get(o, "cluster"));
		a->account = sq_snapshot_str(s, acct);
		a->user = sq_sj_str_or_none(s, sq_sj_get(o, "user"));
		a->partition = sq_sj_str_or_none(s, sq_sj_get(o, "partition"));
		a->parent =
		    a->user[0] == '\0'
			? sq_sj_str_or_none(s, sq_sj_get(o, "parent_account"))
			: "";
		a->id = assoc_id(sq_sj_get(o, "id"));
		sh = sq_sj_numk(o, "shares_raw", SQ_NONE);
		a->shares = sh == SQ_SJ_FS_USE_PARENT || sh == SQ_INFINITE
				? SQ_INFINITE
				: (sh < 0 ? SQ_NONE : sh);
		a->priority = sq_sj_limit(sq_sj_get(o, "priority"));
		a->grp_jobs =
		    sq_sj_limit(sq_sj_path(mx, "jobs", "per", "count", NULL));
		a->grp_jobs_accrue = sq_sj_limit(
		    sq_sj_path(mx, "jobs", "per", "accruing", NULL));
		a->grp_submit = sq_sj_limit(
		    sq_sj_path(mx, "jobs", "per", "submitted", NULL));
		a->grp_tres =
		    tres_list(s, sq_sj_path(mx, "tres", "total", NULL));
		a->grp_tres_mins = tres_list(
		    s, sq_sj_path(mx, "tres", "group", "minutes", NULL));
		a->grp_tres_run_mins = tres_list(
		    s, sq_sj_path(mx, "tres", "group", "active", NULL));
		a->grp_wall = limit_minutes(
		    sq_sj_path(mx, "per", "account", "wall_clock", NULL));
		a->max_jobs =
		    sq_sj_limit(sq_sj_path(mx, "jobs", "active", NULL));
		a->max_jobs_accrue =
		    sq_sj_limit(sq_sj_path(mx, "jobs", "accruing", NULL));
		a->max_submit =
		    sq_sj_limit(sq_sj_path(mx, "jobs", "total", NULL));
		a->max_tres =
		    tres_list(s, sq_sj_path(mx, "tres", "per", "job", NULL));
		a->max_tres_per_node =
		    tres_list(s, sq_sj_path(mx, "tres", "per", "node", NULL));
		a->max_tres_mins = tres_list(
		    s, sq_sj_path(mx, "tres", "minutes", "per", "job", NULL));
		a->max_wall = limit_minutes(
		    sq_sj_path(mx, "jobs", "per", "wall_clock", NULL));
		a->qos = sorted_names(s, sq_sj_get(o, "qos"));
		a->default_qos =
		    sq_sj_str_or_none(s, sq_sj_path(o, "default", "qos", NULL));
		a->is_default = sq_sj_bool(sq_sj_get(o, "is_default"), 0);
	}
	return assoc_tree(s, first, err);
}

/* ------------------------------------------------------------ accounts */

static int
map_account(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	struct sq_snapshot *s = c->s;
	json_object *as = sq_sj_get(o, "associations");
	size_t k, m;
	const char *name;
	struct sq_account *a =
	    sq_sj_add_named(s, o, "name", "account", idx, &name, err);

	if (a == NULL)
		return -1;
	a->name = name;
	a->description = sq_sj_str_or_none(s, sq_sj_get(o, "description"));
	a->organization = sq_sj_str_or_none(s, sq_sj_get(o, "organization"));
	a->coordinators = names(s, sq_sj_get(o, "coordinators"));
	a->parent = a->users = "";
	a->shares = SQ_NONE;
	/* the short association list, when the answer has one */
	m = as != NULL && json_object_is_type(as, json_type_array)
		? json_object_array_length(as)
		: 0;
	for (k = 0; k < m; k++) {
		const char *u = sq_sj_cstr(
		    sq_sj_get(json_object_array_get_idx(as, k), "user"));

		if (u == NULL || *u == '\0' || sq_admin_in_list(a->users, u))
			continue;
		if (sq_admin_list_add(s, &a->users, u) == -1)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		a->nusers++;
	}
	return 0;
}

int
sq_sj_accounts(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	return sq_sj_map_list(c, sq_sj_array(root, "accounts", err),
			      map_account, err);
}

/* --------------------------------------------------------------- users */

static int
map_user(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	struct sq_snapshot *s = c->s;
	json_object *as = sq_sj_get(o, "associations");
	json_object *lvl = sq_sj_get(o, "administrator_level");
	size_t k, m;
	const char *name;
	struct sq_user *u =
	    sq_sj_add_named(s, o, "name", "user", idx, &name, err);

	if (u == NULL)
		return -1;
	u->name = name;
	u->default_account =
	    sq_sj_str_or_none(s, sq_sj_path(o, "default", "account", NULL));
	u->default_wckey =
	    sq_sj_str_or_none(s, sq_sj_path(o, "default", "wckey", NULL));
	/* "None" or ["Administrator"] */
	if (lvl != NULL && json_object_is_type(lvl, json_type_array))
		lvl = json_object_array_get_idx(lvl, 0);
	u->admin_level = sq_sj_str(s, lvl, ",");
	u->coordinator_of = names(s, sq_sj_get(o, "coordinators"));
	u->accounts = u->qos = "";
	/* 26.05's v0.0.45 /users has default.qos as a QOS id (0
	 * for none): only a name is shown, the associations tell */
	u->default_qos =
	    sq_sj_cstr(sq_sj_path(o, "default", "qos", NULL)) != NULL
		? sq_sj_str_or_none(s, sq_sj_path(o, "default", "qos", NULL))
		: "";
	m = as != NULL && json_object_is_type(as, json_type_array)
		? json_object_array_length(as)
		: 0;
	for (k = 0; k < m; k++) {
		const char *acct = sq_sj_cstr(
		    sq_sj_get(json_object_array_get_idx(as, k), "account"));

		if (acct != NULL &&
		    sq_admin_list_add(s, &u->accounts, acct) == -1)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	return 0;
}

int
sq_sj_users(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	return sq_sj_map_list(c, sq_sj_array(root, "users", err), map_user,
			      err);
}

/* ----------------------------------------------------------------- QOS */

/* QOS PreemptMode as sacctmgr prints it: "cluster" when not set. */
static const char *
qos_preempt_mode(struct sq_snapshot *s, json_object *v)
{
	const char *m = sq_sj_str(s, v, ",");
	char buf[128];
	size_t i;

	if (*m == '\0' || strcasecmp(m, "DISABLED") == 0 ||
	    strcasecmp(m, "cluster") == 0)
		return "cluster";
	snprintf(buf, sizeof(buf), "%s", m);
	for (i = 0; buf[i] != '\0'; i++) {
		if (buf[i] >= 'A' && buf[i] <= 'Z')
			buf[i] = (char)(buf[i] - 'A' + 'a');
	}
	return sq_snapshot_str(s, buf);
}

static int
map_qos(struct sq_sj_ctx *c, json_object *o, size_t idx, struct sq_err *err)
{
	struct sq_snapshot *s = c->s;
	json_object *mx = sq_sj_path(o, "limits", "max", NULL);
	json_object *pr = sq_sj_get(o, "preempt");
	json_object *gm;
	int64_t t;
	const char *name;
	struct sq_qos *q =
	    sq_sj_add_named(s, o, "name", "QOS", idx, &name, err);

	if (q == NULL)
		return -1;
	q->name = name;
	q->description = sq_sj_str_or_none(s, sq_sj_get(o, "description"));
	q->id = sq_sj_numk(o, "id", SQ_NONE);
	q->priority = sq_sj_limit(sq_sj_get(o, "priority"));
	q->preempt = names(s, sq_sj_get(pr, "list"));
	q->preempt_mode = qos_preempt_mode(s, sq_sj_get(pr, "mode"));
	t = sq_sj_limit(sq_sj_get(pr, "exempt_time"));
	q->preempt_exempt_time = t;
	t = sq_sj_num(sq_sj_path(o, "limits", "grace_time", NULL), SQ_NONE);
	q->grace_time = t >= 0 ? t : SQ_NONE;
	q->flags = names(s, sq_sj_get(o, "flags"));
	q->usage_factor = sq_sj_double(sq_sj_get(o, "usage_factor"));
	q->usage_threshold = sq_sj_double(sq_sj_get(o, "usage_threshold"));
	/* v0.0.40+ say {set: false, infinite: true} for no
	 * threshold, which sacctmgr prints as an empty cell */
	if (isinf(q->usage_threshold))
		q->usage_threshold = NAN;
	q->grp_jobs = sq_sj_limit(sq_sj_path(mx, "active_jobs", "count", NULL));
	q->grp_jobs_accrue =
	    sq_sj_limit(sq_sj_path(mx, "active_jobs", "accruing", NULL));
	q->grp_submit = sq_sj_limit(sq_sj_path(mx, "jobs", "count", NULL));
	q->grp_tres = tres_list(s, sq_sj_path(mx, "tres", "total", NULL));
	/* v0.0.42+ tres.minutes.total; earlier per.qos */
	gm = sq_sj_path(mx, "tres", "minutes", "total", NULL);
	if (gm == NULL || (json_object_is_type(gm, json_type_array) &&
			   json_object_array_length(gm) == 0))
		gm = sq_sj_path(mx, "tres", "minutes", "per", "qos", NULL);
	q->grp_tres_mins = tres_list(s, gm);
	q->grp_tres_run_mins = "";
	q->grp_wall =
	    limit_minutes(sq_sj_path(mx, "wall_clock", "per", "qos", NULL));
	q->max_jobs_pu = sq_sj_limit(
	    sq_sj_path(mx, "jobs", "active_jobs", "per", "user", NULL));
	q->max_jobs_pa = sq_sj_limit(
	    sq_sj_path(mx, "jobs", "active_jobs", "per", "account", NULL));
	q->max_submit_pu =
	    sq_sj_limit(sq_sj_path(mx, "jobs", "per", "user", NULL));
	q->max_submit_pa =
	    sq_sj_limit(sq_sj_path(mx, "jobs", "per", "account", NULL));
	q->max_tres = tres_list(s, sq_sj_path(mx, "tres", "per", "job", NULL));
	q->max_tres_per_node =
	    tres_list(s, sq_sj_path(mx, "tres", "per", "node", NULL));
	q->max_tres_pu =
	    tres_list(s, sq_sj_path(mx, "tres", "per", "user", NULL));
	q->max_tres_pa =
	    tres_list(s, sq_sj_path(mx, "tres", "per", "account", NULL));
	q->max_tres_mins =
	    tres_list(s, sq_sj_path(mx, "tres", "minutes", "per", "job", NULL));
	q->max_wall =
	    limit_minutes(sq_sj_path(mx, "wall_clock", "per", "job", NULL));
	q->min_tres = tres_list(
	    s, sq_sj_path(o, "limits", "min", "tres", "per", "job", NULL));
	return 0;
}

int
sq_sj_qos(struct sq_sj_ctx *c, json_object *root, struct sq_err *err)
{
	/* v0.0.38 answers {"QOS": [...]}, later versions {"qos": [...]} */
	json_object *arr = sq_sj_get(root, "qos");

	if (arr == NULL || !json_object_is_type(arr, json_type_array))
		arr = sq_sj_array(root, "QOS", err);
	return sq_sj_map_list(c, arr, map_qos, err);
}
